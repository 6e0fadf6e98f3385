//===- LibraryOpsGPUTest.cpp - tile_softmax and tile_softmax_matmul -------===//
//
// The library operations on the GPU: every dtype, row lengths across the
// dispatcher's choices, odd shapes, strided and unaligned rows, large
// values and rows with one huge element, against float64 references with
// per-precision tolerances; outputs are poisoned before each run. Every
// embedded kernel of each kind is forced onto shapes it admits, whatever
// the build embeds.
//
// Which kernel the dispatcher takes for a problem is data (the tuning
// tables), so the dispatcher is tested by its rule (Dispatch.h): at every
// point of a table it takes the first ranked kernel that admits the
// point's problem, what it takes always admits the problem, and a forced
// kernel that does not admit it is refused. Kernels are told apart by
// their descriptions (EmbeddedKernels.h); names only force a kernel and
// label messages. Argument errors, and the rule on described devices, are
// checked without a GPU.
//
//===----------------------------------------------------------------------===//

#include "Dispatch.h"
#include "EmbeddedKernels.h"
#include "GPUTestUtil.h"
#include "Library.h"
#include "tile/Catalogue/Ops/Attention.h"
#include "tile/Catalogue/Ops/Softmax.h"
#include "tile/Catalogue/Ops/SoftmaxMatmul.h"
#include "tile/Reference/Float16.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <tuple>

using namespace gputest;
using namespace mlir::tile::reference;

namespace {

namespace cat = tile::catalogue;
using cat::getSoftmaxMatmulOp;
using cat::getSoftmaxOp;
using tile::dispatch::DeviceInfo;
using tile::embedded::kKernels;
using tile::embedded::kNumKernels;
using tile::embedded::kNumTables;
using tile::embedded::kTables;

size_t elemSize(tile_dtype t) { return t == TILE_F32 ? 4 : 2; }
const char *name(tile_dtype t) {
  return t == TILE_F32 ? "f32" : t == TILE_F16 ? "f16" : "bf16";
}
/// Elements in 16 bytes: the unit of aligned rows.
int64_t vectorElems(tile_dtype t) { return 16 / elemSize(t); }
int64_t roundUp(int64_t a, int64_t b) { return (a + b - 1) / b * b; }

// The catalogue's types hold the C API's values.
tile_dtype apiDtype(cat::DType t) { return tile_dtype(int(t)); }
tile_precision apiPrecision(cat::Precision p) { return tile_precision(int(p)); }

tile::dispatch::Library embeddedLibrary() {
  return {kKernels, kNumKernels, kTables, kNumTables};
}

/// The embedded kernel of this exact name, or -1.
int kernelNamed(const char *name) {
  for (unsigned i = 0; i < kNumKernels; ++i)
    if (std::strcmp(kKernels[i].name, name) == 0)
      return (int)i;
  return -1;
}

/// The value of a problem's field, by the name its operation gives it.
int64_t problemField(const cat::OpSpec &op, const cat::Problem &p,
                     const char *field) {
  int i = op.findProblemField(field);
  EXPECT_GE(i, 0) << op.getName() << " has no problem field " << field;
  return i < 0 ? 0 : p.values[i];
}

/// The softmax problem tile_softmax forms (runtime/src/ops/Softmax.cpp):
/// rows whose bases and strides are all 16-byte aligned are Rows16, Whole16
/// if a row also holds whole 16-byte vectors; other rows are Element.
cat::Problem apiSoftmaxProblem(tile_dtype t, int64_t rows, int64_t cols,
                               bool aligned) {
  cat::RowAlignment a = !aligned ? cat::RowAlignment::Element
                        : (cols * (int64_t)elemSize(t)) % 16 == 0
                            ? cat::RowAlignment::Whole16
                            : cat::RowAlignment::Rows16;
  return cat::softmaxProblem(cat::DType(t), a, rows, cols);
}

/// Whether TMA may read X and V, as tile_softmax_matmul decides
/// (runtime/src/ops/SoftmaxMatmul.cpp): contiguous rows, every row and
/// matrix starting 16-byte aligned.
bool tmaReadable(tile_dtype t, uint64_t x, const int64_t xs[3], uint64_t v,
                 const int64_t vs[3], int64_t batch) {
  int64_t es = (int64_t)elemSize(t);
  auto tmaRows = [&](uint64_t base, const int64_t *strides) {
    return base % 16 == 0 && strides[2] == 1 && (strides[1] * es) % 16 == 0 &&
           (batch == 1 || (strides[0] * es) % 16 == 0) &&
           strides[0] < (int64_t(1) << 36) && strides[1] < (int64_t(1) << 36);
  };
  return tmaRows(x, xs) && tmaRows(v, vs);
}

/// The softmax-matmul problem tile_softmax_matmul forms for tensors of
/// these strides whose bases are 16-byte aligned (device allocations are):
/// 2-byte types compute their products exactly, under IEEE.
cat::Problem apiSoftmaxMatmulProblem(tile_dtype t, tile_precision p,
                                     int64_t batch, int64_t d1, int64_t d2,
                                     int64_t d3, const int64_t xs[3],
                                     const int64_t vs[3]) {
  return cat::softmaxMatmulProblem(cat::DType(t), cat::Precision(p), batch, d1,
                                   d2, d3, tmaReadable(t, 0, xs, 0, vs, batch));
}

cat::Problem contiguousProblem(tile_dtype t, tile_precision p, int64_t batch,
                               int64_t d1, int64_t d2, int64_t d3) {
  int64_t xs[3] = {d1 * d2, d2, 1}, vs[3] = {d2 * d3, d3, 1};
  return apiSoftmaxMatmulProblem(t, p, batch, d1, d2, d3, xs, vs);
}

/// "softmax f32 whole16 rows 37 cols 1000", for messages.
std::string describe(const cat::OpSpec &op, const cat::Problem &p) {
  return std::string(op.getName()) + " " + op.describe(p);
}

int choose(const cat::OpSpec &op, const cat::Problem &p,
           const DeviceInfo &device,
           const tile::dispatch::Library &lib = embeddedLibrary()) {
  return tile::dispatch::choose(lib, device, op, p);
}

/// Whether embedded kernel `index`, of `op`, runs the problem here.
bool admits(const cat::OpSpec &op, unsigned index, const cat::Problem &p,
            const DeviceInfo &device) {
  return tile::dispatch::admits(op, kKernels[index].desc, p, device);
}

/// Sets an environment variable (a forced kernel) for its lifetime.
class ScopedEnv {
public:
  ScopedEnv(const char *variable, const char *value) : variable(variable) {
    EXPECT_EQ(setenv(variable, value, 1), 0) << variable;
  }
  ~ScopedEnv() { unsetenv(variable); }
  ScopedEnv(const ScopedEnv &) = delete;
  ScopedEnv &operator=(const ScopedEnv &) = delete;

private:
  const char *variable;
};

/// Failures of a sweep, reported together: how many, and the first few.
struct Failures {
  std::vector<std::string> first;
  size_t count = 0;
  void add(const std::string &what) {
    if (first.size() < 12)
      first.push_back(what);
    ++count;
  }
  std::string report() const {
    std::string s = std::to_string(count) + " failures:";
    for (const std::string &f : first)
      s += "\n  " + f;
    return s;
  }
};

//===----------------------------------------------------------------------===//
// The dispatch rule, as plain functions of a device (no GPU needed)
//===----------------------------------------------------------------------===//

/// Whether the dispatcher ranks point b alike with point a for a's own
/// problem: the same operation and key values (rule 2), and as near to the
/// problem as a itself (the distance ties; the earlier point in the table
/// comes first). For softmax: the same alignment, rows and cols; for
/// softmax-matmul: the same TMA readability, batch x d1, d2 and d3.
bool sameProblem(const cat::OpSpec &op, const cat::TablePoint &a,
                 const cat::TablePoint &b) {
  if (std::strcmp(a.op, b.op) != 0)
    return false;
  const std::vector<cat::Field> &fields = op.getProblemFields();
  for (size_t f = 0; f < fields.size(); ++f)
    if (fields[f].key && a.problem.values[f] != b.problem.values[f])
      return false;
  return op.distance(b.problem, a.problem) == op.distance(a.problem, a.problem);
}

/// What rule 3 takes for the problem of points[i] (of operation `op`): the
/// first kernel that admits it, ranked at points of that same problem in
/// table order; -1 if none does (the dispatcher then looks at farther
/// points and fallbacks).
int rankedChoice(const cat::OpSpec &op, const cat::TablePoint *points,
                 unsigned n, unsigned i, const DeviceInfo &device) {
  const cat::Problem &q = points[i].problem;
  for (unsigned j = 0; j < n; ++j) {
    if (!sameProblem(op, points[i], points[j]))
      continue;
    for (int16_t index : points[j].ranked) {
      if (index < 0 || (unsigned)index >= kNumKernels)
        break;
      if (admits(op, index, q, device))
        return index;
    }
  }
  return -1;
}

/// Rule 3 at every point of `table`, which `lib` holds and `device`
/// selects: the dispatcher's choice for the point's own problem admits it,
/// and is the rule's ranked choice where there is one. `ranked` counts the
/// points where a ranked kernel admits the problem.
void checkTable(const cat::TuningTable &table, const DeviceInfo &device,
                Failures &failures, unsigned &ranked,
                const tile::dispatch::Library &lib = embeddedLibrary()) {
  for (unsigned i = 0; i < table.numPoints; ++i) {
    const cat::TablePoint &point = table.points[i];
    const cat::OpSpec *op = cat::findOp(point.op);
    if (!op) {
      failures.add(std::string("a point of the unknown operation '") +
                   point.op + "'");
      continue;
    }
    const cat::Problem &q = point.problem;
    int want = rankedChoice(*op, table.points, table.numPoints, i, device);
    int got = choose(*op, q, device, lib);
    ranked += want >= 0;
    if (got < 0)
      failures.add(describe(*op, q) + ": no kernel");
    else if (!admits(*op, got, q, device))
      failures.add(describe(*op, q) + ": chose " + kKernels[got].name +
                   ", which does not admit it");
    else if (want >= 0 && got != want)
      failures.add(describe(*op, q) + ": chose " + kKernels[got].name +
                   ", but the first ranked kernel that admits it is " +
                   kKernels[want].name);
  }
}

/// Row lengths from 1 to 70000: every length to 300, then steps of about
/// 1.5% (odd and even lengths, of every 16-byte class), and each power of
/// two from 256 to 2^20 with its neighbours and its midpoint to the next.
std::vector<int64_t> sweepWidths() {
  std::vector<int64_t> w;
  for (int64_t c = 1; c <= 300; ++c)
    w.push_back(c);
  for (int64_t c = 301; c <= 70000; c += 1 + c / 64)
    w.push_back(c);
  for (int64_t p = 256; p <= (int64_t(1) << 20); p *= 2)
    for (int64_t d :
         {int64_t(-8), int64_t(-1), int64_t(0), int64_t(1), int64_t(8), p / 2})
      w.push_back(p + d);
  std::sort(w.begin(), w.end());
  w.erase(std::unique(w.begin(), w.end()), w.end());
  return w;
}

/// The (dtype, precision) pairs of softmax-matmul: f32 under each
/// precision, 2-byte types under IEEE.
std::vector<std::pair<tile_dtype, tile_precision>> matmulTypes() {
  return {{TILE_F32, TILE_PRECISION_IEEE},
          {TILE_F32, TILE_PRECISION_TF32},
          {TILE_F32, TILE_PRECISION_TF32X3},
          {TILE_F16, TILE_PRECISION_IEEE},
          {TILE_BF16, TILE_PRECISION_IEEE}};
}

/// Rule 3 and 4 for every problem of a sweep: the dispatcher finds a
/// kernel, and that kernel admits the problem; inputs TMA cannot read
/// never get a TMA kernel.
void checkSweep(const DeviceInfo &device, Failures &failures) {
  const cat::OpSpec &softmax = getSoftmaxOp();
  for (tile_dtype t : {TILE_F32, TILE_F16, TILE_BF16})
    for (int64_t cols : sweepWidths())
      for (bool aligned : {false, true})
        for (int64_t rows : {1, 37, 65536}) {
          cat::Problem q = apiSoftmaxProblem(t, rows, cols, aligned);
          int k = choose(softmax, q, device);
          if (k < 0)
            failures.add(describe(softmax, q) + ": no kernel");
          else if (!admits(softmax, k, q, device))
            failures.add(describe(softmax, q) + ": chose " + kKernels[k].name +
                         ", which does not admit it");
        }
  struct Rows {
    int64_t batch, d1;
  };
  const cat::OpSpec &matmul = getSoftmaxMatmulOp();
  for (auto [t, p] : matmulTypes())
    for (Rows r : {Rows{1, 1}, Rows{1, 64}, Rows{2, 300}, Rows{8, 4096},
                   Rows{65535, 16}})
      for (int64_t d2 :
           {1, 8, 31, 64, 65, 100, 128, 129, 256, 257, 1000, 1001, 4096, 65536})
        for (int64_t d3 : {1, 5, 8, 64, 100, 101, 130, 256, 600, 4096})
          for (bool readable : {false, true}) {
            int64_t es = elemSize(t);
            if (readable && ((d2 * es) % 16 || (d3 * es) % 16))
              continue; // TMA reads only rows of whole 16-byte vectors
            cat::Problem q =
                cat::softmaxMatmulProblem(cat::DType(t), cat::Precision(p),
                                          r.batch, r.d1, d2, d3, readable);
            int k = choose(matmul, q, device);
            if (k < 0)
              failures.add(describe(matmul, q) + ": no kernel");
            else if (!admits(matmul, k, q, device))
              failures.add(describe(matmul, q) + ": chose " + kKernels[k].name +
                           ", which does not admit it");
            else if (!readable &&
                     cat::toSoftmaxMatmulKernel(kKernels[k].desc).tma)
              failures.add(describe(matmul, q) + ": chose the TMA kernel " +
                           kKernels[k].name);
          }
}

/// Devices the dispatcher may meet, described: each table's own, and
/// devices of compute capability 8.0 and 9.0 that no table names (the
/// latter also without stream-ordered allocation, which Grid kernels need).
std::vector<DeviceInfo> describedDevices() {
  std::vector<DeviceInfo> devices{{"described sm_80 device", 8, 0, 108, true},
                                  {"described sm_90 device", 9, 0, 132, true},
                                  {"described sm_90 device", 9, 0, 132, false}};
  for (unsigned i = 0; i < kNumTables; ++i) {
    const cat::DeviceKey &key = kTables[i].device;
    devices.push_back({key.name, key.ccMajor, key.ccMinor, key.sms, true});
  }
  return devices;
}

std::string describe(const DeviceInfo &d) {
  return d.name + " (" + std::to_string(d.ccMajor) + "." +
         std::to_string(d.ccMinor) + ", " + std::to_string(d.sms) + " SMs" +
         (d.streamOrderedAllocation ? "" : ", no stream-ordered allocation") +
         ")";
}

//===----------------------------------------------------------------------===//
// Running the operations
//===----------------------------------------------------------------------===//

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

double matmulTolerance(tile_dtype t, tile_precision p) {
  return t != TILE_F32 ? 1e-2 : p == TILE_PRECISION_TF32 ? 1e-3 : 1e-5;
}

/// A softmax problem of a forced kernel: rows x cols, inputs scaled by
/// `scale`, optionally one huge element per row (checkSoftmax).
struct Shape {
  int64_t rows, cols;
  double scale = 4.0;
  int64_t hugeStride = 0;
};

struct MatmulShape {
  int64_t batch, d1, d2, d3;
};

/// TILE_REQUIRE_GPU, then the device as the dispatcher sees it in
/// `device` (the fixture's).
#define TILE_REQUIRE_DEVICE()                                                  \
  TILE_REQUIRE_GPU();                                                          \
  ASSERT_EQ(tile::library::getDeviceInfo(device), TILE_SUCCESS)                \
      << tile_last_error()

class LibraryOpsGPUTest : public ::testing::Test {
protected:
  uint64_t seed = std::random_device{}();
  std::mt19937_64 rng{seed};
  ::testing::ScopedTrace trace{__FILE__, __LINE__,
                               "random seed " + std::to_string(seed)};
  DeviceInfo device;

