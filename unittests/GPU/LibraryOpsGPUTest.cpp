//===- LibraryOpsGPUTest.cpp - tile_softmax and tile_softmax_matmul -------===//
//
// The library operations on the GPU: every dtype, row lengths across every
// dispatch path (several rows per CTA, one row per CTA, online), odd
// shapes, strided and unaligned rows, large values and rows with one huge
// element, against float64 references with per-precision tolerances;
// outputs are poisoned before each run. Argument errors are checked without
// a GPU.
//
//===----------------------------------------------------------------------===//

#include "GPUTestUtil.h"
#include "tile/Reference/Float16.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace gputest;
using namespace mlir::tile::reference;

namespace {

size_t elemSize(tile_dtype t) { return t == TILE_F32 ? 4 : 2; }
const char *name(tile_dtype t) {
  return t == TILE_F32 ? "f32" : t == TILE_F16 ? "f16" : "bf16";
}

/// Host values rounded to `t`, and their bytes.
struct HostTensor {
  std::vector<double> values; // exactly representable in `t`
  std::vector<uint8_t> bytes;
};

HostTensor makeTensor(const std::vector<float> &v, tile_dtype t) {
  HostTensor h;
  h.bytes.resize(v.size() * elemSize(t));
  for (size_t i = 0; i < v.size(); ++i) {
    float x = v[i];
    if (t == TILE_F32) {
      std::memcpy(&h.bytes[i * 4], &x, 4);
      h.values.push_back(x);
    } else {
      uint16_t bits = t == TILE_F16 ? floatToHalf(x) : floatToBF16(x);
      std::memcpy(&h.bytes[i * 2], &bits, 2);
      h.values.push_back(t == TILE_F16 ? halfToFloat(bits) : bf16ToFloat(bits));
    }
  }
  return h;
}

std::vector<double> readTensor(const std::vector<uint8_t> &bytes,
                               tile_dtype t) {
  std::vector<double> out(bytes.size() / elemSize(t));
  for (size_t i = 0; i < out.size(); ++i) {
    if (t == TILE_F32) {
      float x;
      std::memcpy(&x, &bytes[i * 4], 4);
      out[i] = x;
    } else {
      uint16_t bits;
      std::memcpy(&bits, &bytes[i * 2], 2);
      out[i] = t == TILE_F16 ? halfToFloat(bits) : bf16ToFloat(bits);
    }
  }
  return out;
}

double tolerance(tile_dtype t) { return t == TILE_F32 ? 1e-5 : 1e-2; }

/// The dtype of a softmax variant from its name past the family prefix
/// (`<in>_<out>_...`).
tile_dtype variantDtype(const std::string &rest) {
  std::string in = rest.substr(0, rest.find('_'));
  return in == "f32" ? TILE_F32 : in == "f16" ? TILE_F16 : TILE_BF16;
}

class LibraryOpsGPUTest : public ::testing::Test {
protected:
  uint64_t seed = std::random_device{}();
  std::mt19937_64 rng{seed};
  ::testing::ScopedTrace trace{__FILE__, __LINE__,
                               "random seed " + std::to_string(seed)};

  /// Runs `check` on each of `variants` with it forced through
  /// TILE_SOFTMAX_VARIANT, up to the first fatal failure; the variable is
  /// unset afterwards.
  template <typename Variant, typename Check>
  void forEachForced(const std::vector<Variant> &variants, Check check) {
    for (const Variant &v : variants) {
      ASSERT_EQ(setenv("TILE_SOFTMAX_VARIANT", v.name.c_str(), 1), 0);
      check(v);
      if (HasFatalFailure())
        break;
    }
    unsetenv("TILE_SOFTMAX_VARIANT");
  }

