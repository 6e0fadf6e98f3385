//===- TileOps.cpp - Tile dialect operations ------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"

static LogicalResult verifyAxis(Operation *op, int64_t axis, int64_t rank,
                                StringRef what = "axis") {
  if (axis < 0 || axis >= rank)
    return op->emitOpError() << what << " " << axis
                             << " is out of range for rank " << rank;
  return success();
}

/// Whether `v` is defined by a constant whose every element is `value`.
static bool isConstantBool(Value v, bool value) {
  if (!v)
    return false;
  if (value ? matchPattern(v, m_One()) : matchPattern(v, m_Zero()))
    return true;
  DenseIntElementsAttr dense;
  if (matchPattern(v, m_Constant(&dense)) && dense.isSplat())
    return dense.getSplatValue<bool>() == value;
  return false;
}

//===----------------------------------------------------------------------===//
// Program indexing
//===----------------------------------------------------------------------===//

LogicalResult ProgramIdOp::verify() {
  return verifyAxis(*this, getAxis(), 3, "grid axis");
}

LogicalResult NumProgramsOp::verify() {
  return verifyAxis(*this, getAxis(), 3, "grid axis");
}

LogicalResult RangeOp::verify() {
  // The accessors return the attributes as unsigned; the range is signed.
  int64_t start = (int32_t)getStart(), end = (int32_t)getEnd();
  auto type = getType();
  if (type.getRank() != 1)
    return emitOpError() << "result must be a 1-d tile, got " << type;
  if (end <= start)
    return emitOpError() << "end (" << end << ") must be greater than start ("
                         << start << ")";
  if (!llvm::isPowerOf2_64(end - start))
    return emitOpError() << "length end - start = " << (end - start)
                         << " must be a power of two";
  if (type.getDimSize(0) != end - start)
    return emitOpError() << "result has " << type.getDimSize(0)
                         << " elements but the range holds " << (end - start);
  return success();
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  auto type = getType();
  if (isa<PointerType>(type.getElementType()))
    return {};
  if (auto attr = dyn_cast_or_null<TypedAttr>(adaptor.getSrc()))
    if (isa<IntegerAttr, FloatAttr>(attr))
      return SplatElementsAttr::get(type, attr);
  return {};
}

LogicalResult BroadcastOp::verify() {
  auto src = getSrc().getType(), dst = getType();
  if (src.getRank() != dst.getRank())
    return emitOpError() << "source rank " << src.getRank()
                         << " differs from result rank " << dst.getRank()
                         << "; use tile.expand_dims first";
  for (int64_t i = 0; i < src.getRank(); ++i)
    if (src.getDimSize(i) != 1 && src.getDimSize(i) != dst.getDimSize(i))
      return emitOpError() << "dimension " << i << " of size "
                           << src.getDimSize(i) << " cannot broadcast to "
                           << dst.getDimSize(i)
                           << " (only size-1 dimensions broadcast)";
  return success();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return SplatElementsAttr::get(getType(),
                                  splat.getSplatValue<Attribute>());
  return {};
}

namespace {
/// broadcast(splat(x)) -> splat(x); broadcast(broadcast(x)) -> broadcast(x).
struct BroadcastOfSplatOrBroadcast : OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    if (auto splat = op.getSrc().getDefiningOp<SplatOp>()) {
      rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
      return success();
    }
    if (auto inner = op.getSrc().getDefiningOp<BroadcastOp>()) {
      rewriter.replaceOpWithNewOp<BroadcastOp>(op, op.getType(),
                                               inner.getSrc());
      return success();
    }
    return failure();
  }
};

/// expand_dims(splat(x)) -> splat(x).
struct ExpandDimsOfSplat : OpRewritePattern<ExpandDimsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ExpandDimsOp op,
                                PatternRewriter &rewriter) const override {
    auto splat = op.getSrc().getDefiningOp<SplatOp>();
    if (!splat)
      return failure();
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
    return success();
  }
};
} // namespace

void BroadcastOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<BroadcastOfSplatOrBroadcast>(context);
}

