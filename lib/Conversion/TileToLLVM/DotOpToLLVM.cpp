//===- DotOpToLLVM.cpp - tile.dot as FMAs over shared memory --------------===//
//
// The first, simple and always-correct lowering of `a @ b + acc`: both
// operands are staged in shared memory (as f32), then each thread computes
// its own accumulator slots with one FMA per k, loading each needed row of
// `a` and column of `b` once per k. Operand layouts do not matter here.
// The f32
// FMA path is at least as accurate as tf32, so the precision attribute is
// honoured from above. Dots whose accumulator has the mma layout use tensor
// cores instead (below).
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <map>

using namespace mlir;
using namespace mlir::tile;

//===----------------------------------------------------------------------===//
// Tensor cores: mma.sync
//===----------------------------------------------------------------------===//
//
// When layout assignment gave the accumulator the mma layout (see
// getMmaLayout), the accumulator slots are mma.sync's C/D fragments: for
// each 16x8 tile, slots (2j, 2n), (2j, 2n+1), (2j+1, 2n), (2j+1, 2n+1) hold
// rows g and g+8 (g = lane / 4), columns 2t and 2t+1 (t = lane % 4). The
// operands are staged in shared memory (a row-major, b transposed, rows
// padded by 16 bytes against bank conflicts) and each thread reads its A
// and B fragments with 32-bit shared loads: pairs of consecutive k.

/// ldmatrix.x4 (or .x2), from four (two) 8x8 16-bit matrices in shared
/// memory whose rows start at the addresses lanes 0-7, 8-15, ... give: each
/// lane receives one 32-bit register per matrix. Without .trans it holds
/// the elements (lane / 4, 2 * (lane % 4)) and (lane / 4, 2 * (lane % 4) +
/// 1) of the matrix (an A fragment; for tf32, whose 32-bit elements fill
/// two 16-bit columns, the element (lane / 4, lane % 4)); with .trans the
/// elements (2 * (lane % 4), lane / 4) and (2 * (lane % 4) + 1, lane / 4):
/// an m16n8k16 B fragment when the rows are k.
static SmallVector<Value> emitLdmatrix(OpBuilder &b, Location loc,
                                       Value address, int64_t count,
                                       bool trans) {
  std::string shape = std::string("ldmatrix.sync.aligned.m8n8.x") +
                      (count == 4 ? "4" : "2") + (trans ? ".trans" : "") +
                      ".shared.b16 ";
  std::string text = shape + (count == 4 ? "{$0,$1,$2,$3}, [$4];"
                                         : "{$0,$1}, [$2];");
  std::string constraints = count == 4 ? "=r,=r,=r,=r,r" : "=r,=r,r";
  // A shared-memory read: not reorderable across the staging barrier.
  return emitInlineAsm(b, loc, SmallVector<Type>(count, b.getI32Type()),
                       address, text, constraints, /*hasSideEffects=*/true);
}

/// Two 16-bit values as one 32-bit fragment register (`lo` in the low half).
static Value packPair(OpBuilder &b, Location loc, Type elem, Value lo,
                      Value hi) {
  Value v = LLVM::UndefOp::create(b, loc, VectorType::get({2}, elem));
  v = LLVM::InsertElementOp::create(b, loc, v, lo, i32Constant(b, loc, 0));
  v = LLVM::InsertElementOp::create(b, loc, v, hi, i32Constant(b, loc, 1));
  return LLVM::BitcastOp::create(b, loc, b.getI32Type(), v);
}

static SmallVector<Value> emitMma(OpBuilder &b, Location loc, StringRef kind,
                                  ArrayRef<Value> aRegs, ArrayRef<Value> bRegs,
                                  ArrayRef<Value> acc) {
  std::string asmText =
      ("mma.sync.aligned." + kind +
       " {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11,$12,$13};")
          .str();
  SmallVector<Value> operands(aRegs);
  operands.append(bRegs.begin(), bRegs.end());
  operands.append(acc.begin(), acc.end());
  return emitInlineAsm(b, loc, SmallVector<Type>(4, b.getF32Type()), operands,
                       asmText, "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f",
                       /*hasSideEffects=*/false);
}

/// Whether `a` of a tensor-core dot is used from registers: it has the
/// accumulator's mma layout with all warps along M (see lowerDotWithMma).
static bool isAInRegisters(DotOp op) {
  auto aLayout =
      dyn_cast_or_null<BlockedEncodingAttr>(op.getA().getType().getEncoding());
  return aLayout && isMmaLayout(op.getType().getEncoding()) &&
         aLayout == op.getType().getEncoding() &&
         aLayout.getWarpsPerCTA()[1] == 1;
}

/// The tile.local_load that `operand` of a dot is, when the dot may read
/// the stage directly: the read is in the dot's block, with no copy
/// between the two that could overwrite the stage.
static LocalLoadOp getStageRead(DotOp op, Value operand) {
  auto read = operand.getDefiningOp<LocalLoadOp>();
  if (!read || read->getBlock() != op->getBlock())
    return nullptr;
  for (Operation *it = read->getNextNode(); it && it != op.getOperation();
       it = it->getNextNode())
    if (isa<AsyncCopyOp>(it))
      return nullptr;
  return read;
}

/// The tile.local_load that `operand` of an mma.sync dot reads its
/// fragments from (see getStageRead). Swizzled buffers (laid out for a
/// wgmma) are read through the tile.local_load's values instead.
static LocalLoadOp getBufferRead(DotOp op, Value operand) {
  LocalLoadOp read = getStageRead(op, operand);
  if (!read || !isMmaLayout(op.getType().getEncoding()) ||
      getSharedLayout(read.getBuffer()).isSwizzled())
    return nullptr;
  return read;
}

/// Buffers a dot takes its fragments from (row-major, as the dot would
/// stage them): `b`'s when `a` is in registers or read from a buffer too,
/// `a`'s when it is not in registers and `b` is read from a buffer.
static LocalLoadOp getBufferOperandB(DotOp op) {
  LocalLoadOp b = getBufferRead(op, op.getB());
  if (b && (isAInRegisters(op) || getBufferRead(op, op.getA())))
    return b;
  return nullptr;
}
static LocalLoadOp getBufferOperandA(DotOp op) {
  if (isAInRegisters(op) || !getBufferRead(op, op.getB()))
    return nullptr;
  return getBufferRead(op, op.getA());
}

bool mlir::tile::dotReadsBFromBuffer(DotOp op) {
  return getBufferOperandB(op) != nullptr;
}

