//===- softmax_matmul_bench.cpp - Benchmark of softmax(X) @ V -------------===//
//
// The fused softmax-matmul assignment's benchmark (batch 16, d1 2048, d3 512,
// d2 from 64 to 8192, 10 warm-ups, 100 passes each timed with CUDA events) of
// this project's fused library operation tile_softmax_matmul, with the
// assignment's CSV columns:
//
//   batch_size,d1,d2,d3,triton,BLOCK,forward_ms_mean,forward_ms_std,
//   forward_peak_MiB
//
// `triton` is True: the row is this project's fused kernel (the assignment's
// "Triton" side). tile_softmax_matmul takes no block size: a BLOCK row forces
// the library variant with block_m = block_k = BLOCK; <NA> rows use the
// dispatcher's choice (--blocks=none),
// its dispatcher picks its own tiles. Failed configurations (out of memory,
// unsupported, any other error) get <NA> values and the run goes on.
//
// Per d2:
//   1. X [batch,d1,d2] and V [batch,d2,d3] get random N(0,1) values (rounded
//      to --dtype), the output is poisoned (all bits set: NaN), one pass
//      runs, and its output is checked: every element finite, and the rows
//      of a subset of (batch, row) pairs against a float64 CPU reference of
//      softmax(X) @ V (normwise: max|got - ref| / max|ref| <= tolerance).
//      A wrong result is reported loudly and makes the exit status 1.
//   2. Everything is freed; then, with the free device memory measured
//      first, the buffers are allocated again, filled and poisoned, and
//      tile_time runs 10 warm-ups and 100 passes, each pass between its own
//      pair of CUDA events. forward_ms_mean / forward_ms_std are the mean
//      and the sample standard deviation of those 100 times.
//      forward_peak_MiB = (free before allocating - least free memory seen
//      after allocating, after the warm-ups and after the passes) / 2^20:
//      it includes the inputs and the output (as torch's
//      max_memory_allocated does for the assignment's PyTorch rows) and
//      anything the library would allocate; step 1 has already loaded the
//      kernel's module, so module code is not counted.
//
// The CSV goes to outputs/softmax_matmul_benchmark.csv (relative to the
// current directory; --out=PATH), and notes describing the run (device,
// date, command, definitions, check results, failures) next to it in
// <csv without .csv>.notes.md. The table is also printed.
//
// Exit status: 0; 1 if a result was wrong or no configuration could be
// measured; 2 for bad usage or no usable device.
//
//===----------------------------------------------------------------------===//

#include "tile_runtime.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

size_t elementSize(tile_dtype dtype) { return dtype == TILE_F32 ? 4 : 2; }

const char *dtypeName(tile_dtype dtype) {
  switch (dtype) {
  case TILE_F32:
    return "f32";
  case TILE_F16:
    return "f16";
  case TILE_BF16:
    return "bf16";
  }
  return "?";
}

const char *precisionName(tile_precision precision) {
  switch (precision) {
  case TILE_PRECISION_IEEE:
    return "ieee";
  case TILE_PRECISION_TF32:
    return "tf32";
  case TILE_PRECISION_TF32X3:
    return "tf32x3";
  }
  return "?";
}

uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

float bitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// IEEE binary16, round to nearest even.
uint16_t toHalf(float f) {
  uint32_t x = floatBits(f);
  uint16_t sign = uint16_t((x >> 16) & 0x8000u);
  uint32_t exp = (x >> 23) & 0xFFu;
  uint32_t mant = x & 0x7FFFFFu;
  if (exp == 0xFF) // inf or NaN
    return uint16_t(sign | 0x7C00u | (mant ? 0x200u : 0u));
  int e = int(exp) - 127 + 15;
  if (e >= 0x1F)
    return uint16_t(sign | 0x7C00u); // overflow
  if (e <= 0) {
    if (e < -10)
      return sign; // underflows to zero
    mant |= 0x800000u;
    int shift = 14 - e;
    uint32_t half = mant >> shift;
    uint32_t rest = mant & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rest > mid || (rest == mid && (half & 1u)))
      ++half;
    return uint16_t(sign | half);
  }
  uint32_t half = (uint32_t(e) << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
    ++half; // may carry into the exponent, up to infinity: correct
  return uint16_t(sign | half);
}

