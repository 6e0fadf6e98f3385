//===- Float16.h - f16 and bf16 conversions on the host ---------*- C++ -*-===//
//
// Round-to-nearest-even conversions between float and the 16-bit formats,
// for tests and benchmarks that prepare inputs and read results on the host.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_REFERENCE_FLOAT16_H
#define TILE_REFERENCE_FLOAT16_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace mlir {
namespace tile {
namespace reference {

inline uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bitsToFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

inline uint16_t floatToHalf(float f) {
  uint32_t x = floatBits(f);
  uint16_t sign = (x >> 16) & 0x8000;
  uint32_t a = x & 0x7fffffff;
  if (a >= 0x7f800000) // inf or NaN (NaN stays quiet)
    return sign | 0x7c00 | (a > 0x7f800000 ? 0x200 : 0);
  if (a >= 0x477ff000) // rounds to 65520 or more: infinity
    return sign | 0x7c00;
  if (a < 0x38800000) // below the smallest normal half: multiples of 2^-24
    return sign | (uint16_t)std::nearbyint(bitsToFloat(a) * 16777216.0f);
  uint32_t mant = a & 0x7fffff;
  uint32_t h = ((((a >> 23) - 127 + 15)) << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
    ++h; // a carry into the exponent is the right answer
  return sign | (uint16_t)h;
}

inline float halfToFloat(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  if (exp == 0x1f)
    return bitsToFloat(sign | 0x7f800000 | (mant << 13));
  if (exp == 0) {
    float v = (float)mant / 16777216.0f;
    return sign ? -v : v;
  }
  return bitsToFloat(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}

inline uint16_t floatToBF16(float f) {
  uint32_t x = floatBits(f);
  if ((x & 0x7fffffff) > 0x7f800000)
    return (uint16_t)((x >> 16) | 0x40);
  x += 0x7fff + ((x >> 16) & 1);
  return (uint16_t)(x >> 16);
}

inline float bf16ToFloat(uint16_t b) { return bitsToFloat((uint32_t)b << 16); }

/// `v` rounded to nearest even in a binary format of `precision` significand
/// bits (the implicit bit included) whose smallest normal is
/// 2^minExponent and largest finite value `maxFinite`; beyond it,
/// infinity. One rounding, straight from double: going through float
/// first would round twice and could differ from the GPU's cvt.rn.
inline double roundToFormat(double v, int precision, int minExponent,
                            double maxFinite) {
  if (!std::isfinite(v) || v == 0)
    return v;
  double a = std::fabs(v);
  int e;
  std::frexp(a, &e); // a = m * 2^e, m in [0.5, 1)
  int exponent = e - 1 < minExponent ? minExponent : e - 1;
  double quantum = std::ldexp(1.0, exponent - (precision - 1));
  // Scaling by a power of two is exact; nearbyint rounds ties to even.
  double r = std::nearbyint(a / quantum) * quantum;
  if (r > maxFinite)
    r = HUGE_VAL;
  return std::copysign(r, v);
}

/// A double rounded once to f16 (RNE), as bits.
inline uint16_t doubleToHalf(double v) {
  return floatToHalf((float)roundToFormat(v, 11, -14, 65504.0));
}

/// A double rounded once to bf16 (RNE), as bits.
inline uint16_t doubleToBF16(double v) {
  return floatToBF16((float)roundToFormat(v, 8, -126, 3.3895313892515355e38));
}

} // namespace reference
} // namespace tile
} // namespace mlir

#endif // TILE_REFERENCE_FLOAT16_H
