//===- SoftmaxMatmul.cpp - softmax(X) @ V in the catalogue ----------------===//
//
// The fused softmax-matmul, out = softmax(X) @ V per batch with the softmax
// over d2: its kernels' parameters and rules, when one runs a problem, how
// it is launched, the configurations worth measuring and the tuner's
// problems and checks.
//
//===----------------------------------------------------------------------===//

#include "tile/Catalogue/Ops/SoftmaxMatmul.h"
#include "tile/Catalogue/TestData.h"
#include "tile/Reference/Reference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

namespace tile {
namespace catalogue {

namespace {
enum Param {
  Type,
  Prec,
  BlockM,
  BlockK,
  BlockN,
  Warps,
  Stages,
  MinProgramsPerSM,
  Product,
  Tma,
  ResidentProducts,
  Specialized,
  Cluster,
  ClusterColumns,
  VTransposed,
  TransposesV,
  Persistent,
  SplitColumns,
  PingPong
};
enum ProblemField { PType, PPrecision, PBatch, PD1, PD2, PD3, PTmaReadable };

constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
constexpr int64_t kGridYZMax = 65535;

bool isPowerOf2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }
int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
double logRatio(double a, double b) { return std::fabs(std::log2(a / b)); }

// (A function, not a global: specs may be made during other files' static
// initialization.)
std::vector<std::string> productNames() {
  return {"mma", "wgmma", "wgmma_in_flight", "wgmma_transposed",
          "wgmma_transposed_in_flight"};
}

struct TypeAndPrecision {
  DType t;
  Precision p;
};
const TypeAndPrecision kTypes[] = {{DType::F32, Precision::IEEE},
                                   {DType::F32, Precision::TF32},
                                   {DType::F32, Precision::TF32x3},
                                   {DType::F16, Precision::IEEE},
                                   {DType::BF16, Precision::IEEE}};

double tolerance(DType t, Precision p) {
  if (t != DType::F32)
    return 1e-2;
  return p == Precision::TF32 ? 1e-3 : 1e-5;
}

/// A specialized kernel alone (2-byte ones also with ping-pong), then in
/// clusters of two row blocks sharing V's blocks and of two column blocks
/// sharing X's.
void addSpecialized(std::vector<KernelDesc> &out, SoftmaxMatmulKernel k) {
  k.specialized = true;
  out.push_back(toDesc(k));
  if (k.dtype != DType::F32) {
    k.pingpong = true;
    out.push_back(toDesc(k));
    k.pingpong = false;
  }
  k.cluster = 2;
  out.push_back(toDesc(k));
  k.clusterColumns = true;
  out.push_back(toDesc(k));
}

/// softmax(X) @ V tiles looping over d2.
void addSoftmaxMatmul(std::vector<KernelDesc> &out) {
  for (TypeAndPrecision mm : {TypeAndPrecision{DType::F32, Precision::IEEE},
                              TypeAndPrecision{DType::F32, Precision::TF32},
                              TypeAndPrecision{DType::F32, Precision::TF32x3},
                              TypeAndPrecision{DType::F16, Precision::IEEE},
                              TypeAndPrecision{DType::BF16, Precision::IEEE}})
    for (auto [bm, bk, bn, warps] :
         {std::tuple<int32_t, int32_t, int32_t, int32_t>{16, 16, 64, 4},
          {32, 32, 64, 4},
          {64, 64, 64, 4},
          {32, 32, 128, 4},
          {64, 32, 128, 8},
          {64, 32, 256, 8},
          // Warp tiles of 32 rows halve the shared reads per product; 128
          // columns halve the exponentials.
          {128, 32, 64, 4},
          {64, 32, 128, 4},
          {128, 32, 128, 8},
          {64, 32, 64, 4},
          // 256 columns with all warps along M (the widest wgmma) halve the
          // exponentials again: f16/bf16 and tf32 only.
          {64, 32, 256, 4},
          {128, 32, 256, 8},
          // 64-wide d2 steps halve the accumulator's rescales per product
          // (2-byte types only: a tf32 stage would take 96 KiB).
          {128, 64, 256, 8}}) {
      bool wide = bn == 256 && bm / 16 >= warps;
      if (wide && mm.t == DType::F32 && mm.p != Precision::TF32)
        continue;
      if (wide && bk == 64 && mm.t == DType::F32)
        continue;
      // The FMA path (f32 ieee) unpipelined keeps both operand tiles and
      // the accumulator in registers: the largest need more than 255.
      bool fmaPath = mm.t == DType::F32 && mm.p == Precision::IEEE;
      bool fmaUnpipelinedFits =
          (bm * bk + bk * bn + bm * bn) / (32 * warps) <= 112;
      bool tensorCores = !fmaPath;
      bool warpsAlongM = bm / 16 >= warps;
      bool hopperPath = mm.t != DType::F32 || mm.p == Precision::TF32;
      SoftmaxMatmulKernel c;
      c.dtype = mm.t;
      c.precision = mm.p;
      c.blockM = bm;
      c.blockK = bk;
      c.blockN = bn;
      c.warps = warps;
      for (int32_t stages : {0, 2, 3, 4}) {
        if (fmaPath && !stages && !fmaUnpipelinedFits)
          continue;
        // Pipelines (cp.async) for the tensor-core tiles with all warps
        // along M, whose dot reads V from the pipeline's buffer, and for
        // the FMA path's tiles with 16-row warp tiles.
        bool fmaPipelined = fmaPath && stages == 2 && bk >= 32 && bm >= 64;
        if (stages && !(tensorCores && warpsAlongM && bk >= 32) &&
            !fmaPipelined)
          continue;
        // Four stages only for the wide Hopper tiles with wgmma in flight.
        if (stages == 4 && !(wide && hopperPath))
          continue;
        // The wide tiles fit in registers only with V read from the
        // pipeline's buffer.
        if (wide && !stages)
          continue;
        c.stages = stages;
        // Two-stage 4-warp tiles also with 4 programs per SM requested
        // (128 registers per thread).
        for (int32_t minPrograms : {0, 4}) {
          if (minPrograms && (wide || !(stages == 2 && warps == 4 && bk == 32)))
            continue;
          c.minProgramsPerSM = minPrograms;
          for (MatmulProduct product :
               {MatmulProduct::Mma, MatmulProduct::Wgmma,
                MatmulProduct::WgmmaInFlight,
                MatmulProduct::WgmmaTransposedInFlight}) {
            bool hopper = product != MatmulProduct::Mma;
            if (hopper && !(hopperPath && stages))
              continue;
            // A wgmma left running needs a stage it does not read: 3 or
            // more.
            if (product == MatmulProduct::WgmmaInFlight &&
                !(wide && stages >= 3))
              continue;
            // tf32 with the product transposed: V's stage stays row-major
            // (16-byte copies) instead of being transposed element-wise.
            if (product == MatmulProduct::WgmmaTransposedInFlight &&
                !(mm.t == DType::F32 && stages == 3 && bn % (16 * warps) == 0))
              continue;
            if (stages == 4 && product != MatmulProduct::WgmmaInFlight)
              continue;
            c.product = product;
            c.tma = false;
            out.push_back(toDesc(c));
            // TMA copies of X's and V's blocks for the widest 2-byte tile
            // and the transposed tf32 tile.
            bool tmaTwin = (product == MatmulProduct::WgmmaInFlight &&
                            mm.t != DType::F32 && bm == 128 && bk == 64 &&
                            bn == 256 && stages == 4) ||
                           (product == MatmulProduct::WgmmaTransposedInFlight &&
                            bm == 128 && bk == 32 && bn == 256 && stages == 3 &&
                            warps == 8);
            if (tmaTwin) {
              c.tma = true;
              out.push_back(toDesc(c));
              c.tma = false;
            }
            // The widest 2-byte tile with a producer warpgroup instead,
            // over 3 or 4 stages: its products waited for in their step
            // (the consumers' two warpgroups overlap each other's), or each
            // left running over the next block's softmax.
            if (tmaTwin && mm.t != DType::F32)
              for (int32_t ring : {3, 4})
                for (MatmulProduct wsProduct :
                     {MatmulProduct::Wgmma, MatmulProduct::WgmmaInFlight}) {
                  SoftmaxMatmulKernel ws = c;
                  ws.product = wsProduct;
                  ws.stages = ring;
                  addSpecialized(out, ws);
                }
          }
        }
      }
    }
  // tf32x3 with the product transposed: wgmma reads P's tf32 parts and
  // remainders from its buffer, V's split fragments from registers; each
  // step's products start from zero and are added in f32, in the step or
  // (in flight) in the next one. (256 columns spill.)
  for (auto [bm, bk, bn, warps] :
       {std::tuple<int32_t, int32_t, int32_t, int32_t>{128, 32, 128, 8},
        {64, 32, 128, 4}})
    for (int32_t stages : {2, 3})
      for (MatmulProduct product : {MatmulProduct::WgmmaTransposed,
                                    MatmulProduct::WgmmaTransposedInFlight}) {
        SoftmaxMatmulKernel c;
        c.dtype = DType::F32;
        c.precision = Precision::TF32x3;
        c.blockM = bm;
        c.blockK = bk;
        c.blockN = bn;
        c.warps = warps;
        c.stages = stages;
        c.product = product;
        out.push_back(toDesc(c));
      }
  // 128-wide d2 steps with a producer warpgroup: half the accumulator's
  // rescales per product of the 64-wide steps, over a ring of 2 stages
  // (96 KiB each).
  for (DType t : {DType::F16, DType::BF16})
    for (MatmulProduct product :
         {MatmulProduct::Wgmma, MatmulProduct::WgmmaInFlight}) {
      SoftmaxMatmulKernel c;
      c.dtype = t;
      c.precision = Precision::IEEE;
      c.blockM = 128;
      c.blockK = 128;
      c.blockN = 256;
      c.warps = 8;
      c.stages = 2;
      c.product = product;
      addSpecialized(out, c);
    }
  // (The split-columns kernels, a row's softmax once for 512 columns,
  // are valid descriptions but not in the space: on an H200 the best of
  // them ran 7-12% slower than the best of the rest at every d2; see
  // docs/perf-notes.md.)
  // tf32 with a producer warpgroup, V read transposed (a transposition
  // into the workspace first): 32- and 64-wide d2 steps (stages of 48 and
  // 96 KiB), and 128 columns (twice the programs, each storing half as
  // much, for short rows). tf32x3 (V's remainders streamed too, each
  // step's products summed apart) with 128 columns only: the step's sum
  // takes as many registers as the accumulator.
  for (int32_t bn : {256, 128})
    for (auto [bk, stages] :
         {std::pair<int32_t, int32_t>{32, 2}, {32, 3}, {32, 4}, {64, 2}})
      for (MatmulProduct product :
           {MatmulProduct::Wgmma, MatmulProduct::WgmmaInFlight}) {
        SoftmaxMatmulKernel c;
        c.dtype = DType::F32;
        c.blockM = 128;
        c.blockK = bk;
        c.blockN = bn;
        c.warps = 8;
        c.stages = stages;
        c.product = product;
        c.specialized = c.vTransposed = true;
        // Those waiting for their products in the step also persistent,
        // and in clusters of two row blocks sharing V^T's blocks.
        auto add = [&](SoftmaxMatmulKernel k) {
          out.push_back(toDesc(k));
          if (k.product != MatmulProduct::Wgmma)
            return;
          k.persistent = true;
          out.push_back(toDesc(k));
          k.persistent = false;
          k.cluster = 2;
          out.push_back(toDesc(k));
        };
        c.precision = Precision::TF32;
        if (bn == 256 || (stages != 4 && product == MatmulProduct::Wgmma))
          add(c);
        c.precision = Precision::TF32x3;
        if (bn == 128 && product == MatmulProduct::Wgmma)
          add(c);
      }
  // Short rows (d2 <= block_k): the softmax of a program's 64 rows once,
  // kept in registers as the dot's A operand, times 4 or 8 consecutive
  // column blocks of V (pipelined over 2 stages), each stored before the
  // next. tf32 on Hopper takes P through a shared buffer with the product
  // transposed. Stages of V up to 32 KiB (two or more programs per SM).
  for (TypeAndPrecision mm : {TypeAndPrecision{DType::F32, Precision::TF32},
                              TypeAndPrecision{DType::F16, Precision::IEEE},
                              TypeAndPrecision{DType::BF16, Precision::IEEE}})
    for (int32_t bk : {64, 128, 256})
      for (int32_t bn : {64, 128})
        for (int32_t products : {4, 8})
          for (bool hopper : {false, true}) {
            bool transposed = mm.t == DType::F32 && hopper;
            if ((mm.t == DType::F32 && bk > 128) ||
                (transposed && (bn != 64 || bk != 64)) ||
                bk * bn * (mm.t == DType::F32 ? 4 : 2) > 32768)
              continue;
            SoftmaxMatmulKernel c;
            c.dtype = mm.t;
            c.precision = mm.p;
            c.blockM = 64;
            c.blockK = bk;
            c.blockN = bn;
            c.warps = 4;
            c.stages = 2;
            c.product = !hopper      ? MatmulProduct::Mma
                        : transposed ? MatmulProduct::WgmmaTransposed
                                     : MatmulProduct::Wgmma;
            c.residentProducts = products;
            out.push_back(toDesc(c));
          }
}

class SoftmaxMatmulOp final : public OpSpec {
public:
  SoftmaxMatmulOp()
      : OpSpec("softmax_matmul",
               {dtypeField(), precisionField(), intField("block_m"),
                intField("block_k"), intField("block_n"), intField("warps"),
                intField("stages"), intField("min_programs_per_sm"),
                enumField("product", productNames()), boolField("tma"),
                intField("resident_products"), boolField("specialized"),
                intField("cluster"), boolField("cluster_columns"),
                boolField("v_transposed"), boolField("transposes_v"),
                boolField("persistent"), boolField("split_columns"),
                boolField("pingpong")},
               {dtypeField(/*key=*/true), precisionField(/*key=*/true),
                intField("batch"), intField("d1"), intField("d2"),
                intField("d3"), boolField("tma_readable")}) {}

