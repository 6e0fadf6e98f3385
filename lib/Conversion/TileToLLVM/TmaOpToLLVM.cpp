//===- TmaOpToLLVM.cpp - TMA copies and transaction barriers --------------===//
//
// On Hopper (sm_90a) a software pipeline's blocks may be copied by the
// tensor memory accelerator instead of cp.async (tile-pipeline-loops does
// so in kernels marked tile.tma): one thread per program announces a
// stage's bytes on that stage's mbarrier and issues the copies, which land
// in the buffer already in the swizzled layout wgmma reads, and every
// thread waits for the barrier's phase instead of a cp.async group. The
// copies read the array through a CUtensorMap that the runtime encodes at
// launch and passes as a __grid_constant__ kernel parameter (see
// buildMetadata in TileToLLVMPass.cpp for what it is told).
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Bytes of one mbarrier object, and of one CUtensorMap.
constexpr int64_t kMBarrierBytes = 8;
constexpr int64_t kTensorMapBytes = 128;

/// The shared-memory pointer to barrier `index` of `barriers`.
Value emitBarrierAddress(OpBuilder &b, Location loc, Value barriers,
                         Value index) {
  Value offset =
      arith::MulIOp::create(b, loc, index, i32Constant(b, loc, kMBarrierBytes));
  return byteOffset(b, loc, barriers, offset);
}

/// Whether this is the first thread of those that run `op` (i1): the
/// program's first, or in a producer region (which one warp runs, see
/// tile.warp_specialize) that warp's first lane.
Value emitIsFirstThread(OpBuilder &b, Location loc, Operation *op) {
  ThreadIds ids = getThreadIds(b, loc);
  Value index = op->getParentOfType<WarpSpecializeOp>()
                    ? ids.lane
                    : emitThreadIndex(b, loc, ids);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, index,
                               i32Constant(b, loc, 0));
}

/// A branch that the first thread running `op` (emitIsFirstThread) takes
/// where `pred` holds. TMA ops are issued there: their operands go in
/// uniform registers, and predicated copies left in every thread's path
/// slow the matmul down (docs/perf-notes.md).
scf::IfOp emitFirstThreadBranch(OpBuilder &b, Location loc, Operation *op,
                                Value pred) {
  Value issue =
      arith::AndIOp::create(b, loc, emitIsFirstThread(b, loc, op), pred);
  return scf::IfOp::create(b, loc, issue, /*withElse=*/false);
}

/// Where the block of a TMA op's block pointer of rank `rank` (its parts:
/// base, shape, strides and offsets, `rank` each) starts: its row and
/// column, its rows' count, and the offsets along its leading dimensions,
/// innermost first (the tensor map's coordinates after the column and the
/// row).
struct TmaBlockOrigin {
  Value row, col, rowCount;
  SmallVector<Value> outer;
};
TmaBlockOrigin getTmaBlockOrigin(ValueRange parts, int64_t rank) {
  TmaBlockOrigin origin;
  origin.row = parts[1 + 2 * rank + rank - 2];
  origin.col = parts[1 + 2 * rank + rank - 1];
  origin.rowCount = parts[1 + rank - 2];
  for (int64_t d = rank - 3; d >= 0; --d)
    origin.outer.push_back(parts[1 + 2 * rank + d]);
  return origin;
}

/// Calls `emit` with each box of a rows x cols block starting at `origin`
/// (column chunks outermost, `box`'s rows and columns apart): the box's
/// row and column within the block and its coordinates in the tensor map
/// (column, row, then the leading dimensions' offsets).
void forEachTmaBox(
    OpBuilder &b, Location loc, int64_t rows, int64_t cols, TmaBox box,
    const TmaBlockOrigin &origin,
    llvm::function_ref<void(int64_t, int64_t, ArrayRef<Value>)> emit) {
  for (int64_t col = 0; col < cols; col += box.cols)
    for (int64_t row = 0; row < rows; row += box.rows) {
      SmallVector<Value> coordinates{
          arith::AddIOp::create(b, loc, origin.col, i32Constant(b, loc, col)),
          arith::AddIOp::create(b, loc, origin.row, i32Constant(b, loc, row))};
      llvm::append_range(coordinates, origin.outer);
      emit(row, col, coordinates);
    }
}

