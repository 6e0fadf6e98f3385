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
  }
  return x;
}

namespace {

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
    Type accType = elemType;
    if (elemType.isF16() || elemType.isBF16())
      accType = rewriter.getF32Type();
    if (auto it = dyn_cast<IntegerType>(elemType); it && it.getWidth() < 32)
      accType = rewriter.getI32Type();

    LayoutView view(srcType);
    unsigned axis = op.getAxis();
    unsigned rd = view.getRootDim(axis);
    int64_t extent = view.getRootExtent(rd);
    ValueRange src = adaptor.getSrc();
    ReduceKind kind = op.getKind();

    auto widen = [&](Value v) -> Value {
      if (v.getType() == accType)
        return v;
      if (isa<FloatType>(accType))
        return arith::ExtFOp::create(rewriter, loc, accType, v);
      // i1 holds 0 or 1 (as in the interpreter): max is "any", min "all".
      if (elemType.isInteger(1))
        return arith::ExtUIOp::create(rewriter, loc, accType, v);
      return arith::ExtSIOp::create(rewriter, loc, accType, v);
    };

    // Output positions: source slot coordinates with the axis coordinate 0.
    // Step 1 folds the slots whose axis offsets are distinct.
    SmallVector<SmallVector<int64_t>> outCoords;
    SmallVector<Value> partial;
    for (int64_t slot = 0; slot < view.getNumSlots(); ++slot) {
      SmallVector<int64_t> coords = view.getSlotCoords(slot);
      if (coords[rd] != 0)
        continue;
      Value acc;
      std::set<int64_t> seen;
      for (int64_t c = 0; c < view.getSlotsAlong(rd); ++c) {
        int64_t offset = view.getStaticOffset(rd, c) % extent;
        if (!seen.insert(offset).second)
          continue;
        coords[rd] = c;
        Value v = widen(src[view.getSlot(coords)]);
        acc = acc ? combine(rewriter, loc, kind, acc, v) : v;
      }
      coords[rd] = 0;
      outCoords.push_back(coords);
      partial.push_back(acc);
    }

    // Step 2: lanes along the axis.
    int64_t lanes = view.getDistinctLanes(rd);
    for (int64_t dist = lanes / 2; dist >= 1; dist /= 2)
      for (Value &acc : partial)
        acc = combine(rewriter, loc, kind, acc,
                      shuffleXor(rewriter, loc, acc,
                                 dist * view.getLaneStride(rd)));

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
      for (auto [acc, pos] : llvm::zip(partial, positions)) {
        Value addr = gep(rewriter, loc, accType, smem,
                         arith::AddIOp::create(rewriter, loc, rowBase, pos));
        LLVM::StoreOp::create(rewriter, loc, acc, addr);
      }
      emitBarrier(rewriter, loc);
      for (auto [acc, pos] : llvm::zip(partial, positions)) {
        Value total;
        for (int64_t w = 0; w < warps; ++w) {
          Value addr = gep(
              rewriter, loc, accType, smem,
              arith::AddIOp::create(rewriter, loc, pos,
                                    i32Constant(rewriter, loc, w * others)));
          Value v = LLVM::LoadOp::create(rewriter, loc, accType, addr);
          total = total ? combine(rewriter, loc, kind, total, v) : v;
        }
        acc = total;
      }
    }

    auto narrow = [&](Value v) -> Value {
      if (v.getType() == elemType)
        return v;
      if (isa<FloatType>(elemType))
        return arith::TruncFOp::create(rewriter, loc, elemType, v);
      return arith::TruncIOp::create(rewriter, loc, elemType, v);
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