LogicalResult ExpandDimsOp::verify() {
  auto src = getSrc().getType(), dst = getType();
  int64_t axis = getAxis();
  if (failed(verifyAxis(*this, axis, src.getRank() + 1)))
    return failure();
  SmallVector<int64_t> expected(src.getShape());
  expected.insert(expected.begin() + axis, 1);
  if (dst.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "result type " << dst << " must be " << src
                         << " with a size-1 dimension inserted at axis "
                         << axis;
  return success();
}

void ExpandDimsOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                               MLIRContext *context) {
  results.add<ExpandDimsOfSplat>(context);
}

LogicalResult ReshapeOp::verify() {
  if (getSrc().getType().getNumElements() != getType().getNumElements())
    return emitOpError() << "source has " << getSrc().getType().getNumElements()
                         << " elements but result has "
                         << getType().getNumElements();
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto inner = getSrc().getDefiningOp<ReshapeOp>()) {
    getSrcMutable().assign(inner.getSrc());
    return getResult();
  }
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  return {};
}

LogicalResult OptimizationBarrierOp::verify() {
  Type elem = getType().getElementType();
  if (!elem.isIntOrFloat() ||
      !llvm::is_contained({16u, 32u, 64u}, elem.getIntOrFloatBitWidth()))
    return emitOpError() << "element type " << elem
                         << " is not an integer or float of 16, 32 or 64 "
                            "bits";
  return success();
}

LogicalResult TF32PartsOp::verify() {
  if (!getSrc().getType().getElementType().isF32())
    return emitOpError() << "splits f32 elements, not "
                         << getSrc().getType().getElementType();
  return success();
}

LogicalResult TransOp::verify() {
  auto src = getSrc().getType(), dst = getType();
  ArrayRef<int32_t> order = getOrder();
  if ((int64_t)order.size() != src.getRank())
    return emitOpError() << "order has " << order.size()
                         << " entries for a tile of rank " << src.getRank();
  SmallVector<bool> seen(order.size(), false);
  for (int32_t d : order) {
    if (d < 0 || d >= (int64_t)order.size() || seen[d])
      return emitOpError() << "order must be a permutation of 0.."
                           << order.size() - 1;
    seen[d] = true;
  }
  for (auto [i, d] : llvm::enumerate(order))
    if (dst.getDimSize(i) != src.getDimSize(d))
      return emitOpError() << "result dimension " << i << " is "
                           << dst.getDimSize(i) << " but source dimension "
                           << d << " is " << src.getDimSize(d);
  return success();
}

OpFoldResult TransOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int32_t> order = getOrder();
  bool identity = llvm::all_of(llvm::enumerate(order), [](auto it) {
    return (int64_t)it.index() == it.value();
  });
  if (identity)
    return getSrc();
  // trans(trans(x, p), q) == x when q undoes p.
  if (auto inner = getSrc().getDefiningOp<TransOp>()) {
    ArrayRef<int32_t> innerOrder = inner.getOrder();
    bool inverse = true;
    for (auto [i, d] : llvm::enumerate(order))
      inverse &= innerOrder[d] == (int32_t)i;
    if (inverse && inner.getSrc().getType() == getType())
      return inner.getSrc();
  }
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  return {};
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

LogicalResult AddPtrOp::verify() {
  Type ptr = getPtr().getType(), off = getOffset().getType();
  auto ptrTensor = dyn_cast<RankedTensorType>(ptr);
  auto offTensor = dyn_cast<RankedTensorType>(off);
  if (!ptrTensor && offTensor)
    return emitOpError() << "a scalar pointer takes a scalar offset, got "
                         << off;
  if (ptrTensor && offTensor &&
      ptrTensor.getShape() != offTensor.getShape())
    return emitOpError() << "offset shape " << off
                         << " differs from pointer shape " << ptr;
  if (ptrTensor && !offTensor)
    return emitOpError() << "a tile of pointers takes a tile of offsets of "
                            "the same shape; splat "
                         << off << " first";
  return success();
}

OpFoldResult AddPtrOp::fold(FoldAdaptor adaptor) {
  if (matchPattern(getOffset(), m_Zero()))
    return getPtr();
  if (auto dense = dyn_cast_or_null<DenseIntElementsAttr>(adaptor.getOffset()))
    if (dense.isSplat() && dense.getSplatValue<APInt>().isZero())
      return getPtr();
  return {};
}

