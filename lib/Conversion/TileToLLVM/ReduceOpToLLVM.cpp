//===- ReduceOpToLLVM.cpp - Reductions over one axis of a tile ------------===//
//
// A reduction runs in three steps, each only over the threads that hold
// distinct elements along the axis (layouts wider than the tile repeat
// elements; folding copies would count them twice):
//  1. within a thread, over its slots along the axis;
//  2. within a warp, by butterfly shuffles over the lanes along the axis;
//  3. across warps, through shared memory, when several warps split the axis.
// f16/bf16 are reduced in f32. Every thread ends with the full result for
// each of its result slots (the result layout is the slice of the source's).
// argmax/argmin carry a pair through the same steps: the best value so far
// and its position along the axis. A `custom` combiner's region is inlined
// at every step and computes in the element type.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <set>

using namespace mlir;
using namespace mlir::tile;

Value mlir::tile::combine(OpBuilder &b, Location loc, ReduceKind kind, Value x,
                          Value y) {
  bool isFloat = isa<FloatType>(x.getType());
  switch (kind) {
  case ReduceKind::Sum:
    return isFloat ? (Value)arith::AddFOp::create(b, loc, x, y)
                   : (Value)arith::AddIOp::create(b, loc, x, y);
  case ReduceKind::Max:
    return isFloat ? (Value)arith::MaximumFOp::create(b, loc, x, y)
                   : (Value)arith::MaxSIOp::create(b, loc, x, y);
  case ReduceKind::Min:
    return isFloat ? (Value)arith::MinimumFOp::create(b, loc, x, y)
                   : (Value)arith::MinSIOp::create(b, loc, x, y);
  case ReduceKind::Prod:
    return isFloat ? (Value)arith::MulFOp::create(b, loc, x, y)
                   : (Value)arith::MulIOp::create(b, loc, x, y);
  case ReduceKind::ArgMax:
  case ReduceKind::ArgMin:
  case ReduceKind::Custom:
    break;
  }
  llvm_unreachable("argmax/argmin combine (value, position) pairs, custom "
                   "combines with its region");
}

namespace {

/// A partial reduction: the value and, for argmax/argmin, its position.
struct Partial {
  Value value;
  Value index;
};

/// The better of two partials of argmax (`max`) or argmin: the larger
/// (smaller) value, the earlier position among equal ones, and a NaN before
/// any number (the first NaN where both are). Associative and commutative,
/// so the order of the steps does not change the result.
Partial combineArg(OpBuilder &b, Location loc, bool max, Partial x, Partial y) {
  Value earlier = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                        y.index, x.index);
  Value takeY;
  if (isa<FloatType>(x.value.getType())) {
    using P = arith::CmpFPredicate;
    Value strictly =
        arith::CmpFOp::create(b, loc, max ? P::OGT : P::OLT, y.value, x.value);
    Value equal = arith::CmpFOp::create(b, loc, P::OEQ, y.value, x.value);
    Value ordered = arith::OrIOp::create(
        b, loc, strictly, arith::AndIOp::create(b, loc, equal, earlier));
    Value xNaN = arith::CmpFOp::create(b, loc, P::UNO, x.value, x.value);
    Value yNaN = arith::CmpFOp::create(b, loc, P::UNO, y.value, y.value);
    Value xNumber = arith::XOrIOp::create(
        b, loc, xNaN, arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
    // y a NaN: it wins over a number, and over a later NaN. y a number:
    // the ordered comparison (false against a NaN).
    takeY = arith::SelectOp::create(
        b, loc, yNaN, arith::OrIOp::create(b, loc, xNumber, earlier), ordered);
  } else {
    using P = arith::CmpIPredicate;
    Value strictly =
        arith::CmpIOp::create(b, loc, max ? P::sgt : P::slt, y.value, x.value);
    Value equal = arith::CmpIOp::create(b, loc, P::eq, y.value, x.value);
    takeY = arith::OrIOp::create(b, loc, strictly,
                                 arith::AndIOp::create(b, loc, equal, earlier));
  }
  return {arith::SelectOp::create(b, loc, takeY, y.value, x.value),
          arith::SelectOp::create(b, loc, takeY, y.index, x.index)};
}

struct ReduceOpConversion : public OpConversionPattern<ReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReduceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType srcType = op.getSrc().getType();
    Type elemType = srcType.getElementType();
    if (elemType.getIntOrFloatBitWidth() > 32)
      return op.emitError("the GPU backend reduces elements of at most 32 "
                          "bits, got ")
             << elemType;
    ReduceKind kind = op.getKind();
    bool isCustom = kind == ReduceKind::Custom;
    Type accType = getCombineType(elemType, kind);

    LayoutView view(srcType);
    unsigned axis = op.getAxis();
    unsigned rd = view.getRootDim(axis);
    int64_t extent = view.getRootExtent(rd);
    ValueRange src = adaptor.getSrc();
    bool isArg = kind == ReduceKind::ArgMax || kind == ReduceKind::ArgMin;
    auto merge = [&](Partial x, Partial y) -> Partial {
      if (isArg)
        return combineArg(rewriter, loc, kind == ReduceKind::ArgMax, x, y);
      if (isCustom)
        return {emitCombiner(rewriter, op.getCombiner(), x.value, y.value),
                Value()};
      return {combine(rewriter, loc, kind, x.value, y.value), Value()};
    };
    // Positions along the axis of the source's slots (argmax/argmin only).
    SmallVector<SmallVector<Value>> slotIndices;
    if (isArg)
      slotIndices = emitSlotIndices(rewriter, loc, srcType);

