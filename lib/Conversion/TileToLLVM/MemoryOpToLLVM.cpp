//===- MemoryOpToLLVM.cpp - Pointers, loads and stores --------------------===//
//
// Each thread accesses global memory for its own slots. Where the axis
// analysis proved that `w` consecutive slots address consecutive, aligned
// elements under one mask, they form a single vector access (16 bytes for
// four f32). A vector load under one mask bit is a predicated PTX load;
// other masked accesses are guarded by a branch on the mask, which the
// backend turns into predicated instructions where it can; masked-off
// lanes read `other` (zero by default) and never touch memory.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::tile;

/// The LLVM type of one element in global memory (i1 is a byte).
static Type getMemoryType(Type elemType) {
  if (elemType.isInteger(1))
    return IntegerType::get(elemType.getContext(), 8);
  return elemType;
}

static int64_t getElementBytes(Type elemType) {
  return std::max<int64_t>(1, getMemoryType(elemType).getIntOrFloatBitWidth() /
                                  8);
}

/// Loads `width` elements of `elemType` at `ptr` (global address space).
static SmallVector<Value> emitLoad(OpBuilder &b, Location loc, Value ptr,
                                   Type elemType, unsigned width) {
  Type memType = getMemoryType(elemType);
  unsigned align = getElementBytes(elemType) * width;
  SmallVector<Value> out;
  if (width == 1) {
    Value v = LLVM::LoadOp::create(b, loc, memType, ptr, align);
    out.push_back(fromStorage(b, loc, v, elemType));
    return out;
  }
  auto vecType = VectorType::get({(int64_t)width}, memType);
  Value v = LLVM::LoadOp::create(b, loc, vecType, ptr, align);
  for (unsigned i = 0; i < width; ++i) {
    Value e = LLVM::ExtractElementOp::create(b, loc, v, i32Constant(b, loc, i));
    out.push_back(fromStorage(b, loc, e, elemType));
  }
  return out;
}

static void emitStore(OpBuilder &b, Location loc, Value ptr,
                      ArrayRef<Value> values, Type elemType) {
  Type memType = getMemoryType(elemType);
  unsigned width = values.size();
  unsigned align = getElementBytes(elemType) * width;
  if (width == 1) {
    LLVM::StoreOp::create(b, loc, toStorage(b, loc, values[0]), ptr, align);
    return;
  }
  auto vecType = VectorType::get({(int64_t)width}, memType);
  Value v = LLVM::UndefOp::create(b, loc, vecType);
  for (unsigned i = 0; i < width; ++i)
    v = LLVM::InsertElementOp::create(b, loc, v, toStorage(b, loc, values[i]),
                                      i32Constant(b, loc, i));
  LLVM::StoreOp::create(b, loc, v, ptr, align);
}

static Value zeroOf(OpBuilder &b, Location loc, Type type) {
  if (isa<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, 0.0));
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, 0));
}

