//===- Softmax.cpp - The softmax operation in the catalogue ---------------===//
//
// Row softmax, y = exp(x - max) / sum: its kernels' parameters and rules,
// when one runs a problem, how it is launched, the configurations worth
// measuring and the tuner's problems and checks.
//
//===----------------------------------------------------------------------===//

#include "tile/Catalogue/Ops/Softmax.h"
#include "tile/Catalogue/TestData.h"
#include "tile/Reference/Reference.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <set>

namespace tile {
namespace catalogue {

namespace {
enum Param {
  Scheme,
  Type,
  Alignment,
  Block,
  Tail,
  Rows,
  Warps,
  ClusterSize,
  MinProgramsPerSM,
  Rematerialize
};
enum ProblemField { PType, PAlignment, PRows, PCols };

constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

bool isPowerOf2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }
int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
double logRatio(double a, double b) { return std::fabs(std::log2(a / b)); }

struct RowShape {
  int32_t block, rows, warps;
};

SoftmaxKernel rowsKernel(DType t, RowAlignment a, RowShape r,
                         SoftmaxScheme scheme = SoftmaxScheme::Rows,
                         int32_t tail = 0, bool rematerialize = false) {
  SoftmaxKernel k;
  k.scheme = scheme;
  k.dtype = t;
  k.alignment = a;
  k.block = r.block;
  k.rows = r.rows;
  k.warps = r.warps;
  k.tail = tail;
  k.rematerialize = rematerialize;
  return k;
}

/// Softmax kernels of one dtype.
void addSoftmax(DType t, std::vector<KernelDesc> &out) {
  auto add = [&](const SoftmaxKernel &k) { out.push_back(toDesc(k)); };
  // Rows held in registers: for short rows several per program (a warp or
  // less each), then one per program with more warps as rows grow; the
  // second half gives 2-byte types the 16-byte vectors per thread that the
  // first gives f32.
  const RowShape rowShapes[] = {
      {32, 32, 4},   {64, 16, 4},    {128, 8, 4},    {256, 4, 4},  {512, 4, 4},
      {1024, 1, 4},  {1024, 4, 4},   {1024, 8, 8},   {2048, 1, 4}, {4096, 1, 8},
      {8192, 1, 16}, {16384, 1, 16}, {32768, 1, 32}, {2048, 1, 2}, {4096, 1, 4},
      {8192, 1, 8},  {16384, 1, 8},  {32768, 1, 16}};
  // One tile per row; the shapes a second tile extends.
  const RowShape twoTileShapes[] = {{256, 4, 4},   {512, 4, 4},  {1024, 1, 4},
                                    {2048, 1, 4},  {4096, 1, 8}, {8192, 1, 16},
                                    {16384, 1, 16}};
  for (RowAlignment a : {RowAlignment::Rows16, RowAlignment::Element}) {
    bool aligned = a == RowAlignment::Rows16;
    for (RowShape r : rowShapes)
      add(rowsKernel(t, a, r));
    // Rows of a multiple of 16 bytes: one mask bit per 16-byte vector,
    // hence predicated vector loads without a per-lane edge.
    if (aligned) {
      std::set<int32_t> blocks;
      for (RowShape r : rowShapes)
        if (blocks.insert(r.block).second)
          add(rowsKernel(t, RowAlignment::Whole16, r));
    }
    // Rows between two powers of two in two tiles: a power of two and a
    // half or a quarter of it (1.5 x 2^k columns are common widths). Both
    // tiles take one layout of 16 bytes per lane across the row's warps,
    // so the warps are cut until the second tile fills it (a smaller tile
    // would be replicated). Aligned rows only: the unaligned kernels move
    // one element per access and gain nothing from tighter tiles.
    int32_t laneColumns = 32 * (t == DType::F32 ? 4 : 8);
    if (aligned)
      for (RowShape r : twoTileShapes)
        for (int32_t tail : {r.block / 2, r.block / 4}) {
          int32_t rowWarps = std::min(r.warps / r.rows, tail / laneColumns);
          if (rowWarps == 0)
            continue;
          RowShape built{r.block, r.rows, r.rows * rowWarps};
          add(rowsKernel(t, a, built, SoftmaxScheme::Rows, tail));
          add(rowsKernel(t, RowAlignment::Whole16, built, SoftmaxScheme::Rows,
                         tail));
        }
    // 16384 + 8192 columns over 32 warps: 24 values per thread.
    if (aligned)
      add(rowsKernel(t, a, {16384, 1, 32}, SoftmaxScheme::Rows, 8192));
    // 2-byte rows held as loaded across the row reductions, their f32
    // values and exponentials recomputed after each: about half the
    // registers, hence more programs per SM for long rows.
    if (aligned && t != DType::F32)
      for (RowShape r :
           {RowShape{4096, 1, 4}, RowShape{4096, 1, 8}, RowShape{8192, 1, 4},
            RowShape{8192, 1, 8}, RowShape{8192, 1, 16}, RowShape{16384, 1, 8},
            RowShape{16384, 1, 16}, RowShape{32768, 1, 16},
            RowShape{32768, 1, 32}})
        add(rowsKernel(t, RowAlignment::Whole16, r, SoftmaxScheme::Rows, 0,
                       /*rematerialize=*/true));
    // Persistent programs load the next rows while computing the current.
    for (RowShape r : twoTileShapes)
      add(rowsKernel(t, a, r, SoftmaxScheme::PersistentRows));
    // Two passes over column blocks: any row length.
    for (RowAlignment online :
         aligned ? std::initializer_list<RowAlignment>{RowAlignment::Rows16,
                                                       RowAlignment::Whole16}
                 : std::initializer_list<RowAlignment>{RowAlignment::Element}) {
      SoftmaxKernel k;
      k.scheme = SoftmaxScheme::Online;
      k.dtype = t;
      k.alignment = online;
      k.block = 2048;
      k.warps = 8;
      add(k);
    }
    if (!aligned)
      continue;
    // Rows over clusters of 2 to 16 programs of 8192 to 32768 columns (32
    // per thread): up to 524288 columns read once. The occupancy requests
    // let programs waiting on their cluster's exchange leave the SM to
    // others; clusters of 16 (not portable) only for the blocks that reach
    // the longest rows.
    struct ClusterShape {
      int32_t block, warps, minPrograms;
    };
    for (ClusterShape c : {ClusterShape{8192, 8, 0}, ClusterShape{16384, 16, 0},
                           ClusterShape{32768, 32, 0}, ClusterShape{8192, 8, 4},
                           ClusterShape{16384, 16, 2}})
      for (int32_t size : {2, 4, 8, 16}) {
        if (size == 16 && !(c.block == 16384 && c.minPrograms == 2) &&
            c.block != 32768)
          continue;
        bool wholeRows = size <= 8 && (c.minPrograms || c.block == 32768);
        for (RowAlignment ca : {RowAlignment::Rows16, RowAlignment::Whole16}) {
          if (ca == RowAlignment::Whole16 && !wholeRows)
            continue;
          SoftmaxKernel k;
          k.scheme = SoftmaxScheme::Cluster;
          k.dtype = t;
          k.alignment = ca;
          k.block = c.block;
          k.warps = c.warps;
          k.clusterSize = size;
          k.minProgramsPerSM = c.minPrograms;
          add(k);
        }
      }
  }
}

/// Softmax kernels for rows longer than registers hold.
void addLongRowSoftmax(std::vector<KernelDesc> &out) {
  const DType types[] = {DType::F32, DType::F16, DType::BF16};
  // Clusters whose programs run the online passes over slices of the row:
  // pass 2 reads the slice pass 1 has just read, partly from L2.
  for (DType t : types)
    for (int32_t size : {8, 16})
      for (auto [block, warps] :
           {std::pair<int32_t, int32_t>{4096, 8}, {8192, 16}}) {
        SoftmaxKernel k;
        k.scheme = SoftmaxScheme::ClusterLoop;
        k.dtype = t;
        k.alignment = RowAlignment::Whole16;
        k.block = block;
        k.warps = warps;
        k.clusterSize = size;
        out.push_back(toDesc(k));
      }
  // Rows split over programs anywhere in the grid, each slice held in
  // registers: 32 or 64 elements per thread (128 are over the register
  // limit). 2-byte slices rematerialized, or held at 2048 columns per warp.
  for (DType t : types) {
    std::initializer_list<std::pair<int32_t, int32_t>> shapes =
        t == DType::F32
            ? std::initializer_list<std::pair<int32_t, int32_t>>{{8192, 8},
                                                                 {16384, 8}}
            : std::initializer_list<std::pair<int32_t, int32_t>>{
                  {8192, 8}, {16384, 8}, {16384, 16}, {32768, 16}};
    for (auto [block, warps] : shapes)
      for (bool rematerialize : {false, true}) {
        if (rematerialize ? t == DType::F32
                          : t != DType::F32 && block / warps != 2048)
          continue;
        SoftmaxKernel k;
        k.scheme = SoftmaxScheme::Grid;
        k.dtype = t;
        k.alignment = RowAlignment::Whole16;
        k.block = block;
        k.warps = warps;
        k.rematerialize = rematerialize;
        out.push_back(toDesc(k));
        // Four programs per SM requested (64 registers).
        if (rematerialize && block == 16384 && warps == 8) {
          k.minProgramsPerSM = 4;
          out.push_back(toDesc(k));
        }
      }
  }
}

// (Functions, not globals: specs may be made during other files' static
// initialization.)
std::vector<std::string> schemeNames() {
  return {"rows",    "persistent_rows", "online",
          "cluster", "cluster_loop",    "grid"};
}
std::vector<std::string> alignmentNames() {
  return {"element", "rows16", "whole16"};
}

double tolerance(DType t) {
  return t == DType::F32 ? 1e-5 : t == DType::F16 ? 2e-3 : 1e-2;
}

class SoftmaxOp final : public OpSpec {
public:
  SoftmaxOp()
      : OpSpec("softmax",
               {enumField("scheme", schemeNames()), dtypeField(),
                enumField("alignment", alignmentNames()), intField("block"),
                intField("tail"), intField("rows"), intField("warps"),
                intField("cluster_size"), intField("min_programs_per_sm"),
                boolField("rematerialize")},
               {dtypeField(/*key=*/true),
                enumField("alignment", alignmentNames()), intField("rows"),
                intField("cols")}) {}

