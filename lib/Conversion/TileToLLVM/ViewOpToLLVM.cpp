//===- ViewOpToLLVM.cpp - Indexing and shape ops --------------------------===//
//
// program_id/num_programs read special registers; range and splat build
// slots from indices and scalars; broadcast and expand_dims between layouts
// with the same root only pick slots (no data moves); convert_layout, trans
// and reshape exchange elements through shared memory; an
// optimization_barrier passes each slot through an opaque register move.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

template <typename OpT>
struct GridQueryConversion : public OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpT>::OpAdaptor;
  LogicalResult
  matchAndRewrite(OpT op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value v;
    constexpr bool isId = std::is_same<OpT, ProgramIdOp>::value;
    switch (op.getAxis()) {
    case 0:
      v = isId ? (Value)NVVM::BlockIdXOp::create(rewriter, loc, i32)
               : (Value)NVVM::GridDimXOp::create(rewriter, loc, i32);
      break;
    case 1:
      v = isId ? (Value)NVVM::BlockIdYOp::create(rewriter, loc, i32)
               : (Value)NVVM::GridDimYOp::create(rewriter, loc, i32);
      break;
    default:
      v = isId ? (Value)NVVM::BlockIdZOp::create(rewriter, loc, i32)
               : (Value)NVVM::GridDimZOp::create(rewriter, loc, i32);
      break;
    }
    rewriter.replaceOp(op, v);
    return success();
  }
};

struct RangeOpConversion : public OpConversionPattern<RangeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(RangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value start = i32Constant(rewriter, loc, (int32_t)op.getStart());
    SmallVector<Value> values;
    for (auto index : emitSlotIndices(rewriter, loc, op.getType()))
      values.push_back(arith::AddIOp::create(rewriter, loc, start, index[0]));
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

struct SplatOpConversion : public OpConversionPattern<SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SplatOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t slots = LayoutView(op.getType()).getNumSlots();
    Value scalar = adaptor.getSrc()[0];
    rewriter.replaceOpWithMultiple(op, {SmallVector<Value>(slots, scalar)});
    return success();
  }
};

/// Maps each result slot to a source slot when source and result share a
/// root layout: a source coordinate is the result's, or 0 where the source
/// holds a single slot along that root dimension (size 1 or sliced away).
static std::optional<SmallVector<Value>>
pickSlots(RankedTensorType srcType, ValueRange src,
          RankedTensorType dstType) {
  LayoutView s(srcType), d(dstType);
  if (s.getRoot() != d.getRoot())
    return std::nullopt;
  SmallVector<Value> out;
  for (int64_t slot = 0; slot < d.getNumSlots(); ++slot) {
    SmallVector<int64_t> coords = d.getSlotCoords(slot);
    for (unsigned rd = 0; rd < coords.size(); ++rd)
      if (coords[rd] >= s.getSlotsAlong(rd)) {
        if (s.getSlotsAlong(rd) != 1 && s.getRootExtent(rd) != 1)
          return std::nullopt;
        coords[rd] = 0;
      }
    out.push_back(src[s.getSlot(coords)]);
  }
  return out;
}

template <typename OpT>
struct SlotPickingConversion : public OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;
  using OneToNOpAdaptor = typename OpConversionPattern<OpT>::OneToNOpAdaptor;
  LogicalResult
  matchAndRewrite(OpT op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    auto picked = pickSlots(srcType, adaptor.getSrc(), dstType);
    if (!picked)
      return op.emitError("operand and result layouts do not share a root "
                          "layout; run tile-assign-layouts");
    rewriter.replaceOpWithMultiple(op, {*picked});
    return success();
  }
};

/// convert_layout, trans and reshape move elements between threads.
template <typename OpT>
struct ExchangeConversion : public OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;
  using OneToNOpAdaptor = typename OpConversionPattern<OpT>::OneToNOpAdaptor;
  LogicalResult
  matchAndRewrite(OpT op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto dstType = cast<RankedTensorType>(op.getType());
    Location loc = op.getLoc();
    // A transpose whose dot reads the untransposed buffer: nothing reads
    // its values.
    if constexpr (std::is_same<OpT, TransOp>::value) {
      if (isTransReadByDot(op)) {
        Type elem =
            this->getTypeConverter()->convertType(dstType.getElementType());
        Value poison = LLVM::PoisonOp::create(rewriter, loc, elem);
        rewriter.replaceOpWithMultiple(
            op,
            {SmallVector<Value>(LayoutView(dstType).getNumSlots(), poison)});
        return success();
      }
    }
    // Conversions keep positions: padded rows spread an mma layout's
    // column accesses over the banks.
    int64_t rowPad = 0;
    if constexpr (std::is_same<OpT, ConvertLayoutOp>::value)
      rowPad = getConversionRowPad(dstType);
    auto toDst = [&](OpBuilder &b, Location l,
                     ArrayRef<Value> srcIndex) -> Value {
      if constexpr (std::is_same<OpT, TransOp>::value) {
        SmallVector<Value> dstIndex;
        for (int32_t d : op.getOrder())
          dstIndex.push_back(srcIndex[d]);
        return emitLinearIndex(b, l, dstIndex, dstType.getShape());
      }
      // convert_layout keeps positions; reshape keeps row-major order.
      return emitLinearIndex(b, l, srcIndex, srcType.getShape(), rowPad);
    };
    SmallVector<Value> values = exchangeThroughSharedMemory(
        rewriter, loc, srcType, adaptor.getSrc(), dstType, toDst, rowPad);
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

/// Each distinct slot value goes through `mov.bN` in inline asm with side
/// effects: neither MLIR's CSE nor LLVM may merge two of them or look
/// through one, and ptxas folds the move away.
struct OptimizationBarrierOpConversion
    : public OpConversionPattern<OptimizationBarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OptimizationBarrierOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    unsigned bits = op.getType().getElementType().getIntOrFloatBitWidth();
    Type bitsType = rewriter.getIntegerType(bits);
    StringRef reg = bits == 16 ? "h" : bits == 32 ? "r" : "l";
    std::string text = "mov.b" + std::to_string(bits) + " $0, $1;";
    std::string constraints = ("=" + reg + "," + reg).str();
    DenseMap<Value, Value> moved;
    SmallVector<Value> results;
    for (Value slot : adaptor.getSrc()) {
      Value &out = moved[slot];
      if (!out) {
        Value raw =
            slot.getType() == bitsType
                ? slot
                : LLVM::BitcastOp::create(rewriter, loc, bitsType, slot);
        // Inline PTX: no NVVM op is a move that LLVM may not look through.
        out = emitInlineAsm(rewriter, loc, bitsType, raw, text, constraints,
                            /*hasSideEffects=*/true)[0];
        if (slot.getType() != bitsType)
          out = LLVM::BitcastOp::create(rewriter, loc, slot.getType(), out);
      }
      results.push_back(out);
    }
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }
};

} // namespace

void mlir::tile::populateViewOpToLLVMPatterns(TileTypeConverter &converter,
                                              RewritePatternSet &patterns) {
  patterns.add<GridQueryConversion<ProgramIdOp>,
               GridQueryConversion<NumProgramsOp>, RangeOpConversion,
               SplatOpConversion, SlotPickingConversion<BroadcastOp>,
               SlotPickingConversion<ExpandDimsOp>,
               ExchangeConversion<ConvertLayoutOp>, ExchangeConversion<TransOp>,
               ExchangeConversion<ReshapeOp>, OptimizationBarrierOpConversion>(
      converter, patterns.getContext());
}
