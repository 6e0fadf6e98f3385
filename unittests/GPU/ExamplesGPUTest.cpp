//===- ExamplesGPUTest.cpp - Every example kernel on the GPU --------------===//
//
// Each example, compiled to PTX by tile-compile at build time, runs on the
// GPU on fresh random inputs with poisoned outputs, at regular and irregular
// shapes, and is compared with the float64 references. Without a GPU every
// test skips with the runtime's message.
//
//===----------------------------------------------------------------------===//

#include "GPUTestUtil.h"
#include "tile/Reference/Float16.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace gputest;
using mlir::tile::reference::referenceMatmul;
using mlir::tile::reference::referenceSoftmax;
using mlir::tile::reference::referenceSoftmaxMatmul;

namespace {

class ExamplesGPUTest : public ::testing::Test {
protected:
  uint64_t seed = std::random_device{}();
  std::mt19937_64 rng{seed};
  ::testing::ScopedTrace trace{__FILE__, __LINE__,
                               "random seed " + std::to_string(seed)};
};

TEST_F(ExamplesGPUTest, VectorAdd) {
  TILE_REQUIRE_GPU();
  tile::Module module;
  tile::Kernel kernel;
  ASSERT_OK(loadKernel("vector_add", "vector_add", module, kernel));
  for (int64_t n : {1, 1000, 1024, 3000, 4097, 1 << 20}) {
    auto x = randomFloats(n, rng), y = randomFloats(n, rng);
    tile::DeviceBuffer dx, dy, dout;
    ASSERT_OK(upload(x, dx));
    ASSERT_OK(upload(y, dy));
    ASSERT_OK(poisoned(n, dout));
    ASSERT_OK(kernel.launch({(uint32_t)((n + 1023) / 1024)},
                            {tile::arg::ptr(dx), tile::arg::ptr(dy),
                             tile::arg::ptr(dout), tile::arg::i32(n)}));
    std::vector<double> ref(n);
    for (int64_t i = 0; i < n; ++i)
      ref[i] = (double)x[i] + y[i];
    expectClose(toDouble(download(dout, n)), ref,
                "vector_add n=" + std::to_string(n));
  }
}

// math.tanh, sinh, cosh and rsqrt, which the GPU lowering expands
// (tile-expand-math), against float64.
TEST_F(ExamplesGPUTest, Activations) {
  TILE_REQUIRE_GPU();
  tile::Module module;
  tile::Kernel kernel;
  ASSERT_OK(loadKernel("activations", "activations", module, kernel));
  for (int64_t n : {1, 1000, 4097, 1 << 20}) {
    auto x = randomFloats(n, rng);
    for (int64_t i = 0; i < n; i += 7) // large arguments too
      x[i] *= 30.0f;
    tile::DeviceBuffer dx, dout;
    ASSERT_OK(upload(x, dx));
    ASSERT_OK(poisoned(n, dout));
    ASSERT_OK(kernel.launch({(uint32_t)((n + 1023) / 1024)},
                            {tile::arg::ptr(dx), tile::arg::ptr(dout),
                             tile::arg::i32(n)}));
    std::vector<double> ref(n);
    for (int64_t i = 0; i < n; ++i) {
      double v = x[i];
      ref[i] = std::tanh(v) + 1.0 / std::sqrt(1.0 + std::fabs(v)) +
               std::sinh(v / 8) / std::cosh(v / 8);
    }
    expectClose(toDouble(download(dout, n)), ref,
                "activations n=" + std::to_string(n), 1e-5);
  }
}

/// Runs softmax.mlir or online_softmax.mlir on a rows x cols matrix with
/// the given row strides; returns the dense result and checks the padding
/// columns of a strided output stay poisoned.
static std::vector<double> runSoftmax(const std::string &file,
                                      const std::vector<float> &x,
                                      int64_t rows, int64_t cols,
                                      int64_t inStride, int64_t outStride) {
  tile::Module module;
  tile::Kernel kernel;
  tile::Status s = loadKernel(file, file, module, kernel);
  EXPECT_TRUE(s.ok()) << s.toString();
  if (!s.ok())
    return {};
  tile::DeviceBuffer din, dout;
  EXPECT_TRUE(upload(x, din).ok());
  EXPECT_TRUE(poisoned(rows * outStride, dout).ok());
  std::vector<tile_arg> args{tile::arg::ptr(dout), tile::arg::ptr(din),
                             tile::arg::i32(inStride),
                             tile::arg::i32(outStride)};
  if (file == "softmax")
    args.push_back(tile::arg::i32(rows));
  args.push_back(tile::arg::i32(cols));
  s = kernel.launch({(uint32_t)rows}, args);
  EXPECT_TRUE(s.ok()) << s.toString();
  std::vector<float> out = download(dout, rows * outStride);
  std::vector<double> dense;
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c)
      dense.push_back(out[r * outStride + c]);
    for (int64_t c = cols; c < outStride; ++c)
      EXPECT_TRUE(std::isnan(out[r * outStride + c]))
          << file << " wrote outside row " << r << " at column " << c;
  }
  return dense;
}

