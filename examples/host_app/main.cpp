//===- main.cpp - A host application of the installed Tile runtime --------===//
//
// Uses the Tile runtime as an installed package provides it (tile_runtime.h,
// tile_runtime.hpp, Tile::runtime or Tile::runtime_shared) and nothing else:
// no MLIR, no CUDA toolkit; the runtime opens libcuda.so.1 itself.
//
// It runs the library operations on random data and checks each against a
// float64 reference computed here, by the normwise relative error
// max|got - ref| / max|ref|:
//
//   tile_softmax         1000 x 3000 f32, row stride 3008   tolerance 1e-5
//   tile_softmax_matmul  batch 2, d1 100, d2 300, d3 64:
//                          f32 (IEEE precision)             tolerance 1e-5
//                          f16 (f32 accumulation)           tolerance 1e-2
//
// Outputs are poisoned (0xFF bytes: NaN) before each operation, so an
// element the kernel does not write fails the check, and the padding
// columns of the softmax output must still hold the poison afterwards. It
// then shows an error return: tile_softmax with a null pointer returns
// TILE_ERROR_INVALID_ARGUMENT and tile_last_error() says why.
//
// Prints PASS or FAIL per operation; exits 0 when everything passed and 1
// otherwise. When tile_init fails (no driver, no GPU) it prints the
// runtime's message and "no GPU: skipping" and exits 0, or exits 1 when run
// with --require-gpu.
//
//===----------------------------------------------------------------------===//

#include <tile_runtime.h>
#include <tile_runtime.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

// Runtime calls that failed anywhere (including frees in destructors).
int failedCalls = 0;

// Checks a runtime call: on failure prints the call, the status and
// tile_last_error(), and counts it.
bool check(tile_status status, const char *call) {
  if (status == TILE_SUCCESS)
    return true;
  ++failedCalls;
  std::printf("  %s\n    failed: %s: %s\n", call, tile_status_name(status),
              tile_last_error());
  return false;
}

// Inside a function returning bool: returns false when `call` fails.
#define CHECK(call)                                                            \
  do {                                                                         \
    if (!check((call), #call))                                                 \
      return false;                                                            \
  } while (0)

// A device allocation, freed on destruction (the free is checked too).
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  ~DeviceBuffer() {
    if (ptr_)
      check(tile_free(ptr_), "tile_free");
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  tile_status allocate(size_t bytes) {
    tile_status status = tile_malloc(&ptr_, bytes);
    size_ = status == TILE_SUCCESS ? bytes : 0;
    return status;
  }
  uint64_t ptr() const { return ptr_; }
  size_t size() const { return size_; }

private:
  uint64_t ptr_ = 0;
  size_t size_ = 0;
};

//--- f16 <-> f32 (IEEE binary16, round to nearest even) ---------------------

uint16_t floatToHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  uint32_t sign = (bits >> 16) & 0x8000u;
  uint32_t abs = bits & 0x7fffffffu;
  if (abs >= 0x7f800000u) // inf, NaN
    return uint16_t(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u));
  if (abs >= 0x477ff000u) // rounds to a value beyond 65504
    return uint16_t(sign | 0x7c00u);
  if (abs < 0x38800000u) { // below 2^-14: a subnormal half (or zero)
    float magnitude;
    std::memcpy(&magnitude, &abs, sizeof(magnitude));
    // Units of 2^-24, rounded to nearest even (the default rounding mode).
    return uint16_t(sign | uint32_t(std::nearbyint(magnitude * 16777216.0f)));
  }
  uint32_t half = (((abs >> 23) - 127 + 15) << 10) | ((abs >> 13) & 0x3ffu);
  uint32_t rest = abs & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
    ++half; // may carry into the exponent, which is right
  return uint16_t(sign | half);
}

