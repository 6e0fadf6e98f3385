//===- LibraryKernels.cpp - The runtime library's kernels, as builders ----===//

#include "tile/Kernels/LibraryKernels.h"

#include "mlir/IR/Builders.h"

#include <limits>

using namespace mlir;
using namespace mlir::tile;

static StringRef typeName(ElemType t) {
  switch (t) {
  case ElemType::F32: return "f32";
  case ElemType::F16: return "f16";
  case ElemType::BF16: return "bf16";
  }
  return "?";
}

static Type getElemType(MLIRContext *ctx, ElemType t) {
  switch (t) {
  case ElemType::F32: return Float32Type::get(ctx);
  case ElemType::F16: return Float16Type::get(ctx);
  case ElemType::BF16: return BFloat16Type::get(ctx);
  }
  return {};
}

static int64_t byteSize(ElemType t) { return t == ElemType::F32 ? 4 : 2; }

std::string mlir::tile::getKernelName(const SoftmaxRowsConfig &c) {
  return ("softmax_rows_" + typeName(c.in) + "_" + typeName(c.out) + "_r" +
          Twine(c.rows) + "_b" + Twine(c.block) + "_w" + Twine(c.numWarps) +
          (c.tail ? "_t" + std::to_string(c.tail) : std::string()) +
          (c.aligned ? "_a16" : "_a1") + (c.colsAligned ? "_n16" : "") +
          (c.persistent ? "_p" : "") +
          (c.stages ? "_s" + std::to_string(c.stages) : std::string()) +
          (c.rematerialize ? "_rm" : ""))
      .str();
}

std::string mlir::tile::getKernelName(const SoftmaxOnlineConfig &c) {
  return ("softmax_online_" + typeName(c.in) + "_" + typeName(c.out) + "_b" +
          Twine(c.block) + "_w" + Twine(c.numWarps) +
          (c.aligned ? "_a16" : "_a1") + (c.colsAligned ? "_n16" : ""))
      .str();
}

std::string mlir::tile::getKernelName(const SoftmaxClusterConfig &c) {
  return ("softmax_cluster_" + typeName(c.in) + "_" + typeName(c.out) + "_c" +
          Twine(c.clusterSize) + "_b" + Twine(c.block) + "_w" +
          Twine(c.numWarps) + (c.aligned ? "_a16" : "_a1") +
          (c.colsAligned ? "_n16" : "") +
          (c.minProgramsPerSM ? "_o" + std::to_string(c.minProgramsPerSM)
                              : std::string()) +
          (c.loop ? "_l" : ""))
      .str();
}

std::string mlir::tile::getKernelName(const SoftmaxMatmulConfig &c) {
  return ("softmax_matmul_" + typeName(c.dtype) + "_" +
          stringifyInputPrecision(c.precision) + "_m" + Twine(c.blockM) + "_k" +
          Twine(c.blockK) + "_n" + Twine(c.blockN) + "_w" + Twine(c.numWarps) +
          (c.stages ? "_s" + std::to_string(c.stages) : std::string()) +
          (c.minProgramsPerSM ? "_o" + std::to_string(c.minProgramsPerSM)
                              : std::string()) +
          (c.hopper ? "_h" : "") + (c.mmaInFlight ? "_f" : "") +
          (c.transposedProduct ? "_t" : "") + (c.tma ? "_tma" : "") +
          (c.residentProducts ? "_p" + std::to_string(c.residentProducts)
                              : std::string()))
      .str();
}

std::string mlir::tile::getKernelName(const SoftmaxGridConfig &c) {
  return ("softmax_grid_" + typeName(c.in) + "_" + typeName(c.out) + "_b" +
          Twine(c.block) + "_w" + Twine(c.numWarps) + "_s" +
          Twine(c.maxSlices) + "_a16" + (c.colsAligned ? "_n16" : "") +
          (c.rematerialize ? "_rm" : "") +
          (c.minProgramsPerSM ? "_o" + std::to_string(c.minProgramsPerSM)
                              : std::string()))
      .str();
}

namespace {

/// Terse construction of tile IR.
class KernelBuilder {
public:
  KernelBuilder(ModuleOp module, StringRef name, ArrayRef<Type> argTypes,
                int64_t numWarps)
      : b(module.getContext()), loc(b.getUnknownLoc()) {
    b.setInsertionPointToEnd(module.getBody());
    func = func::FuncOp::create(b, loc, name,
                                b.getFunctionType(argTypes, TypeRange()));
    func->setAttr(TileDialect::getKernelAttrName(), b.getUnitAttr());
    func->setAttr(TileDialect::getNumWarpsAttrName(),
                  b.getI32IntegerAttr((int32_t)numWarps));
    Block *entry = func.addEntryBlock();
    b.setInsertionPointToStart(entry);
  }