float fromHalf(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1Fu;
  uint32_t mant = h & 0x3FFu;
  if (exp == 0x1F)
    return bitsFloat(sign | 0x7F800000u | (mant << 13));
  if (exp == 0) {
    if (mant == 0)
      return bitsFloat(sign);
    float v = std::ldexp(float(mant), -24);
    return sign ? -v : v;
  }
  return bitsFloat(sign | ((exp + 112) << 23) | (mant << 13));
}

/// bfloat16, round to nearest even.
uint16_t toBf16(float f) {
  uint32_t x = floatBits(f);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u)
    return uint16_t((x >> 16) | 0x40u); // quiet NaN
  x += 0x7FFFu + ((x >> 16) & 1u);
  return uint16_t(x >> 16);
}

float fromBf16(uint16_t b) { return bitsFloat(uint32_t(b) << 16); }

/// A host array of `dtype` elements.
struct HostArray {
  tile_dtype dtype = TILE_F32;
  size_t count = 0;
  std::vector<unsigned char> bytes;

  size_t sizeBytes() const { return bytes.size(); }
  double get(size_t i) const {
    if (dtype == TILE_F32) {
      float f;
      std::memcpy(&f, bytes.data() + i * 4, 4);
      return f;
    }
    uint16_t h;
    std::memcpy(&h, bytes.data() + i * 2, 2);
    return dtype == TILE_F16 ? fromHalf(h) : fromBf16(h);
  }
  void set(size_t i, float v) {
    if (dtype == TILE_F32) {
      std::memcpy(bytes.data() + i * 4, &v, 4);
      return;
    }
    uint16_t h = dtype == TILE_F16 ? toHalf(v) : toBf16(v);
    std::memcpy(bytes.data() + i * 2, &h, 2);
  }
};

//===----------------------------------------------------------------------===//
// Random inputs: N(0,1) by Box-Muller over a counter-based generator, so the
// values depend only on (seed, index) and threads can fill chunks.
//===----------------------------------------------------------------------===//

uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

float normalAt(uint64_t seed, uint64_t i) {
  uint64_t a = splitmix64(seed ^ splitmix64(2 * i));
  uint64_t b = splitmix64(seed ^ splitmix64(2 * i + 1));
  // u1 in (0, 1], u2 in [0, 1).
  double u1 = (double((a >> 11) + 1)) * 0x1.0p-53;
  double u2 = double(b >> 11) * 0x1.0p-53;
  return float(std::sqrt(-2.0 * std::log(u1)) *
               std::cos(6.283185307179586 * u2));
}

HostArray randomArray(tile_dtype dtype, size_t count, uint64_t seed) {
  HostArray a;
  a.dtype = dtype;
  a.count = count;
  a.bytes.resize(count * elementSize(dtype));
  unsigned threads = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  size_t chunk = (count + threads - 1) / threads;
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    size_t begin = std::min(count, size_t(t) * chunk);
    size_t end = std::min(count, begin + chunk);
    pool.emplace_back([&a, begin, end, seed] {
      for (size_t i = begin; i < end; ++i)
        a.set(i, normalAt(seed, i));
    });
  }
  for (std::thread &t : pool)
    t.join();
  return a;
}

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

struct Options {
  tile_precision precision = TILE_PRECISION_TF32;
  tile_dtype dtype = TILE_F32;
  std::string out = "outputs/softmax_matmul_benchmark.csv";
  int64_t batch = 16, d1 = 2048, d3 = 512;
  std::vector<int64_t> d2s = {64, 128, 256, 512, 1024, 2048, 4096, 8192};
  /// The assignment's block sizes; 0 stands for the dispatcher's own choice.
  std::vector<int64_t> blocks = {16, 32, 64};
  int warmup = 10, passes = 100;
  int checkRows = 16;
  int device = 0;
  uint64_t seed = 0;
  double tolerance = -1; // < 0: by dtype and precision
};

