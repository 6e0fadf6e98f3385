//===- Attention.cpp - The attention forward pass -------------------------===//
//
// buildAttentionKernel: O = softmax(Q K^T * scale + mask) V and the rows'
// log-sum-exp, one program per (query block, head, batch entry), the key
// blocks streamed through an online softmax (examples/attention.mlir is the
// same computation written as a kernel author would).
//
// Blocks every row of the program sees whole (before the key padding and,
// causal, before the block's first diagonal) take no mask; the blocks
// after them (the last partial block and the diagonal ones) do. sm_80
// kernels run the two kinds in two loops; Hopper's stream both through one
// pipeline (or producer), in one loop whose steps past the unmasked blocks
// apply the mask or, split_masked, in two loops. Blocks past the last
// row's diagonal are not visited.
//
//===----------------------------------------------------------------------===//

#include "tile/Catalogue/Ops/Attention.h"
#include "KernelBuilder.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::kernels;

namespace tile {
namespace catalogue {

std::string getAttentionKernelName(const KernelDesc &desc) {
  AttentionKernel k = toAttentionKernel(desc);
  return std::string("attention_") + getName(k.dtype) + "_d" +
         std::to_string(k.headBlock) + (k.padded ? "p" : "") + "_m" +
         std::to_string(k.blockM) + "_n" + std::to_string(k.blockN) + "_w" +
         std::to_string(k.warps) + "_s" + std::to_string(k.stages) +
         (k.aligned ? "_a16" : "") + (k.hopper ? "_h" : "") +
         (k.specialized ? "_ws" : "") + (k.pingpong ? "_pp" : "") +
         (k.splitMasked ? "_split" : "") + (k.persistent ? "_pers" : "") +
         (k.minProgramsPerSM ? "_o" + std::to_string(k.minProgramsPerSM)
                             : std::string());
}

void buildAttentionKernel(ModuleOp module, const KernelDesc &desc) {
  AttentionKernel c = toAttentionKernel(desc);
  MLIRContext *ctx = module.getContext();
  ElemType elemKind = toElemType(c.dtype);
  Type elem = getElemType(ctx, elemKind);
  OpBuilder tmp(ctx);
  Type i32 = tmp.getI32Type(), i64 = tmp.getI64Type(), f32 = tmp.getF32Type();
  auto ptr = PointerType::get(ctx, elem);
  SmallVector<Type> args{ptr, ptr, ptr, ptr, PointerType::get(ctx, f32)};
  args.append(7, i32);
  args.append(12, i64);
  args.push_back(f32);
  assert(args.size() == kAttentionArgCount && "the documented signature");
  KernelBuilder k(module, getAttentionKernelName(desc), args, c.warps);
  int64_t esize = byteSize(elemKind);
  for (unsigned i : {0u, 1u, 2u, 3u})
    k.func.setArgAttr(i, "tile.divisibility",
                      tmp.getI64IntegerAttr(c.aligned ? 16 : esize));
  k.func.setArgAttr(4, "tile.divisibility", tmp.getI64IntegerAttr(4));
  if (c.aligned)
    for (unsigned i = 12; i < 24; ++i)
      k.func.setArgAttr(i, "tile.divisibility",
                        tmp.getI64IntegerAttr(16 / esize));
  if (c.stages)
    k.func->setAttr(TileDialect::getNumStagesAttrName(),
                    tmp.getI32IntegerAttr(c.stages));
  if (c.minProgramsPerSM)
    k.func->setAttr(TileDialect::getMinProgramsPerSMAttrName(),
                    tmp.getI32IntegerAttr(c.minProgramsPerSM));

  const int64_t BM = c.blockM, BN = c.blockN, D = c.headBlock;
  Value o = k.arg(0), q = k.arg(1), kk = k.arg(2), v = k.arg(3), lse = k.arg(4);
  Value seqQ = k.arg(5), seqK = k.arg(6), heads = k.arg(7), group = k.arg(8),
        headDim = k.arg(9), causalFlag = k.arg(10), writeLse = k.arg(11);
  Value scale = k.arg(24);
  // Strides of tensor t (o, q, k, v) along batch, head, row.
  auto stride = [&](unsigned t, unsigned dim) {
    return k.arg(12 + 3 * t + dim);
  };

  Value batch = ProgramIdOp::create(k.b, k.loc, 2);
  // Query blocks run last to first: causal programs further down the
  // sequence see more keys, and starting the longest first leaves the
  // short ones to fill the last wave (programs start, in practice, in the
  // order of their x index). A persistent program of batch entry b runs
  // tiles pid, pid + P, ... of b's heads x query blocks, query blocks
  // fastest: the programs running at any time work on the tiles of a few
  // heads and share those heads' keys and values in L2. A causal mask
  // makes tiles differ in length. Where P divides the query blocks, the
  // query blocks of odd heads run first to last: program p gets blocks p,
  // p + P, ... of even heads and their mirror images of odd ones, the same
  // work every two heads. Elsewhere (that order left programs up to 1.8x
  // over the mean where P is twice the query blocks) each head's query
  // blocks run in mirrored pairs (last, first, second to last, second,
  // ...), and program p runs pairs p, p + P, ..., both tiles of each in
  // turn: every pair takes about the same work. (Pairs everywhere measured
  // 2-3% slower where P divides the blocks.) Its loop over tiles holds the
  // rest of the kernel; the shared buffers are allocated before it.
  Value pid = ProgramIdOp::create(k.b, k.loc, 0);
  Value blocks = NumProgramsOp::create(k.b, k.loc, 0);
  Value head;
  scf::ForOp tiles;
  if (c.persistent) {
    blocks = arith::DivSIOp::create(
        k.b, k.loc, arith::AddIOp::create(k.b, k.loc, seqQ, k.ci32(BM - 1)),
        k.ci32(BM));
    Value programs = NumProgramsOp::create(k.b, k.loc, 0);
    Value total = arith::MulIOp::create(k.b, k.loc, blocks, heads);
    Value one = k.ci32(1), zero32 = k.ci32(0);
    Value masked = k.cmp(arith::CmpIPredicate::ne, causalFlag, zero32);
    auto ceilDiv = [&](Value x, Value y) -> Value {
      return arith::DivSIOp::create(
          k.b, k.loc,
          arith::SubIOp::create(k.b, k.loc,
                                arith::AddIOp::create(k.b, k.loc, x, y), one),
          y);
    };
    // This program's rounds: tiles pid, pid + P, ... below total; in
    // pairs, both tiles of pairs pid, pid + P, ... below total / 2, and the
    // lone last tile where total is odd and its pair index is one of those.
    Value plainRounds =
        ceilDiv(arith::SubIOp::create(k.b, k.loc, total, pid), programs);
    Value pairCount = arith::ShRSIOp::create(k.b, k.loc, total, one);
    Value pairsLeft = arith::SubIOp::create(k.b, k.loc, pairCount, pid);
    Value lone = arith::AndIOp::create(
        k.b, k.loc,
        k.cmp(arith::CmpIPredicate::ne,
              arith::AndIOp::create(k.b, k.loc, total, one), zero32),
        k.cmp(arith::CmpIPredicate::eq,
              arith::RemSIOp::create(k.b, k.loc, pairsLeft, programs), zero32));
    Value pairedRounds = arith::AddIOp::create(
        k.b, k.loc,
        arith::ShLIOp::create(k.b, k.loc, ceilDiv(pairsLeft, programs), one),
        arith::ExtUIOp::create(k.b, k.loc, i32, lone));
    // Pairs where P does not divide the query blocks; else the odd heads'
    // query blocks last to first (below).
    Value pairs = arith::AndIOp::create(
        k.b, k.loc, masked,
        k.cmp(arith::CmpIPredicate::ne,
              arith::RemSIOp::create(k.b, k.loc, blocks, programs), zero32));
    tiles = scf::ForOp::create(
        k.b, k.loc, zero32,
        arith::SelectOp::create(k.b, k.loc, pairs, pairedRounds, plainRounds),
        one);
    k.b.setInsertionPoint(tiles.getBody()->getTerminator());
    Value round = tiles.getInductionVar();
    // The round's tile, as a position s in the heads' query blocks: pid +
    // round P, or in pairs 2 (floor(round / 2) P + pid) + round mod 2 (the
    // pair's first tile, then its second).
    Value paired = arith::AddIOp::create(
        k.b, k.loc,
        arith::ShLIOp::create(
            k.b, k.loc,
            arith::AddIOp::create(
                k.b, k.loc,
                arith::MulIOp::create(
                    k.b, k.loc, arith::ShRSIOp::create(k.b, k.loc, round, one),
                    programs),
                pid),
            one),
        arith::AndIOp::create(k.b, k.loc, round, one));
    Value plain = arith::AddIOp::create(
        k.b, k.loc, pid, arith::MulIOp::create(k.b, k.loc, round, programs));
    Value s = arith::SelectOp::create(k.b, k.loc, pairs, paired, plain);
    head = arith::DivSIOp::create(k.b, k.loc, s, blocks);
    Value position = arith::RemSIOp::create(k.b, k.loc, s, blocks);
    // In pairs, position 2i is query block i, 2i + 1 block blocks - 1 - i
    // (the row arithmetic below runs blocks last to first, so a pair's
    // first tile is the longer). Else causal odd heads take position i as
    // block blocks - 1 - i.
    auto lastToFirst = [&](Value i) -> Value {
      return arith::SubIOp::create(
          k.b, k.loc, arith::SubIOp::create(k.b, k.loc, blocks, i), one);
    };
    auto isOdd = [&](Value x) {
      return k.cmp(arith::CmpIPredicate::ne,
                   arith::AndIOp::create(k.b, k.loc, x, one), zero32);
    };
    Value half = arith::ShRSIOp::create(k.b, k.loc, position, one);
    Value mirrored = arith::SelectOp::create(k.b, k.loc, isOdd(position),
                                             lastToFirst(half), half);
    Value reversed = arith::SelectOp::create(
        k.b, k.loc, arith::AndIOp::create(k.b, k.loc, masked, isOdd(head)),
        lastToFirst(position), position);
    pid = arith::SelectOp::create(k.b, k.loc, pairs, mirrored, reversed);
  } else {
    head = ProgramIdOp::create(k.b, k.loc, 1);
  }
  auto allocShared = [&](SharedBufferType type) -> Value {
    OpBuilder::InsertionGuard guard(k.b);
    if (tiles)
      k.b.setInsertionPoint(tiles);
    return AllocSharedOp::create(k.b, k.loc, type);
  };
  Value pm = arith::SubIOp::create(
      k.b, k.loc, arith::SubIOp::create(k.b, k.loc, blocks, pid), k.ci32(1));
  Value row0 = arith::MulIOp::create(k.b, k.loc, pm, k.ci32(BM));
  Value b64 = k.extsi(batch, i64), h64 = k.extsi(head, i64);
  Value kvh64 = k.extsi(arith::DivSIOp::create(k.b, k.loc, head, group), i64);
  auto headBase = [&](Value base, unsigned t, Value h) {
    Value off = arith::AddIOp::create(
        k.b, k.loc, arith::MulIOp::create(k.b, k.loc, b64, stride(t, 0)),
        arith::MulIOp::create(k.b, k.loc, h, stride(t, 1)));
    return k.ptrAdd(base, off);
  };
  Value oh = headBase(o, 0, h64), qh = headBase(q, 1, h64),
        kh = headBase(kk, 2, kvh64), vh = headBase(v, 3, kvh64);
  Value seqQ64 = k.extsi(seqQ, i64), seqK64 = k.extsi(seqK, i64);
  Value dim = c.padded ? k.extsi(headDim, i64) : k.ci64(D);
  Value c0 = k.ci32(0), one64 = k.ci64(1);
  auto qType = k.tensor({BM, D}, elem), kvType = k.tensor({BN, D}, elem);
  auto blockPtr = [&](Value base, Value rows, Value rowStride, Value row,
                      RankedTensorType t) {
    return MakeBlockPtrOp::create(k.b, k.loc, BlockPointerType::get(ctx, t),
                                  base, ValueRange{rows, dim},
                                  ValueRange{rowStride, one64},
                                  ValueRange{row, c0}, ArrayRef<int32_t>{1, 0})
        .getResult();
  };
  // Rows are checked against the sequence where a block may pass its end,
  // columns against head_dim in padded kernels.
  auto checks = [&](bool rows) {
    SmallVector<int32_t> out;
    if (rows)
      out.push_back(0);
    if (c.padded)
      out.push_back(1);
    return out;
  };
  // Q stays in a shared buffer (rows padded by 16 bytes) where it takes at
  // most 48 KiB: each step reads it in the layout its product takes from
  // registers, next to K's stage, instead of keeping Q in registers and
  // staging it again for every product. (f32 blocks of head_dim 256 would
  // leave too little room for K and V.)
  //
  // The scores' maxima are taken before scaling (see below), which needs a
  // positive scale: a negative one is moved into Q (q . k scale =
  // (-q) . k |scale|).
  Value negativeScale = arith::CmpFOp::create(
      k.b, k.loc, arith::CmpFPredicate::OLT, scale, k.cf(k.f32(), 0.0));
  // Specialized kernels store Q, the first key block and (where it has a
  // buffer of its own, copiesLastValues) the last value block straight
  // from 4-d block loads into their buffers, which tile-warp-specialize
  // turns into the producer's TMA copies at the program's start (in a
  // persistent loop, once the program is done with the previous tile's):
  // the warpgroups then wait for them instead of loading them through
  // registers. A negative scale negates Q in place afterwards.
  bool copiedEdges = c.specialized;
  // Persistent kernels with room for it keep two tiles' Q
  // (twoQueryBlocks; tile-warp-specialize gives tile i stage i mod 2), so
  // that the producer copies the next tile's Q while this tile runs rather
  // than after its loop. Their output is staged through this tile's stage
  // once the loop is done with Q (the epilogue's layout conversion), in
  // place of scratch space of its own: the key blocks' stages cannot lend
  // it, the producer filling them with the next tile's blocks meanwhile.
  //
  // Where the output's rows are at most 128 bytes (head_dim 64), the block
  // staged in Q's stage goes out by TMA (tile-warp-specialize makes its
  // 4-d block store a tile.tma_store): no shared loads, global stores or
  // row tests in the program's warps. With 256-byte rows (32 boxes of 8
  // rows x 64 columns, as Q's buffer orders 8-row groups for wgmma) it
  // measured slower (docs/perf-notes.md): those store as before.
  Value qBuf;
  bool outputThroughQ = twoQueryBlocks(c);
  bool storeOutputByTma = outputThroughQ && D * esize <= 128;
  if (hasQueryBuffer(c))
    qBuf = allocShared(
        SharedBufferType::get(ctx, qType, outputThroughQ ? 2 : 1, 16 / esize));
  Value q0;
  if (!copiedEdges) {
    q0 = BlockLoadOp::create(k.b, k.loc, qType,
                             blockPtr(qh, seqQ64, stride(1, 2), row0, qType),
                             checks(true), PaddingKind::Zero);
    q0 = arith::SelectOp::create(k.b, k.loc, k.splat(negativeScale, {BM, D}),
                                 arith::NegFOp::create(k.b, k.loc, q0), q0);
  }
  Value batches = k.extsi(NumProgramsOp::create(k.b, k.loc, 2), i64);
  // A block of rows [row, row + rows) of head `h` of a [batch, heads, seq,
  // head_dim] tensor t (o, q, k, v) of any strides, as 4-d block pointer.
  auto headRowsPtr = [&](Value base, unsigned t, Value headCount, Value seq,
                         Value h, Value row, int64_t rows) -> Value {
    auto type = k.tensor({1, 1, rows, D}, elem);
    return MakeBlockPtrOp::create(
               k.b, k.loc, BlockPointerType::get(ctx, type), base,
               ValueRange{batches, k.extsi(headCount, i64), seq, dim},
               ValueRange{stride(t, 0), stride(t, 1), stride(t, 2), one64},
               ValueRange{batch, h, row, c0}, ArrayRef<int32_t>{3, 2, 1, 0})
        .getResult();
  };
  // Its rows past `seq` read as zero.
  auto loadHeadRows = [&](Location loc, Value ptr, RankedTensorType type) {
    Value block = BlockLoadOp::create(
        k.b, loc, cast<BlockPointerType>(ptr.getType()).getBlockType(), ptr,
        ArrayRef<int32_t>{2}, PaddingKind::Zero);
    return ReshapeOp::create(k.b, loc, type, block).getResult();
  };
  // The tile's output rows through a 4-d block pointer of O (rows past
  // seq_q and columns past head_dim not written): a block stored from Q's
  // buffer this way goes out by TMA (tile-warp-specialize).
  auto storeOutputRows = [&](Value block) {
    SmallVector<int32_t> check{2};
    if (c.padded)
      check.push_back(3);
    BlockStoreOp::create(
        k.b, k.loc, headRowsPtr(o, 0, heads, seqQ64, head, row0, BM),
        ReshapeOp::create(k.b, k.loc, k.tensor({1, 1, BM, D}, elem), block),
        check);
  };
  auto stageQ = [&]() {
    if (!qBuf)
      return;
    if (!copiedEdges) {
      LocalStoreOp::create(k.b, k.loc, q0, qBuf, k.ci32(0));
      return;
    }
    LocalStoreOp::create(
        k.b, k.loc,
        loadHeadRows(k.loc, headRowsPtr(q, 1, heads, seqQ64, head, row0, BM),
                     qType),
        qBuf, k.ci32(0));
    auto negate = scf::IfOp::create(k.b, k.loc, negativeScale,
                                    /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(k.b);
    k.b.setInsertionPoint(negate.thenBlock()->getTerminator());
    Value staged = LocalLoadOp::create(k.b, k.loc, qType, qBuf, k.ci32(0));
    LocalStoreOp::create(k.b, k.loc, arith::NegFOp::create(k.b, k.loc, staged),
                         qBuf, k.ci32(0));
  };
  // Hopper kernels stage Q once the first key block's loads are issued (see
  // overlappedLoop), so that the two loads' latencies overlap.
  if (!c.hopper)
    stageQ();

  // Key j is visible to query i when j < seq_k and, causal, j <= i + shift
  // with shift = seq_k - seq_q (the diagonal aligned bottom-right).
  Value causal = k.cmp(arith::CmpIPredicate::ne, causalFlag, c0);
  Value shift = arith::SubIOp::create(k.b, k.loc, seqK, seqQ);
  Value bn = k.ci32(BN);
  auto floorToBlock = [&](Value x) {
    return arith::MulIOp::create(k.b, k.loc,
                                 arith::DivSIOp::create(k.b, k.loc, x, bn), bn);
  };
  // Unmasked blocks end at seq_k's last whole block and, causal, where the
  // first row's diagonal enters a block: [0, fullEnd).
  Value wholeEnd = floorToBlock(seqK);
  Value firstSeen = arith::MaxSIOp::create(
      k.b, k.loc,
      arith::AddIOp::create(k.b, k.loc,
                            arith::AddIOp::create(k.b, k.loc, row0, shift),
                            k.ci32(1)),
      c0);
  Value fullEnd = arith::SelectOp::create(
      k.b, k.loc, causal,
      arith::MinSIOp::create(k.b, k.loc, wholeEnd, floorToBlock(firstSeen)),
      wholeEnd);
  // Masked blocks: up to seq_k and, causal, the last row's diagonal.
  Value lastEnd = arith::AddIOp::create(
      k.b, k.loc, arith::AddIOp::create(k.b, k.loc, row0, k.ci32(BM)), shift);
  Value end = arith::SelectOp::create(
      k.b, k.loc, causal, arith::MinSIOp::create(k.b, k.loc, seqK, lastEnd),
      seqK);

  double inf = std::numeric_limits<double>::infinity();
  Value negInf = k.cf(f32, -inf), zero = k.cf(f32, 0.0), one = k.cf(f32, 1.0);
  InputPrecision precision =
      elemKind == ElemType::F32 ? InputPrecision::TF32 : InputPrecision::IEEE;
  // The rows' maxima m are taken over the products q . k themselves and
  // each weight is exp2(fma(q . k, c, -m c)) with c = |scale| log2(e): one
  // fma and ex2 per weight, no multiplication of every score before the
  // maximum (exp would multiply by log2(e) again). c is at least the
  // smallest normal float, which leaves a zero scale's weights at 1 and
  // keeps -inf scores -inf. The log-sum-exp is converted back at the end.
  Value scale2 = arith::MaximumFOp::create(
      k.b, k.loc,
      arith::MulFOp::create(k.b, k.loc, math::AbsFOp::create(k.b, k.loc, scale),
                            k.cf(f32, M_LOG2E)),
      k.cf(f32, std::numeric_limits<float>::min()));
  Value scales = k.splat(scale2, {BM, BN}), rowScales = k.splat(scale2, {BM});
  Value zeroS = k.splat(zero, {BM, BN});
  // The queries' rows and the keys each sees: those below seq_k and,
  // causal, up to its diagonal (one bound per row, so that the mask is one
  // comparison per score).
  Value rows =
      arith::AddIOp::create(k.b, k.loc, k.splat(row0, {BM}), k.range(BM));
  Value seqKRows = k.splat(seqK, {BM});
  Value keyBound = k.spread(
      arith::SelectOp::create(
          k.b, k.loc, k.splat(causal, {BM}),
          arith::MinSIOp::create(
              k.b, k.loc, seqKRows,
              arith::AddIOp::create(
                  k.b, k.loc, rows,
                  k.splat(arith::AddIOp::create(k.b, k.loc, shift, k.ci32(1)),
                          {BM}))),
          seqKRows),
      1, {BM, BN});
  Value keyIdx = k.range(BN);

  // 2^x for softmax weights (flushing results below 2^-126 to zero, as
  // softmaxExp does).
  auto exp2 = [&](Location loc, Value x) -> Value {
    return math::Exp2Op::create(k.b, loc, x, arith::FastMathFlags::afn);
  };

  // Q K^T for one key block (read from registers or a buffer), and the
  // scores from it: the products, unscaled, and -inf where the block may
  // hold keys a row does not see.
  auto product = [&](Location loc, Value kt) -> Value {
    Value ktT = TransOp::create(k.b, loc, k.tensor({D, BN}, elem), kt,
                                ArrayRef<int32_t>{1, 0});
    Value qt = qBuf ? LocalLoadOp::create(k.b, loc, qType, qBuf, c0) : q0;
    return DotOp::create(k.b, loc, zeroS.getType(), qt, ktT, zeroS,
                         precision);
  };
  auto scoresFrom = [&](Location loc, Value qk, Value n0, bool masked) {
    Value s = qk;
    if (!masked)
      return s;
    Value cols = k.spread(
        arith::AddIOp::create(k.b, loc, k.splat(n0, {BN}), keyIdx), 0, {BM, BN});
    Value keep = k.cmp(arith::CmpIPredicate::slt, cols, keyBound);
    return arith::SelectOp::create(k.b, loc, keep, s,
                                   k.splat(negInf, {BM, BN}))
        .getResult();
  };
  // The online softmax's step over scores s: the new maxima (of the
  // unscaled products), the factor alpha that rescales what was summed
  // before, the block's weights (of the product's input type) and the new
  // sums.
  struct Step {
    Value m, alpha, p, l;
  };
  auto softmaxStep = [&](Location loc, Value s, Value m, Value l,
                         bool masked) {
    Value mNew = arith::MaximumFOp::create(k.b, loc, m,
                                           k.reduce(ReduceKind::Max, s, 1));
    // A row that has seen no key keeps m = -inf and shifts by 0.
    Value shiftBy = mNew;
    if (masked)
      shiftBy = arith::SelectOp::create(
          k.b, loc,
          arith::CmpFOp::create(k.b, loc, arith::CmpFPredicate::OEQ, mNew,
                                k.splat(negInf, {BM})),
          k.splat(zero, {BM}), mNew);
    Value shifted = arith::NegFOp::create(
        k.b, loc, arith::MulFOp::create(k.b, loc, shiftBy, rowScales));
    Value alpha =
        exp2(loc, math::FmaOp::create(k.b, loc, m, rowScales, shifted));
    Value p = exp2(loc, math::FmaOp::create(k.b, loc, s, scales,
                                            k.spread(shifted, 1, {BM, BN})));
    Value lNew = arith::AddFOp::create(
        k.b, loc, arith::MulFOp::create(k.b, loc, l, alpha),
        k.reduce(ReduceKind::Sum, p, 1));
    return Step{mNew, alpha, k.toFloat(p, elem), lNew};
  };
  auto rescale = [&](Location loc, Value acc, Value alpha) -> Value {
    return arith::MulFOp::create(k.b, loc, acc, k.spread(alpha, 1, {BM, D}));
  };
  auto weigh = [&](Location loc, Value p, Value vt, Value acc) -> Value {
    return DotOp::create(k.b, loc, acc.getType(), p, vt, acc, precision);
  };
  auto loadBlock = [&](Location loc, Value ptr, bool masked) -> Value {
    return BlockLoadOp::create(k.b, loc, kvType, ptr, checks(masked),
                               PaddingKind::Zero);
  };
  // On Hopper both products read their key and value blocks from shared
  // buffers (wgmma); the blocks outside the pipeline (the first and last
  // of the overlapped loop) go through this one. (One block: a second
  // would cost the short sequences' kernels a program per SM.)
  // Kernels whose edge blocks the producer copies take a second buffer for
  // the last value block where it fits (copiesLastValues), so that each is
  // written once (they run one program per SM already).
  Value edgeBuf, lastValueBuf;
  if (c.hopper)
    edgeBuf = allocShared(SharedBufferType::get(ctx, kvType, 1, 16 / esize));
  lastValueBuf = edgeBuf;
  bool lastValuesCopied = copiesLastValues(c);
  if (lastValuesCopied)
    lastValueBuf =
        allocShared(SharedBufferType::get(ctx, kvType, 1, 16 / esize));
  auto readEdge = [&](Location loc) -> Value {
    return LocalLoadOp::create(k.b, loc, kvType, edgeBuf, c0);
  };
  auto throughEdge = [&](Location loc, Value block) -> Value {
    LocalStoreOp::create(k.b, loc, block, edgeBuf, c0);
    return readEdge(loc);
  };

  // sm_80's loop over key blocks [from, to): carries the output accumulator,
  // the rows' exp sums and maxima and, unmasked, the K and V block
  // pointers, which tile-pipeline-loops then pipelines. The masked loop
  // (one block, or the diagonal's few) makes its pointers in the body, so
  // that it takes no pipeline buffers of its own.
  auto keyLoop = [&](Value from, Value to, Value acc0, Value l0, Value m0,
                     bool masked) {
    SmallVector<Value> init{acc0, l0, m0};
    if (!masked)
      init.append({blockPtr(kh, seqK64, stride(2, 2), from, kvType),
                   blockPtr(vh, seqK64, stride(3, 2), from, kvType)});
    auto loop = scf::ForOp::create(
        k.b, k.loc, from, to, bn, init,
        [&](OpBuilder &b, Location loc, Value n0, ValueRange it) {
          OpBuilder::InsertionGuard guard(k.b);
          k.b.setInsertionPoint(b.getInsertionBlock(), b.getInsertionPoint());
          Value acc = it[0], l = it[1], m = it[2];
          Value kp =
              masked ? blockPtr(kh, seqK64, stride(2, 2), n0, kvType) : it[3];
          Value vp =
              masked ? blockPtr(vh, seqK64, stride(3, 2), n0, kvType) : it[4];
          Value kt = loadBlock(loc, kp, masked);
          Value s = scoresFrom(loc, product(loc, kt), n0, masked);
          Step step = softmaxStep(loc, s, m, l, masked);
          Value scaled = rescale(loc, acc, step.alpha);
          Value vt = loadBlock(loc, vp, masked);
          SmallVector<Value> next{weigh(loc, step.p, vt, scaled), step.l,
                                  step.m};
          if (!masked)
            for (Value p : {kp, vp})
              next.push_back(AdvanceOp::create(k.b, loc, p.getType(), p,
                                               ValueRange{bn, c0}));
          scf::YieldOp::create(k.b, loc, next);
        });
    return std::make_tuple(loop.getResult(0), loop.getResult(1),
                           loop.getResult(2));
  };

  // Specialized kernels read the loop's blocks through 4-d block pointers
  // into the whole [batch, kv heads, seq_k, head_dim] tensors (any
  // strides), which tile-warp-specialize turns into TMA copies by a
  // producer warpgroup; the heads' count given is `heads`, which bounds
  // the key/value heads read.
  Value kvHead = arith::DivSIOp::create(k.b, k.loc, head, group);
  auto streamPtr = [&](Value base, unsigned t, Value row) -> Value {
    if (!c.specialized)
      return blockPtr(headBase(base, t, kvh64), seqK64, stride(t, 2), row,
                      kvType);
    return headRowsPtr(base, t, heads, seqK64, kvHead, row, BN);
  };
  // Rows past seq_k read as zero (the last block may be partial).
  auto loadStream = [&](Location loc, Value ptr) -> Value {
    if (!c.specialized)
      return loadBlock(loc, ptr, true);
    return loadHeadRows(loc, ptr, kvType);
  };

  // Scores of the key block at n0 in Hopper's loop: masked from maskFrom
  // on, behind a branch that is uniform across the program, so that the
  // unmasked steps pay nothing for it.
  auto scoresAt = [&](Location loc, Value qk, Value n0,
                      Value maskFrom) -> Value {
    auto masked =
        scf::IfOp::create(k.b, loc, TypeRange{qk.getType()},
                          k.cmp(arith::CmpIPredicate::sge, n0, maskFrom),
                          /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(k.b);
    k.b.setInsertionPointToStart(masked.thenBlock());
    scf::YieldOp::create(k.b, loc, scoresFrom(loc, qk, n0, true));
    k.b.setInsertionPointToStart(masked.elseBlock());
    scf::YieldOp::create(k.b, loc, qk);
    return masked.getResult(0);
  };

  // o = acc / l in the output's type, 0 where no key was visible (l = 0,
  // acc = 0). One reciprocal per row, not a division per element: each f32
  // division is a dozen instructions with a branch to a slow path.
  auto normalize = [&](Value acc, Value l) -> Value {
    Value empty = arith::CmpFOp::create(k.b, k.loc, arith::CmpFPredicate::OEQ,
                                        l, k.splat(zero, {BM}));
    Value lSafe =
        arith::SelectOp::create(k.b, k.loc, empty, k.splat(one, {BM}), l);
    Value invL = arith::DivFOp::create(k.b, k.loc, k.splat(one, {BM}), lSafe);
    return k.toFloat(
        arith::MulFOp::create(k.b, k.loc, acc, k.spread(invL, 1, {BM, D})),
        elem);
  };

  // Hopper's blocks [from, to), the mask applied from maskFrom on, the
  // products of neighbouring blocks overlapped: step j issues Q K_j^T,
  // then P_{j-1} V_{j-1}, and computes block j's softmax while the second
  // product runs (each wgmma is waited for where its result is first
  // needed), rescaling the accumulator after it. The first block's scores
  // and the last block's product are peeled off the loop, which carries P
  // and the pointers of K_j and V_{j-1}; the first keys and the last values
  // are loaded together, before the first product. The masked blocks go
  // through the same pipeline as the others, so that the diagonal's keys
  // and values are in shared memory before the loop reaches them.
  // With outputThroughQ the first result is the output, normalized and
  // staged through Q's buffer, instead of the accumulator; with
  // storeOutputByTma that output is stored here (storeOutputRows) and is
  // no result.
  auto overlappedLoop = [&](Value from, Value maskFrom, Value to, Value acc0,
                            Value l0, Value m0) {
    SmallVector<Type> types{l0.getType(), m0.getType()};
    if (!storeOutputByTma)
      types.insert(types.begin(),
                   outputThroughQ ? Type(qType) : acc0.getType());
    auto any = scf::IfOp::create(
        k.b, k.loc, types, k.cmp(arith::CmpIPredicate::slt, from, to),
        /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(k.b);
      k.b.setInsertionPointToStart(any.thenBlock());
      // The loop's pointers come first: tile-pipeline-loops starts its
      // copies right after them, before the peeled block's work.
      Value next = arith::AddIOp::create(k.b, k.loc, from, bn);
      SmallVector<Value> along{bn, c0};
      if (c.specialized)
        along.insert(along.begin(), {c0, c0});
      Value kLoop = streamPtr(kk, 2, next);
      Value vLoop = streamPtr(v, 3, from);
      // The last block starts at from + a multiple of block_n below to;
      // either edge block may pass seq_k (rows past it read as zero).
      Value last = arith::AddIOp::create(
          k.b, k.loc, from,
          floorToBlock(arith::SubIOp::create(
              k.b, k.loc, arith::SubIOp::create(k.b, k.loc, to, from),
              k.ci32(1))));
      Value firstKeys, lastValues;
      if (copiedEdges) {
        // In a persistent loop the producer copies these blocks in program
        // order, each once the previous tile released its buffer. The
        // previous tile releases Q after its loop, the first keys after its
        // first product where the last values have a buffer of their own
        // (else after the last values, which take the first keys' place)
        // and the last values after its last product: the first keys come
        // first where they are released first, so that the next tile's are
        // copied while this tile's loop runs.
        auto storeFirstKeys = [&]() {
          LocalStoreOp::create(k.b, k.loc,
                               loadStream(k.loc, streamPtr(kk, 2, from)),
                               edgeBuf, c0);
        };
        if (lastValuesCopied)
          storeFirstKeys();
        stageQ();
        if (!lastValuesCopied)
          storeFirstKeys();
        if (lastValuesCopied)
          LocalStoreOp::create(k.b, k.loc,
                               loadStream(k.loc, streamPtr(v, 3, last)),
                               lastValueBuf, c0);
        else
          lastValues = loadBlock(
              k.loc, blockPtr(vh, seqK64, stride(3, 2), last, kvType), true);
        firstKeys = readEdge(k.loc);
      } else {
        Value k0 = loadBlock(
            k.loc, blockPtr(kh, seqK64, stride(2, 2), from, kvType), true);
        lastValues = loadBlock(
            k.loc, blockPtr(vh, seqK64, stride(3, 2), last, kvType), true);
        stageQ();
        firstKeys = throughEdge(k.loc, k0);
      }
      Step first = softmaxStep(
          k.loc, scoresAt(k.loc, product(k.loc, firstKeys), from, maskFrom), m0,
          l0, true);
      // The last values take the first keys' place once they are read.
      if (!lastValuesCopied)
        LocalStoreOp::create(k.b, k.loc, lastValues, edgeBuf, c0);
      // The steps' loop over [lb, ub): masked never, always, or from
      // maskFrom on (a branch).
      enum class Mask { Never, Always, FromMaskFrom };
      auto stepLoop = [&](Value lb, Value ub, ValueRange init, Mask mask) {
        auto loop = scf::ForOp::create(
            k.b, k.loc, lb, ub, bn, init,
            [&](OpBuilder &b, Location loc, Value n0, ValueRange it) {
              OpBuilder::InsertionGuard guard(k.b);
              k.b.setInsertionPoint(b.getInsertionBlock(),
                                    b.getInsertionPoint());
              Value acc = it[0], l = it[1], m = it[2], p = it[3], kp = it[4],
                    vp = it[5];
              // Ping-pong: the warpgroups take turns issuing the two
              // products, so that one's softmax overlaps the other's.
              if (c.pingpong)
                WaitTurnOp::create(k.b, loc);
              Value qk = product(loc, loadStream(loc, kp));
              Value sum = weigh(loc, p, loadStream(loc, vp), acc);
              if (c.pingpong)
                PassTurnOp::create(k.b, loc);
              Value s = mask == Mask::Never ? qk
                        : mask == Mask::Always
                            ? scoresFrom(loc, qk, n0, true)
                            : scoresAt(loc, qk, n0, maskFrom);
              Step step = softmaxStep(loc, s, m, l, mask != Mask::Never);
              // Through two loops LLVM would carry the weights in f32 and
              // round them at the top of the next step (twice the
              // registers, and each pair's halves swapped back by ptxas
              // before P V): the barrier keeps them rounded here.
              Value p16 = step.p;
              if (c.splitMasked)
                p16 =
                    OptimizationBarrierOp::create(k.b, loc, p16.getType(), p16);
              SmallVector<Value> yields{rescale(loc, sum, step.alpha), step.l,
                                        step.m, p16};
              for (Value ptr : {kp, vp})
                yields.push_back(
                    AdvanceOp::create(k.b, loc, ptr.getType(), ptr, along));
              scf::YieldOp::create(k.b, loc, yields);
            });
        if (c.specialized)
          loop->setAttr(TileDialect::getWarpSpecializeAttrName(),
                        UnitAttr::get(ctx));
        return loop;
      };
      // Split kernels run the unmasked steps and the masked ones in two
      // loops that one producer serves (their copies one stream), so that
      // the unmasked steps hold no branch; the others run one loop that
      // branches (a pipeline of tile-pipeline-loops would take buffers per
      // loop).
      SmallVector<Value> init{acc0, first.l, first.m, first.p, kLoop, vLoop};
      scf::ForOp loop;
      if (c.splitMasked) {
        Value mid = arith::MinSIOp::create(
            k.b, k.loc, arith::MaxSIOp::create(k.b, k.loc, next, maskFrom), to);
        scf::ForOp unmasked = stepLoop(next, mid, init, Mask::Never);
        loop = stepLoop(mid, to, unmasked.getResults(), Mask::Always);
      } else {
        loop = stepLoop(next, to, init, Mask::FromMaskFrom);
      }
      Value acc =
          weigh(k.loc, loop.getResult(3),
                LocalLoadOp::create(k.b, k.loc, kvType, lastValueBuf, c0),
                loop.getResult(0));
      SmallVector<Value> yields{loop.getResult(1), loop.getResult(2)};
      if (outputThroughQ) {
        LocalStoreOp::create(k.b, k.loc, normalize(acc, loop.getResult(1)),
                             qBuf, c0);
        acc = LocalLoadOp::create(k.b, k.loc, qType, qBuf, c0);
        if (storeOutputByTma)
          storeOutputRows(acc);
      }
      if (!storeOutputByTma)
        yields.insert(yields.begin(), acc);
      scf::YieldOp::create(k.b, k.loc, yields);
      k.b.setInsertionPointToStart(any.elseBlock());
      if (!copiedEdges)
        stageQ();
      yields = {l0, m0};
      if (storeOutputByTma)
        storeOutputRows(k.splat(k.cf(elem, 0.0), {BM, D}));
      else
        yields.insert(yields.begin(), outputThroughQ
                                          ? k.splat(k.cf(elem, 0.0), {BM, D})
                                          : acc0);
      scf::YieldOp::create(k.b, k.loc, yields);
    }
    if (storeOutputByTma)
      return std::make_tuple(Value(), any.getResult(0), any.getResult(1));
    return std::make_tuple(any.getResult(0), any.getResult(1),
                           any.getResult(2));
  };

  Value acc0 = k.splat(zero, {BM, D}), l0 = k.splat(zero, {BM}),
        m0 = k.splat(negInf, {BM});
  auto [acc, l, m] =
      c.hopper ? overlappedLoop(c0, fullEnd, end, acc0, l0, m0) : [&] {
        auto [acc1, l1, m1] = keyLoop(c0, fullEnd, acc0, l0, m0,
                                      /*masked=*/false);
        return keyLoop(fullEnd, end, acc1, l1, m1, /*masked=*/true);
      }();

  // Hopper builds store from a coalesced layout (16-byte vectors along rows)
  // staged in shared memory (scratch space that the key blocks' buffers are
  // done with, or Q's buffer), not from the accumulator's layout, whose
  // lanes write 4 bytes of a row each. With storeOutputByTma the loop's
  // branch has stored the output already.
  if (!storeOutputByTma) {
    Value stored = acc;
    if (!outputThroughQ) {
      stored = normalize(acc, l);
      if (c.hopper)
        stored = ConvertLayoutOp::create(k.b, k.loc, stored.getType(), stored);
    }
    BlockStoreOp::create(k.b, k.loc,
                         blockPtr(oh, seqQ64, stride(0, 2), row0, qType),
                         stored, checks(true));
  }

  // lse = ln(2) c m + ln(l) (c m in base 2): -inf where no key was visible
  // (m = -inf, l = 0).
  Value lseV = arith::AddFOp::create(
      k.b, k.loc,
      arith::MulFOp::create(k.b, k.loc,
                            arith::MulFOp::create(k.b, k.loc, m, rowScales),
                            k.splat(k.cf(f32, M_LN2), {BM})),
      math::LogOp::create(k.b, k.loc, l));
  Value bh = arith::AddIOp::create(
      k.b, k.loc, arith::MulIOp::create(k.b, k.loc, b64, k.extsi(heads, i64)),
      h64);
  Value lseRow = k.ptrAdd(lse, arith::MulIOp::create(k.b, k.loc, bh, seqQ64));
  Value lsePtrs = k.ptrAdd(k.splat(lseRow, {BM}), rows);
  Value inQ = k.cmp(arith::CmpIPredicate::slt, rows, k.splat(seqQ, {BM}));
  Value wanted = k.splat(k.cmp(arith::CmpIPredicate::ne, writeLse, c0), {BM});
  StoreOp::create(k.b, k.loc, lsePtrs, lseV,
                  arith::AndIOp::create(k.b, k.loc, inQ, wanted));
  if (tiles)
    k.b.setInsertionPointAfter(tiles);
  k.finish();
}

} // namespace catalogue
} // namespace tile
