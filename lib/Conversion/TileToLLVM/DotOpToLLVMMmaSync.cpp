//===- DotOpToLLVMMmaSync.cpp - tile.dot on tensor cores with mma.sync ----===//
//
// When layout assignment gave the accumulator the mma layout (see
// getMmaLayout), the accumulator slots are mma.sync's C/D fragments: for
// each 16x8 tile, slots (2j, 2n), (2j, 2n+1), (2j+1, 2n), (2j+1, 2n+1) hold
// rows g and g+8 (g = lane / 4), columns 2t and 2t+1 (t = lane % 4). The
// operands are staged in shared memory (a row-major, b transposed, rows
// padded by 16 bytes against bank conflicts) and each thread reads its A
// and B fragments with 32-bit shared loads: pairs of consecutive k.
//
// tf32x3 (split tf32: three products of the tf32 parts and rounded
// remainders) is handled here as well, for dots that take mma.sync.
//
//===----------------------------------------------------------------------===//

#include "DotOpToLLVM.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tile;

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
  Type i32 = b.getI32Type();
  auto fragments = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(count, i32));
  Value loaded = NVVM::LdMatrixOp::create(
      b, loc, fragments, toSharedPointer(b, loc, address), count,
      trans ? NVVM::MMALayout::col : NVVM::MMALayout::row,
      NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
      NVVM::LdStMatrixEltType::B16);
  SmallVector<Value> out;
  for (int64_t i = 0; i < count; ++i)
    out.push_back(LLVM::ExtractValueOp::create(b, loc, loaded, i));
  return out;
}

/// One m16n8k16 (f16, bf16) or m16n8k8 (tf32) mma.sync, row.col with f32
/// C/D. The A and B fragments are 32-bit registers: f16 ones are bitcast to
/// vector<2xf16>, the type MmaOp takes for f16 (free, both are one 32-bit
/// register in PTX); bf16 and tf32 ones stay i32, which needs their PTX
/// type given explicitly.
static SmallVector<Value> emitMma(OpBuilder &b, Location loc, Type elem,
                                  ArrayRef<Value> aRegs, ArrayRef<Value> bRegs,
                                  ArrayRef<Value> acc) {
  Type f32 = b.getF32Type();
  bool isTF32 = elem.isF32();
  auto pack = [&](ArrayRef<Value> regs) {
    SmallVector<Value> out(regs);
    if (elem.isF16())
      for (Value &v : out)
        v = LLVM::BitcastOp::create(b, loc, VectorType::get(2, b.getF16Type()),
                                    v);
    return out;
  };
  NVVM::MMATypes ptxType = isTF32          ? NVVM::MMATypes::tf32
                           : elem.isBF16() ? NVVM::MMATypes::bf16
                                           : NVVM::MMATypes::f16;
  auto resultType = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                     SmallVector<Type>(4, f32));
  Value d =
      NVVM::MmaOp::create(b, loc, resultType, pack(aRegs), pack(bRegs), acc,
                          {16, 8, isTF32 ? 8 : 16}, /*b1Op=*/std::nullopt,
                          /*intOverflow=*/std::nullopt,
                          std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
                          std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                                         NVVM::MMALayout::col});
  SmallVector<Value> out;
  for (int64_t i = 0; i < 4; ++i)
    out.push_back(LLVM::ExtractValueOp::create(b, loc, d, i));
  return out;
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

/// The tile.local_load under `b = tile.trans %read order = [1, 0]` when
/// the dot is its transpose's only user: the buffer's rows are b's columns
/// (n), k contiguous in each, which is how the dot stages b anyway (a
/// K-by-N b "transposed"); the dot reads its fragments there, and the
/// transpose itself is never computed (see isTransReadByDot).
static LocalLoadOp getTransposedBufferRead(DotOp op, Value operand) {
  auto trans = operand.getDefiningOp<TransOp>();
  if (!trans || !trans->hasOneUse() ||
      trans.getOrder() != ArrayRef<int32_t>{1, 0} ||
      trans->getBlock() != op->getBlock())
    return nullptr;
  return getBufferRead(op, trans.getSrc());
}