static std::vector<double> denseRows(const std::vector<float> &x, int64_t rows,
                                     int64_t cols, int64_t stride) {
  std::vector<double> out;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      out.push_back(x[r * stride + c]);
  return out;
}

TEST_F(ExamplesGPUTest, SoftmaxTutorialShape) {
  TILE_REQUIRE_GPU();
  auto x = randomFloats(1823 * 781, rng);
  expectClose(runSoftmax("softmax", x, 1823, 781, 781, 781),
              referenceSoftmax(toDouble(x), 1823, 781), "softmax 1823x781");
}

// softmax_specializations holds the example at BLOCK 1024 and 2048 with 4
// and 8 warps; each selected specialization computes rows up to its BLOCK.
TEST_F(ExamplesGPUTest, SoftmaxSpecializationsSelectedByParameters) {
  TILE_REQUIRE_GPU();
  std::string dir = kernelsDir();
  tile::Module module;
  tile::Status s = tile::Module::load(
      readFile(dir + "/softmax_specializations.ptx"),
      readFile(dir + "/softmax_specializations.meta"), module);
  ASSERT_TRUE(s.ok()) << s.toString();
  tile::Kernel kernel;
  s = module.getKernel("softmax", kernel);
  EXPECT_EQ(s.code(), TILE_ERROR_NOT_FOUND);
  EXPECT_NE(s.toString().find("tile_module_get_specialization"),
            std::string::npos)
      << s.toString();
  s = module.getSpecialization("softmax", "BLOCK=1024", kernel);
  EXPECT_EQ(s.code(), TILE_ERROR_NOT_FOUND) << "two match";

  const int64_t rows = 37;
  for (const char *settings :
       {"BLOCK=1024,NUM_WARPS=4", "BLOCK=1024,NUM_WARPS=8",
        "BLOCK=2048,NUM_WARPS=4", "NUM_WARPS=8,BLOCK=2048"}) {
    int64_t cols =
        std::string(settings).find("2048") != std::string::npos ? 1999 : 1000;
    s = module.getSpecialization("softmax", settings, kernel);
    ASSERT_TRUE(s.ok()) << settings << ": " << s.toString();
    tile_kernel_info info;
    ASSERT_EQ(tile_kernel_get_info(kernel.handle(), &info), TILE_SUCCESS);
    EXPECT_EQ(
        info.num_warps,
        std::string(settings).find("NUM_WARPS=8") != std::string::npos ? 8 : 4)
        << settings;
    auto x = randomFloats(rows * cols, rng);
    tile::DeviceBuffer din, dout;
    ASSERT_TRUE(upload(x, din).ok());
    ASSERT_TRUE(poisoned(rows * cols, dout).ok());
    s = kernel.launch({(uint32_t)rows},
                      {tile::arg::ptr(dout), tile::arg::ptr(din),
                       tile::arg::i32(cols), tile::arg::i32(cols),
                       tile::arg::i32(rows), tile::arg::i32(cols)});
    ASSERT_TRUE(s.ok()) << settings << ": " << s.toString();
    expectClose(toDouble(download(dout, rows * cols)),
                referenceSoftmax(toDouble(x), rows, cols), settings);
  }
}

