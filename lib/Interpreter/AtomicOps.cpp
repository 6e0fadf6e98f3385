//===- AtomicOps.cpp - Atomic read-modify-writes through pointers ---------===//
//
// tile.atomic_rmw and tile.atomic_cas: a program runs alone between steps,
// so each element's update is atomic; elements are applied in row-major
// order. Masked-off elements are not accessed and give 0.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interp;
using namespace mlir::tile::interp::detail;

/// The value an atomic_rmw of `kind` leaves for `old` and operand `v`
/// (floats; NaN operands of max/min are ignored, as fmax does).
static double applyFloat(AtomicKind kind, double old, double v) {
  switch (kind) {
  case AtomicKind::Add:
    return old + v;
  case AtomicKind::Max:
    return std::fmax(old, v);
  case AtomicKind::Min:
    return std::fmin(old, v);
  default:
    return v;
  }
}

/// The same for integers of `width` bits (max/min signed).
static int64_t applyInt(AtomicKind kind, int64_t width, int64_t old,
                        int64_t v) {
  switch (kind) {
  case AtomicKind::Add:
    return wrap(width, (int64_t)((uint64_t)old + (uint64_t)v));
  case AtomicKind::Max:
    return std::max(old, v);
  case AtomicKind::Min:
    return std::min(old, v);
  case AtomicKind::And:
    return old & v;
  case AtomicKind::Or:
    return old | v;
  case AtomicKind::Xor:
    return old ^ v;
  case AtomicKind::Xchg:
    return v;
  }
  return v;
}

/// Runs `update(element, ptr)` for every element whose mask is true, after
/// checking its access.
template <typename Fn>
LogicalResult Executor::forEachAtomicElement(Operation *op, Value ptrValue,
                                             Value maskValue, Type elem,
                                             Fn update) {
  const Tensor &ptrs = get(ptrValue);
  const Tensor *mask = maskValue ? &get(maskValue) : nullptr;
  int64_t size = dtypeSize(*dtypeOf(elem));
  for (int64_t k = 0; k < (int64_t)ptrs.p.size(); ++k) {
    if (mask && !iAt(*mask, k))
      continue;
    if (failed(checkAccess(op, ptrs.p[k], size, "atomic access")))
      return failure();
    update(k, ptrs.p[k]);
  }
  return success();
}

LogicalResult Executor::execAtomicRMW(AtomicRMWOp op) {
  Type elem = getElementTypeOrSelf(op.getVal().getType());
  DType dt = *dtypeOf(elem);
  const Tensor &val = get(op.getVal());
  auto r = make(op.getType());
  AtomicKind kind = op.getKind();
  int64_t width = isa<FloatType>(elem) ? 0 : bitWidth(elem);
  LogicalResult status = forEachAtomicElement(
      op, op.getPtr(), op.getMask(), elem, [&](int64_t k, Ptr ptr) {
        if (isa<FloatType>(elem)) {
          double old = readElem(ptr, dt);
          writeElem(ptr, dt, roundTo(dt, applyFloat(kind, old, val.f[k])));
          r->f[k] = old;
        } else {
          int64_t old = readInt(ptr, dt);
          writeInt(ptr, dt, applyInt(kind, width, old, val.i[k]));
          r->i[k] = old;
        }
      });
  if (failed(status))
    return failure();
  set(op.getResult(), r);
  return success();
}

LogicalResult Executor::execAtomicCAS(AtomicCASOp op) {
  Type elem = getElementTypeOrSelf(op.getVal().getType());
  DType dt = *dtypeOf(elem);
  const Tensor &cmp = get(op.getCmp());
  const Tensor &val = get(op.getVal());
  auto r = make(op.getType());
  LogicalResult status = forEachAtomicElement(op, op.getPtr(), op.getMask(),
                                              elem, [&](int64_t k, Ptr ptr) {
                                                int64_t old = readInt(ptr, dt);
                                                if (old == cmp.i[k])
                                                  writeInt(ptr, dt, val.i[k]);
                                                r->i[k] = old;
                                              });
  if (failed(status))
    return failure();
  set(op.getResult(), r);
  return success();
}

std::optional<LogicalResult> Executor::execAtomicOp(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<LogicalResult>>(op)
      .Case([&](AtomicRMWOp o) { return execAtomicRMW(o); })
      .Case([&](AtomicCASOp o) { return execAtomicCAS(o); })
      .Default([](Operation *) { return std::optional<LogicalResult>(); });
}