/// Buffers a dot takes its fragments from (row-major, as the dot would
/// stage them): `b`'s when `a` is in registers or read from a buffer too,
/// `a`'s when it is not in registers and `b` is read from a buffer.
/// `transposed` selects b read through a transpose of its buffer.
static LocalLoadOp getBufferOperandB(DotOp op, bool transposed = false) {
  LocalLoadOp b = transposed ? getTransposedBufferRead(op, op.getB())
                             : getBufferRead(op, op.getB());
  if (b && (isAInRegisters(op) || getBufferRead(op, op.getA())))
    return b;
  return nullptr;
}
static LocalLoadOp getBufferOperandA(DotOp op) {
  if (isAInRegisters(op) || (!getBufferRead(op, op.getB()) &&
                             !getTransposedBufferRead(op, op.getB())))
    return nullptr;
  return getBufferRead(op, op.getA());
}

bool mlir::tile::dotReadsBFromBuffer(DotOp op) {
  return getBufferOperandB(op) || getBufferOperandB(op, /*transposed=*/true);
}

bool mlir::tile::isTransReadByDot(TransOp op) {
  if (op->use_empty())
    return false;
  return llvm::all_of(op->getUsers(), [&](Operation *user) {
    auto dot = dyn_cast<DotOp>(user);
    if (!dot || dot.getB() != op.getResult())
      return false;
    // A wgmma reads b through its descriptor (K-major, see getKMajorBRead).
    if (TileDialect::WgmmaAttrHelper(op.getContext()).isAttrPresent(dot))
      return getKMajorBRead(dot) != nullptr;
    return getBufferOperandB(dot, /*transposed=*/true) != nullptr;
  });
}

