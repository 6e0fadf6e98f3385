//===- Utility.cpp - Helpers shared by the TileToLLVM patterns ------------===//

#include "Utility.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

unsigned mlir::tile::getSMVersion(StringRef chip) {
  unsigned sm = 0;
  if (!chip.consume_front("sm_") ||
      chip.take_while(llvm::isDigit).getAsInteger(10, sm))
    return 0;
  return sm;
}

Value mlir::tile::i32Constant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
}

Value mlir::tile::i64Constant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
}

ThreadIds mlir::tile::getThreadIds(OpBuilder &b, Location loc) {
  Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  Value lane = arith::AndIOp::create(b, loc, tid, i32Constant(b, loc, 31));
  Value warp = arith::ShRUIOp::create(b, loc, tid, i32Constant(b, loc, 5));
  return {lane, warp};
}

/// (v >> log2(stride)) & (count - 1), for powers of two.
static Value extractField(OpBuilder &b, Location loc, Value v,
                          unsigned stride, unsigned count) {
  if (count == 1)
    return i32Constant(b, loc, 0);
  if (stride > 1)
    v = arith::ShRUIOp::create(b, loc, v,
                               i32Constant(b, loc, llvm::Log2_32(stride)));
  return arith::AndIOp::create(b, loc, v, i32Constant(b, loc, count - 1));
}

Value mlir::tile::emitLaneAlong(OpBuilder &b, Location loc,
                                const LayoutView &view, unsigned rd,
                                Value lane) {
  return extractField(b, loc, lane, view.getLaneStride(rd),
                      view.getThreadsPerWarp(rd));
}

Value mlir::tile::emitWarpAlong(OpBuilder &b, Location loc,
                                const LayoutView &view, unsigned rd,
                                Value warp) {
  return extractField(b, loc, warp, view.getWarpStride(rd),
                      view.getWarpsPerCTA(rd));
}

SmallVector<SmallVector<Value>>
mlir::tile::emitSlotIndices(OpBuilder &b, Location loc,
                            RankedTensorType type) {
  LayoutView view(type);
  ThreadIds ids = getThreadIds(b, loc);
  // Per root dimension: this thread's base position.
  SmallVector<Value> base(view.getRootRank());
  for (unsigned d = 0; d < view.getRank(); ++d) {
    unsigned rd = view.getRootDim(d);
    unsigned spt = view.getSizePerThread(rd);
    Value laneAlong = emitLaneAlong(b, loc, view, rd, ids.lane);
    Value warpAlong = emitWarpAlong(b, loc, view, rd, ids.warp);
    // lane x sizePerThread + warp x (a warp's run, or its slice).
    base[rd] = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, warpAlong,
                              i32Constant(b, loc, view.getWarpOffset(rd))),
        arith::MulIOp::create(b, loc, laneAlong, i32Constant(b, loc, spt)));
  }
  SmallVector<SmallVector<Value>> result;
  for (int64_t slot = 0; slot < view.getNumSlots(); ++slot) {
    SmallVector<int64_t> coords = view.getSlotCoords(slot);
    SmallVector<Value> index;
    for (unsigned d = 0; d < view.getRank(); ++d) {
      unsigned rd = view.getRootDim(d);
      int64_t extent = view.getRootExtent(rd);
      if (extent == 1) {
        index.push_back(i32Constant(b, loc, 0));
        continue;
      }
      Value idx = arith::AddIOp::create(
          b, loc, base[rd],
          i32Constant(b, loc, view.getStaticOffset(rd, coords[rd])));
      // Layouts larger than the tile wrap around (threads hold copies).
      if (view.getCTATile(rd) > extent)
        idx = arith::AndIOp::create(b, loc, idx,
                                    i32Constant(b, loc, extent - 1));
      index.push_back(idx);
    }
    result.push_back(index);
  }
  return result;
}

Value mlir::tile::emitLinearIndex(OpBuilder &b, Location loc,
                                  ArrayRef<Value> index,
                                  ArrayRef<int64_t> shape, int64_t rowPad) {
  Value linear = i32Constant(b, loc, 0);
  int64_t stride = 1;
  for (int64_t d = (int64_t)shape.size() - 1; d >= 0; --d) {
    if (shape[d] > 1) {
      Value term = stride == 1 ? index[d]
                               : arith::MulIOp::create(
                                     b, loc, index[d],
                                     i32Constant(b, loc, stride));
      linear = arith::AddIOp::create(b, loc, linear, term);
    }
    stride *= shape[d];
    if (d == (int64_t)shape.size() - 1)
      stride += rowPad;
  }
  return linear;
}

