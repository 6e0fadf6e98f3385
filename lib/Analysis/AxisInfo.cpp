//===- AxisInfo.cpp - Contiguity, divisibility and constancy of tiles -----===//
//
// Transfer functions of the axis-info analysis. Every rule states facts that
// hold for every element; where a precise rule would need knowledge the
// analysis lacks (signs, ranges), it falls back to "unknown" (1).
//
// A recurring helper is AxisInfo::getDivisibilityAt: a rule that produces
// runs of length C must bound the operands' divisibility at positions that
// are multiples of C, which are run starts of an operand only when C is at
// least the operand's own contiguity.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tile;

static constexpr int64_t kMaxDiv = AxisInfo::kMaxDivisibility;

/// Bound on the fixpoint rounds of one scf.for. The rounds terminate on
/// their own (see visitForOp), so the bound only guards against a bug
/// turning into a hang.
static constexpr unsigned kMaxLoopIterations = 128;

//===----------------------------------------------------------------------===//
// Small helpers
//===----------------------------------------------------------------------===//

static int64_t capDiv(int64_t d) { return std::clamp<int64_t>(d, 1, kMaxDiv); }

/// Largest power of two dividing `v`, capped; 0 is divisible by everything.
static int64_t pow2Divisor(int64_t v) {
  if (v == 0)
    return kMaxDiv;
  unsigned tz = llvm::countr_zero(static_cast<uint64_t>(v));
  return tz >= 30 ? kMaxDiv : int64_t(1) << tz;
}

static int64_t pow2Divisor(const APInt &v) {
  if (v.isZero())
    return kMaxDiv;
  unsigned tz = v.countr_zero();
  return tz >= 30 ? kMaxDiv : int64_t(1) << tz;
}

/// Largest power of two <= `v` (v >= 1): dimensions outside tiles need not
/// be powers of two, and every fact must be one.
static int64_t pow2Floor(int64_t v) {
  return v <= 1 ? 1 : static_cast<int64_t>(llvm::bit_floor(uint64_t(v)));
}

/// The axis shape of a value of type `t`: a tile's shape, or the single
/// pseudo-dimension {1} of a scalar (or rank-0 tensor).
static SmallVector<int64_t> axisShape(Type t) {
  if (auto tensor = dyn_cast<RankedTensorType>(t))
    if (tensor.getRank() > 0)
      return SmallVector<int64_t>(tensor.getShape());
  return {1};
}

/// Bit width of an integer (or index) scalar or tile element type.
static unsigned intWidth(Type t) {
  Type elem = getElementTypeOrSelf(t);
  if (auto intType = dyn_cast<IntegerType>(elem))
    return intType.getWidth();
  return 64; // index
}

static bool isPointerLike(Type t) {
  return isa<PointerType>(getElementTypeOrSelf(t));
}

/// Bytes per element of the pointee of a pointer (tile) type, reduced to its
/// power-of-two factor (what divisibility can use); 1 for non-pointers.
static int64_t unitBytesOf(Type t) {
  auto ptr = dyn_cast<PointerType>(getElementTypeOrSelf(t));
  if (!ptr)
    return 1;
  int64_t bytes = AxisInfoAnalysis::getElementBytes(ptr.getPointeeType());
  return int64_t(1) << llvm::countr_zero(uint64_t(bytes));
}

/// Divisibility of every element: where the contiguity is 1, every position
/// starts a run, so that dimension's divisibility divides every element.
/// When every dimension has longer runs, elements differ by 1 somewhere and
/// nothing better than 1 holds.
static int64_t elementDivisibility(const AxisInfo &info) {
  int64_t all = 1;
  for (unsigned d = 0; d < info.getRank(); ++d)
    if (info.getContiguity(d) == 1)
      all = std::max(all, info.getDivisibility(d));
  return all;
}

/// A tile whose elements all equal `value`.
static AxisInfo constantInfo(int64_t value, ArrayRef<int64_t> shape) {
  AxisInfo info = AxisInfo::unknown(shape.size());
  for (unsigned d = 0; d < shape.size(); ++d) {
    info.constancy[d] = shape[d];
    info.divisibility[d] = pow2Divisor(value);
  }
  info.constantValue = value;
  return info;
}