TEST_F(ExamplesGPUTest, SoftmaxShapesAndStrides) {
  TILE_REQUIRE_GPU();
  struct Case { int64_t rows, cols, inStride, outStride; };
  for (Case c : {Case{1, 1, 1, 1}, Case{7, 1024, 1024, 1024},
                 Case{5, 1000, 1003, 1010}, Case{33, 129, 200, 129},
                 Case{4096, 1024, 1024, 1024}}) {
    auto x = randomFloats(c.rows * c.inStride, rng);
    for (const char *file : {"softmax", "online_softmax"})
      expectClose(runSoftmax(file, x, c.rows, c.cols, c.inStride, c.outStride),
                  referenceSoftmax(denseRows(x, c.rows, c.cols, c.inStride),
                                   c.rows, c.cols),
                  std::string(file) + " " + std::to_string(c.rows) + "x" +
                      std::to_string(c.cols));
  }
}

TEST_F(ExamplesGPUTest, SoftmaxLargeValuesAndInfinities) {
  TILE_REQUIRE_GPU();
  const int64_t rows = 6, cols = 781;
  auto x = randomFloats(rows * cols, rng, 1e4);
  float inf = std::numeric_limits<float>::infinity();
  for (int64_t c = 0; c < cols; c += 3)
    x[1 * cols + c] = -inf;
  for (int64_t c = 0; c < cols; ++c)
    x[2 * cols + c] = c == 17 ? 3e4f : -3e4f;
  for (int64_t c = 0; c < cols; ++c)
    x[3 * cols + c] = 1e4f;
  for (const char *file : {"softmax", "online_softmax"})
    expectClose(runSoftmax(file, x, rows, cols, cols, cols),
                referenceSoftmax(toDouble(x), rows, cols),
                std::string(file) + " with large values");
}

TEST_F(ExamplesGPUTest, OnlineSoftmaxLongRows) {
  TILE_REQUIRE_GPU();
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{3, 3001},
                            {64, 12672}, {2, 100000}}) {
    auto x = randomFloats(rows * cols, rng);
    expectClose(runSoftmax("online_softmax", x, rows, cols, cols, cols),
                referenceSoftmax(toDouble(x), rows, cols),
                "online_softmax " + std::to_string(rows) + "x" +
                    std::to_string(cols));
  }
}

TEST_F(ExamplesGPUTest, SoftmaxMatmul) {
  TILE_REQUIRE_GPU();
  tile::Module module;
  tile::Kernel kernel;
  ASSERT_OK(loadKernel("softmax_matmul", "softmax_matmul", module, kernel));
  struct Case { int64_t batch, d1, d2, d3; double scale; };
  for (Case c : {Case{1, 16, 16, 64, 1}, Case{2, 50, 100, 40, 1},
                 Case{3, 17, 33, 5, 1}, Case{1, 64, 256, 64, 1},
                 Case{2, 20, 70, 64, 1e4}, Case{1, 1, 1, 1, 1},
                 Case{4, 512, 1000, 64, 1}}) {
    auto x = randomFloats(c.batch * c.d1 * c.d2, rng, c.scale);
    auto v = randomFloats(c.batch * c.d2 * c.d3, rng);
    tile::DeviceBuffer dx, dv, dout;
    ASSERT_OK(upload(x, dx));
    ASSERT_OK(upload(v, dv));
    ASSERT_OK(poisoned(c.batch * c.d1 * c.d3, dout));
    auto i32 = tile::arg::i32;
    ASSERT_OK(kernel.launch(
        {(uint32_t)((c.d1 + 15) / 16), (uint32_t)c.batch},
        {tile::arg::ptr(dx), tile::arg::ptr(dv), tile::arg::ptr(dout),
         i32(c.d1), i32(c.d2), i32(c.d3), i32(c.d1 * c.d2), i32(c.d2), i32(1),
         i32(c.d2 * c.d3), i32(c.d3), i32(1), i32(c.d1 * c.d3), i32(c.d3),
         i32(1)}));
    expectClose(toDouble(download(dout, c.batch * c.d1 * c.d3)),
                referenceSoftmaxMatmul(toDouble(x), toDouble(v), c.batch, c.d1,
                                       c.d2, c.d3),
                "softmax_matmul " + std::to_string(c.batch) + "x" +
                    std::to_string(c.d1) + "x" + std::to_string(c.d2) + "x" +
                    std::to_string(c.d3));
  }
}

