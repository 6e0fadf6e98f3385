//===- SpecializedRegistersTest.cpp - Warp-specialized registers ----------===//
//
// The register shares of warp-specialized programs: the counts ptxas and
// setmaxnreg give the kernels of the catalogue (one program of two
// warpgroups, four warpgroups, programs sharing an SM).
//
//===----------------------------------------------------------------------===//

#include "tile/Support/SpecializedRegisters.h"

#include <gtest/gtest.h>

using namespace mlir::tile;

namespace {

TEST(SpecializedRegisters, LaunchPool) {
  // 384 threads alone on an SM: 170 a thread, 168 in multiples of 8.
  EXPECT_EQ(getLaunchRegistersPerThread(384, 1), 168);
  // 128 threads: ptxas' bound of 255, 248 in multiples of 8.
  EXPECT_EQ(getLaunchRegistersPerThread(128, 1), 248);
  // Two programs of 384 threads share the 64K registers: 80.
  EXPECT_EQ(getLaunchRegistersPerThread(384, 2), 80);
}

TEST(SpecializedRegisters, ConsumerShares) {
  // Two warpgroups and the producer: the most setmaxnreg gives, 240.
  EXPECT_EQ(getSpecializedConsumerRegisters(8, 1), 240);
  // Four warpgroups: 640 threads of 96, the producer's 4 warps at 24.
  EXPECT_EQ(getSpecializedConsumerRegisters(16, 1), 112);
  // One warpgroup, two or three programs per SM.
  EXPECT_EQ(getSpecializedConsumerRegisters(4, 2), 232);
  EXPECT_EQ(getSpecializedConsumerRegisters(4, 3), 136);
  // Two warpgroups, two programs: 104 (ptxas spills their tiles).
  EXPECT_EQ(getSpecializedConsumerRegisters(8, 2), 104);
}

TEST(SpecializedRegisters, SharesFitThePool) {
  for (int64_t warps : {4, 8, 12, 16})
    for (int64_t programs : {1, 2, 3}) {
      int64_t threads = 32 * (warps + kSpecializedProducerWarps);
      int64_t share = getSpecializedConsumerRegisters(warps, programs);
      EXPECT_EQ(share % 8, 0);
      EXPECT_LE(share, kSpecializedMaxRegisters);
      EXPECT_LE(32 * (warps * share + kSpecializedProducerWarps *
                                          kSpecializedProducerRegisters),
                getLaunchRegistersPerThread(threads, programs) * threads)
          << warps << " warps, " << programs << " programs per SM";
    }
}

} // namespace