  bool runsHere(const cat::KernelDesc &k) const {
    return cat::runsOn(cat::getTarget(k), device.ccMajor, device.ccMinor);
  }

  /// The embedded kernels of `op` that `select` takes and that run on this
  /// device; `embedded` counts those `select` takes, wherever they run.
  template <typename Select>
  std::vector<unsigned> kernelsOf(const cat::OpSpec &op, Select select,
                                  unsigned &embedded) const {
    std::vector<unsigned> out;
    embedded = 0;
    for (unsigned i = 0; i < kNumKernels; ++i) {
      const cat::KernelDesc &k = kKernels[i].desc;
      if (!op.owns(k) || !select(k))
        continue;
      ++embedded;
      if (runsHere(k))
        out.push_back(i);
    }
    return out;
  }

  /// kernelsOf the softmax kernels that `select` takes (a SoftmaxKernel).
  template <typename Select>
  std::vector<unsigned> softmaxKernels(Select select,
                                       unsigned &embedded) const {
    return kernelsOf(
        getSoftmaxOp(),
        [&](const cat::KernelDesc &k) {
          return select(cat::toSoftmaxKernel(k));
        },
        embedded);
  }

  /// kernelsOf the softmax-matmul kernels that `select` takes (a
  /// SoftmaxMatmulKernel).
  template <typename Select>
  std::vector<unsigned> softmaxMatmulKernels(Select select,
                                             unsigned &embedded) const {
    return kernelsOf(
        getSoftmaxMatmulOp(),
        [&](const cat::KernelDesc &k) {
          return select(cat::toSoftmaxMatmulKernel(k));
        },
        embedded);
  }

  /// Why a test of every kernel of a kind has none to test.
  std::string noKernels(const char *kind, unsigned embedded) const {
    return "no " + std::string(kind) +
           " kernel runs here: " + std::to_string(embedded) +
           " embedded, for compute capability " +
           std::to_string(device.ccMajor) + "." +
           std::to_string(device.ccMinor) +
           " (the build embeds the kernels its tuning tables rank and the "
           "fallbacks; -DTILE_TUNING_KERNELS=ON embeds every configuration)";
  }

  /// The kernel tile_softmax runs for `q`: the one TILE_SOFTMAX_VARIANT
  /// names, else the dispatcher's choice; -1 if none.
  int softmaxKernelFor(const cat::Problem &q) const {
    if (const char *forced = std::getenv("TILE_SOFTMAX_VARIANT"))
      return kernelNamed(forced);
    return choose(getSoftmaxOp(), q, device);
  }