/// Loads `fallback.size()` elements at `ptr` where `pred` holds, else
/// yields `fallback`: moves of the fallback into the destination registers,
/// then one predicated PTX load; straight-line code. (Behind a branch, LLVM
/// may move the value's first use, an f16 -> f32 conversion say, into the
/// branch, and the thread then waits for each load before issuing the
/// next.)
static SmallVector<Value> emitPredicatedLoad(OpBuilder &b, Location loc,
                                             Value ptr, Value pred,
                                             Type elemType,
                                             ArrayRef<Value> fallback) {
  Type memType = getMemoryType(elemType);
  unsigned width = fallback.size();
  int64_t elemBits = getElementBytes(elemType) * 8;
  int64_t totalBits = elemBits * width;
  // Registers of 64 bits for 64-bit elements, else of 32 bits (a vector of
  // 2 bytes: one 16-bit register; a single byte would load into one too).
  int64_t wordBits = elemBits == 64 ? 64 : std::min<int64_t>(32, totalBits);
  int64_t regBits = std::max<int64_t>(16, wordBits);
  unsigned words = totalBits / wordBits;
  Type wordType = b.getIntegerType(wordBits);
  Type regType = b.getIntegerType(regBits);
  // The fallback, as the words it occupies in memory.
  auto elemVec = VectorType::get({(int64_t)width}, memType);
  auto wordVec = VectorType::get({(int64_t)words}, wordType);
  Value packed = LLVM::UndefOp::create(b, loc, elemVec);
  for (unsigned i = 0; i < width; ++i)
    packed = LLVM::InsertElementOp::create(
        b, loc, packed, toStorage(b, loc, fallback[i]), i32Constant(b, loc, i));
  Value fallbackWords = LLVM::BitcastOp::create(b, loc, wordVec, packed);
  SmallVector<Value> operands{ptr, pred};
  for (unsigned i = 0; i < words; ++i) {
    Value w = LLVM::ExtractElementOp::create(b, loc, fallbackWords,
                                             i32Constant(b, loc, i));
    if (regBits != wordBits)
      w = LLVM::ZExtOp::create(b, loc, regType, w);
    operands.push_back(w);
  }
  char reg = regBits == 64 ? 'l' : regBits == 32 ? 'r' : 'h';
  std::string text, constraints, list;
  llvm::raw_string_ostream os(text), cs(constraints);
  for (unsigned i = 0; i < words; ++i) {
    os << "mov.b" << regBits << " $" << i << ", $" << words + 2 + i << ";\n";
    cs << "=" << reg << ",";
    list += (i ? ", $" : "$") + std::to_string(i);
  }
  os << "@$" << words + 1 << " ld.global";
  if (words > 1)
    os << ".v" << words;
  os << ".b" << wordBits << " " << (words > 1 ? "{" + list + "}" : list)
     << ", [$" << words << "];";
  cs << "l,b";
  for (unsigned i = 0; i < words; ++i)
    cs << "," << reg;
  // Ordered with the kernel's other memory accesses (an asm without side
  // effects could move across a store to the same address).
  // Inline PTX: no NVVM op for a predicated vector load with fallbacks.
  SmallVector<Value> regs =
      emitInlineAsm(b, loc, SmallVector<Type>(words, regType), operands, text,
                    constraints, /*hasSideEffects=*/true);
  Value loaded = LLVM::UndefOp::create(b, loc, wordVec);
  for (unsigned i = 0; i < words; ++i) {
    Value w = regs[i];
    if (regBits != wordBits)
      w = LLVM::TruncOp::create(b, loc, wordType, w);
    loaded = LLVM::InsertElementOp::create(b, loc, loaded, w,
                                           i32Constant(b, loc, i));
  }
  Value elems = LLVM::BitcastOp::create(b, loc, elemVec, loaded);
  SmallVector<Value> out;
  for (unsigned i = 0; i < width; ++i)
    out.push_back(fromStorage(
        b, loc,
        LLVM::ExtractElementOp::create(b, loc, elems, i32Constant(b, loc, i)),
        elemType));
  return out;
}

/// Loads under `mask` (may be null): the loaded values, or `fallback`. A
/// vector under one mask bit is a predicated load; a single element keeps
/// a branch, which the backend predicates where it can.
static SmallVector<Value> emitMaskedLoad(OpBuilder &b, Location loc,
                                         Value ptr, Value mask, Type elemType,
                                         ArrayRef<Value> fallback) {
  unsigned width = fallback.size();
  if (!mask)
    return emitLoad(b, loc, ptr, elemType, width);
  if (width > 1)
    return emitPredicatedLoad(b, loc, ptr, mask, elemType, fallback);
  SmallVector<Type> types(width, elemType);
  auto ifOp = scf::IfOp::create(b, loc, types, mask, /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(b, loc, emitLoad(b, loc, ptr, elemType, width));
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, loc, fallback);
  }
  return SmallVector<Value>(ifOp.getResults());
}

/// AND of `masks`.
static Value allOf(OpBuilder &b, Location loc, ValueRange masks) {
  Value all = masks[0];
  for (Value m : masks.drop_front())
    all = arith::AndIOp::create(b, loc, all, m);
  return all;
}

