//===- DotOpToLLVM.cpp - tile.dot to LLVM: strategy dispatch --------------===//
//
// The patterns of tile.dot, tile.warpgroup_mma_wait and tile.tf32_parts
// (tf32x3 operands), and the helpers the lowering strategies share. Each
// strategy lives in its own file:
//   DotOpToLLVMFMA.cpp             FMA units: the generic lowering and
//                                  the FMA layout's register tiles;
//   DotOpToLLVMMmaSync.cpp         tensor cores, mma.sync (mma layout);
//   DotOpToLLVMWgmma.cpp           Hopper tensor cores, wgmma, and
//                                  planWarpgroupMma;
//   DotOpToLLVMTransposedWgmma.cpp tf32 and tf32x3 (split tf32) dots
//                                  computed transposed with wgmma.
// DotOpToLLVM.h declares what they share.
//
//===----------------------------------------------------------------------===//

#include "DotOpToLLVM.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tile;

Value mlir::tile::packPair(OpBuilder &b, Location loc, Type elem, Value lo,
                           Value hi) {
  Value v = LLVM::UndefOp::create(b, loc, VectorType::get({2}, elem));
  v = LLVM::InsertElementOp::create(b, loc, v, lo, i32Constant(b, loc, 0));
  v = LLVM::InsertElementOp::create(b, loc, v, hi, i32Constant(b, loc, 1));
  return LLVM::BitcastOp::create(b, loc, b.getI32Type(), v);
}

LocalLoadOp mlir::tile::getStageRead(DotOp op, Value operand) {
  auto read = operand.getDefiningOp<LocalLoadOp>();
  if (!read || read->getBlock() != op->getBlock())
    return nullptr;
  for (Operation *it = read->getNextNode(); it && it != op.getOperation();
       it = it->getNextNode())
    if (isa<AsyncCopyOp>(it))
      return nullptr;
  return read;
}

namespace {

/// tile.tf32_parts results lowered so far, with their sources' registers
/// (shared by the patterns of one conversion).
using TF32PartSources = DenseMap<Value, TF32PartSource>;

struct DotOpConversion : public OpConversionPattern<DotOp> {
  DotOpConversion(TileTypeConverter &converter, MLIRContext *ctx,
                  std::shared_ptr<TF32PartSources> parts)
      : OpConversionPattern(converter, ctx), parts(std::move(parts)) {}

  LogicalResult
  matchAndRewrite(DotOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    bool warpgroupMma =
        TileDialect::WgmmaAttrHelper(op.getContext()).isAttrPresent(op);
    if (warpgroupMma && isTransposedWgmmaLayout(op.getType().getEncoding()))
      return lowerTransposedDotWithWgmma(op, adaptor.getAcc(), rewriter);
    if (warpgroupMma) {
      auto it = parts->find(op.getA());
      return lowerDotWithWgmma(op, adaptor.getA(), adaptor.getAcc(),
                               it == parts->end() ? nullptr : &it->second,
                               rewriter);
    }
    if (isMmaLayout(op.getType().getEncoding()))
      return lowerDotWithMma(op, adaptor.getA(), adaptor.getB(),
                             adaptor.getAcc(), rewriter);
    if (isFmaLayoutDot(op))
      return lowerDotWithFmaLayout(op, adaptor.getA(), adaptor.getB(),
                                   adaptor.getAcc(), rewriter);
    return lowerDotWithFma(op, adaptor.getA(), adaptor.getB(), adaptor.getAcc(),
                           rewriter);
  }

  std::shared_ptr<TF32PartSources> parts;
};

struct WarpgroupMmaWaitOpConversion
    : public OpConversionPattern<WarpgroupMmaWaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WarpgroupMmaWaitOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().getElementType().isF32())
      return op.emitError("wgmma accumulators are f32");
    rewriter.replaceOpWithMultiple(
        op, {emitWarpgroupMmaWait(rewriter, op.getLoc(), adaptor.getSrc(),
                                  op.getPending())});
    return success();
  }
};

/// Per element: hi = cvt.rn.tf32(x), lo = cvt.rn.tf32(x - hi), as f32
/// values (the dots that read them skip their own rounding, see
/// isTF32Value). Ties to even: one F2FP each on sm_90 (cvt.rna takes a
/// compare, an add and a mask).
struct TF32PartsOpConversion : public OpConversionPattern<TF32PartsOp> {
  TF32PartsOpConversion(TileTypeConverter &converter, MLIRContext *ctx,
                        std::shared_ptr<TF32PartSources> parts)
      : OpConversionPattern(converter, ctx), parts(std::move(parts)) {}

  LogicalResult
  matchAndRewrite(TF32PartsOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    SmallVector<Value> his, los;
    for (Value x : adaptor.getSrc()) {
      Value hi = emitTF32Part(rewriter, loc, x);
      his.push_back(LLVM::BitcastOp::create(rewriter, loc, f32, hi));
      los.push_back(LLVM::BitcastOp::create(
          rewriter, loc, f32, emitTF32Remainder(rewriter, loc, x, hi)));
    }
    SmallVector<Value> source(adaptor.getSrc().begin(), adaptor.getSrc().end());
    (*parts)[op.getHi()] = {source, /*remainder=*/false};
    (*parts)[op.getLo()] = {source, /*remainder=*/true};
    rewriter.replaceOpWithMultiple(op, {his, los});
    return success();
  }

  std::shared_ptr<TF32PartSources> parts;
};

} // namespace

Value mlir::tile::emitTF32Part(OpBuilder &b, Location loc, Value x) {
  return roundToTF32Bits(b, loc, x, /*tiesToEven=*/true);
}

Value mlir::tile::emitTF32Remainder(OpBuilder &b, Location loc, Value x,
                                    Value partBits) {
  Value part = LLVM::BitcastOp::create(b, loc, b.getF32Type(), partBits);
  return roundToTF32Bits(b, loc, LLVM::FSubOp::create(b, loc, x, part),
                         /*tiesToEven=*/true);
}

bool mlir::tile::isTF32Value(Value v) {
  while (auto convert = v.getDefiningOp<ConvertLayoutOp>())
    v = convert.getSrc();
  return v.getDefiningOp<TF32PartsOp>() != nullptr;
}

void mlir::tile::populateDotOpToLLVMPatterns(TileTypeConverter &converter,
                                             RewritePatternSet &patterns) {
  auto parts = std::make_shared<TF32PartSources>();
  patterns.add<DotOpConversion, TF32PartsOpConversion>(
      converter, patterns.getContext(), parts);
  patterns.add<WarpgroupMmaWaitOpConversion>(converter, patterns.getContext());
}