Value mlir::tile::getSharedMemory(OpBuilder &b, Location loc) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext(), 3);
  return LLVM::AddressOfOp::create(
      b, loc, ptrType,
      FlatSymbolRefAttr::get(b.getContext(), kSharedMemoryName));
}

Value mlir::tile::gep(OpBuilder &b, Location loc, Type elemType, Value ptr,
                      Value index) {
  return LLVM::GEPOp::create(b, loc, ptr.getType(), elemType, ptr,
                             ArrayRef<LLVM::GEPArg>{index});
}

void mlir::tile::emitBarrier(OpBuilder &b, Location loc) {
  // In a warp-specialized kernel the ops that synchronize are the
  // program's warps' (the producer warpgroup runs only its region): they
  // take named barrier 1 over those warps' threads; barrier 0 would wait
  // for the producer.
  Operation *parent = b.getInsertionBlock()->getParentOp();
  auto func = isa<func::FuncOp>(parent)
                  ? cast<func::FuncOp>(parent)
                  : parent->getParentOfType<func::FuncOp>();
  if (func && getWarpSpecialize(func)) {
    emitNamedBarrier(b, loc, i32Constant(b, loc, 1), 32 * getNumWarps(func));
    return;
  }
  NVVM::Barrier0Op::create(b, loc);
}

void mlir::tile::emitNamedBarrier(OpBuilder &b, Location loc, Value id,
                                  int64_t threads) {
  NVVM::BarrierOp::create(b, loc, TypeRange(), id, i32Constant(b, loc, threads),
                          /*reductionOp=*/NVVM::BarrierReductionAttr(),
                          /*reductionPredicate=*/Value());
}

WarpSpecializeOp mlir::tile::getWarpSpecialize(func::FuncOp kernel) {
  for (Operation &op : kernel.getBody().front())
    if (auto split = dyn_cast<WarpSpecializeOp>(op))
      return split;
  return {};
}

SmallVector<Value> mlir::tile::emitInlineAsm(OpBuilder &b, Location loc,
                                             TypeRange resultTypes,
                                             ValueRange operands,
                                             StringRef text,
                                             StringRef constraints,
                                             bool hasSideEffects) {
  TypeRange asmResults = resultTypes;
  Type packed;
  if (resultTypes.size() > 1) {
    packed = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                              SmallVector<Type>(resultTypes));
    asmResults = packed;
  }
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, asmResults, operands, text, constraints, hasSideEffects,
      /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr(), ArrayAttr());
  if (!packed)
    return SmallVector<Value>(asmOp->getResults());
  SmallVector<Value> out;
  for (int64_t i = 0, e = resultTypes.size(); i < e; ++i)
    out.push_back(LLVM::ExtractValueOp::create(b, loc, asmOp.getResult(0), i));
  return out;
}

void mlir::tile::emitAsmStatement(OpBuilder &b, Location loc,
                                  ValueRange operands, StringRef text,
                                  StringRef constraints) {
  emitInlineAsm(b, loc, TypeRange(), operands, text, constraints,
                /*hasSideEffects=*/true);
}

Value mlir::tile::byteOffset(OpBuilder &b, Location loc, Value ptr,
                             Value bytes) {
  return gep(b, loc, b.getI8Type(), ptr, bytes);
}

void mlir::tile::setNoUnroll(scf::ForOp loop) {
  MLIRContext *ctx = loop.getContext();
  auto unroll = LLVM::LoopUnrollAttr::get(
      ctx, /*disable=*/BoolAttr::get(ctx, true), /*count=*/{},
      /*runtimeDisable=*/{}, /*full=*/{}, /*followupUnrolled=*/{},
      /*followupRemainder=*/{}, /*followupAll=*/{});
  loop->setAttr(kLoopAnnotationAttrName,
                LLVM::LoopAnnotationAttr::get(ctx, {}, {}, {}, unroll, {}, {},
                                              {}, {}, {}, {}, {}, {}, {}, {},
                                              {}));
}

Value mlir::tile::toSharedPointer(OpBuilder &b, Location loc, Value address) {
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 3), address);
}

Value mlir::tile::toOwnClusterPointer(OpBuilder &b, Location loc,
                                      Value sharedPtr) {
  Value bits = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), sharedPtr);
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 7), bits);
}

Value mlir::tile::emitThreadIndex(OpBuilder &b, Location loc,
                                  const ThreadIds &ids) {
  return arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, ids.warp, i32Constant(b, loc, 32)),
      ids.lane);
}