/// OR of `masks`.
static Value anyOf(OpBuilder &b, Location loc, ValueRange masks) {
  Value any = masks[0];
  for (Value m : masks.drop_front())
    any = arith::OrIOp::create(b, loc, any, m);
  return any;
}

static void emitMaskedStore(OpBuilder &b, Location loc, Value ptr, Value mask,
                            ArrayRef<Value> values, Type elemType) {
  if (!mask) {
    emitStore(b, loc, ptr, values, elemType);
    return;
  }
  auto ifOp = scf::IfOp::create(b, loc, TypeRange(), mask, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  emitStore(b, loc, ptr, values, elemType);
}

namespace {

struct AddPtrOpConversion : public OpConversionPattern<AddPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AddPtrOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type pointee = getMemoryType(
        cast<PointerType>(getElementTypeOrSelf(op.getPtr().getType()))
            .getPointeeType());
    SmallVector<Value> results;
    for (auto [ptr, offset] : llvm::zip(adaptor.getPtr(), adaptor.getOffset()))
      results.push_back(gep(rewriter, op.getLoc(), pointee, ptr, offset));
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }
};

struct LoadOpConversion : public OpConversionPattern<LoadOp> {
  LoadOpConversion(TypeConverter &converter, MLIRContext *ctx,
                   const VectorWidthMap &widths)
      : OpConversionPattern(converter, ctx), widths(widths) {}

  LogicalResult
  matchAndRewrite(LoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elemType = getElementTypeOrSelf(op.getType());
    ValueRange ptrs = adaptor.getPtr();
    ValueRange masks = adaptor.getMask();
    ValueRange others = adaptor.getOther();
    VectorAccess access = widths.lookup(op);
    unsigned width = std::max(1u, access.width);
    SmallVector<Value> results;
    for (size_t first = 0; first < ptrs.size(); first += width) {
      SmallVector<Value> fallback;
      for (unsigned i = 0; i < width; ++i)
        fallback.push_back(others.empty()
                               ? zeroOf(rewriter, loc, elemType)
                               : others[others.size() == 1 ? 0 : first + i]);
      if (masks.empty() || access.maskUniform || width == 1) {
        Value mask = masks.empty() ? Value() : masks[first];
        auto values = emitMaskedLoad(rewriter, loc, ptrs[first], mask,
                                     elemType, fallback);
        results.append(values.begin(), values.end());
        continue;
      }
      // All lanes enabled (the interior of a row): one vector access;
      // none (past the end of a row): the `other` values, no access;
      // otherwise (the ragged edge) element by element.
      ValueRange group = masks.slice(first, width);
      SmallVector<Type> types(width, elemType);
      auto ifOp = scf::IfOp::create(rewriter, loc, types,
                                    allOf(rewriter, loc, group),
                                    /*withElse=*/true);
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(ifOp.thenBlock());
        scf::YieldOp::create(rewriter, loc,
                             emitLoad(rewriter, loc, ptrs[first], elemType,
                                      width));
        rewriter.setInsertionPointToStart(ifOp.elseBlock());
        auto someOp = scf::IfOp::create(rewriter, loc, types,
                                        anyOf(rewriter, loc, group),
                                        /*withElse=*/true);
        scf::YieldOp::create(rewriter, loc, someOp.getResults());
        rewriter.setInsertionPointToStart(someOp.thenBlock());
        SmallVector<Value> lanes;
        for (unsigned i = 0; i < width; ++i)
          lanes.push_back(emitMaskedLoad(rewriter, loc, ptrs[first + i],
                                         group[i], elemType,
                                         {fallback[i]})[0]);
        scf::YieldOp::create(rewriter, loc, lanes);
        rewriter.setInsertionPointToStart(someOp.elseBlock());
        scf::YieldOp::create(rewriter, loc, fallback);
      }
      results.append(ifOp.getResults().begin(), ifOp.getResults().end());
    }
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }

  const VectorWidthMap &widths;
};

struct StoreOpConversion : public OpConversionPattern<StoreOp> {
  StoreOpConversion(TypeConverter &converter, MLIRContext *ctx,
                    const VectorWidthMap &widths)
      : OpConversionPattern(converter, ctx), widths(widths) {}