static LogicalResult lowerDotWithMma(DotOp op, ValueRange aVals,
                                     ValueRange bVals, ValueRange accVals,
                                     ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  RankedTensorType aType = op.getA().getType(), bType = op.getB().getType();
  RankedTensorType cType = op.getType();
  Type elem = aType.getElementType();
  bool isTF32 = elem.isF32();
  int64_t bytes = isTF32 ? 4 : 2;
  int64_t k = aType.getDimSize(1);
  int64_t pad = 16 / bytes, stride = k + pad; // elements per staged row
  int64_t m = aType.getDimSize(0);
  int64_t kStep = isTF32 ? 8 : 16;
  Type i8 = rewriter.getI8Type(), i32 = rewriter.getI32Type();
  InputPrecision precision = op.getPrecision();
  // tf32 operands are rounded once, where they are staged (or, for `a` in
  // registers, where its fragments are formed), not at every fragment read:
  // each staged element is read by every warp along the other dimension.
  bool roundOnce = isTF32 && precision == InputPrecision::TF32;
  auto staged = [&](Value v) -> Value {
    return roundOnce ? roundToTF32Bits(rewriter, loc, v) : v;
  };
  Type stagedType = roundOnce ? i32 : elem;

  // Stage a ([M][stride], unless it is used from registers) then b
  // (transposed, [N][stride], or row-major; see below), unless b is read
  // from a pipeline's shared buffer: then nothing is staged and the
  // barriers of tile.async_wait already order the accesses.
  LocalLoadOp bBuffer = getBufferOperandB(op);
  Value smem = getSharedMemory(rewriter, loc);
  if (!bBuffer)
    emitBarrier(rewriter, loc);
  auto stage = [&](RankedTensorType type, ValueRange values, bool transpose,
                   int64_t base) {
    for (auto [slot, index] :
         llvm::enumerate(emitSlotIndices(rewriter, loc, type))) {
      Value row = transpose ? index[1] : index[0];
      Value col = transpose ? index[0] : index[1];
      Value linear = arith::AddIOp::create(
          rewriter, loc,
          arith::MulIOp::create(rewriter, loc, row,
                                i32Constant(rewriter, loc, stride)),
          col);
      if (base)
        linear = arith::AddIOp::create(rewriter, loc, linear,
                                       i32Constant(rewriter, loc, base));
      LLVM::StoreOp::create(rewriter, loc, staged(values[slot]),
                            gep(rewriter, loc, elem, smem, linear));
    }
  };
  // When `a` itself has the accumulator's mma layout with all warps along
  // M (wn = 1), each thread already holds the rows and k columns of its A
  // fragments (the exponentiated tile of an online softmax is such a
  // value): no staging for `a`. For tf32 the k order inside each 8-column
  // step is permuted (fragment column t <-> tile column 2t, t + 4 <-> 2t +
  // 1); `b` is read with the same permutation, so the sum is unchanged.
  bool aInRegisters = isAInRegisters(op);
  LocalLoadOp aBuffer = getBufferOperandA(op);
  if (!aInRegisters && !aBuffer)
    stage(aType, aVals, /*transpose=*/false, 0);
  // With `a` in registers, b is read at rows kk + 2t, kk + 2t + 1 (and,
  // for f16, + 8 and + 9) of column g: a transposed copy would make those
  // contiguous, but writing it costs one store per element, with bank
  // conflicts. Staging b row-major ([K][N + pad]) lets each thread store
  // its runs of consecutive n as 16-byte vectors; the fragment reads are
  // then one element each (paired into 32 bits for f16), conflict-free
  // thanks to the pad.
  //
  // `bSmem` is where b's rows start (in units of `elem`, b's row r at
  // bSmem + bBase + r * bStride): the staging area, or the buffer's stage.
  // A buffer holds b as loaded: tf32 fragments read from it are rounded at
  // each read. Unrounded, the tensor cores ignore the low 13 bits
  // (truncation): ~4.5e-4 normwise for softmax(X) @ V against ~2.8e-4 with
  // both operands rounded (a float64 simulation at d2 = 64 to 4096), but
  // up to 1.1e-3 on peaked softmax rows (inputs scaled by 4, where one
  // weight dominates each output), beyond tf32's 1e-3.
  int64_t bStride = bType.getDimSize(1) + pad, bBase = m * stride;
  Value bSmem = smem;
  bool bRowMajor = aInRegisters || bBuffer;
  if (bBuffer) {
    auto bufferType = cast<SharedBufferType>(bBuffer.getBuffer().getType());
    bStride = bufferType.getRowStride();
    bBase = 0;
    bSmem = emitStageBase(rewriter, loc, getSharedLayout(bBuffer.getBuffer()),
                          rewriter.getRemappedValue(bBuffer.getBuffer()),
                          rewriter.getRemappedValue(bBuffer.getStage()));
  } else if (!bRowMajor) {
    stage(bType, bVals, /*transpose=*/true, bBase);
  } else {
    LayoutView bView(bType);
    int64_t run =
        bView.getFastTensorDim() == 1u
            ? std::min<int64_t>(
                  bView.getSizePerThread(bView.getFastRootDim()), 16 / bytes)
            : 1;
    auto bIndex = emitSlotIndices(rewriter, loc, bType);
    for (size_t first = 0; first < bIndex.size(); first += run) {
      Value linear = arith::AddIOp::create(
          rewriter, loc,
          arith::MulIOp::create(rewriter, loc, bIndex[first][0],
                                i32Constant(rewriter, loc, bStride)),
          arith::AddIOp::create(rewriter, loc, bIndex[first][1],
                                i32Constant(rewriter, loc, bBase)));
      Value addr = gep(rewriter, loc, elem, smem, linear);
      if (run == 1) {
        LLVM::StoreOp::create(rewriter, loc, staged(bVals[first]), addr);
        continue;
      }
      auto vecType = VectorType::get({run}, stagedType);
      Value v = LLVM::UndefOp::create(rewriter, loc, vecType);
      for (int64_t i = 0; i < run; ++i)
        v = LLVM::InsertElementOp::create(rewriter, loc, v,
                                          staged(bVals[first + i]),
                                          i32Constant(rewriter, loc, i));
      LLVM::StoreOp::create(rewriter, loc, v, addr, run * bytes);
    }
  }
  if (!bBuffer)
    emitBarrier(rewriter, loc);

  // This thread's rows (per pair of row repetitions) and B columns (per
  // n-tile), from the accumulator's slot indices.
  LayoutView view(cType);
  auto cIndex = emitSlotIndices(rewriter, loc, cType);
  ThreadIds ids = getThreadIds(rewriter, loc);
  Value g = arith::ShRUIOp::create(rewriter, loc, ids.lane,
                                   i32Constant(rewriter, loc, 2));
  Value t = arith::AndIOp::create(rewriter, loc, ids.lane,
                                  i32Constant(rewriter, loc, 3));
  Value twoT = arith::ShLIOp::create(rewriter, loc, t,
                                     i32Constant(rewriter, loc, 1));
  int64_t rowReps = view.getSlotsAlong(0), colSlots = view.getSlotsAlong(1);
  int64_t mTiles = rowReps / 2, nTiles = colSlots / 2;
  auto slotOf = [&](int64_t r, int64_t c) {
    return view.getSlot({r, c});
  };
  SmallVector<Value> rowLo, rowHi, bCol;
  for (int64_t j = 0; j < mTiles; ++j) {
    rowLo.push_back(cIndex[slotOf(2 * j, 0)][0]);
    rowHi.push_back(cIndex[slotOf(2 * j + 1, 0)][0]);
  }
  for (int64_t n = 0; n < nTiles; ++n) {
    // Column 2t of this n-tile minus 2t is the tile's first column.
    Value first = arith::SubIOp::create(rewriter, loc,
                                        cIndex[slotOf(0, 2 * n)][1], twoT);
    bCol.push_back(arith::AddIOp::create(
        rewriter, loc, first, i32Constant(rewriter, loc, m)));
  }
  // Fragment loads: 32 bits at element (row, col) of the staged operand.
  auto load32 = [&](Value row, int64_t colOffset, Value col) -> Value {
    Value linear = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, row,
                              i32Constant(rewriter, loc, stride)),
        arith::AddIOp::create(rewriter, loc, col,
                              i32Constant(rewriter, loc, colOffset)));
    Value byteOffset = arith::MulIOp::create(
        rewriter, loc, linear, i32Constant(rewriter, loc, bytes));
    return LLVM::LoadOp::create(rewriter, loc, i32,
                                gep(rewriter, loc, i8, smem, byteOffset), 4);
  };
  // 16-bit b staged row-major is read with ldmatrix.trans: lane l gives
  // the address of row l % 16 of the step, in n-tile n (lanes 0-15) or
  // n + 1 (lanes 16-31). ldmatrixBase holds, per pair of n-tiles, that
  // address at step 0 as a 32-bit shared-memory byte address.
  bool useLdmatrix = bRowMajor && !isTF32;
  SmallVector<Value> ldmatrixBase;
  if (useLdmatrix) {
    Value smemAddress = LLVM::PtrToIntOp::create(rewriter, loc, i32, bSmem);
    Value laneRow = arith::AndIOp::create(rewriter, loc, ids.lane,
                                          i32Constant(rewriter, loc, 15));
    Value upperHalf = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::uge, ids.lane,
        i32Constant(rewriter, loc, 16));
    Value rowOffset = arith::MulIOp::create(
        rewriter, loc, laneRow, i32Constant(rewriter, loc, bStride));
    for (int64_t n = 0; n < nTiles; n += 2) {
      Value col = bCol[n];
      if (n + 1 < nTiles)
        col = arith::SelectOp::create(rewriter, loc, upperHalf, bCol[n + 1],
                                      col);
      // bCol counts from the start of a's staging area (m); b starts at
      // bBase.
      Value linear = arith::AddIOp::create(
          rewriter, loc, rowOffset,
          arith::AddIOp::create(rewriter, loc, col,
                                i32Constant(rewriter, loc, bBase - m)));
      ldmatrixBase.push_back(arith::AddIOp::create(
          rewriter, loc, smemAddress,
          arith::MulIOp::create(rewriter, loc, linear,
                                i32Constant(rewriter, loc, bytes))));
    }
  }
  // `a` read from a buffer: for ldmatrix.x4, lanes 0-7 and 16-23 give the
  // addresses of the m-tile's "lo" rows (fragment rows g), lanes 8-15 and
  // 24-31 those of its "hi" rows (g + 8), at k and k + half (lanes 16-31).
  // The two groups of 8 rows are each consecutive in the tile, but not
  // adjacent to each other when several warps share M (the layout
  // interleaves the warps' rows).
  SmallVector<Value> aLdmatrixBase;
  if (aBuffer) {
    auto bufferType = cast<SharedBufferType>(aBuffer.getBuffer().getType());
    Value base = LLVM::PtrToIntOp::create(
        rewriter, loc, i32,
        emitStageBase(rewriter, loc, getSharedLayout(aBuffer.getBuffer()),
                      rewriter.getRemappedValue(aBuffer.getBuffer()),
                      rewriter.getRemappedValue(aBuffer.getStage())));
    Value laneRow = arith::AndIOp::create(rewriter, loc, ids.lane,
                                          i32Constant(rewriter, loc, 7));
    Value hiRows = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ne,
        arith::AndIOp::create(rewriter, loc, ids.lane,
                              i32Constant(rewriter, loc, 8)),
        i32Constant(rewriter, loc, 0));
    Value laneCol = arith::MulIOp::create(
        rewriter, loc,
        arith::ShRUIOp::create(rewriter, loc, ids.lane,
                               i32Constant(rewriter, loc, 4)),
        i32Constant(rewriter, loc, kStep / 2));
    for (int64_t j = 0; j < mTiles; ++j) {
      // rowLo[j] (rowHi[j]) is row g of the lo (hi) group: the group's
      // first row is rowLo[j] - g (rowHi[j] - g).
      Value group = arith::SelectOp::create(rewriter, loc, hiRows, rowHi[j],
                                            rowLo[j]);
      Value row = arith::AddIOp::create(
          rewriter, loc, arith::SubIOp::create(rewriter, loc, group, g),
          laneRow);
      Value linear = arith::AddIOp::create(
          rewriter, loc,
          arith::MulIOp::create(
              rewriter, loc, row,
              i32Constant(rewriter, loc, bufferType.getRowStride())),
          laneCol);
      aLdmatrixBase.push_back(arith::AddIOp::create(
          rewriter, loc, base,
          arith::MulIOp::create(rewriter, loc, linear,
                                i32Constant(rewriter, loc, bytes))));
    }
  }
  // k offset of this lane in a step (tf32 with `a` in registers: the
  // permuted order, see above).
  Value colBase = isTF32 && !aInRegisters ? t : twoT;
  LayoutView aView(aType);
  auto aSlot = [&](int64_t rowCoord, int64_t colCoord) -> Value {
    return aVals[aView.getSlot({rowCoord, colCoord})];
  };
  // Two 16-bit values as one 32-bit fragment register.
  auto pack = [&](Value lo, Value hi) -> Value {
    return packPair(rewriter, loc, elem, lo, hi);
  };
  auto bits = [&](Value f) -> Value {
    return arith::BitcastOp::create(rewriter, loc, i32, f);
  };

  // Tensor cores do not round their f32 accumulation to nearest, so over a
  // long d2 loop the error grows with the number of mma steps. tf32x3
  // promises f32-level error: its products accumulate in a fresh fragment
  // for this dot only, which is then added to the running accumulator with
  // ordinary (round-to-nearest) f32 additions.
  bool separateSum = isTF32 && precision == InputPrecision::TF32x3;
  SmallVector<Value> acc(accVals.begin(), accVals.end());
  if (separateSum) {
    Value zero = arith::ConstantOp::create(rewriter, loc,
                                           rewriter.getF32FloatAttr(0.0));
    std::fill(acc.begin(), acc.end(), zero);
  }
  std::string kind =
      isTF32 ? "m16n8k8.row.col.f32.tf32.tf32.f32"
             : (elem.isBF16() ? "m16n8k16.row.col.f32.bf16.bf16.f32"
                              : "m16n8k16.row.col.f32.f16.f16.f32");
  for (int64_t kk = 0; kk < k; kk += kStep) {
    Value kBase = arith::AddIOp::create(rewriter, loc, colBase,
                                        i32Constant(rewriter, loc, kk));
    int64_t half = kStep / 2; // the second k group of a fragment
    // A fragments: (lo, k), (hi, k), (lo, k + half), (hi, k + half).
    SmallVector<SmallVector<Value>> aFrag;
    for (int64_t j = 0; j < mTiles; ++j) {
      if (aBuffer) {
        // One ldmatrix.x4 per m-tile: rows 0-7 / 8-15 at k and k + half.
        Value address = arith::AddIOp::create(
            rewriter, loc, aLdmatrixBase[j],
            i32Constant(rewriter, loc, kk * bytes));
        SmallVector<Value> regs =
            emitLdmatrix(rewriter, loc, address, 4, /*trans=*/false);
        if (roundOnce)
          for (Value &r : regs)
            r = roundToTF32Bits(rewriter, loc, r);
        aFrag.push_back(regs);
        continue;
      }
      if (!aInRegisters) {
        aFrag.push_back(
            {load32(rowLo[j], 0, kBase), load32(rowHi[j], 0, kBase),
             load32(rowLo[j], half, kBase), load32(rowHi[j], half, kBase)});
        continue;
      }
      // Column coordinates of this step: pairs (2t, 2t+1) of each 8-column
      // group q = kk / 8.
      int64_t c = 2 * (kk / 8);
      if (isTF32) {
        auto fragment = [&](int64_t row, int64_t col) -> Value {
          Value v = aSlot(row, col);
          return roundOnce ? roundToTF32Bits(rewriter, loc, v) : bits(v);
        };
        aFrag.push_back({fragment(2 * j, c), fragment(2 * j + 1, c),
                         fragment(2 * j, c + 1), fragment(2 * j + 1, c + 1)});
      } else {
        aFrag.push_back({pack(aSlot(2 * j, c), aSlot(2 * j, c + 1)),
                         pack(aSlot(2 * j + 1, c), aSlot(2 * j + 1, c + 1)),
                         pack(aSlot(2 * j, c + 2), aSlot(2 * j, c + 3)),
                         pack(aSlot(2 * j + 1, c + 2),
                              aSlot(2 * j + 1, c + 3))});
      }
    }
    // With `a` in registers, tf32's second k group is the odd column of
    // each pair.
    int64_t bHalf = isTF32 && aInRegisters ? 1 : half;
    // B fragments from b transposed: (col g, k), (col g, k + half).
    SmallVector<SmallVector<Value>> bFrag;
    if (useLdmatrix) {
      // 16-bit b, row-major: one ldmatrix.x4.trans gives two n-tiles' B
      // fragments (rows k..k+7 and k+8..k+15 of each), see ldmatrixBase.
      for (int64_t n = 0; n < nTiles; n += 2) {
        int64_t count = n + 1 < nTiles ? 4 : 2;
        Value address = arith::AddIOp::create(
            rewriter, loc, ldmatrixBase[n / 2],
            i32Constant(rewriter, loc, kk * bStride * bytes));
        SmallVector<Value> regs =
            emitLdmatrix(rewriter, loc, address, count, /*trans=*/true);
        bFrag.push_back({regs[0], regs[1]});
        if (count == 4)
          bFrag.push_back({regs[2], regs[3]});
      }
    }
    for (int64_t n = 0; n < nTiles && !useLdmatrix; ++n) {
      Value col = arith::AddIOp::create(rewriter, loc, bCol[n], g);
      if (bRowMajor) {
        // Row kBase + rowOffset of the row-major copy, column col - m.
        auto loadRow = [&](int64_t rowOffset, Type type) -> Value {
          Value row = arith::AddIOp::create(
              rewriter, loc, kBase, i32Constant(rewriter, loc, rowOffset));
          Value linear = arith::AddIOp::create(
              rewriter, loc,
              arith::MulIOp::create(rewriter, loc, row,
                                    i32Constant(rewriter, loc, bStride)),
              arith::AddIOp::create(rewriter, loc, col,
                                    i32Constant(rewriter, loc,
                                                bBase - m)));
          return LLVM::LoadOp::create(rewriter, loc, type,
                                      gep(rewriter, loc, type, bSmem, linear),
                                      type.getIntOrFloatBitWidth() / 8);
        };
        if (isTF32) {
          auto fragment = [&](int64_t row) -> Value {
            Value v = loadRow(row, i32);
            return bBuffer && roundOnce ? roundToTF32Bits(rewriter, loc, v) : v;
          };
          bFrag.push_back({fragment(0), fragment(bHalf)});
        } else {
          Type i16 = rewriter.getI16Type();
          auto pair = [&](int64_t row) -> Value {
            auto vecType = VectorType::get({2}, i16);
            Value v = LLVM::UndefOp::create(rewriter, loc, vecType);
            v = LLVM::InsertElementOp::create(rewriter, loc, v,
                                              loadRow(row, i16),
                                              i32Constant(rewriter, loc, 0));
            v = LLVM::InsertElementOp::create(rewriter, loc, v,
                                              loadRow(row + 1, i16),
                                              i32Constant(rewriter, loc, 1));
            return LLVM::BitcastOp::create(rewriter, loc, i32, v);
          };
          bFrag.push_back({pair(0), pair(half)});
        }
        continue;
      }
      bFrag.push_back({load32(col, 0, kBase), load32(col, bHalf, kBase)});
    }
    for (int64_t j = 0; j < mTiles; ++j)
      for (int64_t n = 0; n < nTiles; ++n) {
        int64_t s00 = slotOf(2 * j, 2 * n), s01 = slotOf(2 * j, 2 * n + 1),
                s10 = slotOf(2 * j + 1, 2 * n),
                s11 = slotOf(2 * j + 1, 2 * n + 1);
        SmallVector<Value> c{acc[s00], acc[s01], acc[s10], acc[s11]};
        if (!isTF32 || precision == InputPrecision::TF32) {
          c = emitMma(rewriter, loc, kind, aFrag[j], bFrag[n], c);
        } else {
          // tf32x3: x = big + small with both parts in tf32; the product
          // keeps big*big + big*small + small*big (f32-level error).
          auto split = [&](ArrayRef<Value> regs, SmallVector<Value> &big,
                           SmallVector<Value> &small) {
            for (Value v : regs) {
              Value hi = roundToTF32Bits(rewriter, loc, v);
              Value rest = arith::SubFOp::create(
                  rewriter, loc,
                  arith::BitcastOp::create(rewriter, loc,
                                           rewriter.getF32Type(), v),
                  arith::BitcastOp::create(rewriter, loc,
                                           rewriter.getF32Type(), hi));
              big.push_back(hi);
              small.push_back(roundToTF32Bits(rewriter, loc, rest));
            }
          };
          SmallVector<Value> aBig, aSmall, bBig, bSmall;
          split(aFrag[j], aBig, aSmall);
          split(bFrag[n], bBig, bSmall);
          c = emitMma(rewriter, loc, kind, aSmall, bBig, c);
          c = emitMma(rewriter, loc, kind, aBig, bSmall, c);
          c = emitMma(rewriter, loc, kind, aBig, bBig, c);
        }
        acc[s00] = c[0];
        acc[s01] = c[1];
        acc[s10] = c[2];
        acc[s11] = c[3];
      }
  }
  if (separateSum)
    for (auto [sum, running] : llvm::zip(acc, accVals))
      sum = arith::AddFOp::create(rewriter, loc, running, sum);
  rewriter.replaceOpWithMultiple(op, {acc});
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor cores on Hopper: wgmma
//===----------------------------------------------------------------------===//
//
// wgmma.mma_async is issued by a warpgroup (four consecutive warps) and
// reads both operands from shared memory through 64-bit descriptors; its
// m64nNk16 accumulator gives warp i of the group rows 16i + g and
// 16i + g + 8 of a 64-row slice, in registers ordered as mma.sync's C
// fragments over the N / 8 column tiles. The dot's mma layout (all warps
// along M) holds exactly those registers once the `a` buffer stores its
// rows in wgmma order (SharedLayout::mmaRowWarps); `b` is read transposed
// (MN-major), as tile blocks are row-major.