  OpBuilder b;
  Location loc;
  func::FuncOp func;

  Value arg(unsigned i) { return func.getArgument(i); }
  void finish() { func::ReturnOp::create(b, loc); }

  Type i32() { return b.getI32Type(); }
  Type i64() { return b.getI64Type(); }
  Type f32() { return b.getF32Type(); }
  Type i1() { return b.getI1Type(); }

  Value ci32(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i32(), v);
  }
  Value cf(Type t, double v) {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(t, v));
  }
  RankedTensorType tensor(ArrayRef<int64_t> shape, Type elem) {
    return RankedTensorType::get(shape, elem);
  }
  Value splat(Value s, ArrayRef<int64_t> shape) {
    return SplatOp::create(b, loc, tensor(shape, s.getType()), s);
  }
  Value range(int64_t n) {
    return RangeOp::create(b, loc, tensor({n}, i32()), 0, (int32_t)n);
  }
  Value expand(Value v, int64_t axis) {
    auto t = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> shape(t.getShape());
    shape.insert(shape.begin() + axis, 1);
    return ExpandDimsOp::create(b, loc, tensor(shape, t.getElementType()), v,
                                (int32_t)axis);
  }
  Value bcast(Value v, ArrayRef<int64_t> shape) {
    auto t = cast<RankedTensorType>(v.getType());
    if (t.getShape() == shape)
      return v;
    return BroadcastOp::create(b, loc, tensor(shape, t.getElementType()), v);
  }
  /// v [n] -> [n, 1] broadcast to `shape` (axis 1) or [1, n] (axis 0).
  Value spread(Value v, int64_t axis, ArrayRef<int64_t> shape) {
    return bcast(expand(v, axis), shape);
  }
  Value reduce(ReduceKind kind, Value v, int64_t axis) {
    auto t = cast<RankedTensorType>(v.getType());
    SmallVector<int64_t> shape(t.getShape());
    shape.erase(shape.begin() + axis);
    Type result = shape.empty() ? t.getElementType()
                                : (Type)tensor(shape, t.getElementType());
    return ReduceOp::create(b, loc, result, kind, v, (int32_t)axis);
  }
  Value extsi(Value v, Type elem) {
    Type t = v.getType();
    if (auto rt = dyn_cast<RankedTensorType>(t))
      return arith::ExtSIOp::create(b, loc, rt.clone(elem), v);
    return arith::ExtSIOp::create(b, loc, elem, v);
  }
  /// Converts a float (tile) to element type `elem`.
  Value toFloat(Value v, Type elem) {
    Type t = v.getType();
    Type from = getElementTypeOrSelf(t);
    if (from == elem)
      return v;
    Type to = elem;
    if (auto rt = dyn_cast<RankedTensorType>(t))
      to = rt.clone(elem);
    if (from.getIntOrFloatBitWidth() < elem.getIntOrFloatBitWidth())
      return arith::ExtFOp::create(b, loc, to, v);
    return arith::TruncFOp::create(b, loc, to, v);
  }
  Value ptrAdd(Value p, Value offset) {
    return AddPtrOp::create(b, loc, p.getType(), p, offset);
  }
  Value cmp(arith::CmpIPredicate pred, Value a, Value c) {
    return arith::CmpIOp::create(b, loc, pred, a, c);
  }
};

} // namespace

/// (y: ptr<out>, x: ptr<in>, y_row_stride: i64, x_row_stride: i64,
///  n_rows: i32, n_cols: i32), shared by both softmax kernels.
static SmallVector<Type> getSoftmaxArgTypes(MLIRContext *ctx, Type in,
                                            Type out) {
  Type i32 = IntegerType::get(ctx, 32), i64 = IntegerType::get(ctx, 64);
  return {PointerType::get(ctx, out), PointerType::get(ctx, in), i64, i64,
          i32, i32};
}

