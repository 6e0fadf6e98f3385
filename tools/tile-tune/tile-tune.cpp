//===- tile-tune.cpp - Measure the library kernels, write a tuning table --===//
//
// For each problem shape, every embedded kernel that admits it on this GPU
// is checked against a float64 reference (sampled rows, poisoned output)
// and timed as the benchmarks time (median of at least --iters calls
// filling --min-time-ms, each between its own events after a write of
// 256 MiB that flushes L2); the table ranks the fastest --ranked
// kernels, then the fastest kernels without the conditions those need (TMA,
// a resident grid, sm_90a, sm_90, aligned rows; see rank()). A kernel that
// computes a wrong result stops the run: nothing is written.
//
//   tile-tune -o runtime/tuning/nvidia-h200.json [--op softmax]
//             [--dtypes f32,f16] [--cols 1024,4096] [--commit <sha>]
//
// An existing table of the same device at -o keeps its entries of the
// operations and dtypes not tuned now.
//
//===----------------------------------------------------------------------===//

#include "Dispatch.h"
#include "EmbeddedKernels.h"
#include "Internal.h"
#include "Library.h"
#include "tile/Catalogue/TuningFile.h"
#include "tile/Reference/Float16.h"
#include "tile/Reference/Reference.h"
#include "tile_runtime.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <ctime>
#include <random>

using namespace tile::catalogue;
using tile::dispatch::DeviceInfo;
using tile::embedded::kKernels;
using tile::embedded::kNumKernels;
namespace cl = llvm::cl;
namespace ref = mlir::tile::reference;

static cl::opt<std::string> outputFile("o", cl::desc("Output JSON file"),
                                       cl::Required);
static cl::opt<std::string> op("op", cl::desc("softmax, softmax_matmul or all"),
                               cl::init("all"));
static cl::list<std::string> dtypes("dtypes", cl::desc("f32,f16,bf16"),
                                    cl::CommaSeparated);
static cl::list<std::string>
    alignments("alignments",
               cl::desc("softmax row classes: whole16,rows16,element"),
               cl::CommaSeparated);
static cl::list<int64_t> colsList("cols", cl::desc("softmax row lengths"),
                                  cl::CommaSeparated);
static cl::opt<int64_t> rowsOpt("rows", cl::desc("softmax rows"),
                                cl::init(4096));
static cl::list<std::string>
    matmulShapes("shapes",
                 cl::desc("softmax-matmul shapes, batch x d1 x d2 x d3"),
                 cl::CommaSeparated);
static cl::opt<int> ranked("ranked", cl::desc("fastest kernels kept"),
                           cl::init(1));
static cl::opt<int> iters("iters", cl::desc("timed calls per kernel, at least"),
                          cl::init(10));
static cl::opt<double>
    minTimeMs("min-time-ms",
              cl::desc("timed calls per kernel take at least this long "
                       "(up to 500 calls): short kernels need many"),
              cl::init(50));
static cl::opt<std::string>
    commit("commit", cl::desc("the library's commit, recorded"), cl::init(""));