LogicalResult LoadOp::verify() {
  if (getOther() && !getMask())
    return emitOpError() << "`other` requires a mask";
  return success();
}

namespace {
/// load with an all-true mask -> unmasked load; with an all-false mask ->
/// the `other` value (zero when absent), no memory access.
struct SimplifyConstantLoadMask : OpRewritePattern<LoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LoadOp op,
                                PatternRewriter &rewriter) const override {
    Value mask = op.getMask();
    if (!mask)
      return failure();
    if (isConstantBool(mask, true)) {
      rewriter.replaceOpWithNewOp<LoadOp>(op, op.getType(), op.getPtr(),
                                          Value(), Value());
      return success();
    }
    if (!isConstantBool(mask, false))
      return failure();
    if (Value other = op.getOther()) {
      rewriter.replaceOp(op, other);
      return success();
    }
    Type type = op.getType();
    Type elem = getElementTypeOrSelf(type);
    TypedAttr zero = rewriter.getZeroAttr(elem);
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      zero = SplatElementsAttr::get(tensor, zero);
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, zero);
    return success();
  }
};

/// store with an all-true mask -> unmasked; with an all-false mask -> erased.
struct SimplifyConstantStoreMask : OpRewritePattern<StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StoreOp op,
                                PatternRewriter &rewriter) const override {
    Value mask = op.getMask();
    if (!mask)
      return failure();
    if (isConstantBool(mask, true)) {
      rewriter.modifyOpInPlace(op, [&] { op.getMaskMutable().clear(); });
      return success();
    }
    if (isConstantBool(mask, false)) {
      rewriter.eraseOp(op);
      return success();
    }
    return failure();
  }
};
} // namespace

void LoadOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                         MLIRContext *context) {
  results.add<SimplifyConstantLoadMask>(context);
}

void StoreOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<SimplifyConstantStoreMask>(context);
}

LogicalResult MakeBlockPtrOp::verify() {
  int64_t rank = cast<BlockPointerType>(getType()).getBlockType().getRank();
  if ((int64_t)getShape().size() != rank)
    return emitOpError() << "shape has " << getShape().size()
                         << " entries for a block of rank " << rank;
  if ((int64_t)getStrides().size() != rank)
    return emitOpError() << "strides has " << getStrides().size()
                         << " entries for a block of rank " << rank;
  if ((int64_t)getOffsets().size() != rank)
    return emitOpError() << "offsets has " << getOffsets().size()
                         << " entries for a block of rank " << rank;
  ArrayRef<int32_t> order = getOrder();
  if ((int64_t)order.size() != rank)
    return emitOpError() << "order has " << order.size()
                         << " entries for a block of rank " << rank;
  SmallVector<bool> seen(rank, false);
  for (int32_t d : order) {
    if (d < 0 || d >= rank || seen[d])
      return emitOpError() << "order must be a permutation of 0.."
                           << rank - 1;
    seen[d] = true;
  }
  return success();
}

LogicalResult AdvanceOp::verify() {
  int64_t rank = cast<BlockPointerType>(getType()).getBlockType().getRank();
  if ((int64_t)getOffsets().size() != rank)
    return emitOpError() << "has " << getOffsets().size()
                         << " offsets for a block of rank " << rank;
  return success();
}

OpFoldResult AdvanceOp::fold(FoldAdaptor adaptor) {
  if (llvm::all_of(getOffsets(),
                   [](Value v) { return matchPattern(v, m_Zero()); }))
    return getPtr();
  return {};
}

static LogicalResult verifyBoundaryCheck(Operation *op, ArrayRef<int32_t> dims,
                                         int64_t rank) {
  SmallVector<bool> seen(rank, false);
  for (int32_t d : dims) {
    if (d < 0 || d >= rank)
      return op->emitOpError() << "boundary-check dimension " << d
                               << " is out of range for rank " << rank;
    if (seen[d])
      return op->emitOpError() << "boundary-check dimension " << d
                               << " is listed twice";
    seen[d] = true;
  }
  return success();
}