  int softmaxMatmulKernelFor(const cat::Problem &q) const {
    if (const char *forced = std::getenv("TILE_SOFTMAX_MATMUL_VARIANT"))
      return kernelNamed(forced);
    return choose(getSoftmaxMatmulOp(), q, device);
  }

  /// Runs tile_softmax on rows x cols (row strides in elements, `offset`
  /// elements into each buffer to test unaligned bases) and compares. The
  /// kernel that runs (forced or chosen) must admit the problem.
  void checkSoftmax(tile_dtype t, int64_t rows, int64_t cols, int64_t xStride,
                    int64_t yStride, int64_t offset = 0, double scale = 1.0,
                    int64_t hugeStride = 0) {
    size_t es = elemSize(t);
    cat::Problem q =
        apiSoftmaxProblem(t, rows, cols,
                          (offset * es) % 16 == 0 && (xStride * es) % 16 == 0 &&
                              (yStride * es) % 16 == 0);
    int kernel = softmaxKernelFor(q);
    ASSERT_GE(kernel, 0) << "no kernel for " << describe(getSoftmaxOp(), q);
    ASSERT_TRUE(admits(getSoftmaxOp(), kernel, q, device))
        << kKernels[kernel].name << " does not admit "
        << describe(getSoftmaxOp(), q);
    std::vector<float> host = randomFloats(rows * xStride + offset, rng, scale);
    // Optionally one element of 1e4 per row, at column r * hugeStride
    // (mod cols): a row max far above the rest.
    if (hugeStride)
      for (int64_t r = 0; r < rows; ++r)
        host[offset + r * xStride + (r * hugeStride) % cols] = 1e4f;
    HostTensor x = makeTensor(host, t);
    tile::DeviceBuffer dx, dy;
    ASSERT_OK(tile::DeviceBuffer::allocate(x.bytes.size(), dx));
    ASSERT_OK(dx.copyFromHost(x.bytes.data(), x.bytes.size()));
    size_t yBytes = (rows * yStride + offset) * es;
    ASSERT_OK(tile::DeviceBuffer::allocate(yBytes, dy));
    ASSERT_OK(dy.fill(0xFF)); // NaN in every dtype
    tile_status s =
        tile_softmax(dy.ptr() + offset * es, t, yStride, dx.ptr() + offset * es,
                     t, xStride, rows, cols, nullptr);
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
    expectClose(got, referenceSoftmax(xs, rows, cols),
                std::string("softmax ") + name(t) + " " + std::to_string(rows) +
                    "x" + std::to_string(cols) + " via " +
                    kKernels[kernel].name,
                tolerance(t));
  }

  /// Runs softmax kernel `index`, forced, on `s` laid out as its alignment
  /// class allows: Element kernels get misaligned bases and odd strides,
  /// the others 16-byte aligned rows with padding (Whole16: row lengths
  /// rounded down to whole 16-byte vectors). Returns whether the kernel
  /// admits the problem; nothing runs if not.
  bool checkForcedSoftmax(unsigned index, Shape s) {
    cat::SoftmaxKernel k = cat::toSoftmaxKernel(kKernels[index].desc);
    tile_dtype t = apiDtype(k.dtype);
    int64_t vector = vectorElems(t), cols = s.cols;
    if (cols < 1)
      return false;
    int64_t xStride = cols + 3, yStride = cols + 1, offset = 1;
    if (k.alignment != cat::RowAlignment::Element) {
      if (k.alignment == cat::RowAlignment::Whole16)
        cols = std::max(vector, cols / vector * vector);
      xStride = roundUp(cols, vector) + vector;
      yStride = roundUp(cols, vector) + 2 * vector;
      offset = 0;
    }
    if (!admits(getSoftmaxOp(), index,
                apiSoftmaxProblem(t, s.rows, cols, offset == 0), device))
      return false;
    ScopedEnv forced("TILE_SOFTMAX_VARIANT", kKernels[index].name);
    checkSoftmax(t, s.rows, cols, xStride, yStride, offset, s.scale,
                 s.hugeStride);
    return true;
  }

  /// Forces each of `kernels` onto the shapes `shapes(kernel)` lists that
  /// it admits (kernel: its SoftmaxKernel); each must admit one of them.
  template <typename Shapes>
  void checkEverySoftmaxKernel(const std::vector<unsigned> &kernels,
                               Shapes shapes) {
    for (unsigned i : kernels) {
      SCOPED_TRACE(std::string("forced ") + kKernels[i].name);
      int ran = 0;
      for (const Shape &s : shapes(cat::toSoftmaxKernel(kKernels[i].desc))) {
        ran += checkForcedSoftmax(i, s);
        if (HasFatalFailure())
          return;
      }
      EXPECT_GT(ran, 0) << kKernels[i].name
                        << " admits none of the shapes tried";
    }
  }

  /// Runs tile_softmax_matmul on random inputs (x scaled by `xScale`) of
  /// batch x d1 x d2 and batch x d2 x d3, rows padded by xPad and vPad
  /// elements, with a poisoned contiguous output, and compares with
  /// float64 at the precision's tolerance. The kernel that runs (forced or
  /// chosen) must admit the problem.
  void checkSoftmaxMatmul(tile_dtype t, tile_precision p, int64_t batch,
                          int64_t d1, int64_t d2, int64_t d3, double xScale,
                          const std::string &what, int64_t xPad = 0,
                          int64_t vPad = 0) {
    int64_t xRow = d2 + xPad, vRow = d3 + vPad;
    HostTensor x = makeTensor(randomFloats(batch * d1 * xRow, rng, xScale), t);
    HostTensor v = makeTensor(randomFloats(batch * d2 * vRow, rng), t);
    size_t outBytes = batch * d1 * d3 * elemSize(t);
    tile::DeviceBuffer dx, dv, dout;
    ASSERT_OK(tile::DeviceBuffer::allocate(x.bytes.size(), dx));
    ASSERT_OK(tile::DeviceBuffer::allocate(v.bytes.size(), dv));
    ASSERT_OK(tile::DeviceBuffer::allocate(outBytes, dout));
    ASSERT_OK(dx.copyFromHost(x.bytes.data(), x.bytes.size()));
    ASSERT_OK(dv.copyFromHost(v.bytes.data(), v.bytes.size()));
    ASSERT_OK(dout.fill(0xFF));
    int64_t xs[3] = {d1 * xRow, xRow, 1}, vs[3] = {d2 * vRow, vRow, 1},
            os[3] = {d1 * d3, d3, 1};
    cat::Problem q = cat::softmaxMatmulProblem(
        cat::DType(t), cat::Precision(p), batch, d1, d2, d3,
        tmaReadable(t, dx.ptr(), xs, dv.ptr(), vs, batch));
    int kernel = softmaxMatmulKernelFor(q);
    ASSERT_GE(kernel, 0) << what << ": no kernel for "
                         << describe(getSoftmaxMatmulOp(), q);
    ASSERT_TRUE(admits(getSoftmaxMatmulOp(), kernel, q, device))
        << what << ": " << kKernels[kernel].name << " does not admit "
        << describe(getSoftmaxMatmulOp(), q);
    tile_status s = tile_softmax_matmul(dout.ptr(), os, dx.ptr(), xs, dv.ptr(),
                                        vs, t, batch, d1, d2, d3, p, nullptr);
    ASSERT_EQ(s, TILE_SUCCESS) << what << ": " << tile_last_error();
    std::vector<uint8_t> ob(outBytes);
    ASSERT_OK(dout.copyToHost(ob.data(), outBytes));
    std::vector<double> xv, vv;
    for (int64_t i = 0; i < batch * d1; ++i)
      for (int64_t k = 0; k < d2; ++k)
        xv.push_back(x.values[i * xRow + k]);
    for (int64_t i = 0; i < batch * d2; ++i)
      for (int64_t j = 0; j < d3; ++j)
        vv.push_back(v.values[i * vRow + j]);
    expectClose(readTensor(ob, t),
                referenceSoftmaxMatmul(xv, vv, batch, d1, d2, d3),
                what + " " + std::to_string(batch) + "x" + std::to_string(d1) +
                    "x" + std::to_string(d2) + "x" + std::to_string(d3) +
                    " via " + kKernels[kernel].name,
                matmulTolerance(t, p));
  }