namespace {
[[noreturn]] void fatal(const llvm::Twine &message) {
  llvm::errs() << "tile-tune: " << message << "\n";
  std::exit(1);
}

void check(tile_status s, const char *what) {
  if (s != TILE_SUCCESS)
    fatal(llvm::Twine(what) + ": " + tile_last_error());
}

int64_t bytesOf(DType t) { return t == DType::F32 ? 4 : 2; }

constexpr size_t kFlushBytes = size_t(256) << 20;

/// Device memory freed on scope exit.
struct Buffer {
  uint64_t ptr = 0;
  explicit Buffer(size_t bytes) { check(tile_malloc(&ptr, bytes), "malloc"); }
  ~Buffer() { tile_free(ptr); }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
};

/// Host values rounded to `t`, and their bits.
struct HostData {
  std::vector<double> values;
  std::vector<char> bits;
};

HostData randomData(DType t, size_t n, double scale, std::mt19937_64 &rng) {
  std::normal_distribution<float> dist(0.0f, 1.0f);
  HostData d;
  d.values.resize(n);
  d.bits.resize(n * bytesOf(t));
  for (size_t i = 0; i < n; ++i) {
    float f = (float)(dist(rng) * scale);
    if (t == DType::F32) {
      std::memcpy(&d.bits[i * 4], &f, 4);
      d.values[i] = f;
    } else {
      uint16_t h = t == DType::F16 ? ref::floatToHalf(f) : ref::floatToBF16(f);
      std::memcpy(&d.bits[i * 2], &h, 2);
      d.values[i] = t == DType::F16 ? ref::halfToFloat(h) : ref::bf16ToFloat(h);
    }
  }
  return d;
}

double toDouble(DType t, const char *p) {
  if (t == DType::F32) {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  uint16_t h;
  std::memcpy(&h, p, 2);
  return t == DType::F16 ? ref::halfToFloat(h) : ref::bf16ToFloat(h);
}

/// Fills `bytes` of device memory by repeating `pattern`.
void fillRepeating(uint64_t dst, size_t bytes,
                   const std::vector<char> &pattern) {
  size_t chunk = std::min(bytes, pattern.size());
  check(tile_memcpy_htod(dst, pattern.data(), chunk), "memcpy");
  for (size_t done = chunk; done < bytes;) {
    size_t n = std::min(done, bytes - done);
    check(tile_memcpy_dtod(dst + done, dst, n), "memcpy");
    done += n;
  }
}

double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// L2 is flushed before each timed call, as the benchmarks do: 256 MiB
/// written (more than any GPU's L2), outside the call's events.
void flushL2(void *) {
  static uint64_t buffer = [] {
    uint64_t p = 0;
    check(tile_malloc(&p, kFlushBytes), "malloc");
    return p;
  }();
  check(tile_memset_d8(buffer, 0, kFlushBytes), "memset");
}

/// The median milliseconds of `launch(user)`: --iters calls, or as many as
/// fill --min-time-ms (at most 500), after two warm-ups, each after a flush
/// of L2.
double timeMedian(void (*launch)(void *), void *user) {
  std::vector<float> ms(5);
  check(
      tile::internal::timeEach(flushL2, launch, user, nullptr, 2, 5, ms.data()),
      "timing");
  double estimate = std::max(median(ms), 1e-4);
  int n = (int)std::clamp<double>(std::ceil(minTimeMs / estimate), iters,
                                  std::max(500, (int)iters));
  ms.assign(n, 0);
  check(
      tile::internal::timeEach(flushL2, launch, user, nullptr, 0, n, ms.data()),
      "timing");
  return median(ms);
}

/// The embedded kernel's name (for the progress lines).
const char *nameOf(const KernelDesc &k) {
  for (unsigned i = 0; i < kNumKernels; ++i)
    if (kKernels[i].desc == k)
      return kKernels[i].name;
  return "?";
}

struct Candidate {
  unsigned index;
  double ms;
};

/// Conditions a kernel may need beyond the problem's shape, from the most
/// particular to the most general: each ranked list ends, for every prefix
/// of this list, with a kernel that needs none of the prefix's conditions,
/// so that the dispatcher finds one wherever a condition fails (inputs TMA
/// cannot read, a grid too large to be resident, another GPU, rows less
/// aligned than the measured ones).
enum Condition {
  NeedsTma,
  NeedsResidentGrid,
  NeedsSm90a,
  NeedsSm90,
  NeedsWhole16Rows,
  NeedsAlignedRows,
  kNumConditions
};

bool needs(const KernelDesc &k, Condition c) {
  switch (c) {
  case NeedsTma:
    return k.op == Op::SoftmaxMatmul && k.softmaxMatmul.tma;
  case NeedsResidentGrid:
    return k.op == Op::Softmax && k.softmax.scheme == SoftmaxScheme::Grid;
  case NeedsSm90a:
    return getTarget(k) == Target::Sm90a;
  case NeedsSm90:
    return getTarget(k) != Target::Sm80;
  case NeedsWhole16Rows:
    return k.op == Op::Softmax && k.softmax.alignment == RowAlignment::Whole16;
  case NeedsAlignedRows:
    return k.op == Op::Softmax && k.softmax.alignment != RowAlignment::Element;
  case kNumConditions:
    break;
  }
  return false;
}

/// Ranks the measured kernels: the fastest `ranked`, then for each prefix
/// of the conditions above that all of these need some condition of, the
/// fastest kernel that needs none of the prefix's.
std::vector<RankedKernel> rank(std::vector<Candidate> measured) {
  std::sort(measured.begin(), measured.end(),
            [](const Candidate &a, const Candidate &b) {
              return std::make_pair(a.ms, a.index) <
                     std::make_pair(b.ms, b.index);
            });
  std::vector<RankedKernel> out;
  for (const Candidate &c : measured)
    if ((int)out.size() < ranked)
      out.push_back({kKernels[c.index].desc, c.ms});
  for (int last = 0; last < kNumConditions; ++last) {
    auto free = [&](const KernelDesc &k) {
      for (int c = 0; c <= last; ++c)
        if (needs(k, Condition(c)))
          return false;
      return true;
    };
    if (llvm::any_of(out,
                     [&](const RankedKernel &r) { return free(r.kernel); }))
      continue;
    for (const Candidate &c : measured)
      if (free(kKernels[c.index].desc)) {
        out.push_back({kKernels[c.index].desc, c.ms});
        break;
      }
  }
  return out;
}

double softmaxTolerance(DType t) {
  return t == DType::F32 ? 1e-5 : t == DType::F16 ? 2e-3 : 1e-2;
}

//===----------------------------------------------------------------------===//
// Softmax
//===----------------------------------------------------------------------===//

SoftmaxEntry tuneSoftmax(const DeviceInfo &device, DType t, RowAlignment a,
                         int64_t rows, int64_t cols, std::mt19937_64 &rng) {
  int64_t esize = bytesOf(t);
  // Rows16 rows: a row length that is not a multiple of 16 bytes, rows
  // padded to 16 bytes. Element rows: the same, one element off 16 bytes.
  int64_t stride =
      a == RowAlignment::Whole16 ? cols : (cols * esize + 15) / 16 * 16 / esize;
  int64_t offset = a == RowAlignment::Element ? esize : 0;
  size_t bytes = size_t(rows * stride * esize) + 16;
  Buffer x(bytes), y(bytes);
  HostData pattern = randomData(
      t, size_t(std::min<int64_t>(rows * stride, int64_t(1) << 22)), 2.0, rng);
  fillRepeating(x.ptr, bytes, pattern.bits);

  SoftmaxEntry entry;
  entry.dtype = t;
  entry.alignment = a;
  entry.rows = rows;
  entry.cols = cols;
  tile::dispatch::SoftmaxQuery q{t, a, rows, cols};
  // Sampled rows for the check, and their inputs.
  std::vector<int64_t> sample{0, rows / 2, rows - 1};
  std::vector<Candidate> measured;
  for (unsigned i = 0; i < kNumKernels; ++i) {
    const KernelDesc &k = kKernels[i].desc;
    if (!tile::dispatch::admits(k, q, device))
      continue;
    // Kernels holding more than four times the row waste their programs.
    const SoftmaxKernel &s = k.softmax;
    int64_t holds = s.scheme == SoftmaxScheme::Cluster
                        ? int64_t(s.block) * s.clusterSize
                    : s.scheme == SoftmaxScheme::Rows ||
                            s.scheme == SoftmaxScheme::PersistentRows
                        ? int64_t(s.block) + s.tail
                        : 0;
    if (holds > 4 * std::max<int64_t>(cols, 32))
      continue;
    // The check: poisoned output, sampled rows against float64.
    check(tile_memset_d8(y.ptr, 0xff, bytes), "memset");
    check(tile::library::launchSoftmax(i, y.ptr + offset, stride,
                                       x.ptr + offset, stride, rows, cols,
                                       nullptr),
          kKernels[i].name);
    check(tile_synchronize(), kKernels[i].name);
    for (int64_t r : sample) {
      std::vector<char> in(cols * esize), out(cols * esize);
      check(tile_memcpy_dtoh(in.data(), x.ptr + offset + r * stride * esize,
                             in.size()),
            "memcpy");
      check(tile_memcpy_dtoh(out.data(), y.ptr + offset + r * stride * esize,
                             out.size()),
            "memcpy");
      std::vector<double> xin(cols), got(cols);
      for (int64_t c = 0; c < cols; ++c) {
        xin[c] = toDouble(t, &in[c * esize]);
        got[c] = toDouble(t, &out[c * esize]);
      }
      ref::Comparison cmp = ref::compare(
          got, ref::referenceSoftmax(xin, 1, cols), softmaxTolerance(t));
      if (!cmp.passed)
        fatal(llvm::Twine(kKernels[i].name) + " is wrong at " +
              llvm::Twine(rows) + " x " + llvm::Twine(cols) + " (row " +
              llvm::Twine(r) + ", relative error " +
              llvm::formatv("{0:e3}", cmp.relError).str() + ")");
    }
    struct Call {
      unsigned index;
      uint64_t x, y;
      int64_t offset, stride, rows, cols;
    } call{i, x.ptr, y.ptr, offset, stride, rows, cols};
    auto launch = [](void *user) {
      Call &c = *static_cast<Call *>(user);
      tile::library::launchSoftmax(c.index, c.y + c.offset, c.stride,
                                   c.x + c.offset, c.stride, c.rows, c.cols,
                                   nullptr);
    };
    measured.push_back({i, timeMedian(launch, &call)});
  }
  if (measured.empty())
    fatal(llvm::Twine("no kernel admits ") + getName(t) + " " + getName(a) +
          " rows of " + llvm::Twine(cols) + " columns");
  entry.ranked = rank(measured);
  llvm::errs() << llvm::format(
      "softmax %-4s %-7s %5lld x %8lld: %2zu kernels, "
      "%-48s %.4f ms\n",
      getName(t), getName(a), (long long)rows, (long long)cols, measured.size(),
      nameOf(entry.ranked[0].kernel), entry.ranked[0].ms);
  return entry;
}

//===----------------------------------------------------------------------===//
// softmax(X) @ V
//===----------------------------------------------------------------------===//

double matmulTolerance(DType t, Precision p) {
  if (t != DType::F32)
    return 1e-2;
  return p == Precision::TF32 ? 1e-3 : 1e-5;
}

SoftmaxMatmulEntry tuneSoftmaxMatmul(const DeviceInfo &device, DType t,
                                     Precision p, int64_t batch, int64_t d1,
                                     int64_t d2, int64_t d3,
                                     std::mt19937_64 &rng) {
  int64_t esize = bytesOf(t);
  size_t xBytes = size_t(batch * d1 * d2 * esize),
         vBytes = size_t(batch * d2 * d3 * esize),
         oBytes = size_t(batch * d1 * d3 * esize);
  // Each region starts 256-byte aligned.
  auto round = [](size_t b) { return (b + 255) / 256 * 256; };
  size_t copyBytes = round(xBytes) + round(vBytes) + round(oBytes);
  Buffer mem(copyBytes);
  HostData xs = randomData(
      t, size_t(std::min<int64_t>(batch * d1 * d2, int64_t(1) << 22)), 1.0,
      rng);
  HostData vs = randomData(
      t, size_t(std::min<int64_t>(batch * d2 * d3, int64_t(1) << 22)), 1.0,
      rng);
  int64_t xs3[3] = {d1 * d2, d2, 1}, vs3[3] = {d2 * d3, d3, 1},
          os3[3] = {d1 * d3, d3, 1};
  fillRepeating(mem.ptr, xBytes, xs.bits);
  fillRepeating(mem.ptr + round(xBytes), vBytes, vs.bits);
  uint64_t x0 = mem.ptr, v0 = mem.ptr + round(xBytes), o0 = v0 + round(vBytes);
  bool tma = tile::library::softmaxMatmulTmaReadable(tile_dtype(t), x0, xs3, v0,
                                                     vs3, batch);
  SoftmaxMatmulEntry entry;
  entry.dtype = t;
  entry.precision = p;
  entry.batch = batch;
  entry.d1 = d1;
  entry.d2 = d2;
  entry.d3 = d3;
  entry.tmaReadable = tma;
  tile::dispatch::SoftmaxMatmulQuery q{t, p, batch, d1, d2, d3, tma};

  // The reference for sampled rows of the last batch.
  std::vector<int64_t> sample{0, d1 / 2, d1 - 1};
  std::vector<char> vHost(size_t(d2 * d3 * esize));
  check(tile_memcpy_dtoh(vHost.data(), v0 + (batch - 1) * d2 * d3 * esize,
                         vHost.size()),
        "memcpy");
  std::vector<double> vValues(d2 * d3);
  for (int64_t i = 0; i < d2 * d3; ++i)
    vValues[i] = toDouble(t, &vHost[i * esize]);
  std::vector<std::vector<double>> expected;
  for (int64_t r : sample) {
    std::vector<char> row(d2 * esize);
    check(tile_memcpy_dtoh(row.data(), x0 + ((batch - 1) * d1 + r) * d2 * esize,
                           row.size()),
          "memcpy");
    std::vector<double> xr(d2);
    for (int64_t c = 0; c < d2; ++c)
      xr[c] = toDouble(t, &row[c * esize]);
    expected.push_back(ref::referenceSoftmaxMatmul(xr, vValues, 1, 1, d2, d3));
  }

  std::vector<Candidate> measured;
  for (unsigned i = 0; i < kNumKernels; ++i) {
    if (!tile::dispatch::admits(kKernels[i].desc, q, device))
      continue;
    check(tile_memset_d8(o0, 0xff, oBytes), "memset");
    check(tile::library::launchSoftmaxMatmul(i, o0, os3, x0, xs3, v0, vs3,
                                             batch, d1, d2, d3, nullptr),
          kKernels[i].name);
    check(tile_synchronize(), kKernels[i].name);
    for (auto [s, r] : llvm::enumerate(sample)) {
      std::vector<char> row(d3 * esize);
      check(tile_memcpy_dtoh(row.data(),
                             o0 + ((batch - 1) * d1 + r) * d3 * esize,
                             row.size()),
            "memcpy");
      std::vector<double> got(d3);
      for (int64_t c = 0; c < d3; ++c)
        got[c] = toDouble(t, &row[c * esize]);
      ref::Comparison cmp =
          ref::compare(got, expected[s], matmulTolerance(t, p));
      if (!cmp.passed)
        fatal(llvm::Twine(kKernels[i].name) +
              " is wrong at d2 = " + llvm::Twine(d2) + " (row " +
              llvm::Twine(r) + ", relative error " +
              llvm::formatv("{0:e3}", cmp.relError).str() + ")");
    }
    struct Call {
      unsigned index;
      uint64_t x, v, o;
      const int64_t *xs, *vs, *os;
      int64_t batch, d1, d2, d3;
    } call{i, x0, v0, o0, xs3, vs3, os3, batch, d1, d2, d3};
    auto launch = [](void *user) {
      Call &c = *static_cast<Call *>(user);
      tile::library::launchSoftmaxMatmul(c.index, c.o, c.os, c.x, c.xs, c.v,
                                         c.vs, c.batch, c.d1, c.d2, c.d3,
                                         nullptr);
    };
    measured.push_back({i, timeMedian(launch, &call)});
  }
  if (measured.empty())
    fatal(llvm::Twine("no kernel admits ") + getName(t) + " " + getName(p) +
          " at d2 = " + llvm::Twine(d2));
  entry.ranked = rank(measured);
  llvm::errs() << llvm::format(
      "softmax_matmul %-4s %-6s %2lld x %5lld x %5lld x %4lld: %2zu kernels, "
      "%-48s %.4f ms\n",
      getName(t), getName(p), (long long)batch, (long long)d1, (long long)d2,
      (long long)d3, measured.size(), nameOf(entry.ranked[0].kernel),
      entry.ranked[0].ms);
  return entry;
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "Tile's kernel tuner\n");
  if (op != "softmax" && op != "softmax_matmul" && op != "all")
    fatal("--op must be softmax, softmax_matmul or all");
  std::vector<DType> types;
  for (const std::string &d :
       dtypes.empty()
           ? std::vector<std::string>{"f32", "f16", "bf16"}
           : std::vector<std::string>(dtypes.begin(), dtypes.end())) {
    if (d == "f32")
      types.push_back(DType::F32);
    else if (d == "f16")
      types.push_back(DType::F16);
    else if (d == "bf16")
      types.push_back(DType::BF16);
    else
      fatal("unknown dtype '" + d + "'");
  }
  std::vector<RowAlignment> classes;
  for (const std::string &a :
       alignments.empty()
           ? std::vector<std::string>{"whole16", "rows16", "element"}
           : std::vector<std::string>(alignments.begin(), alignments.end())) {
    if (a == "whole16")
      classes.push_back(RowAlignment::Whole16);
    else if (a == "rows16")
      classes.push_back(RowAlignment::Rows16);
    else if (a == "element")
      classes.push_back(RowAlignment::Element);
    else
      fatal("unknown alignment class '" + a + "'");
  }
  if (iters < 1 || ranked < 1 || ranked > kMaxRanked - kNumConditions ||
      rowsOpt < 1)
    fatal("--iters, --rows must be positive and --ranked 1 to " +
          llvm::Twine(kMaxRanked - kNumConditions));

  std::vector<std::array<int64_t, 4>> shapes;
  for (const std::string &s : matmulShapes) {
    llvm::SmallVector<llvm::StringRef, 4> parts;
    llvm::StringRef(s).split(parts, 'x');
    std::array<int64_t, 4> v;
    bool bad = parts.size() != 4;
    for (int i = 0; i < 4 && !bad; ++i)
      bad = parts[i].getAsInteger(10, v[i]) || v[i] < 1;
    if (bad)
      fatal("--shapes takes batch x d1 x d2 x d3, e.g. 16x2048x512x512");
    shapes.push_back(v);
  }

  check(tile_init(0), "tile_init");
  DeviceInfo device;
  check(tile::library::getDeviceInfo(device), "device");
  TuningFile file;
  file.deviceName = device.name;
  file.ccMajor = device.ccMajor;
  file.ccMinor = device.ccMinor;
  file.sms = device.sms;
  file.commit = commit;
  {
    std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof(date), "%Y-%m-%d", std::gmtime(&now));
    file.date = date;
  }
  // An existing table of this device at -o keeps its entries of the
  // operations and dtypes not tuned now.
  if (llvm::sys::fs::exists(outputFile)) {
    llvm::Expected<TuningFile> old = readTuningFile(outputFile);
    if (!old)
      fatal(llvm::toString(old.takeError()));
    if (old->deviceName == file.deviceName && old->sms == file.sms) {
      auto tunedNow = [&](DType t, bool softmax) {
        return llvm::is_contained(types, t) &&
               (op == "all" || (op == "softmax") == softmax);
      };
      for (const SoftmaxEntry &e : old->softmax)
        if (!tunedNow(e.dtype, true))
          file.softmax.push_back(e);
      for (const SoftmaxMatmulEntry &e : old->softmaxMatmul)
        if (!tunedNow(e.dtype, false))
          file.softmaxMatmul.push_back(e);
    }
  }
  std::mt19937_64 rng(20261126);