  LogicalResult
  matchAndRewrite(StoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elemType = getElementTypeOrSelf(op.getValue().getType());
    ValueRange ptrs = adaptor.getPtr();
    ValueRange values = adaptor.getValue();
    ValueRange masks = adaptor.getMask();
    VectorAccess access = widths.lookup(op);
    unsigned width = std::max(1u, access.width);
    for (size_t first = 0; first < ptrs.size(); first += width) {
      SmallVector<Value> group(values.slice(first, width));
      if (masks.empty() || access.maskUniform || width == 1) {
        Value mask = masks.empty() ? Value() : masks[first];
        emitMaskedStore(rewriter, loc, ptrs[first], mask, group, elemType);
        continue;
      }
      ValueRange groupMasks = masks.slice(first, width);
      auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange(),
                                    allOf(rewriter, loc, groupMasks),
                                    /*withElse=*/true);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      emitStore(rewriter, loc, ptrs[first], group, elemType);
      // Lanes partly enabled: element by element; none: nothing.
      rewriter.setInsertionPoint(ifOp.elseBlock()->getTerminator());
      auto someOp = scf::IfOp::create(rewriter, loc, TypeRange(),
                                      anyOf(rewriter, loc, groupMasks),
                                      /*withElse=*/false);
      rewriter.setInsertionPoint(someOp.thenBlock()->getTerminator());
      for (unsigned i = 0; i < width; ++i)
        emitMaskedStore(rewriter, loc, ptrs[first + i], groupMasks[i],
                        {group[i]}, elemType);
    }
    rewriter.eraseOp(op);
    return success();
  }

  const VectorWidthMap &widths;
};

struct MakeBlockPtrOpConversion : public OpConversionPattern<MakeBlockPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MakeBlockPtrOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> parts{adaptor.getBase()[0]};
    for (ValueRange v : adaptor.getShape())
      parts.push_back(v[0]);
    for (ValueRange v : adaptor.getStrides())
      parts.push_back(v[0]);
    for (ValueRange v : adaptor.getOffsets())
      parts.push_back(v[0]);
    rewriter.replaceOpWithMultiple(op, {parts});
    return success();
  }
};

/// The parts of a converted block pointer.
struct BlockPtrParts {
  Value base;
  SmallVector<Value> shape, strides, offsets;
  BlockPtrParts(ValueRange parts, unsigned rank) {
    base = parts[0];
    for (unsigned d = 0; d < rank; ++d) {
      shape.push_back(parts[1 + d]);
      strides.push_back(parts[1 + rank + d]);
      offsets.push_back(parts[1 + 2 * rank + d]);
    }
  }
  SmallVector<Value> flatten() const {
    SmallVector<Value> out{base};
    out.append(shape);
    out.append(strides);
    out.append(offsets);
    return out;
  }
};

static unsigned getBlockRank(Type blockPtr) {
  return cast<BlockPointerType>(blockPtr).getBlockType().getRank();
}

struct AdvanceOpConversion : public OpConversionPattern<AdvanceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AdvanceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BlockPtrParts parts(adaptor.getPtr(), getBlockRank(op.getType()));
    for (auto [d, delta] : llvm::enumerate(adaptor.getOffsets()))
      parts.offsets[d] = arith::AddIOp::create(rewriter, op.getLoc(),
                                               parts.offsets[d], delta[0]);
    rewriter.replaceOpWithMultiple(op, {parts.flatten()});
    return success();
  }
};

