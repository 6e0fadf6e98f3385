//===- ShapeOps.cpp - Tile construction and shape ops ---------------------===//
//
// Ops that build tiles or rearrange their elements without computing:
// tile.range, tile.splat, tile.broadcast, tile.expand_dims, tile.reshape,
// tile.trans, and the layout ops (tile.convert_layout,
// tile.optimization_barrier), which leave a program's tile unchanged.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interp;
using namespace mlir::tile::interp::detail;

/// Copies element `from` of `src` into element `to` of `dst`.
void Executor::copyElem(const Tensor &src, int64_t from, Tensor &dst,
                        int64_t to) {
  switch (dst.kind) {
  case Kind::Float:
    dst.f[to] = src.f[from];
    break;
  case Kind::Int:
    dst.i[to] = src.i[from];
    break;
  case Kind::Pointer:
    dst.p[to] = src.p[from];
    break;
  case Kind::Block:
    break;
  }
}

/// A tile with the same elements and a new shape (expand_dims, reshape).
void Executor::reshapeTo(Value result, const Tensor &src) {
  auto r = std::make_shared<Tensor>(src);
  r->shape = shapeOf(result.getType());
  set(result, r);
}

LogicalResult Executor::execBroadcast(BroadcastOp op) {
  const Tensor &src = get(op.getSrc());
  auto r = make(op.getType());
  int64_t rank = r->shape.size();
  SmallVector<int64_t> srcStrides(rank, 0);
  int64_t stride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    srcStrides[d] = src.shape[d] == 1 ? 0 : stride;
    stride *= src.shape[d];
  }
  SmallVector<int64_t> idx(rank, 0);
  for (int64_t k = 0, n = r->size(); k < n; ++k) {
    int64_t from = 0;
    for (int64_t d = 0; d < rank; ++d)
      from += idx[d] * srcStrides[d];
    copyElem(src, from, *r, k);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++idx[d] < r->shape[d])
        break;
      idx[d] = 0;
    }
  }
  set(op.getResult(), r);
  return success();
}

LogicalResult Executor::execTrans(TransOp op) {
  const Tensor &src = get(op.getSrc());
  auto r = make(op.getType());
  ArrayRef<int32_t> order = op.getOrder();
  int64_t rank = r->shape.size();
  SmallVector<int64_t> srcStrides(rank);
  int64_t stride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    srcStrides[d] = stride;
    stride *= src.shape[d];
  }
  SmallVector<int64_t> idx(rank, 0);
  for (int64_t k = 0, n = r->size(); k < n; ++k) {
    int64_t from = 0;
    for (int64_t d = 0; d < rank; ++d)
      from += idx[d] * srcStrides[order[d]];
    copyElem(src, from, *r, k);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++idx[d] < r->shape[d])
        break;
      idx[d] = 0;
    }
  }
  set(op.getResult(), r);
  return success();
}

std::optional<LogicalResult> Executor::execShapeOp(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<LogicalResult>>(op)
      .Case([&](RangeOp o) {
        auto r = make(o.getType());
        for (int64_t k = 0, n = r->size(); k < n; ++k)
          r->i[k] = (int32_t)o.getStart() + k;
        set(o.getResult(), r);
        return success();
      })
      .Case([&](SplatOp o) {
        const Tensor &s = get(o.getSrc());
        auto r = make(o.getType());
        for (int64_t k = 0, n = r->size(); k < n; ++k)
          copyElem(s, 0, *r, k);
        set(o.getResult(), r);
        return success();
      })
      .Case([&](BroadcastOp o) { return execBroadcast(o); })
      .Case([&](ExpandDimsOp o) {
        reshapeTo(o.getResult(), get(o.getSrc()));
        return success();
      })
      // Layouts say which thread holds an element, not its value: one
      // program's tile is the same before and after.
      .Case([&](ConvertLayoutOp o) {
        reshapeTo(o.getResult(), get(o.getSrc()));
        return success();
      })
      .Case([&](OptimizationBarrierOp o) {
        reshapeTo(o.getResult(), get(o.getSrc()));
        return success();
      })
      .Case([&](ReshapeOp o) {
        reshapeTo(o.getResult(), get(o.getSrc()));
        return success();
      })
      .Case([&](TransOp o) { return execTrans(o); })
      .Default([](Operation *) { return std::optional<LogicalResult>(); });
}