float halfToFloat(uint16_t half) {
  uint32_t sign = uint32_t(half & 0x8000u) << 16;
  uint32_t exponent = (half >> 10) & 0x1fu;
  uint32_t mantissa = half & 0x3ffu;
  if (exponent == 0) { // zero or subnormal
    float magnitude = std::ldexp(float(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  uint32_t bits = exponent == 31
                      ? sign | 0x7f800000u | (mantissa << 13)
                      : sign | ((exponent - 15 + 127) << 23) | (mantissa << 13);
  float out;
  std::memcpy(&out, &bits, sizeof(out));
  return out;
}

//--- Host buffers of a tile_dtype --------------------------------------------

size_t elementSize(tile_dtype dtype) { return dtype == TILE_F32 ? 4 : 2; }
const char *dtypeName(tile_dtype dtype) {
  return dtype == TILE_F32 ? "f32" : dtype == TILE_F16 ? "f16" : "bf16";
}

// Rounds `values` to `dtype` in place (the reference then uses exactly what
// the device reads) and returns their bytes. F32 and F16 only.
std::vector<unsigned char> encode(std::vector<double> &values,
                                  tile_dtype dtype) {
  std::vector<unsigned char> bytes(values.size() * elementSize(dtype));
  for (size_t i = 0; i < values.size(); ++i) {
    if (dtype == TILE_F32) {
      float f = float(values[i]);
      std::memcpy(&bytes[i * 4], &f, 4);
      values[i] = f;
    } else {
      uint16_t h = floatToHalf(float(values[i]));
      std::memcpy(&bytes[i * 2], &h, 2);
      values[i] = halfToFloat(h);
    }
  }
  return bytes;
}

double decode(const std::vector<unsigned char> &bytes, size_t index,
              tile_dtype dtype) {
  if (dtype == TILE_F32) {
    float f;
    std::memcpy(&f, &bytes[index * 4], 4);
    return f;
  }
  uint16_t h;
  std::memcpy(&h, &bytes[index * 2], 2);
  return halfToFloat(h);
}

std::vector<double> randomValues(std::mt19937 &rng, size_t count, double lo,
                                 double hi) {
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<double> values(count);
  for (double &v : values)
    v = dist(rng);
  return values;
}

// max|got - ref| / max|ref| over the compared elements; elements that are
// not finite (e.g. still the NaN poison) are counted separately.
struct ErrorStats {
  double maxError = 0, maxRef = 0;
  size_t nonFinite = 0;

  void add(double got, double ref) {
    if (!std::isfinite(got)) {
      ++nonFinite;
      return;
    }
    maxError = std::max(maxError, std::fabs(got - ref));
    maxRef = std::max(maxRef, std::fabs(ref));
  }
  double normwise() const { return maxRef > 0 ? maxError / maxRef : maxError; }
  bool passes(double tolerance) const {
    return nonFinite == 0 && normwise() <= tolerance;
  }
  void print(double tolerance) const {
    std::printf("  normwise relative error %.3e (tolerance %.0e)", normwise(),
                tolerance);
    if (nonFinite)
      std::printf(", %zu elements not finite (never written?)", nonFinite);
    std::printf("\n");
  }
};

//--- The operations ------------------------------------------------------------

// y = softmax(x) by rows, on a 1000 x 3000 f32 matrix with row stride 3008.
bool testSoftmax(std::mt19937 &rng) {
  const int64_t rows = 1000, cols = 3000, stride = 3008;
  const double tolerance = 1e-5;
  const tile_dtype dtype = TILE_F32;
  const size_t count = size_t(rows * stride);

  // The padding columns get random values too: they must not matter.
  std::vector<double> x = randomValues(rng, count, -4.0, 4.0);
  std::vector<unsigned char> xBytes = encode(x, dtype);

  DeviceBuffer dx, dy;
  CHECK(dx.allocate(xBytes.size()));
  CHECK(dy.allocate(xBytes.size()));
  CHECK(tile_memcpy_htod(dx.ptr(), xBytes.data(), xBytes.size()));
  CHECK(tile_memset_d8(dy.ptr(), 0xFF, dy.size()));
  CHECK(tile_softmax(dy.ptr(), dtype, stride, dx.ptr(), dtype, stride, rows,
                     cols, /*stream=*/nullptr));
  CHECK(tile_synchronize());
  std::vector<unsigned char> yBytes(dy.size());
  CHECK(tile_memcpy_dtoh(yBytes.data(), dy.ptr(), yBytes.size()));

  ErrorStats stats;
  size_t paddingWritten = 0;
  std::vector<double> ref(static_cast<size_t>(cols));
  for (int64_t r = 0; r < rows; ++r) {
    const double *row = &x[size_t(r * stride)];
    double rowMax = *std::max_element(row, row + cols);
    double sum = 0;
    for (int64_t c = 0; c < cols; ++c)
      sum += ref[size_t(c)] = std::exp(row[c] - rowMax);
    for (int64_t c = 0; c < cols; ++c)
      stats.add(decode(yBytes, size_t(r * stride + c), dtype),
                ref[size_t(c)] / sum);
    for (int64_t c = cols; c < stride; ++c)
      for (size_t b = 0; b < 4; ++b)
        paddingWritten += yBytes[size_t(r * stride + c) * 4 + b] != 0xFF;
  }
  stats.print(tolerance);
  if (paddingWritten)
    std::printf("  %zu bytes of the row padding (columns %lld..%lld) were "
                "overwritten\n",
                paddingWritten, (long long)cols, (long long)stride - 1);
  return stats.passes(tolerance) && paddingWritten == 0;
}

// out = softmax(x) @ v for batch 2, d1 100, d2 300, d3 64, contiguous.
bool testSoftmaxMatmul(std::mt19937 &rng, tile_dtype dtype,
                       double tolerance) {
  const int64_t batch = 2, d1 = 100, d2 = 300, d3 = 64;
  const int64_t xStrides[3] = {d1 * d2, d2, 1};
  const int64_t vStrides[3] = {d2 * d3, d3, 1};
  const int64_t outStrides[3] = {d1 * d3, d3, 1};

  std::vector<double> x = randomValues(rng, size_t(batch * d1 * d2), -4, 4);
  std::vector<double> v = randomValues(rng, size_t(batch * d2 * d3), -1, 1);
  std::vector<unsigned char> xBytes = encode(x, dtype);
  std::vector<unsigned char> vBytes = encode(v, dtype);
  const size_t outBytes = size_t(batch * d1 * d3) * elementSize(dtype);

  DeviceBuffer dx, dv, dout;
  CHECK(dx.allocate(xBytes.size()));
  CHECK(dv.allocate(vBytes.size()));
  CHECK(dout.allocate(outBytes));
  CHECK(tile_memcpy_htod(dx.ptr(), xBytes.data(), xBytes.size()));
  CHECK(tile_memcpy_htod(dv.ptr(), vBytes.data(), vBytes.size()));
  CHECK(tile_memset_d8(dout.ptr(), 0xFF, outBytes));
  CHECK(tile_softmax_matmul(dout.ptr(), outStrides, dx.ptr(), xStrides,
                            dv.ptr(), vStrides, dtype, batch, d1, d2, d3,
                            TILE_PRECISION_IEEE, /*stream=*/nullptr));
  CHECK(tile_synchronize());
  std::vector<unsigned char> out(outBytes);
  CHECK(tile_memcpy_dtoh(out.data(), dout.ptr(), outBytes));

  ErrorStats stats;
  std::vector<double> p(static_cast<size_t>(d2)), ref(static_cast<size_t>(d3));
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t i = 0; i < d1; ++i) {
      const double *row = &x[size_t(b * xStrides[0] + i * xStrides[1])];
      double rowMax = *std::max_element(row, row + d2);
      double sum = 0;
      for (int64_t j = 0; j < d2; ++j)
        sum += p[size_t(j)] = std::exp(row[j] - rowMax);
      std::fill(ref.begin(), ref.end(), 0.0);
      for (int64_t j = 0; j < d2; ++j)
        for (int64_t k = 0; k < d3; ++k)
          ref[size_t(k)] +=
              p[size_t(j)] * v[size_t(b * vStrides[0] + j * vStrides[1] + k)];
      for (int64_t k = 0; k < d3; ++k)
        stats.add(decode(out, size_t(b * outStrides[0] + i * outStrides[1] + k),
                         dtype),
                  ref[size_t(k)] / sum);
    }
  }
  stats.print(tolerance);
  return stats.passes(tolerance);
}

// An error return: a null output pointer is rejected before any launch.
bool testErrorReturn() {
  DeviceBuffer dx;
  CHECK(dx.allocate(16 * 16 * sizeof(float)));
  tile_status status = tile_softmax(/*y=*/0, TILE_F32, 16, dx.ptr(), TILE_F32,
                                    16, /*rows=*/16, /*cols=*/16, nullptr);
  const char *message = tile_last_error();
  std::printf("  tile_softmax(y = null) returned %s: \"%s\"\n",
              tile_status_name(status), message ? message : "(null)");
  return status == TILE_ERROR_INVALID_ARGUMENT && message && *message;
}

} // namespace

