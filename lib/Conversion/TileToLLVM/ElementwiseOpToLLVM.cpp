//===- ElementwiseOpToLLVM.cpp - arith/math on tiles, fast exp ------------===//
//
// An elementwise op on tiles becomes the same op on each of the thread's
// slots (all operands of such an op share one layout). `math.exp` is
// lowered as every peer does on NVIDIA GPUs: exp(x) = 2^(x * log2(e)) with
// the hardware `ex2.approx.f32` (about 2 ulp), instead of libdevice's
// `__nv_expf`; with the `afn` fast-math flag, `ex2.approx.ftz.f32`.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Any arith/math op whose results are tiles.
struct ElementwiseOpConversion : public ConversionPattern {
  ElementwiseOpConversion(TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {
  }

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<ValueRange> operands,
                  ConversionPatternRewriter &rewriter) const override {
    Dialect *dialect = op->getDialect();
    if (!dialect || !isa<arith::ArithDialect, math::MathDialect>(dialect) ||
        isa<arith::ConstantOp>(op) || op->getNumResults() != 1)
      return failure();
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type)
      return failure();
    if (!type.getEncoding())
      return rewriter.notifyMatchFailure(op, "tile has no layout");
    Type elemType = getTypeConverter()->convertType(type.getElementType());
    int64_t slots = LayoutView(type).getNumSlots();
    SmallVector<Value> results;
    for (int64_t i = 0; i < slots; ++i) {
      OperationState state(op->getLoc(), op->getName());
      for (ValueRange operand : operands)
        state.addOperands(operand.size() == 1 ? operand[0] : operand[i]);
      state.addTypes(elemType);
      state.addAttributes(op->getAttrs());
      results.push_back(rewriter.create(state)->getResult(0));
    }
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }
};

/// A splat constant tile is the same scalar constant in every slot.
struct ConstantOpConversion : public OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type)
      return failure();
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense || !dense.isSplat())
      return op.emitError("the GPU backend supports only splat constant "
                          "tiles; build others with tile.range and "
                          "arithmetic");
    auto scalar = arith::ConstantOp::create(
        rewriter, op.getLoc(), cast<TypedAttr>(dense.getSplatValue<Attribute>()));
    int64_t slots = LayoutView(type).getNumSlots();
    rewriter.replaceOpWithMultiple(
        op, {SmallVector<Value>(slots, scalar.getResult())});
    return success();
  }
};

/// Applies `fn` in f32 to a scalar of any float type.
static Value inF32(OpBuilder &b, Location loc, Value x,
                   function_ref<Value(Value)> fn) {
  Type type = x.getType();
  if (type.isF32())
    return fn(x);
  Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
  return arith::TruncFOp::create(b, loc, type, fn(wide));
}

static Value callIntrinsic(OpBuilder &b, Location loc, StringRef name,
                           Value x) {
  return LLVM::CallIntrinsicOp::create(b, loc, x.getType(),
                                       b.getStringAttr(name), ValueRange{x})
      .getResult(0);
}

/// exp(x) = ex2.approx(x * log2(e)), exp2(x) = ex2.approx(x),
/// log(x) = lg2.approx(x) * ln(2), log2(x) = lg2.approx(x); in f32 for
/// every float type but f64 (which is rejected before the patterns run).
template <typename OpT>
struct ApproxTranscendentalConversion : public OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpT>::OpAdaptor;
  static constexpr bool isExp = std::is_same<OpT, math::ExpOp>::value ||
                                std::is_same<OpT, math::Exp2Op>::value;
  LogicalResult
  matchAndRewrite(OpT op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (isa<RankedTensorType>(op.getType()) || op.getType().isF64())
      return failure();
    Location loc = op.getLoc();
    auto scale = [&](Value x, double factor) -> Value {
      return arith::MulFOp::create(
          rewriter, loc, x,
          arith::ConstantOp::create(rewriter, loc,
                                    rewriter.getF32FloatAttr(factor)));
    };
    Value result = inF32(rewriter, loc, adaptor.getOperand(), [&](Value x) {
      if constexpr (std::is_same<OpT, math::ExpOp>::value)
        x = scale(x, M_LOG2E);
      // With `afn` an exponential may flush results below 2^-126 to zero
      // (ex2.approx.ftz: one MUFU instruction instead of four, since
      // subnormal results need a rescaling around it); softmax kernels,
      // whose exponentials are weights in [0, 1], ask for it.
      bool flush = false;
      if constexpr (isExp)
        flush = arith::bitEnumContainsAll(op.getFastmath(),
                                          arith::FastMathFlags::afn);
      Value r = callIntrinsic(rewriter, loc,
                              isExp ? (flush ? "llvm.nvvm.ex2.approx.ftz.f32"
                                             : "llvm.nvvm.ex2.approx.f32")
                                    : "llvm.nvvm.lg2.approx.f",
                              x);
      if constexpr (std::is_same<OpT, math::LogOp>::value)
        r = scale(r, M_LN2);
      return r;
    });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::tile::populateElementwiseOpToLLVMPatterns(
    TileTypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ElementwiseOpConversion>(converter, ctx);
  patterns.add<ConstantOpConversion,
               ApproxTranscendentalConversion<math::ExpOp>,
               ApproxTranscendentalConversion<math::Exp2Op>,
               ApproxTranscendentalConversion<math::LogOp>,
               ApproxTranscendentalConversion<math::Log2Op>>(converter, ctx);
}