struct AllocMBarriersOpConversion
    : public OpConversionPattern<AllocMBarriersOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AllocMBarriersOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IntegerAttr offset =
        TileDialect::SharedOffsetAttrHelper(op.getContext()).getAttr(op);
    if (!offset)
      return op.emitError("mbarriers have no offset: run them through "
                          "tile-convert-to-llvm, which places them");
    Location loc = op.getLoc();
    auto type = cast<MBarriersType>(op.getType());
    Value base = byteOffset(rewriter, loc, getSharedMemory(rewriter, loc),
                            i32Constant(rewriter, loc, offset.getInt()));
    // The first thread initializes every barrier.
    {
      auto ifFirst =
          scf::IfOp::create(rewriter, loc, emitIsFirstThread(rewriter, loc, op),
                            /*withElse=*/false);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(ifFirst.thenBlock());
      Value arrivals = i32Constant(rewriter, loc, type.getArrivals());
      for (int64_t i = 0; i < type.getCount(); ++i)
        NVVM::MBarrierInitOp::create(
            rewriter, loc,
            emitBarrierAddress(rewriter, loc, base,
                               i32Constant(rewriter, loc, i)),
            arrivals, /*predicate=*/Value());
    }
    // The initialization is made visible to the async proxy (the copies'
    // completions) and to the other threads before any of them use it:
    // every warp of the kernel where the barriers are allocated before a
    // tile.warp_specialize (the producer uses them too), the program's
    // warps after one.
    NVVM::FenceMbarrierInitOp::create(rewriter, loc);
    auto func = op->getParentOfType<func::FuncOp>();
    WarpSpecializeOp split = getWarpSpecialize(func);
    if (split &&
        func.getBody().front().findAncestorOpInBlock(*op)->isBeforeInBlock(
            split))
      NVVM::Barrier0Op::create(rewriter, loc);
    else
      emitBarrier(rewriter, loc);
    rewriter.replaceOp(op, base);
    return success();
  }
};

