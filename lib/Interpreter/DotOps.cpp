//===- DotOps.cpp - Matrix products ---------------------------------------===//
//
// tile.dot: each product sums in float64, then adds the accumulator and
// rounds once; tf32 rounds both operands to tf32 first, as the tensor
// cores do (to nearest, ties away). tile.tf32_parts rounds to nearest
// even.
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

/// v as f32 rounded to TF32's 10 explicit mantissa bits, to nearest with
/// ties away from zero (a tf32 dot's operands) or to even
/// (tile.tf32_parts).
static double roundTF32(double v, bool tiesToEven = false) {
  float f = (float)v;
  if (!std::isfinite(f))
    return f;
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u = (u + (tiesToEven ? 0xfff + ((u >> 13) & 1) : 0x1000)) & 0xffffe000u;
  std::memcpy(&f, &u, 4);
  return f;
}

LogicalResult Executor::execDot(DotOp op) {
  const Tensor &a = get(op.getA()), &b = get(op.getB()), &c = get(op.getAcc());
  int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
  auto r = make(op.getType());
  DType dt = floatDType(op.getType());
  bool tf32 = op.getPrecision() == InputPrecision::TF32;
  std::vector<double> av(a.f), bv(b.f);
  if (tf32) {
    for (double &v : av)
      v = roundTF32(v);
    for (double &v : bv)
      v = roundTF32(v);
  }
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (int64_t p = 0; p < k; ++p)
        acc += av[i * k + p] * bv[p * n + j];
      r->f[i * n + j] = roundTo(dt, acc + c.f[i * n + j]);
    }
  set(op.getResult(), r);
  return success();
}

std::optional<LogicalResult> Executor::execDotOp(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<LogicalResult>>(op)
      .Case([&](DotOp o) { return execDot(o); })
      .Case([&](TF32PartsOp o) {
        const Tensor &x = get(o.getSrc());
        auto hi = make(o.getHi().getType()), lo = make(o.getLo().getType());
        for (size_t i = 0; i < x.f.size(); ++i) {
          hi->f[i] = roundTF32(x.f[i], /*tiesToEven=*/true);
          // x - hi is exact in f32 for finite x (both within 2^13 ulps).
          lo->f[i] = roundTF32((double)((float)x.f[i] - (float)hi->f[i]),
                               /*tiesToEven=*/true);
        }
        set(o.getHi(), hi);
        set(o.getLo(), lo);
        return success();
      })
      .Default([](Operation *) { return std::optional<LogicalResult>(); });
}
