//===- GridDependencyOpToLLVM.cpp - Kernels overlapping their neighbours -===//
//
// tile.wait_prior_grid and tile.launch_dependents become griddepcontrol
// (sm_90 and newer; the conversion drops them before): the runtime launches
// a kernel that waits with programmatic stream serialization, so that it
// may start before the kernel ahead of it in the stream ends, and its wait
// holds it where it needs that kernel's writes.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToLLVM/TileToLLVM.h"
#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

/// `Op` as one griddepcontrol of `kind`.
template <typename Op, NVVM::GridDepActionKind kind>
struct GridDependencyOpConversion : public OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::GriddepcontrolOp::create(rewriter, op.getLoc(), kind);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tile::populateGridDependencyOpToLLVMPatterns(
    TileTypeConverter &converter, RewritePatternSet &patterns) {
  patterns
      .add<GridDependencyOpConversion<WaitPriorGridOp,
                                      NVVM::GridDepActionKind::wait>,
           GridDependencyOpConversion<
               LaunchDependentsOp, NVVM::GridDepActionKind::launch_dependents>>(
          converter, patterns.getContext());
}
