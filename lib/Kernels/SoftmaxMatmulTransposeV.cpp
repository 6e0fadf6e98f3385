//===- SoftmaxMatmulTransposeV.cpp - V^T for the tf32 `_vt` kernels -------===//
//
// buildSoftmaxMatmulTransposeV: V [batch, d2, d3] rewritten as the array
// the `_vt` softmax_matmul kernels read (LibraryKernels.h): V^T rounded
// to tf32 (and for tf32x3 the remainders, rounded again), rows of d2
// elements padded to a multiple of 4 (16 bytes, as TMA requires).
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::kernels;

std::string mlir::tile::getKernelName(const SoftmaxMatmulTransposeConfig &c) {
  return ("softmax_matmul_transpose_v_f32_" +
          stringifyInputPrecision(c.precision) + "_b" + Twine(c.block) + "_w" +
          Twine(c.numWarps))
      .str();
}

func::FuncOp mlir::tile::buildSoftmaxMatmulTransposeV(
    ModuleOp module, const SoftmaxMatmulTransposeConfig &c) {
  assert((c.precision == InputPrecision::TF32 ||
          c.precision == InputPrecision::TF32x3) &&
         "V is transposed for tf32 and tf32x3 products");
  MLIRContext *ctx = module.getContext();
  Type f32 = Float32Type::get(ctx);
  auto ptr = PointerType::get(ctx, f32);
  Type i32 = IntegerType::get(ctx, 32), i64 = IntegerType::get(ctx, 64);
  // The softmax_matmul kernels' 15 arguments, then the workspace.
  SmallVector<Type> args{ptr, ptr, ptr, i32, i32, i32};
  args.append(9, i64);
  args.push_back(ptr);
  KernelBuilder k(module, getKernelName(c), args, c.numWarps);
  for (unsigned i : {2u, 15u})
    k.func.setArgAttr(i, "tile.divisibility", k.b.getI64IntegerAttr(4));
  // The main kernel waits for this one's writes (tile.wait_prior_grid):
  // it may start as soon as every program here has.
  LaunchDependentsOp::create(k.b, k.loc);
  int64_t B = c.block;
  Value v = k.arg(2), out = k.arg(15);
  Value d2 = k.extsi(k.arg(4), i64), d3 = k.extsi(k.arg(5), i64);
  Value batch = k.extsi(ProgramIdOp::create(k.b, k.loc, 2), i64);
  Value row0 = arith::MulIOp::create(
      k.b, k.loc, ProgramIdOp::create(k.b, k.loc, 0), k.ci32(B));
  Value col0 = arith::MulIOp::create(
      k.b, k.loc, ProgramIdOp::create(k.b, k.loc, 1), k.ci32(B));

  // V's block at (row0, col0) of this batch's d2 x d3 matrix.
  auto blockType = k.tensor({B, B}, f32);
  Value vBatch =
      k.ptrAdd(v, arith::MulIOp::create(k.b, k.loc, batch, k.arg(12)));
  Value vBlock = BlockLoadOp::create(
      k.b, k.loc, blockType,
      MakeBlockPtrOp::create(k.b, k.loc, BlockPointerType::get(ctx, blockType),
                             vBatch, ValueRange{d2, d3},
                             ValueRange{k.arg(13), k.arg(14)},
                             ValueRange{row0, col0}, ArrayRef<int32_t>{1, 0}),
      ArrayRef<int32_t>{0, 1}, PaddingKind::Zero);
  Value vt =
      TransOp::create(k.b, k.loc, blockType, vBlock, ArrayRef<int32_t>{1, 0});

  // [batch, d3, d2p], d2p = d2 rounded up to 4; columns past d2 are
  // written as zeros, up to d2p. tf32x3's remainders follow, as a second
  // array of the same shape.
  Value d2p = arith::AndIOp::create(
      k.b, k.loc, arith::AddIOp::create(k.b, k.loc, d2, k.ci64(3)),
      k.ci64(~int64_t(3)));
  Value matrix = arith::MulIOp::create(k.b, k.loc, d3, d2p);
  auto store = [&](Value part, Value tile) {
    Value base =
        k.ptrAdd(part, arith::MulIOp::create(k.b, k.loc, batch, matrix));
    BlockStoreOp::create(
        k.b, k.loc,
        MakeBlockPtrOp::create(k.b, k.loc,
                               BlockPointerType::get(ctx, blockType), base,
                               ValueRange{d3, d2p}, ValueRange{d2p, k.ci64(1)},
                               ValueRange{col0, row0}, ArrayRef<int32_t>{1, 0}),
        tile, ArrayRef<int32_t>{0, 1});
  };
  auto split = TF32PartsOp::create(k.b, k.loc, blockType, blockType, vt);
  store(out, split.getHi());
  if (c.precision == InputPrecision::TF32x3) {
    Value batches = k.extsi(NumProgramsOp::create(k.b, k.loc, 2), i64);
    store(k.ptrAdd(out, arith::MulIOp::create(k.b, k.loc, batches, matrix)),
          split.getLo());
  }
  k.finish();
  return k.func;
}
