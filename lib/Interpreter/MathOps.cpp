//===- MathOps.cpp - Elementwise math ops ---------------------------------===//
//
// The math dialect, element by element, in float64 and rounded to the
// element type (math.fma rounds once, as the GPU's fma.rn does). The
// functions come from the table of supported ops (ElementwiseOps.h).
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "tile/Dialect/Tile/IR/ElementwiseOps.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interp;
using namespace mlir::tile::interp::detail;

/// a * b + c rounded once to `dt`, as the GPU's fma.rn does. For f16, bf16
/// and f32 operands the product is exact in double; the sum is made
/// round-to-odd in double (the rounded sum, or its neighbour towards the
/// exact sum, whichever has an odd last bit), which a rounding to a format
/// of at most 51 significand bits turns into the correctly rounded result.
/// Rounding the double sum to nearest instead could round twice.
static double fmaRoundedOnce(DType dt, double a, double b, double c) {
  if (dt == DType::F64)
    return std::fma(a, b, c);
  double p = a * b;
  double s = p + c;
  if (std::isfinite(s)) {
    // The exact error of the sum (Knuth's two-sum).
    double bv = s - p;
    double e = (p - (s - bv)) + (c - bv);
    uint64_t bits;
    std::memcpy(&bits, &s, sizeof(bits));
    if (e != 0 && (bits & 1) == 0)
      s = std::nextafter(s, e > 0 ? HUGE_VAL : -HUGE_VAL);
  }
  return roundTo(dt, s);
}

std::optional<LogicalResult> Executor::execMathOp(Operation *op) {
  if (auto fma = dyn_cast<math::FmaOp>(op)) {
    const Tensor &a = get(fma.getA()), &b = get(fma.getB()),
                 &c = get(fma.getC());
    DType dt = floatDType(fma.getType());
    auto r = make(fma.getType());
    for (int64_t k = 0, n = r->size(); k < n; ++k)
      r->f[k] = fmaRoundedOnce(dt, a.f[k], b.f[k], c.f[k]);
    set(fma.getResult(), r);
    return success();
  }
  // Every other math op of the table, by its float64 function.
  const ElementwiseOpInfo *info =
      lookupElementwiseOp(op->getName().getStringRef());
  if (!info || !isa<math::MathDialect>(op->getDialect()))
    return std::nullopt;
  if (info->unary)
    return floatUnary(op, info->unary);
  if (info->binary)
    return floatBinary(op, info->binary);
  return std::nullopt;
}