LogicalResult BlockLoadOp::verify() {
  if (getPadding() != PaddingKind::Zero &&
      !isa<FloatType>(getType().getElementType()))
    return emitOpError() << "padding '" << stringifyPaddingKind(getPadding())
                         << "' needs a floating-point block, got "
                         << getType().getElementType();
  return verifyBoundaryCheck(*this, getCheck(),
                             cast<BlockPointerType>(getPtr().getType()).getBlockType().getRank());
}

/// Same shape and element type (layouts may differ: a buffer has none).
static bool sameBlock(RankedTensorType a, RankedTensorType b) {
  return a.getShape() == b.getShape() &&
         a.getElementType() == b.getElementType();
}

LogicalResult AsyncCopyOp::verify() {
  auto ptr = cast<BlockPointerType>(getPtr().getType());
  auto buffer = cast<SharedBufferType>(getBuffer().getType());
  if (!sameBlock(ptr.getBlockType(), buffer.getBlockType()))
    return emitOpError("copies a block of type ")
           << ptr.getBlockType() << " into a buffer of blocks of type "
           << buffer.getBlockType();
  return success();
}

/// The tile.cluster_size of the kernel around a cluster op, or an error.
static FailureOr<int64_t> getClusterSize(Operation *op) {
  auto func = op->getParentOfType<func::FuncOp>();
  auto size = func ? func->getAttrOfType<IntegerAttr>(
                         TileDialect::getClusterSizeAttrName())
                   : IntegerAttr();
  if (!size)
    return op->emitOpError()
           << "needs a kernel with '" << TileDialect::getClusterSizeAttrName()
           << "' (the programs it combines over)";
  return size.getInt();
}

/// The 2-d block a TMA op moves through `ptr`: a block of rank 3 to 5 is 1
/// along its leading dimensions (a buffer holds the last two). Null after
/// an error.
static RankedTensorType getTmaBlock(Operation *op, BlockPointerType ptr) {
  RankedTensorType block = ptr.getBlockType();
  int64_t rank = block.getRank();
  if (rank > 5) {
    op->emitOpError("copies blocks of rank 2 to 5, got ") << block;
    return nullptr;
  }
  if (rank > 2) {
    if (llvm::any_of(block.getShape().drop_back(2),
                     [](int64_t d) { return d != 1; })) {
      op->emitOpError("copies a block of type ")
          << block << ", which is not 1 along its leading dimensions";
      return nullptr;
    }
    block = RankedTensorType::get(block.getShape().take_back(2),
                                  block.getElementType());
  }
  Type elem = block.getElementType();
  if (!elem.isF16() && !elem.isBF16() && !elem.isF32()) {
    op->emitOpError("copies f16, bf16 or f32 blocks only, got ") << elem;
    return nullptr;
  }
  return block;
}

LogicalResult TmaPrefetchOp::verify() {
  return success(
      (bool)getTmaBlock(*this, cast<BlockPointerType>(getPtr().getType())));
}

LogicalResult TmaCopyOp::verify() {
  auto ptr = cast<BlockPointerType>(getPtr().getType());
  auto buffer = cast<SharedBufferType>(getBuffer().getType());
  auto barriers = cast<MBarriersType>(getBarriers().getType());
  if (ptr.getBlockType().getRank() > 2 && getBatch())
    return emitOpError("takes no `batch` with a block pointer of rank ")
           << ptr.getBlockType().getRank()
           << ": the pointer's leading offsets place the block";
  RankedTensorType block = getTmaBlock(*this, ptr);
  if (!block)
    return failure();
  if (!sameBlock(block, buffer.getBlockType()))
    return emitOpError("copies a block of type ")
           << ptr.getBlockType() << " into a buffer of blocks of type "
           << buffer.getBlockType();
  if (barriers.getCount() != buffer.getStages())
    return emitOpError("needs one barrier per stage: ")
           << buffer.getStages() << " stages, " << barriers.getCount()
           << " barriers";
  if (std::optional<uint32_t> parts = getMulticast()) {
    FailureOr<int64_t> size = getClusterSize(*this);
    if (failed(size))
      return failure();
    if (*size != *parts)
      return emitOpError("multicasts to ")
             << *parts << " programs, but the kernel's clusters have " << *size;
    if (block.getDimSize(0) % *parts)
      return emitOpError("splits a block of ")
             << block.getDimSize(0) << " rows into " << *parts
             << " parts, which does not divide it";
  }
  return success();
}