int64_t SharedLayout::getStageBytes() const {
  if (!isSwizzled())
    return type.getStageBytes();
  RankedTensorType block = type.getBlockType();
  return llvm::alignTo(block.getNumElements() * type.getElementBytes(), 1024);
}

int64_t SharedLayout::getChunkBytes() const {
  return type.getBlockType().getDimSize(transposed ? 1 : 0) * swizzleBytes;
}

Value SharedLayout::emitOffset(OpBuilder &b, Location loc, Value row,
                               Value col) const {
  auto c = [&](int64_t v) { return i32Constant(b, loc, v); };
  auto mul = [&](Value x, int64_t v) -> Value {
    return arith::MulIOp::create(b, loc, x, c(v));
  };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(b, loc, x, y);
  };
  auto div = [&](Value x, int64_t v) -> Value {
    return arith::DivUIOp::create(b, loc, x, c(v));
  };
  auto rem = [&](Value x, int64_t v) -> Value {
    return arith::RemUIOp::create(b, loc, x, c(v));
  };
  int64_t bytes = type.getElementBytes();
  if (!isSwizzled())
    return mul(add(mul(row, type.getRowStride()), col), bytes);
  if (transposed) {
    // Row n, column pi(k) = (k & ~7) | (k & 1) << 2 | (k & 7) >> 1.
    Value k = row;
    row = col;
    auto andC = [&](Value x, int64_t v) -> Value {
      return arith::AndIOp::create(b, loc, x, c(v));
    };
    col = arith::OrIOp::create(
        b, loc,
        arith::OrIOp::create(b, loc, andC(k, ~int64_t(7)), mul(andC(k, 1), 4)),
        div(andC(k, 7), 2));
  } else if (mmaRowWarps) {
    // Tile group p = 8-row group of `row`: warp w = p % W, repetition
    // rep = p / W = 2j + h; it goes to slice (w / 4) * R + j, at group
    // 2 (w % 4) + h within the slice.
    int64_t w = mmaRowWarps;
    int64_t slicesPerWarpgroup = type.getBlockType().getDimSize(0) / (16 * w);
    Value group = div(row, 8);
    Value warp = rem(group, w), rep = div(group, w);
    Value slice = add(mul(div(warp, 4), slicesPerWarpgroup), div(rep, 2));
    Value slot = add(add(mul(slice, 8), mul(rem(warp, 4), 2)), rem(rep, 2));
    row = add(mul(slot, 8), rem(row, 8));
  }
  Value colBytes = mul(col, bytes);
  Value chunk = div(colBytes, swizzleBytes);
  Value within = rem(colBytes, swizzleBytes);
  // The phase: bits 7.. of the address within the 1024-byte pattern, i.e.
  // row % 8 over (128 / swizzleBytes) rows per 128 bytes.
  Value phase = div(rem(row, 8), 128 / swizzleBytes);
  Value piece = arith::XOrIOp::create(b, loc, div(within, 16), phase);
  Value offset = add(mul(chunk, getChunkBytes()), mul(row, swizzleBytes));
  return add(add(offset, mul(piece, 16)), rem(within, 16));
}

SharedLayout mlir::tile::getSharedLayout(Value buffer) {
  SharedLayout layout;
  layout.type = cast<SharedBufferType>(buffer.getType());
  if (auto alloc = buffer.getDefiningOp<AllocSharedOp>()) {
    MLIRContext *ctx = alloc.getContext();
    if (IntegerAttr s = TileDialect::SwizzleBytesAttrHelper(ctx).getAttr(alloc))
      layout.swizzleBytes = s.getInt();
    if (IntegerAttr w = TileDialect::MmaRowWarpsAttrHelper(ctx).getAttr(alloc))
      layout.mmaRowWarps = w.getInt();
    layout.transposed = TileDialect::KMajorAttrHelper(ctx).isAttrPresent(alloc);
    layout.splitTF32 =
        TileDialect::SplitTf32AttrHelper(ctx).isAttrPresent(alloc);
  }
  return layout;
}

Value mlir::tile::emitStageBase(OpBuilder &b, Location loc,
                                const SharedLayout &layout, Value buffer,
                                Value stage) {
  Value bytes = arith::MulIOp::create(
      b, loc, stage, i32Constant(b, loc, layout.getStageBytes()));
  return gep(b, loc, b.getI8Type(), buffer, bytes);
}