void usage(FILE *to) {
  std::fprintf(
      to,
      "usage: tile-softmax-matmul-bench [options]\n"
      "  --blocks=16,32,64|none  BLOCK rows: the library variant with\n"
      "                      block_m = block_k = BLOCK (default 16,32,64);\n"
      "                      none: one row per d2 with the dispatcher's choice\n"
      "  The fused softmax-matmul assignment's softmax(X) @ V benchmark of\n"
      "  tile_softmax_matmul.\n"
      "  --precision=ieee|tf32|tf32x3  f32 products (default tf32)\n"
      "  --dtype=f32|f16|bf16          element type of X, V and the output\n"
      "                                (default f32)\n"
      "  --out=PATH                    CSV path (default\n"
      "                                outputs/softmax_matmul_benchmark.csv);\n"
      "                                notes go to PATH minus .csv + .notes.md\n"
      "  --d2=64,128,...               d2 values (default 64..8192, powers of 2)\n"
      "  --batch=N --d1=N --d3=N       shapes (default 16, 2048, 512)\n"
      "  --warmup=N --passes=N         default 10 and 100\n"
      "  --check-rows=N                rows checked against float64 (default 16)\n"
      "  --tolerance=X                 normwise relative error allowed (default\n"
      "                                1e-5 ieee/tf32x3, 1e-3 tf32, 1e-2 f16/bf16)\n"
      "  --device=N                    device ordinal (default 0)\n"
      "  --seed=N                      random seed (default 0)\n");
}

bool parseInt(const std::string &text, int64_t &out) {
  if (text.empty())
    return false;
  char *end = nullptr;
  errno = 0;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno || *end)
    return false;
  out = v;
  return true;
}

bool parseOptions(int argc, char **argv, Options &o, std::string &error) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      usage(stdout);
      std::exit(0);
    }
    size_t eq = arg.find('=');
    if (arg.rfind("--", 0) != 0 || eq == std::string::npos) {
      error = "unexpected argument '" + arg + "' (options are --name=value)";
      return false;
    }
    std::string name = arg.substr(2, eq - 2), value = arg.substr(eq + 1);
    int64_t n = 0;
    auto positive = [&](int64_t &dst) {
      if (!parseInt(value, n) || n < 1) {
        error = "--" + name + " needs a positive integer, got '" + value + "'";
        return false;
      }
      dst = n;
      return true;
    };
    if (name == "blocks") {
      o.blocks.clear();
      if (value == "none") {
        o.blocks.push_back(0);
        continue;
      }
      std::stringstream ss(value);
      std::string item;
      while (std::getline(ss, item, ',')) {
        char *end = nullptr;
        long long b = std::strtoll(item.c_str(), &end, 10);
        if (item.empty() || *end || (b != 16 && b != 32 && b != 64)) {
          error = "--blocks takes 16, 32, 64 (comma-separated) or none, got '" +
                  value + "'";
          return false;
        }
        o.blocks.push_back(b);
      }
      continue;
    }
    if (name == "precision") {
      if (value == "ieee")
        o.precision = TILE_PRECISION_IEEE;
      else if (value == "tf32")
        o.precision = TILE_PRECISION_TF32;
      else if (value == "tf32x3")
        o.precision = TILE_PRECISION_TF32X3;
      else {
        error = "--precision must be ieee, tf32 or tf32x3, got '" + value + "'";
        return false;
      }
    } else if (name == "dtype") {
      if (value == "f32")
        o.dtype = TILE_F32;
      else if (value == "f16")
        o.dtype = TILE_F16;
      else if (value == "bf16")
        o.dtype = TILE_BF16;
      else {
        error = "--dtype must be f32, f16 or bf16, got '" + value + "'";
        return false;
      }
    } else if (name == "out") {
      if (value.empty()) {
        error = "--out needs a path";
        return false;
      }
      o.out = value;
    } else if (name == "d2") {
      o.d2s.clear();
      std::stringstream ss(value);
      std::string item;
      while (std::getline(ss, item, ',')) {
        if (!parseInt(item, n) || n < 1) {
          error = "--d2 needs positive integers separated by commas, got '" +
                  value + "'";
          return false;
        }
        o.d2s.push_back(n);
      }
      if (o.d2s.empty()) {
        error = "--d2 needs at least one value";
        return false;
      }
    } else if (name == "batch") {
      if (!positive(o.batch))
        return false;
    } else if (name == "d1") {
      if (!positive(o.d1))
        return false;
    } else if (name == "d3") {
      if (!positive(o.d3))
        return false;
    } else if (name == "warmup") {
      if (!parseInt(value, n) || n < 0 || n > 1000000) {
        error = "--warmup needs an integer >= 0, got '" + value + "'";
        return false;
      }
      o.warmup = int(n);
    } else if (name == "passes") {
      if (!parseInt(value, n) || n < 2 || n > 1000000) {
        error = "--passes needs an integer >= 2, got '" + value + "'";
        return false;
      }
      o.passes = int(n);
    } else if (name == "check-rows") {
      if (!parseInt(value, n) || n < 1 || n > 1000000) {
        error = "--check-rows needs a positive integer, got '" + value + "'";
        return false;
      }
      o.checkRows = int(n);
    } else if (name == "device") {
      if (!parseInt(value, n) || n < 0 || n > 1024) {
        error = "--device needs an ordinal, got '" + value + "'";
        return false;
      }
      o.device = int(n);
    } else if (name == "seed") {
      if (!parseInt(value, n)) {
        error = "--seed needs an integer, got '" + value + "'";
        return false;
      }
      o.seed = uint64_t(n);
    } else if (name == "tolerance") {
      char *end = nullptr;
      double t = std::strtod(value.c_str(), &end);
      if (value.empty() || *end || !(t > 0)) {
        error = "--tolerance needs a positive number, got '" + value + "'";
        return false;
      }
      o.tolerance = t;
    } else {
      error = "unknown option --" + name;
      return false;
    }
  }
  return true;
}

