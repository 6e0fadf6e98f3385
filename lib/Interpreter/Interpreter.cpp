//===- Interpreter.cpp - Execute tile kernels on the CPU ------------------===//
//
// Each program instance runs the kernel body once; every SSA value holds a
// whole tile (or a scalar) as a host array. Floats are kept as doubles but
// rounded to their element type after every operation, so results match
// what an IEEE implementation of the element type computes, up to the order
// of reductions (which the interpreter performs in float64).
//
//===----------------------------------------------------------------------===//

#include "tile/Interpreter/Interpreter.h"
#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interp;

namespace {

/// Combines two values of a reduction the way tile.reduce does (NaN
/// propagates through max and min).
double combineFloat(ReduceKind kind, double acc, double v) {
  if (kind == ReduceKind::Sum)
    return acc + v;
  if (std::isnan(v) || std::isnan(acc))
    return std::numeric_limits<double>::quiet_NaN();
  return kind == ReduceKind::Max ? std::max(acc, v) : std::min(acc, v);
}

/// Runs the programs of one cluster (tile.cluster_size) one at a time, each
/// on a thread of its own: a program runs until it reaches a cluster op
/// (tile.cluster_reduce, tile.cluster_gather) or ends, then hands over to
/// the next program of the cluster. An exchange completes once every
/// program has contributed, so the programs see the same collectives as on
/// the GPU, in a fixed order (the results do not depend on thread timing).
/// Only the thread holding the turn runs; every hand-over goes through the
/// mutex.
class ClusterScheduler {
public:
  explicit ClusterScheduler(int size)
      : size(size), finished(size, false), nextCollective(size, 0) {}

  /// Blocks until `rank` may run its program.
  bool waitForStart(int rank) {
    std::unique_lock<std::mutex> lock(mutex);
    cv.wait(lock, [&] { return turn == rank || aborted; });
    return !aborted;
  }

  /// Marks `rank`'s program as ended (or failed, which stops the cluster).
  void finish(int rank, bool ok) {
    std::unique_lock<std::mutex> lock(mutex);
    finished[rank] = true;
    if (!ok)
      aborted = true;
    passTurn(rank);
    cv.notify_all();
  }

  /// Contributes `values` from `rank` to its next exchange, `op` (a cluster
  /// op), and returns every program's contribution, by rank; std::nullopt
  /// (with `error` set when this program should report it) when the
  /// cluster cannot complete the exchange.
  std::optional<std::vector<std::vector<double>>>
  exchange(int rank, Operation *op, std::vector<double> values,
           std::string &error) {
    std::unique_lock<std::mutex> lock(mutex);
    size_t k = nextCollective[rank]++;
    if (k == collectives.size())
      collectives.push_back({op, std::vector<std::vector<double>>(size), 0});
    if (collectives[k].op != op) {
      error = "the programs of a cluster reached different cluster ops (on "
              "a GPU the cluster would deadlock)";
      aborted = true;
      cv.notify_all();
      return std::nullopt;
    }
    collectives[k].values[rank] = std::move(values);
    ++collectives[k].contributed;
    while (collectives[k].contributed < size) {
      for (int r = 0; r < size; ++r)
        if (finished[r] && nextCollective[r] <= k) {
          error = "program " + std::to_string(r) +
                  " of this cluster ended without reaching this op (on a "
                  "GPU the cluster would deadlock)";
          aborted = true;
          cv.notify_all();
          return std::nullopt;
        }
      passTurn(rank);
      cv.notify_all();
      cv.wait(lock, [&] { return turn == rank || aborted; });
      if (aborted)
        return std::nullopt;
    }
    return collectives[k].values;
  }

private:
  struct Collective {
    Operation *op;
    std::vector<std::vector<double>> values; // by rank, then value
    int contributed;
  };

  /// Hands the turn to the next program after `rank` that has not ended.
  void passTurn(int rank) {
    for (int s = 1; s <= size; ++s) {
      int r = (rank + s) % size;
      if (!finished[r]) {
        turn = r;
        return;
      }
    }
  }

  std::mutex mutex;
  std::condition_variable cv;
  int size;
  int turn = 0;
  bool aborted = false;
  std::vector<bool> finished;
  std::vector<size_t> nextCollective;
  std::vector<Collective> collectives;
};

/// Runs the programs of a kernel that waits on global memory
/// (tile.wait_at_least) as a GPU keeps programs resident: up to `window`
/// at once, each on a thread of its own, started in program order as
/// others end. One program runs at a time; it hands the turn to the next
/// live program (in program order, wrapping) when it ends or waits for a
/// value not yet written. When every live program waits and no other can
/// start, no program can write what they wait for: a deadlock, reported
/// (on a GPU the kernel would hang).
class GridScheduler {
public:
  GridScheduler(int64_t total, int64_t window) : total(total), window(window) {}

  /// Starts programs (calling `start(id)`, which must launch a thread that
  /// runs `id`) while fewer than `window` live; the first takes the turn.
  template <typename Start> void admit(Start start) {
    std::unique_lock<std::mutex> lock(mutex);
    admitLocked(start);
  }

  /// Blocks until program `id` holds the turn; false once aborted.
  bool waitForTurn(int64_t id) {
    std::unique_lock<std::mutex> lock(mutex);
    cv.wait(lock, [&] { return turn == id || aborted; });
    return !aborted;
  }

  /// Program `id` has ended (or failed, which stops the grid).
  template <typename Start> void finish(int64_t id, bool ok, Start start) {
    std::unique_lock<std::mutex> lock(mutex);
    live.erase(id);
    waiting.clear();
    if (!ok)
      aborted = true;
    admitLocked(start);
    passTurn(id);
    cv.notify_all();
  }

  /// Program `id` waits until `ready()` (read under the turn) holds; false
  /// with `error` set when every live program waits (a deadlock) or the
  /// grid was aborted.
  template <typename Ready, typename Start>
  bool waitUntil(int64_t id, Ready ready, Start start, std::string &error) {
    std::unique_lock<std::mutex> lock(mutex);
    while (!ready()) {
      waiting.insert(id);
      admitLocked(start);
      if (waiting.size() == live.size()) {
        error = "every running program (" + std::to_string(live.size()) +
                ", at most " + std::to_string(window) +
                " at once) waits in tile.wait_at_least for a value no "
                "program has written (on a GPU the kernel would hang)";
        aborted = true;
        cv.notify_all();
        return false;
      }
      passTurn(id);
      cv.notify_all();
      cv.wait(lock, [&] { return turn == id || aborted; });
      if (aborted)
        return false;
    }
    // Progress: the others' values may have changed too.
    waiting.clear();
    return true;
  }

  /// (Lock-free: called under the caller's own lock, which start() takes.)
  bool failed() const { return aborted; }

private:
  template <typename Start> void admitLocked(Start start) {
    while ((int64_t)live.size() < window && next < total) {
      live.insert(next);
      if (turn < 0)
        turn = next;
      start(next++);
    }
  }

  /// Hands the turn to the next live program after `id`, in program order.
  void passTurn(int64_t id) {
    if (live.empty()) {
      turn = -1;
      return;
    }
    auto it = live.upper_bound(id);
    turn = it == live.end() ? *live.begin() : *it;
  }

  std::mutex mutex;
  std::condition_variable cv;
  int64_t total, window;
  int64_t next = 0, turn = -1;
  std::atomic<bool> aborted{false};
  std::set<int64_t> live, waiting;
};

/// A pointer: a buffer index (-1 for null) and a byte offset into it.
/// Pointer arithmetic whose byte offset overflows int64 leaves the pointer
/// `wrapped`: on the GPU its address would wrap around and may land inside
/// the buffer again, so every access through it is reported instead (masked
/// lanes may hold such pointers without error).
struct Ptr {
  int32_t buffer = -1;
  int64_t offset = 0;
  bool wrapped = false;

  /// Moves the pointer by `elements` elements of `size` bytes.
  void advance(int64_t elements, int64_t size) {
    int64_t bytes;
    if (llvm::MulOverflow(elements, size, bytes) ||
        llvm::AddOverflow(offset, bytes, offset))
      wrapped = true;
  }
};

struct BlockPtr {
  Ptr base;
  SmallVector<int64_t> shape, strides, offsets;
};

enum class Kind { Float, Int, Pointer, Block };

/// A runtime value: a scalar (empty shape) or a tile, row-major.
struct Tensor {
  Kind kind = Kind::Float;
  SmallVector<int64_t> shape;
  std::vector<double> f;
  std::vector<int64_t> i;
  std::vector<Ptr> p;
  BlockPtr block;

