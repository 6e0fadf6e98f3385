//===- AttentionGPUTest.cpp - tile_attention on the GPU -------------------===//
//
// tile_attention as its users call it, against float64 attention on the
// inputs rounded to their type: f16, bf16 and f32 (TF32), BHSD and BSHD
// layouts, GQA and MQA, causal with the diagonal aligned bottom-right,
// sequences that are not multiples of the blocks, rows with no visible key,
// head_dim 20 to 256, unaligned tensors; outputs NaN-poisoned before the
// call. The argument errors run without a GPU.
//
//===----------------------------------------------------------------------===//

#include "GPUTestUtil.h"
#include "tile/Reference/Float16.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

using namespace gputest;
using namespace mlir::tile::reference;

namespace {

size_t elemSize(tile_dtype t) { return t == TILE_F32 ? 4 : 2; }
const char *name(tile_dtype t) {
  return t == TILE_F32 ? "f32" : t == TILE_F16 ? "f16" : "bf16";
}

/// Max |o - float64| of the output (the targets: 2e-3 for f16, 1.6e-2 for
/// bf16; TF32 rounds Q, K, P and V to 10 mantissa bits) and the
/// log-sum-exp's relative error.
double outputTolerance(tile_dtype t) {
  return t == TILE_F16 ? 2e-3 : t == TILE_BF16 ? 1.6e-2 : 4e-3;
}
double lseTolerance(tile_dtype t) { return t == TILE_F32 ? 1e-3 : 1e-4; }

struct AttentionCase {
  tile_dtype dtype = TILE_F16;
  int64_t batch = 1, heads = 1, kvHeads = 1, seqQ = 1, seqK = 1, headDim = 64;
  bool causal = false;
  bool bshd = false;   ///< [batch, seq, heads, dim] instead of BHSD
  bool withLse = true; ///< pass an lse buffer
  int64_t offset = 0;  ///< elements each tensor starts past its buffer's
                       ///< base (1: unaligned)
  std::optional<float> scale; ///< default 1/sqrt(headDim)
};

std::string describe(const AttentionCase &c) {
  return std::string(name(c.dtype)) + " b" + std::to_string(c.batch) + " h" +
         std::to_string(c.heads) + "/" + std::to_string(c.kvHeads) + " sq" +
         std::to_string(c.seqQ) + " sk" + std::to_string(c.seqK) + " d" +
         std::to_string(c.headDim) + (c.causal ? " causal" : "") +
         (c.bshd ? " bshd" : " bhsd") + (c.offset ? " unaligned" : "") +
         (c.scale ? " scale " + std::to_string(*c.scale) : "");
}

/// Host values rounded to `t`, and their bytes.
struct HostTensor {
  std::vector<double> values;
  std::vector<char> bytes;
};

HostTensor randomTensor(tile_dtype t, size_t n, std::mt19937_64 &rng) {
  std::normal_distribution<double> dist(0.0, 1.0);
  HostTensor h;
  h.values.resize(n);
  h.bytes.resize(n * elemSize(t));
  for (size_t i = 0; i < n; ++i) {
    float f = (float)dist(rng);
    if (t == TILE_F32) {
      std::memcpy(&h.bytes[i * 4], &f, 4);
      h.values[i] = f;
    } else {
      uint16_t b = t == TILE_F16 ? floatToHalf(f) : floatToBF16(f);
      std::memcpy(&h.bytes[i * 2], &b, 2);
      h.values[i] = t == TILE_F16 ? halfToFloat(b) : bf16ToFloat(b);
    }
  }
  return h;
}

double decodeElem(tile_dtype t, const char *p) {
  if (t == TILE_F32) {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  uint16_t b;
  std::memcpy(&b, p, 2);
  return t == TILE_F16 ? halfToFloat(b) : bf16ToFloat(b);
}

class AttentionGPUTest : public ::testing::Test {
protected:
  void SetUp() override {
    uint64_t seed = std::random_device{}();
    rng.seed(seed);
    trace.emplace(__FILE__, __LINE__, "random seed " + std::to_string(seed));
  }
  std::mt19937_64 rng;
  std::optional<::testing::ScopedTrace> trace;

  /// Runs the case and checks every output row and log-sum-exp.
  void run(const AttentionCase &c) {
    SCOPED_TRACE(describe(c));
    const int64_t D = c.headDim, group = c.heads / c.kvHeads;
    auto strides = [&](int64_t h, int64_t s) {
      return c.bshd ? tile::AttentionTensor{0, {s * h * D, D, h * D, 1}}
                    : tile::AttentionTensor{0, {h * s * D, s * D, D, 1}};
    };
    tile::AttentionTensor qv = strides(c.heads, c.seqQ), ov = qv,
                          kvv = strides(c.kvHeads, c.seqK);
    size_t qElems = size_t(c.batch * c.heads * c.seqQ * D),
           kvElems = size_t(c.batch * c.kvHeads * c.seqK * D);
    HostTensor q = randomTensor(c.dtype, qElems, rng),
               k = randomTensor(c.dtype, kvElems, rng),
               v = randomTensor(c.dtype, kvElems, rng);
    size_t es = elemSize(c.dtype), pad = size_t(c.offset) * es;
    tile::DeviceBuffer dq, dk, dv, dout, dlse;
    auto upload = [&](const HostTensor &h, tile::DeviceBuffer &d) {
      ASSERT_OK(tile::DeviceBuffer::allocate(h.bytes.size() + pad, d));
      ASSERT_OK(d.copyFromHost(h.bytes.data(), h.bytes.size(), pad));
    };
    upload(q, dq);
    upload(k, dk);
    upload(v, dv);
    ASSERT_OK(tile::DeviceBuffer::allocate(qElems * es + pad, dout));
    ASSERT_OK(dout.fill(0xFF));
    size_t lseCount = size_t(c.batch * c.heads * c.seqQ);
    ASSERT_OK(tile::DeviceBuffer::allocate(lseCount * 4, dlse));
    ASSERT_OK(dlse.fill(0xFF));
    qv.ptr = dq.ptr() + pad;
    ov.ptr = dout.ptr() + pad;
    tile::AttentionTensor kt = kvv, vt = kvv;
    kt.ptr = dk.ptr() + pad;
    vt.ptr = dv.ptr() + pad;
    tile::AttentionShape shape;
    shape.dtype = c.dtype;
    shape.batch = c.batch;
    shape.heads = c.heads;
    shape.kvHeads = c.kvHeads;
    shape.seqQ = c.seqQ;
    shape.seqK = c.seqK;
    shape.headDim = D;
    shape.scale = c.scale.value_or(float(1.0 / std::sqrt(double(D))));
    shape.causal = c.causal;
    ASSERT_OK(
        tile::attention(ov, qv, kt, vt, c.withLse ? dlse.ptr() : 0, shape));
    ASSERT_OK(tile::synchronize());
    std::vector<char> out(qElems * es + pad);
    ASSERT_OK(dout.copyToHost(out.data(), out.size()));
    std::vector<float> lse(lseCount);
    ASSERT_OK(dlse.copyToHost(lse.data(), lseCount * 4));

    double worst = 0, worstLse = 0;
    int64_t maskedRows = 0;
    const size_t kvRowElems = size_t(c.seqK * D);
    std::vector<double> kh(kvRowElems), vh(kvRowElems), o(D);
    for (int64_t b = 0; b < c.batch; ++b)
      for (int64_t h = 0; h < c.heads; ++h) {
        int64_t kvh = h / group;
        for (int64_t j = 0; j < c.seqK; ++j)
          for (int64_t d = 0; d < D; ++d) {
            size_t at = size_t(b * kvv.strides[0] + kvh * kvv.strides[1] +
                               j * kvv.strides[2] + d);
            kh[size_t(j * D + d)] = k.values[at];
            vh[size_t(j * D + d)] = v.values[at];
          }
        for (int64_t r = 0; r < c.seqQ; ++r) {
          size_t row =
              size_t(b * qv.strides[0] + h * qv.strides[1] + r * qv.strides[2]);
          int64_t visible = attentionVisibleKeys(r, c.seqQ, c.seqK, c.causal);
          maskedRows += visible == 0;
          double lseRef;
          referenceAttentionRow(&q.values[row], kh, vh, visible, D,
                                double(shape.scale), o.data(), lseRef);
          for (int64_t d = 0; d < D; ++d) {
            double got = decodeElem(c.dtype, &out[pad + (row + d) * es]);
            ASSERT_TRUE(std::isfinite(got))
                << "o[" << b << "," << h << "," << r << "," << d << "]";
            worst = std::max(worst, std::fabs(got - o[size_t(d)]));
          }
          if (!c.withLse)
            continue;
          double got = lse[size_t((b * c.heads + h) * c.seqQ + r)];
          if (visible == 0) {
            ASSERT_TRUE(std::isinf(got) && got < 0)
                << "lse of a row with no visible key: " << got;
            continue;
          }
          ASSERT_TRUE(std::isfinite(got)) << "lse row " << r;
          worstLse = std::max(worstLse, std::fabs(got - lseRef) /
                                            std::max(1.0, std::fabs(lseRef)));
        }
      }
    EXPECT_LE(worst, outputTolerance(c.dtype)) << "max abs error of o";
    EXPECT_LE(worstLse, lseTolerance(c.dtype)) << "relative error of lse";
    if (c.causal && c.seqQ > c.seqK)
      EXPECT_GT(maskedRows, 0) << "the case should have fully masked rows";
    if (!c.withLse) {
      // lse = 0: nothing written there.
      for (float f : lse)
        ASSERT_TRUE(std::isnan(f)) << "lse written without a buffer";
    }
    RecordProperty(describe(c), std::to_string(worst));
  }
};

TEST_F(AttentionGPUTest, HeadDimsAndDtypes) {
  TILE_REQUIRE_GPU();
  for (tile_dtype t : {TILE_F16, TILE_BF16, TILE_F32})
    for (int64_t d : {32, 64, 128, 256}) {
      AttentionCase c;
      c.dtype = t;
      c.batch = 2;
      c.heads = 3;
      c.kvHeads = 3;
      c.seqQ = 131;
      c.seqK = 203;
      c.headDim = d;
      run(c);
    }
}

// The kernels take the rows' maxima before scaling: a negative scale goes
// into Q, a zero one leaves every visible weight at 1 (the mean of the
// visible values). Short rows and long ones (the warp-specialized
// kernels), masked and not.
TEST_F(AttentionGPUTest, NegativeAndZeroScales) {
  TILE_REQUIRE_GPU();
  for (float scale : {-0.125f, 0.0f, -1.5f})
    for (auto [sq, sk] : {std::pair<int64_t, int64_t>{131, 203}, {2048, 2048}})
      for (bool causal : {false, true}) {
        AttentionCase c;
        c.heads = 2;
        c.kvHeads = 2;
        c.seqQ = sq;
        c.seqK = sk;
        c.headDim = 128;
        c.causal = causal;
        c.scale = scale;
        run(c);
      }
}

TEST_F(AttentionGPUTest, CausalBottomRightAndFullyMaskedRows) {
  TILE_REQUIRE_GPU();
  for (tile_dtype t : {TILE_F16, TILE_BF16, TILE_F32})
    for (auto [sq, sk] : {std::pair<int64_t, int64_t>{257, 257},
                          {100, 333},
                          {400, 150},
                          {1, 77}}) {
      AttentionCase c;
      c.dtype = t;
      c.heads = 2;
      c.kvHeads = 2;
      c.seqQ = sq;
      c.seqK = sk;
      c.headDim = 128;
      c.causal = true;
      run(c);
    }
}

TEST_F(AttentionGPUTest, GroupedAndMultiQueryHeadsInBothLayouts) {
  TILE_REQUIRE_GPU();
  for (bool bshd : {false, true})
    for (int64_t kv : {2, 1})
      for (bool causal : {false, true}) {
        AttentionCase c;
        c.dtype = TILE_BF16;
        c.batch = 2;
        c.heads = 8;
        c.kvHeads = kv;
        c.seqQ = 200;
        c.seqK = 333;
        c.headDim = 64;
        c.causal = causal;
        c.bshd = bshd;
        c.withLse = kv == 2;
        run(c);
      }
}

TEST_F(AttentionGPUTest, PaddedHeadDimsAndUnalignedTensors) {
  TILE_REQUIRE_GPU();
  for (tile_dtype t : {TILE_F16, TILE_F32})
    for (int64_t d : {20, 96, 200})
      for (int64_t offset : {0, 1}) {
        AttentionCase c;
        c.dtype = t;
        c.heads = 2;
        c.kvHeads = 1;
        c.seqQ = 90;
        c.seqK = 150;
        c.headDim = d;
        c.causal = d == 96;
        c.offset = offset;
        run(c);
      }
  // head_dim 64 with every tensor one element past 16-byte alignment: the
  // unaligned kernels.
  AttentionCase c;
  c.heads = 4;
  c.kvHeads = 4;
  c.seqQ = 300;
  c.seqK = 300;
  c.headDim = 64;
  c.offset = 1;
  run(c);
}

TEST_F(AttentionGPUTest, LongSequence) {
  TILE_REQUIRE_GPU();
  AttentionCase c;
  c.heads = 2;
  c.kvHeads = 2;
  c.seqQ = 2048;
  c.seqK = 2048;
  c.headDim = 128;
  c.causal = true;
  run(c);
}

TEST(AttentionArguments, RejectsBadArguments) {
  uint64_t p = 1 << 20, q = 2 << 20, k = 3 << 20, v = 4 << 20;
  int64_t s[4] = {4096, 4096, 64, 1};
  auto call = [&](uint64_t o, const int64_t *os, uint64_t qp, const int64_t *qs,
                  int64_t heads, int64_t kvHeads, int64_t d,
                  float scale = 0.125f, uint64_t lse = 0) {
    return tile_attention(o, os, qp, qs, k, s, v, s, lse, TILE_F16, 1, heads,
                          kvHeads, 64, 64, d, scale, 0, nullptr);
  };
  auto expectError = [&](tile_status got, tile_status want, const char *what) {
    EXPECT_EQ(got, want) << what;
    EXPECT_NE(std::string(tile_last_error()).find(what), std::string::npos)
        << tile_last_error();
  };
  expectError(call(p, s, 0, s, 1, 1, 64), TILE_ERROR_INVALID_ARGUMENT,
              "q is null");
  expectError(call(p, nullptr, q, s, 1, 1, 64), TILE_ERROR_INVALID_ARGUMENT,
              "strides array is null");
  expectError(call(p, s, q, s, 6, 4, 64), TILE_ERROR_INVALID_ARGUMENT,
              "must divide heads");
  expectError(call(p, s, q, s, 1, 1, 0), TILE_ERROR_INVALID_ARGUMENT,
              "sizes must be at least 1");
  expectError(call(p, s, q, s, 1, 1, 300), TILE_ERROR_UNSUPPORTED,
              "is over 256");
  int64_t strided[4] = {8192, 8192, 128, 2};
  expectError(call(p, s, q, strided, 1, 1, 64), TILE_ERROR_INVALID_ARGUMENT,
              "contiguous");
  expectError(call(p + 1, s, q, s, 1, 1, 64), TILE_ERROR_INVALID_ARGUMENT,
              "aligned to the element size");
  expectError(
      call(p, s, q, s, 1, 1, 64, std::numeric_limits<float>::infinity()),
      TILE_ERROR_INVALID_ARGUMENT, "scale must be finite");
  expectError(call(p, s, p + 64, s, 1, 1, 64), TILE_ERROR_INVALID_ARGUMENT,
              "o overlaps q");
  expectError(call(p, s, q, s, 1, 1, 64, 0.125f, p + 128),
              TILE_ERROR_INVALID_ARGUMENT, "lse overlaps");
  expectError(tile_attention(p, s, q, s, k, s, v, s, 0, TILE_F16, 70000, 1, 1,
                             64, 64, 64, 0.125f, 0, nullptr),
              TILE_ERROR_INVALID_ARGUMENT, "65535");
  expectError(tile_attention(p, s, q, s, k, s, v, s, 0, TILE_F16, 1, 1, 1,
                             int64_t(1) << 30, int64_t(1) << 30, 64, 0.125f, 0,
                             nullptr),
              TILE_ERROR_INVALID_ARGUMENT, "below 2^31");
  int64_t overlapping[4] = {4096, 4096, 32, 1};
  expectError(call(p, overlapping, q, s, 1, 1, 64), TILE_ERROR_INVALID_ARGUMENT,
              "rows overlap");
}

} // namespace
