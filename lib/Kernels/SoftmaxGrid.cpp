//===- SoftmaxGrid.cpp - Softmax over rows split across the grid ----------===//
//
// buildSoftmaxGrid: the programs of a row exchange their slices'
// statistics through global memory (tile.atomic_add, tile.wait_at_least).
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include <limits>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::kernels;

func::FuncOp mlir::tile::buildSoftmaxGrid(ModuleOp module,
                                          const SoftmaxGridConfig &c) {
  MLIRContext *ctx = module.getContext();
  Type in = getElemType(ctx, c.in), out = getElemType(ctx, c.out);
  SmallVector<Type> argTypes = getSoftmaxArgTypes(ctx, in, out);
  Type i32 = IntegerType::get(ctx, 32), f32 = Float32Type::get(ctx);
  argTypes.append({PointerType::get(ctx, i32), PointerType::get(ctx, f32)});
  KernelBuilder k(module, getKernelName(c), argTypes, c.numWarps);
  setSoftmaxAlignment(k.func, /*aligned=*/true, c.in, c.out, c.colsAligned);
  if (c.rematerialize)
    k.func->setAttr(TileDialect::getRematerializeAttrName(), k.b.getUnitAttr());
  if (c.minProgramsPerSM)
    k.func->setAttr(TileDialect::getMinProgramsPerSMAttrName(),
                    k.b.getI32IntegerAttr((int32_t)c.minProgramsPerSM));
  int64_t B = c.block, P = c.maxSlices;
  Value y = k.arg(0), x = k.arg(1), yStride = k.arg(2), xStride = k.arg(3);
  Value nCols = k.arg(5), counters = k.arg(6), stats = k.arg(7);
  // The program's (row, slice) by ticket: programs waiting for a row's
  // other slices hold earlier tickets than those, so the ones they wait
  // for have started (or will, as earlier rows finish).
  Value ticket = AtomicAddOp::create(k.b, k.loc, i32, counters, k.ci32(1));
  // n_cols < 2^31: n_cols + B - 1 stays below 2^32.
  Value slices = arith::DivUIOp::create(
      k.b, k.loc, arith::AddIOp::create(k.b, k.loc, nCols, k.ci32(B - 1)),
      k.ci32(B));
  Value row32 = arith::DivUIOp::create(k.b, k.loc, ticket, slices);
  Value rank = arith::RemUIOp::create(k.b, k.loc, ticket, slices);
  Value row = k.extsi(row32, k.i64());
  Value xRow = k.ptrAdd(x, arith::MulIOp::create(k.b, k.loc, row, xStride));
  Value yRow = k.ptrAdd(y, arith::MulIOp::create(k.b, k.loc, row, yStride));
  Value idx = arith::AddIOp::create(
      k.b, k.loc,
      k.splat(arith::MulIOp::create(k.b, k.loc, rank, k.ci32(B)), {B}),
      k.range(B));
  Value mask = k.cmp(arith::CmpIPredicate::slt, idx, k.splat(nCols, {B}));
  double inf = std::numeric_limits<double>::infinity();
  Value xv = k.toFloat(LoadOp::create(k.b, k.loc, k.tensor({B}, in),
                                      k.ptrAdd(k.splat(xRow, {B}), idx), mask,
                                      k.splat(k.cf(in, -inf), {B})),
                       k.f32());
  // This slice's max and sum of exp(x - max), published at (row, rank).
  // The exponentials stay in registers in place of x: y is e times one
  // factor per slice, one exponential per element (two made the 2-byte
  // builds wait on the MUFU pipe: 16 per cycle and SM at full bandwidth).
  Value m = k.reduce(ReduceKind::Max, xv, 0);
  Value localShift = finiteShift(k, k.loc, m);
  Value e = softmaxExp(
      k.b, k.loc,
      arith::SubFOp::create(k.b, k.loc, xv, k.splat(localShift, {B})));
  Value sum = k.reduce(ReduceKind::Sum, e, 0);
  Value rowStats =
      k.ptrAdd(stats, arith::MulIOp::create(k.b, k.loc, row32, k.ci32(2 * P)));
  StoreOp::create(k.b, k.loc, k.ptrAdd(rowStats, rank), m, Value());
  StoreOp::create(
      k.b, k.loc,
      k.ptrAdd(rowStats, arith::AddIOp::create(k.b, k.loc, rank, k.ci32(P))),
      sum, Value());
  // Arrive at the row's counter, then wait for its other slices.
  Value rowCounter =
      k.ptrAdd(counters, arith::AddIOp::create(k.b, k.loc, row32, k.ci32(1)));
  AtomicAddOp::create(k.b, k.loc, i32, rowCounter, k.ci32(1));
  WaitAtLeastOp::create(k.b, k.loc, rowCounter, slices);
  // Merge the slices' pairs as online softmax merges blocks:
  // M = max m_r, L = sum l_r * exp(m_r - M); y = exp(x - M) / L.
  Value ranks = k.range(P);
  Value present = k.cmp(arith::CmpIPredicate::slt, ranks, k.splat(slices, {P}));
  Value maxes = LoadOp::create(k.b, k.loc, k.tensor({P}, f32),
                               k.ptrAdd(k.splat(rowStats, {P}), ranks), present,
                               k.splat(k.cf(f32, -inf), {P}));
  Value sums =
      LoadOp::create(k.b, k.loc, k.tensor({P}, f32),
                     k.ptrAdd(k.splat(rowStats, {P}),
                              arith::AddIOp::create(k.b, k.loc, ranks,
                                                    k.splat(k.ci32(P), {P}))),
                     present, k.splat(k.cf(f32, 0.0), {P}));
  auto [shift, inv] = mergeSliceStats(k, maxes, sums);
  // y = e * exp(m - M) / L; a slice of -inf (e = 0) takes 0, not
  // 0 * exp(0 - M), which overflows for M below -88.
  Value sliceInf = arith::CmpFOp::create(k.b, k.loc, arith::CmpFPredicate::OEQ,
                                         m, k.cf(f32, -inf));
  Value factor = arith::SelectOp::create(
      k.b, k.loc, sliceInf, k.cf(f32, 0.0),
      arith::MulFOp::create(
          k.b, k.loc,
          softmaxExp(k.b, k.loc,
                     arith::SubFOp::create(k.b, k.loc, localShift, shift)),
          inv));
  Value yv = arith::MulFOp::create(k.b, k.loc, e, k.splat(factor, {B}));
  StoreOp::create(k.b, k.loc, k.ptrAdd(k.splat(yRow, {B}), idx),
                  k.toFloat(yv, out), mask);
  k.finish();
  return k.func;
}