  int64_t size() const {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }
};
using TensorRef = std::shared_ptr<const Tensor>;

Kind kindOf(Type t) {
  Type elem = getElementTypeOrSelf(t);
  if (isa<FloatType>(elem))
    return Kind::Float;
  if (isa<PointerType>(elem))
    return Kind::Pointer;
  if (isa<BlockPointerType>(elem))
    return Kind::Block;
  return Kind::Int;
}

SmallVector<int64_t> shapeOf(Type t) {
  if (auto tensor = dyn_cast<RankedTensorType>(t))
    return SmallVector<int64_t>(tensor.getShape());
  return {};
}

int64_t bitWidth(Type t) {
  Type elem = getElementTypeOrSelf(t);
  if (elem.isIndex())
    return 64;
  return elem.getIntOrFloatBitWidth();
}

/// a * b + c rounded once to `dt`, as the GPU's fma.rn does. For f16, bf16
/// and f32 operands the product is exact in double; the sum is made
/// round-to-odd in double (the rounded sum, or its neighbour towards the
/// exact sum, whichever has an odd last bit), which a rounding to a format
/// of at most 51 significand bits turns into the correctly rounded result.
/// Rounding the double sum to nearest instead could round twice.
double fmaRoundedOnce(DType dt, double a, double b, double c) {
  if (dt == DType::F64)
    return std::fma(a, b, c);
  double p = a * b;
  double s = p + c;
  if (std::isfinite(s)) {
    // The exact error of the sum (Knuth's two-sum).
    double bv = s - p;
    double e = (p - (s - bv)) + (c - bv);
    uint64_t bits;
    std::memcpy(&bits, &s, sizeof(bits));
    if (e != 0 && (bits & 1) == 0)
      s = std::nextafter(s, e > 0 ? HUGE_VAL : -HUGE_VAL);
  }
  return roundTo(dt, s);
}

/// Wraps `v` to a signed integer of `width` bits (i1 holds 0 or 1).
int64_t wrap(int64_t width, int64_t v) {
  if (width >= 64)
    return v;
  if (width == 1)
    return v & 1;
  uint64_t m = (uint64_t(1) << width) - 1;
  uint64_t u = uint64_t(v) & m;
  if (u >> (width - 1))
    u |= ~m;
  return (int64_t)u;
}

/// The unsigned reading of a stored integer of `width` bits.
uint64_t asUnsigned(int64_t width, int64_t v) {
  if (width >= 64)
    return (uint64_t)v;
  return (uint64_t)v & ((uint64_t(1) << width) - 1);
}

double roundTF32(double v) {
  // TF32 keeps 10 explicit mantissa bits; tensor cores round the f32 input.
  float f = (float)v;
  if (!std::isfinite(f))
    return f;
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u = (u + 0x1000) & 0xffffe000u;
  std::memcpy(&f, &u, 4);
  return f;
}

/// The steps a run may take (RunOptions::maxSteps), shared by its programs,
/// which may run on threads of their own.
struct StepBudget {
  explicit StepBudget(int64_t limit) : limit(limit) {}
  std::atomic<int64_t> used{0};
  int64_t limit;
};

class Executor {
public:
  Executor(std::vector<Buffer> &buffers, const RunOptions &options,
           StepBudget &budget)
      : buffers(buffers), options(options), budget(budget) {}

  /// Makes the cluster ops exchange values through `scheduler` as the
  /// program of rank `rank` in its cluster.
  void setCluster(ClusterScheduler *scheduler, int rank) {
    cluster = scheduler;
    clusterRank = rank;
  }

  /// Makes tile.wait_at_least hand the turn over through `scheduler` as
  /// program `id` of the grid; `start` launches further programs.
  void setGrid(GridScheduler *scheduler, int64_t id,
               std::function<void(int64_t)> start) {
    grid = scheduler;
    gridId = id;
    startProgram = std::move(start);
  }

  LogicalResult runProgram(func::FuncOp kernel, ArrayRef<TensorRef> args,
                           const int64_t pid[3]) {
    for (int a = 0; a < 3; ++a)
      programId[a] = pid[a];
    env.clear();
    sharedBuffers.clear();
    SmallVector<TensorRef> ignored;
    return execBlock(kernel.getBody().front(), args, ignored);
  }

private:
  std::vector<Buffer> &buffers;
  const RunOptions &options;
  StepBudget &budget;

  /// Counts `op` against the run's step budget: its result's elements, at
  /// least 64 (scalar ops cost about as much time as 64 tile elements).
  LogicalResult chargeStep(Operation *op) {
    if (!budget.limit)
      return success();
    int64_t steps = 64;
    if (op->getNumResults())
      if (auto tensor = dyn_cast<RankedTensorType>(op->getResult(0).getType());
          tensor && tensor.hasStaticShape())
        steps = std::max<int64_t>(steps, tensor.getNumElements());
    if (budget.used.fetch_add(steps) + steps <= budget.limit)
      return success();
    return error(op) << "the run took more than " << budget.limit
                     << " steps (elements computed, at least 64 per op); "
                        "the interpreter stops there (tile-run --max-steps)";
  }
  llvm::DenseMap<Value, TensorRef> env;
  /// Contents of each tile.alloc_shared buffer of the running program
  /// (stages x rows x columns), mutated by tile.async_copy.
  llvm::DenseMap<Value, std::shared_ptr<Tensor>> sharedBuffers;
  int64_t programId[3] = {0, 0, 0};
  ClusterScheduler *cluster = nullptr;
  int clusterRank = 0;
  GridScheduler *grid = nullptr;
  int64_t gridId = 0;
  std::function<void(int64_t)> startProgram;

  //===--------------------------------------------------------------------===//
  // Helpers
  //===--------------------------------------------------------------------===//

  InFlightDiagnostic error(Operation *op) {
    InFlightDiagnostic diag = op->emitError();
    diag << "in program (" << programId[0] << ", " << programId[1] << ", "
         << programId[2] << "): ";
    return diag;
  }

  const Tensor &get(Value v) { return *env.lookup(v); }

  static std::shared_ptr<Tensor> make(Type type) {
    auto t = std::make_shared<Tensor>();
    t->kind = kindOf(type);
    t->shape = shapeOf(type);
    int64_t n = t->size();
    switch (t->kind) {
    case Kind::Float: t->f.resize(n); break;
    case Kind::Int: t->i.resize(n); break;
    case Kind::Pointer: t->p.resize(n); break;
    case Kind::Block: break;
    }
    return t;
  }

  void set(Value v, std::shared_ptr<Tensor> t) { env[v] = std::move(t); }

  /// Element `idx` of `t`, or its only element when it is a scalar.
  static double fAt(const Tensor &t, int64_t idx) {
    return t.f.size() == 1 ? t.f[0] : t.f[idx];
  }
  static int64_t iAt(const Tensor &t, int64_t idx) {
    return t.i.size() == 1 ? t.i[0] : t.i[idx];
  }

  DType floatDType(Type t) {
    return *dtypeOf(getElementTypeOrSelf(t));
  }

  /// Validates a memory access of `size` bytes at `ptr`.
  LogicalResult checkAccess(Operation *op, Ptr ptr, int64_t size,
                            StringRef what) {
    if (ptr.buffer < 0 || ptr.buffer >= (int32_t)buffers.size())
      return error(op) << what << " through a null or invalid pointer";
    const Buffer &buf = buffers[ptr.buffer];
    if (ptr.wrapped)
      return error(op) << "out-of-bounds " << what << " of buffer '" << buf.name
                       << "': the pointer's byte offset overflowed 64 bits "
                          "in pointer arithmetic";
    if (ptr.offset < 0 || ptr.offset > buf.sizeInBytes() - size)
      return error(op) << "out-of-bounds " << what << " of buffer '"
                       << buf.name << "': element offset "
                       << (ptr.offset >= 0 ? ptr.offset / size
                                           : -((-ptr.offset + size - 1) / size))
                       << " is outside [0, " << buf.sizeInBytes() / size
                       << ")";
    if (ptr.offset % size != 0)
      return error(op) << "misaligned " << what << " of buffer '" << buf.name
                       << "' at byte offset " << ptr.offset;
    return success();
  }

  /// Reads one element of memory type `dt` at `ptr` (checked by caller).
  double readElem(Ptr ptr, DType dt) {
    const Buffer &buf = buffers[ptr.buffer];
    // Reinterpret the bytes with the pointee type, not the buffer's.
    Buffer view;
    view.dtype = dt;
    view.bytes.assign(buf.bytes.begin() + ptr.offset,
                      buf.bytes.begin() + ptr.offset + dtypeSize(dt));
    return view.get(0);
  }

  void writeElem(Ptr ptr, DType dt, double v) {
    Buffer &buf = buffers[ptr.buffer];
    if (buf.dtype == dt) {
      buf.set(ptr.offset / dtypeSize(dt), v);
      return;
    }
    Buffer view;
    view.dtype = dt;
    view.bytes.assign(dtypeSize(dt), 0);
    view.set(0, v);
    std::copy(view.bytes.begin(), view.bytes.end(),
              buf.bytes.begin() + ptr.offset);
  }

  /// Integers are read and written exactly (through int64, not double:
  /// i64 values beyond 2^53 must survive a copy).
  int64_t readInt(Ptr ptr, DType dt) {
    const uint8_t *p = buffers[ptr.buffer].bytes.data() + ptr.offset;
    switch (dt) {
    case DType::I1: return *p & 1;
    case DType::I8: return (int8_t)*p;
    case DType::I16: { int16_t v; std::memcpy(&v, p, 2); return v; }
    case DType::I32: { int32_t v; std::memcpy(&v, p, 4); return v; }
    default: { int64_t v; std::memcpy(&v, p, 8); return v; }
    }
  }