  std::string whyInvalid(const KernelDesc &desc) const override {
    SoftmaxKernel k = toSoftmaxKernel(desc);
    if (!isPowerOf2(k.block) || k.block < 32 || k.block > 32768)
      return "block must be a power of two from 32 to 32768";
    if (!isPowerOf2(k.warps) || k.warps > 32)
      return "warps must be a power of two up to 32";
    if (k.minProgramsPerSM < 0 || k.minProgramsPerSM > 32)
      return "min_programs_per_sm must be 0 to 32";
    bool rows = k.scheme == SoftmaxScheme::Rows ||
                k.scheme == SoftmaxScheme::PersistentRows;
    if (rows != (k.rows > 0))
      return "rows per program are set for the row schemes only";
    if (rows && (!isPowerOf2(k.rows) || k.rows > k.warps * 8))
      return "rows per program must be a power of two, at most 8 per warp";
    if (k.tail && (k.scheme != SoftmaxScheme::Rows || !isPowerOf2(k.tail) ||
                   k.tail >= k.block || k.alignment == RowAlignment::Element))
      return "a second tile is for 16-byte aligned Rows kernels, a power of "
             "two below block";
    bool cluster = k.scheme == SoftmaxScheme::Cluster ||
                   k.scheme == SoftmaxScheme::ClusterLoop;
    if (cluster != (k.clusterSize > 0))
      return "cluster_size is set for the cluster schemes only";
    if (cluster &&
        (!isPowerOf2(k.clusterSize) || k.clusterSize < 2 || k.clusterSize > 16))
      return "cluster_size must be 2, 4, 8 or 16";
    if (cluster && k.alignment == RowAlignment::Element)
      return "cluster kernels need rows starting 16-byte aligned";
    if ((k.scheme == SoftmaxScheme::ClusterLoop ||
         k.scheme == SoftmaxScheme::Grid) &&
        k.alignment != RowAlignment::Whole16)
      return "looping clusters and grid kernels need Whole16 rows";
    if (k.rematerialize &&
        (k.dtype == DType::F32 || k.alignment != RowAlignment::Whole16 ||
         !(k.scheme == SoftmaxScheme::Grid ||
           (k.scheme == SoftmaxScheme::Rows && k.rows == 1 && !k.tail))))
      return "rematerialization is for 2-byte Whole16 rows, one per program, "
             "or grid kernels";
    if (k.minProgramsPerSM && !(cluster || k.scheme == SoftmaxScheme::Grid))
      return "occupancy requests are for cluster and grid kernels";
    return "";
  }