LogicalResult TmaStoreOp::verify() {
  auto ptr = cast<BlockPointerType>(getPtr().getType());
  auto buffer = cast<SharedBufferType>(getBuffer().getType());
  RankedTensorType block = getTmaBlock(*this, ptr);
  if (!block)
    return failure();
  if (!sameBlock(block, buffer.getBlockType()))
    return emitOpError("copies a buffer of blocks of type ")
           << buffer.getBlockType() << " to a block of type "
           << ptr.getBlockType();
  return success();
}

LogicalResult MBarrierArriveOp::verify() {
  if (!getCluster())
    return success();
  FailureOr<int64_t> size = getClusterSize(*this);
  if (failed(size))
    return failure();
  if (*size > 32)
    return emitOpError("arrives from one lane per program of a warp: a "
                       "cluster has at most 32 programs, not ")
           << *size;
  return success();
}

/// Turns are taken by the two warpgroups of a warp-specialized kernel of
/// 8 warps (one with a tile.warp_specialize, or a loop tile-warp-specialize
/// will split off), outside its producer region.
static LogicalResult verifyTurn(Operation *op) {
  auto func = op->getParentOfType<func::FuncOp>();
  bool specialized = false;
  if (func)
    func.walk([&](Operation *inner) {
      specialized |= isa<WarpSpecializeOp>(inner) ||
                     inner->hasAttr(TileDialect::getWarpSpecializeAttrName());
    });
  int64_t warps = func ? getNumWarps(func) : 0;
  if (!specialized || (warps != 8 && warps != 16))
    return op->emitOpError("takes turns between the warpgroups of a pair "
                           "in a warp-specialized kernel of 8 or 16 warps");
  if (op->getParentOfType<WarpSpecializeOp>())
    return op->emitOpError("is in a producer region");
  return success();
}

LogicalResult WaitTurnOp::verify() { return verifyTurn(*this); }
LogicalResult PassTurnOp::verify() { return verifyTurn(*this); }