/// Whether a dot's accumulator is the constant zero tile: its products
/// then need no separate sum (tf32x3).
static bool isZeroTile(Value acc) {
  if (auto splat = acc.getDefiningOp<SplatOp>())
    return matchPattern(splat.getSrc(), m_AnyZeroFloat());
  return matchPattern(acc, m_AnyZeroFloat());
}

void mlir::tile::planWarpgroupMma(func::FuncOp kernel) {
  auto numWarps = (unsigned)getNumWarps(kernel);
  MLIRContext *ctx = kernel.getContext();
  Type i64 = IntegerType::get(ctx, 64);
  bool any = false;
  kernel.walk([&](DotOp dot) {
    auto layout =
        dyn_cast_or_null<BlockedEncodingAttr>(dot.getType().getEncoding());
    bool transposed = isTransposedWgmmaLayout(layout) &&
                      layout.getWarpsPerCTA()[1] == numWarps &&
                      isTransposedWgmmaShape(dot, numWarps);
    bool split = transposed && dot.getPrecision() == InputPrecision::TF32x3;
    if (!transposed &&
        (!isMmaLayout(layout) ||
         layout.getWarpsPerCTA() != ArrayRef<unsigned>{numWarps, 1} ||
         !isWarpgroupMmaDot(dot, numWarps)))
      return;
    LocalLoadOp a = getStageRead(dot, dot.getA()),
                b = getStageRead(dot, dot.getB());
    if (!b)
      return;
    auto aAlloc =
        a ? a.getBuffer().getDefiningOp<AllocSharedOp>() : AllocSharedOp();
    auto bAlloc = b.getBuffer().getDefiningOp<AllocSharedOp>();
    // Swizzled rows: the bytes of a block row (of the transposed block
    // for a K-major `b`), at most 128.
    auto swizzle = [&](LocalLoadOp read, bool transposed) {
      RankedTensorType t = read.getType();
      int64_t rowBytes = t.getDimSize(transposed ? 0 : 1) *
                         (t.getElementType().getIntOrFloatBitWidth() / 8);
      return IntegerAttr::get(i64, std::min<int64_t>(rowBytes, 128));
    };
    if (transposed) {
      // O^T = B^T A^T: `a`'s buffer, K-major as stored, is wgmma's B
      // operand (swizzled rows); `b`'s stays row-major and unswizzled, read
      // into registers two columns (8 bytes) at a time.
      if (!aAlloc || !bAlloc || aAlloc == bAlloc ||
          aAlloc->hasAttr(kSwizzleBytesAttr) ||
          bAlloc->hasAttr(kSwizzleBytesAttr) ||
          cast<SharedBufferType>(b.getBuffer().getType()).getRowStride() % 2)
        return;
      // Whether the buffer is written only by tile.local_store and read
      // only as the `a` of dots of this precision.
      auto readOnlyByDotsOf = [&](InputPrecision precision) {
        return llvm::all_of(aAlloc->getUsers(), [&](Operation *u) {
          if (isa<LocalStoreOp>(u))
            return true;
          auto read = dyn_cast<LocalLoadOp>(u);
          return read && llvm::all_of(read->getUsers(), [&](Operation *r) {
                   auto d = dyn_cast<DotOp>(r);
                   return d && d.getA() == read.getResult() &&
                          d.getPrecision() == precision;
                 });
        });
      };
      // tf32x3 needs `a`'s remainder after its tf32 part as well: the
      // buffer holds both (kSplitTF32Attr), which its stores write.
      if (split) {
        if (!readOnlyByDotsOf(InputPrecision::TF32x3))
          return;
        aAlloc->setAttr(kSplitTF32Attr, UnitAttr::get(ctx));
      }
      aAlloc->setAttr(kSwizzleBytesAttr, swizzle(a, false));
      // The tensor cores would truncate `a` (P of an online softmax: a bias
      // of half a tf32 ulp against its row sums); its stores round it to
      // tf32 instead when the buffer feeds nothing but such dots.
      if (!split && readOnlyByDotsOf(InputPrecision::TF32))
        for (Operation *u : aAlloc->getUsers())
          if (isa<LocalStoreOp>(u))
            u->setAttr(kRoundTF32Attr, UnitAttr::get(ctx));
    }
    // `a` from a buffer (both operands in shared memory), or from
    // registers when it holds the accumulator's layout (the exponentiated
    // tile of an online softmax).
    bool aShared = aAlloc && aAlloc != bAlloc &&
                   isWarpgroupMmaShape(dot, numWarps, /*aFromShared=*/true);
    if (!transposed &&
        (!bAlloc ||
         (!aShared && (dot.getA().getType().getEncoding() != layout || a))))
      return;
    // A buffer keeps one layout: another dot may not have claimed it in
    // the other role (a's row order differs from b's).
    auto warpsOf = [](AllocSharedOp alloc) -> int64_t {
      auto w = alloc->getAttrOfType<IntegerAttr>(kMmaRowWarpsAttr);
      return w ? w.getInt() : 0;
    };
    // tf32's `b` is stored transposed (K-major).
    bool kMajorB = dot.getA().getType().getElementType().isF32();
    if (!transposed &&
        ((aShared && aAlloc->hasAttr(kSwizzleBytesAttr) &&
          warpsOf(aAlloc) != (int64_t)numWarps) ||
         (bAlloc->hasAttr(kSwizzleBytesAttr) &&
          (warpsOf(bAlloc) != 0 || bAlloc->hasAttr(kKMajorAttr) != kMajorB))))
      return;
    if (aShared && !transposed) {
      aAlloc->setAttr(kSwizzleBytesAttr, swizzle(a, false));
      aAlloc->setAttr(kMmaRowWarpsAttr, IntegerAttr::get(i64, numWarps));
    }
    if (!transposed) {
      bAlloc->setAttr(kSwizzleBytesAttr, swizzle(b, kMajorB));
      if (kMajorB)
        bAlloc->setAttr(kKMajorAttr, UnitAttr::get(ctx));
    }
    dot->setAttr(kWarpgroupMmaAttr, UnitAttr::get(ctx));
    any = true;
    // A tf32x3 group is waited for where it is issued, its products added
    // to the accumulator with round-to-nearest f32 additions (see
    // lowerTransposedDotWithWgmma), unless they start from zero.
    if (split && !isZeroTile(dot.getAcc()))
      return;

    // In a loop whose stages outlive their iteration (tile.mma_in_flight),
    // a dot whose result is only carried around the loop leaves its wgmma
    // group running into the next iteration; the loop's result waits for
    // it (tile.warpgroup_mma_wait). A dot that takes the carried
    // accumulator itself chains onto the running group; otherwise (the
    // online softmax rescales it first) the iteration's first use of the
    // accumulator waits, and what comes before that use overlaps the
    // previous iteration's group.
    auto loop = dyn_cast<scf::ForOp>(dot->getParentOp());
    if (!loop || !loop->hasAttr(kMmaInFlightAttr) ||
        !dot.getResult().hasOneUse())
      return;
    OpOperand &carried = *dot.getResult().use_begin();
    if (carried.getOwner() != loop.getBody()->getTerminator())
      return;
    unsigned index = carried.getOperandNumber();
    BlockArgument acc = loop.getRegionIterArg(index);
    Location loc = dot.getLoc();
    OpBuilder builder(loop);
    Operation *first = nullptr;
    auto consider = [&](Operation *op) {
      Operation *inBody = loop.getBody()->findAncestorOpInBlock(*op);
      if (!first || inBody->isBeforeInBlock(first))
        first = inBody;
    };
    if (dot.getAcc() != acc || !acc.hasOneUse())
      for (Operation *user : acc.getUsers())
        consider(user);
    // A transposed dot's group reads `a`'s buffer: the iteration's stores
    // into that buffer wait for it too.
    if (transposed)
      loop.getBody()->walk([&](LocalStoreOp store) {
        if (store.getBuffer() == aAlloc.getResult())
          consider(store);
      });
    if (first) {
      builder.setInsertionPoint(first);
      auto wait = WarpgroupMmaWaitOp::create(builder, loc, acc, 0);
      acc.replaceAllUsesExcept(wait.getResult(), wait);
    }
    dot->setAttr(kWarpgroupMmaPendingAttr,
                 IntegerAttr::get(IntegerType::get(ctx, 32), 1));
    Value result = loop.getResult(index);
    builder.setInsertionPointAfter(loop);
    auto wait = WarpgroupMmaWaitOp::create(builder, loc, result, 0);
    result.replaceAllUsesExcept(wait.getResult(), wait);
    // The last iteration also waits, inside the loop: ptxas otherwise sees
    // the group pending where the loop's exit joins the path that skips
    // the loop, and serializes every wgmma of the kernel (C7514).
    builder.setInsertionPoint(loop.getBody()->getTerminator());
    Value next = arith::AddIOp::create(builder, loc, loop.getInductionVar(),
                                       loop.getStep());
    Value last = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge,
                                       next, loop.getUpperBound());
    auto ifLast = scf::IfOp::create(builder, loc, TypeRange(), last,
                                    /*withElse=*/false);
    builder.setInsertionPointToStart(ifLast.thenBlock());
    WarpgroupMmaWaitOp::create(builder, loc, dot.getResult(), 0);
  });
  if (any)
    kernel->setAttr(kWarpgroupMmaAttr, UnitAttr::get(ctx));
}