  std::string whyInvalid(const KernelDesc &desc) const override {
    SoftmaxMatmulKernel k = toSoftmaxMatmulKernel(desc);
    if (k.transposesV)
      return (toDesc(k) == toDesc(vTransposition(k.precision, 64)) ||
              toDesc(k) == toDesc(vTransposition(k.precision, 32))) &&
                     k.precision != Precision::IEEE
                 ? ""
                 : "the V transposition is f32 tf32 or tf32x3, blocks of "
                   "64 x 64 over 4 warps or 32 x 32 over one, nothing else";
    if (k.dtype != DType::F32 && k.precision != Precision::IEEE)
      return "f16 and bf16 products are IEEE (exact in f32)";
    for (int32_t b : {k.blockM, k.blockK, k.blockN})
      if (!isPowerOf2(b) || b < 16 ||
          b > (b == k.blockN && k.splitColumns ? 512 : 256))
        return "blocks must be powers of two from 16 to 256 (block_n up to "
               "512 with split columns)";
    if (k.splitColumns &&
        (!k.specialized || k.dtype == DType::F32 || k.warps != 8 ||
         k.blockM != 64 || k.blockN < 128 || k.clusterColumns || k.persistent))
      return "split columns are for specialized f16/bf16 kernels over 8 "
             "warps with block_m 64 and block_n from 128, alone or in "
             "clusters of row blocks";
    if (!isPowerOf2(k.warps) || k.warps > 16)
      return "warps must be a power of two up to 16";
    if (k.stages != 0 && (k.stages < 2 || k.stages > 4))
      return "stages must be 0 (loads) or 2 to 4";
    if (k.minProgramsPerSM < 0 || k.minProgramsPerSM > 32)
      return "min_programs_per_sm must be 0 to 32";
    bool wgmma = k.product != MatmulProduct::Mma;
    bool fma = k.dtype == DType::F32 && k.precision == Precision::IEEE;
    if (wgmma && (fma || k.stages < 2))
      return "wgmma products need tensor-core types and a pipeline";
    bool transposed = k.product == MatmulProduct::WgmmaTransposed ||
                      k.product == MatmulProduct::WgmmaTransposedInFlight;
    if (transposed && k.dtype != DType::F32)
      return "transposed products are for tf32 and tf32x3";
    if (wgmma && !transposed && k.precision == Precision::TF32x3 &&
        !k.vTransposed)
      return "tf32x3 wgmma products are transposed, or read V transposed";
    if (k.product == MatmulProduct::WgmmaInFlight && k.stages < 3 &&
        !k.specialized)
      return "a wgmma in flight needs 3 or more stages (a producer's ring "
             "2)";
    if (k.tma && !wgmma)
      return "TMA copies are for the wgmma kernels";
    if (k.vTransposed && (!k.specialized || k.dtype != DType::F32 ||
                          k.precision == Precision::IEEE || k.clusterColumns))
      return "V is read transposed by specialized tf32 and tf32x3 kernels, "
             "alone or in clusters of row blocks";
    if (k.persistent &&
        (!k.specialized || k.cluster || k.product != MatmulProduct::Wgmma))
      return "persistent programs are specialized, alone, their products "
             "waited for in the step";
    if (k.vTransposed && k.precision == Precision::TF32x3 &&
        k.product != MatmulProduct::Wgmma)
      return "tf32x3 reading V transposed waits for its products in the step";
    if (k.specialized && ((k.product != MatmulProduct::Wgmma &&
                           k.product != MatmulProduct::WgmmaInFlight) ||
                          (k.dtype == DType::F32 && !k.vTransposed) || k.tma ||
                          k.residentProducts || k.warps % 4 != 0))
      return "a producer warpgroup serves plain wgmma products of f16 or "
             "bf16 (or tf32 reading V transposed) over whole warpgroups, "
             "without the consumers' TMA copies";
    if (k.residentProducts &&
        (!isPowerOf2(k.residentProducts) || k.residentProducts > 8 ||
         k.stages != 2 || k.tma))
      return "short-row kernels take 1 to 8 products over a 2-stage pipeline";
    if (k.cluster != 0 &&
        (!k.specialized || !isPowerOf2(k.cluster) || k.cluster < 2 ||
         k.cluster > 8 || k.blockK % k.cluster != 0))
      return "clusters (2 to 8 programs, a power of two dividing block_k) "
             "share the producer warpgroups' copies of V";
    if (k.pingpong &&
        (!k.specialized || k.dtype == DType::F32 || k.warps != 8 ||
         k.blockM != 128 || k.splitColumns || k.cluster || k.persistent))
      return "ping-pong takes the two warpgroups of a specialized f16/bf16 "
             "kernel of 128 rows, alone and not persistent";
    if (k.clusterColumns &&
        (k.cluster < 2 || k.blockM % k.cluster != 0 || k.residentProducts))
      return "clusters of column blocks (a power of two dividing block_m) "
             "share the producer warpgroups' copies of X";
    return "";
  }

