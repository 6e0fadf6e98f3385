//===- SoftmaxRows.cpp - Softmax over rows held in registers --------------===//
//
// buildSoftmaxRows: each program holds whole rows (one or several) in
// registers: one load, the row max and sum, one store. The pipelined
// variant walks row blocks through a block pointer.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include <limits>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::kernels;

/// Persistent rows through a block pointer, pipelined by
/// tile-pipeline-loops: program p takes row blocks p, p + P, ... (P
/// programs), each R x B loaded zero-padded (the copies zero-fill), the
/// columns past n_cols then set to -inf; rows past n_rows are neither
/// loaded nor stored.
static func::FuncOp buildSoftmaxRowsPipelined(ModuleOp module,
                                              const SoftmaxRowsConfig &c);

func::FuncOp mlir::tile::buildSoftmaxRows(ModuleOp module,
                                          const SoftmaxRowsConfig &c) {
  if (c.stages)
    return buildSoftmaxRowsPipelined(module, c);
  MLIRContext *ctx = module.getContext();
  Type in = getElemType(ctx, c.in), out = getElemType(ctx, c.out);
  KernelBuilder k(module, getKernelName(c), getSoftmaxArgTypes(ctx, in, out),
                  c.numWarps);
  setSoftmaxAlignment(k.func, c.aligned, c.in, c.out, c.colsAligned);
  if (c.rematerialize)
    k.func->setAttr(TileDialect::getRematerializeAttrName(), k.b.getUnitAttr());
  int64_t R = c.rows;
  Value y = k.arg(0), x = k.arg(1), yStride = k.arg(2), xStride = k.arg(3);
  Value nRows = k.arg(4), nCols = k.arg(5);

  Value pid = ProgramIdOp::create(k.b, k.loc, 0);
  Value firstRow = arith::MulIOp::create(k.b, k.loc, pid, k.ci32(R));
  // The row's columns in one tile of `block` columns, or two: [0, block)
  // and [block, block + tail). Tile shapes are powers of two; the second
  // tile lets a row of, say, 20000 columns fill 20480 lanes instead of
  // 32768.
  struct ColumnTile {
    SmallVector<int64_t> shape;
    Value valid, cols64, negInf;
  };
  SmallVector<ColumnTile> tiles;
  for (auto [offset, width] :
       {std::pair<int64_t, int64_t>{0, c.block}, {c.block, c.tail}}) {
    if (width == 0)
      continue;
    ColumnTile t;
    t.shape = {R, width};
    Value cols = k.range(width);
    if (offset)
      cols = arith::AddIOp::create(k.b, k.loc, cols,
                                   k.splat(k.ci32(offset), {width}));
    t.valid = k.cmp(arith::CmpIPredicate::slt, cols, k.splat(nCols, {width}));
    t.cols64 = k.spread(k.extsi(cols, k.i64()), 0, t.shape);
    t.negInf =
        k.splat(k.cf(in, -std::numeric_limits<double>::infinity()), t.shape);
    tiles.push_back(t);
  }
  // Rows [start, start + R): their validity, and pointers into a buffer.
  struct RowBlock {
    Value valid, rows64;
  };
  auto rowBlock = [&](Location loc, Value start) -> RowBlock {
    Value rows =
        arith::AddIOp::create(k.b, loc, k.splat(start, {R}), k.range(R));
    Value rowValid =
        k.cmp(arith::CmpIPredicate::slt, rows, k.splat(nRows, {R}));
    return {rowValid, k.extsi(rows, k.i64())};
  };
  auto mask = [&](Location loc, const RowBlock &rb, const ColumnTile &t) {
    return arith::AndIOp::create(k.b, loc, k.spread(rb.valid, 1, t.shape),
                                 k.spread(t.valid, 0, t.shape));
  };
  auto pointers = [&](Location loc, const RowBlock &rb, const ColumnTile &t,
                      Value base, Value stride) {
    Value rowOff =
        arith::MulIOp::create(k.b, loc, rb.rows64, k.splat(stride, {R}));
    Value off =
        arith::AddIOp::create(k.b, loc, k.spread(rowOff, 1, t.shape), t.cols64);
    return k.ptrAdd(k.splat(base, t.shape), off);
  };
  auto load = [&](Location loc, const RowBlock &rb) {
    SmallVector<Value> loaded;
    for (const ColumnTile &t : tiles)
      loaded.push_back(LoadOp::create(k.b, loc, k.tensor(t.shape, in),
                                      pointers(loc, rb, t, x, xStride),
                                      mask(loc, rb, t), t.negInf));
    return loaded;
  };
  // Per-row statistics of the tiles, combined.
  auto rowReduce = [&](Location loc, ReduceKind kind, ArrayRef<Value> vs) {
    Value acc;
    for (Value v : vs) {
      Value r = k.reduce(kind, v, 1);
      acc = !acc ? r
            : kind == ReduceKind::Max
                ? (Value)arith::MaximumFOp::create(k.b, loc, acc, r)
                : (Value)arith::AddFOp::create(k.b, loc, acc, r);
    }
    return acc;
  };
  // The softmax of loaded rows, stored.
  auto compute = [&](Location loc, const RowBlock &rb, ValueRange xv) {
    SmallVector<Value> xf, e;
    for (Value v : xv)
      xf.push_back(k.toFloat(v, k.f32()));
    Value rowMax = rowReduce(loc, ReduceKind::Max, xf);
    for (auto [t, v] : llvm::zip(tiles, xf))
      e.push_back(softmaxExp(
          k.b, loc,
          arith::SubFOp::create(k.b, loc, v, k.spread(rowMax, 1, t.shape))));
    Value sum = rowReduce(loc, ReduceKind::Sum, e);
    // One division per row, then multiplications: a division per element
    // is a dozen instructions (div.rn.f32 with its slow-path check) and
    // dominated the 2-byte kernels; e * (1/sum) is within 1.5 ulp of e / sum.
    Value inv =
        arith::DivFOp::create(k.b, loc, k.splat(k.cf(k.f32(), 1.0), {R}), sum);
    for (auto [t, ev] : llvm::zip(tiles, e)) {
      Value yv = arith::MulFOp::create(k.b, loc, ev, k.spread(inv, 1, t.shape));
      StoreOp::create(k.b, loc, pointers(loc, rb, t, y, yStride),
                      k.toFloat(yv, out), mask(loc, rb, t));
    }
  };
  if (!c.persistent) {
    RowBlock rb = rowBlock(k.loc, firstRow);
    compute(k.loc, rb, load(k.loc, rb));
  } else {
    // Programs step over row blocks by the grid's size; the next block's
    // load is issued before the current block's arithmetic (its latency
    // overlaps it). Past the last row the loads are masked off.
    Value step = arith::MulIOp::create(
        k.b, k.loc, NumProgramsOp::create(k.b, k.loc, 0), k.ci32(R));
    SmallVector<Value> first = load(k.loc, rowBlock(k.loc, firstRow));
    scf::ForOp::create(
        k.b, k.loc, firstRow, nRows, step, first,
        [&](OpBuilder &b, Location loc, Value start, ValueRange it) {
          OpBuilder::InsertionGuard guard(k.b);
          k.b.setInsertionPoint(b.getInsertionBlock(), b.getInsertionPoint());
          Value nextStart = arith::AddIOp::create(k.b, loc, start, step);
          SmallVector<Value> next = load(loc, rowBlock(loc, nextStart));
          compute(loc, rowBlock(loc, start), it);
          scf::YieldOp::create(k.b, loc, next);
        });
  }
  k.finish();
  return k.func;
}

