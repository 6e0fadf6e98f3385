//===- SoftmaxMatmulLibraryTest.cpp - softmax(X) @ V builders, interpreted ===//
//
// Kernels of buildSoftmaxMatmul run through the interpreter against the
// float64 softmax(X) @ V: the Hopper builds with the product transposed
// (P through a shared buffer), tf32 and tf32x3, the latter also with the
// wgmma in flight, where the builder carries each step's products from
// zero and adds them, rescaled, in the next step; and the f16 builds with
// a producer warpgroup, each product waited for in its step or left
// running over the next block's softmax, alone or in clusters of two
// programs. Padded row strides
// (whose padding must stay untouched), several batches, partial row,
// column and d2 blocks, large values and -inf entries. Blocks are small
// here; the library's variants differ only in size.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "tile/Kernels/LibraryKernels.h"
#include "tile/Reference/Reference.h"

#include "mlir/IR/Verifier.h"

#include <cmath>

using namespace tiletest;
using namespace tile::reference;

namespace {

class SoftmaxMatmulLibraryTest : public ::testing::Test {
protected:
  uint64_t seed = std::random_device{}();
  std::mt19937_64 rng{seed};
  ::testing::ScopedTrace trace{__FILE__, __LINE__,
                               "random seed " + std::to_string(seed)};

  void check(const SoftmaxMatmulConfig &config, int64_t batch, int64_t d1,
             int64_t d2, int64_t d3, bool specials = false) {
    std::string name = getKernelName(config);
    std::string what = name + " " + std::to_string(batch) + "x" +
                       std::to_string(d1) + "x" + std::to_string(d2) + "x" +
                       std::to_string(d3);
    KernelHarness h;
    h.module = ModuleOp::create(UnknownLoc::get(&h.context));
    buildSoftmaxMatmul(*h.module, config);
    ASSERT_TRUE(succeeded(verify(*h.module))) << h.diagnostics;

    // Row strides padded by 3 (X), 2 (V) and 5 (out) elements.
    int64_t xRow = d2 + 3, vRow = d3 + 2, oRow = d3 + 5;
    int64_t xs[3] = {d1 * xRow, xRow, 1}, vs[3] = {d2 * vRow, vRow, 1},
            os[3] = {d1 * oRow, oRow, 1};
    // Buffers of the kernel's element type (inputs rounded to it, so that
    // the reference sees them exactly).
    DType dtype = config.dtype == ElemType::F16 ? DType::F16 : DType::F32;
    auto typed = [&](Buffer from) {
      Buffer to(from.name, dtype, {from.numElements()});
      for (int64_t i = 0; i < from.numElements(); ++i)
        to.set(i, from.get(i));
      return to;
    };
    Buffer x = typed(randomBuffer("x", {batch * xs[0]}, rng, 3.0));
    Buffer v = typed(randomBuffer("v", {batch * vs[0]}, rng));
    Buffer out = typed(poisonedBuffer("out", {batch * os[0]}));
    if (specials)
      for (int64_t r = 0; r < batch * d1; ++r) {
        x.set(r * xRow + (r * 7919) % d2, 80.0);
        x.set(r * xRow + (r * 104729 + 1) % d2,
              -std::numeric_limits<double>::infinity());
      }
    std::vector<double> xd, vd;
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t r = 0; r < d1; ++r)
        for (int64_t j = 0; j < d2; ++j)
          xd.push_back(x.get(b * xs[0] + r * xRow + j));
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t j = 0; j < d2; ++j)
        for (int64_t c = 0; c < d3; ++c)
          vd.push_back(v.get(b * vs[0] + j * vRow + c));
    std::vector<Buffer> buffers{std::move(out), std::move(x), std::move(v)};
    std::vector<ArgValue> args{ArgValue::buffer(0),
                               ArgValue::buffer(1),
                               ArgValue::buffer(2),
                               i32(d1),
                               i32(d2),
                               i32(d3)};
    for (const int64_t *s : {os, xs, vs})
      for (int d = 0; d < 3; ++d)
        args.push_back(ArgValue::integer(s[d]));
    RunOptions options;
    options.printStream = nullptr;
    // The cluster's axis rounded up to whole clusters (as the catalogue
    // launches them): the programs past d1 or d3 store nothing. Clusters of
    // column blocks put those along x.
    auto blocks = [](int64_t n, int64_t block, int64_t cluster) {
      return (n + block * cluster - 1) / (block * cluster) * cluster;
    };
    int64_t cluster = std::max<int64_t>(config.clusterSize, 1);
    int64_t rowBlocks =
        blocks(d1, config.blockM, config.clusterColumns ? 1 : cluster);
    int64_t colBlocks =
        blocks(d3, config.blockN, config.clusterColumns ? cluster : 1);
    options.grid[0] = config.clusterColumns ? colBlocks : rowBlocks;
    options.grid[1] = config.clusterColumns ? rowBlocks : colBlocks;
    options.grid[2] = batch;
    ASSERT_TRUE(succeeded(runKernel(h.kernel(name), args, buffers, options)))
        << what << ": " << h.diagnostics;
    std::vector<double> got;
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t r = 0; r < d1; ++r)
        for (int64_t c = 0; c < oRow; ++c) {
          double value = buffers[0].get(b * os[0] + r * oRow + c);
          if (c < d3)
            got.push_back(value);
          else
            ASSERT_TRUE(std::isnan(value))
                << what << ": wrote padding at row " << r << " column " << c;
        }
    // f16: P and the output rounded to f16 (2^-11 relative each).
    double tolerance = config.dtype == ElemType::F16              ? 2e-3
                       : config.precision == InputPrecision::TF32 ? 1e-3
                                                                  : 1e-5;
    expectClose(got, referenceSoftmaxMatmul(xd, vd, batch, d1, d2, d3), what,
                tolerance);
  }

  /// The transposed product's configuration at a small size.
  static SoftmaxMatmulConfig transposed(InputPrecision precision,
                                        bool inFlight) {
    SoftmaxMatmulConfig c;
    c.dtype = ElemType::F32;
    c.precision = precision;
    c.blockM = 16;
    c.blockK = 16;
    c.blockN = 32;
    c.numWarps = 4;
    c.stages = 3;
    c.hopper = c.transposedProduct = true;
    c.mmaInFlight = inFlight;
    return c;
  }

  /// Hopper's f16 kernel with a producer warpgroup at a small size: its
  /// blocks streamed through 3-d block pointers into the whole arrays.
  static SoftmaxMatmulConfig specialized(bool inFlight) {
    SoftmaxMatmulConfig c;
    c.dtype = ElemType::F16;
    c.blockM = 16;
    c.blockK = 16;
    c.blockN = 32;
    c.numWarps = 8;
    c.stages = 3;
    c.hopper = c.specialized = true;
    c.mmaInFlight = inFlight;
    return c;
  }

  void checkShapes(const SoftmaxMatmulConfig &c) {
    // Partial row, column and d2 blocks over several steps.
    check(c, 2, 37, 100, 70);
    // One block of everything; d2 shorter than one step.
    check(c, 1, 16, 16, 32);
    check(c, 1, 5, 7, 33);
    check(c, 2, 20, 70, 40, /*specials=*/true);
  }
};

