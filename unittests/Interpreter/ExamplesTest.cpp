//===- ExamplesTest.cpp - Numerics of every example kernel ----------------===//
//
// Each example in examples/ runs through the interpreter on fresh random
// inputs (outputs poisoned with NaN) and is compared with a float64
// reference at f32 tolerance, including the seeds' edge cases.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <algorithm>
#include <cmath>

using namespace tiletest;

namespace {

class ExamplesTest : public ::testing::Test {
protected:
  // Fresh inputs on every run; the seed is printed with any failure.
  uint64_t seed = std::random_device{}();
  std::mt19937_64 rng{seed};
  ::testing::ScopedTrace trace{__FILE__, __LINE__,
                               "random seed " + std::to_string(seed)};

  func::FuncOp load(KernelHarness &h, const std::string &file,
                    llvm::StringRef name = "") {
    EXPECT_TRUE(h.parseFile(examplePath(file))) << h.diagnostics;
    if (!h.module)
      return nullptr;
    func::FuncOp k = h.kernel(name);
    EXPECT_TRUE(k) << h.diagnostics;
    return k;
  }

  static RunOptions grid(int64_t x, int64_t y = 1) {
    RunOptions o;
    o.grid[0] = x;
    o.grid[1] = y;
    o.printStream = nullptr;
    return o;
  }

  /// Runs examples/softmax.mlir (or online_softmax.mlir) on `x` with the
  /// given row strides; returns the dense rows x cols result.
  std::vector<double> runSoftmax(const std::string &file, const Buffer &x,
                                 int64_t rows, int64_t cols,
                                 int64_t inStride, int64_t outStride) {
    KernelHarness h;
    func::FuncOp k = load(h, file);
    if (!k)
      return {};
    std::vector<Buffer> bufs{poisonedBuffer("y", {rows, outStride}), x};
    std::vector<ArgValue> args{ArgValue::buffer(0), ArgValue::buffer(1),
                               i32(inStride), i32(outStride)};
    if (file == "softmax.mlir")
      args.push_back(i32(rows));
    args.push_back(i32(cols));
    EXPECT_TRUE(succeeded(runKernel(k, args, bufs, grid(rows))))
        << h.diagnostics;
    std::vector<double> out;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        out.push_back(bufs[0].get(r * outStride + c));
    // The padding columns of a strided output must stay untouched.
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = cols; c < outStride; ++c)
        EXPECT_TRUE(std::isnan(bufs[0].get(r * outStride + c)))
            << "wrote outside the row at (" << r << ", " << c << ")";
    return out;
  }

  static std::vector<double> dense(const Buffer &x, int64_t rows,
                                   int64_t cols, int64_t stride) {
    std::vector<double> out;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        out.push_back(x.get(r * stride + c));
    return out;
  }
};

TEST_F(ExamplesTest, VectorAdd) {
  for (int64_t n : {1, 1000, 1024, 3000, 4097}) {
    KernelHarness h;
    func::FuncOp k = load(h, "vector_add.mlir");
    ASSERT_TRUE(k);
    std::vector<Buffer> bufs{randomBuffer("x", {n}, rng),
                             randomBuffer("y", {n}, rng),
                             poisonedBuffer("out", {n})};
    ASSERT_TRUE(succeeded(runKernel(
        k, {ArgValue::buffer(0), ArgValue::buffer(1), ArgValue::buffer(2), i32(n)},
        bufs, grid((n + 1023) / 1024))))
        << h.diagnostics;
    std::vector<double> ref(n);
    for (int64_t i = 0; i < n; ++i)
      ref[i] = bufs[0].get(i) + bufs[1].get(i);
    expectClose(bufs[2].toDoubles(), ref, "vector_add n=" + std::to_string(n));
  }
}

TEST_F(ExamplesTest, Activations) {
  // math.tanh, rsqrt, sinh and cosh in float64, with large arguments too.
  for (int64_t n : {1, 1000, 4097}) {
    KernelHarness h;
    func::FuncOp k = load(h, "activations.mlir");
    ASSERT_TRUE(k);
    Buffer x = randomBuffer("x", {n}, rng);
    for (int64_t i = 0; i < n; i += 7)
      x.set(i, x.get(i) * 30);
    std::vector<Buffer> bufs{std::move(x), poisonedBuffer("out", {n})};
    ASSERT_TRUE(succeeded(runKernel(
        k, {ArgValue::buffer(0), ArgValue::buffer(1), i32(n)}, bufs,
        grid((n + 1023) / 1024))))
        << h.diagnostics;
    // The three terms can cancel (the sum crosses zero near x = -0.9), so
    // the error is measured against the terms' magnitudes: each term is
    // computed in f32, and their rounding does not shrink with the sum.
    std::vector<double> got = bufs[1].toDoubles();
    double termScale = 0, worst = 0;
    for (int64_t i = 0; i < n; ++i) {
      double v = bufs[0].get(i);
      double a = std::tanh(v), b = 1.0 / std::sqrt(1.0 + std::fabs(v)),
             c = std::sinh(v / 8) / std::cosh(v / 8);
      termScale =
          std::max(termScale, std::fabs(a) + std::fabs(b) + std::fabs(c));
      worst = std::max(worst, std::fabs(got[i] - (a + b + c)));
      ASSERT_TRUE(std::isfinite(got[i]))
          << "activations n=" << n << " at " << i;
    }
    EXPECT_LE(worst, 1e-5 * termScale)
        << "activations n=" << n << ": max abs error " << worst
        << ", terms up to " << termScale;
  }
}