double defaultTolerance(const Options &o) {
  if (o.dtype != TILE_F32)
    return 1e-2;
  return o.precision == TILE_PRECISION_TF32 ? 1e-3 : 1e-5;
}

//===----------------------------------------------------------------------===//
// One configuration
//===----------------------------------------------------------------------===//

struct Row {
  int64_t d2 = 0;
  int64_t block = 0; // 0: the dispatcher's choice (BLOCK <NA>)
  bool measured = false;
  double msMean = 0, msStd = 0, peakMiB = 0;
  bool checked = false, wrong = false;
  double relError = 0;
  std::string checkDetail; // e.g. "12 non-finite elements"
  std::string failure;     // why the row has <NA> values
};

struct Buffers {
  tile::DeviceBuffer x, v, out;
};

/// Allocates and fills X and V, poisons the output.
tile::Status prepare(Buffers &b, const HostArray &x, const HostArray &v,
                     size_t outBytes) {
  tile::Status s = tile::DeviceBuffer::allocate(x.sizeBytes(), b.x);
  if (s.ok())
    s = tile::DeviceBuffer::allocate(v.sizeBytes(), b.v);
  if (s.ok())
    s = tile::DeviceBuffer::allocate(outBytes, b.out);
  if (s.ok())
    s = b.x.copyFromHost(x.bytes.data(), x.sizeBytes());
  if (s.ok())
    s = b.v.copyFromHost(v.bytes.data(), v.sizeBytes());
  if (s.ok())
    s = b.out.fill(0xFF);
  if (s.ok())
    s = tile::synchronize();
  return s;
}

struct Shape {
  int64_t batch, d1, d2, d3;
};

tile_status launch(const Buffers &b, const Shape &s, tile_dtype dtype,
                   tile_precision precision) {
  const int64_t xStrides[3] = {s.d1 * s.d2, s.d2, 1};
  const int64_t vStrides[3] = {s.d2 * s.d3, s.d3, 1};
  const int64_t oStrides[3] = {s.d1 * s.d3, s.d3, 1};
  return tile_softmax_matmul(b.out.ptr(), oStrides, b.x.ptr(), xStrides,
                             b.v.ptr(), vStrides, dtype, s.batch, s.d1, s.d2,
                             s.d3, precision, nullptr);
}

/// The (batch, row) pairs checked against the reference: the corners and
/// middles, then pseudo-random ones, without repeats.
std::vector<std::pair<int64_t, int64_t>> checkedRows(const Shape &s, int count,
                                                     uint64_t seed) {
  std::vector<std::pair<int64_t, int64_t>> rows;
  auto add = [&](int64_t b, int64_t r) {
    if ((int)rows.size() >= count)
      return;
    for (auto &p : rows)
      if (p.first == b && p.second == r)
        return;
    rows.push_back({b, r});
  };
  for (int64_t b : {int64_t(0), s.batch - 1, s.batch / 2})
    for (int64_t r : {int64_t(0), s.d1 - 1, s.d1 / 2, int64_t(1) % s.d1})
      add(b, r);
  uint64_t state = seed ^ 0x5EEDull;
  int64_t total = s.batch * s.d1;
  for (int guard = 0; (int)rows.size() < count && guard < 16 * count; ++guard) {
    state = splitmix64(state);
    int64_t flat = int64_t(state % uint64_t(total));
    add(flat / s.d1, flat % s.d1);
  }
  return rows;
}