TEST_F(ExamplesGPUTest, Matmul) {
  TILE_REQUIRE_GPU();
  struct Case { int64_t m, n, k; };
  for (bool leaky : {false, true}) {
    tile::Module module;
    tile::Kernel kernel;
    ASSERT_OK(loadKernel("matmul", leaky ? "matmul_leaky_relu" : "matmul",
                         module, kernel));
    for (Case c : {Case{32, 32, 32}, Case{100, 90, 70}, Case{64, 128, 96},
                   Case{1, 1, 1}, Case{300, 40, 5}, Case{512, 512, 512}}) {
      auto a = randomFloats(c.m * c.k, rng), b = randomFloats(c.k * c.n, rng);
      tile::DeviceBuffer da, db, dc;
      ASSERT_OK(upload(a, da));
      ASSERT_OK(upload(b, db));
      ASSERT_OK(poisoned(c.m * c.n, dc));
      auto i32 = tile::arg::i32;
      uint32_t programs = (uint32_t)(((c.m + 31) / 32) * ((c.n + 31) / 32));
      ASSERT_OK(kernel.launch(
          {programs},
          {tile::arg::ptr(da), tile::arg::ptr(db), tile::arg::ptr(dc), i32(c.m),
           i32(c.n), i32(c.k), i32(c.k), i32(1), i32(c.n), i32(1), i32(c.n),
           i32(1)}));
      expectClose(toDouble(download(dc, c.m * c.n)),
                  referenceMatmul(toDouble(a), toDouble(b), c.m, c.n, c.k,
                                  leaky),
                  std::string(leaky ? "matmul_leaky_relu " : "matmul ") +
                      std::to_string(c.m) + "x" + std::to_string(c.n) + "x" +
                      std::to_string(c.k));
    }
  }
}

