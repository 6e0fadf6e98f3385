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
#include <limits>

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

// examples/attention.mlir against float64 attention (the inputs are f16,
// so the reference sees them exactly): GQA with seq_q != seq_k in BHSD,
// causal in BSHD, and causal with more queries than keys (rows that see no
// key: o = 0, lse = -inf). Small blocks keep the interpreter quick.
TEST_F(ExamplesTest, Attention) {
  struct Case {
    int64_t batch, heads, group, seqQ, seqK;
    bool causal, bshd;
  };
  const int64_t d = 32;
  for (Case c :
       {Case{2, 4, 2, 37, 70, false, false}, Case{1, 3, 1, 50, 50, true, true},
        Case{1, 2, 2, 60, 25, true, false}}) {
    std::string what = "attention b" + std::to_string(c.batch) + " h" +
                       std::to_string(c.heads) + " sq" +
                       std::to_string(c.seqQ) + " sk" + std::to_string(c.seqK) +
                       (c.causal ? " causal" : "") +
                       (c.bshd ? " bshd" : " bhsd");
    SCOPED_TRACE(what);
    KernelHarness h;
    ASSERT_TRUE(
        h.parseFile(examplePath("attention.mlir"),
                    {"HEAD_DIM=32", "BLOCK_M=16", "BLOCK_N=16",
                     std::string("CAUSAL=") + (c.causal ? "true" : "false")}))
        << h.diagnostics;
    func::FuncOp k = h.kernel();
    ASSERT_TRUE(k) << h.diagnostics;
    int64_t kvHeads = c.heads / c.group;
    // Strides {batch, head, row} of a [batch, heads, seq, d] tensor.
    auto strides = [&](int64_t heads, int64_t seq) {
      return c.bshd ? std::vector<int64_t>{seq * heads * d, d, heads * d}
                    : std::vector<int64_t>{heads * seq * d, seq * d, d};
    };
    std::vector<int64_t> qs = strides(c.heads, c.seqQ),
                         ks = strides(kvHeads, c.seqK);
    auto half = [&](const char *name, int64_t heads, int64_t seq) {
      Buffer b(name, DType::F16, {c.batch * heads * seq * d});
      std::normal_distribution<double> dist(0.0, 1.0);
      for (int64_t i = 0; i < b.numElements(); ++i)
        b.set(i, dist(rng));
      return b;
    };
    std::vector<Buffer> bufs;
    bufs.push_back(half("q", c.heads, c.seqQ));
    bufs.push_back(half("k", kvHeads, c.seqK));
    bufs.push_back(half("v", kvHeads, c.seqK));
    Buffer o("o", DType::F16, {c.batch * c.heads * c.seqQ * d});
    for (int64_t i = 0; i < o.numElements(); ++i)
      o.set(i, std::numeric_limits<double>::quiet_NaN());
    bufs.push_back(std::move(o));
    bufs.push_back(poisonedBuffer("lse", {c.batch * c.heads * c.seqQ}));
    double scale = 1.0 / std::sqrt(double(d));
    std::vector<ArgValue> args{
        ArgValue::buffer(0), ArgValue::buffer(1), ArgValue::buffer(2),
        ArgValue::buffer(3), ArgValue::buffer(4), i32(c.seqQ),
        i32(c.seqK),         i32(c.heads),        i32(c.group)};
    for (const std::vector<int64_t> *s : {&qs, &ks, &ks, &qs})
      for (int64_t v : *s)
        args.push_back(ArgValue::integer(v));
    args.push_back(ArgValue::real(scale));
    RunOptions options = grid((c.seqQ + 15) / 16, c.heads);
    options.grid[2] = c.batch;
    ASSERT_TRUE(succeeded(runKernel(k, args, bufs, options))) << h.diagnostics;

    double worst = 0, worstLse = 0;
    int64_t masked = 0;
    const size_t kvElems = size_t(c.seqK * d);
    std::vector<double> kh(kvElems), vh(kvElems), q(d), ref(d);
    for (int64_t b = 0; b < c.batch; ++b)
      for (int64_t hd = 0; hd < c.heads; ++hd) {
        int64_t kvh = hd / c.group;
        for (int64_t j = 0; j < c.seqK; ++j)
          for (int64_t i = 0; i < d; ++i) {
            int64_t at = b * ks[0] + kvh * ks[1] + j * ks[2] + i;
            kh[size_t(j * d + i)] = bufs[1].get(at);
            vh[size_t(j * d + i)] = bufs[2].get(at);
          }
        for (int64_t r = 0; r < c.seqQ; ++r) {
          int64_t row = b * qs[0] + hd * qs[1] + r * qs[2];
          for (int64_t i = 0; i < d; ++i)
            q[size_t(i)] = bufs[0].get(row + i);
          int64_t visible =
              reference::attentionVisibleKeys(r, c.seqQ, c.seqK, c.causal);
          masked += visible == 0;
          double lse;
          reference::referenceAttentionRow(q.data(), kh, vh, visible, d, scale,
                                           ref.data(), lse);
          for (int64_t i = 0; i < d; ++i) {
            double got = bufs[3].get(row + i);
            ASSERT_TRUE(std::isfinite(got)) << "o row " << r;
            worst = std::max(worst, std::fabs(got - ref[size_t(i)]));
          }
          double gotLse = bufs[4].get((b * c.heads + hd) * c.seqQ + r);
          if (visible == 0) {
            EXPECT_TRUE(std::isinf(gotLse) && gotLse < 0) << "row " << r;
            continue;
          }
          worstLse = std::max(worstLse, std::fabs(gotLse - lse) /
                                            std::max(1.0, std::fabs(lse)));
        }
      }
    // f16 outputs and P rounded to f16: the f16 target of 2e-3; the
    // log-sum-exp in f32.
    EXPECT_LE(worst, 2e-3) << "max abs error of o";
    EXPECT_LE(worstLse, 1e-5) << "relative error of lse";
    EXPECT_EQ(masked > 0, c.causal && c.seqQ > c.seqK);
  }
}

} // namespace