/// Checks `out` (downloaded): every element finite, and the checked rows
/// against a float64 reference. Returns false and fills `row` when wrong.
void checkOutput(const HostArray &out, const HostArray &x, const HostArray &v,
                 const Shape &s, const Options &o, double tolerance,
                 Row &row) {
  row.checked = true;
  size_t nonFinite = 0;
  for (size_t i = 0; i < out.count; ++i)
    if (!std::isfinite(out.get(i)))
      ++nonFinite;

  double maxDiff = 0, maxRef = 0;
  std::vector<double> p(size_t(s.d2)), ref(size_t(s.d3));
  for (auto [b, r] : checkedRows(s, o.checkRows, o.seed)) {
    size_t xRow = size_t((b * s.d1 + r) * s.d2);
    double m = -std::numeric_limits<double>::infinity();
    for (int64_t k = 0; k < s.d2; ++k)
      m = std::max(m, x.get(xRow + size_t(k)));
    double sum = 0;
    for (int64_t k = 0; k < s.d2; ++k) {
      p[size_t(k)] = std::exp(x.get(xRow + size_t(k)) - m);
      sum += p[size_t(k)];
    }
    std::fill(ref.begin(), ref.end(), 0.0);
    for (int64_t k = 0; k < s.d2; ++k) {
      double pk = p[size_t(k)] / sum;
      size_t vRow = size_t((b * s.d2 + k) * s.d3);
      for (int64_t j = 0; j < s.d3; ++j)
        ref[size_t(j)] += pk * v.get(vRow + size_t(j));
    }
    size_t oRow = size_t((b * s.d1 + r) * s.d3);
    for (int64_t j = 0; j < s.d3; ++j) {
      double got = out.get(oRow + size_t(j));
      double diff = std::fabs(got - ref[size_t(j)]);
      if (!(diff <= maxDiff)) // NaN propagates as the largest difference
        maxDiff = std::isnan(diff) ? std::numeric_limits<double>::infinity()
                                   : diff;
      maxRef = std::max(maxRef, std::fabs(ref[size_t(j)]));
    }
  }
  row.relError = maxRef > 0 ? maxDiff / maxRef : maxDiff;
  std::ostringstream detail;
  if (nonFinite)
    detail << nonFinite << " of " << out.count
           << " output elements are not finite (never written?)";
  if (!(row.relError <= tolerance)) {
    if (nonFinite)
      detail << "; ";
    detail << "relative error " << row.relError << " > tolerance "
           << tolerance;
  }
  row.wrong = nonFinite > 0 || !(row.relError <= tolerance);
  row.checkDetail = detail.str();
}

/// Free device memory now, or 0 when it cannot be read.
size_t freeMemory() {
  size_t freeBytes = 0, total = 0;
  if (tile_mem_get_info(&freeBytes, &total) != TILE_SUCCESS)
    return 0;
  return freeBytes;
}