TEST_F(SoftmaxMatmulLibraryTest, TransposedTF32) {
  checkShapes(transposed(InputPrecision::TF32, /*inFlight=*/true));
}

TEST_F(SoftmaxMatmulLibraryTest, TransposedTF32x3) {
  checkShapes(transposed(InputPrecision::TF32x3, /*inFlight=*/false));
}

// With the wgmma in flight the builder defers each step's products to
// the next step: the last step's are added after the loop.
TEST_F(SoftmaxMatmulLibraryTest, TransposedTF32x3InFlight) {
  checkShapes(transposed(InputPrecision::TF32x3, /*inFlight=*/true));
}

TEST_F(SoftmaxMatmulLibraryTest, SpecializedF16) {
  checkShapes(specialized(/*inFlight=*/false));
}

// In clusters of two row blocks, which share V's blocks once
// specialized (the same kernel at this level): an odd number of row
// blocks leaves the last cluster's second program past d1.
TEST_F(SoftmaxMatmulLibraryTest, SpecializedF16Cluster) {
  SoftmaxMatmulConfig c = specialized(/*inFlight=*/false);
  c.clusterSize = 2;
  checkShapes(c);
  c.mmaInFlight = true;
  check(c, 2, 37, 100, 70);
}

// In clusters of two column blocks, which share X's blocks: column blocks
// along x; an odd number of them leaves a program past d3.
TEST_F(SoftmaxMatmulLibraryTest, SpecializedF16ColumnCluster) {
  SoftmaxMatmulConfig c = specialized(/*inFlight=*/false);
  c.clusterSize = 2;
  c.clusterColumns = true;
  checkShapes(c);
  c.mmaInFlight = true;
  check(c, 2, 37, 100, 70);
}

// In flight, X's first block is exponentiated before the loop and the
// last step's block lies wholly past d2 (masked to -inf): d2 within one
// step, a partial last step and whole steps.
TEST_F(SoftmaxMatmulLibraryTest, SpecializedF16InFlight) {
  checkShapes(specialized(/*inFlight=*/true));
  check(specialized(true), 1, 16, 48, 32);
}

// The warpgroups splitting the columns: P through its shared buffer, the
// rows' sums kept as tiles of partial sums until after the loop; in
// flight, P_{j+1} goes into the stage P_j V_j does not read.
TEST_F(SoftmaxMatmulLibraryTest, SpecializedF16SplitColumns) {
  SoftmaxMatmulConfig c = specialized(/*inFlight=*/false);
  c.blockN = 64;
  c.splitColumns = true;
  checkShapes(c);
  c.mmaInFlight = true;
  checkShapes(c);
  check(c, 1, 16, 48, 32);
}

} // namespace
