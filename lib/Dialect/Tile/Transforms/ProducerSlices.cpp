//===- ProducerSlices.cpp - Values the producer warpgroup can recompute ---===//
//
// See ProducerSlices.h.
//
//===----------------------------------------------------------------------===//

#include "ProducerSlices.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tile;

bool mlir::tile::isClonableScalarOp(Operation *op) {
  auto isTile = [](Type t) { return isa<RankedTensorType>(t); };
  return isMemoryEffectFree(op) && !op->getNumRegions() &&
         llvm::none_of(op->getResultTypes(), isTile) &&
         llvm::none_of(op->getOperandTypes(), isTile);
}

bool mlir::tile::variesInCluster(Value v, func::FuncOp func) {
  return !walkSlice(v, [&](Value next) {
    if (auto arg = dyn_cast<BlockArgument>(next))
      return arg.getOwner()->getParentOp() == func ? SliceStep::Leaf
                                                   : SliceStep::Stop;
    Operation *def = next.getDefiningOp();
    if (auto pid = dyn_cast<ProgramIdOp>(def))
      return pid.getAxis() == 0 ? SliceStep::Stop : SliceStep::Leaf;
    if (def->getNumRegions() || !isMemoryEffectFree(def))
      return SliceStep::Stop;
    return SliceStep::Walk;
  });
}

bool mlir::tile::isScalarSlice(Value v, func::FuncOp func, scf::ForOp tiles) {
  return walkSlice(v, [&](Value next) {
    if (auto arg = dyn_cast<BlockArgument>(next))
      return arg.getOwner()->getParentOp() == func ||
                     (tiles && arg == tiles.getInductionVar())
                 ? SliceStep::Leaf
                 : SliceStep::Stop;
    return isClonableScalarOp(next.getDefiningOp()) ? SliceStep::Walk
                                                    : SliceStep::Stop;
  });
}