  /// Runs tile_softmax on rows x cols (row strides in elements, `offset`
  /// elements into each buffer to test unaligned bases) and compares.
  void checkSoftmax(tile_dtype t, int64_t rows, int64_t cols, int64_t xStride,
                    int64_t yStride, int64_t offset = 0, double scale = 1.0,
                    int64_t hugeStride = 0) {
    std::vector<float> host = randomFloats(rows * xStride + offset, rng, scale);
    // Optionally one element of 1e4 per row, at column r * hugeStride
    // (mod cols): a row max far above the rest.
    if (hugeStride)
      for (int64_t r = 0; r < rows; ++r)
        host[offset + r * xStride + (r * hugeStride) % cols] = 1e4f;
    HostTensor x = makeTensor(host, t);
    size_t es = elemSize(t);
    tile::DeviceBuffer dx, dy;
    ASSERT_OK(tile::DeviceBuffer::allocate(x.bytes.size(), dx));
    ASSERT_OK(dx.copyFromHost(x.bytes.data(), x.bytes.size()));
    size_t yBytes = (rows * yStride + offset) * es;
    ASSERT_OK(tile::DeviceBuffer::allocate(yBytes, dy));
    ASSERT_OK(dy.fill(0xFF)); // NaN in every dtype
    tile_status s = tile_softmax(dy.ptr() + offset * es, t, yStride,
                                 dx.ptr() + offset * es, t, xStride, rows,
                                 cols, nullptr);
    ASSERT_EQ(s, TILE_SUCCESS) << tile_last_error();
    ASSERT_OK(tile::synchronize());
    std::vector<uint8_t> yb(yBytes);
    ASSERT_OK(dy.copyToHost(yb.data(), yBytes));
    std::vector<double> y = readTensor(yb, t);
    std::vector<double> got, xs;
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c) {
        got.push_back(y[offset + r * yStride + c]);
        xs.push_back(x.values[offset + r * xStride + c]);
      }
      for (int64_t c = cols; c < yStride; ++c)
        ASSERT_TRUE(std::isnan(y[offset + r * yStride + c]))
            << "wrote padding at row " << r << " column " << c;
    }
    char variant[128];
    ASSERT_EQ(tile_softmax_variant(t, t, cols,
                                   (offset * es) % 16 == 0 &&
                                       (xStride * es) % 16 == 0 &&
                                       (yStride * es) % 16 == 0,
                                   variant, sizeof(variant)),
              TILE_SUCCESS);
    expectClose(got, referenceSoftmax(xs, rows, cols),
                std::string("softmax ") + name(t) + " " + std::to_string(rows) +
                    "x" + std::to_string(cols) + " via " + variant,
                tolerance(t));
  }

  /// Runs tile_softmax_matmul on contiguous random inputs (x scaled by
  /// `xScale`) of batch x d1 x d2 and batch x d2 x d3, with a poisoned
  /// output, and compares with float64 at the precision's tolerance.
  void checkSoftmaxMatmul(tile_dtype t, tile_precision p, int64_t batch,
                          int64_t d1, int64_t d2, int64_t d3, double xScale,
                          const std::string &what) {
    HostTensor x = makeTensor(randomFloats(batch * d1 * d2, rng, xScale), t);
    HostTensor v = makeTensor(randomFloats(batch * d2 * d3, rng), t);
    size_t outBytes = batch * d1 * d3 * elemSize(t);
    tile::DeviceBuffer dx, dv, dout;
    ASSERT_OK(tile::DeviceBuffer::allocate(x.bytes.size(), dx));
    ASSERT_OK(tile::DeviceBuffer::allocate(v.bytes.size(), dv));
    ASSERT_OK(tile::DeviceBuffer::allocate(outBytes, dout));
    ASSERT_OK(dx.copyFromHost(x.bytes.data(), x.bytes.size()));
    ASSERT_OK(dv.copyFromHost(v.bytes.data(), v.bytes.size()));
    ASSERT_OK(dout.fill(0xFF));
    int64_t xs[3] = {d1 * d2, d2, 1}, vs[3] = {d2 * d3, d3, 1},
            os[3] = {d1 * d3, d3, 1};
    tile_status s = tile_softmax_matmul(dout.ptr(), os, dx.ptr(), xs, dv.ptr(),
                                        vs, t, batch, d1, d2, d3, p, nullptr);
    ASSERT_EQ(s, TILE_SUCCESS) << what << ": " << tile_last_error();
    std::vector<uint8_t> ob(outBytes);
    ASSERT_OK(dout.copyToHost(ob.data(), outBytes));
    double tol = t != TILE_F32                ? 1e-2
                 : p == TILE_PRECISION_TF32 ? 1e-3
                                            : 1e-5;
    expectClose(readTensor(ob, t),
                referenceSoftmaxMatmul(x.values, v.values, batch, d1, d2, d3),
                what + " " + std::to_string(batch) + "x" + std::to_string(d1) +
                    "x" + std::to_string(d2) + "x" + std::to_string(d3),
                tol);
  }
};

TEST_F(LibraryOpsGPUTest, SoftmaxEveryPathAndDtype) {
  TILE_REQUIRE_GPU();
  for (tile_dtype t : {TILE_F32, TILE_F16, TILE_BF16})
    for (int64_t cols :
         {1,     17,    32,     100,    256,    781,   1024,  1025,
          3000,  4096,  10000,  16384,  16385,  20000, 30000, 32768,
          40000, 60000, 100000, 130000, 262144, 262160})
      checkSoftmax(t, 37, cols, cols, cols);
}

/// An embedded softmax cluster variant, with the fields its name
/// softmax_cluster_<in>_<out>_c<size>_b<block>_w<warps>_a16... gives.
struct ClusterVariant {
  std::string name;
  tile_dtype dtype;
  int64_t size, block;
};

/// The cluster variants that loop over slices of their rows (`_l`), or
/// the others.
static std::vector<ClusterVariant> clusterVariants(bool loop) {
  const std::string prefix = "softmax_cluster_";
  std::vector<ClusterVariant> out;
  for (size_t i = 0; i < tile_library_kernel_count(); ++i) {
    std::string name = tile_library_kernel_name(i);
    bool isLoop =
        name.size() > 2 && name.compare(name.size() - 2, 2, "_l") == 0;
    if (name.rfind(prefix, 0) != 0 || isLoop != loop)
      continue;
    std::string rest = name.substr(prefix.size());
    size_t c = rest.find("_c"), b = rest.find("_b", c);
    out.push_back({name, variantDtype(rest), std::stoll(rest.substr(c + 2)),
                   std::stoll(rest.substr(b + 2))});
  }
  return out;
}

// Every cluster kernel, forced, on rows that fill it, rows whose last
// program is partly masked, and rows that leave whole programs of the
// cluster without columns (they contribute -inf and 0).
TEST_F(LibraryOpsGPUTest, SoftmaxClusterEveryVariant) {
  TILE_REQUIRE_GPU();
  bool clusters = false;
  ASSERT_OK(hasClusters(clusters));
  if (!clusters)
    GTEST_SKIP() << "thread block clusters need compute capability 9.0";
  std::vector<ClusterVariant> variants = clusterVariants(/*loop=*/false);
  EXPECT_EQ(variants.size(), 78u);
  forEachForced(variants, [&](const ClusterVariant &v) {
    int64_t capacity = v.size * v.block;
    for (int64_t cols : {capacity, capacity - 1008, v.block / 2 + 16}) {
      checkSoftmax(v.dtype, 6, cols, cols + 16, cols + 32, 0, 4.0);
      if (HasFatalFailure())
        return;
    }
    checkSoftmax(v.dtype, 3, capacity - 16, capacity, capacity, 0, 1.0,
                 /*hugeStride=*/7919);
  });
}