// The f16 tensor-core matmuls (pipelined K loop, by hand in matmul_f16 and
// by the tile-pipeline-loops pass in matmul_f16_auto): partial tiles on
// every edge, K not a multiple of the step, fewer K steps than pipeline
// stages, and a transposed B (column-major: the synchronous copy path).
// On compute capability 9.0 also their sm_90a builds, whose dots are wgmma
// over swizzled buffers, and the Hopper example's TMA kernels, which must
// reject (with a clear error, no launch) the layouts TMA cannot read: rows
// not a multiple of 16 bytes, B column-major.
TEST_F(ExamplesGPUTest, MatmulF16) {
  TILE_REQUIRE_GPU();
  using mlir::tile::reference::floatToHalf;
  using mlir::tile::reference::halfToFloat;
  struct Case { int64_t m, n, k; bool bColumnMajor; };
  // blockN: the width of each program's tile of C (128 x blockN).
  struct Kernel {
    const char *file, *name;
    bool leaky;
    int64_t blockN;
    bool tma = false;
  };
  std::vector<Kernel> kernels = {
      Kernel{"matmul_f16", "matmul_f16", false, 128},
      Kernel{"matmul_f16", "matmul_f16_leaky_relu", true, 128},
      Kernel{"matmul_f16_auto", "matmul_f16_auto", false, 128},
      Kernel{"matmul_f16_hopper", "matmul_f16_hopper", false, 256},
      Kernel{"matmul_f16_hopper", "matmul_f16_hopper_leaky_relu", true, 256}};
  bool hopper = false;
  ASSERT_OK(isComputeCapability90(hopper));
  if (hopper)
    kernels.insert(
        kernels.end(),
        {Kernel{"matmul_f16_sm90a", "matmul_f16", false, 128},
         Kernel{"matmul_f16_sm90a", "matmul_f16_leaky_relu", true, 128},
         Kernel{"matmul_f16_auto_sm90a", "matmul_f16_auto", false, 128},
         Kernel{"matmul_f16_hopper_sm90a", "matmul_f16_hopper", false, 256},
         Kernel{"matmul_f16_hopper_sm90a", "matmul_f16_hopper_leaky_relu", true,
                256},
         Kernel{"matmul_f16_hopper_sm90a", "matmul_f16_hopper_tma", false, 256,
                true},
         Kernel{"matmul_f16_hopper_sm90a", "matmul_f16_hopper_tma_leaky_relu",
                true, 256, true}});
  for (Kernel which : kernels) {
    bool leaky = which.leaky;
    tile::Module module;
    tile::Kernel kernel;
    ASSERT_OK(loadKernel(which.file, which.name, module, kernel));
    for (Case c : {Case{128, 128, 32, false}, Case{300, 200, 100, false},
                   Case{1, 1, 1, false}, Case{256, 384, 1000, false},
                   Case{130, 70, 64, true}, Case{512, 512, 512, false},
                   Case{300, 200, 104, false}, Case{136, 72, 24, false}}) {
      // Host values rounded to f16, as bytes and as doubles.
      auto toHalf = [&](size_t n, std::vector<uint16_t> &bits,
                        std::vector<double> &values) {
        for (float f : randomFloats(n, rng)) {
          bits.push_back(floatToHalf(f));
          values.push_back(halfToFloat(bits.back()));
        }
      };
      std::vector<uint16_t> ah, bh;
      std::vector<double> av, bv;
      toHalf(c.m * c.k, ah, av);
      toHalf(c.k * c.n, bh, bv);
      // The reference wants B row-major; a column-major B holds B^T's rows.
      std::vector<double> bRowMajor = bv;
      if (c.bColumnMajor)
        for (int64_t k = 0; k < c.k; ++k)
          for (int64_t j = 0; j < c.n; ++j)
            bRowMajor[k * c.n + j] = bv[j * c.k + k];
      tile::DeviceBuffer da, db, dc;
      ASSERT_OK(tile::DeviceBuffer::allocate(ah.size() * 2, da));
      ASSERT_OK(tile::DeviceBuffer::allocate(bh.size() * 2, db));
      ASSERT_OK(tile::DeviceBuffer::allocate(c.m * c.n * 2, dc));
      ASSERT_OK(da.copyFromHost(ah.data(), ah.size() * 2));
      ASSERT_OK(db.copyFromHost(bh.data(), bh.size() * 2));
      ASSERT_OK(dc.fill(0xFF)); // f16 NaN
      auto i32 = tile::arg::i32;
      auto i64 = tile::arg::i64;
      int64_t sbk = c.bColumnMajor ? 1 : c.n, sbn = c.bColumnMajor ? c.k : 1;
      uint32_t programs = (uint32_t)(((c.m + 127) / 128) *
                                     ((c.n + which.blockN - 1) / which.blockN));
      tile::Status launched = kernel.launch(
          {programs}, {tile::arg::ptr(da), tile::arg::ptr(db),
                       tile::arg::ptr(dc), i32(c.m), i32(c.n), i32(c.k),
                       i64(c.k), i64(1), i64(sbk), i64(sbn), i64(c.n), i64(1)});
      // TMA reads rows of a multiple of 16 bytes (8 halves), contiguous.
      if (which.tma && (c.k % 8 || c.n % 8 || c.bColumnMajor)) {
        EXPECT_EQ(launched.code(), TILE_ERROR_INVALID_ARGUMENT)
            << which.name << " " << c.m << "x" << c.n << "x" << c.k << ": "
            << launched.toString();
        EXPECT_NE(launched.toString().find("TMA"), std::string::npos)
            << launched.toString();
        continue;
      }
      ASSERT_OK(launched);
      std::vector<uint16_t> out(c.m * c.n);
      ASSERT_OK(dc.copyToHost(out.data(), out.size() * 2));
      std::vector<double> got;
      for (uint16_t h : out)
        got.push_back(halfToFloat(h));
      expectClose(got, referenceMatmul(av, bRowMajor, c.m, c.n, c.k, leaky),
                  std::string(which.file) + ":" + which.name + " " +
                      std::to_string(c.m) + "x" + std::to_string(c.n) + "x" +
                      std::to_string(c.k) +
                      (c.bColumnMajor ? " (B column-major)" : ""),
                  1e-2);
    }
  }
}

