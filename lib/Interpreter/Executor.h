//===- Executor.h - State of a running program ------------------*- C++ -*-===//
//
// What the files of the interpreter share: the runtime values (Tensor,
// Ptr, BlockPtr), helpers on element types and integers, and the Executor,
// which runs one program at a time. Its exec*Op members live in one file
// per family of ops (see Executor.cpp); the small accessors every family
// uses stay inline here.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_INTERPRETER_EXECUTOR_H
#define TILE_LIB_INTERPRETER_EXECUTOR_H

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Interpreter/Interpreter.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

#include <atomic>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

namespace mlir {
namespace tile {
namespace interp {
namespace detail {

class ClusterScheduler;
class GridScheduler;

/// Combines two values of a reduction the way tile.reduce does (NaN
/// propagates through max and min).
inline double combineFloat(ReduceKind kind, double acc, double v) {
  if (kind == ReduceKind::Sum)
    return acc + v;
  if (kind == ReduceKind::Prod)
    return acc * v;
  if (std::isnan(v) || std::isnan(acc))
    return std::numeric_limits<double>::quiet_NaN();
  return kind == ReduceKind::Max ? std::max(acc, v) : std::min(acc, v);
}

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

inline Kind kindOf(Type t) {
  Type elem = getElementTypeOrSelf(t);
  if (isa<FloatType>(elem))
    return Kind::Float;
  if (isa<PointerType>(elem))
    return Kind::Pointer;
  if (isa<BlockPointerType>(elem))
    return Kind::Block;
  return Kind::Int;
}

inline SmallVector<int64_t> shapeOf(Type t) {
  if (auto tensor = dyn_cast<RankedTensorType>(t))
    return SmallVector<int64_t>(tensor.getShape());
  return {};
}

inline int64_t bitWidth(Type t) {
  Type elem = getElementTypeOrSelf(t);
  if (elem.isIndex())
    return 64;
  return elem.getIntOrFloatBitWidth();
}

/// Wraps `v` to a signed integer of `width` bits (i1 holds 0 or 1).
inline int64_t wrap(int64_t width, int64_t v) {
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
inline uint64_t asUnsigned(int64_t width, int64_t v) {
  if (width >= 64)
    return (uint64_t)v;
  return (uint64_t)v & ((uint64_t(1) << width) - 1);
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

  LogicalResult chargeStep(Operation *op);
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
    case Kind::Float:
      t->f.resize(n);
      break;
    case Kind::Int:
      t->i.resize(n);
      break;
    case Kind::Pointer:
      t->p.resize(n);
      break;
    case Kind::Block:
      break;
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

  DType floatDType(Type t) { return *dtypeOf(getElementTypeOrSelf(t)); }

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
      return error(op) << "out-of-bounds " << what << " of buffer '" << buf.name
                       << "': element offset "
                       << (ptr.offset >= 0 ? ptr.offset / size
                                           : -((-ptr.offset + size - 1) / size))
                       << " is outside [0, " << buf.sizeInBytes() / size << ")";
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
    case DType::I1:
      return *p & 1;
    case DType::I8:
      return (int8_t)*p;
    case DType::I16: {
      int16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case DType::I32: {
      int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    default: {
      int64_t v;
      std::memcpy(&v, p, 8);
      return v;
    }
    }
  }

  void writeInt(Ptr ptr, DType dt, int64_t v) {
    uint8_t *p = buffers[ptr.buffer].bytes.data() + ptr.offset;
    switch (dt) {
    case DType::I1:
      *p = (uint8_t)(v & 1);
      return;
    case DType::I8:
      *p = (uint8_t)v;
      return;
    case DType::I16: {
      int16_t x = (int16_t)v;
      std::memcpy(p, &x, 2);
      return;
    }
    case DType::I32: {
      int32_t x = (int32_t)v;
      std::memcpy(p, &x, 4);
      return;
    }
    default:
      std::memcpy(p, &v, 8);
      return;
    }
  }

  double readFast(Ptr ptr, DType dt) {
    const Buffer &buf = buffers[ptr.buffer];
    if (buf.dtype == dt)
      return buf.get(ptr.offset / dtypeSize(dt));
    return readElem(ptr, dt);
  }

  int callDepth = 0;

  /// Runs `op` (see Executor.cpp).
  LogicalResult execOp(Operation *op);

  // ControlFlowOps.cpp
  LogicalResult execBlock(Block &block, ArrayRef<TensorRef> args,
                          SmallVectorImpl<TensorRef> &yielded);
  LogicalResult execFor(scf::ForOp op);
  LogicalResult execIf(scf::IfOp op);
  LogicalResult execCall(func::CallOp op);
  std::optional<LogicalResult> execControlFlowOp(Operation *op);

  // ArithOps.cpp
  LogicalResult floatUnary(Operation *op, std::function<double(double)> fn);
  LogicalResult floatBinary(Operation *op,
                            std::function<double(double, double)> fn);
  LogicalResult
  intBinary(Operation *op,
            std::function<bool(int64_t, int64_t, int64_t, int64_t &)> fn);
  static bool cmpF(arith::CmpFPredicate p, double a, double b);
  static bool cmpI(arith::CmpIPredicate p, int64_t width, int64_t a, int64_t b);
  LogicalResult execConstant(arith::ConstantOp op);
  LogicalResult execCast(Operation *op);
  LogicalResult execSelect(arith::SelectOp op);
  std::optional<LogicalResult> execArithOp(Operation *op);

  // MathOps.cpp
  std::optional<LogicalResult> execMathOp(Operation *op);

  // ShapeOps.cpp
  static void copyElem(const Tensor &src, int64_t from, Tensor &dst,
                       int64_t to);
  void reshapeTo(Value result, const Tensor &src);
  LogicalResult execBroadcast(BroadcastOp op);
  LogicalResult execTrans(TransOp op);
  std::optional<LogicalResult> execShapeOp(Operation *op);

  // MemoryOps.cpp
  LogicalResult execAddPtr(AddPtrOp op);
  LogicalResult execLoad(LoadOp op);
  LogicalResult execStore(StoreOp op);
  LogicalResult execMakeBlockPtr(MakeBlockPtrOp op);
  LogicalResult execAdvance(AdvanceOp op);
  template <typename Fn>
  LogicalResult forEachBlockElement(Operation *op, const BlockPtr &bp,
                                    RankedTensorType blockType,
                                    ArrayRef<int32_t> check, DType dt, Fn fn);
  LogicalResult execBlockLoad(BlockLoadOp op);
  LogicalResult execAllocShared(AllocSharedOp op);
  FailureOr<std::pair<Tensor *, int64_t>> getStage(Operation *op, Value v,
                                                   Value stage);
  LogicalResult execAsyncCopy(AsyncCopyOp op);
  LogicalResult execLocalLoad(LocalLoadOp op);
  LogicalResult execLocalStore(LocalStoreOp op);
  LogicalResult execBlockStore(BlockStoreOp op);
  std::optional<LogicalResult> execMemoryOp(Operation *op);

  // GridOps.cpp
  FailureOr<std::vector<std::vector<double>>>
  exchangeInCluster(Operation *op, ValueRange values);
  void setElement(Tensor &t, int64_t idx, Type type, double v);
  LogicalResult execAtomicAdd(AtomicAddOp op);
  LogicalResult execWaitAtLeast(WaitAtLeastOp op);
  LogicalResult execClusterReduce(ClusterReduceOp op);
  LogicalResult execClusterGather(ClusterGatherOp op);
  std::optional<LogicalResult> execGridOp(Operation *op);

  // AtomicOps.cpp
  template <typename Fn>
  LogicalResult forEachAtomicElement(Operation *op, Value ptrValue,
                                     Value maskValue, Type elem, Fn update);
  LogicalResult execAtomicRMW(AtomicRMWOp op);
  LogicalResult execAtomicCAS(AtomicCASOp op);
  std::optional<LogicalResult> execAtomicOp(Operation *op);

  // ReduceOps.cpp
  /// Element `idx` of `t` as a scalar of type `elem`.
  static TensorRef scalarOf(const Tensor &t, int64_t idx, Type elem) {
    auto s = make(elem);
    copyElem(t, idx, *s, 0);
    return s;
  }
  /// The value a combiner region yields for (acc, v).
  FailureOr<TensorRef> runCombiner(Region &combiner, TensorRef acc,
                                   TensorRef v);
  /// Folds one line of `src` (its element k at at(k), k < len) from the
  /// first element on with `kind` (`combiner` for custom): after step k the
  /// running value goes into element dstAt(k) of `dst` (rounded to `elem`)
  /// where that is not negative. Reductions keep the last, scans every one.
  LogicalResult foldLine(ReduceKind kind, Region &combiner, const Tensor &src,
                         Type elem, int64_t len,
                         llvm::function_ref<int64_t(int64_t)> at, Tensor &dst,
                         llvm::function_ref<int64_t(int64_t)> dstAt);
  LogicalResult execScan(ScanOp op);
  LogicalResult execReduce(ReduceOp op);
  std::optional<LogicalResult> execReduceOp(Operation *op);

  // DotOps.cpp
  LogicalResult execDot(DotOp op);
  std::optional<LogicalResult> execDotOp(Operation *op);

  // DebugOps.cpp
  LogicalResult execPrint(PrintOp op);
  LogicalResult execAssert(AssertOp op);
  std::optional<LogicalResult> execDebugOp(Operation *op);
};

} // namespace detail
} // namespace interp
} // namespace tile
} // namespace mlir

#endif // TILE_LIB_INTERPRETER_EXECUTOR_H