// Every cluster kernel that loops over slices of the row (`_l`), forced:
// slices of several blocks, the last one ending inside a block, rows that
// leave the last programs of the cluster without columns, and a row of 16.
TEST_F(LibraryOpsGPUTest, SoftmaxClusterLoopEveryVariant) {
  TILE_REQUIRE_GPU();
  bool clusters = false;
  ASSERT_OK(hasClusters(clusters));
  if (!clusters)
    GTEST_SKIP() << "thread block clusters need compute capability 9.0";
  std::vector<ClusterVariant> variants = clusterVariants(/*loop=*/true);
  EXPECT_EQ(variants.size(), 12u);
  forEachForced(variants, [&](const ClusterVariant &v) {
    int64_t blocks = v.size * v.block;
    for (int64_t cols :
         {3 * blocks, 2 * blocks - 1008, v.block + 16, int64_t(16)}) {
      checkSoftmax(v.dtype, 5, cols, cols + 16, cols + 32, 0, 4.0);
      if (HasFatalFailure())
        return;
    }
    // The row max in a different slice of each row.
    checkSoftmax(v.dtype, 3, blocks + 48, blocks + 48, blocks + 48, 0, 1.0,
                 /*hugeStride=*/v.block + 7);
  });
}

// Every grid kernel (rows split over programs anywhere in the grid, which
// wait for one another through a workspace), forced: rows of several
// slices, the last one partly masked, of one slice plus 16 columns, of 16
// columns; thousands of programs (more than the GPU keeps resident, so
// later rows' programs start as earlier rows finish); the row max in a
// different slice of each row.
TEST_F(LibraryOpsGPUTest, SoftmaxGridEveryVariant) {
  TILE_REQUIRE_GPU();
  const std::string prefix = "softmax_grid_";
  struct GridVariant {
    std::string name;
    tile_dtype dtype;
    int64_t block;
  };
  std::vector<GridVariant> variants;
  for (size_t i = 0; i < tile_library_kernel_count(); ++i) {
    std::string name = tile_library_kernel_name(i);
    if (name.rfind(prefix, 0) != 0)
      continue;
    std::string rest = name.substr(prefix.size());
    variants.push_back({name, variantDtype(rest),
                        std::stoll(rest.substr(rest.rfind("_b") + 2))});
  }
  // f32: 2 builds; f16 and bf16: 2, and 5 rematerialized (`_rm`, one
  // with an occupancy request).
  EXPECT_EQ(variants.size(), 16u);
  forEachForced(variants, [&](const GridVariant &v) {
    for (int64_t cols :
         {3 * v.block, 2 * v.block - 1008, v.block + 16, int64_t(16)}) {
      checkSoftmax(v.dtype, 5, cols, cols + 16, cols + 32, 0, 4.0);
      if (HasFatalFailure())
        return;
    }
    checkSoftmax(v.dtype, 1000, 2 * v.block + 32, 2 * v.block + 32,
                 2 * v.block + 32);
    if (HasFatalFailure())
      return;
    checkSoftmax(v.dtype, 3, 4 * v.block + 48, 4 * v.block + 48,
                 4 * v.block + 48, 0, 1.0, /*hugeStride=*/v.block + 7);
  });
}

// Every two-tile row kernel (`_t<tail>`: columns [block, block + tail) in a
// second tile), forced, on rows that fill both tiles, rows whose second
// tile is nearly all masked, rows that leave it empty, and a row block
// count that is not a multiple of the rows per program.
TEST_F(LibraryOpsGPUTest, SoftmaxTwoTileEveryVariant) {
  TILE_REQUIRE_GPU();
  int tested = 0;
  for (size_t i = 0; i < tile_library_kernel_count(); ++i) {
    std::string variant = tile_library_kernel_name(i);
    const std::string prefix = "softmax_rows_";
    size_t t = variant.find("_t");
    if (variant.rfind(prefix, 0) != 0 || t == std::string::npos)
      continue;
    // softmax_rows_<in>_<out>_r<rows>_b<block>_w<warps>_t<tail>_a16...
    tile_dtype dtype = variantDtype(variant.substr(prefix.size()));
    int64_t block = std::stoll(variant.substr(variant.rfind("_b") + 2));
    int64_t tail = std::stoll(variant.substr(t + 2));
    ASSERT_EQ(setenv("TILE_SOFTMAX_VARIANT", variant.c_str(), 1), 0);
    int64_t capacity = block + tail;
    for (int64_t cols : {capacity, capacity - 8, block + 8, block / 2 + 8}) {
      int64_t stride = (cols + 15) / 16 * 16 + 16;
      checkSoftmax(dtype, 37, cols, stride, stride, 0, 4.0);
      if (HasFatalFailure()) {
        unsetenv("TILE_SOFTMAX_VARIANT");
        return;
      }
    }
    // The largest element in the first tile of row 0 and in the second
    // tile of the others: both tiles' maxima enter the row's.
    checkSoftmax(dtype, 5, capacity, capacity, capacity, 0, 1.0,
                 /*hugeStride=*/capacity - 3);
    ++tested;
  }
  unsetenv("TILE_SOFTMAX_VARIANT");
  EXPECT_EQ(tested, 55);
}

/// An embedded softmax row variant, with the fields its name
/// softmax_rows_<in>_<out>_r<rows>_b<block>_w<warps>... gives.
struct RowVariant {
  std::string name;
  tile_dtype dtype;
  int64_t rows, block, warps;
};

std::vector<RowVariant> rowVariants() {
  const std::string prefix = "softmax_rows_";
  std::vector<RowVariant> variants;
  for (size_t i = 0; i < tile_library_kernel_count(); ++i) {
    std::string name = tile_library_kernel_name(i);
    if (name.rfind(prefix, 0) != 0)
      continue;
    // (The last `_b` and `_w`: bf16 names hold `_bf16`; the first `_r`:
    // `_rm` may follow.)
    auto at = [&](size_t pos) { return std::stoll(name.substr(pos + 2)); };
    variants.push_back({name, variantDtype(name.substr(prefix.size())),
                        at(name.find("_r", prefix.size())),
                        at(name.rfind("_b")), at(name.rfind("_w"))});
  }
  return variants;
}