struct TmaCopyOpConversion : public OpConversionPattern<TmaCopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TmaCopyOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<SharedBufferType>(op.getBuffer().getType());
    SharedLayout layout = getSharedLayout(op.getBuffer());
    RankedTensorType block = type.getBlockType();
    int64_t rows = block.getDimSize(0), cols = block.getDimSize(1);
    int64_t bytes = type.getElementBytes();
    // TMA writes swizzled rows (the layouts wgmma reads; the pass gives
    // other TMA-fed buffers one); it cannot pad rows or transpose.
    if (!layout.isSwizzled() || layout.transposed)
      return op.emitOpError("copies into a buffer whose rows are not "
                            "swizzled (rows under 32 bytes, or transposed "
                            "for a tf32 wgmma); TMA writes swizzled rows only");
    TmaBox box = getTmaBox(op);
    int64_t split = op.getMulticast().value_or(1);
    if ((rows / split) % box.rows || cols % box.cols)
      return op.emitOpError("block ")
             << block << " is not a whole number of " << box.rows << "x"
             << box.cols << " TMA boxes";

    // A batch of matrices is a 3-d array, the matrix index outermost; a
    // block pointer of rank N > 2 names the coordinates of its leading
    // dimensions itself (innermost first after the column and row).
    ValueRange batchParts = adaptor.getBatch();
    SmallVector<Value> outer;
    if (!batchParts.empty())
      outer.push_back(batchParts[0]);
    TmaBlockOrigin origin = getTmaBlockOrigin(
        adaptor.getPtr(),
        cast<BlockPointerType>(op.getPtr().getType()).getBlockType().getRank());
    Value rowOffset = origin.row, colOffset = origin.col,
          rowCount = origin.rowCount;
    llvm::append_range(outer, origin.outer);
    if (!outer.empty() && box.groups)
      return op.emitOpError("copies a batch into a buffer in wgmma's row-group "
                            "order, which needs a 4-d map of its own; not "
                            "supported");
    Value stageBase = emitStageBase(
        rewriter, loc, layout, adaptor.getBuffer()[0], adaptor.getStage()[0]);
    Value barrier = emitBarrierAddress(rewriter, loc, adaptor.getBarriers()[0],
                                       adaptor.getStage()[0]);
    Value map = adaptor.getMap()[0];
    auto c = [&](int64_t v) { return i32Constant(rewriter, loc, v); };

    // One thread issues everything.
    auto ifIssue =
        emitFirstThreadBranch(rewriter, loc, op, adaptor.getPred()[0]);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(ifIssue.thenBlock());

    // The stage's bytes (the whole block: TMA counts the zeros it writes
    // outside the array too, and a multicast block's parts all complete on
    // each program's barrier), then one copy per box.
    NVVM::MBarrierArriveExpectTxOp::create(
        rewriter, loc, /*res=*/Type(), barrier, c(rows * cols * bytes),
        NVVM::MemScopeKind::CTA, /*relaxed=*/false, /*predicate=*/Value());
    // A multicast copy writes the same offsets of every program of the
    // cluster (mask bit r: the program of rank r) and completes on the
    // barrier at the same offset in each.
    Value mask;
    if (split > 1)
      mask = LLVM::ConstantOp::create(
          rewriter, loc, rewriter.getI16Type(),
          rewriter.getI16IntegerAttr(int16_t((1u << split) - 1)));
    auto copy = [&](Value dst, Value tensorMap, ArrayRef<Value> coordinates) {
      NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
          rewriter, loc, toOwnClusterPointer(rewriter, loc, dst), tensorMap,
          coordinates, barrier, /*im2colOffsets=*/ValueRange(),
          /*multicastMask=*/mask, /*l2CacheHint=*/Value(),
          NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false,
          /*group=*/NVVM::CTAGroupKindAttr(), /*predicate=*/Value());
    };
    auto copy2d = [&](Value dst, Value x, Value y) {
      SmallVector<Value> coordinates{x, y};
      llvm::append_range(coordinates, outer);
      copy(dst, map, coordinates);
    };
    auto stageAddressAt = [&](Value row, int64_t col) -> Value {
      return byteOffset(rewriter, loc, stageBase,
                        layout.emitOffset(rewriter, loc, row, c(col)));
    };
    auto stageAddress = [&](int64_t row, int64_t col) -> Value {
      return stageAddressAt(c(row), col);
    };
    // This program's rows of the block: all, or its rank's part of a
    // multicast block.
    Value firstRow = c(0);
    if (split > 1)
      firstRow = arith::MulIOp::create(
          rewriter, loc,
          NVVM::ClusterId::create(rewriter, loc, rewriter.getI32Type()),
          c(rows / split));
    auto boxes = [&]() {
      for (int64_t col = 0; col < cols; col += box.cols) {
        Value x = arith::AddIOp::create(rewriter, loc, colOffset, c(col));
        for (int64_t row = 0; row < rows / split; row += box.rows) {
          Value r = arith::AddIOp::create(rewriter, loc, firstRow, c(row));
          copy2d(stageAddressAt(r, col), x,
                 arith::AddIOp::create(rewriter, loc, rowOffset, r));
        }
      }
    };
    if (!box.groups) {
      boxes();
      rewriter.eraseOp(op);
      return success();
    }

    // Blocks wholly inside the array (rows 8-aligned) take the interleaved
    // 4-d map; the others (the array's last rows) one copy per 8-row group.
    Type i64 = rewriter.getI64Type();
    Value end = arith::AddIOp::create(
        rewriter, loc, arith::ExtSIOp::create(rewriter, loc, i64, rowOffset),
        i64Constant(rewriter, loc, rows));
    Value inside = arith::AndIOp::create(
        rewriter, loc,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sle, end,
                              rowCount),
        arith::AndIOp::create(
            rewriter, loc,
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge,
                                  rowOffset, c(0)),
            arith::CmpIOp::create(
                rewriter, loc, arith::CmpIPredicate::eq,
                arith::AndIOp::create(rewriter, loc, rowOffset, c(7)), c(0))));
    auto ifInside = scf::IfOp::create(rewriter, loc, inside, /*withElse=*/true);
    rewriter.setInsertionPointToStart(ifInside.thenBlock());
    // Two copies of half the groups each: one, two and four copies per
    // block measured alike on the 4096^3 matmul (650-672 TFLOP/s; eight
    // were slower), two the highest (docs/perf-notes.md).
    Value group = arith::DivSIOp::create(rewriter, loc, rowOffset, c(8));
    Value interleaved = byteOffset(rewriter, loc, map, c(kTensorMapBytes));
    for (int64_t col = 0; col < cols; col += box.cols) {
      Value x = arith::AddIOp::create(rewriter, loc, colOffset, c(col));
      for (int64_t w = 0; w < box.groups; w += box.groups / 2)
        copy(
            stageAddress(8 * w, col), interleaved,
            {x, c(0), c(0), arith::AddIOp::create(rewriter, loc, group, c(w))});
    }
    rewriter.setInsertionPointToStart(ifInside.elseBlock());
    boxes();
    rewriter.eraseOp(op);
    return success();
  }
};