/// A wgmma shared-memory descriptor: start address (bits 0-13, in 16-byte
/// units), leading and stride byte offsets (bits 16-29 and 32-45, same
/// units) and the swizzle mode (bits 62-63: 1 = 128-byte, 2 = 64-byte,
/// 3 = 32-byte rows).
static Value emitMatrixDescriptor(OpBuilder &b, Location loc, Value address,
                                  int64_t leadingBytes, int64_t strideBytes,
                                  int64_t swizzleBytes) {
  Type i64 = b.getI64Type();
  int64_t mode = swizzleBytes == 128 ? 1 : swizzleBytes == 64 ? 2 : 3;
  uint64_t fields = ((uint64_t)(leadingBytes >> 4) << 16) |
                    ((uint64_t)(strideBytes >> 4) << 32) |
                    ((uint64_t)mode << 62);
  Value start = arith::ShRUIOp::create(
      b, loc,
      arith::AndIOp::create(b, loc, address, i32Constant(b, loc, 0x3FFFF)),
      i32Constant(b, loc, 4));
  return arith::OrIOp::create(b, loc,
                              arith::ExtUIOp::create(b, loc, i64, start),
                              i64Constant(b, loc, (int64_t)fields));
}

/// Inline-asm constraints for `n` f32 results tied to the first `n`
/// operands: "=f,...,=f,0,...,n-1".
static std::string tiedF32Constraints(int64_t n) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (int64_t i = 0; i < n; ++i)
    os << "=f,";
  for (int64_t i = 0; i < n; ++i)
    os << (i ? "," : "") << i;
  return text;
}

