//===- ConfigurationSpace.cpp - Every buildable library kernel ------------===//
//
// Which configurations are worth measuring, with the reason for each
// family; which of them the library dispatches to is the tuning tables'
// business (tile-tune), not this file's.
//
//===----------------------------------------------------------------------===//

#include "tile/Catalogue/ConfigurationSpace.h"

#include <algorithm>
#include <initializer_list>
#include <set>
#include <tuple>

namespace tile {
namespace catalogue {

namespace {
struct RowShape {
  int32_t block, rows, warps;
};

KernelDesc softmaxDesc(const SoftmaxKernel &k) {
  KernelDesc d;
  d.op = Op::Softmax;
  d.softmax = k;
  return d;
}

KernelDesc matmulDesc(const SoftmaxMatmulKernel &k) {
  KernelDesc d;
  d.op = Op::SoftmaxMatmul;
  d.softmaxMatmul = k;
  return d;
}

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
  auto add = [&](const SoftmaxKernel &k) { out.push_back(softmaxDesc(k)); };
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
        out.push_back(softmaxDesc(k));
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
        out.push_back(softmaxDesc(k));
        // Four programs per SM requested (64 registers).
        if (rematerialize && block == 16384 && warps == 8) {
          k.minProgramsPerSM = 4;
          out.push_back(softmaxDesc(k));
        }
      }
  }
}

struct TypeAndPrecision {
  DType t;
  Precision p;
};

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
            out.push_back(matmulDesc(c));
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
              out.push_back(matmulDesc(c));
              c.tma = false;
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
        out.push_back(matmulDesc(c));
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
            out.push_back(matmulDesc(c));
          }
}
} // namespace

std::vector<KernelDesc> getConfigurationSpace() {
  std::vector<KernelDesc> out;
  for (DType t : {DType::F32, DType::F16, DType::BF16})
    addSoftmax(t, out);
  addLongRowSoftmax(out);
  addSoftmaxMatmul(out);
  return out;
}

std::vector<KernelDesc> getFallbackKernels() {
  std::vector<KernelDesc> out;
  for (DType t : {DType::F32, DType::F16, DType::BF16}) {
    SoftmaxKernel k;
    k.scheme = SoftmaxScheme::Online;
    k.dtype = t;
    k.alignment = RowAlignment::Element;
    k.block = 2048;
    k.warps = 8;
    out.push_back(softmaxDesc(k));
  }
  for (TypeAndPrecision mm : {TypeAndPrecision{DType::F32, Precision::IEEE},
                              TypeAndPrecision{DType::F32, Precision::TF32},
                              TypeAndPrecision{DType::F32, Precision::TF32x3},
                              TypeAndPrecision{DType::F16, Precision::IEEE},
                              TypeAndPrecision{DType::BF16, Precision::IEEE}}) {
    SoftmaxMatmulKernel c;
    c.dtype = mm.t;
    c.precision = mm.p;
    c.blockM = 32;
    c.blockK = 32;
    c.blockN = 64;
    c.warps = 4;
    out.push_back(matmulDesc(c));
  }
  return out;
}

} // namespace catalogue
} // namespace tile