/// For each slot of a block: its address and whether it is inside the
/// array along the checked dimensions (null when nothing is checked).
static void emitBlockAddresses(
    OpBuilder &b, Location loc, const BlockPtrParts &parts,
    RankedTensorType blockType, ArrayRef<int32_t> check,
    SmallVectorImpl<Value> &addresses, SmallVectorImpl<Value> &inBounds) {
  Type memType = getMemoryType(blockType.getElementType());
  Type i64 = b.getI64Type();
  for (auto index : emitSlotIndices(b, loc, blockType)) {
    Value offset = i64Constant(b, loc, 0);
    Value ok;
    for (unsigned d = 0; d < index.size(); ++d) {
      Value pos = arith::AddIOp::create(b, loc, parts.offsets[d], index[d]);
      Value pos64 = arith::ExtSIOp::create(b, loc, i64, pos);
      offset = arith::AddIOp::create(
          b, loc, offset,
          arith::MulIOp::create(b, loc, pos64, parts.strides[d]));
      if (!llvm::is_contained(check, (int32_t)d))
        continue;
      // 0 <= pos < shape, as one unsigned comparison.
      Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           pos64, parts.shape[d]);
      ok = ok ? arith::AndIOp::create(b, loc, ok, inside) : inside;
    }
    addresses.push_back(gep(b, loc, memType, parts.base, offset));
    inBounds.push_back(ok);
  }
}

/// Block accesses are vectorized at run time: runs of `width` consecutive
/// slots along the layout's fastest dimension form one vector access when
/// that dimension's stride is 1, the first address is aligned to the vector
/// and every lane is inside the array; otherwise the run is accessed
/// element by element. Returns the run length (1: no vectors) and, through
/// `strideOk`, the uniform stride-1 condition.
static unsigned getBlockVectorWidth(OpBuilder &b, Location loc,
                                    RankedTensorType blockType,
                                    const BlockPtrParts &parts,
                                    Value &strideOk) {
  Type elem = getMemoryType(blockType.getElementType());
  if (!elem.isIntOrFloat() || elem.isInteger(8))
    return 1;
  LayoutView view(blockType);
  unsigned fast = view.getFastRootDim();
  std::optional<unsigned> dim = view.getFastTensorDim();
  if (!dim)
    return 1;
  int64_t bytes = getElementBytes(elem);
  int64_t width = std::min<int64_t>(
      {(int64_t)view.getSizePerThread(fast), 16 / bytes,
       blockType.getDimSize(*dim)});
  if (width < 2)
    return 1;
  strideOk = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                   parts.strides[*dim], i64Constant(b, loc, 1));
  return (unsigned)width;
}

/// Whether a block starting at the pointer's offsets lies inside the array
/// along the checked dimensions (null when nothing is checked).
static Value blockInBounds(OpBuilder &b, Location loc,
                           const BlockPtrParts &parts,
                           RankedTensorType blockType,
                           ArrayRef<int32_t> check) {
  Type i64 = b.getI64Type();
  Value ok;
  for (unsigned d = 0; d < parts.offsets.size(); ++d) {
    if (!llvm::is_contained(check, (int32_t)d))
      continue;
    Value off = arith::ExtSIOp::create(b, loc, i64, parts.offsets[d]);
    Value end = arith::AddIOp::create(
        b, loc, off, i64Constant(b, loc, blockType.getDimSize(d)));
    Value inside = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, off,
                              i64Constant(b, loc, 0)),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, end,
                              parts.shape[d]));
    ok = ok ? arith::AndIOp::create(b, loc, ok, inside) : inside;
  }
  return ok;
}