/// wgmma.wait_group `pending`, with every accumulator register passing
/// through it (tied operands) so that no use is scheduled before it.
static SmallVector<Value> emitWarpgroupMmaWait(OpBuilder &b, Location loc,
                                               ValueRange acc,
                                               int64_t pending) {
  return emitInlineAsm(
      b, loc, SmallVector<Type>(acc.size(), b.getF32Type()), acc,
      ("wgmma.wait_group.sync.aligned " + Twine(pending) + ";").str(),
      tiedF32Constraints(acc.size()), /*hasSideEffects=*/true);
}

/// The inline asm of one wgmma m64nNk(8|16) into `n` / 2 f32 registers
/// (operands $0..), with `a` from a descriptor or 4 fragment registers,
/// then `b`'s descriptor and the accumulate flag: its text and constraints.
static std::pair<std::string, std::string>
getWarpgroupMmaAsm(int64_t n, Type elem, bool aShared) {
  bool tf32 = elem.isF32();
  int64_t regs = n / 2, kStep = tf32 ? 8 : 16;
  int64_t aOperands = aShared ? 1 : 4;
  int64_t bIndex = 2 * regs + aOperands, flagIndex = bIndex + 1;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "{\n.reg .pred p;\nsetp.ne.b32 p, $" << flagIndex
     << ", 0;\nwgmma.mma_async.sync.aligned.m64n" << n << "k" << kStep << ".f32"
     << (tf32            ? ".tf32.tf32"
         : elem.isBF16() ? ".bf16.bf16"
                         : ".f16.f16")
     << " {";
  for (int64_t i = 0; i < regs; ++i)
    os << (i ? "," : "") << "$" << i;
  os << "}, ";
  if (aShared)
    os << "$" << 2 * regs;
  else
    os << "{$" << 2 * regs << ",$" << 2 * regs + 1 << ",$" << 2 * regs + 2
       << ",$" << 2 * regs + 3 << "}";
  // scale-d = p (accumulate), scale-a = scale-b = 1, a K-major (0; no such
  // immediate with a in registers), b MN-major (1; tf32 takes no transpose
  // immediates: both K-major).
  os << ", $" << bIndex << ", p, 1, 1";
  if (!tf32)
    os << ", " << (aShared ? "0, " : "") << "1";
  os << ";\n}";
  return {text,
          tiedF32Constraints(regs) + (aShared ? ",l,l,r" : ",r,r,r,r,l,r")};
}

