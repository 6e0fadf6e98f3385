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

LogicalResult Executor::execReduce(ReduceOp op) {
  const Tensor &src = get(op.getSrc());
  Lines lines(src.shape, op.getAxis());
  Type type = op.getType();
  auto r = make(type);
  ReduceKind kind = op.getKind();
  bool isFloatTile = src.kind == Kind::Float;
  int64_t width = isFloatTile ? 0 : bitWidth(type);
  DType dt = *dtypeOf(getElementTypeOrSelf(type));
  bool isArg = kind == ReduceKind::ArgMax || kind == ReduceKind::ArgMin;
  Type elem = op.getSrc().getType().getElementType();
  for (int64_t o = 0; o < lines.outer; ++o)
    for (int64_t in = 0; in < lines.inner; ++in) {
      int64_t base = lines.base(o, in), len = lines.len, step = lines.inner;
      int64_t out = o * lines.inner + in;
      if (kind == ReduceKind::Custom) {
        TensorRef acc = scalarOf(src, base, elem);
        for (int64_t k = 1; k < len; ++k) {
          FailureOr<TensorRef> next = runCombiner(
              op.getCombiner(), acc, scalarOf(src, base + k * step, elem));
          if (failed(next))
            return failure();
          acc = *next;
        }
        copyElem(*acc, 0, *r, out);
      } else if (isArg) {
        // The first position of the best element; NaN beats every number.
        bool max = kind == ReduceKind::ArgMax;
        int64_t best = 0;
        for (int64_t k = 1; k < len; ++k) {
          int64_t at = base + k * step, bestAt = base + best * step;
          bool better;
          if (isFloatTile) {
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
      } else if (isFloatTile) {
        double acc = src.f[base];
        for (int64_t k = 1; k < len; ++k)
          acc = combineFloat(kind, acc, src.f[base + k * step]);
        r->f[out] = roundTo(dt, acc);
      } else {
        int64_t acc = src.i[base];
        for (int64_t k = 1; k < len; ++k)
          acc = combineInt(kind, width, acc, src.i[base + k * step]);
        r->i[out] = acc;
      }
    }
  set(op.getResult(), r);
  return success();
}

LogicalResult Executor::execScan(ScanOp op) {
  const Tensor &src = get(op.getSrc());
  Lines lines(src.shape, op.getAxis());
  Type type = op.getType();
  auto r = make(type);
  ReduceKind kind = op.getKind();
  bool isFloatTile = src.kind == Kind::Float;
  int64_t width = isFloatTile ? 0 : bitWidth(type);
  Type elem = op.getSrc().getType().getElementType();
  std::optional<DType> dt = dtypeOf(elem);
  for (int64_t o = 0; o < lines.outer; ++o)
    for (int64_t in = 0; in < lines.inner; ++in) {
      // Element k of the scan's order (from the end with `reverse`).
      auto at = [&](int64_t k) {
        int64_t pos = op.getReverse() ? lines.len - 1 - k : k;
        return lines.base(o, in) + pos * lines.inner;
      };
      if (kind == ReduceKind::Custom) {
        TensorRef acc = scalarOf(src, at(0), elem);
        copyElem(*acc, 0, *r, at(0));
        for (int64_t k = 1; k < lines.len; ++k) {
          FailureOr<TensorRef> next =
              runCombiner(op.getCombiner(), acc, scalarOf(src, at(k), elem));
          if (failed(next))
            return failure();
          acc = *next;
          copyElem(*acc, 0, *r, at(k));
        }
      } else if (isFloatTile) {
        double acc = src.f[at(0)];
        r->f[at(0)] = roundTo(*dt, acc);
        for (int64_t k = 1; k < lines.len; ++k) {
          acc = combineFloat(kind, acc, src.f[at(k)]);
          r->f[at(k)] = roundTo(*dt, acc);
        }
      } else {
        int64_t acc = src.i[at(0)];
        r->i[at(0)] = acc;
        for (int64_t k = 1; k < lines.len; ++k) {
          acc = combineInt(kind, width, acc, src.i[at(k)]);
          r->i[at(k)] = acc;
        }
      }
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
