//===- OnlineRowPasses.h - The two passes of online softmax -----*- C++ -*-===//
//
// OnlineRowPasses writes the two passes of online softmax over part of a
// row; buildSoftmaxOnline and the cluster kernel's loop share it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_KERNELS_ONLINEROWPASSES_H
#define TILE_LIB_KERNELS_ONLINEROWPASSES_H

#include "KernelBuilder.h"

#include <limits>
#include <utility>

namespace mlir {
namespace tile {
namespace kernels {

/// The two passes of online softmax over the columns [begin, end) of one
/// row, in blocks of B (masked past n_cols): the running max and sum of
/// exponentials, then the normalization, which walks the blocks in reverse
/// order so that the ones pass 1 read last, the likeliest still in L2, are
/// read first.
class OnlineRowPasses {
public:
  OnlineRowPasses(KernelBuilder &k, Type in, Type out, int64_t block,
                  Value xRow, Value yRow, Value nCols)
      : k(k), in(in), out(out), B(block), xRow(xRow), yRow(yRow), nCols(nCols),
        cols(k.range(block)),
        negInfIn(k.cf(in, -std::numeric_limits<double>::infinity())),
        negInf(k.cf(k.f32(), -std::numeric_limits<double>::infinity())),
        zero(k.cf(k.f32(), 0.0)) {}

  /// Pass 1: the max m of the columns and the sum l of exp(x - m) (-inf
  /// and 0 when [begin, end) is empty).
  std::pair<Value, Value> stats(Value begin, Value end) {
    auto loop = scf::ForOp::create(
        k.b, k.loc, begin, end, k.ci32(B), ValueRange{negInf, zero},
        [&](OpBuilder &b, Location loc, Value start, ValueRange iter) {
          OpBuilder::InsertionGuard guard(k.b);
          k.b.setInsertionPoint(b.getInsertionBlock(), b.getInsertionPoint());
          Value xf = load(loc, start).x;
          Value m = iter[0], l = iter[1];
          Value blockMax = k.reduce(ReduceKind::Max, xf, 0);
          Value mNew = arith::MaximumFOp::create(k.b, loc, m, blockMax);
          // While every value so far is -inf, shift by 0 instead (no NaN).
          Value allInf = arith::CmpFOp::create(
              k.b, loc, arith::CmpFPredicate::OEQ, mNew, negInf);
          Value shift = arith::SelectOp::create(k.b, loc, allInf, zero, mNew);
          Value scale =
              softmaxExp(k.b, loc, arith::SubFOp::create(k.b, loc, m, shift));
          Value e = softmaxExp(
              k.b, loc,
              arith::SubFOp::create(k.b, loc, xf, k.splat(shift, {B})));
          Value lNew = arith::AddFOp::create(
              k.b, loc, arith::MulFOp::create(k.b, loc, l, scale),
              k.reduce(ReduceKind::Sum, e, 0));
          scf::YieldOp::create(k.b, loc, ValueRange{mNew, lNew});
        });
    return {loop.getResult(0), loop.getResult(1)};
  }

  /// Pass 2: y = exp(x - shift) * inv over [begin, end), last block first.
  void normalize(Value begin, Value end, Value shift, Value inv) {
    Value span = arith::SubIOp::create(k.b, k.loc, end, begin);
    Value lastStart = arith::AddIOp::create(
        k.b, k.loc, begin,
        arith::MulIOp::create(
            k.b, k.loc,
            arith::DivSIOp::create(
                k.b, k.loc, arith::SubIOp::create(k.b, k.loc, span, k.ci32(1)),
                k.ci32(B)),
            k.ci32(B)));
    scf::ForOp::create(
        k.b, k.loc, k.ci32(0), span, k.ci32(B), ValueRange{},
        [&](OpBuilder &b, Location loc, Value done, ValueRange) {
          OpBuilder::InsertionGuard guard(k.b);
          k.b.setInsertionPoint(b.getInsertionBlock(), b.getInsertionPoint());
          Value start = arith::SubIOp::create(k.b, loc, lastStart, done);
          ColumnBlock block = load(loc, start);
          Value e = softmaxExp(
              k.b, loc,
              arith::SubFOp::create(k.b, loc, block.x, k.splat(shift, {B})));
          Value yv = arith::MulFOp::create(k.b, loc, e, k.splat(inv, {B}));
          StoreOp::create(k.b, loc, k.ptrAdd(k.splat(yRow, {B}), block.idx),
                          k.toFloat(yv, out), block.mask);
          scf::YieldOp::create(k.b, loc);
        });
  }

private:
  /// The block of columns [start, start + B) of the row, as f32 (-inf past
  /// the end), with its column indices and mask.
  struct ColumnBlock {
    Value idx, mask, x;
  };
  ColumnBlock load(Location loc, Value start) {
    Value idx = arith::AddIOp::create(k.b, loc, k.splat(start, {B}), cols);
    Value mask = k.cmp(arith::CmpIPredicate::slt, idx, k.splat(nCols, {B}));
    Value xv = LoadOp::create(k.b, loc, k.tensor({B}, in),
                              k.ptrAdd(k.splat(xRow, {B}), idx), mask,
                              k.splat(negInfIn, {B}));
    return {idx, mask, k.toFloat(xv, k.f32())};
  }

  KernelBuilder &k;
  Type in, out;
  int64_t B;
  Value xRow, yRow, nCols, cols, negInfIn, negInf, zero;
};

} // namespace kernels
} // namespace tile
} // namespace mlir

#endif // TILE_LIB_KERNELS_ONLINEROWPASSES_H