/// The run-time condition for accessing a whole block with vectors of
/// `width` elements, from the block pointer alone (uniform over the
/// program): stride 1 along the fast dimension, every vector's first
/// address aligned (the base plus the offsets, and the other dimensions'
/// strides), and the whole block inside the array along the checked
/// dimensions. Per-element addresses are then needed only inside the branch
/// that uses them, which keeps them out of the registers of the other.
/// With `provenAligned` (proven before the conversion: see VectorAccess), only
/// the bounds are tested, and null is returned when nothing is checked.
static Value blockVectorOk(OpBuilder &b, Location loc, Value strideOk,
                           const BlockPtrParts &parts,
                           RankedTensorType blockType, ArrayRef<int32_t> check,
                           unsigned fastDim, unsigned width, int64_t bytes,
                           bool provenAligned) {
  if (provenAligned)
    return blockInBounds(b, loc, parts, blockType, check);
  Type i64 = b.getI64Type();
  Value offset = i64Constant(b, loc, 0);
  Value misaligned;
  for (unsigned d = 0; d < parts.offsets.size(); ++d) {
    Value off = arith::ExtSIOp::create(b, loc, i64, parts.offsets[d]);
    offset = arith::AddIOp::create(
        b, loc, offset, arith::MulIOp::create(b, loc, off, parts.strides[d]));
    if (d != fastDim && blockType.getDimSize(d) > 1)
      misaligned = misaligned ? (Value)arith::OrIOp::create(b, loc, misaligned,
                                                            parts.strides[d])
                              : parts.strides[d];
  }
  Value ok = strideOk;
  if (Value inside = blockInBounds(b, loc, parts, blockType, check))
    ok = arith::AndIOp::create(b, loc, ok, inside);
  // In elements: the first element's offset and every other stride must
  // be multiples of `width`, and the base a multiple of width * bytes.
  Value elems = misaligned ? (Value)arith::OrIOp::create(b, loc, misaligned,
                                                         offset)
                           : offset;
  Value lowElems =
      arith::AndIOp::create(b, loc, elems, i64Constant(b, loc, width - 1));
  Value baseInt = LLVM::PtrToIntOp::create(b, loc, i64, parts.base);
  Value lowBase = arith::AndIOp::create(
      b, loc, baseInt, i64Constant(b, loc, bytes * width - 1));
  Value aligned = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::OrIOp::create(b, loc, lowElems, lowBase), i64Constant(b, loc, 0));
  return arith::AndIOp::create(b, loc, ok, aligned);
}

/// Whether `op`'s vectors of `width` elements along the layout's fastest
/// dimension were proven aligned before the conversion.
static bool isAlignedBlockAccess(const VectorWidthMap &widths, Operation *op,
                                 RankedTensorType type, unsigned width) {
  auto it = widths.find(op);
  return it != widths.end() && it->second.alignedDim >= 0 &&
         width <= it->second.width &&
         LayoutView(type).getFastTensorDim() == (unsigned)it->second.alignedDim;
}

/// Whether a proven-aligned block access checks bounds only across vectors
/// (not along the fastest dimension): then each vector is one access under
/// its own check, with no branch to element accesses.
static bool checksOnlyAcrossVectors(RankedTensorType type,
                                    ArrayRef<int32_t> check) {
  return !llvm::is_contained(check,
                             (int32_t)*LayoutView(type).getFastTensorDim());
}

struct BlockLoadOpConversion : public OpConversionPattern<BlockLoadOp> {
  BlockLoadOpConversion(const TypeConverter &converter, MLIRContext *ctx,
                        const VectorWidthMap &widths)
      : OpConversionPattern(converter, ctx), widths(widths) {}
  LogicalResult
  matchAndRewrite(BlockLoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    Type elemType = type.getElementType();
    BlockPtrParts parts(adaptor.getPtr(), type.getRank());
    Value strideOk;
    unsigned width =
        getBlockVectorWidth(rewriter, loc, type, parts, strideOk);
    int64_t bytes = getElementBytes(getMemoryType(elemType));
    auto makePad = [&]() -> Value {
      switch (op.getPadding()) {
      case PaddingKind::Zero:
        return zeroOf(rewriter, loc, elemType);
      case PaddingKind::NaN:
        return arith::ConstantOp::create(
            rewriter, loc,
            rewriter.getFloatAttr(elemType,
                                  std::numeric_limits<double>::quiet_NaN()));
      case PaddingKind::NegInf:
        return arith::ConstantOp::create(
            rewriter, loc,
            rewriter.getFloatAttr(elemType,
                                  -std::numeric_limits<double>::infinity()));
      }
      llvm_unreachable("unknown padding");
    };
    // Runs of `run` slots, each one access under its first slot's bounds
    // check (none: always), yielding `pad` where it fails.
    auto accessPath = [&](ArrayRef<int32_t> check, unsigned run) {
      SmallVector<Value> addresses, inBounds, out;
      emitBlockAddresses(rewriter, loc, parts, type, check, addresses,
                         inBounds);
      Value pad = check.empty() ? Value() : makePad();
      for (size_t first = 0; first < addresses.size(); first += run) {
        auto v =
            emitMaskedLoad(rewriter, loc, addresses[first], inBounds[first],
                           elemType, SmallVector<Value>(run, pad));
        out.append(v.begin(), v.end());
      }
      return out;
    };
    SmallVector<Value> results;
    bool proven = width > 1 && isAlignedBlockAccess(widths, op, type, width);
    if (width == 1) {
      results = accessPath(op.getCheck(), 1);
    } else if (proven && checksOnlyAcrossVectors(type, op.getCheck())) {
      // Proven aligned, bounds checked only across vectors: each vector is
      // one access under its own check (a predicated load), with no branch
      // to element accesses. (Behind such a branch, LLVM may split the
      // vectors and merge both sides into element loads, and 16-bit
      // elements written into halves of registers keep the registers'
      // other halves live from the kernel's start.)
      results = accessPath(op.getCheck(), width);
    } else {
      // One uniform branch for the whole block: the interior blocks of an
      // array (stride 1, aligned rows, all in bounds) take vector loads.
      Value ok = blockVectorOk(
          rewriter, loc, strideOk, parts, type, op.getCheck(),
          *LayoutView(type).getFastTensorDim(), width, bytes, proven);
      SmallVector<Type> types(LayoutView(type).getNumSlots(), elemType);
      auto ifOp = scf::IfOp::create(rewriter, loc, types, ok,
                                    /*withElse=*/true);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(rewriter, loc, accessPath({}, width));
      rewriter.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(rewriter, loc, accessPath(op.getCheck(), 1));
      results.assign(ifOp.getResults().begin(), ifOp.getResults().end());
    }
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }

private:
  const VectorWidthMap &widths;
};

