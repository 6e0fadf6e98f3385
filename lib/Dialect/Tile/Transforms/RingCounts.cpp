//===- RingCounts.cpp - Stages and barrier phases of a ring ---------------===//
//
// See RingCounts.h.
//
//===----------------------------------------------------------------------===//

#include "RingCounts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tile;

Value mlir::tile::toI32(OpBuilder &b, Location loc, Value v) {
  Type i32 = b.getI32Type();
  return v.getType() == i32 ? v : arith::IndexCastOp::create(b, loc, i32, v);
}

std::tuple<Value, Value>
mlir::tile::emitStageAndParity(OpBuilder &b, Location loc, Value iv, Value lb,
                               Value step, int64_t stages, Value base) {
  iv = toI32(b, loc, iv);
  lb = toI32(b, loc, lb);
  step = toI32(b, loc, step);
  Value i = arith::DivSIOp::create(b, loc,
                                   arith::SubIOp::create(b, loc, iv, lb), step);
  if (base)
    i = arith::AddIOp::create(b, loc, i, base);
  return emitStageAndParityOfUse(b, loc, i, stages);
}

std::tuple<Value, Value> mlir::tile::emitStageAndParityOfUse(OpBuilder &b,
                                                             Location loc,
                                                             Value i,
                                                             int64_t stages) {
  auto c = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  Value stage = arith::RemUIOp::create(b, loc, i, c(stages));
  Value parity = arith::RemUIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, i, c(stages)), c(2));
  return {stage, parity};
}

Value mlir::tile::emitTripCount(OpBuilder &b, Location loc, Value lb, Value ub,
                                Value step) {
  lb = toI32(b, loc, lb);
  ub = toI32(b, loc, ub);
  step = toI32(b, loc, step);
  Value span = arith::SubIOp::create(b, loc, ub, lb);
  Value zero = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  Value one = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(1));
  Value rounded = arith::AddIOp::create(
      b, loc, span, arith::SubIOp::create(b, loc, step, one));
  return arith::MaxSIOp::create(b, loc, zero,
                                arith::DivSIOp::create(b, loc, rounded, step));
}

scf::IfOp mlir::tile::appendCountResults(scf::IfOp ifOp, bool inThen,
                                         ValueRange counts) {
  OpBuilder b(ifOp);
  Location loc = ifOp.getLoc();
  SmallVector<Type> types(ifOp.getResultTypes());
  types.append(counts.size(), b.getI32Type());
  auto grown = scf::IfOp::create(b, loc, types, ifOp.getCondition(),
                                 /*withElseRegion=*/false);
  grown.getThenRegion().takeBody(ifOp.getThenRegion());
  grown.getElseRegion().takeBody(ifOp.getElseRegion());
  if (grown.getElseRegion().empty()) {
    Block *block = b.createBlock(&grown.getElseRegion());
    b.setInsertionPointToStart(block);
    scf::YieldOp::create(b, loc);
  }
  for (bool then : {true, false}) {
    Block *block = then ? grown.thenBlock() : grown.elseBlock();
    auto yield = cast<scf::YieldOp>(block->getTerminator());
    b.setInsertionPoint(yield);
    Value zero;
    for (Value count : counts) {
      if (then != inThen && !zero)
        zero = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
      yield.getResultsMutable().append(then == inThen ? count : zero);
    }
  }
  ifOp.replaceAllUsesWith(grown.getResults().drop_back(counts.size()));
  ifOp.erase();
  return grown;
}
