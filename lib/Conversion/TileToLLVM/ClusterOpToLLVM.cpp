//===- ClusterOpToLLVM.cpp - Exchanges between the programs of a cluster --===//
//
// tile.cluster_reduce and tile.cluster_gather exchange scalars between the
// programs (CTAs) of a thread block cluster through distributed shared
// memory. Each kernel that uses them has a few words of shared memory of
// its own for the exchange (tile.shared_offset, placed by the pass after
// the scratch space other ops share), and every exchange follows one
// protocol built on the cluster barrier's two halves, arrive and wait:
//
//   wait              every program has read the previous exchange
//   thread 0 writes its values to the words
//   arrive; wait      every program has written
//   lane r of each warp reads the words of the program of rank r
//   arrive            this program has read (the next exchange, or the
//                     kernel's end, waits for it)
//
// A kernel's first arrival is at its entry and its last wait before each
// return (addClusterExchangeBoundaries), so every wait has its arrival and
// no program exits while a peer may still read its words. One barrier
// round per exchange is on the critical path; the closing wait usually
// finds the round already complete.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::tile;

/// barrier.cluster.arrive (release semantics by default).
static void emitClusterArrive(OpBuilder &b, Location loc) {
  NVVM::ClusterArriveOp::create(b, loc, /*aligned=*/UnitAttr());
}

/// barrier.cluster.wait (acquire semantics by default).
static void emitClusterWait(OpBuilder &b, Location loc) {
  NVVM::ClusterWaitOp::create(b, loc, /*aligned=*/UnitAttr());
}

void mlir::tile::addClusterExchangeBoundaries(func::FuncOp kernel) {
  OpBuilder b(kernel.getContext());
  b.setInsertionPointToStart(&kernel.getBody().front());
  emitClusterArrive(b, kernel.getLoc());
  kernel.walk([&](func::ReturnOp ret) {
    b.setInsertionPoint(ret);
    emitClusterWait(b, ret.getLoc());
  });
}

bool mlir::tile::sharesClusterBarriers(func::FuncOp kernel) {
  bool shares = false;
  kernel.walk([&](Operation *op) {
    if (auto copy = dyn_cast<TmaCopyOp>(op))
      shares |= copy.getMulticast().has_value();
    if (auto arrive = dyn_cast<MBarrierArriveOp>(op))
      shares |= arrive.getCluster();
  });
  return shares;
}

LogicalResult mlir::tile::addClusterBarrierBoundaries(func::FuncOp kernel) {
  bool exchanges = false;
  kernel.walk([&](Operation *op) {
    exchanges |= isa<ClusterReduceOp, ClusterGatherOp>(op);
  });
  if (exchanges)
    return kernel.emitError("kernel '")
           << kernel.getSymName()
           << "' both exchanges values between the programs of a cluster "
              "and shares barriers with them; not supported";
  // The barriers are allocated at the kernel's start, before a producer
  // warpgroup splits off, so that every thread of the cluster takes part.
  Block &entry = kernel.getBody().front();
  Operation *lastAlloc = nullptr;
  WalkResult nested = kernel.walk([&](AllocMBarriersOp alloc) {
    if (alloc->getBlock() != &entry)
      return WalkResult::interrupt();
    lastAlloc = alloc;
    return WalkResult::advance();
  });
  if (nested.wasInterrupted() || !lastAlloc)
    return kernel.emitError("kernel '")
           << kernel.getSymName()
           << "' shares barriers across its cluster: they must be allocated "
              "in its entry block";
  if (WarpSpecializeOp split = getWarpSpecialize(kernel);
      split && split->isBeforeInBlock(lastAlloc))
    return kernel.emitError("kernel '")
           << kernel.getSymName()
           << "' allocates barriers that its cluster shares after its "
              "producer warpgroup splits off";
  OpBuilder b(kernel.getContext());
  b.setInsertionPointAfter(lastAlloc);
  emitClusterArrive(b, lastAlloc->getLoc());
  emitClusterWait(b, lastAlloc->getLoc());
  kernel.walk([&](func::ReturnOp ret) {
    b.setInsertionPoint(ret);
    emitClusterArrive(b, ret.getLoc());
    emitClusterWait(b, ret.getLoc());
  });
  return success();
}

/// Runs one exchange of `values` (f32 or i32 scalars, the same in every
/// thread of the program) over a cluster of `size` programs whose words
/// start `offset` bytes into shared memory. Returns, per value, what lane
/// `l` of each warp read: the value of the program of rank min(l, size-1).
static SmallVector<Value> emitExchange(OpBuilder &b, Location loc,
                                       ValueRange values, int64_t offset,
                                       int64_t size) {
  Type i32 = b.getI32Type();
  Value words = gep(b, loc, b.getI8Type(), getSharedMemory(b, loc),
                    i32Constant(b, loc, offset));
  auto word = [&](Value base, int64_t k) {
    return gep(b, loc, i32, base, i32Constant(b, loc, k));
  };

  emitClusterWait(b, loc);
  {
    Value tid = NVVM::ThreadIdXOp::create(b, loc, i32);
    auto ifFirst = scf::IfOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                              i32Constant(b, loc, 0)),
        /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifFirst.thenBlock());
    for (auto [k, v] : llvm::enumerate(values))
      LLVM::StoreOp::create(b, loc, v, word(words, k));
  }
  emitClusterArrive(b, loc);
  emitClusterWait(b, loc);
  ThreadIds ids = getThreadIds(b, loc);
  Value peer =
      arith::MinUIOp::create(b, loc, ids.lane, i32Constant(b, loc, size - 1));
  Value peerWords = NVVM::MapaOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 7), words, peer);
  SmallVector<Value> read;
  for (auto [k, v] : llvm::enumerate(values))
    read.push_back(
        LLVM::LoadOp::create(b, loc, v.getType(), word(peerWords, k), 4));
  emitClusterArrive(b, loc);
  return read;
}

