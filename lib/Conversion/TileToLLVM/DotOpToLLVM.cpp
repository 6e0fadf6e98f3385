//===- DotOpToLLVM.cpp - tile.dot as FMAs over shared memory --------------===//
//
// The first, simple and always-correct lowering of `a @ b + acc`: both
// operands are staged in shared memory (as f32), then each thread computes
// its own accumulator slots with one FMA per k, loading each needed row of
// `a` and column of `b` once per k. Operand layouts do not matter here.
// Tensor cores (mma.sync) replace this in the performance work. The f32
// FMA path is at least as accurate as tf32, so the precision attribute is
// honoured from above.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <map>

using namespace mlir;
using namespace mlir::tile;

namespace {

struct DotOpConversion : public OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DotOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType aType = op.getA().getType(), bType = op.getB().getType();
    RankedTensorType cType = op.getType();
    int64_t m = aType.getDimSize(0), k = aType.getDimSize(1),
            n = bType.getDimSize(1);
    Type f32 = rewriter.getF32Type();
    auto toF32 = [&](Value v) -> Value {
      return v.getType().isF32() ? v
                                 : (Value)arith::ExtFOp::create(rewriter, loc,
                                                                f32, v);
    };

    // Stage a (row-major m x k) and then b (row-major k x n).
    Value smem = getSharedMemory(rewriter, loc);
    emitBarrier(rewriter, loc);
    auto stage = [&](RankedTensorType type, ValueRange values, int64_t base) {
      for (auto [slot, index] :
           llvm::enumerate(emitSlotIndices(rewriter, loc, type))) {
        Value linear = emitLinearIndex(rewriter, loc, index, type.getShape());
        if (base)
          linear = arith::AddIOp::create(rewriter, loc, linear,
                                         i32Constant(rewriter, loc, base));
        LLVM::StoreOp::create(rewriter, loc, toF32(values[slot]),
                              gep(rewriter, loc, f32, smem, linear));
      }
    };
    stage(aType, adaptor.getA(), 0);
    stage(bType, adaptor.getB(), m * k);
    emitBarrier(rewriter, loc);

    // Distinct rows and columns of this thread's accumulator slots.
    auto cIndices = emitSlotIndices(rewriter, loc, cType);
    LayoutView cView(cType);
    std::map<int64_t, unsigned> rowOf, colOf; // slot coordinate -> position
    SmallVector<Value> rows, cols;
    SmallVector<std::pair<unsigned, unsigned>> slotRowCol;
    for (int64_t slot = 0; slot < cView.getNumSlots(); ++slot) {
      SmallVector<int64_t> coords = cView.getSlotCoords(slot);
      int64_t r = coords[cView.getRootDim(0)], c = coords[cView.getRootDim(1)];
      if (!rowOf.count(r)) {
        rowOf[r] = rows.size();
        rows.push_back(cIndices[slot][0]);
      }
      if (!colOf.count(c)) {
        colOf[c] = cols.size();
        cols.push_back(cIndices[slot][1]);
      }
      slotRowCol.push_back({rowOf[r], colOf[c]});
    }
    // Row offsets into a, column offsets into b.
    SmallVector<Value> aRowBase, bCol;
    for (Value r : rows)
      aRowBase.push_back(arith::MulIOp::create(rewriter, loc, r,
                                               i32Constant(rewriter, loc, k)));
    for (Value c : cols)
      bCol.push_back(arith::AddIOp::create(rewriter, loc, c,
                                           i32Constant(rewriter, loc, m * k)));

    SmallVector<Value> init;
    for (Value v : adaptor.getAcc())
      init.push_back(toF32(v));
    Value lb = i32Constant(rewriter, loc, 0);
    Value ub = i32Constant(rewriter, loc, k);
    Value step = i32Constant(rewriter, loc, 1);
    auto loop = scf::ForOp::create(
        rewriter, loc, lb, ub, step, init,
        [&](OpBuilder &b, Location l, Value kk, ValueRange acc) {
          SmallVector<Value> aVals, bVals;
          for (Value base : aRowBase)
            aVals.push_back(LLVM::LoadOp::create(
                b, l, f32,
                gep(b, l, f32, smem, arith::AddIOp::create(b, l, base, kk))));
          Value kRow = arith::MulIOp::create(b, l, kk, i32Constant(b, l, n));
          for (Value c : bCol)
            bVals.push_back(LLVM::LoadOp::create(
                b, l, f32,
                gep(b, l, f32, smem, arith::AddIOp::create(b, l, kRow, c))));
          SmallVector<Value> next;
          for (auto [slot, rc] : llvm::enumerate(slotRowCol))
            next.push_back(math::FmaOp::create(b, l, aVals[rc.first],
                                               bVals[rc.second], acc[slot]));
          scf::YieldOp::create(b, l, next);
        });

    Type accElem = cType.getElementType();
    SmallVector<Value> results;
    for (Value v : loop.getResults())
      results.push_back(accElem.isF32()
                            ? v
                            : (Value)arith::TruncFOp::create(rewriter, loc,
                                                             accElem, v));
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }
};

} // namespace

void mlir::tile::populateDotOpToLLVMPatterns(TileTypeConverter &converter,
                                             RewritePatternSet &patterns) {
  patterns.add<DotOpConversion>(converter, patterns.getContext());
}
