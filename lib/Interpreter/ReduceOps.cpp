//===- ReduceOps.cpp - Reductions along one axis --------------------------===//
//
// tile.reduce: floats are combined in float64 and rounded once to the
// element type; integers wrap at every step; argmax/argmin compare the
// elements as they are.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interp;
using namespace mlir::tile::interp::detail;

LogicalResult Executor::execReduce(ReduceOp op) {
  const Tensor &src = get(op.getSrc());
  int64_t axis = op.getAxis();
  int64_t outer = 1, inner = 1, len = src.shape[axis];
  for (int64_t d = 0; d < axis; ++d)
    outer *= src.shape[d];
  for (int64_t d = axis + 1; d < (int64_t)src.shape.size(); ++d)
    inner *= src.shape[d];
  Type type = op.getType();
  auto r = make(type);
  ReduceKind kind = op.getKind();
  bool isFloatTile = src.kind == Kind::Float;
  int64_t width = isFloatTile ? 0 : bitWidth(type);
  DType dt = *dtypeOf(getElementTypeOrSelf(type));
  bool isArg = kind == ReduceKind::ArgMax || kind == ReduceKind::ArgMin;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t in = 0; in < inner; ++in) {
      int64_t base = o * len * inner + in;
      if (isArg) {
        // The first position of the best element; NaN beats every number.
        bool max = kind == ReduceKind::ArgMax;
        int64_t best = 0;
        for (int64_t k = 1; k < len; ++k) {
          int64_t at = base + k * inner, bestAt = base + best * inner;
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
        r->i[o * inner + in] = best;
      } else if (isFloatTile) {
        double acc = src.f[base];
        for (int64_t k = 1; k < len; ++k)
          acc = combineFloat(kind, acc, src.f[base + k * inner]);
        r->f[o * inner + in] = roundTo(dt, acc);
      } else {
        int64_t acc = src.i[base];
        for (int64_t k = 1; k < len; ++k) {
          int64_t v = src.i[base + k * inner];
          acc = kind == ReduceKind::Sum ? wrap(width, acc + v)
                : kind == ReduceKind::Prod
                    ? wrap(width, (int64_t)((uint64_t)acc * (uint64_t)v))
                : kind == ReduceKind::Max ? std::max(acc, v)
                                          : std::min(acc, v);
        }
        r->i[o * inner + in] = acc;
      }
    }
  set(op.getResult(), r);
  return success();
}

std::optional<LogicalResult> Executor::execReduceOp(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<LogicalResult>>(op)
      .Case([&](ReduceOp o) { return execReduce(o); })
      .Default([](Operation *) { return std::optional<LogicalResult>(); });
}