/// Ends a dot's wgmma group: commits it and waits. The accumulator
/// registers are only defined once the group completes; waiting also ends
/// the group's reads of both stages. A dot marked tile.wgmma_pending leaves
/// its own group running (the previous iteration's is complete after the
/// wait): the next dot chains onto the same registers and
/// tile.warpgroup_mma_wait after the loop drains it.
static LogicalResult commitWarpgroupMma(DotOp op, ValueRange acc,
                                        ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  emitInlineAsm(rewriter, loc, TypeRange(), ValueRange(),
                "wgmma.commit_group.sync.aligned;", "",
                /*hasSideEffects=*/true);
  int64_t pending = 0;
  if (auto attr = op->getAttrOfType<IntegerAttr>(kWarpgroupMmaPendingAttr))
    pending = attr.getInt();
  rewriter.replaceOpWithMultiple(
      op, {emitWarpgroupMmaWait(rewriter, loc, acc, pending)});
  return success();
}

/// The first byte of the stage a dot's operand `read` reads (a pointer).
static Value emitReadStageBase(ConversionPatternRewriter &rewriter,
                               Location loc, LocalLoadOp read,
                               const SharedLayout &layout) {
  return emitStageBase(rewriter, loc, layout,
                       rewriter.getRemappedValue(read.getBuffer()),
                       rewriter.getRemappedValue(read.getStage()));
}

/// `desc` advanced by `bytes` (a multiple of 16; no op for 0).
static Value advanceDescriptor(OpBuilder &b, Location loc, Value desc,
                               int64_t bytes) {
  if (!bytes)
    return desc;
  return arith::AddIOp::create(b, loc, desc, i64Constant(b, loc, bytes >> 4));
}

/// Bytes from a K-major swizzled operand's first k to the one `kBytes`
/// into its rows: within a swizzled row, or into a later column chunk.
static int64_t getKMajorStepBytes(const SharedLayout &layout,
                                  int64_t kBytes) {
  int64_t rowBytes = layout.swizzleBytes;
  return kBytes / rowBytes * layout.getChunkBytes() + kBytes % rowBytes;
}

/// One wgmma of a group: the accumulator registers at `slots` (in the
/// instruction's register order), then `aOperands`, `bDesc` and the
/// accumulate flag `one`; the results replace those registers in `acc`.
static void emitWarpgroupMmaInstruction(
    ConversionPatternRewriter &rewriter, Location loc,
    MutableArrayRef<Value> acc, ArrayRef<int64_t> slots, ValueRange aOperands,
    Value bDesc, Value one, StringRef text, StringRef constraints) {
  SmallVector<Value> operands;
  for (int64_t slot : slots)
    operands.push_back(acc[slot]);
  operands.append(aOperands.begin(), aOperands.end());
  operands.append({bDesc, one});
  SmallVector<Value> out = emitInlineAsm(
      rewriter, loc, SmallVector<Type>(slots.size(), rewriter.getF32Type()),
      operands, text, constraints, /*hasSideEffects=*/true);
  for (auto [slot, v] : llvm::zip(slots, out))
    acc[slot] = v;
}