  /// tile_softmax on 2 rows of `cols` (16-byte aligned rows, or misaligned
  /// bases) with TILE_SOFTMAX_VARIANT=`forced`, in `status`; an output
  /// that a failing call leaves untouched.
  void forcedSoftmaxStatus(const char *forced, tile_dtype t, int64_t cols,
                           bool aligned, tile_status &status) {
    size_t es = elemSize(t);
    int64_t rows = 2, offset = aligned ? 0 : 1;
    int64_t stride = aligned ? roundUp(cols, vectorElems(t)) : cols + 1;
    size_t bytes = (rows * stride + offset) * es;
    tile::DeviceBuffer dx, dy;
    ASSERT_OK(tile::DeviceBuffer::allocate(bytes, dx));
    ASSERT_OK(tile::DeviceBuffer::allocate(bytes, dy));
    ASSERT_OK(dx.fill(0));
    ASSERT_OK(dy.fill(0xFF));
    {
      ScopedEnv env("TILE_SOFTMAX_VARIANT", forced);
      status =
          tile_softmax(dy.ptr() + offset * es, t, stride,
                       dx.ptr() + offset * es, t, stride, rows, cols, nullptr);
    }
    if (status == TILE_SUCCESS) {
      ASSERT_OK(tile::synchronize());
      return;
    }
    EXPECT_NE(std::string(tile_last_error())
                  .find("TILE_SOFTMAX_VARIANT='" + std::string(forced) + "'"),
              std::string::npos)
        << tile_last_error();
    std::vector<uint8_t> out(bytes);
    ASSERT_OK(dy.copyToHost(out.data(), bytes));
    EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](uint8_t b) {
      return b == 0xFF;
    })) << "a refused call wrote its output";
  }

  /// tile_softmax_matmul on 1 x d1 x d2 and 1 x d2 x d3 (X's rows padded by
  /// xPad elements) with TILE_SOFTMAX_MATMUL_VARIANT=`forced`, in
  /// `status`; an output that a failing call leaves untouched.
  void forcedSoftmaxMatmulStatus(const char *forced, tile_dtype t,
                                 tile_precision p, int64_t d1, int64_t d2,
                                 int64_t d3, int64_t xPad,
                                 tile_status &status) {
    size_t es = elemSize(t);
    int64_t xRow = d2 + xPad;
    tile::DeviceBuffer dx, dv, dout;
    ASSERT_OK(tile::DeviceBuffer::allocate(d1 * xRow * es, dx));
    ASSERT_OK(tile::DeviceBuffer::allocate(d2 * d3 * es, dv));
    ASSERT_OK(tile::DeviceBuffer::allocate(d1 * d3 * es, dout));
    ASSERT_OK(dx.fill(0));
    ASSERT_OK(dv.fill(0));
    ASSERT_OK(dout.fill(0xFF));
    int64_t xs[3] = {d1 * xRow, xRow, 1}, vs[3] = {d2 * d3, d3, 1},
            os[3] = {d1 * d3, d3, 1};
    {
      ScopedEnv env("TILE_SOFTMAX_MATMUL_VARIANT", forced);
      status = tile_softmax_matmul(dout.ptr(), os, dx.ptr(), xs, dv.ptr(), vs,
                                   t, 1, d1, d2, d3, p, nullptr);
    }
    if (status == TILE_SUCCESS) {
      ASSERT_OK(tile::synchronize());
      return;
    }
    EXPECT_NE(
        std::string(tile_last_error())
            .find("TILE_SOFTMAX_MATMUL_VARIANT='" + std::string(forced) + "'"),
        std::string::npos)
        << tile_last_error();
    std::vector<uint8_t> out(d1 * d3 * es);
    ASSERT_OK(dout.copyToHost(out.data(), out.size()));
    EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](uint8_t b) {
      return b == 0xFF;
    })) << "a refused call wrote its output";
  }
};

//===----------------------------------------------------------------------===//
// Softmax through the dispatcher
//===----------------------------------------------------------------------===//

TEST_F(LibraryOpsGPUTest, SoftmaxEveryPathAndDtype) {
  TILE_REQUIRE_DEVICE();
  for (tile_dtype t : {TILE_F32, TILE_F16, TILE_BF16})
    for (int64_t cols :
         {1,     17,    32,     100,    256,    781,   1024,  1025,
          3000,  4096,  10000,  16384,  16385,  20000, 30000, 32768,
          40000, 60000, 100000, 130000, 262144, 262160})
      checkSoftmax(t, 37, cols, cols, cols);
}

TEST_F(LibraryOpsGPUTest, SoftmaxTutorialShapeAndLargeMatrix) {
  TILE_REQUIRE_DEVICE();
  checkSoftmax(TILE_F32, 1823, 781, 781, 781);
  checkSoftmax(TILE_F32, 4096, 4096, 4096, 4096);
  checkSoftmax(TILE_F16, 4096, 1024, 1024, 1024);
}

TEST_F(LibraryOpsGPUTest, SoftmaxStridesAndAlignment) {
  TILE_REQUIRE_DEVICE();
  for (tile_dtype t : {TILE_F32, TILE_F16}) {
    checkSoftmax(t, 50, 1000, 1024, 1008);   // aligned strides, padding
    checkSoftmax(t, 50, 1000, 1003, 1001);   // unaligned strides
    checkSoftmax(t, 9, 300, 320, 320, 3);    // unaligned base pointers
    checkSoftmax(t, 3, 20000, 20011, 20000); // long rows, odd stride
    // Strides that are multiples of 16 bytes but not of 16 elements make
    // aligned rows.
    checkSoftmax(t, 40, 5000, 5000, 5008);
    checkSoftmax(t, 40, 3000, 3016, 3000);
  }
}

TEST_F(LibraryOpsGPUTest, SoftmaxLargeValues) {
  TILE_REQUIRE_DEVICE();
  for (tile_dtype t : {TILE_F32, TILE_BF16}) {
    checkSoftmax(t, 20, 781, 781, 781, 0, 1e4);
    checkSoftmax(t, 20, 781, 781, 781, 0, 1.0, /*hugeStride=*/7919);
    checkSoftmax(t, 4, 30000, 30000, 30000, 0, 1.0, /*hugeStride=*/7919);
  }
}

//===----------------------------------------------------------------------===//
// Every embedded softmax kernel of each kind, forced
//===----------------------------------------------------------------------===//

// Every cluster kernel on rows that fill it, rows whose last program is
// partly masked, and rows that leave whole programs of the cluster without
// columns (they contribute -inf and 0); the row max at a different column
// of each row.
TEST_F(LibraryOpsGPUTest, SoftmaxClusterEveryVariant) {
  TILE_REQUIRE_DEVICE();
  unsigned embedded = 0;
  std::vector<unsigned> kernels = softmaxKernels(
      [](const cat::SoftmaxKernel &k) {
        return k.scheme == cat::SoftmaxScheme::Cluster;
      },
      embedded);
  if (kernels.empty())
    GTEST_SKIP() << noKernels("cluster softmax", embedded);
  checkEverySoftmaxKernel(kernels, [](const cat::SoftmaxKernel &k) {
    int64_t capacity = int64_t(k.clusterSize) * k.block;
    return std::vector<Shape>{{6, capacity},
                              {6, capacity - 1008},
                              {6, k.block / 2 + 16},
                              {3, capacity - 16, 1.0, 7919}};
  });
}

// Every cluster kernel that loops over slices of its rows: slices of
// several blocks, the last one ending inside a block, rows that leave the
// last programs of the cluster without columns, a row of 16, and the row
// max in a different slice of each row.
TEST_F(LibraryOpsGPUTest, SoftmaxClusterLoopEveryVariant) {
  TILE_REQUIRE_DEVICE();
  unsigned embedded = 0;
  std::vector<unsigned> kernels = softmaxKernels(
      [](const cat::SoftmaxKernel &k) {
        return k.scheme == cat::SoftmaxScheme::ClusterLoop;
      },
      embedded);
  if (kernels.empty())
    GTEST_SKIP() << noKernels("cluster-loop softmax", embedded);
  checkEverySoftmaxKernel(kernels, [](const cat::SoftmaxKernel &k) {
    int64_t blocks = int64_t(k.clusterSize) * k.block;
    return std::vector<Shape>{{5, 3 * blocks},
                              {5, 2 * blocks - 1008},
                              {5, k.block + 16},
                              {5, 16},
                              {3, blocks + 48, 1.0, k.block + 7}};
  });
}

// Every grid kernel (rows split over programs anywhere in the grid, which
// wait for one another through a workspace): rows of several slices, the
// last one partly masked, of one slice plus 16 columns, of 16 columns;
// thousands of programs (more than the GPU keeps resident, so later rows'
// programs start as earlier rows finish); the row max in a different slice
// of each row.
TEST_F(LibraryOpsGPUTest, SoftmaxGridEveryVariant) {
  TILE_REQUIRE_DEVICE();
  unsigned embedded = 0;
  std::vector<unsigned> kernels = softmaxKernels(
      [](const cat::SoftmaxKernel &k) {
        return k.scheme == cat::SoftmaxScheme::Grid;
      },
      embedded);
  if (kernels.empty())
    GTEST_SKIP() << noKernels("grid softmax", embedded);
  if (!device.streamOrderedAllocation)
    GTEST_SKIP() << "grid kernels need stream-ordered allocation for their "
                    "workspace, which this driver lacks";
  checkEverySoftmaxKernel(kernels, [](const cat::SoftmaxKernel &k) {
    int64_t b = k.block;
    return std::vector<Shape>{
        {5, 3 * b}, {5, 2 * b - 1008},       {5, b + 16},
        {5, 16},    {1000, 2 * b + 32, 1.0}, {3, 4 * b + 48, 1.0, b + 7}};
  });
}

// Every two-tile row kernel (columns [block, block + tail) in a second
// tile) on rows that fill both tiles, rows whose second tile is nearly all
// masked, rows that leave it empty, and a row block count that is not a
// multiple of the rows per program; then the largest element in the first
// tile of row 0 and in the second tile of the others: both tiles' maxima
// enter the row's.
TEST_F(LibraryOpsGPUTest, SoftmaxTwoTileEveryVariant) {
  TILE_REQUIRE_DEVICE();
  unsigned embedded = 0;
  std::vector<unsigned> kernels = softmaxKernels(
      [](const cat::SoftmaxKernel &k) {
        return k.scheme == cat::SoftmaxScheme::Rows && k.tail > 0;
      },
      embedded);
  if (kernels.empty())
    GTEST_SKIP() << noKernels("two-tile row softmax", embedded);
  checkEverySoftmaxKernel(kernels, [](const cat::SoftmaxKernel &k) {
    int64_t capacity = int64_t(k.block) + k.tail;
    return std::vector<Shape>{{37, capacity},
                              {37, capacity - 8},
                              {37, k.block + 8},
                              {37, k.block / 2 + 8},
                              {5, capacity, 1.0, capacity - 3}};
  });
}