    auto widen = [&](Value v) {
      return widenToCombineType(rewriter, loc, v, elemType, accType);
    };

    // Output positions: source slot coordinates with the axis coordinate 0.
    // Step 1 folds the slots whose axis offsets are distinct.
    SmallVector<SmallVector<int64_t>> outCoords;
    SmallVector<Partial> partial;
    for (int64_t slot = 0; slot < view.getNumSlots(); ++slot) {
      SmallVector<int64_t> coords = view.getSlotCoords(slot);
      if (coords[rd] != 0)
        continue;
      Partial acc;
      std::set<int64_t> seen;
      for (int64_t c = 0; c < view.getSlotsAlong(rd); ++c) {
        int64_t offset = view.getStaticOffset(rd, c) % extent;
        if (!seen.insert(offset).second)
          continue;
        coords[rd] = c;
        int64_t at = view.getSlot(coords);
        Partial v{widen(src[at]), isArg ? slotIndices[at][axis] : Value()};
        acc = acc.value ? merge(acc, v) : v;
      }
      coords[rd] = 0;
      outCoords.push_back(coords);
      partial.push_back(acc);
    }

    // Step 2: lanes along the axis.
    int64_t lanes = view.getDistinctLanes(rd);
    for (int64_t dist = lanes / 2; dist >= 1; dist /= 2)
      for (Partial &acc : partial) {
        int64_t mask = dist * view.getLaneStride(rd);
        Partial other{shuffleXor(rewriter, loc, acc.value, mask),
                      isArg ? shuffleXor(rewriter, loc, acc.index, mask)
                            : Value()};
        acc = merge(acc, other);
      }

    // Step 3: warps along the axis, through shared memory laid out as
    // [warp along axis][linear position among the other dimensions].
    int64_t warps = view.getDistinctWarps(rd);
    if (warps > 1) {
      ThreadIds ids = getThreadIds(rewriter, loc);
      Value warpAlong = emitWarpAlong(rewriter, loc, view, rd, ids.warp);
      warpAlong = arith::AndIOp::create(rewriter, loc, warpAlong,
                                        i32Constant(rewriter, loc, warps - 1));
      int64_t others = srcType.getNumElements() / srcType.getDimSize(axis);
      SmallVector<int64_t> otherShape(srcType.getShape());
      otherShape.erase(otherShape.begin() + axis);
      // Linear positions of the output slots among the other dimensions.
      auto indices = emitSlotIndices(rewriter, loc, srcType);
      SmallVector<Value> positions;
      for (auto &coords : outCoords) {
        SmallVector<Value> index = indices[view.getSlot(coords)];
        index.erase(index.begin() + axis);
        positions.push_back(
            emitLinearIndex(rewriter, loc, index, otherShape));
      }
      Value smem = getSharedMemory(rewriter, loc);
      emitBarrier(rewriter, loc);
      Value rowBase = arith::MulIOp::create(
          rewriter, loc, warpAlong, i32Constant(rewriter, loc, others));
      // Positions (argmax/argmin) follow the values, in a second array.
      Type i32 = rewriter.getI32Type();
      Value indexBase =
          isArg ? i32Constant(rewriter, loc, warps * others) : Value();
      for (auto [acc, pos] : llvm::zip(partial, positions)) {
        Value at = arith::AddIOp::create(rewriter, loc, rowBase, pos);
        LLVM::StoreOp::create(rewriter, loc, acc.value,
                              gep(rewriter, loc, accType, smem, at));
        if (isArg)
          LLVM::StoreOp::create(
              rewriter, loc, acc.index,
              gep(rewriter, loc, i32, smem,
                  arith::AddIOp::create(rewriter, loc, indexBase, at)));
      }
      emitBarrier(rewriter, loc);
      for (auto [acc, pos] : llvm::zip(partial, positions)) {
        Partial total;
        for (int64_t w = 0; w < warps; ++w) {
          Value at = arith::AddIOp::create(
              rewriter, loc, pos, i32Constant(rewriter, loc, w * others));
          Partial v{LLVM::LoadOp::create(rewriter, loc, accType,
                                         gep(rewriter, loc, accType, smem, at)),
                    Value()};
          if (isArg)
            v.index = LLVM::LoadOp::create(
                rewriter, loc, i32,
                gep(rewriter, loc, i32, smem,
                    arith::AddIOp::create(rewriter, loc, indexBase, at)));
          total = total.value ? merge(total, v) : v;
        }
        acc = total;
      }
    }

    auto narrow = [&](Partial p) -> Value {
      if (isArg)
        return p.index;
      return narrowFromCombineType(rewriter, loc, p.value, elemType);
    };

    // A 1-d source reduces to a scalar.
    auto resultType = dyn_cast<RankedTensorType>(op.getType());
    if (!resultType) {
      rewriter.replaceOp(op, narrow(partial[0]));
      return success();
    }
    // Result slots follow the result layout's own slot order.
    LayoutView out(resultType);
    if (out.getRoot() != view.getRoot())
      return op.emitError("reduce result layout is not a slice of the "
                          "source layout; run tile-assign-layouts");
    SmallVector<Value> results;
    for (int64_t slot = 0; slot < out.getNumSlots(); ++slot) {
      SmallVector<int64_t> coords = out.getSlotCoords(slot);
      coords[rd] = 0;
      auto it = llvm::find(outCoords, coords);
      if (it == outCoords.end())
        return op.emitError("internal error: reduce result slot not found");
      results.push_back(narrow(partial[it - outCoords.begin()]));
    }
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }
};

} // namespace

void mlir::tile::populateReduceOpToLLVMPatterns(TileTypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<ReduceOpConversion>(converter, patterns.getContext());
}