Row runOne(const Options &o, int64_t d2, double tolerance) {
  Row row;
  row.d2 = d2;
  Shape s{o.batch, o.d1, d2, o.d3};
  const size_t es = elementSize(o.dtype);
  const size_t outCount = size_t(s.batch * s.d1 * s.d3);
  char note[256];
  std::snprintf(note, sizeof(note), "d2=%lld", (long long)d2);

  HostArray x = randomArray(o.dtype, size_t(s.batch * s.d1 * s.d2),
                            splitmix64(o.seed * 4 + 1) ^ uint64_t(d2));
  HostArray v = randomArray(o.dtype, size_t(s.batch * s.d2 * s.d3),
                            splitmix64(o.seed * 4 + 2) ^ uint64_t(d2));

  auto failed = [&](const char *stage, const tile::Status &st) {
    row.failure = std::string(stage) + ": " + st.toString();
    std::fprintf(stderr, "  %s: %s failed: %s\n", note, stage,
                 st.toString().c_str());
    return row;
  };

  // 1. One pass on a poisoned output, checked.
  {
    Buffers b;
    tile::Status st = prepare(b, x, v, outCount * es);
    if (!st.ok())
      return failed("allocation/upload", st);
    st = tile::check(launch(b, s, o.dtype, o.precision));
    if (st.ok())
      st = tile::synchronize();
    if (!st.ok())
      return failed("tile_softmax_matmul", st);
    HostArray out;
    out.dtype = o.dtype;
    out.count = outCount;
    out.bytes.resize(outCount * es);
    if (!(st = b.out.copyToHost(out.bytes.data(), out.bytes.size())).ok())
      return failed("download", st);
    checkOutput(out, x, v, s, o, tolerance, row);
    if (row.wrong)
      std::fprintf(stderr,
                   "  %s: *** WRONG RESULT *** %s (%d rows checked against "
                   "float64)\n",
                   note, row.checkDetail.c_str(), o.checkRows);
  }

  // 2. Timed passes, with the device memory measured around them.
  size_t freeBefore = freeMemory();
  Buffers b;
  tile::Status st = prepare(b, x, v, outCount * es);
  if (!st.ok())
    return failed("allocation/upload (timed run)", st);
  size_t leastFree = freeMemory();
  std::vector<float> ms;
  st = tile::time(
      [&] { (void)launch(b, s, o.dtype, o.precision); }, nullptr, o.warmup,
      o.passes, ms);
  if (st.ok())
    st = tile::synchronize();
  if (!st.ok())
    return failed("timed passes", st);
  leastFree = std::min(leastFree, freeMemory());

  double sum = 0;
  for (float t : ms)
    sum += t;
  double mean = sum / double(ms.size());
  double sq = 0;
  for (float t : ms)
    sq += (t - mean) * (t - mean);
  row.measured = true;
  row.msMean = mean;
  row.msStd = std::sqrt(sq / double(ms.size() - 1));
  if (freeBefore > 0 && leastFree > 0 && freeBefore >= leastFree)
    row.peakMiB = double(freeBefore - leastFree) / double(1 << 20);
  else
    row.peakMiB = std::numeric_limits<double>::quiet_NaN();
  return row;
}

//===----------------------------------------------------------------------===//
// Output
//===----------------------------------------------------------------------===//

std::string fmt(double v, const char *format = "%.6f") {
  if (!std::isfinite(v))
    return "<NA>";
  char buf[64];
  std::snprintf(buf, sizeof(buf), format, v);
  return buf;
}

std::string nowUtc() {
  std::time_t t = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&t));
  return buf;
}

/// `text` on one line of a markdown table cell.
std::string cell(std::string text) {
  for (char &c : text)
    if (c == '\n' || c == '\r')
      c = ' ';
    else if (c == '|')
      c = '/';
  return text;
}

