//===- SoftmaxCluster.cpp - Softmax by clusters of programs ---------------===//
//
// buildSoftmaxCluster: the programs of a cluster split a row and merge
// their (max, sum) pairs through tile.cluster_gather; the `loop`
// configuration runs both online passes over each program's slice.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "OnlineRowPasses.h"

#include <limits>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::kernels;

/// The cluster kernel of a `loop` configuration: program r of a row's
/// cluster runs both passes of online softmax over its slice of the row,
/// [r * W, r * W + W) with W = cdiv(cdiv(n_cols, C), B) * B, and merges
/// the slices' (max, sum) pairs between the passes. Its pass 2 re-reads a
/// C-th of the row, which pass 1 read just before, from L2.
static void buildSoftmaxClusterLoop(KernelBuilder &k,
                                    const SoftmaxClusterConfig &c, Type in,
                                    Type out) {
  int64_t B = c.block, C = c.clusterSize;
  Value y = k.arg(0), x = k.arg(1), yStride = k.arg(2), xStride = k.arg(3);
  Value nCols = k.arg(5);
  Value pid = ProgramIdOp::create(k.b, k.loc, 0);
  Value row =
      k.extsi(arith::DivUIOp::create(k.b, k.loc, pid, k.ci32(C)), k.i64());
  Value rank = arith::RemUIOp::create(k.b, k.loc, pid, k.ci32(C));
  Value xRow = k.ptrAdd(x, arith::MulIOp::create(k.b, k.loc, row, xStride));
  Value yRow = k.ptrAdd(y, arith::MulIOp::create(k.b, k.loc, row, yStride));
  // n_cols < 2^31, so W * C stays below 2^31 + C * B.
  auto cdiv = [&](Value a, int64_t d) {
    return arith::DivUIOp::create(
        k.b, k.loc, arith::AddIOp::create(k.b, k.loc, a, k.ci32(d - 1)),
        k.ci32(d));
  };
  Value width =
      arith::MulIOp::create(k.b, k.loc, cdiv(cdiv(nCols, C), B), k.ci32(B));
  Value begin = arith::MinUIOp::create(
      k.b, k.loc, arith::MulIOp::create(k.b, k.loc, rank, width), nCols);
  Value end = arith::MinUIOp::create(
      k.b, k.loc, arith::AddIOp::create(k.b, k.loc, begin, width), nCols);
  OnlineRowPasses passes(k, in, out, B, xRow, yRow, nCols);
  auto [m, l] = passes.stats(begin, end);
  // Every program gets all (m, l) pairs, merged as online softmax merges
  // blocks: M = max m_r, L = sum l_r * exp(m_r - M). A program without
  // columns contributes (-inf, 0); M is replaced by 0 where it is -inf.
  auto gathered = ClusterGatherOp::create(
      k.b, k.loc, TypeRange{k.tensor({C}, k.f32()), k.tensor({C}, k.f32())},
      ValueRange{m, l});
  auto [shift, inv] =
      mergeSliceStats(k, gathered.getResult(0), gathered.getResult(1));
  passes.normalize(begin, end, shift, inv);
}