  Target getTarget(const KernelDesc &k) const override {
    SoftmaxScheme s = SoftmaxScheme(k.params[Scheme]);
    return s == SoftmaxScheme::Cluster || s == SoftmaxScheme::ClusterLoop
               ? Target::Sm90
               : Target::Sm80;
  }

  bool admits(const KernelDesc &desc, const Problem &p,
              const DeviceInfo &device) const override {
    SoftmaxKernel k = toSoftmaxKernel(desc);
    int64_t rows = p.values[PRows], cols = p.values[PCols];
    if (int64_t(k.dtype) != p.values[PType] ||
        int64_t(k.alignment) > p.values[PAlignment])
      return false;
    switch (k.scheme) {
    case SoftmaxScheme::Rows:
    case SoftmaxScheme::PersistentRows:
      return int64_t(k.block) + k.tail >= cols;
    case SoftmaxScheme::Online:
      return true;
    case SoftmaxScheme::Cluster:
      return int64_t(k.block) * k.clusterSize >= cols &&
             rows * k.clusterSize <= kInt32Max;
    case SoftmaxScheme::ClusterLoop:
      return rows * k.clusterSize <= kInt32Max;
    case SoftmaxScheme::Grid: {
      // Every program of a row resident at once (one per SM suffices), and
      // the workspace allocated in stream order.
      int64_t slices = ceilDiv(cols, k.block);
      return slices <= kGridMaxSlices && slices <= device.sms &&
             rows * slices <= kInt32Max && device.streamOrderedAllocation;
    }
    }
    return false;
  }