TEST_F(ExamplesTest, SoftmaxTutorialShape) {
  // The irregular 1823 x 781 matrix of Triton's fused-softmax tutorial.
  Buffer x = randomBuffer("x", {1823, 781}, rng);
  auto got = runSoftmax("softmax.mlir", x, 1823, 781, 781, 781);
  expectClose(got, referenceSoftmax(x.toDoubles(), 1823, 781),
              "softmax 1823x781");
}

TEST_F(ExamplesTest, SoftmaxShapesAndStrides) {
  struct Case { int64_t rows, cols, inStride, outStride; };
  for (Case c : {Case{1, 1, 1, 1}, Case{7, 1024, 1024, 1024},
                 Case{5, 1000, 1003, 1010}, Case{33, 129, 200, 129}}) {
    Buffer x = randomBuffer("x", {c.rows, c.inStride}, rng);
    auto got = runSoftmax("softmax.mlir", x, c.rows, c.cols, c.inStride,
                          c.outStride);
    expectClose(got,
                referenceSoftmax(dense(x, c.rows, c.cols, c.inStride), c.rows,
                                 c.cols),
                "softmax " + std::to_string(c.rows) + "x" +
                    std::to_string(c.cols));
  }
}

TEST_F(ExamplesTest, SoftmaxLargeValuesAndInfinities) {
  const int64_t rows = 6, cols = 781;
  Buffer x = randomBuffer("x", {rows, cols}, rng, 1e4); // values near +-1e4
  double inf = std::numeric_limits<double>::infinity();
  for (int64_t c = 0; c < cols; c += 3)
    x.set(1 * cols + c, -inf); // -inf entries inside a row
  for (int64_t c = 0; c < cols; ++c)
    x.set(2 * cols + c, c == 17 ? 3e4 : -3e4); // one huge element
  for (int64_t c = 0; c < cols; ++c)
    x.set(3 * cols + c, 1e4); // constant large row
  for (const char *file : {"softmax.mlir", "online_softmax.mlir"}) {
    auto got = runSoftmax(file, x, rows, cols, cols, cols);
    expectClose(got, referenceSoftmax(x.toDoubles(), rows, cols),
                std::string(file) + " with large values");
  }
}

TEST_F(ExamplesTest, OnlineSoftmaxMatchesSoftmax) {
  // Equal to the one-pass kernel where both apply, and to the reference for
  // rows longer than one tile (not multiples of the 256-wide block).
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{64, 781}, {2, 256},
                            {3, 3001}, {4, 1}}) {
    Buffer x = randomBuffer("x", {rows, cols}, rng);
    auto online = runSoftmax("online_softmax.mlir", x, rows, cols, cols, cols);
    auto ref = referenceSoftmax(x.toDoubles(), rows, cols);
    expectClose(online, ref, "online_softmax " + std::to_string(rows) + "x" +
                                 std::to_string(cols));
    if (cols <= 1024) {
      auto oneRow = runSoftmax("softmax.mlir", x, rows, cols, cols, cols);
      expectClose(online, oneRow, "online vs one-pass softmax");
    }
  }
}

TEST_F(ExamplesTest, SoftmaxMatmul) {
  struct Case { int64_t batch, d1, d2, d3; double scale; };
  for (Case c : {Case{1, 16, 16, 64, 1}, Case{2, 50, 100, 40, 1},
                 Case{3, 17, 33, 5, 1}, Case{1, 64, 256, 64, 1},
                 Case{2, 20, 70, 64, 1e4}, Case{1, 1, 1, 1, 1}}) {
    KernelHarness h;
    func::FuncOp k = load(h, "softmax_matmul.mlir");
    ASSERT_TRUE(k);
    std::vector<Buffer> bufs{
        randomBuffer("x", {c.batch, c.d1, c.d2}, rng, c.scale),
        randomBuffer("v", {c.batch, c.d2, c.d3}, rng),
        poisonedBuffer("o", {c.batch, c.d1, c.d3})};
    std::vector<ArgValue> args{ArgValue::buffer(0), ArgValue::buffer(1),
                               ArgValue::buffer(2), i32(c.d1), i32(c.d2),
                               i32(c.d3),
                               // X strides (batch, row, col)
                               i32(c.d1 * c.d2), i32(c.d2), i32(1),
                               // V strides
                               i32(c.d2 * c.d3), i32(c.d3), i32(1),
                               // out strides
                               i32(c.d1 * c.d3), i32(c.d3), i32(1)};
    ASSERT_TRUE(succeeded(
        runKernel(k, args, bufs, grid((c.d1 + 15) / 16, c.batch))))
        << h.diagnostics;
    expectClose(bufs[2].toDoubles(),
                referenceSoftmaxMatmul(bufs[0].toDoubles(), bufs[1].toDoubles(),
                                       c.batch, c.d1, c.d2, c.d3),
                "softmax_matmul " + std::to_string(c.batch) + "x" +
                    std::to_string(c.d1) + "x" + std::to_string(c.d2) + "x" +
                    std::to_string(c.d3));
  }
}