  void writeInt(Ptr ptr, DType dt, int64_t v) {
    uint8_t *p = buffers[ptr.buffer].bytes.data() + ptr.offset;
    switch (dt) {
    case DType::I1: *p = (uint8_t)(v & 1); return;
    case DType::I8: *p = (uint8_t)v; return;
    case DType::I16: { int16_t x = (int16_t)v; std::memcpy(p, &x, 2); return; }
    case DType::I32: { int32_t x = (int32_t)v; std::memcpy(p, &x, 4); return; }
    default: std::memcpy(p, &v, 8); return;
    }
  }

  double readFast(Ptr ptr, DType dt) {
    const Buffer &buf = buffers[ptr.buffer];
    if (buf.dtype == dt)
      return buf.get(ptr.offset / dtypeSize(dt));
    return readElem(ptr, dt);
  }

  //===--------------------------------------------------------------------===//
  // Structure
  //===--------------------------------------------------------------------===//

  LogicalResult execBlock(Block &block, ArrayRef<TensorRef> args,
                          SmallVectorImpl<TensorRef> &yielded) {
    for (auto [arg, value] : llvm::zip(block.getArguments(), args))
      env[arg] = value;
    for (Operation &op : block) {
      if (op.hasTrait<OpTrait::IsTerminator>()) {
        yielded.clear();
        for (Value v : op.getOperands())
          yielded.push_back(env.lookup(v));
        return success();
      }
      if (failed(chargeStep(&op)) || failed(execOp(&op)))
        return failure();
    }
    return success();
  }

  LogicalResult execFor(scf::ForOp op) {
    int64_t lb = get(op.getLowerBound()).i[0];
    int64_t ub = get(op.getUpperBound()).i[0];
    int64_t step = get(op.getStep()).i[0];
    if (step <= 0)
      return error(op) << "scf.for step must be positive, got " << step;
    SmallVector<TensorRef> iter;
    for (Value v : op.getInitArgs())
      iter.push_back(env.lookup(v));
    Type ivType = op.getInductionVar().getType();
    int64_t width = bitWidth(ivType);
    int64_t count = 0;
    for (int64_t iv = lb; iv < ub;) {
      if (options.maxLoopIterations && ++count > options.maxLoopIterations)
        return error(op) << "loop ran more than "
                         << options.maxLoopIterations
                         << " iterations; check the scalar arguments";
      auto ivValue = make(ivType);
      ivValue->i[0] = iv;
      SmallVector<TensorRef> args{ivValue};
      args.append(iter.begin(), iter.end());
      SmallVector<TensorRef> next;
      if (failed(execBlock(*op.getBody(), args, next)))
        return failure();
      iter = std::move(next);
      // The next value must not overflow the induction variable's type:
      // the GPU's loop would wrap around and never end.
      int64_t nextIv;
      if (llvm::AddOverflow(iv, step, nextIv) || wrap(width, nextIv) != nextIv)
        return error(op) << "the induction variable overflows " << ivType
                         << " after " << iv << " + " << step << " (upper bound "
                         << ub << "); the loop would not end";
      iv = nextIv;
    }
    for (auto [res, value] : llvm::zip(op.getResults(), iter))
      env[res] = value;
    return success();
  }

  LogicalResult execIf(scf::IfOp op) {
    bool cond = get(op.getCondition()).i[0] & 1;
    Region &region = cond ? op.getThenRegion() : op.getElseRegion();
    SmallVector<TensorRef> results;
    if (!region.empty() &&
        failed(execBlock(region.front(), {}, results)))
      return failure();
    for (auto [res, value] : llvm::zip(op.getResults(), results))
      env[res] = value;
    return success();
  }

