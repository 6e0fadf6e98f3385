//===- ExpandMath.cpp - Math ops the GPU lowering has no instruction for --===//
//
// tile-expand-math: MLIR's exact math expansions for the ops the GPU
// lowering (TileToLLVM) does not lower itself, so that a kernel the
// verifier and the interpreter accept also compiles.
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
struct TileExpandMathPass
    : public tile::impl::TileExpandMathBase<TileExpandMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // Only ops whose expansion uses ops the lowering has: exp, log, sqrt
    // and arithmetic.
    math::populateExpansionPatterns(
        patterns, {"tanh", "sinh", "cosh", "asinh", "acosh", "atanh", "rsqrt"});
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