/// shfl.sync over the full warp of a 32-bit-or-narrower value (narrower
/// ones travel widened to 32 bits).
static Value shuffle(OpBuilder &b, Location loc, Value v, NVVM::ShflKind kind,
                     unsigned offset, unsigned clamp) {
  Type type = v.getType();
  Type i32 = b.getI32Type();
  Value word = v;
  if (type.isF32() || type.isInteger(32)) {
    // shfl.sync takes i32 or f32 directly.
  } else if (type.isF16() || type.isBF16()) {
    word = arith::ExtFOp::create(b, loc, b.getF32Type(), v);
  } else if (auto it = dyn_cast<IntegerType>(type); it && it.getWidth() < 32) {
    word = arith::ExtSIOp::create(b, loc, i32, v);
  }
  Value shuffled =
      NVVM::ShflOp::create(b, loc, word.getType(), i32Constant(b, loc, -1),
                           word, i32Constant(b, loc, offset),
                           i32Constant(b, loc, clamp), kind, UnitAttr());
  if (shuffled.getType() == type)
    return shuffled;
  if (isa<FloatType>(type))
    return arith::TruncFOp::create(b, loc, type, shuffled);
  return arith::TruncIOp::create(b, loc, type, shuffled);
}

Value mlir::tile::shuffleXor(OpBuilder &b, Location loc, Value v,
                             unsigned mask) {
  return shuffle(b, loc, v, NVVM::ShflKind::bfly, mask, 0x1f);
}

Value mlir::tile::shuffleUp(OpBuilder &b, Location loc, Value v,
                            unsigned delta) {
  // Clamp 0: lanes below `delta` read their own value.
  return shuffle(b, loc, v, NVVM::ShflKind::up, delta, 0);
}

Type mlir::tile::getCombineType(Type elem, ReduceKind kind) {
  if (kind == ReduceKind::Custom)
    return elem;
  if (elem.isF16() || elem.isBF16())
    return Float32Type::get(elem.getContext());
  if (auto it = dyn_cast<IntegerType>(elem); it && it.getWidth() < 32)
    return IntegerType::get(elem.getContext(), 32);
  return elem;
}

Value mlir::tile::widenToCombineType(OpBuilder &b, Location loc, Value v,
                                     Type elem, Type acc) {
  if (v.getType() == acc)
    return v;
  if (isa<FloatType>(acc))
    return arith::ExtFOp::create(b, loc, acc, v);
  // i1 holds 0 or 1 (as in the interpreter): max is "any", min "all".
  if (elem.isInteger(1))
    return arith::ExtUIOp::create(b, loc, acc, v);
  return arith::ExtSIOp::create(b, loc, acc, v);
}

Value mlir::tile::narrowFromCombineType(OpBuilder &b, Location loc, Value v,
                                        Type elem) {
  if (v.getType() == elem)
    return v;
  if (isa<FloatType>(elem))
    return arith::TruncFOp::create(b, loc, elem, v);
  return arith::TruncIOp::create(b, loc, elem, v);
}

Value mlir::tile::emitCombiner(OpBuilder &b, Region &combiner, Value x,
                               Value y) {
  Block &block = combiner.front();
  IRMapping mapping;
  mapping.map(block.getArgument(0), x);
  mapping.map(block.getArgument(1), y);
  for (Operation &op : block.without_terminator())
    b.clone(op, mapping);
  return mapping.lookup(block.getTerminator()->getOperand(0));
}

Value mlir::tile::roundToTF32Bits(OpBuilder &b, Location loc, Value f,
                                  bool tiesToEven) {
  if (f.getType().isInteger(32))
    f = arith::BitcastOp::create(b, loc, b.getF32Type(), f);
  // Inline PTX: ConvertFloatToTF32Op lets LLVM merge the stores around it
  // (st.shared.v2), so the PTX would differ.
  return emitInlineAsm(b, loc, b.getI32Type(), f,
                       tiesToEven ? "cvt.rn.tf32.f32 $0, $1;"
                                  : "cvt.rna.tf32.f32 $0, $1;",
                       "=r,f", /*hasSideEffects=*/false)[0];
}

Type mlir::tile::getStorageType(Type elemType) {
  if (elemType.isInteger(1))
    return IntegerType::get(elemType.getContext(), 8);
  if (isa<PointerType>(elemType))
    return LLVM::LLVMPointerType::get(elemType.getContext(), 1);
  return elemType;
}

Value mlir::tile::toStorage(OpBuilder &b, Location loc, Value v) {
  if (v.getType().isInteger(1))
    return arith::ExtUIOp::create(b, loc, b.getI8Type(), v);
  return v;
}

Value mlir::tile::fromStorage(OpBuilder &b, Location loc, Value v,
                              Type elemType) {
  if (elemType.isInteger(1))
    return arith::TruncIOp::create(b, loc, b.getI1Type(), v);
  return v;
}

