//===- KernelHelpers.cpp - Helpers shared by the library kernels ----------===//
//
// Element types, the softmax kernels' signature and alignment promises,
// their exponential, and the merge of per-slice softmax statistics
// (declared in KernelBuilder.h).
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::kernels;

ElemType mlir::tile::kernels::toElemType(::tile::catalogue::DType t) {
  switch (t) {
  case ::tile::catalogue::DType::F32:
    return ElemType::F32;
  case ::tile::catalogue::DType::F16:
    return ElemType::F16;
  case ::tile::catalogue::DType::BF16:
    return ElemType::BF16;
  }
  return ElemType::F32;
}

Type mlir::tile::kernels::getElemType(MLIRContext *ctx, ElemType t) {
  switch (t) {
  case ElemType::F32:
    return Float32Type::get(ctx);
  case ElemType::F16:
    return Float16Type::get(ctx);
  case ElemType::BF16:
    return BFloat16Type::get(ctx);
  }
  return {};
}

int64_t mlir::tile::kernels::byteSize(ElemType t) {
  return t == ElemType::F32 ? 4 : 2;
}

SmallVector<Type> mlir::tile::kernels::getSoftmaxArgTypes(MLIRContext *ctx,
                                                          Type in, Type out) {
  Type i32 = IntegerType::get(ctx, 32), i64 = IntegerType::get(ctx, 64);
  return {PointerType::get(ctx, out),
          PointerType::get(ctx, in),
          i64,
          i64,
          i32,
          i32};
}

void mlir::tile::kernels::setSoftmaxAlignment(func::FuncOp f, bool aligned,
                                              ElemType in, ElemType out,
                                              bool colsAligned) {
  OpBuilder b(f.getContext());
  // n_cols a multiple of 16 bytes of either type.
  if (colsAligned)
    f.setArgAttr(
        5, "tile.divisibility",
        b.getI64IntegerAttr(16 / std::min(byteSize(in), byteSize(out))));
  if (aligned) {
    f.setArgAttr(2, "tile.divisibility",
                 b.getI64IntegerAttr(16 / byteSize(out)));
    f.setArgAttr(3, "tile.divisibility",
                 b.getI64IntegerAttr(16 / byteSize(in)));
    return;
  }
  f.setArgAttr(0, "tile.divisibility", b.getI64IntegerAttr(byteSize(out)));
  f.setArgAttr(1, "tile.divisibility", b.getI64IntegerAttr(byteSize(in)));
}

Value mlir::tile::kernels::softmaxExp(OpBuilder &b, Location loc, Value x) {
  return math::ExpOp::create(b, loc, x, arith::FastMathFlags::afn);
}

Value mlir::tile::kernels::finiteShift(KernelBuilder &k, Location loc,
                                       Value m) {
  Value isInf = arith::CmpFOp::create(
      k.b, loc, arith::CmpFPredicate::OEQ, m,
      k.cf(k.f32(), -std::numeric_limits<double>::infinity()));
  return arith::SelectOp::create(k.b, loc, isInf, k.cf(k.f32(), 0.0), m);
}

std::pair<Value, Value> mlir::tile::kernels::mergeSliceStats(KernelBuilder &k,
                                                             Value maxes,
                                                             Value sums) {
  int64_t n = cast<RankedTensorType>(maxes.getType()).getDimSize(0);
  Value shift = finiteShift(k, k.loc, k.reduce(ReduceKind::Max, maxes, 0));
  Value scales =
      softmaxExp(k.b, k.loc,
                 arith::SubFOp::create(k.b, k.loc, maxes, k.splat(shift, {n})));
  Value rowSum = k.reduce(ReduceKind::Sum,
                          arith::MulFOp::create(k.b, k.loc, sums, scales), 0);
  Value inv = arith::DivFOp::create(k.b, k.loc, k.cf(k.f32(), 1.0), rowSum);
  return {shift, inv};
}