/// The cluster size of the kernel around `op`, and for clusters of more
/// than one program the offset of its exchange words; failure with an
/// error when they are missing.
static LogicalResult getExchangePlan(Operation *op, int64_t &size,
                                     int64_t &offset) {
  auto func = op->getParentOfType<FunctionOpInterface>();
  auto sizeAttr = func ? func->getAttrOfType<IntegerAttr>(
                             TileDialect::getClusterSizeAttrName())
                       : IntegerAttr();
  IntegerAttr offsetAttr =
      TileDialect::SharedOffsetAttrHelper(op->getContext()).getAttr(op);
  if (!sizeAttr || (sizeAttr.getInt() > 1 && !offsetAttr))
    return op->emitOpError("has no exchange words; it must be in a kernel "
                           "with tile.cluster_size lowered by "
                           "tile-convert-to-llvm");
  size = sizeAttr.getInt();
  offset = offsetAttr ? offsetAttr.getInt() : 0;
  return success();
}

/// The value that leaves any other unchanged under `kind`.
static Value getIdentity(OpBuilder &b, Location loc, ReduceKind kind,
                         Type type) {
  if (isa<FloatType>(type)) {
    double inf = std::numeric_limits<double>::infinity();
    double v = kind == ReduceKind::Sum   ? 0.0
               : kind == ReduceKind::Max ? -inf
                                         : inf;
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, v));
  }
  int64_t v = kind == ReduceKind::Sum   ? 0
              : kind == ReduceKind::Max ? std::numeric_limits<int32_t>::min()
                                        : std::numeric_limits<int32_t>::max();
  return i32Constant(b, loc, v);
}

namespace {

/// Lanes beyond the cluster take the identity; a butterfly over the warp
/// then leaves the reduction in every lane.
struct ClusterReduceOpConversion : public OpConversionPattern<ClusterReduceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ClusterReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t size, offset;
    if (failed(getExchangePlan(op, size, offset)))
      return failure();
    Value value = adaptor.getValue();
    // A cluster of one program: its own value, no exchange.
    if (size == 1) {
      rewriter.replaceOp(op, value);
      return success();
    }
    Value lanes = emitExchange(rewriter, loc, value, offset, size)[0];
    ThreadIds ids = getThreadIds(rewriter, loc);
    Value inCluster =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                              ids.lane, i32Constant(rewriter, loc, size));
    Value acc = arith::SelectOp::create(
        rewriter, loc, inCluster, lanes,
        getIdentity(rewriter, loc, op.getKind(), value.getType()));
    for (unsigned dist = 16; dist >= 1; dist /= 2)
      acc = combine(rewriter, loc, op.getKind(), acc,
                    shuffleXor(rewriter, loc, acc, dist));
    rewriter.replaceOp(op, acc);
    return success();
  }
};

/// Each slot of a result takes, by an indexed shuffle, the value the lane
/// of its rank read.
struct ClusterGatherOpConversion : public OpConversionPattern<ClusterGatherOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ClusterGatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t size, offset;
    if (failed(getExchangePlan(op, size, offset)))
      return failure();
    SmallVector<SmallVector<Value>> results;
    if (size == 1) {
      // A cluster of one program: every slot holds its own value.
      for (auto [value, result] :
           llvm::zip(adaptor.getValues(), op.getResults())) {
        auto type = cast<RankedTensorType>(result.getType());
        results.push_back(
            SmallVector<Value>(LayoutView(type).getNumSlots(), value));
      }
    } else {
      SmallVector<Value> lanes =
          emitExchange(rewriter, loc, adaptor.getValues(), offset, size);
      for (auto [lane, result] : llvm::zip(lanes, op.getResults())) {
        auto type = cast<RankedTensorType>(result.getType());
        SmallVector<Value> slots;
        for (SmallVector<Value> &index : emitSlotIndices(rewriter, loc, type))
          slots.push_back(NVVM::ShflOp::create(
              rewriter, loc, lane.getType(), i32Constant(rewriter, loc, -1),
              lane, index[0], i32Constant(rewriter, loc, 0x1f),
              NVVM::ShflKind::idx, UnitAttr()));
        results.push_back(slots);
      }
    }
    SmallVector<ValueRange> replacements(results.begin(), results.end());
    rewriter.replaceOpWithMultiple(op, replacements);
    return success();
  }
};

} // namespace

void mlir::tile::populateClusterOpToLLVMPatterns(TileTypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<ClusterReduceOpConversion, ClusterGatherOpConversion>(
      converter, patterns.getContext());
}
