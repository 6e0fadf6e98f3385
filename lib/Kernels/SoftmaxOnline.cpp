//===- SoftmaxOnline.cpp - Online softmax over long rows ------------------===//
//
// buildSoftmaxOnline: one program per row, in blocks of columns: the
// running max and sum of exponentials, then the normalization
// (OnlineRowPasses, shared with the cluster kernel's loop).
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "OnlineRowPasses.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::kernels;

func::FuncOp mlir::tile::buildSoftmaxOnline(ModuleOp module,
                                            const SoftmaxOnlineConfig &c) {
  MLIRContext *ctx = module.getContext();
  Type in = getElemType(ctx, c.in), out = getElemType(ctx, c.out);
  KernelBuilder k(module, getKernelName(c), getSoftmaxArgTypes(ctx, in, out),
                  c.numWarps);
  setSoftmaxAlignment(k.func, c.aligned, c.in, c.out, c.colsAligned);
  Value y = k.arg(0), x = k.arg(1), yStride = k.arg(2), xStride = k.arg(3);
  Value nCols = k.arg(5);
  Value row = k.extsi(ProgramIdOp::create(k.b, k.loc, 0), k.i64());
  Value xRow = k.ptrAdd(x, arith::MulIOp::create(k.b, k.loc, row, xStride));
  Value yRow = k.ptrAdd(y, arith::MulIOp::create(k.b, k.loc, row, yStride));
  OnlineRowPasses passes(k, in, out, c.block, xRow, yRow, nCols);
  auto [m, l] = passes.stats(k.ci32(0), nCols);
  Value inv = arith::DivFOp::create(k.b, k.loc, k.cf(k.f32(), 1.0), l);
  passes.normalize(k.ci32(0), nCols, m, inv);
  k.finish();
  return k.func;
}
