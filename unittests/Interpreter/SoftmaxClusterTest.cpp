//===- SoftmaxClusterTest.cpp - The library's cluster softmax, interpreted ===//
//
// buildSoftmaxCluster's kernels (rows split over a cluster, merged from one
// (max, sum) exchange) run through the interpreter, whose cluster programs
// exchange as on the GPU, against the float64 softmax: every cluster size,
// rows that fill the cluster, end inside its last program, or leave whole
// programs without columns, f32 and f16, large values and -inf entries.
// Blocks are small here; the library's variants differ only in size.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tile/Kernels/LibraryKernels.h"

#include "mlir/IR/Verifier.h"

#include <cmath>

using namespace tiletest;

namespace {

class SoftmaxClusterTest : public ::testing::Test {
protected:
  uint64_t seed = std::random_device{}();
  std::mt19937_64 rng{seed};
  ::testing::ScopedTrace trace{__FILE__, __LINE__,
                               "random seed " + std::to_string(seed)};

  /// Runs the kernel of `config` on rows x cols (row strides cols + 16)
  /// and compares with float64 at the dtype's tolerance.
  void check(const SoftmaxClusterConfig &config, int64_t rows, int64_t cols,
             double scale = 1.0, bool specials = false) {
    std::string what = getKernelName(config) + " " + std::to_string(rows) +
                       "x" + std::to_string(cols);
    KernelHarness h;
    h.module = ModuleOp::create(UnknownLoc::get(&h.context));
    buildSoftmaxCluster(*h.module, config);
    ASSERT_TRUE(succeeded(verify(*h.module))) << h.diagnostics;
    DType dtype = config.in == ElemType::F32 ? DType::F32 : DType::F16;
    int64_t stride = cols + 16;
    Buffer x("x", dtype, {rows, stride}), y("y", dtype, {rows, stride});
    std::normal_distribution<double> dist(0.0, scale);
    for (int64_t i = 0; i < x.numElements(); ++i) {
      x.set(i, dist(rng));
      y.set(i, std::numeric_limits<double>::quiet_NaN());
    }
    if (specials)
      for (int64_t r = 0; r < rows; ++r) {
        x.set(r * stride + (r * 7919) % cols, 1e4);
        x.set(r * stride + (r * 104729 + 1) % cols,
              -std::numeric_limits<double>::infinity());
      }
    std::vector<Buffer> buffers{std::move(y), std::move(x)};
    RunOptions options;
    options.grid[0] = rows * config.clusterSize;
    options.printStream = nullptr;
    ASSERT_TRUE(succeeded(runKernel(
        h.kernel(),
        {ArgValue::buffer(0), ArgValue::buffer(1), ArgValue::integer(stride),
         ArgValue::integer(stride), i32(rows), i32(cols)},
        buffers, options)))
        << what << ": " << h.diagnostics;
    std::vector<double> got, in;
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c) {
        got.push_back(buffers[0].get(r * stride + c));
        in.push_back(buffers[1].get(r * stride + c));
      }
      for (int64_t c = cols; c < stride; ++c)
        ASSERT_TRUE(std::isnan(buffers[0].get(r * stride + c)))
            << what << ": wrote padding at row " << r << " column " << c;
    }
    expectClose(got, referenceSoftmax(in, rows, cols), what,
                dtype == DType::F32 ? 1e-5 : 1e-2);
  }
};

TEST_F(SoftmaxClusterTest, EveryClusterSizeAndFill) {
  for (int64_t size : {2, 4, 8, 16}) {
    SoftmaxClusterConfig c;
    c.block = 64;
    c.numWarps = 1;
    c.clusterSize = size;
    int64_t capacity = 64 * size;
    for (int64_t cols : {capacity, capacity - 5, int64_t(64 + 3), int64_t(1)})
      check(c, 5, cols, 3.0);
  }
}

TEST_F(SoftmaxClusterTest, HalfPrecisionAndSpecialValues) {
  SoftmaxClusterConfig c;
  c.block = 128;
  c.numWarps = 2;
  c.clusterSize = 4;
  c.in = c.out = ElemType::F16;
  check(c, 6, 500);
  c.in = c.out = ElemType::F32;
  check(c, 6, 500, 1.0, /*specials=*/true);
}

// The library's occupancy requests change nothing the interpreter sees, but
// the attribute must verify and run.
TEST_F(SoftmaxClusterTest, OccupancyRequest) {
  SoftmaxClusterConfig c;
  c.block = 256;
  c.numWarps = 2;
  c.clusterSize = 2;
  c.minProgramsPerSM = 4;
  check(c, 3, 300);
}

} // namespace