// Every persistent row kernel (a grid of a few programs per SM, each
// looping over row blocks, loading the next block during the current one)
// on more row blocks than programs (each program runs the loop at least
// twice), rows that fill the block or end inside it, and a row count that
// is not a multiple of the rows per program.
TEST_F(LibraryOpsGPUTest, SoftmaxPersistentEveryVariant) {
  TILE_REQUIRE_DEVICE();
  unsigned embedded = 0;
  std::vector<unsigned> kernels = softmaxKernels(
      [](const cat::SoftmaxKernel &k) {
        return k.scheme == cat::SoftmaxScheme::PersistentRows;
      },
      embedded);
  if (kernels.empty())
    GTEST_SKIP() << noKernels("persistent row softmax", embedded);
  checkEverySoftmaxKernel(kernels, [&](const cat::SoftmaxKernel &k) {
    // Twice the rows the runtime's grid covers at once (1024 threads'
    // worth of programs per SM), and some.
    int64_t rows =
        2 * int64_t(device.sms) * std::max(1, 1024 / (32 * k.warps)) * k.rows +
        37;
    int64_t capacity = int64_t(k.block) + k.tail;
    return std::vector<Shape>{
        {rows, capacity}, {rows, capacity - 3}, {rows, k.block / 2 + 1}};
  });
}

// Every one-tile row kernel that rematerializes (2-byte rows held as
// loaded, their f32 values and exponentials recomputed after each
// reduction) on full rows, rows missing their last 16-byte vector,
// half-full rows, and rows whose largest element sits at a different
// column in each row (scaled inputs: one weight dominates).
TEST_F(LibraryOpsGPUTest, SoftmaxRematerializedEveryVariant) {
  TILE_REQUIRE_DEVICE();
  unsigned embedded = 0;
  std::vector<unsigned> kernels = softmaxKernels(
      [](const cat::SoftmaxKernel &k) {
        return k.scheme == cat::SoftmaxScheme::Rows && k.rematerialize &&
               k.tail == 0;
      },
      embedded);
  if (kernels.empty())
    GTEST_SKIP() << noKernels("rematerializing row softmax", embedded);
  checkEverySoftmaxKernel(kernels, [](const cat::SoftmaxKernel &k) {
    return std::vector<Shape>{{37, k.block},
                              {37, k.block - 8},
                              {37, k.block / 2 + 8},
                              {5, k.block, 1.0, k.block - 3}};
  });
}

//===----------------------------------------------------------------------===//
// Softmax-matmul
//===----------------------------------------------------------------------===//

TEST_F(LibraryOpsGPUTest, SoftmaxMatmul) {
  TILE_REQUIRE_DEVICE();
  for (auto [t, p] : matmulTypes())
    for (MatmulShape c :
         {MatmulShape{1, 16, 16, 64}, MatmulShape{2, 50, 100, 40},
          MatmulShape{3, 17, 33, 5}, MatmulShape{2, 300, 257, 130},
          MatmulShape{1, 1, 1, 1}, MatmulShape{2, 4096, 64, 64}}) {
      checkSoftmaxMatmul(t, p, c.batch, c.d1, c.d2, c.d3, 1.0,
                         std::string("softmax_matmul ") + name(t) +
                             " precision " + std::to_string(p));
      if (HasFatalFailure())
        return;
    }
}

// Every embedded softmax-matmul kernel that runs here, forced, not only
// the dispatcher's choices: tuning may rank any of them. Shapes with
// partial tiles on every edge; short-row kernels (residentProducts) on
// full and partial rows and d3 beyond one program's columns; TMA and
// specialized kernels on rows of whole 16-byte vectors (d2 = 264: a last
// step of 8 columns) and three batches; the kernels reading V transposed
// also past 2^24 elements of V.
TEST_F(LibraryOpsGPUTest, SoftmaxMatmulEveryVariant) {
  TILE_REQUIRE_DEVICE();
  unsigned embedded = 0;
  // (The V transposition runs within the `_vt` kernels' launches.)
  std::vector<unsigned> kernels = kernelsOf(
      getSoftmaxMatmulOp(),
      [](const cat::KernelDesc &d) {
        return !getSoftmaxMatmulOp().isPrelude(d);
      },
      embedded);
  if (kernels.empty())
    GTEST_SKIP() << noKernels("softmax-matmul", embedded);
  for (unsigned i : kernels) {
    cat::SoftmaxMatmulKernel k = cat::toSoftmaxMatmulKernel(kKernels[i].desc);
    tile_dtype t = apiDtype(k.dtype);
    tile_precision p = apiPrecision(k.precision);
    int64_t bk = k.blockK;
    std::vector<MatmulShape> shapes{{2, 300, 257, 130}, {1, 128, 256, 256}};
    if (k.tma || k.specialized)
      shapes = {{2, 300, 264, 136}, {1, 128, 256, 256}, {3, 200, 520, 264}};
    // V of more than 2^24 elements: the transposition's 64 x 64 blocks.
    if (k.vTransposed)
      shapes.push_back({1, 64, 2048, 8200});
    if (k.residentProducts)
      shapes = k.tma ? std::vector<MatmulShape>{{2, 300, bk - 8, 136},
                                                {1, 128, bk, 600},
                                                {3, 65, bk / 2, 8}}
                     : std::vector<MatmulShape>{{2, 300, bk - 7, 130},
                                                {1, 128, bk, 600},
                                                {3, 65, bk / 2 + 1, 9}};
    ScopedEnv forced("TILE_SOFTMAX_MATMUL_VARIANT", kKernels[i].name);
    int ran = 0;
    for (MatmulShape c : shapes) {
      if (c.d2 < 1 ||
          !admits(getSoftmaxMatmulOp(), i,
                  contiguousProblem(t, p, c.batch, c.d1, c.d2, c.d3), device))
        continue;
      checkSoftmaxMatmul(t, p, c.batch, c.d1, c.d2, c.d3, 4.0,
                         std::string("forced ") + kKernels[i].name);
      if (HasFatalFailure())
        return;
      ++ran;
    }
    EXPECT_GT(ran, 0) << kKernels[i].name << " admits none of the shapes tried";
  }
}

TEST_F(LibraryOpsGPUTest, SoftmaxMatmulStridedInputs) {
  TILE_REQUIRE_DEVICE();
  // X transposed in memory (column-major rows), V with padded rows, output
  // with a padded row stride whose padding must stay untouched; through
  // the dispatcher under each precision, and through a pipelined mma.sync
  // kernel of that precision (forced, where one is embedded): its copies
  // of the transposed X take the synchronous element path, V's rows
  // (stride 64, 16-byte aligned) the cp.async path.
  const int64_t b = 2, d1 = 70, d2 = 90, d3 = 50, vPad = 64, oPad = 56;
  int64_t xs[3] = {d1 * d2, 1, d1}, vs[3] = {d2 * vPad, vPad, 1},
          os[3] = {d1 * oPad, oPad, 1};
  for (tile_precision p :
       {TILE_PRECISION_IEEE, TILE_PRECISION_TF32, TILE_PRECISION_TF32X3}) {
    const cat::OpSpec &op = getSoftmaxMatmulOp();
    cat::Problem q =
        apiSoftmaxMatmulProblem(TILE_F32, p, b, d1, d2, d3, xs, vs);
    std::vector<int> runs{-1}; // -1: the dispatcher's choice
    for (unsigned i = 0; i < kNumKernels; ++i) {
      if (!op.owns(kKernels[i].desc))
        continue;
      cat::SoftmaxMatmulKernel k = cat::toSoftmaxMatmulKernel(kKernels[i].desc);
      if (k.product == cat::MatmulProduct::Mma && k.stages >= 2 &&
          admits(op, i, q, device)) {
        runs.push_back((int)i);
        break;
      }
    }
    for (int forced : runs) {
      std::vector<float> xh = randomFloats(b * d1 * d2, rng),
                         vh = randomFloats(b * d2 * vPad, rng);
      tile::DeviceBuffer dx, dv, dout;
      ASSERT_OK(upload(xh, dx));
      ASSERT_OK(upload(vh, dv));
      ASSERT_OK(poisoned(b * d1 * oPad, dout));
      const char *via = forced >= 0 ? kKernels[forced].name : "the dispatcher";
      tile_status s;
      {
        std::optional<ScopedEnv> env;
        if (forced >= 0)
          env.emplace("TILE_SOFTMAX_MATMUL_VARIANT", kKernels[forced].name);
        int kernel = softmaxMatmulKernelFor(q);
        ASSERT_GE(kernel, 0) << describe(op, q);
        ASSERT_TRUE(admits(op, kernel, q, device))
            << kKernels[kernel].name << " does not admit " << describe(op, q);
        s = tile_softmax_matmul(dout.ptr(), os, dx.ptr(), xs, dv.ptr(), vs,
                                TILE_F32, b, d1, d2, d3, p, nullptr);
      }
      ASSERT_EQ(s, TILE_SUCCESS) << via << ": " << tile_last_error();
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
                  std::string("strided softmax_matmul precision ") +
                      std::to_string(p) + " via " + via,
                  matmulTolerance(TILE_F32, p));
    }
  }
}

