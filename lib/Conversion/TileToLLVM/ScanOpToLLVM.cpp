//===- ScanOpToLLVM.cpp - Prefix combinations along one axis of a tile ----===//
//
// tile.scan goes through shared memory, which makes it independent of the
// tile's layout; the tile is stored there as [other positions][axis] (the
// axis reversed for `reverse`) and scanned by a plan of its own:
//  1. each thread takes e = max(1, N / threads) consecutive elements, a
//     chunk of one line along the axis (or e / L whole lines when the
//     chunks are longer than a line), and scans it in registers;
//  2. the P = L / e threads of a line (consecutive thread ids) combine
//     their chunk totals: an inclusive scan over the lanes by shuffles,
//     and, when a line spans several warps, the totals of the warps before
//     through shared memory;
//  3. each thread combines the total of the chunks before its own into its
//     elements and stores them, and every thread reads its slots back in
//     the result's layout.
// With fewer elements than threads, thread t works as thread t mod N: the
// copies compute and store the same values. f16/bf16 are combined in f32
// and narrower integers in i32; a `custom` combiner computes in the element
// type. The left operand of every combination is the part nearer the start
// of the scan, so a combiner need not be commutative.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The plan of a scan (see the file comment).
struct ScanPlan {
  int64_t elements; // N
  int64_t line;     // L
  int64_t chunk;    // e
  int64_t threads;  // threads with a chunk of their own
  /// Threads per line (1 when a thread takes whole lines).
  int64_t threadsPerLine() const { return std::max<int64_t>(1, line / chunk); }
  /// Warps a line spans.
  int64_t warpsPerLine() const {
    return std::max<int64_t>(1, threadsPerLine() / 32);
  }
};

Type getAccumulatorType(ScanOp op) {
  return getCombineType(op.getSrc().getType().getElementType(), op.getKind());
}

int64_t getByteSize(Type type) {
  return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
}

ScanPlan getScanPlan(ScanOp op) {
  RankedTensorType type = op.getSrc().getType();
  int64_t threads = 32 * getNumWarps(op->getParentOfType<func::FuncOp>());
  ScanPlan plan;
  plan.elements = type.getNumElements();
  plan.line = type.getDimSize(op.getAxis());
  plan.chunk = std::max<int64_t>(1, plan.elements / threads);
  plan.threads = plan.elements / plan.chunk;
  return plan;
}

/// Bytes of the [other positions][axis] copy, rounded to 8.
int64_t getTileBytes(ScanOp op, const ScanPlan &plan) {
  return llvm::alignTo(plan.elements * getByteSize(getAccumulatorType(op)), 8);
}

