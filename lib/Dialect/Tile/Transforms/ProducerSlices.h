//===- ProducerSlices.h - Values the producer warpgroup can recompute *- C++
//-*-===//
//
// Walks over a value's backward slice for tile-warp-specialize: which
// values the producer warpgroup can recompute from the kernel's arguments,
// and which may differ between the programs of a cluster.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_DIALECT_TILE_TRANSFORMS_PRODUCERSLICES_H
#define TILE_LIB_DIALECT_TILE_TRANSFORMS_PRODUCERSLICES_H

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir {
namespace tile {

/// What a walk over a value's backward slice does with one value.
enum class SliceStep {
  Stop, ///< the walk fails
  Leaf, ///< accepted, its operands not walked
  Walk, ///< accepted, the defining op's operands walked
};

/// Walks `v`'s backward slice (each value once), asking `step` about each
/// value; false once a step says Stop.
template <typename StepFn> bool walkSlice(Value v, StepFn step) {
  SmallVector<Value> work{v};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value next = work.pop_back_val();
    if (!seen.insert(next).second)
      continue;
    switch (step(next)) {
    case SliceStep::Stop:
      return false;
    case SliceStep::Leaf:
      continue;
    case SliceStep::Walk:
      llvm::append_range(work, next.getDefiningOp()->getOperands());
    }
  }
  return true;
}

/// Whether the producer can clone `op` once it has its operands: a pure op
/// without regions on scalars (no tile operands or results).
bool isClonableScalarOp(Operation *op);

/// Whether `v` may differ between the programs of a cluster: it depends
/// on `tile.program_id 0` (clusters group consecutive programs along axis
/// 0), or on a value this cannot trace (a region's result, a loop's
/// argument).
bool variesInCluster(Value v, func::FuncOp func);

/// Whether the producer can recompute `v`: it comes from the kernel's
/// arguments and the index of the loop over tiles (`tiles`, null if none;
/// the producer reproduces it) through pure ops on scalars (what the
/// producer's `require` clones).
bool isScalarSlice(Value v, func::FuncOp func, scf::ForOp tiles);

} // namespace tile
} // namespace mlir

#endif // TILE_LIB_DIALECT_TILE_TRANSFORMS_PRODUCERSLICES_H