LogicalResult mlir::tile::lowerDotWithMma(DotOp op, ValueRange aVals,
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
  // b as the transpose of a buffer's block: its rows are b's columns.
  LocalLoadOp bTransposedBuffer =
      bBuffer ? LocalLoadOp() : getBufferOperandB(op, /*transposed=*/true);
  bool bFromBuffer = bBuffer || bTransposedBuffer;
  Value smem = getSharedMemory(rewriter, loc);
  if (!bFromBuffer)
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
  bool bRowMajor = (aInRegisters || bBuffer) && !bTransposedBuffer;
  if (bBuffer) {
    auto bufferType = cast<SharedBufferType>(bBuffer.getBuffer().getType());
    bStride = bufferType.getRowStride();
    bBase = 0;
    bSmem = emitStageBase(rewriter, loc, getSharedLayout(bBuffer.getBuffer()),
                          rewriter.getRemappedValue(bBuffer.getBuffer()),
                          rewriter.getRemappedValue(bBuffer.getStage()));
  } else if (bTransposedBuffer) {
    // Row n of the buffer holds b's column n: read as the transposed
    // staging area, b's column at row bCol - m (see load32).
    bStride = cast<SharedBufferType>(bTransposedBuffer.getBuffer().getType())
                  .getRowStride();
    bSmem = emitStageBase(
        rewriter, loc, getSharedLayout(bTransposedBuffer.getBuffer()),
        rewriter.getRemappedValue(bTransposedBuffer.getBuffer()),
        rewriter.getRemappedValue(bTransposedBuffer.getStage()));
  } else if (!bRowMajor) {
    stage(bType, bVals, /*transpose=*/true, bBase);
  } else {
    LayoutView bView(bType);
    int64_t run =
        bView.getFastTensorDim() == 1u
            ? std::min<int64_t>(bView.getSizePerThread(bView.getFastRootDim()),
                                16 / bytes)
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
  if (!bFromBuffer)
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
  Value twoT =
      arith::ShLIOp::create(rewriter, loc, t, i32Constant(rewriter, loc, 1));
  int64_t rowReps = view.getSlotsAlong(0), colSlots = view.getSlotsAlong(1);
  int64_t mTiles = rowReps / 2, nTiles = colSlots / 2;
  auto slotOf = [&](int64_t r, int64_t c) { return view.getSlot({r, c}); };
  SmallVector<Value> rowLo, rowHi, bCol;
  for (int64_t j = 0; j < mTiles; ++j) {
    rowLo.push_back(cIndex[slotOf(2 * j, 0)][0]);
    rowHi.push_back(cIndex[slotOf(2 * j + 1, 0)][0]);
  }
  for (int64_t n = 0; n < nTiles; ++n) {
    // Column 2t of this n-tile minus 2t is the tile's first column.
    Value first =
        arith::SubIOp::create(rewriter, loc, cIndex[slotOf(0, 2 * n)][1], twoT);
    bCol.push_back(arith::AddIOp::create(rewriter, loc, first,
                                         i32Constant(rewriter, loc, m)));
  }
  // Fragment loads: 32 bits at element (row, col) of the staged operand.
  auto load32 = [&](Value row, int64_t colOffset, Value col) -> Value {
    Value linear = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, row,
                              i32Constant(rewriter, loc, stride)),
        arith::AddIOp::create(rewriter, loc, col,
                              i32Constant(rewriter, loc, colOffset)));
    Value byteOffset = arith::MulIOp::create(rewriter, loc, linear,
                                             i32Constant(rewriter, loc, bytes));
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
    Value upperHalf =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::uge,
                              ids.lane, i32Constant(rewriter, loc, 16));
    Value rowOffset = arith::MulIOp::create(
        rewriter, loc, laneRow, i32Constant(rewriter, loc, bStride));
    for (int64_t n = 0; n < nTiles; n += 2) {
      Value col = bCol[n];
      if (n + 1 < nTiles)
        col =
            arith::SelectOp::create(rewriter, loc, upperHalf, bCol[n + 1], col);
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
      Value group =
          arith::SelectOp::create(rewriter, loc, hiRows, rowHi[j], rowLo[j]);
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
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getF32FloatAttr(0.0));
    std::fill(acc.begin(), acc.end(), zero);
  }
  for (int64_t kk = 0; kk < k; kk += kStep) {
    Value kBase = arith::AddIOp::create(rewriter, loc, colBase,
                                        i32Constant(rewriter, loc, kk));
    int64_t half = kStep / 2; // the second k group of a fragment
    // A fragments: (lo, k), (hi, k), (lo, k + half), (hi, k + half).
    SmallVector<SmallVector<Value>> aFrag;
    for (int64_t j = 0; j < mTiles; ++j) {
      if (aBuffer) {
        // One ldmatrix.x4 per m-tile: rows 0-7 / 8-15 at k and k + half.
        Value address =
            arith::AddIOp::create(rewriter, loc, aLdmatrixBase[j],
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
        aFrag.push_back({load32(rowLo[j], 0, kBase), load32(rowHi[j], 0, kBase),
                         load32(rowLo[j], half, kBase),
                         load32(rowHi[j], half, kBase)});
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
        aFrag.push_back(
            {pack(aSlot(2 * j, c), aSlot(2 * j, c + 1)),
             pack(aSlot(2 * j + 1, c), aSlot(2 * j + 1, c + 1)),
             pack(aSlot(2 * j, c + 2), aSlot(2 * j, c + 3)),
             pack(aSlot(2 * j + 1, c + 2), aSlot(2 * j + 1, c + 3))});
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
                                    i32Constant(rewriter, loc, bBase - m)));
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
      if (bTransposedBuffer) {
        // 32 bits at row col - m, column kBase (+ bHalf) of the buffer.
        auto fragment = [&](int64_t colOffset) -> Value {
          Value row = arith::SubIOp::create(rewriter, loc, col,
                                            i32Constant(rewriter, loc, m));
          Value linear = arith::AddIOp::create(
              rewriter, loc,
              arith::MulIOp::create(rewriter, loc, row,
                                    i32Constant(rewriter, loc, bStride)),
              arith::AddIOp::create(rewriter, loc, kBase,
                                    i32Constant(rewriter, loc, colOffset)));
          Value v = LLVM::LoadOp::create(
              rewriter, loc, i32, gep(rewriter, loc, elem, bSmem, linear), 4);
          return roundOnce ? roundToTF32Bits(rewriter, loc, v) : v;
        };
        bFrag.push_back({fragment(0), fragment(bHalf)});
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
          c = emitMma(rewriter, loc, elem, aFrag[j], bFrag[n], c);
        } else {
          // tf32x3: x = big + small with both parts in tf32; the product
          // keeps big*big + big*small + small*big (f32-level error).
          auto split = [&](ArrayRef<Value> regs, SmallVector<Value> &big,
                           SmallVector<Value> &small) {
            for (Value v : regs) {
              Value hi = roundToTF32Bits(rewriter, loc, v);
              Value rest = arith::SubFOp::create(
                  rewriter, loc,
                  arith::BitcastOp::create(rewriter, loc, rewriter.getF32Type(),
                                           v),
                  arith::BitcastOp::create(rewriter, loc, rewriter.getF32Type(),
                                           hi));
              big.push_back(hi);
              small.push_back(roundToTF32Bits(rewriter, loc, rest));
            }
          };
          SmallVector<Value> aBig, aSmall, bBig, bSmall;
          split(aFrag[j], aBig, aSmall);
          split(bFrag[n], bBig, bSmall);
          c = emitMma(rewriter, loc, elem, aSmall, bBig, c);
          c = emitMma(rewriter, loc, elem, aBig, bSmall, c);
          c = emitMma(rewriter, loc, elem, aBig, bBig, c);
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