struct ScanOpConversion : public OpConversionPattern<ScanOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ScanOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType srcType = op.getSrc().getType();
    Type elemType = srcType.getElementType();
    if (elemType.getIntOrFloatBitWidth() > 32)
      return op.emitError("the GPU backend scans elements of at most 32 "
                          "bits, got ")
             << elemType;
    Type accType = getAccumulatorType(op);
    ReduceKind kind = op.getKind();
    auto combine = [&](Value earlier, Value later) -> Value {
      if (kind == ReduceKind::Custom)
        return emitCombiner(rewriter, op.getCombiner(), earlier, later);
      return mlir::tile::combine(rewriter, loc, kind, earlier, later);
    };
    auto widen = [&](Value v) {
      return widenToCombineType(rewriter, loc, v, elemType, accType);
    };
    auto narrow = [&](Value v) {
      return narrowFromCombineType(rewriter, loc, v, elemType);
    };
    auto c32 = [&](int64_t v) { return i32Constant(rewriter, loc, v); };
    auto add = [&](Value x, Value y) -> Value {
      return arith::AddIOp::create(rewriter, loc, x, y);
    };
    auto mul = [&](Value x, int64_t y) -> Value {
      return y == 1 ? x : arith::MulIOp::create(rewriter, loc, x, c32(y));
    };

    ScanPlan plan = getScanPlan(op);
    unsigned axis = op.getAxis();
    int64_t line = plan.line;
    Value smem = getSharedMemory(rewriter, loc);
    auto load = [&](Value at) -> Value {
      return LLVM::LoadOp::create(rewriter, loc, accType,
                                  gep(rewriter, loc, accType, smem, at));
    };
    auto store = [&](Value v, Value at) {
      LLVM::StoreOp::create(rewriter, loc, v,
                            gep(rewriter, loc, accType, smem, at));
    };

    // Where each slot's element lies in the [other positions][axis] copy.
    SmallVector<int64_t> copyShape;
    for (auto [d, size] : llvm::enumerate(srcType.getShape()))
      if (d != axis)
        copyShape.push_back(size);
    copyShape.push_back(line);
    SmallVector<Value> slotAt;
    for (SmallVector<Value> &index : emitSlotIndices(rewriter, loc, srcType)) {
      Value along = index[axis];
      if (op.getReverse())
        along = arith::SubIOp::create(rewriter, loc, c32(line - 1), along);
      index.erase(index.begin() + axis);
      index.push_back(along);
      slotAt.push_back(emitLinearIndex(rewriter, loc, index, copyShape));
    }

    // The copy in shared memory (the scratch may still be read by an op
    // before this one).
    emitBarrier(rewriter, loc);
    for (auto [v, at] : llvm::zip(adaptor.getSrc(), slotAt))
      store(widen(v), at);
    emitBarrier(rewriter, loc);

    // This thread's chunk: elements [t e, (t + 1) e) of the copy.
    ThreadIds ids = getThreadIds(rewriter, loc);
    Value t = emitThreadIndex(rewriter, loc, ids);
    t = arith::AndIOp::create(rewriter, loc, t, c32(plan.threads - 1));
    Value chunkAt = mul(t, plan.chunk);
    if (plan.chunk >= line) {
      // Whole lines: scan each in order, storing as it goes.
      for (int64_t first = 0; first < plan.chunk; first += line) {
        Value acc;
        for (int64_t k = 0; k < line; ++k) {
          Value at = add(chunkAt, c32(first + k));
          Value v = load(at);
          acc = acc ? combine(acc, v) : v;
          if (k)
            store(acc, at);
        }
      }
    } else {
      SmallVector<Value> x;
      for (int64_t k = 0; k < plan.chunk; ++k) {
        x.push_back(load(add(chunkAt, c32(k))));
        if (k)
          x.back() = combine(x[k - 1], x.back());
      }
      // The chunk totals of the line's threads, scanned over the lanes of
      // each warp (segments of W lanes when a line has fewer threads).
      int64_t perLine = plan.threadsPerLine();
      int64_t segment = std::min<int64_t>(perLine, 32);
      Value inSegment =
          arith::AndIOp::create(rewriter, loc, t, c32(segment - 1));
      auto atLeast = [&](Value v, int64_t bound) -> Value {
        return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::uge,
                                     v, c32(bound));
      };
      Value total = x.back();
      for (int64_t d = 1; d < segment; d *= 2) {
        Value before = shuffleUp(rewriter, loc, total, d);
        total = arith::SelectOp::create(rewriter, loc, atLeast(inSegment, d),
                                        combine(before, total), total);
      }
      // What comes before this thread's chunk: the inclusive total of the
      // lane before, then the warps of the line before this one's.
      Value prefix = shuffleUp(rewriter, loc, total, 1);
      Value hasPrefix = atLeast(inSegment, 1);
      int64_t warps = plan.warpsPerLine();
      if (warps > 1) {
        Value warpTotalsBase =
            c32(getTileBytes(op, plan) / getByteSize(accType));
        Value lineIndex = arith::ShRUIOp::create(rewriter, loc, t,
                                                 c32(llvm::Log2_64(perLine)));
        Value warpInLine = arith::AndIOp::create(
            rewriter, loc, arith::ShRUIOp::create(rewriter, loc, t, c32(5)),
            c32(warps - 1));
        Value lineTotals = add(warpTotalsBase, mul(lineIndex, warps));
        Value last = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::eq, inSegment, c32(31));
        auto ifLast = scf::IfOp::create(rewriter, loc, TypeRange(), last,
                                        /*withElse=*/false);
        {
          OpBuilder::InsertionGuard g(rewriter);
          rewriter.setInsertionPoint(ifLast.thenBlock()->getTerminator());
          store(total, add(lineTotals, warpInLine));
        }
        emitBarrier(rewriter, loc);
        // The warps before this one, in order.
        Value warpsBefore = load(lineTotals);
        for (int64_t w = 1; w + 1 < warps; ++w) {
          Value more = combine(warpsBefore, load(add(lineTotals, c32(w))));
          warpsBefore = arith::SelectOp::create(
              rewriter, loc, atLeast(warpInLine, w + 1), more, warpsBefore);
        }
        Value hasWarpsBefore = atLeast(warpInLine, 1);
        Value both = combine(warpsBefore, prefix);
        prefix = arith::SelectOp::create(rewriter, loc, hasPrefix,
                                         arith::SelectOp::create(rewriter, loc,
                                                                 hasWarpsBefore,
                                                                 both, prefix),
                                         warpsBefore);
        hasPrefix =
            arith::OrIOp::create(rewriter, loc, hasPrefix, hasWarpsBefore);
      }
      for (int64_t k = 0; k < plan.chunk; ++k) {
        Value v = arith::SelectOp::create(rewriter, loc, hasPrefix,
                                          combine(prefix, x[k]), x[k]);
        store(v, add(chunkAt, c32(k)));
      }
    }
    emitBarrier(rewriter, loc);

    SmallVector<Value> results;
    for (Value at : slotAt)
      results.push_back(narrow(load(at)));
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }
};

} // namespace

int64_t mlir::tile::getScanSharedBytes(ScanOp op) {
  ScanPlan plan = getScanPlan(op);
  int64_t bytes = getTileBytes(op, plan);
  if (plan.chunk < plan.line && plan.warpsPerLine() > 1)
    bytes += plan.elements / plan.line * plan.warpsPerLine() *
             getByteSize(getAccumulatorType(op));
  return bytes;
}

void mlir::tile::populateScanOpToLLVMPatterns(TileTypeConverter &converter,
                                              RewritePatternSet &patterns) {
  patterns.add<ScanOpConversion>(converter, patterns.getContext());
}