  Target getTarget(const KernelDesc &k) const override {
    // The transposition runs before the `_vt` kernels only, which it lets
    // start early (tile.launch_dependents, sm_90).
    if (k.params[TransposesV])
      return Target::Sm90a;
    return MatmulProduct(k.params[Product]) == MatmulProduct::Mma
               ? Target::Sm80
               : Target::Sm90a;
  }

  bool admits(const KernelDesc &desc, const Problem &p,
              const DeviceInfo &) const override {
    SoftmaxMatmulKernel k = toSoftmaxMatmulKernel(desc);
    if (k.transposesV)
      return false;
    if (int64_t(k.dtype) != p.values[PType] ||
        int64_t(k.precision) != p.values[PPrecision])
      return false;
    if (k.residentProducts && p.values[PD2] > k.blockK)
      return false;
    if ((k.tma || k.specialized) && !p.values[PTmaReadable])
      return false;
    int64_t rows = rowPrograms(k, p.values[PD1]),
            cols = columnPrograms(k, p.values[PD3]);
    if (k.clusterColumns)
      std::swap(rows, cols);
    return cols <= kGridYZMax && rows <= kInt32Max &&
           p.values[PBatch] <= kGridYZMax;
  }

  /// Points of the problem's TMA readability first, then by the ratios of
  /// batch x d1, d2 and d3 (ties: the longer d2).
  std::array<double, 4> distance(const Problem &point,
                                 const Problem &p) const override {
    const int64_t *a = point.values, *b = p.values;
    double d =
        logRatio(double(a[PBatch]) * a[PD1], double(b[PBatch]) * b[PD1]) +
        logRatio(a[PD2], b[PD2]) + logRatio(a[PD3], b[PD3]);
    return {double(a[PTmaReadable] != b[PTmaReadable]), d, -double(a[PD2]), 0};
  }