//===----------------------------------------------------------------------===//
// The dispatch rule on this device
//===----------------------------------------------------------------------===//

// At every point of the table this device selects, the dispatcher takes
// the first ranked kernel that admits the point's problem; the C API names
// that kernel where it can state the problem (contiguous tensors: for
// softmax, aligned rows of the point's alignment class).
TEST_F(LibraryOpsGPUTest, DispatchTakesFirstRankedKernelThatAdmits) {
  TILE_REQUIRE_DEVICE();
  const cat::TuningTable *table =
      tile::dispatch::selectTable(embeddedLibrary(), device);
  if (!table)
    GTEST_SKIP() << "no tuning table embedded: the dispatcher takes its "
                    "fallbacks (LibraryDispatch.ChoiceAdmitsEveryProblem)";
  SCOPED_TRACE("table of " + std::string(table->device.name) + " on " +
               describe(device));
  Failures failures;
  unsigned ranked = 0;
  checkTable(*table, device, failures, ranked);
  EXPECT_EQ(failures.count, 0u) << failures.report();

  char chosen[128];
  const cat::OpSpec &softmax = getSoftmaxOp(), &matmul = getSoftmaxMatmulOp(),
                    &attention = cat::getAttentionOp();
  for (unsigned i = 0; i < table->numPoints; ++i) {
    const cat::TablePoint &point = table->points[i];
    const cat::Problem &q = point.problem;
    if (std::strcmp(point.op, softmax.getName()) == 0) {
      tile_dtype t = apiDtype(cat::DType(problemField(softmax, q, "dtype")));
      cat::RowAlignment alignment =
          cat::RowAlignment(problemField(softmax, q, "alignment"));
      int64_t rows = problemField(softmax, q, "rows"),
              cols = problemField(softmax, q, "cols");
      bool whole = (cols * (int64_t)elemSize(t)) % 16 == 0;
      bool aligned = alignment != cat::RowAlignment::Element;
      if (aligned && whole != (alignment == cat::RowAlignment::Whole16))
        continue; // not a problem tile_softmax_variant states
      int want = choose(softmax, q, device);
      ASSERT_EQ(tile_softmax_variant(t, t, rows, cols, aligned, chosen,
                                     sizeof(chosen)),
                TILE_SUCCESS)
          << tile_last_error();
      EXPECT_STREQ(chosen, want >= 0 ? kKernels[want].name : "")
          << describe(softmax, q);
    } else if (std::strcmp(point.op, matmul.getName()) == 0) {
      tile_dtype t = apiDtype(cat::DType(problemField(matmul, q, "dtype")));
      tile_precision precision =
          apiPrecision(cat::Precision(problemField(matmul, q, "precision")));
      int64_t batch = problemField(matmul, q, "batch"),
              d1 = problemField(matmul, q, "d1"),
              d2 = problemField(matmul, q, "d2"),
              d3 = problemField(matmul, q, "d3");
      bool readable = problemField(matmul, q, "tma_readable") != 0;
      int64_t es = elemSize(t);
      if (readable != ((d2 * es) % 16 == 0 && (d3 * es) % 16 == 0))
        continue; // not a problem tile_softmax_matmul_variant states
      int want = choose(matmul, q, device);
      ASSERT_EQ(tile_softmax_matmul_variant(t, precision, batch, d1, d2, d3,
                                            chosen, sizeof(chosen)),
                TILE_SUCCESS)
          << tile_last_error();
      EXPECT_STREQ(chosen, want >= 0 ? kKernels[want].name : "")
          << describe(matmul, q);
    } else if (std::strcmp(point.op, attention.getName()) == 0) {
      tile_dtype t = apiDtype(cat::DType(problemField(attention, q, "dtype")));
      int64_t batch = problemField(attention, q, "batch"),
              heads = problemField(attention, q, "heads"),
              kvHeads = problemField(attention, q, "kv_heads"),
              seqQ = problemField(attention, q, "seq_q"),
              seqK = problemField(attention, q, "seq_k"),
              headDim = problemField(attention, q, "head_dim");
      bool causal = problemField(attention, q, "mask") != 0;
      bool aligned = problemField(attention, q, "aligned") != 0;
      if (aligned != ((headDim * (int64_t)elemSize(t)) % 16 == 0))
        continue; // not a problem tile_attention_variant states
      int want = choose(attention, q, device);
      ASSERT_EQ(tile_attention_variant(t, batch, heads, kvHeads, seqQ, seqK,
                                       headDim, causal, chosen, sizeof(chosen)),
                TILE_SUCCESS)
          << tile_last_error();
      EXPECT_STREQ(chosen, want >= 0 ? kKernels[want].name : "")
          << describe(attention, q);
    }
  }
}

// Whatever the tables say, the kernel taken admits the problem: a sweep of
// row lengths of every dtype and row class, and of softmax-matmul sizes;
// the C API names the dispatcher's choice; and a few odd lengths run
// against float64, with aligned and misaligned rows.
TEST_F(LibraryOpsGPUTest, DispatchChoiceAdmitsEveryProblem) {
  TILE_REQUIRE_DEVICE();
  Failures failures;
  checkSweep(device, failures);
  EXPECT_EQ(failures.count, 0u) << failures.report();

  char chosen[128];
  for (tile_dtype t : {TILE_F32, TILE_F16, TILE_BF16})
    for (int64_t cols : sweepWidths())
      for (int aligned : {0, 1}) {
        cat::Problem q = apiSoftmaxProblem(t, 1, cols, aligned);
        int want = choose(getSoftmaxOp(), q, device);
        ASSERT_GE(want, 0) << describe(getSoftmaxOp(), q);
        ASSERT_EQ(tile_softmax_variant(t, t, 1, cols, aligned, chosen,
                                       sizeof(chosen)),
                  TILE_SUCCESS)
            << tile_last_error();
        ASSERT_STREQ(chosen, kKernels[want].name)
            << describe(getSoftmaxOp(), q);
      }
  for (auto [t, p] : matmulTypes())
    for (int64_t d2 : {1, 64, 100, 257, 1001, 4096})
      for (int64_t d3 : {1, 64, 100, 101, 600}) {
        cat::Problem q = contiguousProblem(t, p, 1, 2048, d2, d3);
        int want = choose(getSoftmaxMatmulOp(), q, device);
        ASSERT_GE(want, 0) << describe(getSoftmaxMatmulOp(), q);
        ASSERT_EQ(tile_softmax_matmul_variant(t, p, 1, 2048, d2, d3, chosen,
                                              sizeof(chosen)),
                  TILE_SUCCESS)
            << tile_last_error();
        ASSERT_STREQ(chosen, kKernels[want].name)
            << describe(getSoftmaxMatmulOp(), q);
      }

  for (tile_dtype t : {TILE_F32, TILE_F16, TILE_BF16})
    for (int64_t cols :
         {3, 129, 1000, 2047, 4099, 9999, 20001, 33333, 65537, 69999}) {
      checkSoftmax(t, 3, cols, cols, cols);
      checkSoftmax(t, 3, cols, cols + 5, cols + 3, /*offset=*/1);
      if (HasFatalFailure())
        return;
    }
}

// Inputs TMA cannot read (rows that are not whole 16-byte vectors, or a
// row stride that misaligns rows) never get a kernel that copies with TMA,
// through the C API's choice and through the operation, which still gives
// the right answer.
TEST_F(LibraryOpsGPUTest, SoftmaxMatmulNoTmaForUnreadableInputs) {
  TILE_REQUIRE_DEVICE();
  char chosen[128];
  for (auto [t, p] : matmulTypes())
    for (int64_t d2 : {1001, 8192})
      for (int64_t d3 : {100, 101, 512}) {
        int64_t es = elemSize(t);
        if ((d2 * es) % 16 == 0 && (d3 * es) % 16 == 0)
          continue; // TMA-readable
        ASSERT_EQ(tile_softmax_matmul_variant(t, p, 1, 2048, d2, d3, chosen,
                                              sizeof(chosen)),
                  TILE_SUCCESS)
            << tile_last_error();
        int k = kernelNamed(chosen);
        ASSERT_GE(k, 0) << chosen;
        ASSERT_TRUE(getSoftmaxMatmulOp().owns(kKernels[k].desc)) << chosen;
        EXPECT_FALSE(cat::toSoftmaxMatmulKernel(kKernels[k].desc).tma)
            << name(t) << " d2 " << d2 << " d3 " << d3 << ": " << chosen;
      }
  struct Case {
    tile_dtype t;
    tile_precision p;
    int64_t batch, d1, d2, d3, xPad, vPad;
  };
  for (Case c : {
           Case{TILE_F16, TILE_PRECISION_IEEE, 2, 256, 1001, 264, 0, 0},
           Case{TILE_F16, TILE_PRECISION_IEEE, 1, 200, 256, 100, 0, 0},
           Case{TILE_BF16, TILE_PRECISION_IEEE, 2, 128, 512, 256, 4, 0},
           Case{TILE_BF16, TILE_PRECISION_IEEE, 1, 128, 256, 264, 0, 3},
           Case{TILE_F32, TILE_PRECISION_TF32, 1, 128, 256, 256, 0, 1},
           Case{TILE_F32, TILE_PRECISION_IEEE, 2, 100, 256, 101, 0, 0},
       }) {
    int64_t xs[3] = {c.d1 * (c.d2 + c.xPad), c.d2 + c.xPad, 1},
            vs[3] = {c.d2 * (c.d3 + c.vPad), c.d3 + c.vPad, 1};
    const cat::OpSpec &op = getSoftmaxMatmulOp();
    cat::Problem q =
        apiSoftmaxMatmulProblem(c.t, c.p, c.batch, c.d1, c.d2, c.d3, xs, vs);
    ASSERT_FALSE(problemField(op, q, "tma_readable")) << describe(op, q);
    int k = choose(op, q, device);
    ASSERT_GE(k, 0) << describe(op, q);
    EXPECT_FALSE(cat::toSoftmaxMatmulKernel(kKernels[k].desc).tma)
        << describe(op, q) << ": " << kKernels[k].name;
    checkSoftmaxMatmul(c.t, c.p, c.batch, c.d1, c.d2, c.d3, 4.0,
                       "not TMA-readable", c.xPad, c.vPad);
    if (HasFatalFailure())
      return;
  }
}