  /// Calls run the callee's body in an environment of its own, holding
  /// only its arguments: with one shared environment a recursive call would
  /// rebind the SSA values of the activation that is still running (its
  /// arguments and everything it computed), and the caller would continue
  /// with the callee's values. The caller's environment is set aside and
  /// restored when the callee returns, guarded against runaway recursion.
  LogicalResult execCall(func::CallOp op) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        op, op.getCalleeAttr());
    if (!callee || callee.isExternal())
      return error(op) << "cannot call '" << op.getCallee()
                       << "': no function body in this module";
    if (++callDepth > 64) {
      --callDepth;
      return error(op) << "call depth exceeds 64 (recursion?)";
    }
    SmallVector<TensorRef> args;
    for (Value v : op.getOperands())
      args.push_back(env.lookup(v));
    llvm::DenseMap<Value, TensorRef> callerEnv = std::move(env);
    env.clear();
    SmallVector<TensorRef> results;
    LogicalResult result = execBlock(callee.getBody().front(), args, results);
    env = std::move(callerEnv);
    --callDepth;
    if (failed(result))
      return failure();
    for (auto [res, value] : llvm::zip(op.getResults(), results))
      env[res] = value;
    return success();
  }
  int callDepth = 0;

  //===--------------------------------------------------------------------===//
  // Elementwise
  //===--------------------------------------------------------------------===//

  LogicalResult floatUnary(Operation *op, std::function<double(double)> fn) {
    const Tensor &a = get(op->getOperand(0));
    Type type = op->getResult(0).getType();
    DType dt = floatDType(type);
    auto r = make(type);
    for (int64_t k = 0, n = r->size(); k < n; ++k)
      r->f[k] = roundTo(dt, fn(a.f[k]));
    set(op->getResult(0), r);
    return success();
  }

  LogicalResult floatBinary(Operation *op,
                            std::function<double(double, double)> fn) {
    const Tensor &a = get(op->getOperand(0)), &b = get(op->getOperand(1));
    Type type = op->getResult(0).getType();
    DType dt = floatDType(type);
    auto r = make(type);
    for (int64_t k = 0, n = r->size(); k < n; ++k)
      r->f[k] = roundTo(dt, fn(a.f[k], b.f[k]));
    set(op->getResult(0), r);
    return success();
  }

  /// Integer op on the unsigned or signed readings of its operands; `fn`
  /// returns false to signal division by zero.
  LogicalResult intBinary(Operation *op,
                          std::function<bool(int64_t, int64_t, int64_t,
                                             int64_t &)>
                              fn) {
    const Tensor &a = get(op->getOperand(0)), &b = get(op->getOperand(1));
    Type type = op->getResult(0).getType();
    int64_t width = bitWidth(type);
    auto r = make(type);
    for (int64_t k = 0, n = r->size(); k < n; ++k) {
      int64_t out = 0;
      if (!fn(width, a.i[k], b.i[k], out))
        return error(op) << "integer division by zero";
      r->i[k] = wrap(width, out);
    }
    set(op->getResult(0), r);
    return success();
  }

  static bool cmpF(arith::CmpFPredicate p, double a, double b) {
    using P = arith::CmpFPredicate;
    bool unordered = std::isnan(a) || std::isnan(b);
    switch (p) {
    case P::AlwaysFalse: return false;
    case P::AlwaysTrue: return true;
    case P::OEQ: return !unordered && a == b;
    case P::OGT: return !unordered && a > b;
    case P::OGE: return !unordered && a >= b;
    case P::OLT: return !unordered && a < b;
    case P::OLE: return !unordered && a <= b;
    case P::ONE: return !unordered && a != b;
    case P::ORD: return !unordered;
    case P::UEQ: return unordered || a == b;
    case P::UGT: return unordered || a > b;
    case P::UGE: return unordered || a >= b;
    case P::ULT: return unordered || a < b;
    case P::ULE: return unordered || a <= b;
    case P::UNE: return unordered || a != b;
    case P::UNO: return unordered;
    }
    return false;
  }

  static bool cmpI(arith::CmpIPredicate p, int64_t width, int64_t a,
                   int64_t b) {
    using P = arith::CmpIPredicate;
    uint64_t ua = asUnsigned(width, a), ub = asUnsigned(width, b);
    // i1 is stored as 0/1; its signed reading is 0/-1.
    if (width == 1) {
      a = -a;
      b = -b;
    }
    switch (p) {
    case P::eq: return a == b;
    case P::ne: return a != b;
    case P::slt: return a < b;
    case P::sle: return a <= b;
    case P::sgt: return a > b;
    case P::sge: return a >= b;
    case P::ult: return ua < ub;
    case P::ule: return ua <= ub;
    case P::ugt: return ua > ub;
    case P::uge: return ua >= ub;
    }
    return false;
  }

  LogicalResult execConstant(arith::ConstantOp op) {
    Type type = op.getType();
    auto r = make(type);
    Attribute value = op.getValue();
    if (auto f = dyn_cast<FloatAttr>(value)) {
      r->f[0] = f.getValueAsDouble();
    } else if (auto i = dyn_cast<IntegerAttr>(value)) {
      r->i[0] = wrap(bitWidth(type), i.getValue().getSExtValue());
      if (bitWidth(type) == 1)
        r->i[0] = i.getValue().getBoolValue();
    } else if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
      if (r->kind == Kind::Float) {
        int64_t k = 0;
        if (dense.isSplat())
          std::fill(r->f.begin(), r->f.end(),
                    dense.getSplatValue<APFloat>().convertToDouble());
        else
          for (APFloat v : dense.getValues<APFloat>())
            r->f[k++] = v.convertToDouble();
      } else {
        int64_t width = bitWidth(type), k = 0;
        auto conv = [&](const APInt &v) {
          return width == 1 ? (int64_t)v.getBoolValue()
                            : wrap(width, v.getSExtValue());
        };
        if (dense.isSplat())
          std::fill(r->i.begin(), r->i.end(),
                    conv(dense.getSplatValue<APInt>()));
        else
          for (APInt v : dense.getValues<APInt>())
            r->i[k++] = conv(v);
      }
    } else {
      return error(op) << "unsupported constant " << value;
    }
    set(op.getResult(), r);
    return success();
  }

  LogicalResult execCast(Operation *op) {
    Value in = op->getOperand(0);
    Type inType = in.getType(), outType = op->getResult(0).getType();
    const Tensor &a = get(in);
    auto r = make(outType);
    int64_t inWidth = bitWidth(inType), outWidth = bitWidth(outType);
    for (int64_t k = 0, n = r->size(); k < n; ++k) {
      if (isa<arith::ExtFOp, arith::TruncFOp>(op)) {
        r->f[k] = roundTo(floatDType(outType), a.f[k]);
      } else if (isa<arith::SIToFPOp>(op)) {
        int64_t v = inWidth == 1 ? -a.i[k] : a.i[k];
        r->f[k] = roundTo(floatDType(outType), (double)v);
      } else if (isa<arith::UIToFPOp>(op)) {
        r->f[k] = roundTo(floatDType(outType),
                          (double)asUnsigned(inWidth, a.i[k]));
      } else if (isa<arith::FPToSIOp, arith::FPToUIOp>(op)) {
        // Saturating, NaN -> 0, as the GPU's cvt.rzi does.
        double v = std::trunc(a.f[k]);
        double lo = isa<arith::FPToUIOp>(op) ? 0.0
                                             : -std::ldexp(1.0, outWidth - 1);
        double hi = isa<arith::FPToUIOp>(op) ? std::ldexp(1.0, outWidth) - 1
                                             : std::ldexp(1.0, outWidth - 1) - 1;
        if (std::isnan(v))
          v = 0;
        v = std::min(std::max(v, lo), std::min(hi, 9.2e18));
        r->i[k] = wrap(outWidth, (int64_t)v);
      } else if (isa<arith::ExtSIOp, arith::IndexCastOp>(op)) {
        int64_t v = inWidth == 1 ? -a.i[k] : a.i[k];
        r->i[k] = wrap(outWidth, v);
      } else if (isa<arith::ExtUIOp, arith::IndexCastUIOp>(op)) {
        r->i[k] = wrap(outWidth, (int64_t)asUnsigned(inWidth, a.i[k]));
      } else if (isa<arith::TruncIOp>(op)) {
        r->i[k] = wrap(outWidth, a.i[k]);
      } else {
        return error(op) << "unsupported cast";
      }
    }
    set(op->getResult(0), r);
    return success();
  }

  LogicalResult execSelect(arith::SelectOp op) {
    const Tensor &c = get(op.getCondition());
    const Tensor &a = get(op.getTrueValue()), &b = get(op.getFalseValue());
    auto r = make(op.getType());
    for (int64_t k = 0, n = r->size(); k < n; ++k) {
      bool pick = iAt(c, k) & 1;
      switch (r->kind) {
      case Kind::Float: r->f[k] = pick ? a.f[k] : b.f[k]; break;
      case Kind::Int: r->i[k] = pick ? a.i[k] : b.i[k]; break;
      case Kind::Pointer: r->p[k] = pick ? a.p[k] : b.p[k]; break;
      case Kind::Block: r->block = pick ? a.block : b.block; break;
      }
    }
    set(op.getResult(), r);
    return success();
  }

  //===--------------------------------------------------------------------===//
  // Tile ops
  //===--------------------------------------------------------------------===//

  /// Copies element `from` of `src` into element `to` of `dst`.
  static void copyElem(const Tensor &src, int64_t from, Tensor &dst,
                       int64_t to) {
    switch (dst.kind) {
    case Kind::Float: dst.f[to] = src.f[from]; break;
    case Kind::Int: dst.i[to] = src.i[from]; break;
    case Kind::Pointer: dst.p[to] = src.p[from]; break;
    case Kind::Block: break;
    }
  }

  /// A tile with the same elements and a new shape (expand_dims, reshape).
  void reshapeTo(Value result, const Tensor &src) {
    auto r = std::make_shared<Tensor>(src);
    r->shape = shapeOf(result.getType());
    set(result, r);
  }

  LogicalResult execBroadcast(BroadcastOp op) {
    const Tensor &src = get(op.getSrc());
    auto r = make(op.getType());
    int64_t rank = r->shape.size();
    SmallVector<int64_t> srcStrides(rank, 0);
    int64_t stride = 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      srcStrides[d] = src.shape[d] == 1 ? 0 : stride;
      stride *= src.shape[d];
    }
    SmallVector<int64_t> idx(rank, 0);
    for (int64_t k = 0, n = r->size(); k < n; ++k) {
      int64_t from = 0;
      for (int64_t d = 0; d < rank; ++d)
        from += idx[d] * srcStrides[d];
      copyElem(src, from, *r, k);
      for (int64_t d = rank - 1; d >= 0; --d) {
        if (++idx[d] < r->shape[d])
          break;
        idx[d] = 0;
      }
    }
    set(op.getResult(), r);
    return success();
  }

  LogicalResult execTrans(TransOp op) {
    const Tensor &src = get(op.getSrc());
    auto r = make(op.getType());
    ArrayRef<int32_t> order = op.getOrder();
    int64_t rank = r->shape.size();
    SmallVector<int64_t> srcStrides(rank);
    int64_t stride = 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      srcStrides[d] = stride;
      stride *= src.shape[d];
    }
    SmallVector<int64_t> idx(rank, 0);
    for (int64_t k = 0, n = r->size(); k < n; ++k) {
      int64_t from = 0;
      for (int64_t d = 0; d < rank; ++d)
        from += idx[d] * srcStrides[order[d]];
      copyElem(src, from, *r, k);
      for (int64_t d = rank - 1; d >= 0; --d) {
        if (++idx[d] < r->shape[d])
          break;
        idx[d] = 0;
      }
    }
    set(op.getResult(), r);
    return success();
  }

  LogicalResult execAddPtr(AddPtrOp op) {
    const Tensor &ptr = get(op.getPtr()), &off = get(op.getOffset());
    auto r = make(op.getType());
    int64_t size = dtypeSize(*dtypeOf(getPointeeLikeType(
        getElementTypeOrSelf(op.getPtr().getType()))));
    for (int64_t k = 0, n = r->size(); k < n; ++k) {
      r->p[k] = ptr.p[k];
      r->p[k].advance(iAt(off, k), size);
    }
    set(op.getResult(), r);
    return success();
  }

  LogicalResult execLoad(LoadOp op) {
    const Tensor &ptr = get(op.getPtr());
    const Tensor *mask = op.getMask() ? &get(op.getMask()) : nullptr;
    const Tensor *other = op.getOther() ? &get(op.getOther()) : nullptr;
    Type type = op.getType();
    DType dt = *dtypeOf(getElementTypeOrSelf(type));
    int64_t size = dtypeSize(dt);
    auto r = make(type);
    bool isFloatLoad = r->kind == Kind::Float;
    for (int64_t k = 0, n = r->size(); k < n; ++k) {
      if (mask && !(mask->i[k] & 1)) {
        if (isFloatLoad)
          r->f[k] = other ? other->f[k] : 0.0;
        else
          r->i[k] = other ? other->i[k] : 0;
        continue;
      }
      if (failed(checkAccess(op, ptr.p[k], size, "load")))
        return failure();
      if (isFloatLoad)
        r->f[k] = readFast(ptr.p[k], dt);
      else
        r->i[k] = readInt(ptr.p[k], dt);
    }
    set(op.getResult(), r);
    return success();
  }

  LogicalResult execStore(StoreOp op) {
    const Tensor &ptr = get(op.getPtr()), &value = get(op.getValue());
    const Tensor *mask = op.getMask() ? &get(op.getMask()) : nullptr;
    DType dt = *dtypeOf(getElementTypeOrSelf(op.getValue().getType()));
    int64_t size = dtypeSize(dt);
    for (int64_t k = 0, n = ptr.size(); k < n; ++k) {
      if (mask && !(mask->i[k] & 1))
        continue;
      if (failed(checkAccess(op, ptr.p[k], size, "store")))
        return failure();
      if (value.kind == Kind::Float)
        writeElem(ptr.p[k], dt, value.f[k]);
      else
        writeInt(ptr.p[k], dt, value.i[k]);
    }
    return success();
  }

  LogicalResult execMakeBlockPtr(MakeBlockPtrOp op) {
    auto r = make(op.getType());
    r->block.base = get(op.getBase()).p[0];
    for (Value v : op.getShape())
      r->block.shape.push_back(get(v).i[0]);
    for (Value v : op.getStrides())
      r->block.strides.push_back(get(v).i[0]);
    for (Value v : op.getOffsets())
      r->block.offsets.push_back(get(v).i[0]);
    for (int64_t s : r->block.shape)
      if (s < 0)
        return error(op) << "block pointer shape has a negative extent " << s;
    set(op.getResult(), r);
    return success();
  }

  LogicalResult execAdvance(AdvanceOp op) {
    auto r = std::make_shared<Tensor>(get(op.getPtr()));
    for (auto [d, v] : llvm::enumerate(op.getOffsets()))
      if (llvm::AddOverflow(r->block.offsets[d], get(v).i[0],
                            r->block.offsets[d]))
        return error(op) << "block pointer offset along dimension " << d
                         << " overflows 64 bits";
    set(op.getResult(), r);
    return success();
  }

  /// Visits every element of a block: `fn(linear index, pointer, inBounds)`.
  template <typename Fn>
  LogicalResult forEachBlockElement(Operation *op, const BlockPtr &bp,
                                    RankedTensorType blockType,
                                    ArrayRef<int32_t> check, DType dt,
                                    Fn fn) {
    int64_t rank = blockType.getRank();
    SmallVector<bool> checked(rank, false);
    for (int32_t d : check)
      checked[d] = true;
    SmallVector<int64_t> idx(rank, 0);
    int64_t size = dtypeSize(dt);
    for (int64_t k = 0, n = blockType.getNumElements(); k < n; ++k) {
      bool inBounds = true, wrapped = false;
      int64_t elemOffset = 0;
      for (int64_t d = 0; d < rank; ++d) {
        int64_t pos, step;
        wrapped |= llvm::AddOverflow(bp.offsets[d], idx[d], pos);
        if (checked[d] && (wrapped || pos < 0 || pos >= bp.shape[d]))
          inBounds = false;
        wrapped |= llvm::MulOverflow(pos, bp.strides[d], step) ||
                   llvm::AddOverflow(elemOffset, step, elemOffset);
      }
      Ptr ptr = bp.base;
      ptr.advance(elemOffset, size);
      ptr.wrapped |= wrapped;
      if (failed(fn(k, ptr, inBounds)))
        return failure();
      for (int64_t d = rank - 1; d >= 0; --d) {
        if (++idx[d] < blockType.getDimSize(d))
          break;
        idx[d] = 0;
      }
    }
    return success();
  }

  LogicalResult execBlockLoad(BlockLoadOp op) {
    const BlockPtr &bp = get(op.getPtr()).block;
    RankedTensorType type = op.getType();
    DType dt = *dtypeOf(type.getElementType());
    int64_t size = dtypeSize(dt);
    auto r = make(type);
    double pad = 0;
    if (op.getPadding() == PaddingKind::NaN)
      pad = std::numeric_limits<double>::quiet_NaN();
    else if (op.getPadding() == PaddingKind::NegInf)
      pad = -std::numeric_limits<double>::infinity();
    LogicalResult result = forEachBlockElement(
        op, bp, type, op.getCheck(), dt,
        [&](int64_t k, Ptr ptr, bool inBounds) -> LogicalResult {
          if (inBounds && failed(checkAccess(op, ptr, size, "block load")))
            return failure();
          if (r->kind == Kind::Float)
            r->f[k] = inBounds ? readFast(ptr, dt) : pad;
          else // integer blocks pad with zero (the verifier allows no other)
            r->i[k] = inBounds ? readInt(ptr, dt) : 0;
          return success();
        });
    if (failed(result))
      return failure();
    set(op.getResult(), r);
    return success();
  }

  LogicalResult execAllocShared(AllocSharedOp op) {
    auto type = cast<SharedBufferType>(op.getType());
    auto buffer = std::make_shared<Tensor>();
    buffer->kind = kindOf(type.getElementType());
    buffer->shape = {type.getStages(), type.getBlockType().getDimSize(0),
                     type.getBlockType().getDimSize(1)};
    // Shared memory starts undefined: NaN makes a read before any copy
    // visible in float results.
    if (buffer->kind == Kind::Float)
      buffer->f.assign(buffer->size(),
                       std::numeric_limits<double>::quiet_NaN());
    else
      buffer->i.assign(buffer->size(), 0);
    sharedBuffers[op.getBuffer()] = buffer;
    return success();
  }

  /// The buffer `v` names and the first element of stage `stage`.
  FailureOr<std::pair<Tensor *, int64_t>>
  getStage(Operation *op, Value v, Value stage) {
    auto it = sharedBuffers.find(v);
    if (it == sharedBuffers.end())
      return error(op) << "shared buffer is not a tile.alloc_shared result of "
                          "this kernel",
             failure();
    Tensor &buffer = *it->second;
    int64_t s = get(stage).i[0];
    if (s < 0 || s >= buffer.shape[0])
      return error(op) << "stage " << s << " is outside the buffer's "
                       << buffer.shape[0] << " stages",
             failure();
    return std::make_pair(&buffer, s * buffer.shape[1] * buffer.shape[2]);
  }

  LogicalResult execAsyncCopy(AsyncCopyOp op) {
    auto stage = getStage(op, op.getBuffer(), op.getStage());
    if (failed(stage))
      return failure();
    // Plain variables: lambdas cannot capture structured bindings in C++17.
    Tensor *buffer = stage->first;
    int64_t first = stage->second;
    const BlockPtr &bp = get(op.getPtr()).block;
    auto type = cast<BlockPointerType>(op.getPtr().getType()).getBlockType();
    DType dt = *dtypeOf(type.getElementType());
    int64_t size = dtypeSize(dt);
    return forEachBlockElement(
        op, bp, type, ArrayRef<int32_t>{0, 1}, dt,
        [&](int64_t k, Ptr ptr, bool inBounds) -> LogicalResult {
          if (inBounds && failed(checkAccess(op, ptr, size, "async copy")))
            return failure();
          if (buffer->kind == Kind::Float)
            buffer->f[first + k] = inBounds ? readFast(ptr, dt) : 0.0;
          else
            buffer->i[first + k] = inBounds ? readInt(ptr, dt) : 0;
          return success();
        });
  }

  LogicalResult execLocalLoad(LocalLoadOp op) {
    auto stage = getStage(op, op.getBuffer(), op.getStage());
    if (failed(stage))
      return failure();
    auto [buffer, first] = *stage;
    auto r = make(op.getType());
    for (int64_t k = 0, n = r->size(); k < n; ++k) {
      if (r->kind == Kind::Float)
        r->f[k] = buffer->f[first + k];
      else
        r->i[k] = buffer->i[first + k];
    }
    set(op.getResult(), r);
    return success();
  }

  LogicalResult execLocalStore(LocalStoreOp op) {
    auto stage = getStage(op, op.getBuffer(), op.getStage());
    if (failed(stage))
      return failure();
    auto [buffer, first] = *stage;
    const Tensor &value = get(op.getValue());
    for (int64_t k = 0, n = value.size(); k < n; ++k) {
      if (value.kind == Kind::Float)
        buffer->f[first + k] = value.f[k];
      else
        buffer->i[first + k] = value.i[k];
    }
    return success();
  }

  LogicalResult execBlockStore(BlockStoreOp op) {
    const BlockPtr &bp = get(op.getPtr()).block;
    const Tensor &value = get(op.getValue());
    auto type = cast<RankedTensorType>(op.getValue().getType());
    DType dt = *dtypeOf(type.getElementType());
    int64_t size = dtypeSize(dt);
    return forEachBlockElement(
        op, bp, type, op.getCheck(), dt,
        [&](int64_t k, Ptr ptr, bool inBounds) -> LogicalResult {
          if (!inBounds)
            return success();
          if (failed(checkAccess(op, ptr, size, "block store")))
            return failure();
          if (value.kind == Kind::Float)
            writeElem(ptr, dt, value.f[k]);
          else
            writeInt(ptr, dt, value.i[k]);
          return success();
        });
  }

  /// Every program's `values` (by rank) for the cluster op `op`; a
  /// kernel without clusters (tile.cluster_size = 1) exchanges with itself.
  FailureOr<std::vector<std::vector<double>>>
  exchangeInCluster(Operation *op, ValueRange values) {
    std::vector<double> mine;
    for (Value v : values) {
      const Tensor &t = get(v);
      mine.push_back(t.kind == Kind::Float ? t.f[0] : (double)t.i[0]);
    }
    if (!cluster)
      return std::vector<std::vector<double>>{mine};
    std::string message;
    auto all = cluster->exchange(clusterRank, op, std::move(mine), message);
    if (all)
      return *all;
    if (!message.empty())
      return error(op) << message;
    return failure(); // another program of the cluster failed
  }

  /// `v` as an element of type `type` (f32 or i32).
  void setElement(Tensor &t, int64_t idx, Type type, double v) {
    if (isa<FloatType>(type))
      t.f[idx] = roundTo(DType::F32, v);
    else
      t.i[idx] = wrap(32, (int64_t)v);
  }

  LogicalResult execAtomicAdd(AtomicAddOp op) {
    Ptr ptr = get(op.getPtr()).p[0];
    if (failed(checkAccess(op, ptr, 4, "atomic_add")))
      return failure();
    int64_t old = readInt(ptr, DType::I32);
    writeInt(ptr, DType::I32, wrap(32, old + get(op.getValue()).i[0]));
    auto r = make(op.getType());
    r->i[0] = old;
    set(op.getResult(), r);
    return success();
  }

  LogicalResult execWaitAtLeast(WaitAtLeastOp op) {
    Ptr ptr = get(op.getPtr()).p[0];
    if (failed(checkAccess(op, ptr, 4, "wait_at_least")))
      return failure();
    int64_t target = get(op.getTarget()).i[0];
    auto ready = [&] { return readInt(ptr, DType::I32) >= target; };
    if (ready())
      return success();
    if (!grid)
      return error(op) << "waits for the i32 at its pointer to reach " << target
                       << " (it holds " << readInt(ptr, DType::I32)
                       << ") but no other program is running";
    std::string message;
    if (grid->waitUntil(gridId, ready, startProgram, message))
      return success();
    if (!message.empty())
      return error(op) << message;
    return failure(); // another program failed
  }

  LogicalResult execClusterReduce(ClusterReduceOp op) {
    auto all = exchangeInCluster(op, op.getValue());
    if (failed(all))
      return failure();
    // In rank order: the same result in every program.
    double acc = (*all)[0][0];
    for (size_t r = 1; r < all->size(); ++r)
      acc = combineFloat(op.getKind(), acc, (*all)[r][0]);
    auto r = make(op.getType());
    setElement(*r, 0, op.getType(), acc);
    set(op.getResult(), r);
    return success();
  }

  LogicalResult execClusterGather(ClusterGatherOp op) {
    auto all = exchangeInCluster(op, op.getValues());
    if (failed(all))
      return failure();
    for (auto [k, result] : llvm::enumerate(op.getResults())) {
      auto r = make(result.getType());
      Type elem = getElementTypeOrSelf(result.getType());
      for (int64_t rank = 0, n = r->size(); rank < n; ++rank)
        setElement(*r, rank, elem, (*all)[rank][k]);
      set(result, r);
    }
    return success();
  }

  LogicalResult execReduce(ReduceOp op) {
    const Tensor &src = get(op.getSrc());
    int64_t axis = op.getAxis();
    int64_t outer = 1, inner = 1, len = src.shape[axis];
    for (int64_t d = 0; d < axis; ++d)
      outer *= src.shape[d];
    for (int64_t d = axis + 1; d < (int64_t)src.shape.size(); ++d)
      inner *= src.shape[d];
    Type type = op.getType();
    auto r = make(type);
    ReduceKind kind = op.getKind();
    bool isFloatTile = src.kind == Kind::Float;
    int64_t width = isFloatTile ? 0 : bitWidth(type);
    DType dt = *dtypeOf(getElementTypeOrSelf(type));
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t in = 0; in < inner; ++in) {
        int64_t base = o * len * inner + in;
        if (isFloatTile) {
          double acc = src.f[base];
          for (int64_t k = 1; k < len; ++k)
            acc = combineFloat(kind, acc, src.f[base + k * inner]);
          r->f[o * inner + in] = roundTo(dt, acc);
        } else {
          int64_t acc = src.i[base];
          for (int64_t k = 1; k < len; ++k) {
            int64_t v = src.i[base + k * inner];
            acc = kind == ReduceKind::Sum   ? wrap(width, acc + v)
                  : kind == ReduceKind::Max ? std::max(acc, v)
                                            : std::min(acc, v);
          }
          r->i[o * inner + in] = acc;
        }
      }
    set(op.getResult(), r);
    return success();
  }

  LogicalResult execDot(DotOp op) {
    const Tensor &a = get(op.getA()), &b = get(op.getB()),
                 &c = get(op.getAcc());
    int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
    auto r = make(op.getType());
    DType dt = floatDType(op.getType());
    bool tf32 = op.getPrecision() == InputPrecision::TF32;
    std::vector<double> av(a.f), bv(b.f);
    if (tf32) {
      for (double &v : av)
        v = roundTF32(v);
      for (double &v : bv)
        v = roundTF32(v);
    }
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double acc = 0;
        for (int64_t p = 0; p < k; ++p)
          acc += av[i * k + p] * bv[p * n + j];
        r->f[i * n + j] = roundTo(dt, acc + c.f[i * n + j]);
      }
    set(op.getResult(), r);
    return success();
  }

  LogicalResult execPrint(PrintOp op) {
    if (!options.printStream)
      return success();
    llvm::raw_ostream &os = *options.printStream;
    os << "[pid (" << programId[0] << ", " << programId[1] << ", "
       << programId[2] << ")] " << op.getPrefix();
    for (Value v : op.getArgs()) {
      const Tensor &t = get(v);
      os << " ";
      if (!t.shape.empty())
        os << "[";
      for (int64_t k = 0, n = t.size(); k < n; ++k) {
        if (k)
          os << ", ";
        if (k == 64 && n > 72) {
          os << "... (" << n - 64 << " more)";
          break;
        }
        switch (t.kind) {
        case Kind::Float: os << formatNumber(t.f[k]); break;
        case Kind::Int: os << t.i[k]; break;
        case Kind::Pointer:
          os << "&" << (t.p[k].buffer >= 0 ? buffers[t.p[k].buffer].name
                                           : std::string("null"))
             << "+" << t.p[k].offset;
          break;
        case Kind::Block: os << "<block ptr>"; break;
        }
      }
      if (!t.shape.empty())
        os << "]";
    }
    os << "\n";
    return success();
  }

  //===--------------------------------------------------------------------===//
  // Dispatch
  //===--------------------------------------------------------------------===//

  LogicalResult execOp(Operation *op) {
    using F = double (*)(double);
    auto fp = [&](F fn) { return floatUnary(op, fn); };
    auto ib = [&](auto fn) { return intBinary(op, fn); };
    return llvm::TypeSwitch<Operation *, LogicalResult>(op)
        // Structure.
        .Case([&](scf::ForOp o) { return execFor(o); })
        .Case([&](scf::IfOp o) { return execIf(o); })
        .Case([&](func::CallOp o) { return execCall(o); })
        // Tile ops.
        .Case([&](ProgramIdOp o) {
          auto r = make(o.getType());
          r->i[0] = programId[o.getAxis()];
          set(o.getResult(), r);
          return success();
        })
        .Case([&](NumProgramsOp o) {
          auto r = make(o.getType());
          r->i[0] = options.grid[o.getAxis()];
          set(o.getResult(), r);
          return success();
        })
        .Case([&](RangeOp o) {
          auto r = make(o.getType());
          for (int64_t k = 0, n = r->size(); k < n; ++k)
            r->i[k] = (int32_t)o.getStart() + k;
          set(o.getResult(), r);
          return success();
        })
        .Case([&](SplatOp o) {
          const Tensor &s = get(o.getSrc());
          auto r = make(o.getType());
          for (int64_t k = 0, n = r->size(); k < n; ++k)
            copyElem(s, 0, *r, k);
          set(o.getResult(), r);
          return success();
        })
        .Case([&](BroadcastOp o) { return execBroadcast(o); })
        .Case([&](ExpandDimsOp o) {
          reshapeTo(o.getResult(), get(o.getSrc()));
          return success();
        })
        // Layouts say which thread holds an element, not its value: one
        // program's tile is the same before and after.
        .Case([&](ConvertLayoutOp o) {
          reshapeTo(o.getResult(), get(o.getSrc()));
          return success();
        })
        .Case([&](OptimizationBarrierOp o) {
          reshapeTo(o.getResult(), get(o.getSrc()));
          return success();
        })
        .Case([&](ReshapeOp o) {
          reshapeTo(o.getResult(), get(o.getSrc()));
          return success();
        })
        .Case([&](TransOp o) { return execTrans(o); })
        .Case([&](AddPtrOp o) { return execAddPtr(o); })
        .Case([&](LoadOp o) { return execLoad(o); })
        .Case([&](StoreOp o) { return execStore(o); })
        .Case([&](MakeBlockPtrOp o) { return execMakeBlockPtr(o); })
        .Case([&](AdvanceOp o) { return execAdvance(o); })
        .Case([&](BlockLoadOp o) { return execBlockLoad(o); })
        .Case([&](BlockStoreOp o) { return execBlockStore(o); })
        .Case([&](AllocSharedOp o) { return execAllocShared(o); })
        .Case([&](AsyncCopyOp o) { return execAsyncCopy(o); })
        .Case([&](LocalLoadOp o) { return execLocalLoad(o); })
        .Case([&](LocalStoreOp o) { return execLocalStore(o); })
        // Copies complete at once here: commits and waits order nothing.
        .Case([&](AsyncCommitOp) { return success(); })
        .Case([&](AsyncWaitOp) { return success(); })
        .Case([&](ReduceOp o) { return execReduce(o); })
        .Case([&](ClusterReduceOp o) { return execClusterReduce(o); })
        .Case([&](AtomicAddOp o) { return execAtomicAdd(o); })
        .Case([&](WaitAtLeastOp o) { return execWaitAtLeast(o); })
        .Case([&](ClusterGatherOp o) { return execClusterGather(o); })
        .Case([&](DotOp o) { return execDot(o); })
        .Case([&](PrintOp o) { return execPrint(o); })
        // arith.
        .Case([&](arith::ConstantOp o) { return execConstant(o); })
        .Case([&](arith::AddFOp) {
          return floatBinary(op, [](double a, double b) { return a + b; });
        })
        .Case([&](arith::SubFOp) {
          return floatBinary(op, [](double a, double b) { return a - b; });
        })
        .Case([&](arith::MulFOp) {
          return floatBinary(op, [](double a, double b) { return a * b; });
        })
        .Case([&](arith::DivFOp) {
          return floatBinary(op, [](double a, double b) { return a / b; });
        })
        .Case([&](arith::RemFOp) {
          return floatBinary(op, [](double a, double b) {
            return std::fmod(a, b);
          });
        })
        .Case([&](arith::MaximumFOp) {
          return floatBinary(op, [](double a, double b) {
            if (std::isnan(a) || std::isnan(b))
              return std::numeric_limits<double>::quiet_NaN();
            if (a == b)
              return std::signbit(a) ? b : a;
            return std::max(a, b);
          });
        })
        .Case([&](arith::MinimumFOp) {
          return floatBinary(op, [](double a, double b) {
            if (std::isnan(a) || std::isnan(b))
              return std::numeric_limits<double>::quiet_NaN();
            if (a == b)
              return std::signbit(a) ? a : b;
            return std::min(a, b);
          });
        })
        .Case([&](arith::MaxNumFOp) {
          return floatBinary(op,
                             [](double a, double b) { return std::fmax(a, b); });
        })
        .Case([&](arith::MinNumFOp) {
          return floatBinary(op,
                             [](double a, double b) { return std::fmin(a, b); });
        })
        .Case([&](arith::NegFOp) { return fp([](double a) { return -a; }); })
        .Case([&](arith::AddIOp) {
          return ib([](int64_t, int64_t a, int64_t b, int64_t &r) {
            r = (int64_t)((uint64_t)a + (uint64_t)b);
            return true;
          });
        })
        .Case([&](arith::SubIOp) {
          return ib([](int64_t, int64_t a, int64_t b, int64_t &r) {
            r = (int64_t)((uint64_t)a - (uint64_t)b);
            return true;
          });
        })
        .Case([&](arith::MulIOp) {
          return ib([](int64_t, int64_t a, int64_t b, int64_t &r) {
            r = (int64_t)((uint64_t)a * (uint64_t)b);
            return true;
          });
        })
        .Case([&](arith::DivSIOp) {
          return ib([](int64_t, int64_t a, int64_t b, int64_t &r) {
            if (b == 0)
              return false;
            r = (b == -1) ? (int64_t)(0 - (uint64_t)a) : a / b;
            return true;
          });
        })
        .Case([&](arith::RemSIOp) {
          return ib([](int64_t, int64_t a, int64_t b, int64_t &r) {
            if (b == 0)
              return false;
            r = (b == -1) ? 0 : a % b;
            return true;
          });
        })
        .Case([&](arith::DivUIOp) {
          return ib([](int64_t w, int64_t a, int64_t b, int64_t &r) {
            if (asUnsigned(w, b) == 0)
              return false;
            r = (int64_t)(asUnsigned(w, a) / asUnsigned(w, b));
            return true;
          });
        })
        .Case([&](arith::RemUIOp) {
          return ib([](int64_t w, int64_t a, int64_t b, int64_t &r) {
            if (asUnsigned(w, b) == 0)
              return false;
            r = (int64_t)(asUnsigned(w, a) % asUnsigned(w, b));
            return true;
          });
        })
        .Case([&](arith::CeilDivSIOp) {
          return ib([](int64_t, int64_t a, int64_t b, int64_t &r) {
            if (b == 0)
              return false;
            int64_t q = a / b;
            r = (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
            return true;
          });
        })
        .Case([&](arith::FloorDivSIOp) {
          return ib([](int64_t, int64_t a, int64_t b, int64_t &r) {
            if (b == 0)
              return false;
            int64_t q = a / b;
            r = (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
            return true;
          });
        })
        .Case([&](arith::AndIOp) {
          return ib([](int64_t, int64_t a, int64_t b, int64_t &r) {
            r = a & b;
            return true;
          });
        })
        .Case([&](arith::OrIOp) {
          return ib([](int64_t, int64_t a, int64_t b, int64_t &r) {
            r = a | b;
            return true;
          });
        })
        .Case([&](arith::XOrIOp) {
          return ib([](int64_t, int64_t a, int64_t b, int64_t &r) {
            r = a ^ b;
            return true;
          });
        })
        .Case([&](arith::ShLIOp) {
          return ib([](int64_t w, int64_t a, int64_t b, int64_t &r) {
            r = (uint64_t)b >= (uint64_t)w ? 0 : (int64_t)((uint64_t)a << b);
            return true;
          });
        })
        .Case([&](arith::ShRSIOp) {
          return ib([](int64_t w, int64_t a, int64_t b, int64_t &r) {
            r = (uint64_t)b >= (uint64_t)w ? (a < 0 ? -1 : 0) : a >> b;
            return true;
          });
        })
        .Case([&](arith::ShRUIOp) {
          return ib([](int64_t w, int64_t a, int64_t b, int64_t &r) {
            r = (uint64_t)b >= (uint64_t)w
                    ? 0
                    : (int64_t)(asUnsigned(w, a) >> b);
            return true;
          });
        })
        .Case([&](arith::MaxSIOp) {
          return ib([](int64_t, int64_t a, int64_t b, int64_t &r) {
            r = std::max(a, b);
            return true;
          });
        })
        .Case([&](arith::MinSIOp) {
          return ib([](int64_t, int64_t a, int64_t b, int64_t &r) {
            r = std::min(a, b);
            return true;
          });
        })
        .Case([&](arith::MaxUIOp) {
          return ib([](int64_t w, int64_t a, int64_t b, int64_t &r) {
            r = asUnsigned(w, a) >= asUnsigned(w, b) ? a : b;
            return true;
          });
        })
        .Case([&](arith::MinUIOp) {
          return ib([](int64_t w, int64_t a, int64_t b, int64_t &r) {
            r = asUnsigned(w, a) <= asUnsigned(w, b) ? a : b;
            return true;
          });
        })
        .Case([&](arith::CmpFOp o) {
          const Tensor &a = get(o.getLhs()), &b = get(o.getRhs());
          auto r = make(o.getType());
          for (int64_t k = 0, n = r->size(); k < n; ++k)
            r->i[k] = cmpF(o.getPredicate(), a.f[k], b.f[k]);
          set(o.getResult(), r);
          return success();
        })
        .Case([&](arith::CmpIOp o) {
          const Tensor &a = get(o.getLhs()), &b = get(o.getRhs());
          int64_t width = bitWidth(o.getLhs().getType());
          auto r = make(o.getType());
          for (int64_t k = 0, n = r->size(); k < n; ++k)
            r->i[k] = cmpI(o.getPredicate(), width, a.i[k], b.i[k]);
          set(o.getResult(), r);
          return success();
        })
        .Case([&](arith::SelectOp o) { return execSelect(o); })
        .Case<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp,
              arith::FPToSIOp, arith::FPToUIOp, arith::ExtSIOp, arith::ExtUIOp,
              arith::TruncIOp, arith::IndexCastOp, arith::IndexCastUIOp>(
            [&](Operation *) { return execCast(op); })
        // math.
        .Case([&](math::ExpOp) {
          return fp([](double a) { return std::exp(a); });
        })
        .Case([&](math::Exp2Op) {
          return fp([](double a) { return std::exp2(a); });
        })
        .Case([&](math::LogOp) {
          return fp([](double a) { return std::log(a); });
        })
        .Case([&](math::Log2Op) {
          return fp([](double a) { return std::log2(a); });
        })
        .Case([&](math::Log1pOp) {
          return fp([](double a) { return std::log1p(a); });
        })
        .Case([&](math::SqrtOp) {
          return fp([](double a) { return std::sqrt(a); });
        })
        .Case([&](math::RsqrtOp) {
          return fp([](double a) { return 1.0 / std::sqrt(a); });
        })
        .Case([&](math::TanhOp) {
          return fp([](double a) { return std::tanh(a); });
        })
        .Case([&](math::ErfOp) {
          return fp([](double a) { return std::erf(a); });
        })
        .Case([&](math::SinOp) {
          return fp([](double a) { return std::sin(a); });
        })
        .Case([&](math::CosOp) {
          return fp([](double a) { return std::cos(a); });
        })
        .Case([&](math::AbsFOp) {
          return fp([](double a) { return std::fabs(a); });
        })
        .Case([&](math::FloorOp) {
          return fp([](double a) { return std::floor(a); });
        })
        .Case([&](math::CeilOp) {
          return fp([](double a) { return std::ceil(a); });
        })
        .Case([&](math::PowFOp) {
          return floatBinary(op,
                             [](double a, double b) { return std::pow(a, b); });
        })
        .Case([&](math::FmaOp o) {
          const Tensor &a = get(o.getA()), &b = get(o.getB()),
                       &c = get(o.getC());
          DType dt = floatDType(o.getType());
          auto r = make(o.getType());
          for (int64_t k = 0, n = r->size(); k < n; ++k)
            r->f[k] = fmaRoundedOnce(dt, a.f[k], b.f[k], c.f[k]);
          set(o.getResult(), r);
          return success();
        })
        .Default([&](Operation *) {
          return error(op) << "the interpreter does not support '"
                           << op->getName() << "'";
        });
  }
};

} // namespace

