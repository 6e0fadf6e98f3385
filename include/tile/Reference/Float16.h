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

} // namespace reference
} // namespace tile
} // namespace mlir

#endif // TILE_REFERENCE_FLOAT16_H
