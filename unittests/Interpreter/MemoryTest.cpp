//===- MemoryTest.cpp - Element types and buffers -------------------------===//

#include "TestUtil.h"

#include <cmath>

using namespace tiletest;

namespace {

TEST(MemoryTest, RoundToHalf) {
  EXPECT_EQ(roundTo(DType::F16, 1.0), 1.0);
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties go to even (1.0).
  EXPECT_EQ(roundTo(DType::F16, 1.0 + std::ldexp(1.0, -11)), 1.0);
  EXPECT_EQ(roundTo(DType::F16, 1.0 + 3 * std::ldexp(1.0, -11)),
            1.0 + std::ldexp(1.0, -9));
  EXPECT_EQ(roundTo(DType::F16, 65504.0), 65504.0);
  EXPECT_TRUE(std::isinf(roundTo(DType::F16, 65520.0)));
  EXPECT_EQ(roundTo(DType::F16, std::ldexp(1.0, -24)), std::ldexp(1.0, -24));
  EXPECT_EQ(roundTo(DType::F16, std::ldexp(1.0, -26)), 0.0);
  EXPECT_TRUE(std::isnan(roundTo(DType::F16, NAN)));
}

TEST(MemoryTest, RoundToBF16) {
  EXPECT_EQ(roundTo(DType::BF16, 1.0), 1.0);
  EXPECT_EQ(roundTo(DType::BF16, 1.0 + std::ldexp(1.0, -8)), 1.0);
  EXPECT_EQ(roundTo(DType::BF16, 1.0 + 3 * std::ldexp(1.0, -8)),
            1.0 + std::ldexp(1.0, -6));
  EXPECT_TRUE(std::isnan(roundTo(DType::BF16, NAN)));
}

// Doubles are rounded to 16-bit formats once, as the GPU's cvt.rn from f64
// does: through float first, a value just above a halfway point would land
// on the halfway point and then round to even.
TEST(MemoryTest, RoundsOnceFromDouble) {
  double justAboveHalf = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(roundTo(DType::F16, justAboveHalf), 1.0 + std::ldexp(1.0, -10));
  double justAboveHalfBF16 = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40);
  EXPECT_EQ(roundTo(DType::BF16, justAboveHalfBF16), 1.0 + std::ldexp(1.0, -7));
  // Subnormals, overflow and signs.
  EXPECT_EQ(roundTo(DType::F16, 3 * std::ldexp(1.0, -25)),
            std::ldexp(1.0, -23));
  EXPECT_EQ(roundTo(DType::F16, -65519.0), -65504.0);
  EXPECT_TRUE(std::isinf(roundTo(DType::F16, -65520.0)));
  EXPECT_TRUE(std::isinf(roundTo(DType::BF16, 3.4e38)));
  EXPECT_EQ(roundTo(DType::BF16, std::ldexp(1.0, -133)), std::ldexp(1.0, -133));
  EXPECT_EQ(roundTo(DType::BF16, std::ldexp(1.0, -135)), 0.0);
  Buffer half("h", DType::F16, {1});
  half.set(0, justAboveHalf);
  EXPECT_EQ(half.get(0), 1.0 + std::ldexp(1.0, -10));
}

TEST(MemoryTest, HostMemoryCheck) {
  std::string error;
  EXPECT_TRUE(checkHostMemory(1 << 20, error));
  EXPECT_FALSE(checkHostMemory(int64_t(1) << 62, error));
  EXPECT_NE(error.find("of host memory are needed"), std::string::npos);
}

TEST(MemoryTest, IntegersWrap) {
  EXPECT_EQ(roundTo(DType::I8, 130.0), -126.0);
  EXPECT_EQ(roundTo(DType::I32, 4294967297.0), 1.0);
  EXPECT_EQ(roundTo(DType::I1, 3.0), 1.0);
}

TEST(MemoryTest, BufferStoresInItsType) {
  for (DType t : {DType::F16, DType::BF16, DType::F32, DType::F64, DType::I8,
                  DType::I16, DType::I32, DType::I64}) {
    Buffer b("b", t, {3, 2});
    EXPECT_EQ(b.numElements(), 6);
    EXPECT_EQ(b.sizeInBytes(), 6 * dtypeSize(t));
    b.set(5, -3.0);
    EXPECT_EQ(b.get(5), -3.0) << dtypeName(t).str();
    EXPECT_EQ(b.get(0), 0.0);
  }
}

TEST(MemoryTest, BufferSizeOverflowIsDetected) {
  EXPECT_EQ(bufferSizeInBytes(DType::F32, {3, 2}), 24);
  EXPECT_EQ(bufferSizeInBytes(DType::F64, {}), 8);
  // 2^32 x 2^32 elements wrap an int64 element count to 0.
  EXPECT_EQ(bufferSizeInBytes(DType::F32, {int64_t(1) << 32, int64_t(1) << 32}),
            std::nullopt);
  // The element count fits, the byte count does not.
  EXPECT_EQ(bufferSizeInBytes(DType::I64, {int64_t(1) << 61}), std::nullopt);
  EXPECT_EQ(bufferSizeInBytes(DType::F32, {-1}), std::nullopt);
}

TEST(MemoryTest, HugeBufferIsAFatalErrorNotAWrappedSize) {
  // Too large to allocate: a clear fatal error, before any allocation.
  EXPECT_DEATH(Buffer("big", DType::F32, {1000000, 1000000}),
               "buffer 'big' is too large \\(more than 64 GiB\\)");
  // Overflowing: not an empty buffer.
  EXPECT_DEATH(
      Buffer("wrap", DType::F32, {int64_t(1) << 32, int64_t(1) << 32}),
      "buffer 'wrap' is too large");
}

TEST(MemoryTest, ParseDType) {
  EXPECT_EQ(parseDType("bf16"), DType::BF16);
  EXPECT_EQ(parseDType("f8"), std::nullopt);
  EXPECT_EQ(dtypeName(DType::I64), "i64");
}

TEST(MemoryTest, CompareCatchesNaNAndTolerance) {
  std::vector<double> ref{1.0, 2.0, 4.0};
  EXPECT_TRUE(compare({1.0, 2.0, 4.0}, ref, 1e-5).passed);
  EXPECT_FALSE(compare({1.0, 2.0, 4.01}, ref, 1e-5).passed);
  Comparison c = compare({1.0, NAN, 4.0}, ref, 1e-5);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.nonFinite, 1);
  EXPECT_EQ(c.worstIndex, 1);
  EXPECT_FALSE(compare({1.0, 2.0}, ref, 1e-5).passed);
  EXPECT_FALSE(compare({-INFINITY}, {INFINITY}, 1e-5).passed);
}

TEST(MemoryTest, References) {
  auto s = referenceSoftmax({0.0, std::log(3.0)}, 1, 2);
  EXPECT_NEAR(s[0], 0.25, 1e-15);
  EXPECT_NEAR(s[1], 0.75, 1e-15);
  // softmax([0, log 3]) @ [[1, 2], [3, 4]] = [2.5, 3.5]
  auto o = referenceSoftmaxMatmul({0.0, std::log(3.0)}, {1, 2, 3, 4}, 1, 1, 2,
                                  2);
  EXPECT_NEAR(o[0], 2.5, 1e-14);
  EXPECT_NEAR(o[1], 3.5, 1e-14);
  auto m = referenceMatmul({1, -2}, {3, 4}, 1, 1, 2, true);
  EXPECT_NEAR(m[0], -0.05, 1e-15);
}

} // namespace