func::FuncOp mlir::tile::interp::lookupKernel(ModuleOp module,
                                              StringRef name) {
  // Kernels are the module's own functions (not those of nested modules,
  // which a symbol lookup in this module would not find).
  SmallVector<func::FuncOp> kernels;
  for (func::FuncOp f : module.getOps<func::FuncOp>())
    if (isKernel(f))
      kernels.push_back(f);
  if (!name.empty()) {
    for (func::FuncOp f : kernels)
      if (f.getSymName() == name)
        return f;
    InFlightDiagnostic diag = module.emitError()
                              << "no tile kernel named '" << name << "'";
    if (!kernels.empty()) {
      diag << "; kernels here:";
      for (func::FuncOp f : kernels)
        diag << " " << f.getSymName();
    }
    return nullptr;
  }
  if (kernels.size() == 1)
    return kernels.front();
  if (kernels.empty()) {
    module.emitError() << "no function marked 'tile.kernel' in this module";
    return nullptr;
  }
  InFlightDiagnostic diag = module.emitError()
                            << "several kernels; choose one with --kernel:";
  for (func::FuncOp f : kernels)
    diag << " " << f.getSymName();
  return nullptr;
}

/// Programs one thread each, up to 256 resident (see GridScheduler).
static LogicalResult runWaitingPrograms(func::FuncOp kernel,
                                        ArrayRef<TensorRef> values,
                                        std::vector<Buffer> &buffers,
                                        const RunOptions &options,
                                        StepBudget &budget) {
  const int64_t *grid = options.grid;
  int64_t total = grid[0] * grid[1] * grid[2];
  GridScheduler scheduler(total, /*window=*/256);
  std::mutex threadsMutex;
  std::condition_variable threadsDone;
  std::vector<std::thread> threads;
  int64_t started = 0, ended = 0;
  bool ok = true;
  std::function<void(int64_t)> start = [&](int64_t id) {
    std::unique_lock<std::mutex> lock(threadsMutex);
    ++started;
    threads.emplace_back([&, id] {
      bool ran = false;
      if (scheduler.waitForTurn(id)) {
        Executor exec(buffers, options, budget);
        exec.setGrid(&scheduler, id, start);
        int64_t pid[3] = {id % grid[0], id / grid[0] % grid[1],
                          id / (grid[0] * grid[1])};
        ran = succeeded(exec.runProgram(kernel, values, pid));
      }
      scheduler.finish(id, ran, start);
      std::unique_lock<std::mutex> lock(threadsMutex);
      ok &= ran;
      ++ended;
      threadsDone.notify_all();
    });
  };
  scheduler.admit(start);
  {
    std::unique_lock<std::mutex> lock(threadsMutex);
    threadsDone.wait(lock, [&] {
      return ended == started && (started == total || scheduler.failed());
    });
  }
  for (std::thread &t : threads)
    t.join();
  return success(ok && started == total);
}