// examples/attention.mlir (head_dim 64, 64 x 64 blocks) against float64:
// GQA with seq_q != seq_k, causal, causal with rows that see no key, in
// BHSD; the sm_90a build (wgmma) too on compute capability 9.0.
TEST_F(ExamplesGPUTest, Attention) {
  TILE_REQUIRE_GPU();
  using mlir::tile::reference::floatToHalf;
  using mlir::tile::reference::halfToFloat;
  struct Case {
    int64_t batch, heads, group, seqQ, seqK;
    bool causal;
  };
  // Build suffixes: the sm_90 build, and the sm_90a one on 9.0.
  std::vector<std::string> targets = {""};
  bool hopper = false;
  ASSERT_OK(isComputeCapability90(hopper));
  if (hopper)
    targets.push_back("_sm90a");
  const int64_t d = 64;
  for (const std::string &target : targets)
    for (Case c :
         {Case{2, 4, 2, 100, 333, false}, Case{1, 2, 1, 300, 300, true},
          Case{1, 2, 2, 200, 70, true}}) {
      // CAUSAL is a kernel parameter: the build compiles both.
      std::string file =
          std::string(c.causal ? "attention_causal" : "attention") + target;
      SCOPED_TRACE(file + " sq" + std::to_string(c.seqQ) + " sk" +
                   std::to_string(c.seqK));
      tile::Module module;
      tile::Kernel kernel;
      ASSERT_OK(loadKernel(file, "attention", module, kernel));
      int64_t kvHeads = c.heads / c.group;
      auto halves = [&](size_t n, std::vector<uint16_t> &bits,
                        std::vector<double> &values) {
        for (float f : randomFloats(n, rng)) {
          bits.push_back(floatToHalf(f));
          values.push_back(halfToFloat(bits.back()));
        }
      };
      std::vector<uint16_t> qh, kh, vh;
      std::vector<double> qv, kv, vv;
      halves(size_t(c.batch * c.heads * c.seqQ * d), qh, qv);
      halves(size_t(c.batch * kvHeads * c.seqK * d), kh, kv);
      halves(size_t(c.batch * kvHeads * c.seqK * d), vh, vv);
      tile::DeviceBuffer dq, dk, dv, dout, dlse;
      ASSERT_OK(tile::DeviceBuffer::allocate(qh.size() * 2, dq));
      ASSERT_OK(tile::DeviceBuffer::allocate(kh.size() * 2, dk));
      ASSERT_OK(tile::DeviceBuffer::allocate(vh.size() * 2, dv));
      ASSERT_OK(tile::DeviceBuffer::allocate(qh.size() * 2, dout));
      ASSERT_OK(tile::DeviceBuffer::allocate(
          size_t(c.batch * c.heads * c.seqQ) * 4, dlse));
      ASSERT_OK(dq.copyFromHost(qh.data(), qh.size() * 2));
      ASSERT_OK(dk.copyFromHost(kh.data(), kh.size() * 2));
      ASSERT_OK(dv.copyFromHost(vh.data(), vh.size() * 2));
      ASSERT_OK(dout.fill(0xFF));
      ASSERT_OK(dlse.fill(0xFF));
      auto i32 = tile::arg::i32;
      auto i64 = tile::arg::i64;
      int64_t qHead = c.seqQ * d, kHead = c.seqK * d;
      double scale = 1.0 / std::sqrt(double(d));
      ASSERT_OK(kernel.launch(
          {uint32_t((c.seqQ + 63) / 64), uint32_t(c.heads), uint32_t(c.batch)},
          {tile::arg::ptr(dq),
           tile::arg::ptr(dk),
           tile::arg::ptr(dv),
           tile::arg::ptr(dout),
           tile::arg::ptr(dlse),
           i32(c.seqQ),
           i32(c.seqK),
           i32(c.heads),
           i32(c.group),
           i64(c.heads * qHead),
           i64(qHead),
           i64(d),
           i64(kvHeads * kHead),
           i64(kHead),
           i64(d),
           i64(kvHeads * kHead),
           i64(kHead),
           i64(d),
           i64(c.heads * qHead),
           i64(qHead),
           i64(d),
           tile::arg::f32(float(scale))}));
      std::vector<uint16_t> out(qh.size());
      std::vector<float> lse(size_t(c.batch * c.heads * c.seqQ));
      ASSERT_OK(dout.copyToHost(out.data(), out.size() * 2));
      ASSERT_OK(dlse.copyToHost(lse.data(), lse.size() * 4));
      double worst = 0, worstLse = 0;
      const size_t kvElems = size_t(c.seqK * d);
      std::vector<double> kRows(kvElems), vRows(kvElems), ref(d);
      for (int64_t b = 0; b < c.batch; ++b)
        for (int64_t h = 0; h < c.heads; ++h) {
          int64_t kvBase = (b * kvHeads + h / c.group) * kHead;
          std::copy(kv.begin() + kvBase, kv.begin() + kvBase + kHead,
                    kRows.begin());
          std::copy(vv.begin() + kvBase, vv.begin() + kvBase + kHead,
                    vRows.begin());
          for (int64_t r = 0; r < c.seqQ; ++r) {
            int64_t row = (b * c.heads + h) * qHead + r * d;
            int64_t visible = mlir::tile::reference::attentionVisibleKeys(
                r, c.seqQ, c.seqK, c.causal);
            double lseRef;
            mlir::tile::reference::referenceAttentionRow(
                &qv[size_t(row)], kRows, vRows, visible, d, scale, ref.data(),
                lseRef);
            for (int64_t i = 0; i < d; ++i) {
              double got = halfToFloat(out[size_t(row + i)]);
              ASSERT_TRUE(std::isfinite(got)) << "o row " << r;
              worst = std::max(worst, std::fabs(got - ref[size_t(i)]));
            }
            double gotLse = lse[size_t((b * c.heads + h) * c.seqQ + r)];
            if (visible == 0) {
              EXPECT_TRUE(std::isinf(gotLse) && gotLse < 0) << "row " << r;
              continue;
            }
            worstLse = std::max(worstLse, std::fabs(gotLse - lseRef) /
                                              std::max(1.0, std::fabs(lseRef)));
          }
        }
      EXPECT_LE(worst, 2e-3) << "max abs error of o";
      EXPECT_LE(worstLse, 1e-4) << "relative error of lse";
    }
}