static LogicalResult lowerDotWithWgmma(DotOp op, ValueRange aVals,
                                       ValueRange accVals,
                                       ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  RankedTensorType aType = op.getA().getType(), cType = op.getType();
  int64_t m = cType.getDimSize(0), n = cType.getDimSize(1),
          k = aType.getDimSize(1);
  auto numWarps = getNumWarps(op->getParentOfType<func::FuncOp>());
  int64_t mTiles = m / (16 * numWarps); // 64-row slices per warpgroup
  Type i32 = rewriter.getI32Type();
  // `a` is read from its buffer when planWarpgroupMma swizzled it for the
  // dot (wgmma row order); otherwise it is in registers, in the
  // accumulator's layout.
  auto aRead = op.getA().getDefiningOp<LocalLoadOp>();
  SharedLayout aLayout;
  if (aRead)
    aLayout = getSharedLayout(aRead.getBuffer());
  bool aShared = aRead && aLayout.mmaRowWarps;
  auto bRead = op.getB().getDefiningOp<LocalLoadOp>();
  SharedLayout bLayout = getSharedLayout(bRead.getBuffer());
  auto stageAddress = [&](LocalLoadOp read, const SharedLayout &layout) {
    return LLVM::PtrToIntOp::create(
        rewriter, loc, i32, emitReadStageBase(rewriter, loc, read, layout));
  };
  auto advance = [&](Value desc, int64_t bytes) {
    return advanceDescriptor(rewriter, loc, desc, bytes);
  };
  // b is MN-major: 8-row (k) groups SBO apart, 64-column (swizzle-row)
  // chunks LBO apart; transposed (tf32), it is K-major like a shared `a`:
  // 8-row (n) groups SBO apart, k along the swizzled rows.
  int64_t bS = bLayout.swizzleBytes;
  bool tf32 = aType.getElementType().isF32();
  Value bDesc = emitMatrixDescriptor(
      rewriter, loc, stageAddress(bRead, bLayout),
      bLayout.transposed ? 16 : bLayout.getChunkBytes(), 8 * bS, bS);
  int64_t kStep = tf32 ? 8 : 16, elemBytes = tf32 ? 4 : 2;
  // a is K-major: 8-row groups SBO = 8 rows apart, k within a row (the
  // leading offset is unused: a k16 step never leaves a swizzled row).
  // This warpgroup's first slice: 64 rows of swizzleBytes each.
  int64_t aS = aLayout.swizzleBytes;
  Value aDesc;
  if (aShared) {
    ThreadIds ids = getThreadIds(rewriter, loc);
    Value warpgroup = arith::ShRUIOp::create(rewriter, loc, ids.warp,
                                             i32Constant(rewriter, loc, 2));
    Value aBase = arith::AddIOp::create(
        rewriter, loc, stageAddress(aRead, aLayout),
        arith::MulIOp::create(rewriter, loc, warpgroup,
                              i32Constant(rewriter, loc, mTiles * 64 * aS)));
    aDesc = emitMatrixDescriptor(rewriter, loc, aBase, 16, 8 * aS, aS);
  }

  LayoutView view(cType);
  auto slotOf = [&](int64_t r, int64_t c) { return view.getSlot({r, c}); };
  int64_t nTiles = n / 8;
  Type elem = aType.getElementType();
  // Operands after the accumulator's: a's descriptor (or its 4 fragment
  // registers), b's descriptor, the scale-d flag.
  auto [text, constraints] = getWarpgroupMmaAsm(n, elem, aShared);
  Value one = i32Constant(rewriter, loc, 1);
  // A fragments from registers, as for mma.sync m16n8k16: (lo, k..k+1),
  // (hi, k..k+1), (lo, k+8..k+9), (hi, k+8..k+9), where lo/hi are this
  // warp's rows of m-tile j (slot rows 2j, 2j+1) and the k pairs are
  // column slots 2q, 2q+1 of the 8-column group q.
  LayoutView aView(aType);
  auto pack = [&](int64_t row, int64_t col) -> Value {
    return packPair(rewriter, loc, elem, aVals[aView.getSlot({row, col})],
                    aVals[aView.getSlot({row, col + 1})]);
  };
  // Fragments of `a` in registers are all formed before the fence: a
  // register written between two wgmma of a group makes ptxas insert
  // another fence (warpgroup.arrive, C7519).
  //
  // tf32: registers a0..a3 hold k = t, t (row + 8), t + 4, t + 4 (row + 8)
  // of the k8 step; this thread holds columns 2t and 2t + 1 of each group
  // of 8, so they carry those (a0/a1: 2t, a2/a3: 2t + 1) and the
  // transposed `b` buffer stores k in the same order (SharedLayout). Each
  // value is rounded to tf32 once, here; `b` is used as stored (the tensor
  // cores ignore the low 13 bits), as by mma.sync reading B from a buffer.
  auto tf32Reg = [&](int64_t row, int64_t col) -> Value {
    return roundToTF32Bits(rewriter, loc, aVals[aView.getSlot({row, col})]);
  };
  SmallVector<SmallVector<Value>> aFragments;
  if (!aShared)
    for (int64_t kk = 0; kk < k; kk += kStep)
      for (int64_t j = 0; j < mTiles; ++j) {
        int64_t c = 2 * (kk / 8);
        if (tf32)
          aFragments.push_back({tf32Reg(2 * j, c), tf32Reg(2 * j + 1, c),
                                tf32Reg(2 * j, c + 1),
                                tf32Reg(2 * j + 1, c + 1)});
        else
          aFragments.push_back({pack(2 * j, c), pack(2 * j + 1, c),
                                pack(2 * j, c + 2), pack(2 * j + 1, c + 2)});
      }
  SmallVector<Value> acc(accVals.begin(), accVals.end());
  emitInlineAsm(rewriter, loc, TypeRange(), ValueRange(),
                "wgmma.fence.sync.aligned;", "", /*hasSideEffects=*/true);
  for (int64_t kk = 0; kk < k; kk += kStep) {
    // k step: 32 bytes into a's rows (possibly the next column chunk),
    // kStep rows down b (MN-major) or 32 bytes into its rows (K-major).
    int64_t kBytes = kk * elemBytes;
    int64_t aBytes = aShared ? getKMajorStepBytes(aLayout, kBytes) : 0;
    Value bStep =
        advance(bDesc, bLayout.transposed ? getKMajorStepBytes(bLayout, kBytes)
                                          : kk * bS);
    for (int64_t j = 0; j < mTiles; ++j) {
      SmallVector<Value> aOps =
          aShared ? SmallVector<Value>{advance(aDesc, aBytes + j * 64 * aS)}
                  : aFragments[(kk / kStep) * mTiles + j];
      SmallVector<int64_t> slots;
      for (int64_t t = 0; t < nTiles; ++t)
        for (int64_t h = 0; h < 2; ++h)
          for (int64_t c = 0; c < 2; ++c)
            slots.push_back(slotOf(2 * j + h, 2 * t + c));
      emitWarpgroupMmaInstruction(rewriter, loc, acc, slots, aOps, bStep, one,
                                  text, constraints);
    }
  }
  return commitWarpgroupMma(op, acc, rewriter);
}