//===----------------------------------------------------------------------===//
// Forced kernels must admit the problem
//===----------------------------------------------------------------------===//

// TILE_SOFTMAX_VARIANT naming no embedded kernel, a kernel of another
// dtype, a kernel for aligned rows given misaligned ones, or a row kernel
// given rows longer than its tiles hold: the call fails with
// TILE_ERROR_INVALID_ARGUMENT, naming the variable, and writes nothing.
TEST_F(LibraryOpsGPUTest, SoftmaxForcedKernelMustAdmitTheProblem) {
  TILE_REQUIRE_DEVICE();
  tile_status s;
  const char *unknown = "softmax_not_an_embedded_kernel";
  ASSERT_NO_FATAL_FAILURE(forcedSoftmaxStatus(unknown, TILE_F32, 100, true, s));
  EXPECT_EQ(s, TILE_ERROR_INVALID_ARGUMENT);
  {
    char chosen[128];
    ScopedEnv env("TILE_SOFTMAX_VARIANT", unknown);
    EXPECT_EQ(tile_softmax_variant(TILE_F32, TILE_F32, 1, 100, 1, chosen,
                                   sizeof(chosen)),
              TILE_ERROR_INVALID_ARGUMENT);
  }

  // The f16 kernel the dispatcher takes for misaligned rows of 100 runs
  // them, and no f32 rows.
  int f16 = choose(getSoftmaxOp(), apiSoftmaxProblem(TILE_F16, 2, 100, false),
                   device);
  ASSERT_GE(f16, 0);
  ASSERT_NO_FATAL_FAILURE(
      forcedSoftmaxStatus(kKernels[f16].name, TILE_F16, 100, false, s));
  EXPECT_EQ(s, TILE_SUCCESS) << tile_last_error();
  ASSERT_NO_FATAL_FAILURE(
      forcedSoftmaxStatus(kKernels[f16].name, TILE_F32, 100, false, s));
  EXPECT_EQ(s, TILE_ERROR_INVALID_ARGUMENT) << kKernels[f16].name;

  unsigned embedded = 0, refused = 0;
  for (unsigned i : softmaxKernels(
           [](const cat::SoftmaxKernel &k) {
             return k.alignment != cat::RowAlignment::Element;
           },
           embedded)) {
    cat::SoftmaxKernel k = cat::toSoftmaxKernel(kKernels[i].desc);
    int64_t cols = k.scheme == cat::SoftmaxScheme::Rows ||
                           k.scheme == cat::SoftmaxScheme::PersistentRows
                       ? int64_t(k.block) + k.tail
                       : 64;
    cols = cols / 8 * 8; // whole 16-byte vectors in every dtype
    ASSERT_NO_FATAL_FAILURE(forcedSoftmaxStatus(kKernels[i].name,
                                                apiDtype(k.dtype), cols,
                                                /*aligned=*/false, s));
    EXPECT_EQ(s, TILE_ERROR_INVALID_ARGUMENT)
        << kKernels[i].name << " given misaligned rows";
    ++refused;
  }

  unsigned rowKernels = 0;
  for (unsigned i : softmaxKernels(
           [](const cat::SoftmaxKernel &k) {
             return k.scheme == cat::SoftmaxScheme::Rows ||
                    k.scheme == cat::SoftmaxScheme::PersistentRows;
           },
           embedded)) {
    cat::SoftmaxKernel k = cat::toSoftmaxKernel(kKernels[i].desc);
    tile_dtype t = apiDtype(k.dtype);
    bool aligned = k.alignment != cat::RowAlignment::Element;
    // One 16-byte vector past the tiles keeps the row class.
    int64_t cols = int64_t(k.block) + k.tail + (aligned ? vectorElems(t) : 1);
    ASSERT_FALSE(admits(getSoftmaxOp(), i,
                        apiSoftmaxProblem(t, 2, cols, aligned), device));
    ASSERT_NO_FATAL_FAILURE(
        forcedSoftmaxStatus(kKernels[i].name, t, cols, aligned, s));
    EXPECT_EQ(s, TILE_ERROR_INVALID_ARGUMENT)
        << kKernels[i].name << " given rows of " << cols;
    ++rowKernels;
  }
  if (rowKernels == 0)
    GTEST_SKIP() << noKernels("row softmax", embedded)
                 << "; the other refusals passed (" << refused
                 << " aligned kernels given misaligned rows)";
}

// TILE_SOFTMAX_MATMUL_VARIANT naming no embedded kernel, a kernel of
// another precision, a short-row kernel given rows longer than blockK, or
// a TMA kernel given rows TMA cannot read: the call fails with
// TILE_ERROR_INVALID_ARGUMENT, naming the variable, and writes nothing.
TEST_F(LibraryOpsGPUTest, SoftmaxMatmulForcedKernelMustAdmitTheProblem) {
  TILE_REQUIRE_DEVICE();
  tile_status s;
  const char *unknown = "softmax_matmul_not_an_embedded_kernel";
  ASSERT_NO_FATAL_FAILURE(forcedSoftmaxMatmulStatus(
      unknown, TILE_F16, TILE_PRECISION_IEEE, 64, 64, 64, 0, s));
  EXPECT_EQ(s, TILE_ERROR_INVALID_ARGUMENT);
  {
    char chosen[128];
    ScopedEnv env("TILE_SOFTMAX_MATMUL_VARIANT", unknown);
    EXPECT_EQ(tile_softmax_matmul_variant(TILE_F16, TILE_PRECISION_IEEE, 1, 64,
                                          64, 64, chosen, sizeof(chosen)),
              TILE_ERROR_INVALID_ARGUMENT);
  }

  // The f32 IEEE kernel the dispatcher takes runs f32 IEEE, not TF32.
  int ieee = choose(
      getSoftmaxMatmulOp(),
      contiguousProblem(TILE_F32, TILE_PRECISION_IEEE, 1, 64, 64, 64), device);
  ASSERT_GE(ieee, 0);
  ASSERT_NO_FATAL_FAILURE(forcedSoftmaxMatmulStatus(
      kKernels[ieee].name, TILE_F32, TILE_PRECISION_IEEE, 64, 64, 64, 0, s));
  EXPECT_EQ(s, TILE_SUCCESS) << tile_last_error();
  ASSERT_NO_FATAL_FAILURE(forcedSoftmaxMatmulStatus(
      kKernels[ieee].name, TILE_F32, TILE_PRECISION_TF32, 64, 64, 64, 0, s));
  EXPECT_EQ(s, TILE_ERROR_INVALID_ARGUMENT) << kKernels[ieee].name;

  unsigned embeddedResident = 0, embeddedTma = 0;
  std::vector<unsigned> resident = softmaxMatmulKernels(
      [](const cat::SoftmaxMatmulKernel &k) { return k.residentProducts > 0; },
      embeddedResident);
  for (unsigned i : resident) {
    cat::SoftmaxMatmulKernel k = cat::toSoftmaxMatmulKernel(kKernels[i].desc);
    tile_dtype t = apiDtype(k.dtype);
    // Past blockK by one 16-byte vector: TMA could still read the rows.
    int64_t d2 = int64_t(k.blockK) + vectorElems(t),
            d3 = cat::columnsPerProgram(k);
    ASSERT_NO_FATAL_FAILURE(forcedSoftmaxMatmulStatus(
        kKernels[i].name, t, apiPrecision(k.precision), 64, d2, d3, 0, s));
    EXPECT_EQ(s, TILE_ERROR_INVALID_ARGUMENT)
        << kKernels[i].name << " given d2 = " << d2;
  }
  std::vector<unsigned> tma = softmaxMatmulKernels(
      [](const cat::SoftmaxMatmulKernel &k) { return k.tma; }, embeddedTma);
  for (unsigned i : tma) {
    cat::SoftmaxMatmulKernel k = cat::toSoftmaxMatmulKernel(kKernels[i].desc);
    tile_dtype t = apiDtype(k.dtype);
    tile_precision p = apiPrecision(k.precision);
    int64_t d2 = k.residentProducts ? k.blockK : 256, d3 = 256;
    // The same sizes with contiguous rows are admitted; X's rows padded by
    // one element are not TMA-readable.
    EXPECT_TRUE(admits(getSoftmaxMatmulOp(), i,
                       contiguousProblem(t, p, 1, 128, d2, d3), device))
        << kKernels[i].name;
    ASSERT_NO_FATAL_FAILURE(
        forcedSoftmaxMatmulStatus(kKernels[i].name, t, p, 128, d2, d3, 1, s));
    EXPECT_EQ(s, TILE_ERROR_INVALID_ARGUMENT)
        << kKernels[i].name << " given misaligned rows";
  }
  if (resident.empty() || tma.empty())
    GTEST_SKIP()
        << (resident.empty()
                ? noKernels("short-row softmax-matmul", embeddedResident) + "; "
                : std::string())
        << (tma.empty() ? noKernels("TMA softmax-matmul", embeddedTma) + "; "
                        : std::string())
        << "the other refusals passed";
}

