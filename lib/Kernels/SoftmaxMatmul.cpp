//===- SoftmaxMatmul.cpp - softmax(X) @ V ---------------------------------===//
//
// buildSoftmaxMatmul: softmax(X) @ V with online softmax over blocks of
// X's rows and tensor-core (or FMA) products with blocks of V, pipelined
// through shared buffers; startSoftmaxMatmul makes the signature shared
// with the resident variant (SoftmaxMatmulResident.cpp).
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include <limits>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::kernels;

KernelBuilder
mlir::tile::kernels::startSoftmaxMatmul(ModuleOp module,
                                        const SoftmaxMatmulConfig &c) {
  MLIRContext *ctx = module.getContext();
  auto ptr = PointerType::get(ctx, getElemType(ctx, c.dtype));
  Type i32 = IntegerType::get(ctx, 32), i64 = IntegerType::get(ctx, 64);
  SmallVector<Type> args{ptr, ptr, ptr, i32, i32, i32};
  args.append(9, i64);
  // tf32x3 reading V transposed: the remainders' array.
  if (c.vTransposed && c.precision == InputPrecision::TF32x3)
    args.push_back(ptr);
  if (c.tma)
    args.append(2, TensorMapType::get(ctx));
  KernelBuilder k(module, getKernelName(c), args, c.numWarps);
  for (unsigned i : {0u, 1u, 2u})
    k.func.setArgAttr(i, "tile.divisibility",
                      k.b.getI64IntegerAttr(byteSize(c.dtype)));
  if (c.tma) {
    // X (d1 x d2) and V (d2 x d3) of each batch: argument numbers as in
    // the signature (strides of tensor t at 6 + 3t), the batch count the
    // grid's z.
    auto map = [&](int64_t base, StringRef rows, StringRef cols, int tensor) {
      auto arg = [&](int i) { return k.b.getStringAttr("arg" + Twine(i)); };
      return k.b.getDictionaryAttr(
          {k.b.getNamedAttr("base", k.b.getI64IntegerAttr(base)),
           k.b.getNamedAttr("shape",
                            k.b.getArrayAttr({k.b.getStringAttr(rows),
                                              k.b.getStringAttr(cols)})),
           k.b.getNamedAttr("strides", k.b.getArrayAttr({arg(7 + 3 * tensor),
                                                         arg(8 + 3 * tensor)})),
           k.b.getNamedAttr("batch",
                            k.b.getArrayAttr({arg(6 + 3 * tensor),
                                              k.b.getStringAttr("grid2")}))});
    };
    k.func.setArgAttr(15, TileDialect::getTmaAttrName(),
                      map(1, "arg3", "arg4", 1));
    k.func.setArgAttr(16, TileDialect::getTmaAttrName(),
                      map(2, "arg4", "arg5", 2));
  }
  return k;
}