/// Aligned variants promise rows that start 16-byte aligned (buffers
/// 16-byte aligned, row strides multiples of 16 bytes: one 16-byte access
/// per 16 bytes of a row); the others promise only element-aligned
/// buffers.
static void setSoftmaxAlignment(func::FuncOp f, bool aligned, ElemType in,
                                ElemType out, bool colsAligned = false) {
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

/// exp for softmax weights: the `afn` flag lets the backend flush results
/// below 2^-126 to zero (a single ex2.approx.ftz), an absolute error under
/// 1.2e-38 on weights that are summed with weights up to 1.
static Value softmaxExp(OpBuilder &b, Location loc, Value x) {
  return math::ExpOp::create(b, loc, x, arith::FastMathFlags::afn);
}

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
    Value rows = arith::AddIOp::create(k.b, loc, k.splat(start, {R}),
                                       k.range(R));
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
    Value rowOff = arith::MulIOp::create(k.b, loc, rb.rows64,
                                         k.splat(stride, {R}));
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
    Value inv = arith::DivFOp::create(
        k.b, loc, k.splat(k.cf(k.f32(), 1.0), {R}), sum);
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

namespace {

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

} // namespace

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

/// m, or 0 where m is -inf (a program whose columns all lie past the
/// row's end, or a row of -inf): shifting by it gives exp(-inf) = 0, not
/// the NaN of -inf - -inf.
static Value finiteShift(KernelBuilder &k, Location loc, Value m) {
  Value isInf = arith::CmpFOp::create(
      k.b, loc, arith::CmpFPredicate::OEQ, m,
      k.cf(k.f32(), -std::numeric_limits<double>::infinity()));
  return arith::SelectOp::create(k.b, loc, isInf, k.cf(k.f32(), 0.0), m);
}

/// The row's shift M and 1 / L from its slices' (max, sum) pairs, merged
/// as online softmax merges blocks: M = max m_r, L = sum l_r exp(m_r - M),
/// with M replaced by 0 where it is -inf.
static std::pair<Value, Value> mergeSliceStats(KernelBuilder &k, Value maxes,
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

/// The softmax-matmul kernels' signature, (out, x, v: ptr<elem>, d1, d2,
/// d3: i32, the three tensors' strides: 9 x i64), with the pointers
/// assumed element-aligned only (block pointers take any strides), on a
/// new kernel named after `c`.
static KernelBuilder startSoftmaxMatmul(ModuleOp module,
                                        const SoftmaxMatmulConfig &c) {
  MLIRContext *ctx = module.getContext();
  auto ptr = PointerType::get(ctx, getElemType(ctx, c.dtype));
  Type i32 = IntegerType::get(ctx, 32), i64 = IntegerType::get(ctx, 64);
  SmallVector<Type> args{ptr, ptr, ptr, i32, i32, i32};
  args.append(9, i64);
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
  int64_t BM = c.blockM, BK = c.blockK, BN = c.blockN;
  Value outBase = k.arg(0), xBase = k.arg(1), vBase = k.arg(2);
  Value d1 = k.extsi(k.arg(3), i64), d2 = k.arg(4),
        d3 = k.extsi(k.arg(5), i64);
  Value d2w = k.extsi(d2, i64);
  auto stride = [&](unsigned tensor, unsigned dim) {
    return k.arg(6 + 3 * tensor + dim);
  };
  Value pidM = ProgramIdOp::create(k.b, k.loc, 0);
  Value pidN = ProgramIdOp::create(k.b, k.loc, 1);
  Value batch = k.extsi(ProgramIdOp::create(k.b, k.loc, 2), i64);
  Value rowStart = arith::MulIOp::create(k.b, k.loc, pidM, k.ci32(BM));
  Value colStart = arith::MulIOp::create(k.b, k.loc, pidN, k.ci32(BN));
  Value c0 = k.ci32(0);
  auto batchBase = [&](Value base, unsigned tensor) {
    return k.ptrAdd(base,
                    arith::MulIOp::create(k.b, k.loc, batch, stride(tensor, 0)));
  };
  auto xType = k.tensor({BM, BK}, elem), vType = k.tensor({BK, BN}, elem);
  auto xbp = MakeBlockPtrOp::create(
      k.b, k.loc, BlockPointerType::get(ctx, xType), batchBase(xBase, 1),
      ValueRange{d1, d2w}, ValueRange{stride(1, 1), stride(1, 2)},
      ValueRange{rowStart, c0}, ArrayRef<int32_t>{1, 0});
  auto vbp = MakeBlockPtrOp::create(
      k.b, k.loc, BlockPointerType::get(ctx, vType), batchBase(vBase, 2),
      ValueRange{d2w, d3}, ValueRange{stride(2, 1), stride(2, 2)},
      ValueRange{c0, colStart}, ArrayRef<int32_t>{1, 0});

  Type f32 = k.f32();
  double inf = std::numeric_limits<double>::infinity();
  Value negInf = k.cf(f32, -inf), zero = k.cf(f32, 0.0), one = k.cf(f32, 1.0);
  Value m0 = k.splat(negInf, {BM}), l0 = k.splat(zero, {BM});
  Value acc0 = k.splat(zero, {BM, BN});
  auto loadX = [&](OpBuilder &b, Location loc, Value xp) -> Value {
    return BlockLoadOp::create(b, loc, xType, xp, ArrayRef<int32_t>{0, 1},
                               PaddingKind::NegInf);
  };
  auto loadV = [&](OpBuilder &b, Location loc, Value vp) -> Value {
    return BlockLoadOp::create(b, loc, vType, vp, ArrayRef<int32_t>{0, 1},
                               PaddingKind::Zero);
  };
  auto advance = [&](Location loc, Value xp, Value vp, int64_t steps) {
    return std::make_pair(
        AdvanceOp::create(k.b, loc, xp.getType(), xp,
                          ValueRange{k.ci32(0), k.ci32(steps * BK)})
            .getResult(),
        AdvanceOp::create(k.b, loc, vp.getType(), vp,
                          ValueRange{k.ci32(steps * BK), k.ci32(0)})
            .getResult());
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
  int64_t S = c.stages;
  // Steps a copy runs ahead of its use: S - 1, or S - 2 with a wgmma in
  // flight (its stage stays out of the rotation for one more step). The
  // transposed product's wgmma reads only P's buffer: X's and V's stages
  // are read synchronously, so their copies run S - 1 ahead.
  int64_t ahead = c.mmaInFlight && !c.transposedProduct ? S - 2 : S - 1;
  assert((!c.mmaInFlight || (c.hopper && S >= (c.transposedProduct ? 2 : 3))) &&
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
  Value xp0 = xbp.getResult(), vp0 = vbp.getResult();
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
                      batchIndex);
    TmaCopyOp::create(k.b, loc, vp, vBuf, stage, k.arg(16), barriers, runs,
                      batchIndex);
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
  SmallVector<Value> init{m0, l0, acc0, xp0, vp0};
  if (deferredSum)
    init.append({acc0, k.splat(one, {BM})});
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
          Value target = arith::RemUIOp::create(k.b, loc, aheadStep, k.ci32(S));
          copyStep(loc, xp, vp, target, aheadStep);
          xt = LocalLoadOp::create(k.b, loc, xType, xBuf, stage);
        } else {
          xt = loadX(k.b, loc, xp);
        }
        Value xf = k.toFloat(xt, f32);
        if (S) {
          // The copies zero-fill past the end of d2; the softmax needs -inf
          // there. Only the last step can be partial: the mask is applied
          // under a uniform branch.
          Value partial = arith::CmpIOp::create(
              k.b, loc, arith::CmpIPredicate::sgt,
              arith::AddIOp::create(k.b, loc, kk, k.ci32(BK)), d2);
          auto ifOp = scf::IfOp::create(k.b, loc, TypeRange{xf.getType()},
                                        partial, /*withElse=*/true);
          {
            OpBuilder::InsertionGuard g(k.b);
            k.b.setInsertionPointToStart(ifOp.thenBlock());
            Value cols = arith::AddIOp::create(k.b, loc, k.splat(kk, {BK}),
                                               k.range(BK));
            Value inside =
                k.cmp(arith::CmpIPredicate::slt, cols, k.splat(d2, {BK}));
            Value masked = arith::SelectOp::create(
                k.b, loc, k.spread(inside, 0, {BM, BK}), xf,
                k.splat(negInf, {BM, BK}));
            scf::YieldOp::create(k.b, loc, masked);
            k.b.setInsertionPointToStart(ifOp.elseBlock());
            scf::YieldOp::create(k.b, loc, xf);
          }
          xf = ifOp.getResult(0);
        }
        Value blockMax = k.reduce(ReduceKind::Max, xf, 1);
        Value mNew = arith::MaximumFOp::create(k.b, loc, m, blockMax);
        // Rows still all -inf shift by 0: exp gives 0, not NaN.
        Value allInf = arith::CmpFOp::create(
            k.b, loc, arith::CmpFPredicate::OEQ, mNew, k.splat(negInf, {BM}));
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
              math::FmaOp::create(k.b, loc, xf, k.splat(log2e, {BM, BK}),
                                  arith::NegFOp::create(
                                      k.b, loc, k.spread(shift2, 1, {BM, BK}))),
              arith::FastMathFlags::afn);
          alpha = math::Exp2Op::create(
              k.b, loc,
              arith::MulFOp::create(k.b, loc,
                                    arith::SubFOp::create(k.b, loc, m, shift),
                                    k.splat(log2e, {BM})),
              arith::FastMathFlags::afn);
        } else {
          p = softmaxExp(k.b, loc,
                         arith::SubFOp::create(k.b, loc, xf,
                                               k.spread(shift, 1, {BM, BK})));
          alpha =
              softmaxExp(k.b, loc, arith::SubFOp::create(k.b, loc, m, shift));
        }
        Value lNew = arith::AddFOp::create(
            k.b, loc, arith::MulFOp::create(k.b, loc, l, alpha),
            k.reduce(ReduceKind::Sum, p, 1));
        Value scaled = deferredSum
                           ? Value()
                           : (Value)arith::MulFOp::create(
                                 k.b, loc, acc, k.spread(alpha, 1, {BM, BN}));
        Value pa = k.toFloat(p, elem);
        if (c.transposedProduct) {
          // Stored after the rescale: the wait for the previous step's
          // wgmma (which reads this buffer) comes no earlier than the
          // accumulator's first use.
          LocalStoreOp::create(k.b, loc, pa, pBuf, k.ci32(0));
          pa = LocalLoadOp::create(k.b, loc, pType, pBuf, k.ci32(0));
        }
        // Read V last, right before the dot, which then takes its B
        // fragments from the buffer directly.
        Value vt = S ? (Value)LocalLoadOp::create(k.b, loc, vType, vBuf, stage)
                     : loadV(k.b, loc, vp);
        if (deferredSum) {
          // acc_{j-1} = acc_{j-2} alpha_{j-1} + P_{j-1} V_{j-1}, after this
          // step's exponentials (the first use of the partial products,
          // which waits for their wgmma); P_j V_j from zero, in flight.
          Value partial = it[5], partialAlpha = it[6];
          Value accPrev = arith::AddFOp::create(
              k.b, loc,
              arith::MulFOp::create(k.b, loc, acc,
                                    k.spread(partialAlpha, 1, {BM, BN})),
              partial);
          Value products = DotOp::create(k.b, loc, acc.getType(), pa, vt,
                                         k.splat(zero, {BM, BN}), c.precision);
          scf::YieldOp::create(
              k.b, loc,
              ValueRange{mNew, lNew, accPrev, xNext, vNext, products, alpha});
          return;
        }
        Value accNew = DotOp::create(k.b, loc, scaled.getType(), pa, vt, scaled,
                                     c.precision);
        scf::YieldOp::create(k.b, loc,
                             ValueRange{mNew, lNew, accNew, xNext, vNext});
      });
  if (c.mmaInFlight)
    loop->setAttr(TileDialect::getMmaInFlightAttrName(), UnitAttr::get(ctx));
  Value l = loop.getResult(1), acc = loop.getResult(2);
  if (deferredSum)
    acc = arith::AddFOp::create(
        k.b, k.loc,
        arith::MulFOp::create(k.b, k.loc, acc,
                              k.spread(loop.getResult(6), 1, {BM, BN})),
        loop.getResult(5));
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
  // f16 64 x 128 tile (H200, docs/perf-notes.md, session 6), where the
  // output dominates. The mma.sync builds measured slower with it (more
  // registers: tf32 64 x 128 2.4 -> 3.3 ms at d2 = 8192) and keep the
  // direct store. The staging reuses the buffers' bytes once the loop is
  // done (see the shared memory plan in TileToLLVMPass.cpp), so f16/bf16
  // take it up to the buffers' size (session 7, H200: the 128 x 64 x 256
  // f16 tile with 3 stages 0.080 -> 0.064 ms at d2 = 512, 0.121 -> 0.106
  // at 1024). tf32's 128 x 256 tiles measured slower with it at short d2
  // (0.061 -> 0.065 ms at d2 = 128; 252 registers): f32 keeps the bound
  // of session 6 (72 KiB, and 156 KiB with the buffers).
  int64_t bytes = byteSize(c.dtype);
  int64_t staging = BM * (BN + 16 / bytes) * bytes;
  int64_t buffers =
      S * (BM * (BK + (c.transposedProduct ? 4 : 8)) + BK * (BN + vPad)) *
      bytes;
  // The transposed product's accumulator holds 2 x 2 squares (8-byte
  // rows per lane): it takes the coalesced store within its buffers.
  bool coalescedStore =
      bytes == 2 || c.transposedProduct
          ? staging <= std::max<int64_t>(72 * 1024, buffers)
          : staging <= 72 * 1024 && staging + buffers <= 156 * 1024;
  if (c.hopper && coalescedStore)
    out = ConvertLayoutOp::create(k.b, k.loc, out.getType(), out);
  BlockStoreOp::create(k.b, k.loc, obp, out, ArrayRef<int32_t>{0, 1});
  k.finish();
  return k.func;
}

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
