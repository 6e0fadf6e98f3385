//===- AxisInfo.h - Axis info of integer and pointer tiles ------*- C++ -*-===//
//
// Code generation wants to know, for every tile of pointers it loads or
// stores through, how many neighbouring lanes touch consecutive, aligned
// addresses (so they can become one vector access) and how many neighbouring
// lanes share one mask bit (so the vector is all-or-nothing). This analysis
// computes three per-dimension facts about integer, index and pointer values
// (scalars and tiles) that answer both questions.
//
// Dimensions. A tile of rank r has r dimensions. A scalar (or a rank-0
// tensor) has ONE pseudo-dimension of size 1, so that its divisibility can be
// tracked like a tile's: every AxisInfo has rank >= 1.
//
// Along dimension d, with every other index fixed, an AxisInfo states:
//  - contiguity C: the elements come in runs of C consecutive values that
//    increase by 1 (pointers: by one pointee element), and runs start at
//    positions that are multiples of C along d;
//  - divisibility D: the first value of every such run (the element at every
//    position that is a multiple of C) is divisible by D. Integers are
//    measured in their own units, pointers in bytes. D is capped at 2^30
//    (kMaxDivisibility), which is also what 0 gets;
//  - constancy K: the elements are equal over aligned groups of K positions.
// All three are powers of two between 1 and the dimension's size (D only
// up to the cap). When C == 1 every position starts a run, so D divides
// every element.
//
// Every fact is a guarantee (1 means "nothing known"). Runs assume that
// integer arithmetic does not wrap around within a run, as Triton does:
// `offsets` of a kernel must fit their type. Divisibility does not need this
// assumption: divisibility by a power of two survives wrap-around.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ANALYSIS_AXISINFO_H
#define TILE_ANALYSIS_AXISINFO_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace mlir {
namespace tile {

/// Contiguity, divisibility and constancy of one value, per dimension (see
/// the file comment for their exact meaning).
class AxisInfo {
public:
  /// Divisibility cap; the divisibility of 0.
  static constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

  AxisInfo() = default;
  AxisInfo(SmallVector<int64_t> contiguity, SmallVector<int64_t> divisibility,
           SmallVector<int64_t> constancy,
           std::optional<int64_t> constantValue = std::nullopt);

  /// Nothing known: every field 1 over `rank` dimensions (rank 0, a scalar,
  /// gets the one pseudo-dimension).
  static AxisInfo unknown(unsigned rank);

  /// Facts that hold for any value satisfying `a` or `b` (e.g. both the
  /// initial value and the yielded value of a loop-carried tile); both must
  /// have the same rank. `unitBytes` is the pointee size for pointer values
  /// (see getDivisibilityAt); 1 is always sound, if less precise.
  static AxisInfo join(const AxisInfo &a, const AxisInfo &b,
                       int64_t unitBytes = 1);

  unsigned getRank() const { return contiguity.size(); }
  int64_t getContiguity(unsigned d) const { return contiguity[d]; }
  int64_t getDivisibility(unsigned d) const { return divisibility[d]; }
  int64_t getConstancy(unsigned d) const { return constancy[d]; }
  /// The value of every element, when it is a known integer constant
  /// (sign-extended from the element type's width). Never set for pointers.
  std::optional<int64_t> getConstantValue() const { return constantValue; }

  /// Divisibility of the elements at positions that are multiples of
  /// `stride` (a power of two) along `d`. Such a position lies in a run of
  /// `contiguity[d]` at an offset that is a multiple of `stride`, so the
  /// element is a run start plus a multiple of `stride` units; `unitBytes`
  /// is the size of one unit in bytes (pointers) and 1 for integers.
  int64_t getDivisibilityAt(unsigned d, int64_t stride,
                            int64_t unitBytes = 1) const;

  bool operator==(const AxisInfo &other) const;
  bool operator!=(const AxisInfo &other) const { return !(*this == other); }

  /// Prints "contiguity = [..], divisibility = [..], constancy = [..]".
  void print(raw_ostream &os) const;

  SmallVector<int64_t> contiguity;
  SmallVector<int64_t> divisibility;
  SmallVector<int64_t> constancy;
  std::optional<int64_t> constantValue;
};

/// Computes an AxisInfo for every integer, index and `!tile.ptr` value
/// (scalar or tile) of one function when constructed. The function is walked
/// once in program order; `scf.for` loop-carried values are iterated to a
/// fixpoint.
///
/// Pointer arguments of kernels (`tile.kernel` functions) are 16-byte
/// aligned: the runtime allocates every buffer that way. An `IntegerAttr`
/// argument attribute `tile.divisibility` on an integer or pointer argument
/// replaces that default (its largest power-of-two factor is used; bytes
/// for pointers), also when it promises less (kernels compiled for
/// unaligned buffers).
class AxisInfoAnalysis {
public:
  explicit AxisInfoAnalysis(func::FuncOp func);

  /// The facts about `v`, or null when `v` is not an integer, index or
  /// pointer value (or tile) of the analyzed function.
  const AxisInfo *lookup(Value v) const;

  /// Number of elements that can be accessed as one vector through the tile
  /// of pointers `ptr` (to elements of `elemBytes` bytes) along `dim`:
  /// consecutive addresses, a vector-aligned first address and, when `mask`
  /// is non-null, one mask bit for the whole vector. Always >= 1. Callers
  /// cap it by the hardware's widest access (e.g. 16 bytes).
  int64_t getVectorWidth(Value ptr, Value mask, unsigned dim,
                         int64_t elemBytes) const;

  /// Whether the analysis tracks values of type `type`: integers, indices,
  /// `!tile.ptr` and static ranked tensors of those.
  static bool isTracked(Type type);

  /// Bytes a `!tile.ptr<T>` advances per element: T's size (1 for i1).
  static int64_t getElementBytes(Type pointeeType);

  /// The argument attribute promising divisibility of an argument.
  static constexpr llvm::StringLiteral getDivisibilityAttrName() {
    return "tile.divisibility";
  }

private:
  /// The facts about the only (tracked) result of `op`, which has no regions.
  AxisInfo computeResultInfo(Operation *op) const;
  void visitBlock(Block &block);
  void visitOperation(Operation *op);
  void visitForOp(Operation *op);
  void visitIfOp(Operation *op);
  void setUnknownResults(Operation *op);
  void visitRegionsConservatively(Operation *op);

  /// The facts about `v`; "unknown" when it has none yet.
  AxisInfo get(Value v) const;
  /// Records `info` for `v` after making it consistent with `v`'s type.
  void set(Value v, AxisInfo info);

  llvm::DenseMap<Value, AxisInfo> infos;
};

/// Registers `-tile-test-axis-info`, which reports the AxisInfo of every op
/// result as a remark (and the vector width of every load and store).
void registerTestAxisInfoPass();

} // namespace tile
} // namespace mlir

#endif // TILE_ANALYSIS_AXISINFO_H