func::FuncOp mlir::tile::buildSoftmaxMatmul(ModuleOp module,
                                            const SoftmaxMatmulConfig &c) {
  MLIRContext *ctx = module.getContext();
  Type elem = getElemType(ctx, c.dtype);
  OpBuilder tmp(ctx);
  Type i64 = tmp.getI64Type();
  KernelBuilder k = startSoftmaxMatmul(module, c);
  if (c.minProgramsPerSM)
    k.func->setAttr(TileDialect::getMinProgramsPerSMAttrName(),
                    tmp.getI32IntegerAttr(c.minProgramsPerSM));
  assert((c.clusterSize <= 1 || c.specialized) &&
         "clusters share the producer warpgroups' copies");
  // Programs of consecutive row blocks (grid x) share V's blocks: the
  // producers' streams of V do not depend on program_id 0 (X's, with
  // clusters of column blocks).
  if (c.clusterSize > 1)
    k.func->setAttr(TileDialect::getClusterSizeAttrName(),
                    tmp.getI32IntegerAttr(c.clusterSize));
  // Reading V^T from the transposition launched just before, the kernel
  // waits for it first; its launch and setup overlap that kernel's end.
  if (c.vTransposed)
    WaitPriorGridOp::create(k.b, k.loc);
  int64_t BM = c.blockM, BK = c.blockK, BN = c.blockN;
  Value outBase = k.arg(0), xBase = k.arg(1), vBase = k.arg(2);
  Value d1 = k.extsi(k.arg(3), i64), d2 = k.arg(4), d3 = k.extsi(k.arg(5), i64);
  Value d2w = k.extsi(d2, i64);
  auto stride = [&](unsigned tensor, unsigned dim) {
    return k.arg(6 + 3 * tensor + dim);
  };
  // Clusters of column blocks put those along the grid's x (the cluster's
  // axis), so that X's stream is the one their programs share.
  bool columnsAlongX = c.clusterSize > 1 && c.clusterColumns;
  Value pidM, pidN;
  // A persistent program runs tiles pid, pid + P, ... of its batch
  // entry's row x column blocks, row blocks fastest (the programs running
  // at a time read the same column blocks of V); its loop over tiles
  // holds the rest of the kernel, and the producer's ring runs on across
  // it, so that the next tile's first blocks arrive while this one's
  // output is stored.
  scf::ForOp tiles;
  assert((!c.persistent ||
          (c.specialized && !c.mmaInFlight && c.clusterSize <= 1)) &&
         "persistent programs are specialized, alone, their products waited "
         "for in the step");
  if (c.persistent) {
    Value rowBlocks =
        arith::CeilDivSIOp::create(k.b, k.loc, k.arg(3), k.ci32(BM));
    Value colBlocks =
        arith::CeilDivSIOp::create(k.b, k.loc, k.arg(5), k.ci32(BN));
    tiles = scf::ForOp::create(
        k.b, k.loc, ProgramIdOp::create(k.b, k.loc, 0),
        arith::MulIOp::create(k.b, k.loc, rowBlocks, colBlocks),
        NumProgramsOp::create(k.b, k.loc, 0));
    k.b.setInsertionPoint(tiles.getBody()->getTerminator());
    Value t = tiles.getInductionVar();
    pidM = arith::RemSIOp::create(k.b, k.loc, t, rowBlocks);
    pidN = arith::DivSIOp::create(k.b, k.loc, t, rowBlocks);
  } else {
    pidM = ProgramIdOp::create(k.b, k.loc, columnsAlongX ? 1 : 0);
    pidN = ProgramIdOp::create(k.b, k.loc, columnsAlongX ? 0 : 1);
  }
  Value batch = k.extsi(ProgramIdOp::create(k.b, k.loc, 2), i64);
  Value rowStart = arith::MulIOp::create(k.b, k.loc, pidM, k.ci32(BM));
  Value colStart = arith::MulIOp::create(k.b, k.loc, pidN, k.ci32(BN));
  Value c0 = k.ci32(0);
  auto batchBase = [&](Value base, unsigned tensor) {
    return k.ptrAdd(
        base, arith::MulIOp::create(k.b, k.loc, batch, stride(tensor, 0)));
  };
  auto xType = k.tensor({BM, BK}, elem), vType = k.tensor({BK, BN}, elem);
  // Specialized kernels stream X and V through 3-d block pointers into the
  // whole [batch, rows, columns] arrays (the batch a coordinate, the base
  // the argument), which tile-warp-specialize turns into TMA copies by a
  // producer warpgroup; the tiles are reshaped to 2-d.
  bool ws = c.specialized;
  // V transposed (vTransposed): its blocks are [BN, BK] rows of V^T, read
  // through tile.trans as the dot's K-major `b`.
  bool vt = c.vTransposed;
  assert((!ws || (c.hopper && c.stages >= 2 && !c.tma && !c.transposedProduct &&
                  (byteSize(c.dtype) == 2 || vt))) &&
         "a producer warpgroup serves Hopper's plain 2-byte wgmma kernels "
         "and tf32 ones reading V transposed");
  assert((!vt || (ws && c.dtype == ElemType::F32 &&
                  c.precision != InputPrecision::IEEE)) &&
         "V is read transposed by specialized tf32 and tf32x3 kernels");
  // tf32x3 reading V transposed: V's remainders streamed beside V^T, P
  // split in registers, three tf32 products per step.
  bool splitV = vt && c.precision == InputPrecision::TF32x3;
  assert((!splitV || !c.mmaInFlight) &&
         "tf32x3 reading V transposed waits for its products in the step");
  // Specialized with the product in flight: see the loop below.
  bool overlapped = ws && c.mmaInFlight;
  // Warpgroups splitting V's columns (splitColumns): the program's rows
  // take their softmax once for all of its BN columns, each warpgroup
  // exponentiating half of every block. P goes through a shared buffer to
  // both warpgroups' products (wgmma reads it from there), and each row's
  // sum stays a tile of partial sums until after the loop, so that the
  // only exchange between the warpgroups in a step is the rows' maxima.
  bool splitColumns = c.splitColumns;
  assert((!splitColumns || (ws && !c.persistent && !c.clusterColumns &&
                            byteSize(c.dtype) == 2)) &&
         "warpgroups split the columns of specialized 2-byte kernels, alone "
         "or in clusters of row blocks");
  // Ping-pong: the two warpgroups (each with its own rows) take turns
  // issuing their products, so that one's softmax runs while the other's
  // product does.
  assert((!c.pingpong ||
          (ws && c.numWarps == 8 && !splitColumns && byteSize(c.dtype) == 2)) &&
         "ping-pong takes the two warpgroups of a specialized 2-byte kernel");
  auto vtType = k.tensor({BN, BK}, elem);
  auto xStream = k.tensor({1, BM, BK}, elem),
       vStream = k.tensor({1, vt ? BN : BK, vt ? BK : BN}, elem);
  Value batches =
      ws ? k.extsi(NumProgramsOp::create(k.b, k.loc, 2), i64) : Value();
  Value batch32 = ws ? ProgramIdOp::create(k.b, k.loc, 2).getResult() : Value();
  // A block pointer to the tile at (row, col) of array `tensor` (1: X, 2:
  // V), whose matrices are rows x cols: 3-d into the whole array in
  // specialized kernels, else 2-d into this program's batch.
  auto arrayPtr = [&](Value base, unsigned tensor, Value rows, Value cols,
                      Value row, Value col, RankedTensorType tile,
                      RankedTensorType stream) -> Value {
    if (ws)
      return MakeBlockPtrOp::create(
          k.b, k.loc, BlockPointerType::get(ctx, stream), base,
          ValueRange{batches, rows, cols},
          ValueRange{stride(tensor, 0), stride(tensor, 1), stride(tensor, 2)},
          ValueRange{batch32, row, col}, ArrayRef<int32_t>{2, 1, 0});
    return MakeBlockPtrOp::create(
        k.b, k.loc, BlockPointerType::get(ctx, tile), batchBase(base, tensor),
        ValueRange{rows, cols},
        ValueRange{stride(tensor, 1), stride(tensor, 2)}, ValueRange{row, col},
        ArrayRef<int32_t>{1, 0});
  };
  Value xp0 = arrayPtr(xBase, 1, d1, d2w, rowStart, c0, xType, xStream),
        vp0 = vt ? arrayPtr(vBase, 2, d3, d2w, colStart, c0, vtType, vStream)
                 : arrayPtr(vBase, 2, d2w, d3, c0, colStart, vType, vStream);
  Value vlp0 =
      splitV ? arrayPtr(k.arg(15), 2, d3, d2w, colStart, c0, vtType, vStream)
             : Value();

  Type f32 = k.f32();
  double inf = std::numeric_limits<double>::infinity();
  Value negInf = k.cf(f32, -inf), zero = k.cf(f32, 0.0), one = k.cf(f32, 1.0);
  Value m0 = k.splat(negInf, {BM}),
        l0 = splitColumns ? k.splat(zero, {BM, BK}) : k.splat(zero, {BM});
  Value acc0 = k.splat(zero, {BM, BN});
  // A specialized kernel's block of a 3-d stream, reshaped to its tile.
  // (The streamed copies zero-fill past d2: the loop masks X with -inf.)
  auto loadStreamed = [&](OpBuilder &b, Location loc, Value ptr,
                          RankedTensorType tile,
                          RankedTensorType stream) -> Value {
    return ReshapeOp::create(b, loc, tile,
                             BlockLoadOp::create(b, loc, stream, ptr,
                                                 ArrayRef<int32_t>{1, 2},
                                                 PaddingKind::Zero));
  };
  auto loadX = [&](OpBuilder &b, Location loc, Value xp) -> Value {
    if (ws)
      return loadStreamed(b, loc, xp, xType, xStream);
    return BlockLoadOp::create(b, loc, xType, xp, ArrayRef<int32_t>{0, 1},
                               PaddingKind::NegInf);
  };
  auto loadV = [&](OpBuilder &b, Location loc, Value vp) -> Value {
    if (vt)
      return TransOp::create(b, loc, vType,
                             loadStreamed(b, loc, vp, vtType, vStream),
                             ArrayRef<int32_t>{1, 0});
    if (ws)
      return loadStreamed(b, loc, vp, vType, vStream);
    return BlockLoadOp::create(b, loc, vType, vp, ArrayRef<int32_t>{0, 1},
                               PaddingKind::Zero);
  };
  auto advance = [&](Location loc, Value xp, Value vp, int64_t steps) {
    SmallVector<Value> xOff{k.ci32(0), k.ci32(steps * BK)},
        vOff{k.ci32(vt ? 0 : steps * BK), k.ci32(vt ? steps * BK : 0)};
    if (ws) {
      xOff.insert(xOff.begin(), k.ci32(0));
      vOff.insert(vOff.begin(), k.ci32(0));
    }
    return std::make_pair(
        AdvanceOp::create(k.b, loc, xp.getType(), xp, xOff).getResult(),
        AdvanceOp::create(k.b, loc, vp.getType(), vp, vOff).getResult());
  };

  // The exponentials as fma + exp2 where the products' inputs are
  // rounded to 10 or fewer mantissa bits anyway (tf32, f16, bf16); f32
  // ieee and tf32x3 keep exp(x - s), exact to f32 for large |x|.
  bool foldedExp =
      !(c.dtype == ElemType::F32 && (c.precision == InputPrecision::IEEE ||
                                     c.precision == InputPrecision::TF32x3));
  Value log2e = k.cf(f32, 1.4426950408889634);

  // Pipelined: the X and V blocks of step j are copied into stage
  // j % S of two shared buffers S - 1 steps ahead (the prologue issues the
  // first S - 1). X rows are padded by 8 elements, which keeps the reads of
  // its mma-layout tile free of bank conflicts; V rows by 16 bytes, as the
  // dot's B fragments need.
  // (Specialized kernels' stages are the producer's ring, which
  // tile-warp-specialize makes.)
  int64_t S = ws ? 0 : c.stages;
  if (ws)
    k.func->setAttr(TileDialect::getNumStagesAttrName(),
                    k.b.getI32IntegerAttr(c.stages));
  // Steps a copy runs ahead of its use: S - 1, or S - 2 with a wgmma in
  // flight (its stage stays out of the rotation for one more step). The
  // transposed product's wgmma reads only P's buffer: X's and V's stages
  // are read synchronously, so their copies run S - 1 ahead.
  int64_t ahead = c.mmaInFlight && !c.transposedProduct ? S - 2 : S - 1;
  assert((!c.mmaInFlight || overlapped ||
          (c.hopper && S >= (c.transposedProduct ? 2 : 3))) &&
         "wgmma in flight needs Hopper and 3 stages (2 transposed)");
  assert((!c.transposedProduct ||
          (c.hopper && S >= 2 && c.dtype == ElemType::F32 &&
           c.precision != InputPrecision::IEEE)) &&
         "the transposed product is Hopper's tf32 and tf32x3 path");
  // tf32x3 keeps its products apart from the accumulator (the tensor
  // cores do not round their accumulation to nearest): with the wgmma in
  // flight, step j's products start from zero and are added, after the
  // rescale, in step j + 1 (`partial`, and its rescale factor
  // `partialAlpha`); without, the dot's lowering adds them in the step.
  bool deferredSum = c.mmaInFlight && c.precision == InputPrecision::TF32x3;
  assert((!c.tma || (c.hopper && S >= 2 &&
                     (c.dtype != ElemType::F32 || c.transposedProduct))) &&
         "TMA copies are Hopper's f16/bf16 and transposed tf32 paths");
  Value xBuf, vBuf, pBuf;
  // TMA: one barrier per stage (X's and V's copies arrive on it), copies
  // only for steps the loop runs, the batch as the maps' outer coordinate.
  Value barriers, steps, batchIndex;
  auto copyStep = [&](Location loc, Value xp, Value vp, Value stage,
                      Value step) {
    if (!c.tma) {
      AsyncCopyOp::create(k.b, loc, xp, xBuf, stage);
      AsyncCopyOp::create(k.b, loc, vp, vBuf, stage);
      AsyncCommitOp::create(k.b, loc);
      return;
    }
    Value runs =
        arith::CmpIOp::create(k.b, loc, arith::CmpIPredicate::slt, step, steps);
    TmaCopyOp::create(k.b, loc, xp, xBuf, stage, k.arg(15), barriers, runs,
                      batchIndex, /*multicast=*/IntegerAttr());
    TmaCopyOp::create(k.b, loc, vp, vBuf, stage, k.arg(16), barriers, runs,
                      batchIndex, /*multicast=*/IntegerAttr());
  };
  // The transposed product reads V's rows as 8-byte column pairs, four
  // rows per warp access: rows 32 bytes apart in the banks (8 elements of
  // padding) keep those free of conflicts.
  int64_t vPad = c.transposedProduct ? 8 : 16 / byteSize(c.dtype);
  auto pType = k.tensor({BM, BK}, f32);
  if (S) {
    // The transposed product reads X in a blocked layout (16-byte pieces,
    // 8 lanes per row): 4 elements of padding keep those reads free of
    // conflicts too.
    xBuf = AllocSharedOp::create(
        k.b, k.loc,
        SharedBufferType::get(ctx, xType, S, c.transposedProduct ? 4 : 8));
    vBuf = AllocSharedOp::create(k.b, k.loc,
                                 SharedBufferType::get(ctx, vType, S, vPad));
    if (c.transposedProduct)
      pBuf = AllocSharedOp::create(k.b, k.loc,
                                   SharedBufferType::get(ctx, pType, 1, 0));
    if (c.tma) {
      barriers =
          AllocMBarriersOp::create(k.b, k.loc, MBarriersType::get(ctx, S, 2));
      steps = arith::CeilDivSIOp::create(k.b, k.loc, d2, k.ci32(BK));
      batchIndex = ProgramIdOp::create(k.b, k.loc, 2);
    }
    Value xp = xp0, vp = vp0;
    for (int64_t s = 0; s < ahead; ++s) {
      Value first = k.ci32(s); // stage s holds step s
      copyStep(k.loc, xp, vp, first, first);
      std::tie(xp, vp) = advance(k.loc, xp, vp, 1);
    }
    // The loop carries the pointers of the blocks to copy next.
    xp0 = xp;
    vp0 = vp;
  }
  // An online softmax step's results: the new maxima and sums, the
  // block's weights (f32) and the factor alpha that rescales what was
  // summed before.
  struct Step {
    Value m, l, p, alpha;
  };
  // Columns past d2 read as -inf (the copies zero-fill them).
  auto maskColumns = [&](Location loc, Value xf, Value kk) -> Value {
    Value cols =
        arith::AddIOp::create(k.b, loc, k.splat(kk, {BK}), k.range(BK));
    Value inside = k.cmp(arith::CmpIPredicate::slt, cols, k.splat(d2, {BK}));
    return arith::SelectOp::create(k.b, loc, k.spread(inside, 0, {BM, BK}), xf,
                                   k.splat(negInf, {BM, BK}));
  };
  // The step over a block xf (f32) whose masked columns are -inf.
  auto stepFrom = [&](Location loc, Value xf, Value m, Value l) -> Step {
    Value blockMax = k.reduce(ReduceKind::Max, xf, 1);
    Value mNew = arith::MaximumFOp::create(k.b, loc, m, blockMax);
    // Rows still all -inf shift by 0: exp gives 0, not NaN.
    Value allInf = arith::CmpFOp::create(k.b, loc, arith::CmpFPredicate::OEQ,
                                         mNew, k.splat(negInf, {BM}));
    Value shift =
        arith::SelectOp::create(k.b, loc, allInf, k.splat(zero, {BM}), mNew);
    Value p, alpha;
    if (foldedExp) {
      // exp(x - s) = 2^(x log2 e - s log2 e): one fma per element (the
      // subtraction and the exponential's scaling were two roundings
      // and two instructions; ptxas does not fuse the .rn forms).
      Value shift2 =
          arith::MulFOp::create(k.b, loc, shift, k.splat(log2e, {BM}));
      p = math::Exp2Op::create(
          k.b, loc,
          math::FmaOp::create(
              k.b, loc, xf, k.splat(log2e, {BM, BK}),
              arith::NegFOp::create(k.b, loc, k.spread(shift2, 1, {BM, BK}))),
          arith::FastMathFlags::afn);
      alpha = math::Exp2Op::create(
          k.b, loc,
          arith::MulFOp::create(k.b, loc,
                                arith::SubFOp::create(k.b, loc, m, shift),
                                k.splat(log2e, {BM})),
          arith::FastMathFlags::afn);
    } else {
      p = softmaxExp(
          k.b, loc,
          arith::SubFOp::create(k.b, loc, xf, k.spread(shift, 1, {BM, BK})));
      alpha = softmaxExp(k.b, loc, arith::SubFOp::create(k.b, loc, m, shift));
    }
    Value lNew = splitColumns
                     ? (Value)math::FmaOp::create(
                           k.b, loc, l, k.spread(alpha, 1, {BM, BK}), p)
                     : (Value)arith::AddFOp::create(
                           k.b, loc, arith::MulFOp::create(k.b, loc, l, alpha),
                           k.reduce(ReduceKind::Sum, p, 1));
    return Step{mNew, lNew, p, alpha};
  };

  // The step over X's block xt at column kk.
  auto softmaxStep = [&](Location loc, Value xt, Value kk, Value m,
                         Value l) -> Step {
    Value xf = k.toFloat(xt, f32);
    if (!S && !ws)
      return stepFrom(loc, xf, m, l);
    // Only the last step can be partial: the mask is applied under a
    // uniform branch. The overlapped loop's arms take the whole step, so
    // that they join after the exponentials (attention's one-loop kernels
    // showed ptxas waiting for the product in flight at a join before
    // them).
    Value partial = arith::CmpIOp::create(
        k.b, loc, arith::CmpIPredicate::sgt,
        arith::AddIOp::create(k.b, loc, kk, k.ci32(BK)), d2);
    if (overlapped) {
      auto ifOp = scf::IfOp::create(
          k.b, loc,
          TypeRange{m.getType(), l.getType(), xf.getType(), m.getType()},
          partial, /*withElse=*/true);
      for (bool masks : {true, false}) {
        OpBuilder::InsertionGuard g(k.b);
        k.b.setInsertionPointToStart(masks ? ifOp.thenBlock()
                                           : ifOp.elseBlock());
        Step step = stepFrom(loc, masks ? maskColumns(loc, xf, kk) : xf, m, l);
        scf::YieldOp::create(k.b, loc,
                             ValueRange{step.m, step.l, step.p, step.alpha});
      }
      return Step{ifOp.getResult(0), ifOp.getResult(1), ifOp.getResult(2),
                  ifOp.getResult(3)};
    }
    auto ifOp = scf::IfOp::create(k.b, loc, TypeRange{xf.getType()}, partial,
                                  /*withElse=*/true);
    {
      OpBuilder::InsertionGuard g(k.b);
      k.b.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(k.b, loc, maskColumns(loc, xf, kk));
      k.b.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(k.b, loc, xf);
    }
    return stepFrom(loc, ifOp.getResult(0), m, l);
  };

  // With the product in flight, P_j's stage is j mod 2: P_{j+1} is stored
  // while P_j V_j runs.
  auto pBlock = k.tensor({BM, BK}, elem);
  if (splitColumns)
    pBuf = AllocSharedOp::create(
        k.b, k.loc, SharedBufferType::get(ctx, pBlock, overlapped ? 2 : 1, 0));
  auto pStage = [&](Location loc, Value kk, int64_t ahead) -> Value {
    Value step = arith::DivUIOp::create(k.b, loc, kk, k.ci32(BK));
    if (ahead)
      step = arith::AddIOp::create(k.b, loc, step, k.ci32(ahead));
    return arith::RemUIOp::create(k.b, loc, step, k.ci32(2));
  };
  Value l, acc;
  if (overlapped) {
    // Step j issues P_j V_j, then computes the softmax of X's block j + 1
    // while that product runs, and rescales the accumulator after it; X's
    // first block is loaded and exponentiated before the loop. The last
    // step's block lies past d2 (copied as zeros and masked to -inf), so
    // its weights are 0 and its alpha 1: one step's softmax more, no
    // product after the loop and no buffer outside the producer's ring.
    Value x0 = BlockLoadOp::create(
        k.b, k.loc, xType,
        MakeBlockPtrOp::create(
            k.b, k.loc, BlockPointerType::get(ctx, xType), batchBase(xBase, 1),
            ValueRange{d1, d2w}, ValueRange{stride(1, 1), stride(1, 2)},
            ValueRange{rowStart, c0}, ArrayRef<int32_t>{1, 0}),
        ArrayRef<int32_t>{0, 1}, PaddingKind::Zero);
    Step first = softmaxStep(k.loc, x0, c0, m0, l0);
    // (The producer's streams start at pointers made for the loop.)
    Value xSecond =
        arrayPtr(xBase, 1, d1, d2w, rowStart, k.ci32(BK), xType, xStream);
    Value p0 = k.toFloat(first.p, elem);
    if (splitColumns)
      LocalStoreOp::create(k.b, k.loc, p0, pBuf, k.ci32(0));
    SmallVector<Value> init{first.m, first.l, acc0, p0, xSecond, vp0};
    auto loop = scf::ForOp::create(
        k.b, k.loc, c0, d2, k.ci32(BK), init,
        [&](OpBuilder &b, Location loc, Value kk, ValueRange it) {
          OpBuilder::InsertionGuard guard(k.b);
          k.b.setInsertionPoint(b.getInsertionBlock(), b.getInsertionPoint());
          Value m = it[0], l = it[1], acc = it[2], p = it[3], xp = it[4],
                vp = it[5];
          if (splitColumns)
            p = LocalLoadOp::create(k.b, loc, pBlock, pBuf, pStage(loc, kk, 0));
          if (c.pingpong)
            WaitTurnOp::create(k.b, loc);
          Value sum = DotOp::create(k.b, loc, acc.getType(), p,
                                    loadV(k.b, loc, vp), acc, c.precision);
          if (c.pingpong)
            PassTurnOp::create(k.b, loc);
          Step step = softmaxStep(
              loc, loadX(k.b, loc, xp),
              arith::AddIOp::create(k.b, loc, kk, k.ci32(BK)), m, l);
          // Kept rounded through the loop: LLVM would otherwise carry the
          // weights in f32 and round them at the top of the step.
          Value pNext = k.toFloat(step.p, elem);
          if (splitColumns)
            // Into the stage the running product does not read (the
            // loop carries the first block's registers unchanged, unused).
            LocalStoreOp::create(k.b, loc, pNext, pBuf, pStage(loc, kk, 1));
          else
            pNext =
                OptimizationBarrierOp::create(k.b, loc, pNext.getType(), pNext);
          auto [xAfter, vAfter] = advance(loc, xp, vp, 1);
          scf::YieldOp::create(
              k.b, loc,
              ValueRange{step.m, step.l,
                         arith::MulFOp::create(
                             k.b, loc, sum, k.spread(step.alpha, 1, {BM, BN})),
                         splitColumns ? it[3] : pNext, xAfter, vAfter});
        });
    loop->setAttr(TileDialect::getWarpSpecializeAttrName(), UnitAttr::get(ctx));
    l = loop.getResult(1);
    acc = loop.getResult(2);
    if (splitColumns)
      l = k.reduce(ReduceKind::Sum, l, 1);
  } else {
    SmallVector<Value> init{m0, l0, acc0, xp0, vp0};
    if (deferredSum)
      init.append({acc0, k.splat(one, {BM})});
    if (splitV)
      init.push_back(vlp0);
    auto loop = scf::ForOp::create(
        k.b, k.loc, c0, d2, k.ci32(BK), init,
        [&](OpBuilder &b, Location loc, Value kk, ValueRange it) {
          OpBuilder::InsertionGuard guard(k.b);
          k.b.setInsertionPoint(b.getInsertionBlock(), b.getInsertionPoint());
          Value m = it[0], l = it[1], acc = it[2], xp = it[3], vp = it[4];
          auto [xNext, vNext] = advance(loc, xp, vp, 1);
          Value xt, stage;
          if (S) {
            // Step j's blocks have landed once at most ahead - 1 newer groups
            // are in flight; the wait's barrier also ends the reads of the
            // stage the next copy overwrites: step j - 1's (j - 2's with a
            // wgmma in flight, which every warp waited for in step j - 1).
            if (!c.tma)
              AsyncWaitOp::create(k.b, loc, ahead - 1);
            Value step = arith::DivUIOp::create(k.b, loc, kk, k.ci32(BK));
            stage = arith::RemUIOp::create(k.b, loc, step, k.ci32(S));
            if (c.tma) {
              // Step j's copies are barrier j mod S's (j / S)-th phase.
              Value parity = arith::RemUIOp::create(
                  k.b, loc, arith::DivUIOp::create(k.b, loc, step, k.ci32(S)),
                  k.ci32(2));
              MBarrierWaitOp::create(k.b, loc, barriers, stage, parity);
            }
            Value aheadStep =
                arith::AddIOp::create(k.b, loc, step, k.ci32(ahead));
            Value target =
                arith::RemUIOp::create(k.b, loc, aheadStep, k.ci32(S));
            copyStep(loc, xp, vp, target, aheadStep);
            xt = LocalLoadOp::create(k.b, loc, xType, xBuf, stage);
          } else {
            xt = loadX(k.b, loc, xp);
          }
          auto [mNew, lNew, p, alpha] = softmaxStep(loc, xt, kk, m, l);
          Value scaled = deferredSum || splitV
                             ? Value()
                             : (Value)arith::MulFOp::create(
                                   k.b, loc, acc, k.spread(alpha, 1, {BM, BN}));
          Value pa = k.toFloat(p, elem);
          if (c.transposedProduct || splitColumns) {
            // Stored after the rescale: the wait for the previous step's
            // wgmma (which reads this buffer) comes no earlier than the
            // accumulator's first use.
            LocalStoreOp::create(k.b, loc, pa, pBuf, k.ci32(0));
            pa = LocalLoadOp::create(
                k.b, loc, cast<SharedBufferType>(pBuf.getType()).getBlockType(),
                pBuf, k.ci32(0));
          }
          // Read V last, right before the dot, which then takes its B
          // fragments from the buffer directly.
          Value vTile =
              S ? (Value)LocalLoadOp::create(k.b, loc, vType, vBuf, stage)
              : splitV ? Value()
                       : loadV(k.b, loc, vp);
          if (deferredSum) {
            // acc_{j-1} = acc_{j-2} alpha_{j-1} + P_{j-1} V_{j-1}, after this
            // step's exponentials (the first use of the partial products,
            // which waits for their wgmma); P_j V_j from zero, in flight.
            Value partial = it[5], partialAlpha = it[6];
            Value accPrev = math::FmaOp::create(
                k.b, loc, acc, k.spread(partialAlpha, 1, {BM, BN}), partial);
            Value products =
                DotOp::create(k.b, loc, acc.getType(), pa, vTile,
                              k.splat(zero, {BM, BN}), c.precision);
            scf::YieldOp::create(
                k.b, loc,
                ValueRange{mNew, lNew, accPrev, xNext, vNext, products, alpha});
            return;
          }
          if (splitV) {
            // P = big + small and V = big + small (the prelude's two
            // arrays), each part a tf32 value: small x big, big x small
            // and big x big from zero, added in f32 (the tensor cores
            // truncate their sums; the step's are small).
            Value vlp = it[5];
            Value vBig = loadStreamed(k.b, loc, vp, vtType, vStream);
            Value vSmall = loadStreamed(k.b, loc, vlp, vtType, vStream);
            auto split =
                TF32PartsOp::create(k.b, loc, pa.getType(), pa.getType(), pa);
            Value pBig = split.getHi(), pSmall = split.getLo();
            auto dot = [&](Value a, Value rows, Value into) -> Value {
              Value b = TransOp::create(k.b, loc, vType, rows,
                                        ArrayRef<int32_t>{1, 0});
              return DotOp::create(k.b, loc, acc.getType(), a, b, into,
                                   InputPrecision::TF32);
            };
            Value products = dot(
                pBig, vBig,
                dot(pBig, vSmall, dot(pSmall, vBig, k.splat(zero, {BM, BN}))));
            Value vlNext =
                AdvanceOp::create(k.b, loc, vlp.getType(), vlp,
                                  ValueRange{k.ci32(0), k.ci32(0), k.ci32(BK)})
                    .getResult();
            // The rescale and the sum as one fma per element.
            Value accNew = math::FmaOp::create(
                k.b, loc, acc, k.spread(alpha, 1, {BM, BN}), products);
            scf::YieldOp::create(
                k.b, loc, ValueRange{mNew, lNew, accNew, xNext, vNext, vlNext});
            return;
          }
          // tf32 reading V transposed: P rounded by tile.tf32_parts (one
          // instruction per element on sm_90, the dot's own rounding takes
          // three; the remainder goes unused).
          if (vt)
            pa = TF32PartsOp::create(k.b, loc, pa.getType(), pa.getType(), pa)
                     .getHi();
          if (c.pingpong)
            WaitTurnOp::create(k.b, loc);
          Value accNew = DotOp::create(k.b, loc, scaled.getType(), pa, vTile,
                                       scaled, c.precision);
          if (c.pingpong)
            PassTurnOp::create(k.b, loc);
          scf::YieldOp::create(k.b, loc,
                               ValueRange{mNew, lNew, accNew, xNext, vNext});
        });
    if (c.mmaInFlight)
      loop->setAttr(TileDialect::getMmaInFlightAttrName(), UnitAttr::get(ctx));
    if (ws)
      loop->setAttr(TileDialect::getWarpSpecializeAttrName(),
                    UnitAttr::get(ctx));
    l = loop.getResult(1);
    acc = loop.getResult(2);
    if (splitColumns)
      l = k.reduce(ReduceKind::Sum, l, 1);
    if (deferredSum)
      acc = math::FmaOp::create(k.b, k.loc, acc,
                                k.spread(loop.getResult(6), 1, {BM, BN}),
                                loop.getResult(5));
  }
  // One reciprocal per row, not a division per output element (each a
  // dozen instructions; the epilogue dominated small d2).
  Value invL = arith::DivFOp::create(k.b, k.loc, k.splat(one, {BM}), l);
  Value o = arith::MulFOp::create(k.b, k.loc, acc, k.spread(invL, 1, {BM, BN}));
  auto oType = k.tensor({BM, BN}, elem);
  auto obp = MakeBlockPtrOp::create(
      k.b, k.loc, BlockPointerType::get(ctx, oType), batchBase(outBase, 0),
      ValueRange{d1, d3}, ValueRange{stride(0, 1), stride(0, 2)},
      ValueRange{rowStart, colStart}, ArrayRef<int32_t>{1, 0});
  Value out = k.toFloat(o, elem);
  // Hopper builds store from a coalesced layout (16-byte vectors along
  // rows) through shared memory, not from the accumulator's layout, whose
  // lanes write 4 or 8 bytes per row: 0.033 -> 0.023 ms at d2 = 64 for the
  // f16 64 x 128 tile (measured on an H200, 2026-11-23;
  // docs/perf-notes.md), where the output dominates. The mma.sync builds
  // measured slower with it (more registers: tf32 64 x 128 2.4 -> 3.3 ms at
  // d2 = 8192) and keep the direct store. The staging reuses the buffers'
  // bytes once the loop is done (see the shared memory plan in
  // TileToLLVMPass.cpp), so f16/bf16 take it up to the buffers' size
  // (measured on an H200, 2026-11-23: the 128 x 64 x 256 f16 tile with 3
  // stages 0.080 -> 0.064 ms at d2 = 512, 0.121 -> 0.106 at 1024). tf32's
  // 128 x 256 tiles measured slower with it at short d2 (0.061 -> 0.065 ms
  // at d2 = 128; 252 registers): f32 keeps the earlier bound (72 KiB, and
  // 156 KiB with the buffers).
  int64_t bytes = byteSize(c.dtype);
  int64_t staging = BM * (BN + 16 / bytes) * bytes;
  int64_t buffers =
      c.stages *
      (BM * (BK + (c.transposedProduct ? 4 : 8)) + BK * (BN + vPad)) * bytes;
  // The transposed product's accumulator holds 2 x 2 squares (8-byte
  // rows per lane): it takes the coalesced store within its buffers.
  bool coalescedStore =
      bytes == 2 || c.transposedProduct
          ? staging <= std::max<int64_t>(72 * 1024, buffers)
          : staging <= 72 * 1024 && staging + buffers <= 156 * 1024;
  if (c.hopper && coalescedStore)
    out = ConvertLayoutOp::create(k.b, k.loc, out.getType(), out);
  BlockStoreOp::create(k.b, k.loc, obp, out, ArrayRef<int32_t>{0, 1});
  if (tiles)
    k.b.setInsertionPointAfter(tiles);
  k.finish();
  return k.func;
}