  if (op != "softmax_matmul") {
    // Default: the powers of two and the 1.5 x 2^k between them, and the
    // widths of the Triton tutorial's sweep that lie between those.
    std::vector<int64_t> cols(colsList.begin(), colsList.end());
    if (cols.empty()) {
      for (int64_t p = 32; p <= (int64_t(1) << 20); p *= 2) {
        cols.push_back(p);
        if (p >= 256 && p < (int64_t(1) << 20))
          cols.push_back(p + p / 2);
      }
      for (int64_t c : {3000, 5000, 10000, 12672, 20000})
        cols.push_back(c);
      std::sort(cols.begin(), cols.end());
    }
    for (DType t : types)
      for (RowAlignment a : classes)
        for (int64_t c : cols) {
          // The other classes at a row length just below (not a multiple
          // of 16 bytes), up to 32768 columns: longer rows need 16-byte
          // rows for anything but the online kernel.
          int64_t n = c;
          if (a != RowAlignment::Whole16) {
            if (c > 32768 || c < 64)
              continue;
            n = c - 1;
          }
          int64_t rows = rowsOpt;
          file.softmax.push_back(tuneSoftmax(device, t, a, rows, n, rng));
        }
  }
  if (op != "softmax") {
    // Default: the fused softmax-matmul assignment's shapes (batch 16, d1
    // 2048, d3 512, d2 from 64 to 8192), and fewer rows and columns.
    if (shapes.empty()) {
      for (int64_t d2 = 64; d2 <= 8192; d2 *= 2)
        shapes.push_back({16, 2048, d2, 512});
      for (int64_t d2 : {64, 512, 4096}) {
        shapes.push_back({16, 256, d2, 512});
        shapes.push_back({16, 2048, d2, 64});
      }
    }
    struct TypeAndPrecision {
      DType t;
      Precision p;
    };
    for (DType t : types)
      for (Precision p :
           t == DType::F32
               ? std::vector<Precision>{Precision::IEEE, Precision::TF32,
                                        Precision::TF32x3}
               : std::vector<Precision>{Precision::IEEE})
        for (const auto &s : shapes)
          file.softmaxMatmul.push_back(
              tuneSoftmaxMatmul(device, t, p, s[0], s[1], s[2], s[3], rng));
  }

  std::error_code ec;
  llvm::raw_fd_ostream os(outputFile, ec);
  if (ec)
    fatal(outputFile + ": " + ec.message());
  os << llvm::formatv("{0:2}", toJSON(file)) << "\n";
  return 0;
}