// Every persistent row kernel (`_p`: a grid of a few programs per SM,
// each looping over row blocks, loading the next block during the
// current one), forced, on more row blocks than programs (each
// program runs the loop at least twice), rows that fill the block or end
// inside it, and a row count that is not a multiple of the rows per
// program. `_a1` builds get a misaligned base.
TEST_F(LibraryOpsGPUTest, SoftmaxPersistentEveryVariant) {
  TILE_REQUIRE_GPU();
  std::vector<RowVariant> variants;
  for (const RowVariant &v : rowVariants())
    if (v.name.find("_p") != std::string::npos)
      variants.push_back(v);
  // 7 persistent builds per dtype and alignment.
  EXPECT_EQ(variants.size(), 42u);
  forEachForced(variants, [&](const RowVariant &v) {
    int64_t offset = v.name.find("_a1_") != std::string::npos ? 1 : 0;
    // Twice the rows the runtime's grid covers at once (1024 threads'
    // worth of programs per SM, at most 132 SMs), and some.
    int64_t rows = 2 * 132 * (1024 / (32 * v.warps)) * v.rows + 37;
    for (int64_t cols : {v.block, v.block - 3, v.block / 2 + 1}) {
      int64_t stride = (cols + 7) / 8 * 8 + 8;
      checkSoftmax(v.dtype, rows, cols, stride, stride, offset, 4.0);
      if (HasFatalFailure())
        return;
    }
  });
}

// Every one-tile row kernel marked tile.rematerialize (`_rm`: 2-byte rows
// held as loaded, their f32 values and exponentials recomputed after each
// reduction), forced, on full rows, rows missing their last 16-byte
// vector, half-full rows, and rows whose largest element sits at a
// different column in each row (scaled inputs: one weight dominates).
TEST_F(LibraryOpsGPUTest, SoftmaxRematerializedEveryVariant) {
  TILE_REQUIRE_GPU();
  std::vector<RowVariant> variants;
  for (const RowVariant &v : rowVariants())
    if (v.name.find("_t") == std::string::npos && v.name.size() >= 3 &&
        v.name.substr(v.name.size() - 3) == "_rm")
      variants.push_back(v);
  // 9 builds each for f16 and bf16.
  EXPECT_EQ(variants.size(), 18u);
  forEachForced(variants, [&](const RowVariant &v) {
    for (int64_t cols : {v.block, v.block - 8, v.block / 2 + 8}) {
      char chosen[128] = "";
      EXPECT_EQ(tile_softmax_variant(v.dtype, v.dtype, cols, true, chosen,
                                     sizeof(chosen)),
                TILE_SUCCESS);
      EXPECT_EQ(std::string(chosen), v.name) << cols << " columns";
      int64_t stride = cols + 16;
      checkSoftmax(v.dtype, 37, cols, stride, stride, 0, 4.0);
      if (HasFatalFailure())
        return;
    }
    checkSoftmax(v.dtype, 5, v.block, v.block, v.block, 0, 1.0,
                 /*hugeStride=*/v.block - 3);
  });
}

TEST_F(LibraryOpsGPUTest, SoftmaxTutorialShapeAndLargeMatrix) {
  TILE_REQUIRE_GPU();
  checkSoftmax(TILE_F32, 1823, 781, 781, 781);
  checkSoftmax(TILE_F32, 4096, 4096, 4096, 4096);
  checkSoftmax(TILE_F16, 4096, 1024, 1024, 1024);
}

TEST_F(LibraryOpsGPUTest, SoftmaxStridesAndAlignment) {
  TILE_REQUIRE_GPU();
  for (tile_dtype t : {TILE_F32, TILE_F16}) {
    checkSoftmax(t, 50, 1000, 1024, 1008);   // aligned strides, padding
    checkSoftmax(t, 50, 1000, 1003, 1001);   // unaligned strides
    checkSoftmax(t, 9, 300, 320, 320, 3);    // unaligned base pointers
    checkSoftmax(t, 3, 20000, 20011, 20000); // online path, odd stride
    // Strides that are multiples of 16 bytes but not of 16 elements take
    // the aligned variants.
    checkSoftmax(t, 40, 5000, 5000, 5008);
    checkSoftmax(t, 40, 3000, 3016, 3000);
  }
}

TEST_F(LibraryOpsGPUTest, SoftmaxLargeValues) {
  TILE_REQUIRE_GPU();
  for (tile_dtype t : {TILE_F32, TILE_BF16}) {
    checkSoftmax(t, 20, 781, 781, 781, 0, 1e4);
    checkSoftmax(t, 20, 781, 781, 781, 0, 1.0, /*hugeStride=*/7919);
    checkSoftmax(t, 4, 30000, 30000, 30000, 0, 1.0, /*hugeStride=*/7919);
  }
}

TEST_F(LibraryOpsGPUTest, SoftmaxMatmul) {
  TILE_REQUIRE_GPU();
  struct Case { int64_t batch, d1, d2, d3; };
  for (tile_dtype t : {TILE_F32, TILE_F16, TILE_BF16})
    for (tile_precision p :
         {TILE_PRECISION_IEEE, TILE_PRECISION_TF32, TILE_PRECISION_TF32X3}) {
      if (t != TILE_F32 && p != TILE_PRECISION_IEEE)
        continue;
      for (Case c : {Case{1, 16, 16, 64}, Case{2, 50, 100, 40},
                     Case{3, 17, 33, 5}, Case{2, 300, 257, 130},
                     Case{1, 1, 1, 1}, Case{2, 4096, 64, 64}}) {
        checkSoftmaxMatmul(t, p, c.batch, c.d1, c.d2, c.d3, 1.0,
                           std::string("softmax_matmul ") + name(t) +
                               " precision " + std::to_string(p));
        if (HasFatalFailure())
          return;
      }
    }
}