struct TmaPrefetchOpConversion : public OpConversionPattern<TmaPrefetchOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TmaPrefetchOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // The map's box is the one its copies' buffer gives it (the runtime
    // encodes the map from that copy, see TileToLLVMPass.cpp).
    TmaCopyOp copy;
    for (Operation *user : op.getMap().getUsers())
      if ((copy = dyn_cast<TmaCopyOp>(user)))
        break;
    if (!copy)
      return op.emitOpError("prefetches through a map that no tile.tma_copy "
                            "copies through, which leaves its box unknown");
    TmaBox box = getTmaBox(copy);
    RankedTensorType block =
        cast<BlockPointerType>(op.getPtr().getType()).getBlockType();
    int64_t rank = block.getRank();
    int64_t rows = block.getDimSize(rank - 2),
            cols = block.getDimSize(rank - 1);
    TmaBlockOrigin origin = getTmaBlockOrigin(adaptor.getPtr(), rank);
    auto ifIssue =
        emitFirstThreadBranch(rewriter, loc, op, adaptor.getPred()[0]);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(ifIssue.thenBlock());
    forEachTmaBox(rewriter, loc, rows, cols, box, origin,
                  [&](int64_t, int64_t, ArrayRef<Value> coordinates) {
                    NVVM::CpAsyncBulkTensorPrefetchOp::create(
                        rewriter, loc, adaptor.getMap()[0], coordinates,
                        /*im2colOffsets=*/ValueRange(), NVVM::TMALoadMode::TILE,
                        /*l2CacheHint=*/Value());
                  });
    rewriter.eraseOp(op);
    return success();
  }
};

/// Whether the ops just before tile.tma_store `op` (pure ones aside) fence
/// the threads' shared-memory writes for the async proxy and then
/// synchronize the program's threads, as emitBarrier does: a wgmma
/// kernel's tile.local_store into the same stage (before or after its own
/// conversion, which ends that way).
bool followsAsyncHandover(TmaStoreOp op) {
  auto before = [](Operation *at) {
    Operation *prev = at->getPrevNode();
    while (prev && prev->getNumRegions() == 0 && isMemoryEffectFree(prev))
      prev = prev->getPrevNode();
    return prev;
  };
  Operation *barrier = before(op);
  if (!barrier)
    return false;
  auto func = op->getParentOfType<func::FuncOp>();
  if (auto stored = dyn_cast<LocalStoreOp>(barrier))
    return stored.getBuffer() == op.getBuffer() &&
           stored.getStage() == op.getStage() &&
           TileDialect::WgmmaAttrHelper(op.getContext()).isAttrPresent(func);
  if (auto named = dyn_cast<NVVM::BarrierOp>(barrier)) {
    APInt id, threads;
    if (!getWarpSpecialize(func) || !named.getNumberOfThreads() ||
        !matchPattern(named.getBarrierId(), m_ConstantInt(&id)) ||
        !matchPattern(named.getNumberOfThreads(), m_ConstantInt(&threads)) ||
        id != 1 || threads != 32 * getNumWarps(func))
      return false;
  } else if (!isa<NVVM::Barrier0Op>(barrier) || getWarpSpecialize(func)) {
    return false;
  }
  auto fence = dyn_cast_or_null<NVVM::FenceProxyOp>(before(barrier));
  return fence && fence.getKind() == NVVM::ProxyKind::async_shared;
}