/// A tf32 dot with the transposed accumulator layout
/// (getTransposedWgmmaLayout): wgmma computes O^T = B^T A^T. Its B operand
/// is `a`'s buffer as stored (K-major rows, swizzled by planWarpgroupMma);
/// its A operand is `b` transposed, read from `b`'s row-major stage into
/// the fragment registers: thread (g = lane / 4, q = lane % 4) of warp w
/// holds wgmma rows g and g + 8 (the accumulator's columns c = 16 w + 2g
/// and c + 1) at k = q and q + 4, i.e. b[q][c..c+1] and b[q+4][c..c+1]:
/// two 8-byte loads per fragment, rounded to tf32 (cvt.rn, sm_90): the
/// tensor cores would ignore their low 13 bits, and that truncation took
/// the error of peaked softmax rows (inputs scaled by 4, one weight
/// dominating each output) to 1.13e-3, past tf32's 1e-3 (H200, session 9).
///
/// tf32x3: `b`'s fragments split into their tf32 parts and rounded
/// remainders in registers, `a`'s buffer holds both parts of its values
/// (kSplitTF32Attr), and each k step issues three wgmma (lo x hi, hi x lo,
/// hi x hi). As on the mma.sync path, the products accumulate from zero
/// for this dot only and are added to the accumulator with f32 additions
/// (the tensor cores do not round their accumulation to nearest); a dot
/// onto the zero tile needs no addition, and its group may stay in flight.
static LogicalResult
lowerTransposedDotWithWgmma(DotOp op, ValueRange accVals,
                            ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  RankedTensorType aType = op.getA().getType(), cType = op.getType();
  int64_t m = cType.getDimSize(0), n = cType.getDimSize(1),
          k = aType.getDimSize(1);
  auto numWarps = getNumWarps(op->getParentOfType<func::FuncOp>());
  int64_t columnsPerRep = 16 * numWarps, reps = n / columnsPerRep;
  Type i32 = rewriter.getI32Type(), f32 = rewriter.getF32Type();
  auto aRead = op.getA().getDefiningOp<LocalLoadOp>();
  auto bRead = op.getB().getDefiningOp<LocalLoadOp>();
  SharedLayout aLayout = getSharedLayout(aRead.getBuffer());
  SharedLayout bLayout = getSharedLayout(bRead.getBuffer());
  auto c = [&](int64_t v) { return i32Constant(rewriter, loc, v); };
  int64_t aS = aLayout.swizzleBytes;
  bool split = op.getPrecision() == InputPrecision::TF32x3;
  if (split != aLayout.splitTF32)
    return rewriter.notifyMatchFailure(
        op, "tf32x3 reads both parts of a split buffer");
  Value aBase = emitReadStageBase(rewriter, loc, aRead, aLayout);
  auto descriptorAt = [&](Value base) {
    return emitMatrixDescriptor(
        rewriter, loc, LLVM::PtrToIntOp::create(rewriter, loc, i32, base), 16,
        8 * aS, aS);
  };
  Value desc = descriptorAt(aBase);
  Value lowDesc =
      split ? descriptorAt(byteOffset(
                  rewriter, loc, aBase,
                  i32Constant(rewriter, loc, aLayout.getLowPartOffset())))
            : Value();

  ThreadIds ids = getThreadIds(rewriter, loc);
  Value g = arith::DivUIOp::create(rewriter, loc, ids.lane, c(4));
  Value q = arith::RemUIOp::create(rewriter, loc, ids.lane, c(4));
  Value column0 = arith::AddIOp::create(
      rewriter, loc, arith::MulIOp::create(rewriter, loc, ids.warp, c(16)),
      arith::MulIOp::create(rewriter, loc, g, c(2)));
  Value bBase = emitReadStageBase(rewriter, loc, bRead, bLayout);
  auto vec2 = VectorType::get({2}, f32);
  // The pair (row, column..column + 1) of `b`, as f32 values.
  auto loadPair = [&](int64_t row, int64_t column) -> std::pair<Value, Value> {
    Value r = arith::AddIOp::create(rewriter, loc, q, c(row));
    Value col = arith::AddIOp::create(rewriter, loc, column0, c(column));
    auto address = [&](Value column) {
      return gep(rewriter, loc, rewriter.getI8Type(), bBase,
                 bLayout.emitOffset(rewriter, loc, r, column));
    };
    if (bLayout.transposed) {
      // Claimed K-major by another dot: the pair is not adjacent.
      auto element = [&](Value column) {
        return LLVM::LoadOp::create(rewriter, loc, f32, address(column));
      };
      return {element(col),
              element(arith::AddIOp::create(rewriter, loc, col, c(1)))};
    }
    Value v = LLVM::LoadOp::create(rewriter, loc, vec2, address(col),
                                   /*align=*/8);
    auto element = [&](int64_t i) {
      return LLVM::ExtractElementOp::create(rewriter, loc, v, c(i));
    };
    return {element(0), element(1)};
  };
  // tf32 bits of a value, and of the remainder of its rounding.
  auto bits = [&](Value f) -> Value {
    return roundToTF32Bits(rewriter, loc, f, /*tiesToEven=*/true);
  };
  auto remainderBits = [&](Value f, Value hiBits) -> Value {
    return bits(arith::SubFOp::create(
        rewriter, loc, f, arith::BitcastOp::create(rewriter, loc, f32, hiBits)));
  };
  // Fragments are all formed before the fence (see lowerDotWithWgmma);
  // with tf32x3 also the remainders' (`lowFragments`).
  SmallVector<SmallVector<Value>> fragments, lowFragments;
  for (int64_t kk = 0; kk < k; kk += 8)
    for (int64_t r = 0; r < reps; ++r) {
      auto [k0c0, k0c1] = loadPair(kk, r * columnsPerRep);
      auto [k4c0, k4c1] = loadPair(kk + 4, r * columnsPerRep);
      SmallVector<Value> values{k0c0, k0c1, k4c0, k4c1}, hi, lo;
      for (Value v : values) {
        hi.push_back(bits(v));
        if (split)
          lo.push_back(remainderBits(v, hi.back()));
      }
      fragments.push_back(hi);
      lowFragments.push_back(lo);
    }

  auto [text, constraints] = getWarpgroupMmaAsm(m, aType.getElementType(),
                                                /*aShared=*/false);
  LayoutView view(cType);
  SmallVector<Value> acc(accVals.begin(), accVals.end());
  // tf32x3 onto a running accumulator: the products from zero (`sum`),
  // added after the wait below.
  bool separateSum = split && !isZeroTile(op.getAcc());
  SmallVector<Value> sum;
  if (separateSum)
    sum.assign(acc.size(), arith::ConstantOp::create(
                               rewriter, loc, rewriter.getF32FloatAttr(0.0)));
  MutableArrayRef<Value> target = separateSum ? sum : acc;
  Value one = c(1);
  emitInlineAsm(rewriter, loc, TypeRange(), ValueRange(),
                "wgmma.fence.sync.aligned;", "", /*hasSideEffects=*/true);
  for (int64_t kk = 0; kk < k; kk += 8) {
    int64_t stepBytes = getKMajorStepBytes(aLayout, kk * 4);
    Value step = advanceDescriptor(rewriter, loc, desc, stepBytes);
    for (int64_t r = 0; r < reps; ++r) {
      // Register 4j + 2h + x: wgmma row g + 8h (column slot 2r + h), wgmma
      // column 8j + 2q + x (row slot 2j + x).
      SmallVector<int64_t> slots;
      for (int64_t j = 0; j < m / 8; ++j)
        for (int64_t h = 0; h < 2; ++h)
          for (int64_t x = 0; x < 2; ++x)
            slots.push_back(view.getSlot({2 * j + x, 2 * r + h}));
      int64_t f = (kk / 8) * reps + r;
      if (split) {
        // The small products first: b_lo x a_hi, then b_hi x a_lo.
        emitWarpgroupMmaInstruction(rewriter, loc, target, slots,
                                    lowFragments[f], step, one, text,
                                    constraints);
        emitWarpgroupMmaInstruction(
            rewriter, loc, target, slots, fragments[f],
            advanceDescriptor(rewriter, loc, lowDesc, stepBytes), one, text,
            constraints);
      }
      emitWarpgroupMmaInstruction(rewriter, loc, target, slots, fragments[f],
                                  step, one, text, constraints);
    }
  }
  if (!separateSum)
    return commitWarpgroupMma(op, acc, rewriter);
  // Waited for here (planWarpgroupMma leaves no tf32x3 group in flight),
  // then added with round-to-nearest f32 additions.
  emitInlineAsm(rewriter, loc, TypeRange(), ValueRange(),
                "wgmma.commit_group.sync.aligned;", "",
                /*hasSideEffects=*/true);
  SmallVector<Value> products = emitWarpgroupMmaWait(rewriter, loc, sum, 0);
  for (auto [a, p] : llvm::zip(acc, products))
    a = arith::AddFOp::create(rewriter, loc, a, p);
  rewriter.replaceOpWithMultiple(op, {acc});
  return success();
}

//===----------------------------------------------------------------------===//
// FMA units with register tiles
//===----------------------------------------------------------------------===//
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

/// Whether `op` is lowered by lowerDotWithFmaLayout.
static bool isFmaLayoutDot(DotOp op) {
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

static LogicalResult
lowerDotWithFmaLayout(DotOp op, ValueRange aVals, ValueRange bVals,
                      ValueRange accVals, ConversionPatternRewriter &rewriter) {
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

namespace {

struct DotOpConversion : public OpConversionPattern<DotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DotOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op->hasAttr(kWarpgroupMmaAttr) &&
        isTransposedWgmmaLayout(op.getType().getEncoding()))
      return lowerTransposedDotWithWgmma(op, adaptor.getAcc(), rewriter);
    if (op->hasAttr(kWarpgroupMmaAttr))
      return lowerDotWithWgmma(op, adaptor.getA(), adaptor.getAcc(), rewriter);
    if (isMmaLayout(op.getType().getEncoding()))
      return lowerDotWithMma(op, adaptor.getA(), adaptor.getB(),
                             adaptor.getAcc(), rewriter);
    if (isFmaLayoutDot(op))
      return lowerDotWithFmaLayout(op, adaptor.getA(), adaptor.getB(),
                                   adaptor.getAcc(), rewriter);
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
    stage(aType, adaptor.getA(), 0);
    stage(bType, adaptor.getB(), m * k);
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
      aRowBase.push_back(arith::MulIOp::create(rewriter, loc, r,
                                               i32Constant(rewriter, loc, k)));
    for (Value c : cols)
      bCol.push_back(arith::AddIOp::create(rewriter, loc, c,
                                           i32Constant(rewriter, loc, m * k)));

    SmallVector<Value> init;
    for (Value v : adaptor.getAcc())
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

} // namespace

void mlir::tile::populateDotOpToLLVMPatterns(TileTypeConverter &converter,
                                             RewritePatternSet &patterns) {
  patterns.add<DotOpConversion, WarpgroupMmaWaitOpConversion>(
      converter, patterns.getContext());
}