LogicalResult WarpSpecializeOp::verify() {
  auto func = dyn_cast<func::FuncOp>((*this)->getParentOp());
  if (!func || !func->hasAttr(TileDialect::getKernelAttrName()))
    return emitOpError("must be directly in a kernel's body");
  int64_t warps = getNumWarps(func);
  if (warps % 4)
    return emitOpError("needs whole warpgroups: the kernel has ")
           << warps << " warps";
  for (int32_t r : {getProducerRegisters(), getConsumerRegisters()})
    if (r % 8)
      return emitOpError("register counts must be multiples of 8, got ") << r;
  // setmaxnreg moves registers within the program's own pool, what its
  // launch allocates: ptxas' per-thread bound for its threads and
  // tile.min_programs_per_sm programs per SM (64K registers among them,
  // at most 255 a thread, in multiples of 8) times its threads. The warps
  // at their counts must fit in it, or an increase waits forever.
  int64_t programs = 1;
  if (auto attr = func->getAttrOfType<IntegerAttr>(
          TileDialect::getMinProgramsPerSMAttrName()))
    programs = std::max<int64_t>(1, attr.getInt());
  int64_t threads = 32 * (kProducerWarps + warps);
  int64_t perThread = getLaunchRegistersPerThread(threads, programs);
  int64_t registers = 32 * (kProducerWarps * getProducerRegisters() +
                            warps * getConsumerRegisters());
  if (registers > perThread * threads)
    return emitOpError("needs ")
           << registers << " registers at these counts (" << kProducerWarps
           << " producer warps, " << warps
           << " others); the program launches with " << perThread * threads
           << " (" << perThread << " per thread, " << programs
           << (programs == 1 ? " program" : " programs") << " per SM)";
  // Every warp runs the ops before this one; the producer's have no
  // place in the tiles' layouts (constants, which the canonicalizer
  // gathers at the kernel's start, only fill registers).
  auto isTile = [](Type t) { return isa<RankedTensorType>(t); };
  for (Operation *op = (*this)->getPrevNode(); op; op = op->getPrevNode())
    if (!op->hasTrait<OpTrait::ConstantLike>() &&
        llvm::any_of(op->getResultTypes(), isTile))
      return op->emitOpError("computes a tile before tile.warp_specialize, "
                             "which every warp (the producer's too) runs");
  WalkResult tiles = getProducer().walk([&](Operation *op) {
    if (llvm::any_of(op->getResultTypes(), isTile) ||
        llvm::any_of(op->getOperandTypes(), isTile)) {
      op->emitOpError("works on a tile in a producer region, which has no "
                      "layout for tiles");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (tiles.wasInterrupted())
    return failure();
  unsigned count = 0;
  func.walk([&](WarpSpecializeOp) { ++count; });
  if (count > 1)
    return emitOpError("appears ") << count
                                   << " times in the kernel; one "
                                      "producer warpgroup at most";
  return success();
}

LogicalResult LocalLoadOp::verify() {
  auto buffer = cast<SharedBufferType>(getBuffer().getType());
  if (!sameBlock(getType(), buffer.getBlockType()))
    return emitOpError("reads a tile of type ")
           << getType() << " from a buffer of blocks of type "
           << buffer.getBlockType();
  return success();
}

LogicalResult LocalStoreOp::verify() {
  auto buffer = cast<SharedBufferType>(getBuffer().getType());
  if (!sameBlock(getValue().getType(), buffer.getBlockType()))
    return emitOpError("writes a tile of type ")
           << getValue().getType() << " into a buffer of blocks of type "
           << buffer.getBlockType();
  return success();
}

LogicalResult BlockStoreOp::verify() {
  return verifyBoundaryCheck(*this, getCheck(),
                             cast<BlockPointerType>(getPtr().getType()).getBlockType().getRank());
}

//===----------------------------------------------------------------------===//
// Computation
//===----------------------------------------------------------------------===//

/// The combiner region of `tile.reduce custom` / `tile.scan custom`: one
/// block taking two `elem` arguments and yielding one, with arith and math
/// ops on scalars only (the GPU lowering inlines it at every combining
/// step, the interpreter runs it on scalars); the ops' IsolatedFromAbove
/// keeps values from outside out of it.
static LogicalResult verifyCombiner(Operation *op, ReduceKind kind,
                                    Region &region, Type elem) {
  if (kind != ReduceKind::Custom) {
    if (!region.empty())
      return op->emitOpError()
             << "has a combiner region, which only 'custom' takes; "
             << stringifyReduceKind(kind) << " combines by itself";
    return success();
  }
  if (region.empty()) {
    std::string type;
    llvm::raw_string_ostream(type) << elem;
    return op->emitOpError()
           << "'custom' needs a combiner region: { ^bb0(%a: " << type
           << ", %b: " << type << "): ... tile.yield %c : " << type << " }";
  }
  if (!region.hasOneBlock())
    return op->emitOpError("the combiner region must have one block");
  Block &block = region.front();
  if (block.getNumArguments() != 2 ||
      llvm::any_of(block.getArgumentTypes(), [&](Type t) { return t != elem; }))
    return op->emitOpError()
           << "the combiner takes two arguments of the "
              "element type "
           << elem << ", got (" << block.getArgumentTypes() << ")";
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield)
    return op->emitOpError("the combiner region must end with tile.yield");
  if (yield.getValues().size() != 1 || yield.getValues()[0].getType() != elem)
    return yield.emitOpError()
           << "must yield one value of the element type " << elem << ", got ("
           << yield.getValues().getTypes() << ")";
  for (Operation &inner : block.without_terminator()) {
    if (!isa<arith::ArithDialect, math::MathDialect>(inner.getDialect()))
      return inner.emitOpError()
             << "cannot be used in a combiner, which takes arith and math "
                "ops on scalars";
    for (Type t :
         llvm::concat<Type>(inner.getOperandTypes(), inner.getResultTypes()))
      if (isa<ShapedType>(t))
        return inner.emitOpError()
               << "in a combiner works on scalars, not " << t;
  }
  return success();
}

LogicalResult ReduceOp::verify() {
  auto src = getSrc().getType();
  int64_t axis = getAxis();
  if (failed(verifyAxis(*this, axis, src.getRank())))
    return failure();
  Type elem = src.getElementType();
  if (!isa<FloatType, IntegerType>(elem))
    return emitOpError() << "cannot reduce a tile of " << elem;
  if (failed(verifyCombiner(*this, getKind(), getCombiner(), elem)))
    return failure();
  bool isArg =
      getKind() == ReduceKind::ArgMax || getKind() == ReduceKind::ArgMin;
  // A position along the axis, whatever the elements are.
  Type resultElem = isArg ? IntegerType::get(getContext(), 32) : elem;
  Type expected = resultElem;
  if (src.getRank() > 1) {
    SmallVector<int64_t> shape(src.getShape());
    shape.erase(shape.begin() + axis);
    expected = RankedTensorType::get(shape, resultElem);
  }
  // Layout encodings may differ (the result's is a slice of the source's).
  Type actual = getType();
  auto actualTensor = dyn_cast<RankedTensorType>(actual);
  auto expectedTensor = dyn_cast<RankedTensorType>(expected);
  bool matches = actualTensor && expectedTensor
                     ? actualTensor.getShape() == expectedTensor.getShape() &&
                           actualTensor.getElementType() == resultElem
                     : actual == expected;
  if (!matches)
    return emitOpError() << "reducing " << src << " along axis " << axis
                         << " gives " << expected << ", not " << actual;
  return success();
}

LogicalResult ScanOp::verify() {
  auto src = getSrc().getType();
  if (failed(verifyAxis(*this, getAxis(), src.getRank())))
    return failure();
  Type elem = src.getElementType();
  if (!isa<FloatType, IntegerType>(elem))
    return emitOpError() << "cannot scan a tile of " << elem;
  ReduceKind kind = getKind();
  if (kind == ReduceKind::ArgMax || kind == ReduceKind::ArgMin)
    return emitOpError() << "combines with sum, prod, max, min or custom, not "
                         << stringifyReduceKind(kind);
  return verifyCombiner(*this, kind, getCombiner(), elem);
}

LogicalResult AssertOp::verify() {
  Type type = getCondition().getType();
  if (!getElementTypeOrSelf(type).isInteger(1))
    return emitOpError() << "takes an i1 condition or a tile of i1, not "
                         << type;
  return success();
}

LogicalResult ClusterReduceOp::verify() {
  ReduceKind kind = getKind();
  // (custom has no region here to combine with.)
  if (kind != ReduceKind::Max && kind != ReduceKind::Min &&
      kind != ReduceKind::Sum)
    return emitOpError() << "combines with max, min or sum, not "
                         << stringifyReduceKind(kind);
  return failure(failed(getClusterSize(*this)));
}

/// The pointer of a grid synchronization op must point to an i32.
static LogicalResult verifyCounterPointer(Operation *op, Type ptr) {
  Type pointee = cast<PointerType>(ptr).getPointeeType();
  if (!pointee.isInteger(32))
    return op->emitOpError("needs a pointer to i32, got ") << ptr;
  return success();
}

LogicalResult AtomicAddOp::verify() {
  return verifyCounterPointer(*this, getPtr().getType());
}

/// Whether `type` is one of `allowed` ("f32", "i64", ...), by its printed
/// name.
static bool isOneOf(Type type, ArrayRef<StringRef> allowed) {
  std::string name;
  llvm::raw_string_ostream(name) << type;
  return llvm::is_contained(allowed, name);
}

LogicalResult AtomicRMWOp::verify() {
  Type elem = getElementTypeOrSelf(getVal().getType());
  SmallVector<StringRef> allowed;
  switch (getKind()) {
  case AtomicKind::Add:
    allowed = {"f32", "f16", "bf16", "f64", "i32", "i64"};
    break;
  case AtomicKind::Max:
  case AtomicKind::Min:
    allowed = {"i32", "i64", "f32", "f64"};
    break;
  case AtomicKind::And:
  case AtomicKind::Or:
  case AtomicKind::Xor:
    allowed = {"i32", "i64"};
    break;
  case AtomicKind::Xchg:
    allowed = {"f32", "f64", "i32", "i64"};
    break;
  }
  if (!isOneOf(elem, allowed))
    return emitOpError() << "'" << stringifyAtomicKind(getKind())
                         << "' takes elements of type "
                         << llvm::join(allowed, ", ") << "; not " << elem;
  return success();
}

LogicalResult AtomicCASOp::verify() {
  Type elem = getElementTypeOrSelf(getVal().getType());
  if (!isOneOf(elem, {"i32", "i64"}))
    return emitOpError() << "takes i32 or i64 elements, not " << elem;
  return success();
}

LogicalResult WaitAtLeastOp::verify() {
  return verifyCounterPointer(*this, getPtr().getType());
}

LogicalResult ClusterGatherOp::verify() {
  FailureOr<int64_t> size = getClusterSize(*this);
  if (failed(size))
    return failure();
  if (getValues().empty())
    return emitOpError("needs at least one value");
  if (getValues().size() != getResults().size())
    return emitOpError() << "has " << getValues().size() << " values but "
                         << getResults().size() << " results";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getValues(), getResults()))) {
    auto [value, result] = pair;
    auto type = cast<RankedTensorType>(result.getType());
    auto expected = RankedTensorType::get({*size}, value.getType());
    if (type.getShape() != expected.getShape() ||
        type.getElementType() != value.getType())
      return emitOpError() << "result #" << i << " must be " << expected
                           << " (one element per program of the cluster), "
                              "got "
                           << result.getType();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor adaptor) {
  // Before layout assignment a conversion separates the layouts of its
  // operand and result (see the op's description): it stays.
  if (getSrc().getType() == getType() && getType().getEncoding())
    return getSrc();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  return {};
}

