//===- FinalistsTest.cpp - tile-tune's second timing of the fastest -------===//

#include "../../tools/tile-tune/Finalists.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <optional>

namespace {

TEST(Finalists, ChoosesThoseWithinTheMarginFastestFirst) {
  std::vector<double> ms{1.10, 1.00, 1.30, 1.05, 1.14};
  EXPECT_EQ(chooseFinalists(ms, 4, 0.15), (std::vector<size_t>{1, 3, 0, 4}));
  EXPECT_EQ(chooseFinalists(ms, 2, 0.15), (std::vector<size_t>{1, 3}));
  // Fewer than two within the margin: nothing to time again.
  EXPECT_TRUE(chooseFinalists(ms, 4, 0.01).empty());
  EXPECT_TRUE(chooseFinalists({}, 4, 0.15).empty());
}

TEST(Finalists, InterleavedOrderRotatesEachRound) {
  EXPECT_EQ(getInterleavedOrder(3, 2), (std::vector<size_t>{0, 1, 2, 1, 2, 0}));
  EXPECT_TRUE(getInterleavedOrder(3, 0).empty());
}

// A GPU slowing down while it is timed (its clock falling under the power
// limit): a call's time is its kernel's time at full clock times a factor
// growing with the calls made so far.
TEST(Finalists, InterleavedTimingRanksUnderADriftingClock) {
  const std::vector<double> fullClock{0.0, 1.02, 0.99, 1.00};
  const std::vector<size_t> finalists{1, 2, 3};
  std::vector<double> ms{5.0, 1.0, 1.0, 1.0};
  int made = 0;
  auto drifting = [&](size_t kernel) {
    return fullClock[kernel] * (1.0 + 0.001 * made++);
  };
  // Timed one after another, the last finalist takes the slowest clocks.
  std::vector<double> sequential = ms;
  for (size_t i : finalists) {
    std::vector<double> calls;
    for (int c = 0; c < 21; ++c)
      calls.push_back(drifting(i));
    std::sort(calls.begin(), calls.end());
    sequential[i] = calls[calls.size() / 2];
  }
  EXPECT_LT(sequential[1], sequential[3]);
  EXPECT_LT(sequential[2], sequential[3]);

  made = 0;
  interleaveFinalists(
      ms, finalists, 21,
      [&](llvm::ArrayRef<size_t> order, llvm::MutableArrayRef<float> times) {
        ASSERT_EQ(order.size(), 63u);
        ASSERT_EQ(times.size(), 63u);
        for (size_t c = 0; c < order.size(); ++c)
          times[c] = (float)drifting(finalists[order[c]]);
      });
  // Same ranking as at full clock; entries not timed again are kept.
  EXPECT_LT(ms[2], ms[3]);
  EXPECT_LT(ms[3], ms[1]);
  EXPECT_EQ(ms[0], 5.0);
  // Each median is the kernel's time at the clock of the middle round.
  for (size_t i : finalists)
    EXPECT_NEAR(ms[i], fullClock[i] * (1.0 + 0.001 * 31), 0.002) << i;
}

TEST(Finalists, RoundsDropAFinalistThatFails) {
  std::vector<double> ms{1.0, 1.1, 1.2};
  int calls = 0;
  retimeFinalists(ms, {0, 1, 2}, 3, [&](size_t i) -> std::optional<double> {
    ++calls;
    if (i == 1)
      return std::nullopt;
    return 2.0;
  });
  EXPECT_EQ(ms[0], 2.0);
  EXPECT_EQ(ms[1], std::numeric_limits<double>::infinity());
  EXPECT_EQ(ms[2], 2.0);
  // The failed finalist is not timed again after its first failure.
  EXPECT_EQ(calls, 7);
}

// The finalists' second timing ran slower than the first (other clocks):
// a candidate timed once, slower than every finalist in the first timing,
// still ranks after them; a finalist whose second timing failed ranks
// last.
TEST(Finalists, RankingPutsTheFinalistsTimedAgainFirst) {
  // First timings 1.00, 1.01, 1.02 (finalists 0-2), 1.03 and 1.50; the
  // second timing puts finalists 0 and 1 at 1.05 and 1.04, 2 failed.
  double inf = std::numeric_limits<double>::infinity();
  std::vector<double> ms{1.05, 1.04, inf, 1.03, 1.50};
  EXPECT_EQ(rankAfterFinalists(ms, {0, 1, 2}),
            (std::vector<size_t>{1, 0, 3, 4, 2}));
  // Without finalists: by time, ties in index order.
  EXPECT_EQ(rankAfterFinalists({1.2, 1.1, 1.1}, {}),
            (std::vector<size_t>{1, 2, 0}));
  EXPECT_TRUE(rankAfterFinalists({}, {}).empty());
}

} // namespace