  /// One program per blockM rows and columnsPerProgram columns of a batch
  /// (the cluster's axis rounded up to whole clusters: programs past d1 or
  /// d3 store nothing); clusters of column blocks put those along x.
  LaunchPlan plan(const KernelDesc &desc, const Problem &p,
                  const DeviceInfo &device) const override {
    SoftmaxMatmulKernel k = toSoftmaxMatmulKernel(desc);
    LaunchPlan plan;
    plan.grid[0] = (uint32_t)rowPrograms(k, p.values[PD1]);
    plan.grid[1] = (uint32_t)columnPrograms(k, p.values[PD3]);
    if (k.clusterColumns)
      std::swap(plan.grid[0], plan.grid[1]);
    if (k.persistent) {
      // The SMs shared among the batch entries (at least one program
      // each), never more programs than an entry's tiles.
      int64_t tiles = int64_t(plan.grid[0]) * plan.grid[1];
      int64_t perEntry = std::max<int64_t>(1, device.sms / p.values[PBatch]);
      plan.grid[0] = (uint32_t)std::min(tiles, perEntry);
      plan.grid[1] = 1;
    }
    plan.grid[2] = (uint32_t)p.values[PBatch];
    if (k.vTransposed) {
      // V^T [batch, d3, d2p] in the workspace, written by the
      // transposition first; this kernel reads it as its V.
      int64_t d2 = p.values[PD2], d3 = p.values[PD3];
      int64_t d2p = (d2 + 3) / 4 * 4;
      int32_t block = vTranspositionBlock(p.values[PBatch], d2, d3);
      plan.hasPrelude = true;
      plan.prelude = toDesc(vTransposition(k.precision, block));
      plan.preludeGrid[0] = (uint32_t)ceilDiv(d2, block);
      plan.preludeGrid[1] = (uint32_t)ceilDiv(d3, block);
      plan.preludeGrid[2] = (uint32_t)p.values[PBatch];
      // tf32x3: the remainders' array after it, its pointer the kernel's
      // 16th argument.
      size_t part = size_t(p.values[PBatch] * d3 * d2p * 4);
      bool split = k.precision == Precision::TF32x3;
      plan.workspaceBytes = std::max<size_t>(16, split ? 2 * part : part);
      if (split) {
        plan.numWorkspaceArgs = 1;
        plan.workspaceArgOffsets[0] = part;
      }
      plan.numReplacedArgs = 4;
      plan.replacedArgs[0] = {2, true, 0};
      plan.replacedArgs[1] = {12, false, d3 * d2p};
      plan.replacedArgs[2] = {13, false, d2p};
      plan.replacedArgs[3] = {14, false, 1};
    }
    return plan;
  }