/// Whether a block of `type` stored in 2-element vectors can be stored in
/// 16-byte ones instead, lanes 2i and 2i + 1 swapping pairs: 32-bit
/// elements, two per thread and repetition along the fast dimension
/// (mma and wgmma accumulators), the lane's lowest bit along it, and an
/// even number of repetitions. Each store then writes twice the bytes of a
/// row, which halves the instructions and the cache lines per byte.
static bool canSwapPairs(RankedTensorType type, unsigned width) {
  if (width != 2 || getElementBytes(getMemoryType(type.getElementType())) != 4)
    return false;
  LayoutView view(type);
  unsigned fast = view.getFastRootDim();
  return view.getSizePerThread(fast) == 2 &&
         view.getThreadsPerWarp(fast) % 2 == 0 &&
         view.getLaneStride(fast) == 1 &&
         view.getDistinctLanes(fast) == view.getThreadsPerWarp(fast) &&
         view.getSlotsAlong(fast) % 4 == 0;
}

/// The stores of canSwapPairs, every element inside the array: of each two
/// consecutive repetitions, the even lane keeps the first one's pair and
/// receives its partner's, which follows it, and the odd lane keeps the
/// second one's pair after the one it receives.
static void emitSwappedPairStores(OpBuilder &b, Location loc,
                                  const BlockPtrParts &parts,
                                  RankedTensorType type, ValueRange values) {
  SmallVector<Value> addresses, inBounds;
  emitBlockAddresses(b, loc, parts, type, {}, addresses, inBounds);
  LayoutView view(type);
  unsigned fast = view.getFastRootDim();
  Type elemType = type.getElementType();
  Type memType = getMemoryType(elemType);
  Value lane = getThreadIds(b, loc).lane;
  Value odd = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne,
      arith::AndIOp::create(b, loc, lane, i32Constant(b, loc, 1)),
      i32Constant(b, loc, 0));
  auto pick = [&](Value ifOdd, Value ifEven) -> Value {
    return arith::SelectOp::create(b, loc, odd, ifOdd, ifEven);
  };
  for (int64_t slot = 0, n = view.getNumSlots(); slot < n; ++slot) {
    SmallVector<int64_t> coords = view.getSlotCoords(slot);
    if (coords[fast] % 4 != 0)
      continue;
    auto at = [&](int64_t step) {
      SmallVector<int64_t> c(coords);
      c[fast] += step;
      return view.getSlot(c);
    };
    Value a0 = values[at(0)], a1 = values[at(1)];
    Value b0 = values[at(2)], b1 = values[at(3)];
    Value r0 = shuffleXor(b, loc, pick(a0, b0), 1);
    Value r1 = shuffleXor(b, loc, pick(a1, b1), 1);
    Value oddAddress =
        gep(b, loc, memType, addresses[at(2)], i64Constant(b, loc, -2));
    Value address =
        LLVM::SelectOp::create(b, loc, odd, oddAddress, addresses[at(0)]);
    emitStore(b, loc, address,
              {pick(r0, a0), pick(r1, a1), pick(b0, r0), pick(b1, r1)},
              elemType);
  }
}

