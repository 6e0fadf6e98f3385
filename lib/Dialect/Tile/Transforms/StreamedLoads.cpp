//===- StreamedLoads.cpp - Block loads a loop streams ---------------------===//

#include "StreamedLoads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tile;

SmallVector<StreamedLoad> mlir::tile::findStreamedLoads(
    scf::ForOp loop, llvm::function_ref<bool(RankedTensorType)> accept) {
  SmallVector<StreamedLoad> out;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (Operation &op : loop.getBody()->without_terminator()) {
    auto load = dyn_cast<BlockLoadOp>(op);
    if (!load || !accept(load.getType()))
      continue;
    if (!load.getCheck().empty() && load.getPadding() != PaddingKind::Zero)
      continue;
    auto arg = dyn_cast<BlockArgument>(load.getPtr());
    if (!arg || arg.getOwner() != loop.getBody() || arg.getArgNumber() == 0)
      continue;
    unsigned index = arg.getArgNumber() - 1;
    auto advance = yield.getOperand(index).getDefiningOp<AdvanceOp>();
    if (!advance || advance.getPtr() != arg ||
        !llvm::all_of(advance.getOffsets(),
                      [&](Value v) { return loop.isDefinedOutsideOfLoop(v); }))
      continue;
    out.push_back({load, index, advance});
  }
  return out;
}

std::string mlir::tile::describeHostInteger(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::IndexCastOp>(def)) {
      v = def->getOperand(0);
      continue;
    }
    if (auto programs = dyn_cast<NumProgramsOp>(def))
      return "grid" + std::to_string(programs.getAxis());
    APInt value;
    if (matchPattern(v, m_ConstantInt(&value)))
      return std::to_string(value.getSExtValue());
    return "";
  }
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || !isa<func::FuncOp>(arg.getOwner()->getParentOp()) ||
      !arg.getType().isIntOrIndex())
    return "";
  return "arg" + std::to_string(arg.getArgNumber());
}
