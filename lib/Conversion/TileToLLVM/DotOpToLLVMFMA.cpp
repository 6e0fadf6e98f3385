//===- DotOpToLLVMFMA.cpp - tile.dot on the FMA units ---------------------===//
//
// Dots on the FMA units: one FMA per product, in f32. The f32 FMA path
// is at least as accurate as tf32, so the precision attribute is
// honoured from above. Dots whose accumulator has the mma layout use
// tensor cores instead (DotOpToLLVMMmaSync.cpp, DotOpToLLVMWgmma.cpp).
//
// lowerDotWithFma is the first, simple and always-correct lowering of
// `a @ b + acc`: both operands are staged in shared memory (as f32),
// then each thread computes its own accumulator slots with one FMA per
// k, loading each needed row of `a` and column of `b` once per k.
// Operand layouts do not matter here.
//
// An accumulator with the FMA layout (getFmaLayout: runs of 4 rows and 4
// columns per thread, no repeats) takes 16-byte shared loads: `a` is
// staged transposed ([K][M + 4], so a thread's 4 rows at one k are
// contiguous) and `b` row-major ([K][N + 4]), or `b` is read where a
// pipeline's buffer holds it. Per k a thread then loads one vector per run
// and issues 16 FMAs per pair of runs: 4 loads for 64 FMAs with 8 x 8
// elements per thread, where the generic path loads each row and column
// with its own 4-byte access. The 8 lanes along N read 128 consecutive
// bytes (no bank conflicts); lanes along M share addresses (broadcast).
//
//===----------------------------------------------------------------------===//

#include "DotOpToLLVM.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <map>

using namespace mlir;
using namespace mlir::tile;

/// `v` as f32 (the FMA paths stage and accumulate in f32).
static Value extendToF32(OpBuilder &b, Location loc, Value v) {
  Type f32 = b.getF32Type();
  return v.getType().isF32() ? v : (Value)arith::ExtFOp::create(b, loc, f32, v);
}

/// Replaces `op` with its f32 accumulator slots `acc`, narrowed to the
/// accumulator's element type.
static LogicalResult
replaceWithAccumulator(DotOp op, ValueRange acc,
                       ConversionPatternRewriter &rewriter) {
  Type accElem = op.getType().getElementType();
  SmallVector<Value> results;
  for (Value v : acc)
    results.push_back(accElem.isF32() ? v
                                      : (Value)arith::TruncFOp::create(
                                            rewriter, op.getLoc(), accElem, v));
  rewriter.replaceOpWithMultiple(op, {results});
  return success();
}

/// Elements of padding after each staged row of the FMA path (16 bytes:
/// keeps rows 16-byte aligned and spreads the transposed stores of `a`).
static constexpr int64_t kFmaRowPad = 4;

bool mlir::tile::isFmaLayoutDot(DotOp op) {
  RankedTensorType c = op.getType();
  if (!isFmaLayout(c.getEncoding()))
    return false;
  LayoutView view(c);
  // Repeated elements would be summed twice into the same registers' peers.
  return view.getCTATile(0) <= c.getDimSize(0) &&
         view.getCTATile(1) <= c.getDimSize(1);
}

/// The buffer an FMA-layout dot reads `b` from: an f32, unswizzled,
/// row-major stage read by a tile.local_load (see getStageRead).
static LocalLoadOp getFmaBufferOperandB(DotOp op) {
  if (!isFmaLayoutDot(op))
    return nullptr;
  LocalLoadOp read = getStageRead(op, op.getB());
  if (!read || !op.getB().getType().getElementType().isF32())
    return nullptr;
  SharedLayout layout = getSharedLayout(read.getBuffer());
  if (layout.isSwizzled() || layout.transposed || layout.mmaRowWarps ||
      layout.type.getRowStride() % 4)
    return nullptr;
  return read;
}

int64_t mlir::tile::getFmaLayoutDotSharedBytes(DotOp op) {
  if (!isFmaLayoutDot(op))
    return -1;
  int64_t m = op.getType().getDimSize(0), n = op.getType().getDimSize(1);
  int64_t k = op.getA().getType().getDimSize(1);
  int64_t elems = k * (m + kFmaRowPad);
  if (!getFmaBufferOperandB(op))
    elems += k * (n + kFmaRowPad);
  return elems * 4;
}