  /// Points of the problem's alignment class first, then points at or
  /// above the row length (their kernels hold the row), then by the ratio
  /// of row lengths and of row counts.
  std::array<double, 4> distance(const Problem &point,
                                 const Problem &p) const override {
    return {double(point.values[PAlignment] != p.values[PAlignment]),
            double(point.values[PCols] < p.values[PCols]),
            logRatio(point.values[PCols], p.values[PCols]),
            logRatio(point.values[PRows], p.values[PRows])};
  }

  LaunchPlan plan(const KernelDesc &desc, const Problem &p,
                  const DeviceInfo &device) const override {
    SoftmaxKernel k = toSoftmaxKernel(desc);
    int64_t rows = p.values[PRows], cols = p.values[PCols];
    LaunchPlan plan;
    int64_t programs = rows; // Online: one per row
    switch (k.scheme) {
    case SoftmaxScheme::Rows:
      programs = ceilDiv(rows, k.rows);
      break;
    case SoftmaxScheme::PersistentRows: {
      // Enough programs for 1024 threads per SM; each loops over the rest.
      int64_t perSm = std::max<int64_t>(1, 1024 / (32 * k.warps));
      programs =
          std::min<int64_t>(ceilDiv(rows, k.rows), (int64_t)device.sms * perSm);
      break;
    }
    case SoftmaxScheme::Cluster:
    case SoftmaxScheme::ClusterLoop:
      programs = rows * k.clusterSize; // below 2^31 (admits)
      break;
    case SoftmaxScheme::Grid: {
      // The workspace: the ticket and one counter per row (zeroed), then
      // 2 x kGridMaxSlices (max, sum) words per row, from a 128-byte
      // boundary so that no cache line holds two rows' pairs. It is
      // allocated in stream order, so launches on other streams never
      // share it.
      int64_t slices = ceilDiv(cols, k.block);
      size_t counterWords = (size_t)rows + 1;
      size_t statsOffset = (counterWords * 4 + 127) / 128 * 128;
      plan.workspaceBytes = statsOffset + (size_t)rows * 2 * kGridMaxSlices * 4;
      plan.zeroedWords = counterWords;
      plan.numWorkspaceArgs = 2;
      plan.workspaceArgOffsets[0] = 0;
      plan.workspaceArgOffsets[1] = statsOffset;
      programs = rows * slices;
      break;
    }
    case SoftmaxScheme::Online:
      break;
    }
    plan.grid[0] = (uint32_t)programs;
    return plan;
  }

  std::vector<KernelDesc> getConfigurationSpace() const override {
    std::vector<KernelDesc> out;
    for (DType t : {DType::F32, DType::F16, DType::BF16})
      addSoftmax(t, out);
    addLongRowSoftmax(out);
    return out;
  }