int main(int argc, char **argv) {
  bool requireGpu = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--require-gpu") == 0) {
      requireGpu = true;
    } else {
      std::fprintf(stderr,
                   "usage: %s [--require-gpu]\n"
                   "  Runs the Tile runtime's library operations and checks "
                   "them.\n"
                   "  Without a GPU it skips (exit 0), or fails with "
                   "--require-gpu.\n",
                   argv[0]);
      return std::strcmp(argv[i], "--help") == 0 ? 0 : 2;
    }
  }

  tile_status status = tile_init(0);
  if (status != TILE_SUCCESS) {
    std::printf("tile_init: %s: %s\n", tile_status_name(status),
                tile_last_error());
    if (requireGpu) {
      std::printf("no GPU: FAIL (--require-gpu)\n");
      return 1;
    }
    std::printf("no GPU: skipping\n");
    return 0;
  }

  // The C++ wrapper (tile_runtime.hpp) works the same way.
  tile::DeviceInfo info;
  tile::Status infoStatus = tile::deviceInfo(info);
  if (infoStatus.ok()) {
    std::printf("device: %s (sm_%d%d, %d SMs)\n", info.name.c_str(),
                info.major, info.minor, info.numSms);
  } else {
    ++failedCalls;
    std::printf("tile::deviceInfo failed: %s\n",
                infoStatus.toString().c_str());
  }

  std::mt19937 rng(20260101u);
  int passed = 0, failed = 0;
  // An operation passes when its check does and none of its runtime calls
  // failed (frees included).
  int failedBefore = failedCalls;
  auto report = [&](const char *name, bool ok) {
    ok = ok && failedCalls == failedBefore;
    failedBefore = failedCalls;
    std::printf("%s: %s\n", ok ? "PASS" : "FAIL", name);
    std::fflush(stdout);
    (ok ? passed : failed)++;
  };

  std::printf("tile_softmax f32 1000x3000, row stride 3008\n");
  report("tile_softmax f32", testSoftmax(rng));
  for (tile_dtype dtype : {TILE_F32, TILE_F16}) {
    double tolerance = dtype == TILE_F32 ? 1e-5 : 1e-2;
    std::printf("tile_softmax_matmul %s batch 2, d1 100, d2 300, d3 64%s\n",
                dtypeName(dtype), dtype == TILE_F32 ? " (IEEE)" : "");
    std::string name = std::string("tile_softmax_matmul ") + dtypeName(dtype);
    report(name.c_str(), testSoftmaxMatmul(rng, dtype, tolerance));
  }
  std::printf("error return\n");
  report("tile_softmax error return", testErrorReturn());

  std::printf("%d of %d operations passed", passed, passed + failed);
  if (failedCalls)
    std::printf(", %d runtime calls failed", failedCalls);
  std::printf("\n");
  return failed == 0 && failedCalls == 0 ? 0 : 1;
}
