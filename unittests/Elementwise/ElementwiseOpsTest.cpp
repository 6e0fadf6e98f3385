//===- ElementwiseOpsTest.cpp - Every supported op, interpreted and compiled =//
//
// Each case of ElementwiseCases.h passes the kernel checks, runs in the
// interpreter (a math op's results are its float64 function rounded once
// to the element type, and every output is written) and compiles for
// sm_90 to PTX whose calls are all resolved (libdevice linked and
// inlined). The GPU test (unittests/GPU/ElementwiseOpsGPUTest.cpp) runs the
// same cases, compiled at build time, on a GPU.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseCases.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>
#include <set>

using namespace mlir::tile;
using namespace mlir::tile::interp;
using namespace elementwise;

namespace {

TEST(ElementwiseOps, EveryCaseInterpretsAndCompiles) {
  std::vector<Case> cases = makeCases(std::random_device{}());
  for (const Case &c : cases) {
    SCOPED_TRACE(c.name);
    Prepared p;
    std::string error;
    ASSERT_TRUE(prepare(c, "sm_90", p, error)) << error << c.text;
    EXPECT_EQ(p.compiled.image.find(".extern .func"), std::string::npos);
    int first = c.buffers.size() - c.numOutputs;
    for (int o = first, e = c.buffers.size(); o < e; ++o)
      for (int64_t k = 0; k < kElements; ++k)
        ASSERT_TRUE(std::isfinite(p.results[o].get(k)))
            << "output " << o << " element " << k;
    const ElementwiseOpInfo *info = c.info;
    if (!info || !(info->unary || info->binary))
      continue;
    const Buffer &y = p.results[first];
    for (int64_t k = 0; k < kElements; ++k) {
      double a = p.results[0].get(k);
      double want =
          info->unary ? info->unary(a) : info->binary(a, p.results[1].get(k));
      Buffer rounded("r", y.dtype, {1});
      rounded.set(0, want);
      ASSERT_EQ(y.get(k), rounded.get(0)) << "element " << k << " of " << a;
    }
  }
  // Every entry has a case.
  std::set<std::string> covered;
  for (const Case &c : cases)
    if (c.info)
      covered.insert(c.info->name.str());
  for (const ElementwiseOpInfo &info : getElementwiseOps())
    EXPECT_TRUE(covered.count(info.name.str()) || isConversionOp(info.name))
        << info.name.str();
}

TEST(ElementwiseOps, TableIsConsistent) {
  std::set<std::string> names;
  for (const ElementwiseOpInfo &info : getElementwiseOps()) {
    EXPECT_TRUE(names.insert(info.name.str()).second) << info.name.str();
    EXPECT_EQ(lookupElementwiseOp(info.name), &info);
    EXPECT_LE(info.domainLo, info.domainHi) << info.name.str();
    if (info.gpu == GpuLowering::LibDevice)
      EXPECT_TRUE(!info.libdeviceF32.empty() && !info.libdeviceF64.empty())
          << info.name.str();
    if (info.name.starts_with("math.") && info.name != "math.fma")
      EXPECT_TRUE(info.unary || info.binary) << info.name.str();
  }
  EXPECT_EQ(lookupElementwiseOp("math.fpowi"), nullptr);
  EXPECT_EQ(lookupElementwiseOp("arith.bitcast"), nullptr);
}

} // namespace