struct BlockStoreOpConversion : public OpConversionPattern<BlockStoreOp> {
  BlockStoreOpConversion(const TypeConverter &converter, MLIRContext *ctx,
                         const VectorWidthMap &widths)
      : OpConversionPattern(converter, ctx), widths(widths) {}
  LogicalResult
  matchAndRewrite(BlockStoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getValue().getType());
    BlockPtrParts parts(adaptor.getPtr(), type.getRank());
    Value strideOk;
    unsigned width =
        getBlockVectorWidth(rewriter, loc, type, parts, strideOk);
    Type elemType = type.getElementType();
    int64_t bytes = getElementBytes(getMemoryType(elemType));
    ValueRange values = adaptor.getValue();
    // Runs of `run` slots, each one access under its first slot's bounds
    // check (none: always).
    auto accessPath = [&](ArrayRef<int32_t> check, unsigned run) {
      SmallVector<Value> addresses, inBounds;
      emitBlockAddresses(rewriter, loc, parts, type, check, addresses,
                         inBounds);
      for (size_t first = 0; first < addresses.size(); first += run) {
        SmallVector<Value> group(values.slice(first, run));
        emitMaskedStore(rewriter, loc, addresses[first], inBounds[first], group,
                        elemType);
      }
    };
    bool proven = width > 1 && isAlignedBlockAccess(widths, op, type, width);
    if (width == 1) {
      accessPath(op.getCheck(), 1);
    } else if (proven && checksOnlyAcrossVectors(type, op.getCheck())) {
      // As for loads: one access per vector, each under its own check.
      accessPath(op.getCheck(), width);
    } else {
      unsigned fastDim = *LayoutView(type).getFastTensorDim();
      OpBuilder::InsertionGuard guard(rewriter);
      if (canSwapPairs(type, width)) {
        // Whole blocks with 16-byte aligned vectors swap pairs; the
        // others take the branch below.
        Value ok = blockVectorOk(rewriter, loc, strideOk, parts, type,
                                 op.getCheck(), fastDim, 2 * width, bytes,
                                 /*provenAligned=*/false);
        auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange(), ok,
                                      /*withElse=*/true);
        rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
        emitSwappedPairStores(rewriter, loc, parts, type, values);
        rewriter.setInsertionPoint(ifOp.elseBlock()->getTerminator());
      }
      Value ok = blockVectorOk(rewriter, loc, strideOk, parts, type,
                               op.getCheck(), fastDim, width, bytes, proven);
      auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange(), ok,
                                    /*withElse=*/true);
      rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      accessPath({}, width);
      rewriter.setInsertionPoint(ifOp.elseBlock()->getTerminator());
      accessPath(op.getCheck(), 1);
    }
    rewriter.eraseOp(op);
    return success();
  }

private:
  const VectorWidthMap &widths;
};

} // namespace

void mlir::tile::populateMemoryOpToLLVMPatterns(
    TileTypeConverter &converter, RewritePatternSet &patterns,
    const VectorWidthMap &vectorWidths) {
  MLIRContext *ctx = patterns.getContext();
  patterns
      .add<AddPtrOpConversion, MakeBlockPtrOpConversion, AdvanceOpConversion>(
          converter, ctx);
  patterns.add<LoadOpConversion, StoreOpConversion, BlockLoadOpConversion,
               BlockStoreOpConversion>(converter, ctx, vectorWidths);
}