//===----------------------------------------------------------------------===//
// The dispatch rule on described devices (no GPU)
//===----------------------------------------------------------------------===//

// Every embedded kernel is a valid description with a name of its own (a
// forced name finds one kernel), and the fallbacks are there: an online
// softmax kernel for any row of each dtype, an unpipelined mma.sync tile
// of each dtype and precision.
TEST(LibraryDispatch, EmbeddedKernelsAndFallbacks) {
  ASSERT_GT(kNumKernels, 0u);
  for (unsigned i = 0; i < kNumKernels; ++i) {
    EXPECT_EQ(cat::whyInvalid(kKernels[i].desc), "") << kKernels[i].name;
    EXPECT_EQ(kernelNamed(kKernels[i].name), (int)i)
        << kKernels[i].name << " is not the only kernel of its name";
  }
  for (tile_dtype t : {TILE_F32, TILE_F16, TILE_BF16}) {
    bool online = false;
    for (unsigned i = 0; i < kNumKernels; ++i) {
      const cat::KernelDesc &k = kKernels[i].desc;
      if (!getSoftmaxOp().owns(k))
        continue;
      cat::SoftmaxKernel s = cat::toSoftmaxKernel(k);
      online |= s.scheme == cat::SoftmaxScheme::Online &&
                s.dtype == cat::DType(t) &&
                s.alignment == cat::RowAlignment::Element &&
                cat::getTarget(k) == cat::Target::Sm80;
    }
    EXPECT_TRUE(online) << "no online softmax fallback for " << name(t);
  }
  for (auto [t, p] : matmulTypes()) {
    bool mma = false;
    for (unsigned i = 0; i < kNumKernels; ++i) {
      const cat::KernelDesc &k = kKernels[i].desc;
      if (!getSoftmaxMatmulOp().owns(k))
        continue;
      cat::SoftmaxMatmulKernel m = cat::toSoftmaxMatmulKernel(k);
      mma |= m.dtype == cat::DType(t) && m.precision == cat::Precision(p) &&
             m.product == cat::MatmulProduct::Mma && m.stages == 0 &&
             m.residentProducts == 0 && !m.tma;
    }
    EXPECT_TRUE(mma) << "no softmax-matmul fallback for " << name(t)
                     << " precision " << p;
  }
}

// Every kernel a table ranks is embedded and of the point's operation and
// types (the point's key fields: dtype; for softmax-matmul also
// precision).
TEST(LibraryDispatch, TablesRankEmbeddedKernels) {
  if (kNumTables == 0)
    GTEST_SKIP() << "no tuning table embedded";
  for (unsigned t = 0; t < kNumTables; ++t) {
    const cat::TuningTable &table = kTables[t];
    SCOPED_TRACE(std::string("table of ") + table.device.name);
    for (unsigned i = 0; i < table.numPoints; ++i) {
      const cat::TablePoint &p = table.points[i];
      const cat::OpSpec *op = cat::findOp(p.op);
      ASSERT_NE(op, nullptr) << "a point of the unknown operation " << p.op;
      std::string what = describe(*op, p.problem);
      EXPECT_GE(p.ranked[0], 0) << what << ": none ranked";
      const std::vector<cat::Field> &fields = op->getProblemFields();
      for (int16_t index : p.ranked) {
        if (index < 0)
          break;
        ASSERT_LT((unsigned)index, kNumKernels) << what;
        const cat::KernelDesc &k = kKernels[index].desc;
        bool sameTypes = op->owns(k);
        // Keys that are kernel parameters (types) match; the others (the
        // attention's mask) only keep points apart.
        for (size_t f = 0; sameTypes && f < fields.size(); ++f)
          if (fields[f].key && op->findParam(fields[f].name) >= 0)
            sameTypes = op->get(k, fields[f].name) == p.problem.values[f];
        EXPECT_TRUE(sameTypes) << what << " ranks " << kKernels[index].name;
      }
    }
  }
}

// Each table, on the device it was measured on: at every point the
// dispatcher takes the first ranked kernel that admits the point's
// problem.
TEST(LibraryDispatch, EachTableOnItsDeviceTakesFirstRankedKernel) {
  if (kNumTables == 0)
    GTEST_SKIP() << "no tuning table embedded";
  for (unsigned t = 0; t < kNumTables; ++t) {
    const cat::DeviceKey &key = kTables[t].device;
    DeviceInfo device{key.name, key.ccMajor, key.ccMinor, key.sms, true};
    if (tile::dispatch::selectTable(embeddedLibrary(), device) != &kTables[t])
      continue; // an earlier table of the same device is taken
    SCOPED_TRACE("table of " + describe(device));
    Failures failures;
    unsigned ranked = 0;
    checkTable(kTables[t], device, failures, ranked);
    EXPECT_EQ(failures.count, 0u) << failures.report();
    // On its own device, a table's points rank kernels that run there.
    EXPECT_GT(ranked, 0u);
  }
}

// The rule on a table made up here (the embedded tables may be absent or
// rank only kernels that admit their points): each point ranks embedded
// kernels of its types drawn at random, some of which do not admit its
// problem, and the dispatcher must take the first that does.
TEST(LibraryDispatch, RandomTableTakesFirstRankedKernelThatAdmits) {
  uint64_t seed = std::random_device{}();
  SCOPED_TRACE("random seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  auto rank = [&](int16_t (&ranked)[cat::kMaxRanked], auto select) {
    std::vector<int16_t> candidates;
    for (unsigned i = 0; i < kNumKernels; ++i)
      if (select(kKernels[i].desc))
        candidates.push_back((int16_t)i);
    std::shuffle(candidates.begin(), candidates.end(), rng);
    for (int j = 0; j < cat::kMaxRanked; ++j)
      ranked[j] = j < (int)candidates.size() ? candidates[j] : int16_t(-1);
  };
  const cat::OpSpec &softmax = getSoftmaxOp(), &matmul = getSoftmaxMatmulOp();
  std::vector<cat::TablePoint> points;
  for (tile_dtype t : {TILE_F32, TILE_F16, TILE_BF16})
    for (cat::RowAlignment a :
         {cat::RowAlignment::Element, cat::RowAlignment::Rows16,
          cat::RowAlignment::Whole16})
      for (int64_t rows : {1, 4096})
        for (int64_t cols : {96, 1000, 4104, 20000, 40000, 300000}) {
          cat::TablePoint p{softmax.getName(),
                            cat::softmaxProblem(cat::DType(t), a, rows, cols),
                            {}};
          rank(p.ranked, [&](const cat::KernelDesc &k) {
            return softmax.owns(k) &&
                   cat::toSoftmaxKernel(k).dtype == cat::DType(t);
          });
          points.push_back(p);
        }
  for (auto [t, prec] : matmulTypes())
    for (bool readable : {false, true})
      for (int64_t d2 : {64, 1000, 4096})
        for (int64_t d3 : {64, 512}) {
          cat::DType dtype = cat::DType(t);
          cat::Precision precision =
              t == TILE_F32 ? cat::Precision(prec) : cat::Precision::IEEE;
          cat::TablePoint p{matmul.getName(),
                            cat::softmaxMatmulProblem(dtype, precision, 2, 1024,
                                                      d2, d3, readable),
                            {}};
          rank(p.ranked, [&](const cat::KernelDesc &k) {
            if (!matmul.owns(k))
              return false;
            cat::SoftmaxMatmulKernel m = cat::toSoftmaxMatmulKernel(k);
            return m.dtype == dtype && m.precision == precision;
          });
          points.push_back(p);
        }
  for (const DeviceInfo &device : describedDevices()) {
    SCOPED_TRACE(describe(device));
    cat::TuningTable table{
        {device.name.c_str(), device.ccMajor, device.ccMinor, device.sms},
        points.data(),
        (unsigned)points.size()};
    tile::dispatch::Library lib{kKernels, kNumKernels, &table, 1};
    ASSERT_EQ(tile::dispatch::selectTable(lib, device), &table);
    Failures failures;
    unsigned ranked = 0;
    checkTable(table, device, failures, ranked, lib);
    EXPECT_EQ(failures.count, 0u) << failures.report();
  }
}

// On any device, with or without tables, the kernel taken admits the
// problem, for a sweep of softmax rows and softmax-matmul sizes.
TEST(LibraryDispatch, ChoiceAdmitsEveryProblem) {
  for (const DeviceInfo &device : describedDevices()) {
    SCOPED_TRACE(describe(device));
    Failures failures;
    checkSweep(device, failures);
    EXPECT_EQ(failures.count, 0u) << failures.report();
  }
}

//===----------------------------------------------------------------------===//
// Argument errors
//===----------------------------------------------------------------------===//

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
  // An output sharing bytes with an input: programs would read what others
  // wrote. 2 x 8 x 8 f32 outputs span bytes [p, p + 511].
  uint64_t x = p + 4096, v = p + 8192;
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

} // namespace