namespace {
/// convert(convert(x)) -> convert(x); convert(splat/range) is recomputed in
/// the target layout, which costs nothing, instead of moving data.
struct FoldConvertOfCheapProducer : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    Operation *producer = op.getSrc().getDefiningOp();
    if (!producer)
      return failure();
    if (auto inner = dyn_cast<ConvertLayoutOp>(producer)) {
      rewriter.replaceOpWithNewOp<ConvertLayoutOp>(op, op.getType(),
                                                   inner.getSrc());
      return success();
    }
    if (auto splat = dyn_cast<SplatOp>(producer)) {
      rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
      return success();
    }
    if (auto range = dyn_cast<RangeOp>(producer)) {
      rewriter.replaceOpWithNewOp<RangeOp>(op, op.getType(), range.getStart(),
                                           range.getEnd());
      return success();
    }
    return failure();
  }
};
} // namespace

void ConvertLayoutOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                  MLIRContext *context) {
  results.add<FoldConvertOfCheapProducer>(context);
}

LogicalResult DotOp::verify() {
  auto a = getA().getType(), b = getB().getType(), c = getAcc().getType();
  if (a.getRank() != 2 || b.getRank() != 2 || c.getRank() != 2)
    return emitOpError() << "operands must be 2-d tiles, got " << a << ", "
                         << b << " and " << c;
  if (a.getDimSize(1) != b.getDimSize(0))
    return emitOpError() << "inner dimensions differ: a is " << a
                         << " and b is " << b;
  if (c.getDimSize(0) != a.getDimSize(0) || c.getDimSize(1) != b.getDimSize(1))
    return emitOpError() << "accumulator " << c << " must be "
                         << a.getDimSize(0) << "x" << b.getDimSize(1);
  Type ea = a.getElementType(), eb = b.getElementType(),
       ec = c.getElementType();
  if (ea != eb)
    return emitOpError() << "a and b element types differ: " << ea << " vs "
                         << eb;
  if (!ea.isF16() && !ea.isBF16() && !ea.isF32())
    return emitOpError() << "operands must be f16, bf16 or f32, got " << ea;
  bool accOk = ec.isF32() || (ea.isF16() && ec.isF16());
  if (!accOk)
    return emitOpError() << "accumulator must be f32 (or f16 for f16 "
                            "operands), got "
                         << ec;
  if (getPrecision() != InputPrecision::IEEE && !ea.isF32())
    return emitOpError() << "precision '"
                         << stringifyInputPrecision(getPrecision())
                         << "' applies to f32 operands only";
  return success();
}