LogicalResult
mlir::tile::lowerDotWithFmaLayout(DotOp op, ValueRange aVals, ValueRange bVals,
                                  ValueRange accVals,
                                  ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  RankedTensorType aType = op.getA().getType(), bType = op.getB().getType();
  RankedTensorType cType = op.getType();
  int64_t m = aType.getDimSize(0), k = aType.getDimSize(1),
          n = bType.getDimSize(1);
  Type f32 = rewriter.getF32Type();
  auto toF32 = [&](Value v) { return extendToF32(rewriter, loc, v); };
  auto c32 = [&](int64_t v) { return i32Constant(rewriter, loc, v); };
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(rewriter, loc, x, y);
  };
  auto mul = [&](Value x, int64_t y) -> Value {
    return arith::MulIOp::create(rewriter, loc, x, c32(y));
  };

  Value smem = getSharedMemory(rewriter, loc);
  int64_t aStride = m + kFmaRowPad;
  // Earlier readers of the staging area (the previous step's loop) first.
  emitBarrier(rewriter, loc);
  // A thread holding runs of 4 rows of `a` (the FMA layout itself, which
  // the softmax's exponentiated tile shares with the accumulator) stores
  // each run at one k as one 16-byte vector: a quarter of the store
  // instructions, and a quarter of the bank conflicts of scalar stores
  // down a^T's columns.
  auto aIndex = emitSlotIndices(rewriter, loc, aType);
  auto aLayout = dyn_cast_or_null<BlockedEncodingAttr>(aType.getEncoding());
  bool aRowRuns = aLayout && aLayout.getRank() == 2 &&
                  aLayout.getSizePerThread()[0] % 4 == 0 &&
                  LayoutView(aType).getCTATile(0) <= m;
  if (aRowRuns) {
    LayoutView aView(aType);
    auto vec4 = VectorType::get({4}, f32);
    for (int64_t slot = 0; slot < aView.getNumSlots(); ++slot) {
      SmallVector<int64_t> coords = aView.getSlotCoords(slot);
      if (aView.getStaticOffset(0, coords[0]) % 4)
        continue;
      Value v = LLVM::UndefOp::create(rewriter, loc, vec4);
      for (int64_t i = 0; i < 4; ++i) {
        SmallVector<int64_t> at = coords;
        at[0] += i;
        v = LLVM::InsertElementOp::create(
            rewriter, loc, v, toF32(aVals[aView.getSlot(at)]), c32(i));
      }
      Value linear = add(mul(aIndex[slot][1], aStride), aIndex[slot][0]);
      LLVM::StoreOp::create(rewriter, loc, v,
                            gep(rewriter, loc, f32, smem, linear),
                            /*alignment=*/16);
    }
  } else {
    for (auto [slot, index] : llvm::enumerate(aIndex))
      LLVM::StoreOp::create(
          rewriter, loc, toF32(aVals[slot]),
          gep(rewriter, loc, f32, smem, add(mul(index[1], aStride), index[0])));
  }
  // b's row r starts at bSmem + bBase + r * bStride (f32 elements).
  LocalLoadOp bBuffer = getFmaBufferOperandB(op);
  Value bSmem = smem;
  int64_t bStride = n + kFmaRowPad, bBase = k * aStride;
  if (bBuffer) {
    bStride =
        cast<SharedBufferType>(bBuffer.getBuffer().getType()).getRowStride();
    bBase = 0;
    bSmem = emitStageBase(rewriter, loc, getSharedLayout(bBuffer.getBuffer()),
                          rewriter.getRemappedValue(bBuffer.getBuffer()),
                          rewriter.getRemappedValue(bBuffer.getStage()));
  } else {
    for (auto [slot, index] :
         llvm::enumerate(emitSlotIndices(rewriter, loc, bType)))
      LLVM::StoreOp::create(
          rewriter, loc, toF32(bVals[slot]),
          gep(rewriter, loc, f32, smem,
              add(mul(index[0], bStride), add(index[1], c32(bBase)))));
  }
  emitBarrier(rewriter, loc);

  // The runs of 4 rows and columns this thread's slots lie in: each run's
  // first index (a multiple of 4), and per slot its run and position.
  LayoutView view(cType);
  auto cIndex = emitSlotIndices(rewriter, loc, cType);
  std::map<int64_t, unsigned> rowRunOf, colRunOf; // static start -> run
  SmallVector<Value> rowStart, colStart;
  struct SlotPlace {
    unsigned rowRun, row, colRun, col;
  };
  SmallVector<SlotPlace> places;
  auto runOf = [&](std::map<int64_t, unsigned> &runs,
                   SmallVector<Value> &starts, int64_t offset, Value index) {
    int64_t first = offset - offset % 4;
    auto [it, inserted] = runs.try_emplace(first, starts.size());
    if (inserted)
      starts.push_back(
          arith::SubIOp::create(rewriter, loc, index, c32(offset % 4)));
    return it->second;
  };
  for (int64_t slot = 0; slot < view.getNumSlots(); ++slot) {
    SmallVector<int64_t> coords = view.getSlotCoords(slot);
    int64_t r = view.getStaticOffset(0, coords[0]);
    int64_t c = view.getStaticOffset(1, coords[1]);
    SlotPlace place;
    place.rowRun = runOf(rowRunOf, rowStart, r, cIndex[slot][0]);
    place.colRun = runOf(colRunOf, colStart, c, cIndex[slot][1]);
    place.row = (unsigned)(r % 4);
    place.col = (unsigned)(c % 4);
    places.push_back(place);
  }
  for (Value &start : colStart)
    start = add(start, c32(bBase));

  SmallVector<Value> init;
  for (Value v : accVals)
    init.push_back(toF32(v));
  auto vec4 = VectorType::get({4}, f32);
  // Unrolled by up to 4 k: the loads of the next k can then be issued
  // while the FMAs of this one run (few warps per SM hide little latency
  // at these register counts).
  int64_t unroll = k % 4 == 0 ? 4 : k % 2 == 0 ? 2 : 1;
  auto loop = scf::ForOp::create(
      rewriter, loc, c32(0), c32(k), c32(unroll), init,
      [&](OpBuilder &b, Location l, Value k0, ValueRange accIn) {
        auto load4 = [&](Value base, Value rowOffset, Value start) {
          Value ptr = gep(b, l, f32, base,
                          arith::AddIOp::create(b, l, rowOffset, start));
          Value v = LLVM::LoadOp::create(b, l, vec4, ptr, /*alignment=*/16);
          SmallVector<Value> parts;
          for (int64_t i = 0; i < 4; ++i)
            parts.push_back(
                LLVM::ExtractElementOp::create(b, l, v, i32Constant(b, l, i)));
          return parts;
        };
        SmallVector<Value> acc(accIn.begin(), accIn.end());
        for (int64_t u = 0; u < unroll; ++u) {
          Value kk =
              u ? (Value)arith::AddIOp::create(b, l, k0, i32Constant(b, l, u))
                : k0;
          Value aRow =
              arith::MulIOp::create(b, l, kk, i32Constant(b, l, aStride));
          Value bRow =
              arith::MulIOp::create(b, l, kk, i32Constant(b, l, bStride));
          SmallVector<SmallVector<Value>> aRuns, bRuns;
          for (Value start : rowStart)
            aRuns.push_back(load4(smem, aRow, start));
          for (Value start : colStart)
            bRuns.push_back(load4(bSmem, bRow, start));
          for (auto [slot, place] : llvm::enumerate(places))
            acc[slot] =
                math::FmaOp::create(b, l, aRuns[place.rowRun][place.row],
                                    bRuns[place.colRun][place.col], acc[slot]);
        }
        scf::YieldOp::create(b, l, acc);
      });
  return replaceWithAccumulator(op, loop.getResults(), rewriter);
}