  std::vector<KernelDesc>
  getCompanionKernels(const KernelDesc &desc) const override {
    SoftmaxMatmulKernel k = toSoftmaxMatmulKernel(desc);
    if (!k.vTransposed)
      return {};
    return {toDesc(vTransposition(k.precision, 64)),
            toDesc(vTransposition(k.precision, 32))};
  }

  bool isPrelude(const KernelDesc &desc) const override {
    return toSoftmaxMatmulKernel(desc).transposesV;
  }

  std::vector<KernelDesc> getConfigurationSpace() const override {
    std::vector<KernelDesc> out;
    addSoftmaxMatmul(out);
    return out;
  }

  /// An unpipelined 32 x 32 x 64 mma.sync tile of each dtype and
  /// precision: any size, sm_80.
  std::vector<KernelDesc> getFallbackKernels() const override {
    std::vector<KernelDesc> out;
    for (TypeAndPrecision mm : kTypes) {
      SoftmaxMatmulKernel c;
      c.dtype = mm.t;
      c.precision = mm.p;
      c.blockM = 32;
      c.blockK = 32;
      c.blockN = 64;
      c.warps = 4;
      out.push_back(toDesc(c));
    }
    return out;
  }

  std::vector<std::function<bool(const KernelDesc &)>>
  getConditions() const override {
    return {[](const KernelDesc &k) {
              return k.params[Tma] != 0 || k.params[Specialized] != 0;
            },
            needsSm90a, needsSm90};
  }