// Every embedded softmax-matmul variant (forced through
// TILE_SOFTMAX_MATMUL_VARIANT), not only the dispatcher's choices: tuning
// may pick any of them. Shapes with partial tiles on every edge.
TEST_F(LibraryOpsGPUTest, SoftmaxMatmulEveryVariant) {
  TILE_REQUIRE_GPU();
  struct Case { int64_t batch, d1, d2, d3; };
  int tested = 0;
  bool hopper = false;
  ASSERT_OK(isComputeCapability90(hopper));
  for (size_t i = 0; i < tile_library_kernel_count(); ++i) {
    std::string variant = tile_library_kernel_name(i);
    const std::string prefix = "softmax_matmul_";
    if (variant.rfind(prefix, 0) != 0)
      continue;
    // Hopper builds (sm_90a, named with an `_h` part) run on 9.0 only.
    bool hopperBuild = variant.find("_h_") != std::string::npos ||
                       (variant.size() > 2 &&
                        variant.compare(variant.size() - 2, 2, "_h") == 0);
    if (hopperBuild && !hopper)
      continue;
    // softmax_matmul_<dtype>_<precision>_m.._k.._n.._w..
    std::string rest = variant.substr(prefix.size());
    std::string dtypeName = rest.substr(0, rest.find('_'));
    rest = rest.substr(rest.find('_') + 1);
    std::string precisionName = rest.substr(0, rest.find('_'));
    tile_dtype t = dtypeName == "f32"   ? TILE_F32
                   : dtypeName == "f16" ? TILE_F16
                                        : TILE_BF16;
    tile_precision p = precisionName == "tf32"     ? TILE_PRECISION_TF32
                       : precisionName == "tf32x3" ? TILE_PRECISION_TF32X3
                                                   : TILE_PRECISION_IEEE;
    ASSERT_EQ(setenv("TILE_SOFTMAX_MATMUL_VARIANT", variant.c_str(), 1), 0);
    std::vector<Case> cases{{2, 300, 257, 130}, {1, 128, 256, 256}};
    // Short-row variants (`_p<n>`: d2 <= k): full and partial rows, and
    // d3 beyond one program's columns.
    if (variant.find("_p") != std::string::npos) {
      int64_t k = std::stoll(variant.substr(variant.find("_k") + 2));
      cases = {{2, 300, k - 7, 130}, {1, 128, k, 600}, {3, 65, k / 2 + 1, 9}};
    }
    // TMA builds read rows of a multiple of 16 bytes: partial row, column
    // and d2 blocks (d2 = 264: a last step of 8 columns), three batches.
    if (variant.size() > 4 &&
        variant.compare(variant.size() - 4, 4, "_tma") == 0)
      cases = {{2, 300, 264, 136}, {1, 128, 256, 256}, {3, 200, 520, 264}};
    for (Case c : cases) {
      checkSoftmaxMatmul(t, p, c.batch, c.d1, c.d2, c.d3, 4.0, variant);
      if (HasFatalFailure()) {
        unsetenv("TILE_SOFTMAX_MATMUL_VARIANT");
        return;
      }
    }
    ++tested;
  }
  unsetenv("TILE_SOFTMAX_MATMUL_VARIANT");
  EXPECT_GE(tested, 40);
}

// The f16/bf16 builds with TMA copies: the dispatcher takes them for
// contiguous tensors whose rows are a multiple of 16 bytes and the plain
// build otherwise, and a TMA build forced onto rows it cannot read fails
// at launch with a message, writing nothing.
TEST_F(LibraryOpsGPUTest, SoftmaxMatmulTmaChoiceAndLimits) {
  TILE_REQUIRE_GPU();
  bool hopper = false;
  ASSERT_OK(isComputeCapability90(hopper));
  if (!hopper)
    GTEST_SKIP() << "TMA builds run on compute capability 9.0";
  // tf32's TMA build is for tuning only (slower: docs/perf-notes.md).
  struct Choice {
    tile_dtype dtype;
    tile_precision precision;
    int64_t d2;
    const char *want;
  };
  for (Choice c :
       {Choice{TILE_F16, TILE_PRECISION_IEEE, 8192,
               "softmax_matmul_f16_ieee_m128_k64_n256_w8_s4_h_f_tma"},
        Choice{TILE_BF16, TILE_PRECISION_IEEE, 1000,
               "softmax_matmul_bf16_ieee_m128_k64_n256_w8_s4_h_f_tma"},
        Choice{TILE_F16, TILE_PRECISION_IEEE, 1001,
               "softmax_matmul_f16_ieee_m128_k64_n256_w8_s4_h_f"},
        Choice{TILE_F32, TILE_PRECISION_TF32, 8192,
               "softmax_matmul_f32_tf32_m128_k32_n256_w8_s3_h_f_t"}}) {
    char name[128];
    ASSERT_EQ(tile_softmax_matmul_variant(c.dtype, c.precision, 2048, c.d2, 512,
                                          name, sizeof(name)),
              TILE_SUCCESS);
    EXPECT_STREQ(name, c.want) << "d2 = " << c.d2;
  }
  // Through the operation: rows of 1001 halves take the plain build (the
  // dispatcher) and give the right answer; the TMA build forced onto them
  // is refused.
  checkSoftmaxMatmul(TILE_F16, TILE_PRECISION_IEEE, 2, 256, 1001, 264, 4.0,
                     "dispatcher, odd d2");
  ASSERT_EQ(setenv("TILE_SOFTMAX_MATMUL_VARIANT",
                   "softmax_matmul_f16_ieee_m128_k64_n256_w8_s4_h_f_tma", 1),
            0);
  const int64_t b = 1, d1 = 128, d2 = 1001, d3 = 256;
  tile::DeviceBuffer dx, dv, dout;
  ASSERT_OK(tile::DeviceBuffer::allocate(b * d1 * d2 * 2, dx));
  ASSERT_OK(tile::DeviceBuffer::allocate(b * d2 * d3 * 2, dv));
  ASSERT_OK(tile::DeviceBuffer::allocate(b * d1 * d3 * 2, dout));
  ASSERT_OK(dx.fill(0));
  ASSERT_OK(dv.fill(0));
  ASSERT_OK(dout.fill(0xFF));
  int64_t xs[3] = {d1 * d2, d2, 1}, vs[3] = {d2 * d3, d3, 1},
          os[3] = {d1 * d3, d3, 1};
  tile_status s =
      tile_softmax_matmul(dout.ptr(), os, dx.ptr(), xs, dv.ptr(), vs, TILE_F16,
                          b, d1, d2, d3, TILE_PRECISION_IEEE, nullptr);
  unsetenv("TILE_SOFTMAX_MATMUL_VARIANT");
  EXPECT_EQ(s, TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tile_last_error()).find("copied with TMA"),
            std::string::npos)
      << tile_last_error();
  std::vector<uint8_t> out(b * d1 * d3 * 2);
  ASSERT_OK(dout.copyToHost(out.data(), out.size()));
  EXPECT_TRUE(
      std::all_of(out.begin(), out.end(), [](uint8_t v) { return v == 0xFF; }));
}