LogicalResult mlir::tile::lowerDotWithFma(DotOp op, ValueRange aSlots,
                                          ValueRange bSlots,
                                          ValueRange accSlots,
                                          ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  RankedTensorType aType = op.getA().getType(), bType = op.getB().getType();
  RankedTensorType cType = op.getType();
  int64_t m = aType.getDimSize(0), k = aType.getDimSize(1),
          n = bType.getDimSize(1);
  Type f32 = rewriter.getF32Type();
  auto toF32 = [&](Value v) { return extendToF32(rewriter, loc, v); };

  // Stage a (row-major m x k) and then b (row-major k x n).
  Value smem = getSharedMemory(rewriter, loc);
  emitBarrier(rewriter, loc);
  auto stage = [&](RankedTensorType type, ValueRange values, int64_t base) {
    for (auto [slot, index] :
         llvm::enumerate(emitSlotIndices(rewriter, loc, type))) {
      Value linear = emitLinearIndex(rewriter, loc, index, type.getShape());
      if (base)
        linear = arith::AddIOp::create(rewriter, loc, linear,
                                       i32Constant(rewriter, loc, base));
      LLVM::StoreOp::create(rewriter, loc, toF32(values[slot]),
                            gep(rewriter, loc, f32, smem, linear));
    }
  };
  stage(aType, aSlots, 0);
  stage(bType, bSlots, m * k);
  emitBarrier(rewriter, loc);

  // Distinct rows and columns of this thread's accumulator slots.
  auto cIndices = emitSlotIndices(rewriter, loc, cType);
  LayoutView cView(cType);
  std::map<int64_t, unsigned> rowOf, colOf; // slot coordinate -> position
  SmallVector<Value> rows, cols;
  SmallVector<std::pair<unsigned, unsigned>> slotRowCol;
  for (int64_t slot = 0; slot < cView.getNumSlots(); ++slot) {
    SmallVector<int64_t> coords = cView.getSlotCoords(slot);
    int64_t r = coords[cView.getRootDim(0)], c = coords[cView.getRootDim(1)];
    if (!rowOf.count(r)) {
      rowOf[r] = rows.size();
      rows.push_back(cIndices[slot][0]);
    }
    if (!colOf.count(c)) {
      colOf[c] = cols.size();
      cols.push_back(cIndices[slot][1]);
    }
    slotRowCol.push_back({rowOf[r], colOf[c]});
  }
  // Row offsets into a, column offsets into b.
  SmallVector<Value> aRowBase, bCol;
  for (Value r : rows)
    aRowBase.push_back(
        arith::MulIOp::create(rewriter, loc, r, i32Constant(rewriter, loc, k)));
  for (Value c : cols)
    bCol.push_back(arith::AddIOp::create(rewriter, loc, c,
                                         i32Constant(rewriter, loc, m * k)));

  SmallVector<Value> init;
  for (Value v : accSlots)
    init.push_back(toF32(v));
  Value lb = i32Constant(rewriter, loc, 0);
  Value ub = i32Constant(rewriter, loc, k);
  Value step = i32Constant(rewriter, loc, 1);
  auto loop = scf::ForOp::create(
      rewriter, loc, lb, ub, step, init,
      [&](OpBuilder &b, Location l, Value kk, ValueRange acc) {
        SmallVector<Value> aVals, bVals;
        for (Value base : aRowBase)
          aVals.push_back(LLVM::LoadOp::create(
              b, l, f32,
              gep(b, l, f32, smem, arith::AddIOp::create(b, l, base, kk))));
        Value kRow = arith::MulIOp::create(b, l, kk, i32Constant(b, l, n));
        for (Value c : bCol)
          bVals.push_back(LLVM::LoadOp::create(
              b, l, f32,
              gep(b, l, f32, smem, arith::AddIOp::create(b, l, kRow, c))));
        SmallVector<Value> next;
        for (auto [slot, rc] : llvm::enumerate(slotRowCol))
          next.push_back(math::FmaOp::create(b, l, aVals[rc.first],
                                             bVals[rc.second], acc[slot]));
        scf::YieldOp::create(b, l, next);
      });

  return replaceWithAccumulator(op, loop.getResults(), rewriter);
}
