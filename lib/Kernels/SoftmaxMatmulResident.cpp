//===- SoftmaxMatmulResident.cpp - softmax(X) @ V for short rows ----------===//
//
// buildSoftmaxMatmulResident: for short rows, the softmax of a block of
// rows is computed once and kept in registers while the program walks
// several column blocks of V.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include <limits>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::kernels;

func::FuncOp
mlir::tile::buildSoftmaxMatmulResident(ModuleOp module,
                                       const SoftmaxMatmulConfig &c) {
  assert(c.residentProducts > 0 && !c.mmaInFlight && !c.minProgramsPerSM &&
         "a short-row configuration");
  assert((!c.transposedProduct || (c.hopper && c.dtype == ElemType::F32 &&
                                   c.precision == InputPrecision::TF32)) &&
         "the transposed product is Hopper's tf32 path");
  MLIRContext *ctx = module.getContext();
  Type elem = getElemType(ctx, c.dtype);
  OpBuilder tmp(ctx);
  Type i64 = tmp.getI64Type();
  KernelBuilder k = startSoftmaxMatmul(module, c);
  // The V loop's blocks go through tile-pipeline-loops.
  if (c.stages)
    k.func->setAttr(TileDialect::getNumStagesAttrName(),
                    tmp.getI32IntegerAttr(c.stages));
  int64_t BM = c.blockM, BK = c.blockK, BN = c.blockN;
  int64_t columns = BN * c.residentProducts;
  Value d1 = k.extsi(k.arg(3), i64), d2 = k.extsi(k.arg(4), i64),
        d3i = k.arg(5), d3 = k.extsi(d3i, i64);
  auto stride = [&](unsigned tensor, unsigned dim) {
    return k.arg(6 + 3 * tensor + dim);
  };
  Value batch = k.extsi(ProgramIdOp::create(k.b, k.loc, 2), i64);
  auto batchBase = [&](unsigned tensor) {
    return k.ptrAdd(k.arg(tensor), arith::MulIOp::create(k.b, k.loc, batch,
                                                         stride(tensor, 0)));
  };
  Value rowStart = arith::MulIOp::create(
      k.b, k.loc, ProgramIdOp::create(k.b, k.loc, 0), k.ci32(BM));
  Value colStart = arith::MulIOp::create(
      k.b, k.loc, ProgramIdOp::create(k.b, k.loc, 1), k.ci32(columns));
  Value c0 = k.ci32(0);
  auto blockPtr = [&](unsigned tensor, RankedTensorType type, Value rows,
                      Value cols, Value row, Value col) {
    return MakeBlockPtrOp::create(
               k.b, k.loc, BlockPointerType::get(ctx, type), batchBase(tensor),
               ValueRange{rows, cols},
               ValueRange{stride(tensor, 1), stride(tensor, 2)},
               ValueRange{row, col}, ArrayRef<int32_t>{1, 0})
        .getResult();
  };

  // The whole row block of X (d2 <= BK; the padding is -inf), its softmax
  // normalized once: every column block reuses it.
  auto xType = k.tensor({BM, BK}, elem);
  Value x = BlockLoadOp::create(k.b, k.loc, xType,
                                blockPtr(1, xType, d1, d2, rowStart, c0),
                                ArrayRef<int32_t>{0, 1}, PaddingKind::NegInf);
  Type f32 = k.f32();
  Value xf = k.toFloat(x, f32);
  double inf = std::numeric_limits<double>::infinity();
  Value rowMax = k.reduce(ReduceKind::Max, xf, 1);
  // Rows past d1 are all -inf: shift them by 0 (their outputs are not
  // stored).
  Value allInf = arith::CmpFOp::create(k.b, k.loc, arith::CmpFPredicate::OEQ,
                                       rowMax, k.splat(k.cf(f32, -inf), {BM}));
  Value shift = arith::SelectOp::create(k.b, k.loc, allInf,
                                        k.splat(k.cf(f32, 0.0), {BM}), rowMax);
  Value e = softmaxExp(
      k.b, k.loc,
      arith::SubFOp::create(k.b, k.loc, xf, k.spread(shift, 1, {BM, BK})));
  Value invSum =
      arith::DivFOp::create(k.b, k.loc, k.splat(k.cf(f32, 1.0), {BM}),
                            k.reduce(ReduceKind::Sum, e, 1));
  Value p = k.toFloat(
      arith::MulFOp::create(k.b, k.loc, e, k.spread(invSum, 1, {BM, BK})),
      elem);
  Value pBuf;
  if (c.transposedProduct) {
    // tf32 on Hopper: P goes into a shared buffer once, and each column
    // block's dot reads it back as `a`: wgmma then computes the product
    // transposed, with V's row-major stage as its A fragments
    // (getTransposedWgmmaLayout).
    pBuf = AllocSharedOp::create(k.b, k.loc,
                                 SharedBufferType::get(ctx, xType, 1, 0));
    LocalStoreOp::create(k.b, k.loc, p, pBuf, k.ci32(0));
  } else {
    // Computed in the load's coalesced layout, converted once into the one
    // the dots take their `a` operand from registers in.
    p = ConvertLayoutOp::create(k.b, k.loc, p.getType(), p);
  }

  // This program's column blocks: p @ V[:, n .. n + BN) for n from colStart
  // while below d3, each stored right away.
  auto vType = k.tensor({BK, BN}, elem), oType = k.tensor({BM, BN}, elem);
  auto accType = k.tensor({BM, BN}, f32);
  Value colEnd = arith::MinSIOp::create(
      k.b, k.loc, arith::AddIOp::create(k.b, k.loc, colStart, k.ci32(columns)),
      d3i);
  Value vp0 = blockPtr(2, vType, d2, d3, c0, colStart);
  Value op0 = blockPtr(0, oType, d1, d3, rowStart, colStart);
  Value zeros = k.splat(k.cf(f32, 0.0), {BM, BN});
  scf::ForOp::create(
      k.b, k.loc, colStart, colEnd, k.ci32(BN), ValueRange{vp0, op0},
      [&](OpBuilder &b, Location loc, Value, ValueRange it) {
        OpBuilder::InsertionGuard guard(k.b);
        k.b.setInsertionPoint(b.getInsertionBlock(), b.getInsertionPoint());
        Value vp = it[0], op = it[1];
        Value v = BlockLoadOp::create(
            k.b, loc, vType, vp, ArrayRef<int32_t>{0, 1}, PaddingKind::Zero);
        Value pa =
            c.transposedProduct
                ? (Value)LocalLoadOp::create(k.b, loc, xType, pBuf, k.ci32(0))
                : p;
        Value acc = DotOp::create(k.b, loc, accType, pa, v, zeros, c.precision);
        // Stored from a coalesced layout (16-byte vectors along rows), not
        // from the accumulator's, whose lanes write a few bytes per row.
        Value out = k.toFloat(acc, elem);
        out = ConvertLayoutOp::create(k.b, loc, out.getType(), out);
        BlockStoreOp::create(k.b, loc, op, out, ArrayRef<int32_t>{0, 1});
        Value step[] = {k.ci32(0), k.ci32(BN)};
        scf::YieldOp::create(
            k.b, loc,
            ValueRange{AdvanceOp::create(k.b, loc, vp.getType(), vp, step),
                       AdvanceOp::create(k.b, loc, op.getType(), op, step)});
      });
  k.finish();
  return k.func;
}