  /// The online kernel of each dtype: any row, Element alignment, sm_80.
  std::vector<KernelDesc> getFallbackKernels() const override {
    std::vector<KernelDesc> out;
    for (DType t : {DType::F32, DType::F16, DType::BF16}) {
      SoftmaxKernel k;
      k.scheme = SoftmaxScheme::Online;
      k.dtype = t;
      k.alignment = RowAlignment::Element;
      k.block = 2048;
      k.warps = 8;
      out.push_back(toDesc(k));
    }
    return out;
  }

  std::vector<std::function<bool(const KernelDesc &)>>
  getConditions() const override {
    return {[](const KernelDesc &k) {
              return SoftmaxScheme(k.params[Scheme]) == SoftmaxScheme::Grid;
            },
            needsSm90a, needsSm90,
            [](const KernelDesc &k) {
              return RowAlignment(k.params[Alignment]) == RowAlignment::Whole16;
            },
            [](const KernelDesc &k) {
              return RowAlignment(k.params[Alignment]) != RowAlignment::Element;
            }};
  }

  /// Kernels holding more than four times the row waste their programs.
  bool worthMeasuring(const KernelDesc &desc, const Problem &p) const override {
    SoftmaxKernel s = toSoftmaxKernel(desc);
    int64_t holds = s.scheme == SoftmaxScheme::Cluster
                        ? int64_t(s.block) * s.clusterSize
                    : s.scheme == SoftmaxScheme::Rows ||
                            s.scheme == SoftmaxScheme::PersistentRows
                        ? int64_t(s.block) + s.tail
                        : 0;
    return holds <= 4 * std::max<int64_t>(p.values[PCols], 32);
  }

  /// 4096 rows of the powers of two from 32 to 2^20 columns, the 1.5 x 2^k
  /// between them and the widths of the Triton tutorial's sweep that lie
  /// between those; the classes other than Whole16 at a row length just
  /// below (not a multiple of 16 bytes), up to 32768 columns: longer rows
  /// need 16-byte rows for anything but the online kernel.
  std::vector<Problem> getTuningProblems(
      const std::map<std::string, std::vector<int64_t>> &given) const override {
    auto values = [&](const char *field, std::vector<int64_t> defaults) {
      auto it = given.find(field);
      return it == given.end() ? defaults : it->second;
    };
    std::vector<int64_t> cols;
    for (int64_t c = 32; c <= (int64_t(1) << 20); c *= 2) {
      cols.push_back(c);
      if (c >= 256 && c < (int64_t(1) << 20))
        cols.push_back(c + c / 2);
    }
    for (int64_t c : {3000, 5000, 10000, 12672, 20000})
      cols.push_back(c);
    std::sort(cols.begin(), cols.end());
    std::vector<Problem> out;
    for (int64_t t : values("dtype", {0, 1, 2}))
      for (int64_t a : values("alignment", {2, 1, 0}))
        for (int64_t c : values("cols", cols))
          for (int64_t rows : values("rows", {4096})) {
            RowAlignment align = RowAlignment(a);
            if (align != RowAlignment::Whole16 && (c > 32768 || c < 64))
              continue;
            out.push_back(
                softmaxProblem(DType(t), align, rows,
                               align == RowAlignment::Whole16 ? c : c - 1));
          }
    return out;
  }

  /// Rows of 1 to 70000 columns in each class (up to 4 elements short of
  /// 16 bytes); 70000 columns take several programs of a cluster or the
  /// grid, and several steps of the online kernels.
  std::vector<Problem> getTestProblems() const override {
    std::vector<Problem> out;
    for (DType t : {DType::F32, DType::F16, DType::BF16}) {
      int64_t vector = 16 / getBytes(t);
      for (int64_t cols : {int64_t(1), int64_t(37), int64_t(1000),
                           int64_t(4096), int64_t(70000)}) {
        int64_t whole = (cols + vector - 1) / vector * vector;
        out.push_back(softmaxProblem(t, RowAlignment::Whole16, 5, whole));
        if (whole - 1 >= 1) {
          out.push_back(softmaxProblem(t, RowAlignment::Rows16, 5, whole - 1));
          out.push_back(softmaxProblem(t, RowAlignment::Element, 5, whole - 1));
        }
      }
      out.push_back(softmaxProblem(t, RowAlignment::Whole16, 67, 64));
    }
    return out;
  }