TEST_F(ExamplesTest, SoftmaxMatmulTransposedV) {
  // V given column-major (stride_vk = 1, stride_vn = d2): block pointers
  // take any strides.
  const int64_t d1 = 24, d2 = 40, d3 = 48;
  KernelHarness h;
  func::FuncOp k = load(h, "softmax_matmul.mlir");
  ASSERT_TRUE(k);
  std::vector<Buffer> bufs{randomBuffer("x", {1, d1, d2}, rng),
                           randomBuffer("vt", {1, d3, d2}, rng),
                           poisonedBuffer("o", {1, d1, d3})};
  std::vector<ArgValue> args{
      ArgValue::buffer(0), ArgValue::buffer(1), ArgValue::buffer(2), i32(d1),
      i32(d2),  i32(d3), i32(d1 * d2), i32(d2), i32(1), i32(d2 * d3), i32(1),
      i32(d2),  i32(d1 * d3), i32(d3), i32(1)};
  ASSERT_TRUE(succeeded(runKernel(k, args, bufs, grid(2, 1))))
      << h.diagnostics;
  std::vector<double> v(d2 * d3);
  for (int64_t kk = 0; kk < d2; ++kk)
    for (int64_t n = 0; n < d3; ++n)
      v[kk * d3 + n] = bufs[1].get(n * d2 + kk);
  expectClose(bufs[2].toDoubles(),
              referenceSoftmaxMatmul(bufs[0].toDoubles(), v, 1, d1, d2, d3),
              "softmax_matmul with column-major V");
}

TEST_F(ExamplesTest, Matmul) {
  struct Case { int64_t m, n, k; };
  for (bool leaky : {false, true})
    for (Case c : {Case{32, 32, 32}, Case{100, 90, 70}, Case{64, 128, 96},
                   Case{1, 1, 1}, Case{300, 40, 5}}) {
      KernelHarness h;
      func::FuncOp k =
          load(h, "matmul.mlir", leaky ? "matmul_leaky_relu" : "matmul");
      ASSERT_TRUE(k);
      std::vector<Buffer> bufs{randomBuffer("a", {c.m, c.k}, rng),
                               randomBuffer("b", {c.k, c.n}, rng),
                               poisonedBuffer("c", {c.m, c.n})};
      std::vector<ArgValue> args{ArgValue::buffer(0), ArgValue::buffer(1),
                                 ArgValue::buffer(2), i32(c.m), i32(c.n),
                                 i32(c.k), i32(c.k), i32(1), i32(c.n), i32(1),
                                 i32(c.n), i32(1)};
      int64_t programs = ((c.m + 31) / 32) * ((c.n + 31) / 32);
      ASSERT_TRUE(succeeded(runKernel(k, args, bufs, grid(programs))))
          << h.diagnostics;
      expectClose(bufs[2].toDoubles(),
                  referenceMatmul(bufs[0].toDoubles(), bufs[1].toDoubles(),
                                  c.m, c.n, c.k, leaky),
                  std::string(leaky ? "matmul_leaky_relu " : "matmul ") +
                      std::to_string(c.m) + "x" + std::to_string(c.n) + "x" +
                      std::to_string(c.k));
    }
}

TEST_F(ExamplesTest, LeakyReluChangesNegativeOutputs) {
  // Guards against an activation that silently does nothing: with the
  // activation the negative entries must be 0.01x the plain product.
  const int64_t m = 32, n = 32, kk = 32;
  Buffer a = randomBuffer("a", {m, kk}, rng), b = randomBuffer("b", {kk, n}, rng);
  std::vector<double> results[2];
  for (int leaky = 0; leaky < 2; ++leaky) {
    KernelHarness h;
    func::FuncOp k = load(h, "matmul.mlir", leaky ? "matmul_leaky_relu" : "matmul");
    ASSERT_TRUE(k);
    std::vector<Buffer> bufs{a, b, poisonedBuffer("c", {m, n})};
    ASSERT_TRUE(succeeded(runKernel(
        k, {ArgValue::buffer(0), ArgValue::buffer(1), ArgValue::buffer(2),
            i32(m), i32(n), i32(kk), i32(kk), i32(1), i32(n), i32(1), i32(n),
            i32(1)},
        bufs, grid(1))));
    results[leaky] = bufs[2].toDoubles();
  }
  int negatives = 0;
  for (size_t i = 0; i < results[0].size(); ++i)
    if (results[0][i] < 0) {
      ++negatives;
      EXPECT_NEAR(results[1][i], 0.01 * results[0][i], 1e-6);
    } else {
      EXPECT_EQ(results[1][i], results[0][i]);
    }
  EXPECT_GT(negatives, 0);
}

} // namespace