/// Exact facts about the row-major `values` of a tile of shape `shape`.
static AxisInfo exactInfo(ArrayRef<int64_t> values, ArrayRef<int64_t> shape) {
  unsigned rank = shape.size();
  AxisInfo info = AxisInfo::unknown(rank);
  SmallVector<int64_t> strides(rank, 1);
  for (int d = int(rank) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  int64_t n = values.size();
  for (unsigned d = 0; d < rank; ++d) {
    int64_t cont = pow2Floor(shape[d]), cst = pow2Floor(shape[d]);
    for (int64_t i = 0; i < n; ++i) {
      int64_t pos = (i / strides[d]) % shape[d];
      if (pos == 0)
        continue;
      // A break between pos-1 and pos limits groups to powers of two that
      // divide pos (groups are aligned, so pos must start one).
      int64_t align = int64_t(1) << llvm::countr_zero(uint64_t(pos));
      int64_t prev = values[i - strides[d]], cur = values[i];
      if (prev == INT64_MAX || cur != prev + 1)
        cont = std::min(cont, align);
      if (cur != prev)
        cst = std::min(cst, align);
    }
    int64_t div = kMaxDiv;
    for (int64_t i = 0; i < n; ++i)
      if (((i / strides[d]) % shape[d]) % cont == 0)
        div = std::min(div, pow2Divisor(values[i]));
    info.contiguity[d] = cont;
    info.constancy[d] = cst;
    info.divisibility[d] = div;
  }
  return info;
}

/// Folds an integer binary op on the constants `a` and `b` (sign-extended
/// from `width` bits); nullopt when the op is not folded or is undefined.
static std::optional<int64_t> foldBinary(Operation *op, int64_t a, int64_t b,
                                         unsigned width) {
  APInt x(width, a, /*isSigned=*/true), y(width, b, /*isSigned=*/true);
  std::optional<APInt> r =
      llvm::TypeSwitch<Operation *, std::optional<APInt>>(op)
          .Case([&](arith::AddIOp) { return x + y; })
          .Case([&](arith::SubIOp) { return x - y; })
          .Case([&](arith::MulIOp) { return x * y; })
          .Case([&](arith::AndIOp) { return x & y; })
          .Case([&](arith::OrIOp) { return x | y; })
          .Case([&](arith::XOrIOp) { return x ^ y; })
          .Case([&](arith::MaxSIOp) { return llvm::APIntOps::smax(x, y); })
          .Case([&](arith::MinSIOp) { return llvm::APIntOps::smin(x, y); })
          .Case([&](arith::MaxUIOp) { return llvm::APIntOps::umax(x, y); })
          .Case([&](arith::MinUIOp) { return llvm::APIntOps::umin(x, y); })
          .Default([](Operation *) { return std::nullopt; });
  if (!r)
    return std::nullopt;
  return r->getSExtValue();
}

/// The value of `info` when it is a positive power of two.
static std::optional<int64_t> getPow2Constant(const AxisInfo &info) {
  std::optional<int64_t> v = info.getConstantValue();
  if (v && *v > 0 && llvm::isPowerOf2_64(uint64_t(*v)))
    return v;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// AxisInfo
//===----------------------------------------------------------------------===//

AxisInfo::AxisInfo(SmallVector<int64_t> contiguity,
                   SmallVector<int64_t> divisibility,
                   SmallVector<int64_t> constancy,
                   std::optional<int64_t> constantValue)
    : contiguity(std::move(contiguity)), divisibility(std::move(divisibility)),
      constancy(std::move(constancy)), constantValue(constantValue) {
  assert(!this->contiguity.empty() &&
         this->contiguity.size() == this->divisibility.size() &&
         this->contiguity.size() == this->constancy.size() &&
         "axis info needs one entry per dimension, at least one");
}

AxisInfo AxisInfo::unknown(unsigned rank) {
  SmallVector<int64_t> ones(std::max(rank, 1u), 1);
  return AxisInfo(ones, ones, ones);
}

int64_t AxisInfo::getDivisibilityAt(unsigned d, int64_t stride,
                                    int64_t unitBytes) const {
  // Multiples of a multiple of the run length are run starts.
  if (stride >= contiguity[d])
    return divisibility[d];
  // Otherwise the element is a run start plus a multiple of `stride` units.
  int64_t unit = int64_t(1) << llvm::countr_zero(uint64_t(unitBytes));
  return std::min(divisibility[d], capDiv(stride * unit));
}

AxisInfo AxisInfo::join(const AxisInfo &a, const AxisInfo &b,
                        int64_t unitBytes) {
  assert(a.getRank() == b.getRank() && "joining facts of different ranks");
  AxisInfo r = unknown(a.getRank());
  for (unsigned d = 0; d < a.getRank(); ++d) {
    // Shorter runs and groups are sub-runs and sub-groups of longer ones.
    int64_t c = std::min(a.contiguity[d], b.contiguity[d]);
    r.contiguity[d] = c;
    r.constancy[d] = std::min(a.constancy[d], b.constancy[d]);
    r.divisibility[d] = std::min(a.getDivisibilityAt(d, c, unitBytes),
                                 b.getDivisibilityAt(d, c, unitBytes));
  }
  if (a.constantValue == b.constantValue)
    r.constantValue = a.constantValue;
  return r;
}

bool AxisInfo::operator==(const AxisInfo &other) const {
  return contiguity == other.contiguity && divisibility == other.divisibility &&
         constancy == other.constancy && constantValue == other.constantValue;
}

void AxisInfo::print(raw_ostream &os) const {
  auto printList = [&](ArrayRef<int64_t> values) {
    os << '[';
    llvm::interleaveComma(values, os);
    os << ']';
  };
  os << "contiguity = ";
  printList(contiguity);
  os << ", divisibility = ";
  printList(divisibility);
  os << ", constancy = ";
  printList(constancy);
}

//===----------------------------------------------------------------------===//
// Transfer functions of arith ops
//===----------------------------------------------------------------------===//

/// a + b, a - b (`isSub`) and ptr + offset (`unitBytes` > 1 for pointers:
/// offsets count elements, divisibility counts bytes).
static AxisInfo addInfo(const AxisInfo &a, const AxisInfo &b, bool isSub,
                        int64_t unitBytes, bool isPtr) {
  unsigned rank = a.getRank();
  AxisInfo r = AxisInfo::unknown(rank);
  for (unsigned d = 0; d < rank; ++d) {
    // A run of `a` plus a value that is constant over the run is a run, over
    // aligned groups of min(C_a, K_b) positions; the same holds with the
    // roles swapped for addition only (c - run decreases).
    int64_t c = std::min(a.contiguity[d], b.constancy[d]);
    if (!isSub)
      c = std::max(c, std::min(b.contiguity[d], a.constancy[d]));
    r.contiguity[d] = c;
    // Constant over both groups: constant over the smaller (they nest).
    int64_t k = std::min(a.constancy[d], b.constancy[d]);
    // A run minus a run that advances in step is constant.
    if (isSub)
      k = std::max(k, std::min(a.contiguity[d], b.contiguity[d]));
    r.constancy[d] = k;
    // Run starts are at multiples of c; neither operand need start a run of
    // its own there (e.g. range + tile constant over 4: runs of 4 start at
    // 0, 4, 8, ... of the range, values that are only multiples of 4).
    int64_t divA = a.getDivisibilityAt(d, c, isPtr ? unitBytes : 1);
    int64_t divB = b.getDivisibilityAt(d, c);
    if (isPtr)
      divB = capDiv(divB * unitBytes);
    r.divisibility[d] = std::min(divA, divB);
  }
  return r;
}

static AxisInfo mulInfo(const AxisInfo &a, const AxisInfo &b,
                        ArrayRef<int64_t> shape) {
  unsigned rank = a.getRank();
  if (a.getConstantValue() == 0 || b.getConstantValue() == 0)
    return constantInfo(0, shape);
  AxisInfo r = AxisInfo::unknown(rank);
  for (unsigned d = 0; d < rank; ++d) {
    // x * 1 keeps the runs of x; any other product spreads them apart.
    int64_t c = 1;
    if (b.getConstantValue() == 1)
      c = a.contiguity[d];
    else if (a.getConstantValue() == 1)
      c = b.contiguity[d];
    r.contiguity[d] = c;
    r.constancy[d] = std::min(a.constancy[d], b.constancy[d]);
    // (m * Da) * (n * Db) is a multiple of Da * Db.
    r.divisibility[d] =
        capDiv(a.getDivisibilityAt(d, c) * b.getDivisibilityAt(d, c));
  }
  return r;
}

/// a / v, a >> log2(v): division by a power of two v > 1. `roundsDown`
/// when the division rounds towards negative infinity in the op's own
/// interpretation (divui, shrui, shrsi; not divsi, which truncates).
static AxisInfo divByPow2Info(const AxisInfo &a, int64_t v, bool roundsDown) {
  unsigned rank = a.getRank();
  AxisInfo r = AxisInfo::unknown(rank);
  for (unsigned d = 0; d < rank; ++d) {
    int64_t k = a.constancy[d];
    if (roundsDown) {
      // An aligned group of g positions of a run holds s .. s+g-1 with s a
      // multiple of g; as g divides v the group lies within one
      // [q*v, (q+1)*v) and divides to q. Unsigned: s is also a multiple of g
      // as an unsigned number and g divides 2^w, so the group does not wrap.
      int64_t g = std::min(a.contiguity[d], v);
      while (g > 1 && a.getDivisibilityAt(d, g) < g)
        g /= 2;
      k = std::max(k, g);
    }
    r.constancy[d] = k;
    // a = m * Da exactly, so when v divides Da, a / v = m * (Da / v)
    // whatever the rounding.
    int64_t all = a.getDivisibilityAt(d, 1);
    r.divisibility[d] = all >= v ? all / v : 1;
  }
  return r;
}

/// a % v for a power of two v > 1; `isUnsigned` for remui.
static AxisInfo remByPow2Info(const AxisInfo &a, int64_t v, bool isUnsigned) {
  unsigned rank = a.getRank();
  AxisInfo r = AxisInfo::unknown(rank);
  for (unsigned d = 0; d < rank; ++d) {
    r.constancy[d] = a.constancy[d];
    // An aligned group s .. s+g-1 of a run, s a multiple of g and g | v,
    // maps to (s mod v) .. (s mod v)+g-1 without wrapping (s mod v is a
    // multiple of g at most v - g). remsi of negative values breaks this.
    int64_t g = 1;
    if (isUnsigned) {
      g = std::min(a.contiguity[d], v);
      while (g > 1 && a.getDivisibilityAt(d, g) < g)
        g /= 2;
    }
    r.contiguity[d] = g;
    // s = q*v + r with Ds | s: r = 0 when v | Ds, else Ds | r (Ds | v).
    int64_t start = a.getDivisibilityAt(d, g);
    r.divisibility[d] = start >= v ? kMaxDiv : start;
  }
  return r;
}

/// a << k for a constant 0 <= k < width.
static AxisInfo shlInfo(const AxisInfo &a, int64_t k) {
  unsigned rank = a.getRank();
  AxisInfo r = AxisInfo::unknown(rank);
  for (unsigned d = 0; d < rank; ++d) {
    int64_t c = k == 0 ? a.contiguity[d] : 1;
    r.contiguity[d] = c;
    r.constancy[d] = a.constancy[d];
    int64_t div = a.getDivisibilityAt(d, c);
    r.divisibility[d] = k >= 30 ? kMaxDiv : capDiv(div << k);
  }
  return r;
}

/// An op whose every result element is one of the operands' elements at the
/// same position (select, min, max) or is computed from them alone.
/// `pickOnly` when the result is one of the operands' values, which then
/// bounds its divisibility.
static AxisInfo elementwiseInfo(ArrayRef<AxisInfo> operands, unsigned rank,
                                bool pickOnly) {
  AxisInfo r = AxisInfo::unknown(rank);
  for (unsigned d = 0; d < rank; ++d) {
    int64_t k = INT64_MAX, div = INT64_MAX;
    for (const AxisInfo &op : operands) {
      k = std::min(k, op.constancy[d]);
      div = std::min(div, op.getDivisibilityAt(d, 1));
    }
    r.constancy[d] = operands.empty() ? 1 : k;
    r.divisibility[d] = pickOnly && !operands.empty() ? div : 1;
  }
  return r;
}

/// arith.cmpi. Beyond the generic constancy, the mask pattern
/// `offsets < splat(n)`: over an aligned group of g positions the
/// contiguous side holds s .. s+g-1 with g | s, and the other side holds one
/// value n with g | n. Then s < n implies s + g - 1 < n, so x < n (and
/// x >= n) has the same outcome for the whole group. That needs g to divide
/// both s and n, hence g <= divisibility of both at multiples of g. `<=` and
/// `>` do not qualify (x <= s holds for s only), nor do `==` and `!=`.
/// Unsigned predicates qualify too: s is a multiple of g as an unsigned
/// number as well, and g | 2^w keeps the group from wrapping.
static AxisInfo cmpInfo(arith::CmpIPredicate pred, const AxisInfo &lhs,
                        const AxisInfo &rhs) {
  using P = arith::CmpIPredicate;
  unsigned rank = lhs.getRank();
  AxisInfo r = AxisInfo::unknown(rank);
  const AxisInfo *runs = nullptr, *bound = nullptr;
  if (pred == P::slt || pred == P::sge || pred == P::ult || pred == P::uge) {
    runs = &lhs; // x < n, x >= n
    bound = &rhs;
  } else if (pred == P::sgt || pred == P::sle || pred == P::ugt ||
             pred == P::ule) {
    runs = &rhs; // n > x, n <= x
    bound = &lhs;
  }
  for (unsigned d = 0; d < rank; ++d) {
    int64_t k = std::min(lhs.constancy[d], rhs.constancy[d]);
    if (runs) {
      int64_t g = std::min(runs->contiguity[d], bound->constancy[d]);
      while (g > 1 && (runs->getDivisibilityAt(d, g) < g ||
                       bound->getDivisibilityAt(d, g) < g))
        g /= 2;
      k = std::max(k, g);
    }
    r.constancy[d] = k;
  }
  return r;
}

//===----------------------------------------------------------------------===//
// AxisInfoAnalysis
//===----------------------------------------------------------------------===//

bool AxisInfoAnalysis::isTracked(Type type) {
  auto isTrackedScalar = [](Type t) {
    return isa<IntegerType, IndexType, PointerType>(t);
  };
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.hasStaticShape() && isTrackedScalar(tensor.getElementType());
  return isTrackedScalar(type);
}

int64_t AxisInfoAnalysis::getElementBytes(Type pointeeType) {
  if (isa<PointerType>(pointeeType))
    return 8;
  if (pointeeType.isIntOrFloat())
    return std::max<int64_t>(
        1, llvm::divideCeil(pointeeType.getIntOrFloatBitWidth(), 8));
  return 1;
}

AxisInfoAnalysis::AxisInfoAnalysis(func::FuncOp func) {
  if (func.isExternal())
    return;
  bool kernel = isKernel(func);
  for (BlockArgument arg : func.getArguments()) {
    if (!isTracked(arg.getType()))
      continue;
    int64_t div = 1;
    // The runtime allocates every buffer 16-byte aligned; helper functions
    // may be passed any interior pointer.
    if (kernel && isa<PointerType>(arg.getType()))
      div = 16;
    // An explicit attribute is the promise, also when it is weaker than
    // the default for pointers (kernels compiled for unaligned buffers).
    if (auto attr = func.getArgAttrOfType<IntegerAttr>(
            arg.getArgNumber(), getDivisibilityAttrName()))
      if (!attr.getValue().isZero())
        div = pow2Divisor(attr.getValue());
    AxisInfo info = AxisInfo::unknown(axisShape(arg.getType()).size());
    for (int64_t &d : info.divisibility)
      d = div;
    set(arg, info);
  }
  for (Block &block : func.getBody()) {
    // Successor block arguments come from branches: nothing known.
    if (!block.isEntryBlock())
      for (BlockArgument arg : block.getArguments())
        if (isTracked(arg.getType()))
          set(arg, AxisInfo::unknown(axisShape(arg.getType()).size()));
    visitBlock(block);
  }
}

const AxisInfo *AxisInfoAnalysis::lookup(Value v) const {
  auto it = infos.find(v);
  return it == infos.end() ? nullptr : &it->second;
}

AxisInfo AxisInfoAnalysis::get(Value v) const {
  if (const AxisInfo *info = lookup(v))
    return *info;
  return AxisInfo::unknown(axisShape(v.getType()).size());
}

void AxisInfoAnalysis::set(Value v, AxisInfo info) {
  Type type = v.getType();
  SmallVector<int64_t> shape = axisShape(type);
  unsigned rank = shape.size();
  if (info.getRank() != rank)
    info = AxisInfo::unknown(rank);
  if (isPointerLike(type))
    info.constantValue.reset();
  // Runs of i1 would wrap after two values; nothing needs them.
  bool isBool = getElementTypeOrSelf(type).isInteger(1);
  for (unsigned d = 0; d < rank; ++d) {
    int64_t size = pow2Floor(shape[d]);
    info.contiguity[d] = std::clamp<int64_t>(info.contiguity[d], 1, size);
    info.constancy[d] = std::clamp<int64_t>(info.constancy[d], 1, size);
    info.divisibility[d] = capDiv(info.divisibility[d]);
    if (isBool)
      info.contiguity[d] = 1;
  }
  if (std::optional<int64_t> value = info.constantValue) {
    for (unsigned d = 0; d < rank; ++d) {
      info.contiguity[d] = 1;
      info.constancy[d] = pow2Floor(shape[d]);
      info.divisibility[d] =
          std::max(info.divisibility[d], pow2Divisor(*value));
    }
  }
  // A divisibility that holds for every element holds for run starts along
  // every dimension.
  int64_t all = elementDivisibility(info);
  for (int64_t &d : info.divisibility)
    d = std::max(d, all);
  infos[v] = std::move(info);
}

void AxisInfoAnalysis::visitBlock(Block &block) {
  for (Operation &op : block)
    visitOperation(&op);
}

void AxisInfoAnalysis::setUnknownResults(Operation *op) {
  for (Value result : op->getResults())
    if (isTracked(result.getType()))
      set(result, AxisInfo::unknown(axisShape(result.getType()).size()));
}

void AxisInfoAnalysis::visitRegionsConservatively(Operation *op) {
  for (Region &region : op->getRegions())
    for (Block &block : region) {
      for (BlockArgument arg : block.getArguments())
        if (isTracked(arg.getType()))
          set(arg, AxisInfo::unknown(axisShape(arg.getType()).size()));
      visitBlock(block);
    }
}

void AxisInfoAnalysis::visitOperation(Operation *op) {
  if (isa<scf::ForOp>(op))
    return visitForOp(op);
  if (isa<scf::IfOp>(op))
    return visitIfOp(op);
  if (op->getNumRegions() != 0) {
    // scf.while and other region ops: values flowing in through block
    // arguments and out through results are unknown.
    visitRegionsConservatively(op);
    return setUnknownResults(op);
  }
  if (op->getNumResults() == 1 && isTracked(op->getResult(0).getType()))
    return set(op->getResult(0), computeResultInfo(op));
  setUnknownResults(op);
}

void AxisInfoAnalysis::visitForOp(Operation *op) {
  auto forOp = cast<scf::ForOp>(op);
  // iv = lb + i * step.
  AxisInfo iv = AxisInfo::unknown(1);
  iv.divisibility[0] = std::min(get(forOp.getLowerBound()).getDivisibility(0),
                                get(forOp.getStep()).getDivisibility(0));
  set(forOp.getInductionVar(), iv);

  // Loop-carried values: start from the initial values and widen with the
  // yielded ones until nothing changes. Joins take minima: contiguity and
  // constancy only shrink, and divisibility only shrinks while they stay put
  // (set() may raise it once a dimension's contiguity drops to 1), so this
  // terminates. At the fixpoint the facts hold for the initial values and
  // are preserved by one iteration, so they hold in every iteration and for
  // the results (the last yield, or the initial values when the loop runs
  // zero times).
  Block &body = *forOp.getBody();
  auto yield = cast<scf::YieldOp>(body.getTerminator());
  auto iterArgs = forOp.getRegionIterArgs();
  SmallVector<std::optional<AxisInfo>> carried;
  for (auto [init, arg] : llvm::zip(forOp.getInitArgs(), iterArgs)) {
    if (!isTracked(arg.getType())) {
      carried.push_back(std::nullopt);
      continue;
    }
    set(arg, get(init));
    carried.push_back(get(arg));
  }
  bool stable = false;
  for (unsigned round = 0; round < kMaxLoopIterations && !stable; ++round) {
    for (auto [info, arg] : llvm::zip(carried, iterArgs))
      if (info)
        set(arg, *info);
    visitBlock(body);
    stable = true;
    for (auto [i, arg] : llvm::enumerate(iterArgs)) {
      if (!carried[i])
        continue;
      set(arg, AxisInfo::join(*carried[i], get(yield.getOperand(i)),
                              unitBytesOf(arg.getType())));
      AxisInfo widened = get(arg);
      if (widened != *carried[i]) {
        stable = false;
        carried[i] = widened;
      }
    }
  }
  if (!stable) {
    // Unreachable in theory; stay sound if it happens.
    for (auto [info, arg] : llvm::zip(carried, iterArgs))
      if (info)
        info = AxisInfo::unknown(axisShape(arg.getType()).size());
  }
  for (auto [info, arg] : llvm::zip(carried, iterArgs))
    if (info)
      set(arg, *info);
  if (!stable)
    visitBlock(body);
  for (auto [info, result] : llvm::zip(carried, forOp.getResults()))
    if (info)
      set(result, *info);
}

void AxisInfoAnalysis::visitIfOp(Operation *op) {
  auto ifOp = cast<scf::IfOp>(op);
  visitBlock(*ifOp.thenBlock());
  if (Block *elseBlock = ifOp.elseBlock())
    visitBlock(*elseBlock);
  for (OpResult result : ifOp.getResults()) {
    if (!isTracked(result.getType()))
      continue;
    if (!ifOp.elseBlock()) {
      set(result, AxisInfo::unknown(axisShape(result.getType()).size()));
      continue;
    }
    unsigned i = result.getResultNumber();
    set(result, AxisInfo::join(get(ifOp.thenYield().getOperand(i)),
                               get(ifOp.elseYield().getOperand(i)),
                               unitBytesOf(result.getType())));
  }
}

AxisInfo AxisInfoAnalysis::computeResultInfo(Operation *op) const {
  Value result = op->getResult(0);
  Type resultType = result.getType();
  SmallVector<int64_t> shape = axisShape(resultType);
  unsigned rank = shape.size();
  AxisInfo unknown = AxisInfo::unknown(rank);

  // Operand facts, with scalars feeding tile ops (arith.select's condition)
  // seen as tiles that are constant everywhere.
  // (A scalar's pseudo-dimension must not be mistaken for a 1-d tile's.)
  bool resultIsTile = isa<RankedTensorType>(resultType);
  auto operandInfo = [&](Value v) {
    AxisInfo info = get(v);
    bool isTile = isa<RankedTensorType>(v.getType());
    if (isTile == resultIsTile && info.getRank() == rank)
      return info;
    if (isTile)
      return unknown;
    AxisInfo splat = unknown;
    for (unsigned d = 0; d < rank; ++d) {
      splat.constancy[d] = shape[d];
      splat.divisibility[d] = info.getDivisibility(0);
    }
    splat.constantValue = info.constantValue;
    return splat;
  };

  //===--- Sources ---===//
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    if (auto intAttr = dyn_cast<IntegerAttr>(constant.getValue()))
      return constantInfo(intAttr.getValue().getSExtValue(), shape);
    if (auto dense = dyn_cast<DenseIntElementsAttr>(constant.getValue())) {
      if (dense.isSplat())
        return constantInfo(dense.getSplatValue<APInt>().getSExtValue(), shape);
      SmallVector<int64_t> values;
      values.reserve(dense.getNumElements());
      for (const APInt &v : dense.getValues<APInt>())
        values.push_back(v.getSExtValue());
      return exactInfo(values, shape);
    }
    return unknown;
  }
  if (auto range = dyn_cast<RangeOp>(op)) {
    // getStart()/getEnd() read the I32Attr as unsigned; read it signed.
    int64_t start = range.getStartAttr().getInt();
    int64_t end = range.getEndAttr().getInt();
    AxisInfo info = unknown;
    info.contiguity[0] = end - start;
    info.divisibility[0] = pow2Divisor(start);
    return info;
  }
  // program_id, num_programs, loads, reductions, calls, ...: whatever the
  // default at the end says (unknown).

  //===--- Shape manipulation ---===//
  if (auto splat = dyn_cast<SplatOp>(op)) {
    AxisInfo src = get(splat.getSrc());
    AxisInfo info = unknown;
    for (unsigned d = 0; d < rank; ++d) {
      info.constancy[d] = shape[d];
      info.divisibility[d] = src.getDivisibility(0);
    }
    info.constantValue = src.getConstantValue();
    return info;
  }
  if (auto bcast = dyn_cast<BroadcastOp>(op)) {
    AxisInfo src = get(bcast.getSrc());
    SmallVector<int64_t> srcShape = axisShape(bcast.getSrc().getType());
    if (src.getRank() != rank)
      return unknown;
    AxisInfo info = src;
    for (unsigned d = 0; d < rank; ++d) {
      if (srcShape[d] != 1 || shape[d] == 1)
        continue;
      // One source element repeated: every position starts a (trivial)
      // run, and the source's only element along d is one.
      info.contiguity[d] = 1;
      info.constancy[d] = shape[d];
      info.divisibility[d] = src.getDivisibility(d);
    }
    return info;
  }
  if (auto expand = dyn_cast<ExpandDimsOp>(op)) {
    AxisInfo src = get(expand.getSrc());
    auto srcType = cast<RankedTensorType>(expand.getSrc().getType());
    unsigned axis = expand.getAxis();
    AxisInfo info = unknown;
    for (unsigned d = 0, srcDim = 0; d < rank; ++d) {
      if (d == axis) {
        // Size 1: every element starts a run along the new dimension, so
        // only a divisibility of every element may be claimed (not the
        // run-start divisibility of another dimension: range(0, 128) has
        // divisibility 2^30 but holds 1).
        info.divisibility[d] = elementDivisibility(src);
        continue;
      }
      if (srcType.getRank() == 0)
        continue;
      info.contiguity[d] = src.getContiguity(srcDim);
      info.divisibility[d] = src.getDivisibility(srcDim);
      info.constancy[d] = src.getConstancy(srcDim);
      ++srcDim;
    }
    info.constantValue = src.getConstantValue();
    return info;
  }
  if (auto reshape = dyn_cast<ReshapeOp>(op)) {
    AxisInfo src = get(reshape.getSrc());
    SmallVector<int64_t> srcShape = axisShape(reshape.getSrc().getType());
    if (srcShape == shape)
      return src;
    AxisInfo info = unknown;
    int64_t all = elementDivisibility(src);
    for (int64_t &d : info.divisibility)
      d = all;
    info.constantValue = src.getConstantValue();
    bool uniform = true, pow2 = true;
    for (unsigned d = 0; d < src.getRank(); ++d) {
      uniform &= src.getConstancy(d) == srcShape[d];
      pow2 &= llvm::isPowerOf2_64(uint64_t(srcShape[d]));
    }
    for (int64_t size : shape)
      pow2 &= llvm::isPowerOf2_64(uint64_t(size));
    if (uniform) {
      for (unsigned d = 0; d < rank; ++d)
        info.constancy[d] = shape[d];
      return info;
    }
    if (!pow2)
      return info;
    // Elements keep their row-major order. An aligned group of g elements
    // along the source's innermost dimension is an aligned group of the
    // flattened sequence, and (g dividing the result's innermost size) an
    // aligned group along the result's innermost dimension. Runs and
    // constant groups along other dimensions are cut apart.
    unsigned srcLast = src.getRank() - 1, last = rank - 1;
    int64_t c = std::min(src.getContiguity(srcLast), shape[last]);
    info.contiguity[last] = c;
    info.constancy[last] = std::min(src.getConstancy(srcLast), shape[last]);
    // A multiple of c along the result's innermost dimension is a multiple
    // of c in the flattened sequence and along the source's (c divides
    // both sizes).
    info.divisibility[last] = std::max(all, src.getDivisibilityAt(srcLast, c));
    return info;
  }
  if (auto trans = dyn_cast<TransOp>(op)) {
    AxisInfo src = get(trans.getSrc());
    ArrayRef<int32_t> order = trans.getOrder();
    if (src.getRank() != rank || order.size() != rank)
      return unknown;
    AxisInfo info = unknown;
    for (unsigned d = 0; d < rank; ++d) {
      info.contiguity[d] = src.getContiguity(order[d]);
      info.divisibility[d] = src.getDivisibility(order[d]);
      info.constancy[d] = src.getConstancy(order[d]);
    }
    info.constantValue = src.getConstantValue();
    return info;
  }
  if (auto convert = dyn_cast<ConvertLayoutOp>(op))
    return get(convert.getSrc());

  //===--- Pointers ---===//
  if (auto addptr = dyn_cast<AddPtrOp>(op)) {
    return addInfo(get(addptr.getPtr()), get(addptr.getOffset()),
                   /*isSub=*/false, unitBytesOf(resultType), /*isPtr=*/true);
  }

  //===--- Integer arithmetic ---===//
  unsigned width = intWidth(resultType);
  // Both operands of a binary arith op have the result's type.
  auto binary = [&]() -> std::optional<std::pair<AxisInfo, AxisInfo>> {
    if (op->getNumOperands() != 2)
      return std::nullopt;
    return std::make_pair(operandInfo(op->getOperand(0)),
                          operandInfo(op->getOperand(1)));
  };
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::AndIOp,
          arith::OrIOp, arith::XOrIOp, arith::MaxSIOp, arith::MinSIOp,
          arith::MaxUIOp, arith::MinUIOp>(op)) {
    auto [a, b] = *binary();
    if (a.getConstantValue() && b.getConstantValue())
      if (std::optional<int64_t> folded = foldBinary(
              op, *a.getConstantValue(), *b.getConstantValue(), width))
        return constantInfo(*folded, shape);
    if (isa<arith::AddIOp>(op))
      return addInfo(a, b, /*isSub=*/false, 1, /*isPtr=*/false);
    if (isa<arith::SubIOp>(op))
      return addInfo(a, b, /*isSub=*/true, 1, /*isPtr=*/false);
    if (isa<arith::MulIOp>(op))
      return mulInfo(a, b, shape);
    if (isa<arith::AndIOp>(op)) {
      // Trailing zeros of either operand survive an and.
      AxisInfo info = elementwiseInfo({a, b}, rank, /*pickOnly=*/false);
      for (unsigned d = 0; d < rank; ++d)
        info.divisibility[d] =
            std::max(a.getDivisibilityAt(d, 1), b.getDivisibilityAt(d, 1));
      return info;
    }
    if (isa<arith::OrIOp, arith::XOrIOp>(op)) {
      // Trailing zeros common to both operands survive or/xor.
      AxisInfo info = elementwiseInfo({a, b}, rank, /*pickOnly=*/false);
      for (unsigned d = 0; d < rank; ++d)
        info.divisibility[d] =
            std::min(a.getDivisibilityAt(d, 1), b.getDivisibilityAt(d, 1));
      return info;
    }
    // min/max pick one of the operands.
    return elementwiseInfo({a, b}, rank, /*pickOnly=*/true);
  }
  if (isa<arith::DivUIOp, arith::DivSIOp, arith::ShRUIOp, arith::ShRSIOp>(op)) {
    auto [a, b] = *binary();
    std::optional<int64_t> divisor;
    if (isa<arith::DivUIOp, arith::DivSIOp>(op)) {
      divisor = getPow2Constant(b);
    } else if (std::optional<int64_t> shift = b.getConstantValue()) {
      if (*shift >= 0 && *shift < int64_t(width) && *shift < 62)
        divisor = int64_t(1) << *shift;
    }
    if (!divisor)
      return elementwiseInfo({a, b}, rank, /*pickOnly=*/false);
    if (*divisor == 1)
      return a;
    return divByPow2Info(a, *divisor, /*roundsDown=*/!isa<arith::DivSIOp>(op));
  }
  if (isa<arith::RemUIOp, arith::RemSIOp>(op)) {
    auto [a, b] = *binary();
    std::optional<int64_t> divisor = getPow2Constant(b);
    if (!divisor)
      return elementwiseInfo({a, b}, rank, /*pickOnly=*/false);
    if (*divisor == 1)
      return constantInfo(0, shape);
    return remByPow2Info(a, *divisor, isa<arith::RemUIOp>(op));
  }
  if (isa<arith::ShLIOp>(op)) {
    auto [a, b] = *binary();
    std::optional<int64_t> shift = b.getConstantValue();
    if (shift && *shift >= 0 && *shift < int64_t(width))
      return shlInfo(a, *shift);
    // Shifting left never removes trailing zeros.
    AxisInfo info = elementwiseInfo({a, b}, rank, /*pickOnly=*/false);
    for (unsigned d = 0; d < rank; ++d)
      info.divisibility[d] = a.getDivisibilityAt(d, 1);
    return info;
  }
  if (auto select = dyn_cast<arith::SelectOp>(op)) {
    AxisInfo cond = operandInfo(select.getCondition());
    AxisInfo a = operandInfo(select.getTrueValue());
    AxisInfo b = operandInfo(select.getFalseValue());
    AxisInfo info = unknown;
    for (unsigned d = 0; d < rank; ++d) {
      // Over a group where the condition is constant the result is one
      // operand's group, contiguous or constant if both are.
      int64_t c =
          std::min({cond.constancy[d], a.contiguity[d], b.contiguity[d]});
      info.contiguity[d] = c;
      info.constancy[d] =
          std::min({cond.constancy[d], a.constancy[d], b.constancy[d]});
      info.divisibility[d] =
          std::min(a.getDivisibilityAt(d, c), b.getDivisibilityAt(d, c));
    }
    if (a.getConstantValue() == b.getConstantValue())
      info.constantValue = a.getConstantValue();
    return info;
  }
  if (auto cmp = dyn_cast<arith::CmpIOp>(op))
    return cmpInfo(cmp.getPredicate(), operandInfo(cmp.getLhs()),
                   operandInfo(cmp.getRhs()));
  if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp,
          arith::IndexCastUIOp>(op)) {
    Value src = op->getOperand(0);
    AxisInfo a = operandInfo(src);
    unsigned srcWidth = intWidth(src.getType());
    bool widens = width >= srcWidth;
    bool signExtends = isa<arith::ExtSIOp, arith::IndexCastOp>(op);
    // Sign extension keeps values, so runs and all; zero extension changes
    // negative values (a run -1, 0 would become 2^w - 1, 0) and truncation
    // may wrap a run. Divisibility by a power of two survives all three.
    if (widens && signExtends)
      return a;
    AxisInfo info = unknown;
    for (unsigned d = 0; d < rank; ++d) {
      info.constancy[d] = a.constancy[d];
      info.divisibility[d] = a.getDivisibilityAt(d, 1);
    }
    if (std::optional<int64_t> v = a.getConstantValue()) {
      APInt bits(srcWidth, *v, /*isSigned=*/true);
      APInt converted =
          widens ? (signExtends ? bits.sext(width) : bits.zext(width))
                 : bits.trunc(width);
      info.constantValue = converted.getSExtValue();
    }
    return info;
  }
  // Any other elementwise op computes each element from the operands'
  // elements at the same position: constant where all of them are.
  if (op->hasTrait<OpTrait::Elementwise>()) {
    SmallVector<AxisInfo> operands;
    for (Value v : op->getOperands())
      operands.push_back(operandInfo(v));
    return elementwiseInfo(operands, rank, /*pickOnly=*/false);
  }
  return unknown;
}

int64_t AxisInfoAnalysis::getVectorWidth(Value ptr, Value mask, unsigned dim,
                                         int64_t elemBytes) const {
  const AxisInfo *p = lookup(ptr);
  if (!p || dim >= p->getRank() || elemBytes <= 0)
    return 1;
  // A vector of w elements starting at a multiple of w along `dim` needs w
  // consecutive addresses (w <= C) and a first address aligned to w
  // elements: at a multiple of w <= C the address is a run start plus a
  // multiple of w elements, so D >= w * elemBytes suffices.
  int64_t width =
      std::min(p->getContiguity(dim), p->getDivisibility(dim) / elemBytes);
  if (mask) {
    // One mask bit for the whole vector.
    const AxisInfo *m = lookup(mask);
    width = m && dim < m->getRank() ? std::min(width, m->getConstancy(dim)) : 1;
  }
  return pow2Floor(width);
}