LogicalResult mlir::tile::interp::runKernel(func::FuncOp kernel,
                                            ArrayRef<ArgValue> args,
                                            std::vector<Buffer> &buffers,
                                            const RunOptions &options) {
  ArrayRef<Type> params = kernel.getArgumentTypes();
  if (params.size() != args.size())
    return kernel.emitError()
           << "kernel '" << kernel.getSymName() << "' takes " << params.size()
           << " arguments but " << args.size() << " were given";
  for (int a = 0; a < 3; ++a)
    if (options.grid[a] < 1)
      return kernel.emitError() << "grid dimension " << a << " is "
                                << options.grid[a] << "; it must be at least 1";

  SmallVector<TensorRef> values;
  for (auto [idx, pair] : llvm::enumerate(llvm::zip(params, args))) {
    auto [type, arg] = pair;
    auto t = std::make_shared<Tensor>();
    t->kind = kindOf(type);
    if (auto ptr = dyn_cast<PointerType>(type)) {
      if (arg.kind != ArgValue::Kind::Buffer)
        return kernel.emitError() << "argument #" << idx << " has type "
                                  << type << " and needs a buffer";
      if (arg.bufferIndex >= (int)buffers.size())
        return kernel.emitError() << "argument #" << idx
                                  << " refers to a missing buffer";
      if (arg.bufferIndex >= 0) {
        const Buffer &buf = buffers[arg.bufferIndex];
        auto want = dtypeOf(ptr.getPointeeType());
        if (!want || *want != buf.dtype)
          return kernel.emitError()
                 << "argument #" << idx << " has type " << type
                 << " but buffer '" << buf.name << "' holds "
                 << dtypeName(buf.dtype);
      }
      t->p.push_back(Ptr{arg.bufferIndex, 0});
    } else if (isa<FloatType>(type)) {
      if (arg.kind == ArgValue::Kind::Buffer)
        return kernel.emitError() << "argument #" << idx << " has type "
                                  << type << " and needs a scalar";
      double v = arg.kind == ArgValue::Kind::Float ? arg.floatValue
                                                   : (double)arg.intValue;
      t->f.push_back(roundTo(*dtypeOf(type), v));
    } else if (isa<IntegerType>(type)) {
      if (arg.kind != ArgValue::Kind::Int)
        return kernel.emitError() << "argument #" << idx << " has type "
                                  << type << " and needs an integer";
      int64_t width = bitWidth(type);
      int64_t v = wrap(width, arg.intValue);
      if (v != arg.intValue && width > 1)
        return kernel.emitError() << "argument #" << idx << " value "
                                  << arg.intValue << " does not fit in "
                                  << type;
      t->i.push_back(v);
    } else {
      return kernel.emitError() << "argument #" << idx << " has unsupported "
                                << "type " << type;
    }
    values.push_back(t);
  }

  int64_t clusterSize = 1;
  if (auto attr = kernel->getAttrOfType<IntegerAttr>(
          TileDialect::getClusterSizeAttrName()))
    clusterSize = attr.getInt();
  if (options.grid[0] % clusterSize != 0)
    return kernel.emitError()
           << "grid dimension 0 is " << options.grid[0]
           << "; it must be a multiple of tile.cluster_size (" << clusterSize
           << ")";

  int64_t pid[3];
  // Programs that wait for one another through global memory run as a GPU
  // keeps them resident (see GridScheduler); tile.cluster_size is then 1.
  bool waits = false;
  kernel.walk([&](WaitAtLeastOp) { waits = true; });
  StepBudget budget(options.maxSteps);
  if (waits && clusterSize == 1)
    return runWaitingPrograms(kernel, values, buffers, options, budget);
  if (clusterSize == 1) {
    Executor exec(buffers, options, budget);
    for (pid[2] = 0; pid[2] < options.grid[2]; ++pid[2])
      for (pid[1] = 0; pid[1] < options.grid[1]; ++pid[1])
        for (pid[0] = 0; pid[0] < options.grid[0]; ++pid[0])
          if (failed(exec.runProgram(kernel, values, pid)))
            return failure();
    return success();
  }
  // Clusters one after another; the programs of each on threads of their
  // own, one running at a time (see ClusterScheduler).
  for (pid[2] = 0; pid[2] < options.grid[2]; ++pid[2])
    for (pid[1] = 0; pid[1] < options.grid[1]; ++pid[1])
      for (int64_t first = 0; first < options.grid[0]; first += clusterSize) {
        ClusterScheduler scheduler((int)clusterSize);
        std::vector<char> ok(clusterSize, 0);
        std::vector<std::thread> threads;
        for (int rank = 0; rank < (int)clusterSize; ++rank)
          threads.emplace_back([&, rank] {
            if (!scheduler.waitForStart(rank)) {
              scheduler.finish(rank, false);
              return;
            }
            Executor exec(buffers, options, budget);
            exec.setCluster(&scheduler, rank);
            int64_t programPid[3] = {first + rank, pid[1], pid[2]};
            ok[rank] = succeeded(exec.runProgram(kernel, values, programPid));
            scheduler.finish(rank, ok[rank]);
          });
        for (std::thread &t : threads)
          t.join();
        if (llvm::is_contained(ok, 0))
          return failure();
      }
  return success();
}
