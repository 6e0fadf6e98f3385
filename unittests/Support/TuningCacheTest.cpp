//===- TuningCacheTest.cpp - The tuned parameters of user kernels ---------===//

#include "tile/Support/TuningCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace mlir::tile;

namespace {

class TuningCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> p;
    ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("cache", "json", p));
    path = p.str().str();
    llvm::sys::fs::remove(path);
  }
  void TearDown() override { llvm::sys::fs::remove(path); }

  static TuningEntry entry(const std::string &problem, const std::string &v) {
    TuningEntry e;
    e.key = {"GPU, sm_90, 132 SMs", hashKernelSource("kernel"), "k", problem};
    e.parameters = {{"BLOCK", v}, {"EVEN", "true"}};
    e.ms = 0.25;
    e.candidates = 6;
    e.date = "2026-11-26";
    return e;
  }

  std::string path;
};

TEST_F(TuningCacheTest, MissingFileHasNoEntries) {
  std::vector<TuningEntry> entries = {entry("p", "1")};
  std::string error;
  EXPECT_TRUE(readTuningCache(path, entries, error)) << error;
  EXPECT_TRUE(entries.empty());
}

TEST_F(TuningCacheTest, EntriesRoundTripAndReplaceTheirKey) {
  std::string error;
  ASSERT_TRUE(updateTuningCache(path, entry("x=f32[4]", "64"), error)) << error;
  ASSERT_TRUE(updateTuningCache(path, entry("x=f32[8]", "128"), error))
      << error;
  ASSERT_TRUE(updateTuningCache(path, entry("x=f32[4]", "256"), error))
      << error;
  std::vector<TuningEntry> entries;
  ASSERT_TRUE(readTuningCache(path, entries, error)) << error;
  ASSERT_EQ(entries.size(), 2u);
  const TuningEntry *found = findTuning(entries, entry("x=f32[4]", "").key);
  ASSERT_TRUE(found);
  ASSERT_EQ(found->parameters.size(), 2u);
  EXPECT_EQ(found->parameters[0].name, "BLOCK");
  EXPECT_EQ(found->parameters[0].value, "256");
  EXPECT_EQ(found->parameters[1].value, "true");
  EXPECT_EQ(found->ms, 0.25);
  EXPECT_EQ(found->candidates, 6u);
  EXPECT_EQ(found->date, "2026-11-26");
  TuningKey other = entry("x=f32[4]", "").key;
  other.device = "another GPU";
  EXPECT_FALSE(findTuning(entries, other));
  other = entry("x=f32[4]", "").key;
  other.source = hashKernelSource("kernel, edited");
  EXPECT_FALSE(findTuning(entries, other));
}

TEST_F(TuningCacheTest, OtherFilesAreRejected) {
  auto write = [&](llvm::StringRef text) {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    os << text;
  };
  std::vector<TuningEntry> entries;
  std::string error;
  write("not json");
  EXPECT_FALSE(readTuningCache(path, entries, error));
  EXPECT_NE(error.find("not JSON"), std::string::npos) << error;
  write("{\"entries\": []}");
  EXPECT_FALSE(readTuningCache(path, entries, error));
  EXPECT_NE(error.find("not a tuning cache"), std::string::npos) << error;
  write("{\"format\": \"tile-tuning-cache\", \"entries\": [{\"device\": \"d\", "
        "\"source\": \"s\", \"kernel\": \"\", \"problem\": \"p\", "
        "\"parameters\": {\"B\": 1.5}}]}");
  EXPECT_FALSE(readTuningCache(path, entries, error));
  EXPECT_NE(error.find("parameter 'B' is not an integer or boolean"),
            std::string::npos)
      << error;
  // A rejected file is left as it was.
  EXPECT_FALSE(updateTuningCache(path, entry("p", "1"), error));
}

} // namespace