func::FuncOp mlir::tile::buildSoftmaxCluster(ModuleOp module,
                                             const SoftmaxClusterConfig &c) {
  MLIRContext *ctx = module.getContext();
  Type in = getElemType(ctx, c.in), out = getElemType(ctx, c.out);
  KernelBuilder k(module, getKernelName(c), getSoftmaxArgTypes(ctx, in, out),
                  c.numWarps);
  setSoftmaxAlignment(k.func, c.aligned, c.in, c.out, c.colsAligned);
  k.func->setAttr(TileDialect::getClusterSizeAttrName(),
                  k.b.getI32IntegerAttr((int32_t)c.clusterSize));
  if (c.minProgramsPerSM)
    k.func->setAttr(TileDialect::getMinProgramsPerSMAttrName(),
                    k.b.getI32IntegerAttr((int32_t)c.minProgramsPerSM));
  if (c.loop) {
    buildSoftmaxClusterLoop(k, c, in, out);
    k.finish();
    return k.func;
  }
  int64_t B = c.block, C = c.clusterSize;
  Value y = k.arg(0), x = k.arg(1), yStride = k.arg(2), xStride = k.arg(3);
  Value nCols = k.arg(5);
  // Program p is rank p % C of cluster p / C and holds columns
  // [rank * B, rank * B + B) of its cluster's rows.
  Value pid = ProgramIdOp::create(k.b, k.loc, 0);
  Value cluster = arith::DivUIOp::create(k.b, k.loc, pid, k.ci32(C));
  Value rank = arith::RemUIOp::create(k.b, k.loc, pid, k.ci32(C));
  Value start = arith::MulIOp::create(k.b, k.loc, rank, k.ci32(B));
  Value idx =
      arith::AddIOp::create(k.b, k.loc, k.splat(start, {B}), k.range(B));
  Value colValid = k.cmp(arith::CmpIPredicate::slt, idx, k.splat(nCols, {B}));
  Value negInf = k.cf(in, -std::numeric_limits<double>::infinity());

  auto rowPointers = [&](Location loc, Value base, Value row, Value stride) {
    Value offset =
        arith::MulIOp::create(k.b, loc, k.extsi(row, k.i64()), stride);
    return k.ptrAdd(k.splat(k.ptrAdd(base, offset), {B}), idx);
  };
  // This program's block of `row` (-inf past the row's end).
  auto load = [&](Location loc, Value row) -> Value {
    return LoadOp::create(k.b, loc, k.tensor({B}, in),
                          rowPointers(loc, x, row, xStride), colValid,
                          k.splat(negInf, {B}));
  };
  // The softmax of this program's block of `row`, stored. Its max m and
  // sum s of exp(x - m); one exchange gives every program all (m, s)
  // pairs, merged as online softmax merges blocks: M = max m_r,
  // S = sum s_r * exp(m_r - M), y = exp(x - m) * exp(m - M) / S.
  auto compute = [&](Location loc, Value row, Value xv) {
    Value xf = k.toFloat(xv, k.f32());
    Value m = k.reduce(ReduceKind::Max, xf, 0);
    Value mShift = finiteShift(k, loc, m);
    Value e = softmaxExp(
        k.b, loc, arith::SubFOp::create(k.b, loc, xf, k.splat(mShift, {B})));
    Value sum = k.reduce(ReduceKind::Sum, e, 0);
    auto gathered = ClusterGatherOp::create(
        k.b, loc, TypeRange{k.tensor({C}, k.f32()), k.tensor({C}, k.f32())},
        ValueRange{m, sum});
    Value maxes = gathered.getResult(0), sums = gathered.getResult(1);
    Value rowShift = finiteShift(k, loc, k.reduce(ReduceKind::Max, maxes, 0));
    Value scales = softmaxExp(
        k.b, loc,
        arith::SubFOp::create(k.b, loc, maxes, k.splat(rowShift, {C})));
    Value rowSum = k.reduce(ReduceKind::Sum,
                            arith::MulFOp::create(k.b, loc, sums, scales), 0);
    Value scale =
        softmaxExp(k.b, loc, arith::SubFOp::create(k.b, loc, mShift, rowShift));
    Value factor = arith::DivFOp::create(k.b, loc, scale, rowSum);
    Value yv = arith::MulFOp::create(k.b, loc, e, k.splat(factor, {B}));
    StoreOp::create(k.b, loc, rowPointers(loc, y, row, yStride),
                    k.toFloat(yv, out), colValid);
  };

  // One row per cluster: the grid has n_rows clusters.
  compute(k.loc, cluster, load(k.loc, cluster));
  k.finish();
  return k.func;
}