static int64_t storageBytes(Type elemType) {
  if (isa<PointerType>(elemType))
    return 8;
  return std::max<int64_t>(1, elemType.getIntOrFloatBitWidth() / 8);
}

int64_t mlir::tile::getConversionRowPad(RankedTensorType type) {
  int64_t bytes = storageBytes(type.getElementType());
  if (type.getRank() < 2 || type.getShape().back() < 2 || 16 % bytes)
    return 0;
  return 16 / bytes;
}

int64_t mlir::tile::getSharedMemoryBytes(Operation *op) {
  if (auto trans = dyn_cast<TransOp>(op); trans && isTransReadByDot(trans))
    return 0;
  if (isa<ConvertLayoutOp, TransOp, ReshapeOp>(op)) {
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    int64_t elements = type.getNumElements();
    if (isa<ConvertLayoutOp>(op))
      elements += elements / type.getShape().back() * getConversionRowPad(type);
    return elements * storageBytes(type.getElementType());
  }
  // tile.atomic_add hands thread 0's result to the others in one word.
  if (isa<AtomicAddOp>(op))
    return 4;
  if (auto scan = dyn_cast<ScanOp>(op))
    return getScanSharedBytes(scan);
  if (isa<AtomicRMWOp, AtomicCASOp>(op))
    return getAtomicSharedBytes(op);
  if (auto reduce = dyn_cast<ReduceOp>(op)) {
    auto type = reduce.getSrc().getType();
    if (!type.getEncoding())
      return 0;
    LayoutView view(type);
    unsigned rd = view.getRootDim(reduce.getAxis());
    int64_t warps = view.getDistinctWarps(rd);
    if (warps <= 1)
      return 0;
    int64_t others = type.getNumElements() / type.getDimSize(reduce.getAxis());
    // Partials are 32-bit (wider is rejected); argmax/argmin add a position.
    bool isArg = reduce.getKind() == ReduceKind::ArgMax ||
                 reduce.getKind() == ReduceKind::ArgMin;
    return warps * others * (isArg ? 8 : 4);
  }
  if (auto dot = dyn_cast<DotOp>(op)) {
    auto a = dot.getA().getType(), bt = dot.getB().getType();
    if (TileDialect::WgmmaAttrHelper(dot.getContext()).isAttrPresent(dot) ||
        dotReadsBFromBuffer(dot))
      return 0;
    if (int64_t bytes = getFmaLayoutDotSharedBytes(dot); bytes >= 0)
      return bytes;
    if (isMmaLayout(dot.getType().getEncoding())) {
      // a as [M][K + pad], b transposed as [N][K + pad], in the operand type
      // (see DotOpToLLVM.cpp).
      int64_t bytes = a.getElementType().getIntOrFloatBitWidth() / 8;
      int64_t pad = 16 / bytes;
      int64_t k = a.getDimSize(1), n = bt.getDimSize(1);
      // b is staged transposed ([N][K + pad]) or, for tf32 with `a` in
      // registers, row-major ([K][N + pad]): room for either.
      int64_t bElems = std::max(n * (k + pad), k * (n + pad));
      return (a.getDimSize(0) * (k + pad) + bElems) * bytes;
    }
    return (a.getNumElements() + bt.getNumElements()) * 4; // staged as f32
  }
  return 0;
}

SmallVector<Value> mlir::tile::exchangeThroughSharedMemory(
    OpBuilder &b, Location loc, RankedTensorType srcType, ValueRange values,
    RankedTensorType dstType,
    function_ref<Value(OpBuilder &, Location, ArrayRef<Value>)> srcToDstLinear,
    int64_t rowPad) {
  Type elemType = srcType.getElementType();
  Type storage = getStorageType(elemType);
  Value smem = getSharedMemory(b, loc);
  // Earlier users of shared memory may still be reading.
  emitBarrier(b, loc);
  auto srcIndices = emitSlotIndices(b, loc, srcType);
  for (auto [slot, index] : llvm::enumerate(srcIndices)) {
    Value linear = srcToDstLinear(b, loc, index);
    Value ptr = gep(b, loc, storage, smem, linear);
    LLVM::StoreOp::create(b, loc, toStorage(b, loc, values[slot]), ptr);
  }
  emitBarrier(b, loc);
  SmallVector<Value> result;
  for (auto index : emitSlotIndices(b, loc, dstType)) {
    Value linear = emitLinearIndex(b, loc, index, dstType.getShape(), rowPad);
    Value ptr = gep(b, loc, storage, smem, linear);
    Value v = LLVM::LoadOp::create(b, loc, storage, ptr);
    result.push_back(fromStorage(b, loc, v, elemType));
  }
  return result;
}