struct TmaStoreOpConversion : public OpConversionPattern<TmaStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TmaStoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SharedLayout layout = getSharedLayout(op.getBuffer());
    if (!layout.isSwizzled() || layout.transposed)
      return op.emitOpError("copies a buffer whose rows are not swizzled "
                            "(rows under 32 bytes, or transposed for a tf32 "
                            "wgmma); TMA reads swizzled rows only");
    TmaBox box = getTmaBox(op);
    RankedTensorType block = layout.type.getBlockType();
    int64_t rows = block.getDimSize(0), cols = block.getDimSize(1);
    if (rows % box.rows || cols % box.cols)
      return op.emitOpError("block ")
             << block << " is not a whole number of " << box.rows << "x"
             << box.cols << " TMA boxes";
    // The program's writes of the stage reach the async proxy before the
    // copy reads it: each thread fences its own, then all meet (unless the
    // ops just before did both, as a tile.local_store of a wgmma kernel
    // ends).
    if (!followsAsyncHandover(op)) {
      NVVM::FenceProxyOp::create(
          rewriter, loc, NVVM::ProxyKind::async_shared,
          NVVM::SharedSpaceAttr::get(rewriter.getContext(),
                                     NVVM::SharedSpace::shared_cta));
      emitBarrier(rewriter, loc);
    }
    int64_t rank =
        cast<BlockPointerType>(op.getPtr().getType()).getBlockType().getRank();
    TmaBlockOrigin origin = getTmaBlockOrigin(adaptor.getPtr(), rank);
    Value stageBase = emitStageBase(
        rewriter, loc, layout, adaptor.getBuffer()[0], adaptor.getStage()[0]);
    auto c = [&](int64_t v) { return i32Constant(rewriter, loc, v); };
    // One thread issues every box and closes one bulk group. (A box per
    // lane of the first warp, or a share of the boxes per warpgroup's first
    // thread, measured slower: docs/perf-notes.md.)
    auto ifIssue = emitFirstThreadBranch(
        rewriter, loc, op,
        arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(true)));
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(ifIssue.thenBlock());
    forEachTmaBox(rewriter, loc, rows, cols, box, origin,
                  [&](int64_t row, int64_t col, ArrayRef<Value> coordinates) {
                    Value src = byteOffset(
                        rewriter, loc, stageBase,
                        layout.emitOffset(rewriter, loc, c(row), c(col)));
                    NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
                        rewriter, loc, adaptor.getMap()[0], src, coordinates,
                        /*l2CacheHint=*/Value(), NVVM::TMAStoreMode::TILE,
                        /*predicate=*/Value());
                  });
    NVVM::CpAsyncBulkCommitGroupOp::create(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarrierWaitOpConversion : public OpConversionPattern<MBarrierWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MBarrierWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value barrier = emitBarrierAddress(rewriter, loc, adaptor.getBarriers(),
                                       adaptor.getIndex());
    // try_wait suspends the thread for a while in hardware before it
    // reports; the loop retries until the phase has completed.
    auto loop = scf::WhileOp::create(rewriter, loc, TypeRange(), ValueRange());
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.createBlock(&loop.getBefore());
      Value done = NVVM::MBarrierTryWaitOp::create(
          rewriter, loc, rewriter.getI1Type(), barrier, adaptor.getParity(),
          /*ticks=*/Value());
      Value pending = arith::XOrIOp::create(
          rewriter, loc, done,
          arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(true)));
      scf::ConditionOp::create(rewriter, loc, pending, ValueRange());
      rewriter.createBlock(&loop.getAfter());
      scf::YieldOp::create(rewriter, loc);
    }
    // As tile.async_wait: every earlier read of shared memory ends before
    // any thread goes on (the next copies overwrite a stage read before).
    if (!op.getNosync())
      emitBarrier(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarrierArriveOpConversion
    : public OpConversionPattern<MBarrierArriveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MBarrierArriveOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // The `after` values are operands only to order the arrival after
    // their computation (the wgmma waits go before their first use).
    Value barrier = emitBarrierAddress(rewriter, loc, adaptor.getBarriers()[0],
                                       adaptor.getIndex()[0]);
    // The thread's tile.tma_store copies have read their stages (a thread
    // that started none waits for nothing).
    if (op.getStores())
      NVVM::CpAsyncBulkWaitGroupOp::create(rewriter, loc, /*group=*/0,
                                           rewriter.getUnitAttr());
    if (!op.getCluster()) {
      NVVM::MBarrierArriveOp::create(rewriter, loc, /*res=*/Type(), barrier,
                                     /*count=*/Value());
      rewriter.eraseOp(op);
      return success();
    }
    // Once the whole warp is here, lane r arrives for it on the barrier of
    // the program of rank r. The warp's reads of the stage are complete
    // by then (the op's `after` values, the products, needed them), and
    // the warp barrier orders its lanes' before the arrival. The release
    // is the default, at CTA scope: at cluster scope it made every step of
    // the softmax-matmul's clusters slower (docs/perf-notes.md).
    auto func = op->getParentOfType<func::FuncOp>();
    int64_t size =
        func->getAttrOfType<IntegerAttr>(TileDialect::getClusterSizeAttrName())
            .getInt();
    NVVM::SyncWarpOp::create(rewriter, loc, i32Constant(rewriter, loc, -1));
    Value lane = getThreadIds(rewriter, loc).lane;
    auto ifArrives = scf::IfOp::create(
        rewriter, loc,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, lane,
                              i32Constant(rewriter, loc, size)),
        /*withElse=*/false);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(ifArrives.thenBlock());
    Value remote = NVVM::MapaOp::create(
        rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext(), 7),
        barrier, lane);
    NVVM::MBarrierArriveOp::create(rewriter, loc, /*res=*/Type(), remote,
                                   /*count=*/Value());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