TEST_F(ExamplesGPUTest, LaunchArgumentErrors) {
  TILE_REQUIRE_GPU();
  tile::Module module;
  tile::Kernel kernel;
  ASSERT_OK(loadKernel("vector_add", "vector_add", module, kernel));
  tile::DeviceBuffer d;
  ASSERT_OK(poisoned(16, d));
  // Too few arguments, a null pointer, a misaligned pointer.
  tile::Status s = kernel.launch({1}, {tile::arg::ptr(d)});
  EXPECT_EQ(s.code(), TILE_ERROR_INVALID_ARGUMENT) << s.toString();
  s = kernel.launch({1}, {tile::arg::ptr(0), tile::arg::ptr(d),
                          tile::arg::ptr(d), tile::arg::i32(16)});
  EXPECT_EQ(s.code(), TILE_ERROR_INVALID_ARGUMENT) << s.toString();
  s = kernel.launch({1}, {tile::arg::ptr(d.ptr() + 4), tile::arg::ptr(d),
                          tile::arg::ptr(d), tile::arg::i32(4)});
  EXPECT_EQ(s.code(), TILE_ERROR_INVALID_ARGUMENT) << s.toString();
  s = kernel.launch({1}, {tile::arg::ptr(d), tile::arg::ptr(d),
                          tile::arg::ptr(d), tile::arg::f32(1.0f)});
  EXPECT_EQ(s.code(), TILE_ERROR_INVALID_ARGUMENT) << s.toString();
}

} // namespace