TEST_F(LibraryOpsGPUTest, SoftmaxMatmulStridedInputs) {
  TILE_REQUIRE_GPU();
  // X transposed in memory (column-major rows), V with padded rows, output
  // with a padded row stride whose padding must stay untouched. Also through
  // the pipelined tensor-core variants (forced): their copies of the
  // transposed X take the synchronous element path, V's rows (stride 64,
  // 16-byte aligned) the cp.async path.
  const int64_t b = 2, d1 = 70, d2 = 90, d3 = 50, vPad = 64, oPad = 56;
  struct Run {
    tile_precision precision;
    const char *variant; // nullptr: the dispatcher's choice
    double tolerance;
  };
  for (Run run :
       {Run{TILE_PRECISION_IEEE, nullptr, 1e-5},
        Run{TILE_PRECISION_TF32, "softmax_matmul_f32_tf32_m64_k32_n128_w4_s2",
            1e-3},
        Run{TILE_PRECISION_TF32X3,
            "softmax_matmul_f32_tf32x3_m128_k32_n64_w4_s2", 1e-5}}) {
    std::vector<float> xh = randomFloats(b * d1 * d2, rng),
                       vh = randomFloats(b * d2 * vPad, rng);
    tile::DeviceBuffer dx, dv, dout;
    ASSERT_OK(upload(xh, dx));
    ASSERT_OK(upload(vh, dv));
    ASSERT_OK(poisoned(b * d1 * oPad, dout));
    int64_t xs[3] = {d1 * d2, 1, d1}, vs[3] = {d2 * vPad, vPad, 1},
            os[3] = {d1 * oPad, oPad, 1};
    if (run.variant)
      ASSERT_EQ(setenv("TILE_SOFTMAX_MATMUL_VARIANT", run.variant, 1), 0);
    tile_status s = tile_softmax_matmul(dout.ptr(), os, dx.ptr(), xs,
                                        dv.ptr(), vs, TILE_F32, b, d1, d2, d3,
                                        run.precision, nullptr);
    unsetenv("TILE_SOFTMAX_MATMUL_VARIANT");
    ASSERT_EQ(s, TILE_SUCCESS) << tile_last_error();
    std::vector<float> out = download(dout, b * d1 * oPad);
    std::vector<double> x(b * d1 * d2), v(b * d2 * d3), got;
    for (int64_t bb = 0; bb < b; ++bb) {
      for (int64_t i = 0; i < d1; ++i)
        for (int64_t k = 0; k < d2; ++k)
          x[(bb * d1 + i) * d2 + k] = xh[bb * d1 * d2 + k * d1 + i];
      for (int64_t k = 0; k < d2; ++k)
        for (int64_t j = 0; j < d3; ++j)
          v[(bb * d2 + k) * d3 + j] = vh[bb * d2 * vPad + k * vPad + j];
      for (int64_t i = 0; i < d1; ++i) {
        for (int64_t j = 0; j < d3; ++j)
          got.push_back(out[bb * d1 * oPad + i * oPad + j]);
        for (int64_t j = d3; j < oPad; ++j)
          ASSERT_TRUE(std::isnan(out[bb * d1 * oPad + i * oPad + j]));
      }
    }
    expectClose(got, referenceSoftmaxMatmul(x, v, b, d1, d2, d3),
                std::string("strided softmax_matmul via ") +
                    (run.variant ? run.variant : "the dispatcher"),
                run.tolerance);
  }
}