  /// Rows16 rows: padded to 16 bytes. Element rows: the same, one element
  /// off 16 bytes. Three rows checked: the first, the middle, the last.
  TestCase makeTestCase(const Problem &p, uint64_t seed) const override {
    DType t = DType(p.values[PType]);
    RowAlignment a = RowAlignment(p.values[PAlignment]);
    int64_t rows = p.values[PRows], cols = p.values[PCols];
    int64_t esize = getBytes(t);
    int64_t stride = a == RowAlignment::Whole16
                         ? cols
                         : ceilDiv(cols * esize, 16) * 16 / esize;
    int64_t offset = a == RowAlignment::Element ? esize : 0;
    size_t bytes = size_t(rows * stride * esize + 16);
    TestCase c;
    c.tensors.resize(2);
    c.tensors[0].bytes = bytes;
    c.tensors[0].pattern = randomPattern(
        t, size_t(std::min<int64_t>(rows * stride, int64_t(1) << 22)), 2.0,
        seed);
    c.tensors[1].bytes = bytes;
    using Arg = TestCase::Arg;
    c.args = {{Arg::Pointer, offset, 1}, {Arg::Pointer, offset, 0},
              {Arg::I64, stride},        {Arg::I64, stride},
              {Arg::I32, rows},          {Arg::I32, cols}};
    std::vector<int64_t> sampled{0, rows / 2, rows - 1};
    for (int64_t r : sampled)
      c.samples.push_back(
          {1, size_t(offset + r * stride * esize), size_t(cols * esize)});
    std::vector<char> pattern = c.tensors[0].pattern;
    c.check = [=](const std::vector<std::vector<char>> &got) {
      for (size_t s = 0; s < sampled.size(); ++s) {
        std::vector<double> x(cols), y(cols);
        for (int64_t i = 0; i < cols; ++i) {
          x[i] = elementAt(pattern, t,
                           size_t(offset + (sampled[s] * stride + i) * esize));
          y[i] = decode(t, &got[s][i * esize]);
        }
        std::string why = compareValues(
            y, mlir::tile::reference::referenceSoftmax(x, 1, cols),
            tolerance(t));
        if (!why.empty())
          return "row " + std::to_string(sampled[s]) + ": " + why;
      }
      return std::string();
    };
    return c;
  }
};
} // namespace

const OpSpec &getSoftmaxOp() {
  static const SoftmaxOp op;
  return op;
}

KernelDesc toDesc(const SoftmaxKernel &k) {
  KernelDesc d = getSoftmaxOp().makeKernel();
  d.params[Scheme] = int32_t(k.scheme);
  d.params[Type] = int32_t(k.dtype);
  d.params[Alignment] = int32_t(k.alignment);
  d.params[Block] = k.block;
  d.params[Tail] = k.tail;
  d.params[Rows] = k.rows;
  d.params[Warps] = k.warps;
  d.params[ClusterSize] = k.clusterSize;
  d.params[MinProgramsPerSM] = k.minProgramsPerSM;
  d.params[Rematerialize] = k.rematerialize;
  return d;
}

SoftmaxKernel toSoftmaxKernel(const KernelDesc &d) {
  SoftmaxKernel k;
  k.scheme = SoftmaxScheme(d.params[Scheme]);
  k.dtype = DType(d.params[Type]);
  k.alignment = RowAlignment(d.params[Alignment]);
  k.block = d.params[Block];
  k.tail = d.params[Tail];
  k.rows = d.params[Rows];
  k.warps = d.params[Warps];
  k.clusterSize = d.params[ClusterSize];
  k.minProgramsPerSM = d.params[MinProgramsPerSM];
  k.rematerialize = d.params[Rematerialize] != 0;
  return k;
}

Problem softmaxProblem(DType t, RowAlignment alignment, int64_t rows,
                       int64_t cols) {
  Problem p;
  p.values[PType] = int64_t(t);
  p.values[PAlignment] = int64_t(alignment);
  p.values[PRows] = rows;
  p.values[PCols] = cols;
  return p;
}

const char *getName(RowAlignment a) {
  return getSoftmaxOp()
      .getParams()[Alignment]
      .enumerators.at(size_t(a))
      .c_str();
}

const char *getName(SoftmaxScheme s) {
  return getSoftmaxOp().getParams()[Scheme].enumerators.at(size_t(s)).c_str();
}

} // namespace catalogue
} // namespace tile
