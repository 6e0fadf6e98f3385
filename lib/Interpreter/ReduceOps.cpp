//===- ReduceOps.cpp - Reductions and scans along one axis ----------------===//
//
// tile.reduce and tile.scan: floats are combined in float64 and each result
// is rounded once to the element type; integers wrap at every step;
// argmax/argmin compare the elements as they are. A `custom` combiner
// region runs on scalars of the element type, rounding as its ops do.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interp;
using namespace mlir::tile::interp::detail;

namespace {
/// The elements of a tile along one axis: `outer` x `len` x `inner`, row
/// major, so that element k of line (o, in) is at base(o, in) + k * inner.
struct Lines {
  int64_t outer = 1, inner = 1, len;
  Lines(ArrayRef<int64_t> shape, int64_t axis) : len(shape[axis]) {
    for (int64_t d = 0; d < axis; ++d)
      outer *= shape[d];
    for (int64_t d = axis + 1; d < (int64_t)shape.size(); ++d)
      inner *= shape[d];
  }
  int64_t base(int64_t o, int64_t in) const { return o * len * inner + in; }
};
} // namespace

/// Integer combination of the built-in kinds, wrapping to `width` bits.
static int64_t combineInt(ReduceKind kind, int64_t width, int64_t acc,
                          int64_t v) {
  switch (kind) {
  case ReduceKind::Sum:
    return wrap(width, acc + v);
  case ReduceKind::Prod:
    return wrap(width, (int64_t)((uint64_t)acc * (uint64_t)v));
  case ReduceKind::Max:
    return std::max(acc, v);
  default:
    return std::min(acc, v);
  }
}

FailureOr<TensorRef> Executor::runCombiner(Region &combiner, TensorRef acc,
                                           TensorRef v) {
  SmallVector<TensorRef> yielded;
  if (failed(execBlock(combiner.front(), {acc, v}, yielded)))
    return failure();
  return yielded.front();
}

LogicalResult Executor::foldLine(ReduceKind kind, Region &combiner,
                                 const Tensor &src, Type elem, int64_t len,
                                 llvm::function_ref<int64_t(int64_t)> at,
                                 Tensor &dst,
                                 llvm::function_ref<int64_t(int64_t)> dstAt) {
  if (kind == ReduceKind::Custom) {
    TensorRef acc = scalarOf(src, at(0), elem);
    for (int64_t k = 0; k < len; ++k) {
      if (k) {
        FailureOr<TensorRef> next =
            runCombiner(combiner, acc, scalarOf(src, at(k), elem));
        if (failed(next))
          return failure();
        acc = *next;
      }
      if (int64_t to = dstAt(k); to >= 0)
        copyElem(*acc, 0, dst, to);
    }
    return success();
  }
  if (src.kind == Kind::Float) {
    DType dt = *dtypeOf(elem);
    double acc = src.f[at(0)];
    for (int64_t k = 0; k < len; ++k) {
      if (k)
        acc = combineFloat(kind, acc, src.f[at(k)]);
      if (int64_t to = dstAt(k); to >= 0)
        dst.f[to] = roundTo(dt, acc);
    }
    return success();
  }
  int64_t width = bitWidth(elem);
  int64_t acc = src.i[at(0)];
  for (int64_t k = 0; k < len; ++k) {
    if (k)
      acc = combineInt(kind, width, acc, src.i[at(k)]);
    if (int64_t to = dstAt(k); to >= 0)
      dst.i[to] = acc;
  }
  return success();
}

LogicalResult Executor::execReduce(ReduceOp op) {
  const Tensor &src = get(op.getSrc());
  Lines lines(src.shape, op.getAxis());
  auto r = make(op.getType());
  ReduceKind kind = op.getKind();
  Type elem = op.getSrc().getType().getElementType();
  for (int64_t o = 0; o < lines.outer; ++o)
    for (int64_t in = 0; in < lines.inner; ++in) {
      int64_t base = lines.base(o, in), len = lines.len, step = lines.inner;
      int64_t out = o * lines.inner + in;
      if (kind == ReduceKind::ArgMax || kind == ReduceKind::ArgMin) {
        // The first position of the best element; NaN beats every number.
        bool max = kind == ReduceKind::ArgMax;
        int64_t best = 0;
        for (int64_t k = 1; k < len; ++k) {
          int64_t at = base + k * step, bestAt = base + best * step;
          bool better;
          if (src.kind == Kind::Float) {
            double v = src.f[at], b = src.f[bestAt];
            better = !std::isnan(b) && (std::isnan(v) || (max ? v > b : v < b));
          } else {
            int64_t v = src.i[at], b = src.i[bestAt];
            better = max ? v > b : v < b;
          }
          if (better)
            best = k;
        }
        r->i[out] = best;
        continue;
      }
      if (failed(foldLine(
              kind, op.getCombiner(), src, elem, len,
              [&](int64_t k) { return base + k * step; }, *r,
              [&](int64_t k) { return k == len - 1 ? out : int64_t(-1); })))
        return failure();
    }
  set(op.getResult(), r);
  return success();
}

LogicalResult Executor::execScan(ScanOp op) {
  const Tensor &src = get(op.getSrc());
  Lines lines(src.shape, op.getAxis());
  auto r = make(op.getType());
  Type elem = op.getSrc().getType().getElementType();
  for (int64_t o = 0; o < lines.outer; ++o)
    for (int64_t in = 0; in < lines.inner; ++in) {
      // Element k of the scan's order (from the end with `reverse`); each
      // prefix goes where its last element is.
      auto at = [&](int64_t k) {
        int64_t pos = op.getReverse() ? lines.len - 1 - k : k;
        return lines.base(o, in) + pos * lines.inner;
      };
      if (failed(foldLine(op.getKind(), op.getCombiner(), src, elem, lines.len,
                          at, *r, at)))
        return failure();
    }
  set(op.getResult(), r);
  return success();
}

std::optional<LogicalResult> Executor::execReduceOp(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<LogicalResult>>(op)
      .Case([&](ReduceOp o) { return execReduce(o); })
      .Case([&](ScanOp o) { return execScan(o); })
      .Default([](Operation *) { return std::optional<LogicalResult>(); });
}