// Argument errors need no GPU: they are rejected before anything launches.
TEST(LibraryOpsArguments, SoftmaxRejectsBadArguments) {
  uint64_t p = 256;
  EXPECT_EQ(tile_softmax(0, TILE_F32, 8, p, TILE_F32, 8, 4, 8, nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tile_last_error()).find("y is null"),
            std::string::npos);
  EXPECT_EQ(tile_softmax(p, TILE_F32, 8, p, TILE_F32, 8, 0, 8, nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_softmax(p, TILE_F32, 8, p, TILE_F32, 4, 4, 8, nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tile_last_error()).find("rows would overlap"),
            std::string::npos);
  EXPECT_EQ(tile_softmax(p, TILE_F16, 8, p, TILE_F32, 8, 4, 8, nullptr),
            TILE_ERROR_UNSUPPORTED);
  EXPECT_EQ(tile_softmax(p, (tile_dtype)7, 8, p, TILE_F32, 8, 4, 8, nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_softmax(p + 1, TILE_F32, 8, p, TILE_F32, 8, 4, 8, nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
}

TEST(LibraryOpsArguments, SoftmaxMatmulRejectsBadArguments) {
  uint64_t p = 256;
  int64_t s[3] = {64, 8, 1}, bad[3] = {64, 0, 1};
  EXPECT_EQ(tile_softmax_matmul(p, s, 0, s, p, s, TILE_F32, 1, 8, 8, 8,
                                TILE_PRECISION_TF32, nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tile_last_error()).find("x is null"),
            std::string::npos);
  EXPECT_EQ(tile_softmax_matmul(p, s, p, s, p, s, TILE_F32, 1, 8, -1, 8,
                                TILE_PRECISION_TF32, nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_softmax_matmul(p, s, p, bad, p, s, TILE_F32, 1, 8, 8, 8,
                                TILE_PRECISION_TF32, nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_softmax_matmul(p, s, p, s, p, s, TILE_F32, 1, 8, 8, 8,
                                (tile_precision)9, nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tile_softmax_matmul(p, s, p, s, p, s, TILE_F32, 70000, 8, 8, 8,
                                TILE_PRECISION_TF32, nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tile_last_error()).find("65535"), std::string::npos);
  // A short-row variant, forced, on rows longer than it holds.
  ASSERT_EQ(setenv("TILE_SOFTMAX_MATMUL_VARIANT",
                   "softmax_matmul_f16_ieee_m64_k64_n128_w4_s2_p4", 1),
            0);
  // (Three disjoint arrays: nothing is launched.)
  uint64_t x = p + 4096, v = p + 8192;
  EXPECT_EQ(tile_softmax_matmul(p, s, x, s, v, s, TILE_F16, 1, 8, 65, 8,
                                TILE_PRECISION_IEEE, nullptr),
            TILE_ERROR_INVALID_ARGUMENT);
  unsetenv("TILE_SOFTMAX_MATMUL_VARIANT");
  EXPECT_NE(std::string(tile_last_error()).find("at most 64 columns (d2 = 65)"),
            std::string::npos)
      << tile_last_error();
  // An output sharing bytes with an input: programs would read what others
  // wrote. 2 x 8 x 8 f32 outputs span bytes [p, p + 511].
  int64_t os[3] = {64, 8, 1};
  for (auto [xBase, vBase, what] :
       {std::tuple<uint64_t, uint64_t, const char *>{p + 508, v,
                                                     "out overlaps x"},
        {x, p, "out overlaps v"},
        {p - 4, v, "out overlaps x"}}) {
    EXPECT_EQ(tile_softmax_matmul(p, os, xBase, s, vBase, s, TILE_F32, 2, 8, 8,
                                  8, TILE_PRECISION_TF32, nullptr),
              TILE_ERROR_INVALID_ARGUMENT)
        << what;
    EXPECT_NE(std::string(tile_last_error()).find(what), std::string::npos)
        << tile_last_error();
  }
}

TEST(LibraryOpsArguments, EveryDtypeHasEveryVariant) {
  char variant[128];
  for (tile_dtype t : {TILE_F32, TILE_F16, TILE_BF16})
    for (int64_t cols : {1, 1000, 16384, 16385, 1 << 20})
      for (int aligned : {0, 1})
        EXPECT_EQ(tile_softmax_variant(t, t, cols, aligned, variant,
                                       sizeof(variant)),
                  TILE_SUCCESS)
            << name(t) << " " << cols;
  // Aligned f32 rows the row kernels do not take go to a cluster kernel
  // where the device has clusters and it measured faster, else to the
  // online kernel.
  bool clusters = false;
  (void)hasClusters(clusters);
  struct Choice {
    tile_dtype t;
    int64_t cols;
    int aligned;
    const char *withClusters, *without;
  };
  const Choice choices[] = {
      {TILE_F32, 781, 1, "softmax_rows_f32_f32_r1_b1024_w4_a16", nullptr},
      {TILE_F32, 40000, 0, "softmax_online_f32_f32_b2048_w8_a1", nullptr},
      // Aligned rows of a multiple of 16 bytes: the builds that know it
      // (_n16), where there is one.
      {TILE_F32, 30000, 1, "softmax_rows_f32_f32_r1_b32768_w32_a16_n16",
       nullptr},
      {TILE_F32, 30001, 1, "softmax_rows_f32_f32_r1_b32768_w32_a16", nullptr},
      {TILE_F32, 20000, 1, "softmax_rows_f32_f32_r1_b16384_w16_t4096_a16",
       nullptr},
      {TILE_F16, 20000 + 1, 1, "softmax_rows_f16_f16_r1_b16384_w16_t4096_a16",
       nullptr},
      {TILE_F16, 20000, 0, "softmax_online_f16_f16_b2048_w8_a1", nullptr},
      {TILE_F32, 100000, 1, "softmax_cluster_f32_f32_c8_b16384_w16_a16_n16_o2",
       "softmax_online_f32_f32_b2048_w8_a16_n16"},
      {TILE_F32, 100001, 1, "softmax_cluster_f32_f32_c8_b16384_w16_a16_o2",
       "softmax_online_f32_f32_b2048_w8_a16"},
      // 2-byte rows of a multiple of 16 bytes beyond 32768 columns: slices
      // anywhere in the grid, rematerialized (where the device allocates
      // in stream order).
      {TILE_F16, 65536, 1, "softmax_grid_f16_f16_b16384_w8_s128_a16_n16_rm",
       "softmax_online_f16_f16_b2048_w8_a16_n16"},
      {TILE_BF16, 65528, 1,
       "softmax_grid_bf16_bf16_b16384_w8_s128_a16_n16_rm_o4",
       "softmax_online_bf16_bf16_b2048_w8_a16_n16"},
      {TILE_F16, 32769 + 7, 1, "softmax_grid_f16_f16_b16384_w8_s128_a16_n16_rm",
       "softmax_online_f16_f16_b2048_w8_a16_n16"},
      {TILE_F16, 65535, 1, "softmax_online_f16_f16_b2048_w8_a16", nullptr},
      {TILE_F16, 131072, 1, "softmax_grid_f16_f16_b16384_w8_s128_a16_n16_rm",
       "softmax_online_f16_f16_b2048_w8_a16_n16"},
      {TILE_BF16, 1 << 20, 1,
       "softmax_grid_bf16_bf16_b16384_w8_s128_a16_n16_rm_o4",
       "softmax_online_bf16_bf16_b2048_w8_a16_n16"},
      // 2-byte rows beyond 128 slices of 16384: clusters looping over
      // slices (`_l`).
      {TILE_F16, 128 * 16384 + 8, 1,
       "softmax_cluster_f16_f16_c16_b4096_w8_a16_n16_l",
       "softmax_online_f16_f16_b2048_w8_a16_n16"},
      {TILE_F16, 131073, 1, "softmax_online_f16_f16_b2048_w8_a16", nullptr},
      {TILE_F32, 150000, 1, "softmax_grid_f32_f32_b8192_w8_s128_a16_n16",
       "softmax_online_f32_f32_b2048_w8_a16_n16"},
      {TILE_F32, 150001, 1, "softmax_online_f32_f32_b2048_w8_a16", nullptr},
      {TILE_F32, 262144, 1, "softmax_grid_f32_f32_b8192_w8_s128_a16_n16",
       "softmax_online_f32_f32_b2048_w8_a16_n16"},
      {TILE_F32, 524288, 1, "softmax_grid_f32_f32_b8192_w8_s128_a16_n16",
       "softmax_online_f32_f32_b2048_w8_a16_n16"},
      {TILE_F32, 262145, 1, "softmax_online_f32_f32_b2048_w8_a16", nullptr},
      // f32 rows beyond 128 slices of 8192: the slice-looping clusters.
      {TILE_F32, 128 * 8192 + 16, 1,
       "softmax_cluster_f32_f32_c16_b8192_w16_a16_n16_l",
       "softmax_online_f32_f32_b2048_w8_a16_n16"},
      // Rows past a power of two, aligned: two tiles.
      {TILE_F32, 768, 1, "softmax_rows_f32_f32_r4_b512_w4_t256_a16_n16",
       nullptr},
      {TILE_F32, 767, 1, "softmax_rows_f32_f32_r4_b512_w4_t256_a16", nullptr},
      {TILE_F32, 768, 0, "softmax_rows_f32_f32_r1_b1024_w4_a1", nullptr},
      {TILE_F32, 10000, 1, "softmax_rows_f32_f32_r1_b8192_w16_t2048_a16_n16",
       nullptr},
      {TILE_F32, 1025, 1, "softmax_rows_f32_f32_r1_b1024_w2_t256_a16", nullptr},
      {TILE_F32, 384, 1, "softmax_rows_f32_f32_r4_b512_w4_a16_n16", nullptr},
      {TILE_F32, 24576, 1, "softmax_rows_f32_f32_r1_b16384_w16_t8192_a16_n16",
       nullptr},
      // 2-byte types: only where measured faster (tile-kernel-gen's
      // isTwoTileDefault).
      {TILE_BF16, 768, 1, "softmax_rows_bf16_bf16_r4_b512_w4_t256_a16_n16",
       nullptr},
      {TILE_BF16, 1025, 1, "softmax_rows_bf16_bf16_r1_b2048_w4_a16", nullptr},
      {TILE_F16, 3000, 1, "softmax_rows_f16_f16_r1_b4096_w4_a16_n16_rm",
       nullptr},
      {TILE_F16, 3080, 1, "softmax_rows_f16_f16_r1_b4096_w8_a16_n16", nullptr},
      {TILE_F16, 5000, 1, "softmax_rows_f16_f16_r1_b4096_w4_t1024_a16_n16",
       nullptr},
      // 2-byte rows of a multiple of 16 bytes from 2049 to 3072 and from
      // 5121 to 32768 columns: the rematerializing row kernels (`_rm`).
      {TILE_F16, 24576, 1, "softmax_rows_f16_f16_r1_b32768_w16_a16_n16_rm",
       nullptr},
      {TILE_F16, 20000, 1, "softmax_rows_f16_f16_r1_b32768_w16_a16_n16_rm",
       nullptr},
      {TILE_F16, 24577, 1, "softmax_rows_f16_f16_r1_b32768_w32_a16", nullptr},
      {TILE_F16, 10000, 1, "softmax_rows_f16_f16_r1_b16384_w8_a16_n16_rm",
       nullptr},
      {TILE_F16, 10001, 1, "softmax_rows_f16_f16_r1_b8192_w16_t4096_a16",
       nullptr},
      {TILE_BF16, 8192, 1, "softmax_rows_bf16_bf16_r1_b8192_w4_a16_n16_rm",
       nullptr},
      {TILE_F16, 5128, 1, "softmax_rows_f16_f16_r1_b8192_w4_a16_n16_rm",
       nullptr},
      {TILE_F16, 5120, 1, "softmax_rows_f16_f16_r1_b4096_w4_t1024_a16_n16",
       nullptr},
      {TILE_F16, 8192, 0, "softmax_rows_f16_f16_r1_b8192_w16_a1", nullptr},
  };
  for (const Choice &c : choices) {
    ASSERT_EQ(tile_softmax_variant(c.t, c.t, c.cols, c.aligned, variant,
                                   sizeof(variant)),
              TILE_SUCCESS);
    EXPECT_STREQ(variant, clusters || !c.without ? c.withClusters : c.without)
        << name(c.t) << " " << c.cols << (c.aligned ? " aligned" : "");
  }
}

} // namespace