TmaBox mlir::tile::getTmaBox(TmaCopyOp copy) {
  TmaBox box = getTmaBox(getSharedLayout(copy.getBuffer()),
                         copy.getMulticast().value_or(1));
  // A copy with leading coordinates (a batch, or a block pointer of rank
  // > 2) moves a reordered block 8-row group by group: the interleaved map
  // would need dimensions of its own for them.
  if (copy.getBatch() ||
      cast<BlockPointerType>(copy.getPtr().getType()).getBlockType().getRank() >
          2)
    box.groups = 0;
  return box;
}

TmaBox mlir::tile::getTmaBox(TmaStoreOp store) {
  // Stores move the buffer's boxes one by one (no interleaved map).
  TmaBox box = getTmaBox(getSharedLayout(store.getBuffer()));
  box.groups = 0;
  return box;
}

TmaBox mlir::tile::getTmaBox(const SharedLayout &layout, int64_t parts) {
  RankedTensorType block = layout.type.getBlockType();
  TmaBox box;
  box.cols = layout.swizzleBytes / layout.type.getElementBytes();
  // A buffer in wgmma's row order moves 8-row groups (see SharedLayout);
  // a box spans at most 256 rows (of this program's part of the block).
  box.rows = layout.mmaRowWarps
                 ? 8
                 : std::min<int64_t>(block.getDimSize(0) / parts, 256);
  // (A multicast part is copied 8-row group by group.)
  if (layout.mmaRowWarps && block.getDimSize(0) == 16 * layout.mmaRowWarps &&
      layout.mmaRowWarps % 2 == 0 && parts == 1)
    box.groups = layout.mmaRowWarps;
  return box;
}

void mlir::tile::populateTmaOpToLLVMPatterns(TileTypeConverter &converter,
                                             RewritePatternSet &patterns) {
  patterns.add<AllocMBarriersOpConversion, TmaCopyOpConversion,
               TmaPrefetchOpConversion, TmaStoreOpConversion,
               MBarrierWaitOpConversion, MBarrierArriveOpConversion>(
      converter, patterns.getContext());
}