static func::FuncOp buildSoftmaxRowsPipelined(ModuleOp module,
                                              const SoftmaxRowsConfig &c) {
  MLIRContext *ctx = module.getContext();
  Type in = getElemType(ctx, c.in), out = getElemType(ctx, c.out);
  KernelBuilder k(module, getKernelName(c), getSoftmaxArgTypes(ctx, in, out),
                  c.numWarps);
  assert(c.aligned && !c.tail && "pipelined rows are aligned, one tile");
  setSoftmaxAlignment(k.func, /*aligned=*/true, c.in, c.out, c.colsAligned);
  k.func->setAttr(TileDialect::getNumStagesAttrName(),
                  k.b.getI32IntegerAttr((int32_t)c.stages));
  int64_t R = c.rows, B = c.block;
  Value y = k.arg(0), x = k.arg(1), yStride = k.arg(2), xStride = k.arg(3);
  Value nRows = k.arg(4), nCols = k.arg(5);
  Value pid = ProgramIdOp::create(k.b, k.loc, 0);
  Value programs = NumProgramsOp::create(k.b, k.loc, 0);
  Value firstRow = arith::MulIOp::create(k.b, k.loc, pid, k.ci32(R));
  Value step = arith::MulIOp::create(k.b, k.loc, programs, k.ci32(R));
  Value shape[] = {k.extsi(nRows, k.i64()), k.extsi(nCols, k.i64())};
  Value one64 = arith::ConstantIntOp::create(k.b, k.loc, k.i64(), 1);
  auto blockIn = k.tensor({R, B}, in), blockOut = k.tensor({R, B}, out);
  auto blockPtr = [&](Value base, Value stride, RankedTensorType type) {
    return MakeBlockPtrOp::create(k.b, k.loc, BlockPointerType::get(ctx, type),
                                  base, shape, ValueRange{stride, one64},
                                  ValueRange{firstRow, k.ci32(0)},
                                  ArrayRef<int32_t>{1, 0})
        .getResult();
  };
  Value xbp = blockPtr(x, xStride, blockIn),
        ybp = blockPtr(y, yStride, blockOut);
  // Columns past n_cols (zero-filled by the copies) take -inf.
  Value cols = k.range(B);
  Value valid = k.spread(
      k.cmp(arith::CmpIPredicate::slt, cols, k.splat(nCols, {B})), 0, {R, B});
  Value negInf =
      k.splat(k.cf(k.f32(), -std::numeric_limits<double>::infinity()), {R, B});
  scf::ForOp::create(
      k.b, k.loc, firstRow, nRows, step, ValueRange{xbp, ybp},
      [&](OpBuilder &b, Location loc, Value, ValueRange it) {
        OpBuilder::InsertionGuard guard(k.b);
        k.b.setInsertionPoint(b.getInsertionBlock(), b.getInsertionPoint());
        Value xv =
            BlockLoadOp::create(k.b, loc, blockIn, it[0],
                                ArrayRef<int32_t>{0, 1}, PaddingKind::Zero);
        Value xf = arith::SelectOp::create(k.b, loc, valid,
                                           k.toFloat(xv, k.f32()), negInf);
        Value rowMax = k.reduce(ReduceKind::Max, xf, 1);
        Value e = softmaxExp(
            k.b, loc,
            arith::SubFOp::create(k.b, loc, xf, k.spread(rowMax, 1, {R, B})));
        Value sum = k.reduce(ReduceKind::Sum, e, 1);
        Value inv = arith::DivFOp::create(
            k.b, loc, k.splat(k.cf(k.f32(), 1.0), {R}), sum);
        Value yv = arith::MulFOp::create(k.b, loc, e, k.spread(inv, 1, {R, B}));
        BlockStoreOp::create(k.b, loc, it[1], k.toFloat(yv, out),
                             ArrayRef<int32_t>{0, 1});
        Value advance[] = {step, k.ci32(0)};
        scf::YieldOp::create(
            k.b, loc,
            ValueRange{
                AdvanceOp::create(k.b, loc, it[0].getType(), it[0], advance),
                AdvanceOp::create(k.b, loc, it[1].getType(), it[1], advance)});
      });
  k.finish();
  return k.func;
}
