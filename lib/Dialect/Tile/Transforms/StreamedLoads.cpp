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

bool mlir::tile::isCopyableBlock(RankedTensorType type) {
  Type elem = type.getElementType();
  if (!elem.isF16() && !elem.isBF16() && !elem.isF32())
    return false;
  if (type.getRank() < 2 || type.getRank() > 5)
    return false;
  return llvm::all_of(type.getShape().drop_back(2),
                      [](int64_t d) { return d == 1; }) &&
         (type.getShape().back() * elem.getIntOrFloatBitWidth() / 8) % 16 == 0;
}

DictionaryAttr mlir::tile::describeArray(MakeBlockPtrOp make,
                                         std::string &why) {
  auto base = dyn_cast<BlockArgument>(make.getBase());
  if (!base || !isa<func::FuncOp>(base.getOwner()->getParentOp())) {
    why = "its base pointer is not a kernel argument";
    return {};
  }
  SmallVector<int32_t> natural;
  for (int32_t d = make.getOrder().size() - 1; d >= 0; --d)
    natural.push_back(d);
  if (make.getOrder() != ArrayRef<int32_t>(natural)) {
    why = "its block pointer's order is not row-major";
    return {};
  }
  Builder b(make.getContext());
  SmallVector<std::string> shape, strides;
  for (auto [dim, stride] : llvm::zip(make.getShape(), make.getStrides())) {
    shape.push_back(describeHostInteger(dim));
    strides.push_back(describeHostInteger(stride));
    if (shape.back().empty() || strides.back().empty()) {
      why = "its shape and strides are not kernel arguments, constants or "
            "grid sizes";
      return {};
    }
  }
  if (strides.back() != "1" && !StringRef(strides.back()).starts_with("arg")) {
    why = "it is not contiguous along its last dimension";
    return {};
  }
  auto strings = [&](ArrayRef<std::string> values) {
    SmallVector<Attribute> out;
    for (const std::string &v : values)
      out.push_back(b.getStringAttr(v));
    return b.getArrayAttr(out);
  };
  size_t rank = shape.size();
  SmallVector<NamedAttribute> entries{
      b.getNamedAttr("base", b.getI64IntegerAttr(base.getArgNumber())),
      b.getNamedAttr("shape", strings(ArrayRef(shape).take_back(2))),
      b.getNamedAttr("strides", strings(ArrayRef(strides).take_back(2)))};
  if (rank > 2) {
    SmallVector<std::string> outer;
    for (size_t d = rank - 2; d-- > 0;) {
      outer.push_back(strides[d]);
      outer.push_back(shape[d]);
    }
    entries.push_back(b.getNamedAttr("batch", strings(outer)));
  }
  return b.getDictionaryAttr(entries);
}

FailureOr<Value> mlir::tile::appendTensorMapArgument(func::FuncOp func,
                                                     DictionaryAttr array) {
  MLIRContext *ctx = func.getContext();
  unsigned index = func.getNumArguments();
  NamedAttribute named(StringAttr::get(ctx, TileDialect::getTmaAttrName()),
                       array);
  if (failed(func.insertArgument(index, TensorMapType::get(ctx),
                                 DictionaryAttr::get(ctx, {named}),
                                 func.getLoc())))
    return failure();
  return func.getArgument(index);
}

SmallVector<Value> mlir::tile::readingDots(Value tile, Block *body) {
  SmallVector<Value> out, work{tile};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (body->findAncestorOpInBlock(*user) == nullptr)
        continue;
      if (auto dot = dyn_cast<DotOp>(user)) {
        if (!llvm::is_contained(out, dot.getResult()))
          out.push_back(dot.getResult());
        continue;
      }
      if (user->getNumResults() == 1 && isMemoryEffectFree(user) &&
          user->getNumRegions() == 0)
        work.push_back(user->getResult(0));
    }
  }
  return out;
}
