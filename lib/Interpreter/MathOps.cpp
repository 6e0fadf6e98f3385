//===- MathOps.cpp - Elementwise math ops ---------------------------------===//
//
// The math dialect, element by element, in float64 and rounded to the
// element type (math.fma rounds once, as the GPU's fma.rn does).
//
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "llvm/ADT/TypeSwitch.h"

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
  using F = double (*)(double);
  auto fp = [&](F fn) { return floatUnary(op, fn); };
  return llvm::TypeSwitch<Operation *, std::optional<LogicalResult>>(op)
      .Case(
          [&](math::ExpOp) { return fp([](double a) { return std::exp(a); }); })
      .Case([&](math::Exp2Op) {
        return fp([](double a) { return std::exp2(a); });
      })
      .Case(
          [&](math::LogOp) { return fp([](double a) { return std::log(a); }); })
      .Case([&](math::Log2Op) {
        return fp([](double a) { return std::log2(a); });
      })
      .Case([&](math::Log1pOp) {
        return fp([](double a) { return std::log1p(a); });
      })
      .Case([&](math::SqrtOp) {
        return fp([](double a) { return std::sqrt(a); });
      })
      .Case([&](math::RsqrtOp) {
        return fp([](double a) { return 1.0 / std::sqrt(a); });
      })
      .Case([&](math::TanhOp) {
        return fp([](double a) { return std::tanh(a); });
      })
      .Case([&](math::SinhOp) {
        return fp([](double a) { return std::sinh(a); });
      })
      .Case([&](math::CoshOp) {
        return fp([](double a) { return std::cosh(a); });
      })
      .Case([&](math::AsinhOp) {
        return fp([](double a) { return std::asinh(a); });
      })
      .Case([&](math::AcoshOp) {
        return fp([](double a) { return std::acosh(a); });
      })
      .Case([&](math::AtanhOp) {
        return fp([](double a) { return std::atanh(a); });
      })
      .Case(
          [&](math::ErfOp) { return fp([](double a) { return std::erf(a); }); })
      .Case(
          [&](math::SinOp) { return fp([](double a) { return std::sin(a); }); })
      .Case(
          [&](math::CosOp) { return fp([](double a) { return std::cos(a); }); })
      .Case([&](math::AbsFOp) {
        return fp([](double a) { return std::fabs(a); });
      })
      .Case([&](math::FloorOp) {
        return fp([](double a) { return std::floor(a); });
      })
      .Case([&](math::CeilOp) {
        return fp([](double a) { return std::ceil(a); });
      })
      .Case([&](math::PowFOp) {
        return floatBinary(op,
                           [](double a, double b) { return std::pow(a, b); });
      })
      .Case([&](math::FmaOp o) {
        const Tensor &a = get(o.getA()), &b = get(o.getB()), &c = get(o.getC());
        DType dt = floatDType(o.getType());
        auto r = make(o.getType());
        for (int64_t k = 0, n = r->size(); k < n; ++k)
          r->f[k] = fmaRoundedOnce(dt, a.f[k], b.f[k], c.f[k]);
        set(o.getResult(), r);
        return success();
      })
      .Default([](Operation *) { return std::optional<LogicalResult>(); });
}
