//===- ExpandMath.cpp - Math ops the GPU lowering has no instruction for --===//
//
// tile-expand-math: MLIR's exact math expansions for the ops the GPU
// lowering (TileToLLVM) does not lower itself, so that a kernel the
// verifier and the interpreter accept also compiles; f16 and bf16 are
// expanded in f32, and asinh in a form without cancellation.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEEXPANDMATH
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;

namespace {

/// The ops this pass expands.
bool isExpanded(Operation *op) {
  return isa<math::TanhOp, math::SinhOp, math::CoshOp, math::AsinhOp,
             math::AcoshOp, math::AtanhOp, math::RsqrtOp>(op);
}

/// An f16 or bf16 op is computed in f32 (as the GPU computes every other
/// math op on these types): the expansions' intermediate sums would
/// otherwise lose most of the digits.
struct ExpandInF32 : public RewritePattern {
  ExpandInF32(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/2, ctx) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isExpanded(op))
      return failure();
    Type type = op->getResult(0).getType();
    auto elem = dyn_cast<FloatType>(getElementTypeOrSelf(type));
    if (!elem || elem.getWidth() != 16)
      return failure();
    Type wide = rewriter.getF32Type();
    if (auto shaped = dyn_cast<ShapedType>(type))
      wide = shaped.clone(wide);
    Location loc = op->getLoc();
    OperationState state(loc, op->getName());
    for (Value operand : op->getOperands())
      state.addOperands(
          arith::ExtFOp::create(rewriter, loc, wide, operand).getResult());
    state.addTypes(wide);
    state.addAttributes(op->getAttrs());
    Value result = rewriter.create(state)->getResult(0);
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, type, result);
    return success();
  }
};

/// asinh(x) = copysign(log(|x| + sqrt(x * x + 1)), x): for x < 0 the sum
/// x + sqrt(x * x + 1) of MLIR's expansion cancels.
struct ExpandAsinh : public OpRewritePattern<math::AsinhOp> {
  ExpandAsinh(MLIRContext *ctx)
      : OpRewritePattern<math::AsinhOp>(ctx, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(math::AsinhOp op,
                                PatternRewriter &rewriter) const override {
    auto elem = cast<FloatType>(getElementTypeOrSelf(op.getType()));
    if (elem.getWidth() == 16)
      return failure();
    Location loc = op.getLoc();
    Value x = op.getOperand();
    Value one = arith::ConstantOp::create(
        rewriter, loc, op.getType(),
        isa<ShapedType>(op.getType())
            ? cast<TypedAttr>(DenseElementsAttr::get(
                  cast<ShapedType>(op.getType()),
                  rewriter.getFloatAttr(elem, 1.0).getValue()))
            : cast<TypedAttr>(rewriter.getFloatAttr(elem, 1.0)));
    Value abs = math::AbsFOp::create(rewriter, loc, x);
    Value root = math::SqrtOp::create(
        rewriter, loc, math::FmaOp::create(rewriter, loc, x, x, one));
    Value log = math::LogOp::create(
        rewriter, loc, arith::AddFOp::create(rewriter, loc, abs, root));
    rewriter.replaceOpWithNewOp<math::CopySignOp>(op, log, x);
    return success();
  }
};

struct TileExpandMathPass
    : public tile::impl::TileExpandMathBase<TileExpandMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // Only ops whose expansion uses ops the lowering has: exp, log, sqrt
    // and arithmetic.
    patterns.add<ExpandInF32, ExpandAsinh>(&getContext());
    math::populateExpansionPatterns(
        patterns, {"tanh", "sinh", "cosh", "asinh", "acosh", "atanh", "rsqrt"});
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
