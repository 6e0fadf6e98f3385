//===- SimplifyMasks.cpp - Drop masks that are provably true --------------===//
//
// Kernels written for any size guard their accesses with
// `range(s, e) < splat(n)`. When `n` is a constant no smaller than `e` the
// mask is always true; removing it lets code generation emit plain
// (vectorized, unpredicated) accesses.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILESIMPLIFYMASKS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

/// If `v` is a tile.range seen through expand_dims/broadcast, its range.
static std::optional<std::pair<int64_t, int64_t>> getRangeBounds(Value v) {
  while (true) {
    if (auto expand = v.getDefiningOp<ExpandDimsOp>()) {
      v = expand.getSrc();
      continue;
    }
    if (auto bcast = v.getDefiningOp<BroadcastOp>()) {
      v = bcast.getSrc();
      continue;
    }
    break;
  }
  if (auto range = v.getDefiningOp<RangeOp>())
    return std::make_pair<int64_t, int64_t>((int32_t)range.getStart(),
                                            (int32_t)range.getEnd());
  return std::nullopt;
}

/// If `v` is a splat of an integer constant (or a splat constant), its value.
static std::optional<int64_t> getSplatConstant(Value v) {
  if (auto splat = v.getDefiningOp<SplatOp>()) {
    APInt value;
    if (matchPattern(splat.getSrc(), m_ConstantInt(&value)))
      return value.getSExtValue();
    return std::nullopt;
  }
  DenseIntElementsAttr dense;
  if (matchPattern(v, m_Constant(&dense)) && dense.isSplat())
    return dense.getSplatValue<APInt>().getSExtValue();
  return std::nullopt;
}

/// The predicate P' with `a P b == b P' a`.
static arith::CmpIPredicate swapOperands(arith::CmpIPredicate pred) {
  using P = arith::CmpIPredicate;
  switch (pred) {
  case P::slt: return P::sgt;
  case P::sgt: return P::slt;
  case P::sle: return P::sge;
  case P::sge: return P::sle;
  case P::ult: return P::ugt;
  case P::ugt: return P::ult;
  case P::ule: return P::uge;
  case P::uge: return P::ule;
  default: return pred;
  }
}

/// Whether `mask` is `range < n` (or an equivalent comparison) that holds for
/// every element.
static bool isAlwaysTrue(Value mask) {
  auto cmp = mask.getDefiningOp<arith::CmpIOp>();
  if (!cmp)
    return false;
  Value lhs = cmp.getLhs(), rhs = cmp.getRhs();
  arith::CmpIPredicate pred = cmp.getPredicate();
  // Put the range on the left.
  if (!getRangeBounds(lhs)) {
    std::swap(lhs, rhs);
    pred = swapOperands(pred);
  }
  auto bounds = getRangeBounds(lhs);
  auto bound = getSplatConstant(rhs);
  if (!bounds || !bound)
    return false;
  int64_t lo = bounds->first, hi = bounds->second - 1;
  switch (pred) {
  case arith::CmpIPredicate::slt:
  case arith::CmpIPredicate::ult:
    return hi < *bound && lo >= 0;
  case arith::CmpIPredicate::sle:
  case arith::CmpIPredicate::ule:
    return hi <= *bound && lo >= 0;
  case arith::CmpIPredicate::sge:
    return lo >= *bound;
  case arith::CmpIPredicate::sgt:
    return lo > *bound;
  default:
    return false;
  }
}

namespace {
struct DropTrueLoadMask : OpRewritePattern<LoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LoadOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getMask() || !isAlwaysTrue(op.getMask()))
      return failure();
    rewriter.replaceOpWithNewOp<LoadOp>(op, op.getType(), op.getPtr(),
                                        Value(), Value());
    return success();
  }
};

struct DropTrueStoreMask : OpRewritePattern<StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StoreOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getMask() || !isAlwaysTrue(op.getMask()))
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op.getMaskMutable().clear(); });
    return success();
  }
};

struct TileSimplifyMasksPass
    : public tile::impl::TileSimplifyMasksBase<TileSimplifyMasksPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<DropTrueLoadMask, DropTrueStoreMask>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