  /// The fused softmax-matmul assignment's shapes (batch 16, d1 2048, d3
  /// 512, d2 from 64 to 8192), and fewer rows and columns; contiguous
  /// tensors, TMA-readable where their rows are multiples of 16 bytes. With
  /// sizes given, every combination of the given ones and the assignment's.
  std::vector<Problem> getTuningProblems(
      const std::map<std::string, std::vector<int64_t>> &given) const override {
    std::vector<std::array<int64_t, 4>> shapes;
    bool sized = false;
    for (const char *f : {"batch", "d1", "d2", "d3"})
      sized |= given.count(f) != 0;
    if (sized) {
      auto values = [&](const char *field, std::vector<int64_t> defaults) {
        auto it = given.find(field);
        return it == given.end() ? defaults : it->second;
      };
      std::vector<int64_t> d2s;
      for (int64_t d2 = 64; d2 <= 8192; d2 *= 2)
        d2s.push_back(d2);
      for (int64_t b : values("batch", {16}))
        for (int64_t d1 : values("d1", {2048}))
          for (int64_t d2 : values("d2", d2s))
            for (int64_t d3 : values("d3", {512}))
              shapes.push_back({b, d1, d2, d3});
    } else {
      for (int64_t d2 = 64; d2 <= 8192; d2 *= 2)
        shapes.push_back({16, 2048, d2, 512});
      for (int64_t d2 : {64, 512, 4096}) {
        shapes.push_back({16, 256, d2, 512});
        shapes.push_back({16, 2048, d2, 64});
      }
    }
    auto chosen = [&](const char *field, int64_t v) {
      auto it = given.find(field);
      return it == given.end() ||
             std::count(it->second.begin(), it->second.end(), v) != 0;
    };
    std::vector<Problem> out;
    for (TypeAndPrecision mm : kTypes) {
      if (!chosen("dtype", int64_t(mm.t)) ||
          !chosen("precision", int64_t(mm.p)))
        continue;
      for (const auto &s : shapes) {
        int64_t esize = getBytes(mm.t);
        bool tma = (s[2] * esize) % 16 == 0 && (s[3] * esize) % 16 == 0;
        out.push_back(
            softmaxMatmulProblem(mm.t, mm.p, s[0], s[1], s[2], s[3], tma));
      }
    }
    return out;
  }