std::string notesPath(const std::string &csv) {
  std::string base = csv;
  if (base.size() >= 4 && base.compare(base.size() - 4, 4, ".csv") == 0)
    base.resize(base.size() - 4);
  return base + ".notes.md";
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  std::string error;
  if (!parseOptions(argc, argv, o, error)) {
    std::fprintf(stderr,
                 "tile-softmax-matmul-bench: %s (--help lists the options)\n",
                 error.c_str());
    return 2;
  }
  const double tolerance = o.tolerance > 0 ? o.tolerance : defaultTolerance(o);
  std::string command;
  for (int i = 0; i < argc; ++i)
    command += (i ? " " : "") + std::string(argv[i]);

  tile::Status st = tile::init(o.device);
  if (!st.ok()) {
    std::fprintf(stderr, "tile-softmax-matmul-bench: tile_init: %s\n",
                 st.toString().c_str());
    return 2;
  }
  tile::DeviceInfo info;
  if (!(st = tile::deviceInfo(info)).ok()) {
    std::fprintf(stderr, "tile-softmax-matmul-bench: %s\n",
                 st.toString().c_str());
    return 2;
  }
  size_t freeBytes = 0, totalBytes = 0;
  (void)tile_mem_get_info(&freeBytes, &totalBytes);
  const std::string date = nowUtc();
  std::printf("device: %s (sm_%d%d, %d SMs, %.1f GiB, %.1f GiB free)\n",
              info.name.c_str(), info.major, info.minor, info.numSms,
              double(totalBytes) / double(1ull << 30),
              double(freeBytes) / double(1ull << 30));
  std::printf("tile_softmax_matmul: dtype %s, precision %s, batch %lld, d1 "
              "%lld, d3 %lld; %d warm-ups, %d timed passes; tolerance %g\n",
              dtypeName(o.dtype), precisionName(o.precision),
              (long long)o.batch, (long long)o.d1, (long long)o.d3, o.warmup,
              o.passes, tolerance);
  std::fflush(stdout);

  std::vector<Row> rows;
  // A user's own TILE_SOFTMAX_MATMUL_VARIANT applies to the <NA> rows.
  const char *userVariant = std::getenv("TILE_SOFTMAX_MATMUL_VARIANT");
  std::string userChoice = userVariant ? userVariant : "";
  for (int64_t d2 : o.d2s) {
    // The assignment's BLOCK = BLOCK_1 = BLOCK_2: the library's variants with
    // block_m = block_k = BLOCK (and 64 columns of d3), forced through the
    // dispatcher's tuning override; with --blocks=none, its own choice.
    for (int64_t block : o.blocks) {
      std::printf("d2=%lld BLOCK=%lld ...\n", (long long)d2,
                  (long long)block);
      std::fflush(stdout);
      std::string variant;
      if (block) {
        variant = std::string("softmax_matmul_") + dtypeName(o.dtype) + "_" +
                  (o.dtype == TILE_F32 ? precisionName(o.precision) : "ieee") +
                  "_m" + std::to_string(block) + "_k" + std::to_string(block) +
                  "_n64_w4";
        setenv("TILE_SOFTMAX_MATMUL_VARIANT", variant.c_str(), 1);
      } else if (userVariant) {
        setenv("TILE_SOFTMAX_MATMUL_VARIANT", userChoice.c_str(), 1);
      } else {
        unsetenv("TILE_SOFTMAX_MATMUL_VARIANT");
      }
      Row row = runOne(o, d2, tolerance);
      row.block = block;
      rows.push_back(row);
    }
  }
  // BLOCK rows set the override themselves; a user's own override
  // (--blocks=none) stays in force.

  // CSV: exactly the assignment's columns.
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path outPath(o.out);
  if (outPath.has_parent_path())
    fs::create_directories(outPath.parent_path(), ec);
  std::ofstream csv(o.out);
  if (!csv) {
    std::fprintf(stderr, "tile-softmax-matmul-bench: cannot write %s\n",
                 o.out.c_str());
    return 2;
  }
  csv << "batch_size,d1,d2,d3,triton,BLOCK,forward_ms_mean,forward_ms_std,"
         "forward_peak_MiB\n";
  for (const Row &r : rows) {
    double nan = std::numeric_limits<double>::quiet_NaN();
    csv << o.batch << ',' << o.d1 << ',' << r.d2 << ',' << o.d3 << ",True,"
        << (r.block ? std::to_string(r.block) : std::string("<NA>")) << ','
        << fmt(r.measured ? r.msMean : nan) << ','
        << fmt(r.measured ? r.msStd : nan) << ','
        << fmt(r.measured ? r.peakMiB : nan, "%.3f") << '\n';
  }
  csv.close();

  // Table.
  std::printf("\n%10s %6s %6s %6s %6s %6s %15s %14s %16s %10s  %s\n",
              "batch_size", "d1", "d2", "d3", "triton", "BLOCK",
              "forward_ms_mean", "forward_ms_std", "forward_peak_MiB",
              "rel_error", "check");
  int wrong = 0, failures = 0, measured = 0;
  for (const Row &r : rows) {
    double nan = std::numeric_limits<double>::quiet_NaN();
    std::string check = !r.checked ? "not run"
                        : r.wrong  ? "*** WRONG ***"
                                   : "ok";
    if (!r.failure.empty())
      check += " (failed: " + r.failure + ")";
    std::printf("%10lld %6lld %6lld %6lld %6s %6s %15s %14s %16s %10s  %s\n",
                (long long)o.batch, (long long)o.d1, (long long)r.d2,
                (long long)o.d3, "True",
                r.block ? std::to_string(r.block).c_str() : "<NA>",
                fmt(r.measured ? r.msMean : nan, "%.4f").c_str(),
                fmt(r.measured ? r.msStd : nan, "%.4f").c_str(),
                fmt(r.measured ? r.peakMiB : nan, "%.1f").c_str(),
                r.checked ? fmt(r.relError, "%.2e").c_str() : "<NA>",
                check.c_str());
    wrong += r.wrong;
    failures += !r.failure.empty();
    measured += r.measured;
  }

  // Notes.
  std::string notes = notesPath(o.out);
  std::ofstream md(notes);
  md << "# Notes on " << fs::path(o.out).filename().string() << "\n\n"
     << "- Device: " << info.name << " (sm_" << info.major << info.minor
     << ", " << info.numSms << " SMs, "
     << fmt(double(totalBytes) / double(1ull << 30), "%.1f") << " GiB)\n"
     << "- Date: " << date << "\n"
     << "- Command: `" << command << "`\n"
     << "- Operation: `tile_softmax_matmul` (this project's fused "
        "softmax(X) @ V), dtype " << dtypeName(o.dtype) << ", precision "
     << precisionName(o.precision)
     << (o.dtype == TILE_F32 ? "" : " (not used by f16/bf16 inputs)") << "\n"
     << "- Shapes: X [" << o.batch << ", " << o.d1 << ", d2], V [" << o.batch
     << ", d2, " << o.d3 << "], contiguous; inputs N(0,1) (seed " << o.seed
     << ")\n"
     << "- `triton` = True marks this project's fused kernel (the "
        "assignment's Triton side); there are no PyTorch rows (this tool "
        "links only the Tile runtime: bench/scripts/compare.py runs the "
        "PyTorch and Triton peers).\n"
     << "- `BLOCK`: tile_softmax_matmul takes no block size; a BLOCK row "
        "forces the library variant with block_m = block_k = BLOCK and 64 "
        "columns of d3 (TILE_SOFTMAX_MATMUL_VARIANT), <NA> is the "
        "dispatcher's own choice (--blocks=none).\n"
     << "- `forward_ms_mean`, `forward_ms_std`: mean and sample standard "
        "deviation of " << o.passes << " passes after " << o.warmup
     << " warm-ups, each pass between its own pair of CUDA events "
        "(tile_time), default stream.\n"
     << "- `forward_peak_MiB`: (free device memory before allocating - "
        "least free memory seen after allocating, after the warm-ups and "
        "after the passes) / 2^20, from cuMemGetInfo (tile_mem_get_info). It "
        "includes the inputs X and V and the output (the assignment's "
        "PyTorch measure, max_memory_allocated, includes them too) and "
        "whatever the library allocates; the kernel's module is loaded by an "
        "earlier checked pass, so its code is not counted. cuMemGetInfo sees "
        "every process on the device and rounds to the driver's allocation "
        "granularity (2 MiB pages).\n"
     << "- Check: one pass per d2 on a NaN-poisoned output; every output "
        "element must be finite, and " << o.checkRows
     << " (batch, row) pairs are compared with a float64 CPU reference of "
        "softmax(X) @ V: max|got - ref| / max|ref| <= " << tolerance << ".\n"
     << "- Failed configurations have <NA> values.\n\n"
     << "| d2 | rel_error | check | failure |\n|---|---|---|---|\n";
  for (const Row &r : rows)
    md << "| " << r.d2 << " | "
       << (r.checked ? fmt(r.relError, "%.2e") : std::string("<NA>")) << " | "
       << (!r.checked ? "not run" : r.wrong ? "WRONG: " + r.checkDetail : "ok")
       << " | " << cell(r.failure) << " |\n";
  md.close();

  std::printf("\nwrote %s and %s\n", o.out.c_str(), notes.c_str());
  if (failures)
    std::printf("%d configuration(s) failed (recorded as <NA>)\n", failures);
  if (wrong) {
    std::fprintf(stderr,
                 "\n*** %d configuration(s) gave WRONG results (see above) "
                 "***\n",
                 wrong);
    return 1;
  }
  if (measured == 0) {
    std::fprintf(stderr, "tile-softmax-matmul-bench: no configuration could "
                         "be measured\n");
    return 1;
  }
  return 0;
}