  /// Two batches of 37 rows; d2 within one step, within a short-row
  /// kernel's block and over several steps; d3 within one column block and
  /// over several; contiguous, TMA-readable where the rows are multiples of
  /// 16 bytes.
  std::vector<Problem> getTestProblems() const override {
    std::vector<Problem> out;
    for (TypeAndPrecision mm : kTypes)
      for (int64_t d2 : {5, 64, 300})
        for (int64_t d3 : {40, 520}) {
          int64_t esize = getBytes(mm.t);
          bool tma = (d2 * esize) % 16 == 0 && (d3 * esize) % 16 == 0;
          out.push_back(softmaxMatmulProblem(mm.t, mm.p, 2, 37, d2, d3, tma));
        }
    return out;
  }

  /// Contiguous tensors (TMA-readable where the rows are multiples of 16
  /// bytes); three rows of the last batch checked.
  TestCase makeTestCase(const Problem &p, uint64_t seed) const override {
    DType t = DType(p.values[PType]);
    Precision prec = Precision(p.values[PPrecision]);
    int64_t batch = p.values[PBatch], d1 = p.values[PD1], d2 = p.values[PD2],
            d3 = p.values[PD3];
    int64_t esize = getBytes(t);
    TestCase c;
    c.tensors.resize(3); // out, x, v
    c.tensors[0].bytes = size_t(batch * d1 * d3 * esize);
    c.tensors[1].bytes = size_t(batch * d1 * d2 * esize);
    c.tensors[2].bytes = size_t(batch * d2 * d3 * esize);
    c.tensors[1].pattern = randomPattern(
        t, size_t(std::min<int64_t>(batch * d1 * d2, int64_t(1) << 22)), 1.0,
        seed);
    c.tensors[2].pattern = randomPattern(
        t, size_t(std::min<int64_t>(batch * d2 * d3, int64_t(1) << 22)), 1.0,
        seed + 1);
    using Arg = TestCase::Arg;
    c.args = {{Arg::Pointer, 0, 0}, {Arg::Pointer, 0, 1}, {Arg::Pointer, 0, 2},
              {Arg::I32, d1},       {Arg::I32, d2},       {Arg::I32, d3}};
    for (int64_t s : {d1 * d3, d3, int64_t(1), d1 * d2, d2, int64_t(1), d2 * d3,
                      d3, int64_t(1)})
      c.args.push_back({Arg::I64, s});
    std::vector<int64_t> sampled{0, d1 / 2, d1 - 1};
    for (int64_t r : sampled)
      c.samples.push_back(
          {0, size_t(((batch - 1) * d1 + r) * d3 * esize), size_t(d3 * esize)});
    std::vector<char> xs = c.tensors[1].pattern, vs = c.tensors[2].pattern;
    c.check = [=](const std::vector<std::vector<char>> &got) {
      std::vector<double> v(d2 * d3);
      for (int64_t i = 0; i < d2 * d3; ++i)
        v[i] = elementAt(vs, t, size_t(((batch - 1) * d2 * d3 + i) * esize));
      for (size_t s = 0; s < sampled.size(); ++s) {
        std::vector<double> x(d2), o(d3);
        for (int64_t i = 0; i < d2; ++i)
          x[i] = elementAt(
              xs, t,
              size_t((((batch - 1) * d1 + sampled[s]) * d2 + i) * esize));
        for (int64_t i = 0; i < d3; ++i)
          o[i] = decode(t, &got[s][i * esize]);
        std::string why = compareValues(
            o,
            mlir::tile::reference::referenceSoftmaxMatmul(x, v, 1, 1, d2, d3),
            tolerance(t, prec));
        if (!why.empty())
          return "row " + std::to_string(sampled[s]) + ": " + why;
      }
      return std::string();
    };
    return c;
  }
};
} // namespace

const OpSpec &getSoftmaxMatmulOp() {
  static const SoftmaxMatmulOp op;
  return op;
}

KernelDesc toDesc(const SoftmaxMatmulKernel &k) {
  KernelDesc d = getSoftmaxMatmulOp().makeKernel();
  d.params[Type] = int32_t(k.dtype);
  d.params[Prec] = int32_t(k.precision);
  d.params[BlockM] = k.blockM;
  d.params[BlockK] = k.blockK;
  d.params[BlockN] = k.blockN;
  d.params[Warps] = k.warps;
  d.params[Stages] = k.stages;
  d.params[MinProgramsPerSM] = k.minProgramsPerSM;
  d.params[Product] = int32_t(k.product);
  d.params[Tma] = k.tma;
  d.params[ResidentProducts] = k.residentProducts;
  d.params[Specialized] = k.specialized;
  d.params[Cluster] = k.cluster;
  d.params[ClusterColumns] = k.clusterColumns;
  d.params[VTransposed] = k.vTransposed;
  d.params[TransposesV] = k.transposesV;
  d.params[Persistent] = k.persistent;
  d.params[SplitColumns] = k.splitColumns;
  d.params[PingPong] = k.pingpong;
  return d;
}

SoftmaxMatmulKernel toSoftmaxMatmulKernel(const KernelDesc &d) {
  SoftmaxMatmulKernel k;
  k.dtype = DType(d.params[Type]);
  k.precision = Precision(d.params[Prec]);
  k.blockM = d.params[BlockM];
  k.blockK = d.params[BlockK];
  k.blockN = d.params[BlockN];
  k.warps = d.params[Warps];
  k.stages = d.params[Stages];
  k.minProgramsPerSM = d.params[MinProgramsPerSM];
  k.product = MatmulProduct(d.params[Product]);
  k.tma = d.params[Tma] != 0;
  k.residentProducts = d.params[ResidentProducts];
  k.specialized = d.params[Specialized] != 0;
  k.cluster = d.params[Cluster];
  k.clusterColumns = d.params[ClusterColumns] != 0;
  k.vTransposed = d.params[VTransposed] != 0;
  k.transposesV = d.params[TransposesV] != 0;
  k.persistent = d.params[Persistent] != 0;
  k.splitColumns = d.params[SplitColumns] != 0;
  k.pingpong = d.params[PingPong] != 0;
  return k;
}

SoftmaxMatmulKernel vTransposition(Precision p, int32_t block) {
  SoftmaxMatmulKernel k;
  k.dtype = DType::F32;
  k.precision = p;
  k.blockM = k.blockK = k.blockN = block;
  k.warps = block == 64 ? 4 : 1;
  k.transposesV = true;
  return k;
}

int32_t vTranspositionBlock(int64_t batch, int64_t d2, int64_t d3) {
  return batch * d2 * d3 <= (int64_t(1) << 24) ? 32 : 64;
}

Problem softmaxMatmulProblem(DType t, Precision p, int64_t batch, int64_t d1,
                             int64_t d2, int64_t d3, bool tmaReadable) {
  Problem q;
  q.values[PType] = int64_t(t);
  q.values[PPrecision] = int64_t(t == DType::F32 ? p : Precision::IEEE);
  q.values[PBatch] = batch;
  q.values[PD1] = d1;
  q.values[PD2] = d2;
  q.values[PD3] = d3;
  q.values[PTmaReadable] = tmaReadable;
  return q;
}

const char *getName(MatmulProduct p) {
  return getSoftmaxMatmulOp()
      .getParams()[Product]
      .enumerators.at(size_t(p))
      .c_str();
}

} // namespace catalogue
} // namespace tile
