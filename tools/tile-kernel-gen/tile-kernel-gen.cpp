//===- tile-kernel-gen.cpp - Build the runtime library's kernels ----------===//
//
// Builds every variant of the library kernels (see LibraryKernels.h),
// compiles each with Tile's compiler and writes a C++ source that embeds
// the images and their metadata in the runtime library:
//
//   tile-kernel-gen -o embedded_kernels.cpp [--chip sm_80] [--mlir-dir D]
//
//===----------------------------------------------------------------------===//

#include "tile/Kernels/LibraryKernels.h"
#include "tile/Target/Compile.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cstdio>
#include <functional>
#include <set>
#include <tuple>

using namespace mlir;
using namespace mlir::tile;
namespace cl = llvm::cl;

static cl::opt<std::string> outputFile("o", cl::desc("Output C++ file"),
                                       cl::Required);
static cl::opt<std::string> chip("chip",
                                 cl::desc("Target (PTX for sm_80 runs on every "
                                          "later GPU through the driver's JIT)"),
                                 cl::init("sm_80"));
static cl::opt<std::string>
    mlirDir("mlir-dir", cl::desc("Also write each kernel's tile IR here"),
            cl::init(""));
static cl::opt<std::string>
    only("only",
         cl::desc("Only the variants whose name contains this (development)"),
         cl::init(""));

namespace {
/// One row of the runtime's kernel table (see runtime/src/LibraryOps.cpp).
struct Variant {
  std::string name;
  int family; // 0 rows, 1 online, 2 softmax_matmul, 3 rows persistent,
              // 4 softmax cluster, 5 softmax_matmul for short rows,
              // 6 rows for tuning only, 7 softmax cluster looping over
              // slices of rows, 8 softmax rows split over the grid, 9
              // 2-byte rows rematerialized (`_rm`)
  int in, out, rows, block, warps, aligned, precision, bm, bk, bn;
  std::function<void(ModuleOp)> build;
  /// Compiled for this chip instead of --chip (sm_90a: the Hopper
  /// variants), and the compute capability it then needs (90; 0: any).
  std::string chip = "";
  int arch = 0;
  int clusterSize = 0;
  int tail = 0; // softmax rows: columns held past `block` (a second tile)
};
} // namespace

/// A softmax-matmul row of the kernel table (family 2, or 5 for the
/// short-row kernels); `columns` is its block_n, the output columns per
/// program. Hopper configurations are built for sm_90a.
static Variant softmaxMatmulVariant(const SoftmaxMatmulConfig &c, int family,
                                    int64_t columns,
                                    std::function<void(ModuleOp)> build) {
  Variant v{getKernelName(c),
            family,
            (int)c.dtype,
            (int)c.dtype,
            0,
            0,
            (int)c.numWarps,
            0,
            (int)c.precision,
            (int)c.blockM,
            (int)c.blockK,
            (int)columns,
            std::move(build)};
  if (c.hopper) {
    v.chip = "sm_90a";
    v.arch = 90;
  }
  return v;
}

namespace {
struct Rows {
  int64_t block, rows, warps;
};
} // namespace

/// Whether the dispatcher takes this two-tile row kernel (the smallest
/// second tile that holds the row) over the one-tile and online kernels.
/// Measured on an H200, 2026-11-24 (bench/scripts/tune_softmax_tail.py,
/// GB/s at M = 4096, against the previous choice): f32 faster or level
/// from 640 to 24576 columns (20000: 4006 against 3059 for the cluster
/// kernel; 768: 2431 against 2306), except 4 rows of 256 + 128 (384:
/// 1608 against 1677). The 2-byte types gained only where listed (f16
/// 768: 1608 against 1414; 5000: 2527 against 2358; 10000: 2676 against
/// 2610; 20000: 2957 against 2598 online) and lost elsewhere (3000: 2456
/// against 2586; 24576: 2155 against 2630 online).
static bool isTwoTileDefault(ElemType t, const Rows &r, int64_t tail) {
  if (t == ElemType::F32)
    return !(r.rows > 1 && r.block == 256);
  struct Kept {
    int64_t block, rows, warps, tail;
  };
  for (Kept k : {Kept{512, 4, 4, 256}, Kept{4096, 1, 4, 1024},
                 Kept{8192, 1, 16, 4096}, Kept{16384, 1, 16, 4096}})
    if (k.block == r.block && k.rows == r.rows && k.warps == r.warps &&
        k.tail == tail)
      return true;
  return false;
}

static std::vector<Variant> listVariants() {
  std::vector<Variant> out;
  // The first entry per block width is the dispatcher's default; the others
  // are candidates for tuning (TILE_SOFTMAX_VARIANT).
  const Rows rowsTable[] = {{32, 32, 4},    {64, 16, 4},   {128, 8, 4},
                            {256, 4, 4},    {512, 4, 4},   {1024, 1, 4},
                            {1024, 4, 4},   {1024, 8, 8},  {2048, 1, 4},
                            {4096, 1, 8},   {8192, 1, 16}, {16384, 1, 16},
                            {32768, 1, 32},
                            // Half the warps: the same 16-byte vectors per
                            // thread for 2-byte types as the defaults give
                            // f32 (tuning candidates).
                            {2048, 1, 2},   {4096, 1, 4},  {8192, 1, 8},
                            {16384, 1, 8},  {32768, 1, 16}};
  for (ElemType t : {ElemType::F32, ElemType::F16, ElemType::BF16})
    for (bool aligned : {true, false}) {
      auto addRows = [&](Rows r, bool persistent, int64_t tail = 0,
                         bool tuningOnly = false, bool colsAligned = false,
                         bool rematerialize = false) {
        SoftmaxRowsConfig c;
        c.rematerialize = rematerialize;
        c.tail = tail;
        c.colsAligned = colsAligned;
        c.in = c.out = t;
        c.rows = r.rows;
        c.block = r.block;
        c.numWarps = r.warps;
        c.aligned = aligned;
        c.persistent = persistent;
        out.push_back({getKernelName(c),
                       persistent      ? 3
                       : rematerialize ? 9
                       : tuningOnly    ? 6
                                       : 0,
                       (int)t, (int)t, (int)r.rows, (int)r.block, (int)r.warps,
                       colsAligned ? 2 : (int)aligned, 0, 0, 0, 0,
                       [c](ModuleOp m) { buildSoftmaxRows(m, c); }});
        out.back().tail = (int)tail;
      };
      for (Rows r : rowsTable)
        addRows(r, /*persistent=*/false);
      // The dispatcher's defaults again for rows of a multiple of 16 bytes
      // (aligned 2 in the table): one mask bit per 16-byte vector, hence
      // predicated vector loads without a per-lane edge.
      if (aligned) {
        std::set<int64_t> blocks;
        for (Rows r : rowsTable)
          if (blocks.insert(r.block).second)
            addRows(r, /*persistent=*/false, 0, false, /*colsAligned=*/true);
      }
      // Rows between two powers of two: the defaults from 256 to 16384
      // columns with a second tile of a half or a quarter of the first
      // (rows of 1.5 x 2^k columns, 768 to 24576, are common widths, and
      // fill the tiles exactly). Aligned rows only: the unaligned kernels
      // move one element per lane access, and are not this close to copy.
      // Both tiles take one layout (the row statistics link them), whose
      // columns per row are 16 bytes per lane across the row's warps: the
      // warps are cut until the second tile fills that, since a smaller
      // tile would be replicated over the remaining warps (measured on an
      // H200: f16, 8192 + 2048 columns over 16 warps, 2136 GB/s against
      // 2644 for 8192 + 4096).
      int64_t laneColumns = 32 * (t == ElemType::F32 ? 4 : 8);
      if (aligned)
        for (Rows r : {Rows{256, 4, 4}, Rows{512, 4, 4}, Rows{1024, 1, 4},
                       Rows{2048, 1, 4}, Rows{4096, 1, 8}, Rows{8192, 1, 16},
                       Rows{16384, 1, 16}})
          for (int64_t tail : {r.block / 2, r.block / 4}) {
            int64_t rowWarps = std::min(r.warps / r.rows, tail / laneColumns);
            if (rowWarps == 0)
              continue;
            Rows built{r.block, r.rows, r.rows * rowWarps};
            bool kept = isTwoTileDefault(t, built, tail);
            addRows(built, /*persistent=*/false, tail, !kept);
            // (16384 + 4096 with one mask bit per vector measured slower:
            // f16 at 20000 columns 2587 GB/s against 2970, f32 3834
            // against 4013.)
            if (kept && !(built.block == 16384 && tail == 4096))
              addRows(built, /*persistent=*/false, tail, false,
                      /*colsAligned=*/true);
          }
      // 16384 + 8192 columns over 16 warps hold 48 values per thread (85
      // registers: one program per SM); 32 warps hold 24 (tuning
      // candidate: slower still).
      if (aligned)
        addRows({16384, 1, 32}, /*persistent=*/false, 8192,
                /*tuningOnly=*/true);
      // 2-byte rows held as loaded across the row reductions (their f32
      // values and exponentials recomputed after each: about half the
      // registers), for rows of a multiple of 16 bytes: the dispatcher's
      // kRematRowChoices (4096 and 8192 over 4 warps, 16384 over 8, 32768
      // over 16) and their neighbours. Measured on an H200 (2026-11-24,
      // tune_softmax_tail.py): f16 32768 columns 3985 GB/s against 3178
      // for the 32-warp kernel holding f32 exponentials (55 registers: one
      // program per SM; 32 with `_rm`); two-tile builds gained nothing
      // (f16 20000: 2901 against 2956 for 16384 + 4096).
      if (aligned && t != ElemType::F32)
        for (Rows r :
             {Rows{4096, 1, 4}, Rows{4096, 1, 8}, Rows{8192, 1, 4},
              Rows{8192, 1, 8}, Rows{8192, 1, 16}, Rows{16384, 1, 8},
              Rows{16384, 1, 16}, Rows{32768, 1, 16}, Rows{32768, 1, 32}})
          addRows(r, /*persistent=*/false, 0, /*tuningOnly=*/true,
                  /*colsAligned=*/true, /*rematerialize=*/true);
      // (Persistent rows through a cp.async pipeline, `stages`, measured
      // slower than these at 512-4096 f32 columns: H200, 2026-11-24,
      // docs/perf-notes.md session 14; not embedded.)
      // Persistent variants (loading the next rows during the current
      // ones) of the dispatcher's defaults up to 16384 columns.
      for (Rows r : {Rows{256, 4, 4}, Rows{512, 4, 4}, Rows{1024, 1, 4},
                     Rows{2048, 1, 4}, Rows{4096, 1, 8}, Rows{8192, 1, 16},
                     Rows{16384, 1, 16}})
        addRows(r, /*persistent=*/true);
      for (bool colsAligned : {false, true}) {
        if (colsAligned && !aligned)
          continue;
        SoftmaxOnlineConfig c;
        c.in = c.out = t;
        c.aligned = aligned;
        c.colsAligned = colsAligned;
        out.push_back({getKernelName(c), 1, (int)t, (int)t, 1, (int)c.block,
                       (int)c.numWarps, colsAligned ? 2 : (int)aligned, 0, 0, 0,
                       0, [c](ModuleOp m) { buildSoftmaxOnline(m, c); }});
      }
      // Rows split over clusters of 2 to 16 programs of 8192 to 32768
      // columns (32 per thread), aligned rows only: up to 524288 columns
      // read once. Clusters need sm_90, whose PTX runs on 9.0 and later.
      if (!aligned)
        continue;
      // Occupancy requests (registers capped) for the two smaller blocks:
      // programs waiting on their cluster's exchange leave the SM to others.
      struct Cluster {
        int64_t block, warps, minPrograms;
      };
      for (Cluster cl :
           {Cluster{8192, 8, 0}, Cluster{16384, 16, 0}, Cluster{32768, 32, 0},
            Cluster{8192, 8, 4}, Cluster{16384, 16, 2}})
        for (int64_t size : {2, 4, 8, 16}) {
          // 16-program clusters (non-portable) only for the two blocks that
          // reach rows of 262144 and 524288 columns: tuning candidates, so
          // far slower than 8 x 32768 and the online kernel.
          if (size == 16 && !(cl.block == 16384 && cl.minPrograms == 2) &&
              cl.block != 32768)
            continue;
          // Builds for rows of a multiple of 16 bytes: the dispatcher's
          // configurations (f32) and their f16/bf16 counterparts, in
          // clusters of 2 to 8.
          bool wholeRows = size <= 8 && (cl.minPrograms || cl.block == 32768);
          for (bool colsAligned : {false, true}) {
            if (colsAligned && !wholeRows)
              continue;
            SoftmaxClusterConfig cc;
            cc.colsAligned = colsAligned;
            cc.in = cc.out = t;
            cc.block = cl.block;
            cc.numWarps = cl.warps;
            cc.clusterSize = size;
            cc.aligned = true;
            cc.minProgramsPerSM = cl.minPrograms;
            Variant v{getKernelName(cc),
                      4,
                      (int)t,
                      (int)t,
                      1,
                      (int)cl.block,
                      (int)cl.warps,
                      colsAligned ? 2 : 1,
                      0,
                      0,
                      0,
                      0,
                      [cc](ModuleOp m) { buildSoftmaxCluster(m, cc); }};
            v.chip = "sm_90";
            v.clusterSize = (int)size;
            out.push_back(v);
          }
        }
    }
  // Clusters whose programs loop over slices of rows of any length (the
  // online kernel's passes per slice, `_l`), for rows of a multiple of 16
  // bytes: the dispatcher's choices beyond what clusters hold in registers
  // (kLoopClusterChoices) and their neighbours. Tuned on an H200
  // (2026-11-24, bench/scripts/tune_softmax_tail.py): clusters of 4,
  // 2048 columns per block, 32 warps and the builds without `_n16` were
  // slower (docs/perf-notes.md, session 11).
  for (ElemType t : {ElemType::F32, ElemType::F16, ElemType::BF16})
    for (int64_t size : {8, 16})
      for (auto [block, warps] :
           {std::pair<int64_t, int64_t>{4096, 8}, {8192, 16}}) {
        SoftmaxClusterConfig cc;
        cc.in = cc.out = t;
        cc.block = block;
        cc.numWarps = warps;
        cc.clusterSize = size;
        cc.colsAligned = true;
        cc.loop = true;
        Variant v{getKernelName(cc),
                  7,
                  (int)t,
                  (int)t,
                  1,
                  (int)block,
                  (int)warps,
                  2,
                  0,
                  0,
                  0,
                  0,
                  [cc](ModuleOp m) { buildSoftmaxCluster(m, cc); }};
        v.chip = "sm_90";
        v.clusterSize = (int)size;
        out.push_back(v);
      }
  // Rows split over programs anywhere in the grid (tile.wait_at_least on
  // a workspace), each slice held in registers: 32 or 64 elements per
  // thread (128 are over the register limit). A CUDA prototype of the
  // same scheme
  // (H200, 2026-11-24, docs/perf-notes.md, session 13) reached 0.82-0.90
  // of copy from 131072 to 1048576 f32 columns with 16384-column slices
  // over 256 threads, against 0.68-0.87 for the cluster kernels.
  for (ElemType t : {ElemType::F32, ElemType::F16, ElemType::BF16})
    for (auto [block, warps] :
         t == ElemType::F32
             ? std::initializer_list<std::pair<int64_t, int64_t>>{{8192, 8},
                                                                  {16384, 8}}
             : std::initializer_list<std::pair<int64_t, int64_t>>{
                   {8192, 8}, {16384, 8}, {16384, 16}, {32768, 16}})
      for (bool rematerialize : {false, true}) {
        // (2-byte builds holding their exponentials: session 13's two.)
        if (rematerialize ? t == ElemType::F32
                          : t != ElemType::F32 && block / warps != 2048)
          continue;
        SoftmaxGridConfig gc;
        gc.rematerialize = rematerialize;
        gc.in = gc.out = t;
        gc.block = block;
        gc.numWarps = warps;
        Variant v{getKernelName(gc),
                  8,
                  (int)t,
                  (int)t,
                  1,
                  (int)block,
                  (int)warps,
                  2,
                  0,
                  0,
                  0,
                  0,
                  [gc](ModuleOp m) { buildSoftmaxGrid(m, gc); }};
        out.push_back(v);
        // 4 programs per SM requested (64 registers): bf16's choice (the
        // build above takes 76, 3 per SM: 9-11% slower), level or up to
        // 2% slower for f16 (63 registers without the request).
        if (rematerialize && block == 16384 && warps == 8) {
          gc.minProgramsPerSM = 4;
          v.name = getKernelName(gc);
          v.build = [gc](ModuleOp m) { buildSoftmaxGrid(m, gc); };
          out.push_back(v);
        }
      }
  struct MM { ElemType t; InputPrecision p; };
  for (MM mm : {MM{ElemType::F32, InputPrecision::IEEE},
                MM{ElemType::F32, InputPrecision::TF32},
                MM{ElemType::F32, InputPrecision::TF32x3},
                MM{ElemType::F16, InputPrecision::IEEE},
                MM{ElemType::BF16, InputPrecision::IEEE}})
    for (auto [bm, bk, bn, warps] :
         {std::tuple<int64_t, int64_t, int64_t, int64_t>{16, 16, 64, 4},
          {32, 32, 64, 4},
          {64, 64, 64, 4},
          {32, 32, 128, 4},
          {64, 32, 128, 8},
          {64, 32, 256, 8},
          // Warp tiles of 32 rows (two m16 tiles per warp) halve the shared
          // reads per product; 128 columns halve the exponentials.
          {128, 32, 64, 4},
          {64, 32, 128, 4},
          {128, 32, 128, 8},
          {64, 32, 64, 4},
          // 256 columns with all warps along M (the widest wgmma) halve
          // the exponentials again: f16/bf16 and tf32 only (tuning
          // candidates for Hopper).
          {64, 32, 256, 4},
          {128, 32, 256, 8},
          // 64-wide d2 steps halve the accumulator's rescales per product
          // (f16/bf16 only: a tf32 stage would take 96 KiB).
          {128, 64, 256, 8}}) {
      bool wide = bn == 256 && bm / 16 >= warps;
      if (wide && mm.t == ElemType::F32 && mm.p != InputPrecision::TF32)
        continue;
      if (wide && bk == 64 && mm.t == ElemType::F32)
        continue;
      // The FMA path (f32 ieee) unpipelined keeps both operand tiles and
      // the accumulator in registers: the largest tiles would need more
      // than 255 per thread.
      bool fmaPath = mm.t == ElemType::F32 && mm.p == InputPrecision::IEEE;
      bool fmaUnpipelinedFits =
          (bm * bk + bk * bn + bm * bn) / (32 * warps) <= 112;
      SoftmaxMatmulConfig c;
      c.dtype = mm.t;
      c.precision = mm.p;
      c.blockM = bm;
      c.blockK = bk;
      c.blockN = bn;
      c.numWarps = warps;
      // Software-pipelined variants (cp.async, 2 or 3 stages) for the
      // tensor-core paths and the tiles with all warps along M, whose dot
      // reads V straight from the pipeline's buffer.
      bool tensorCores = !(mm.t == ElemType::F32 &&
                           mm.p == InputPrecision::IEEE);
      bool warpsAlongM = bm / 16 >= warps;
      bool hopperPath = mm.t != ElemType::F32 || mm.p == InputPrecision::TF32;
      for (int64_t stages : {0, 2, 3, 4}) {
        if (fmaPath && !stages && !fmaUnpipelinedFits)
          continue;
        // The FMA path pipelined: 2 stages of the tiles with 16-row warp
        // tiles (getFmaLayout), V read from its buffer.
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
        // Two-stage 4-warp tiles also come with a request for 4 programs
        // per SM (16 warps), which caps registers at 128 per thread. (The
        // FMA path with 3, 168 registers, measured no faster: H200,
        // 2026-11-23, docs/perf-notes.md.)
        for (int64_t minPrograms : {0, 4}) {
          if (minPrograms && (wide || !(stages == 2 && warps == 4 && bk == 32)))
            continue;
          c.minProgramsPerSM = minPrograms;
          // f16/bf16 and tf32 pipelined tiles also for Hopper (sm_90a),
          // where the product of the exponentiated tile (in registers)
          // with V's stage (swizzled; transposed for tf32) is wgmma; the
          // wide ones with 3 or 4 stages also with the wgmma left running
          // while the next step's exponentials are computed (_f).
          //
          // tf32 also with the product transposed (_t): the exponentiated
          // tile goes through a shared buffer and wgmma reads V row-major,
          // for the tiles with 64 columns per warpgroup and 3 stages (4
          // measured slower: H200, 2026-11-24, docs/perf-notes.md).
          enum { Plain, Hopper, HopperInFlight, HopperTransposed };
          for (int mode : {Plain, Hopper, HopperInFlight, HopperTransposed}) {
            bool hopper = mode != Plain;
            if (hopper && !(hopperPath && stages))
              continue;
            if (mode == HopperInFlight && !(wide && stages >= 3))
              continue;
            if (mode == HopperTransposed &&
                !(mm.t == ElemType::F32 && stages == 3 &&
                  bn % (16 * warps) == 0))
              continue;
            if (stages == 4 && mode != HopperInFlight)
              continue;
            c.hopper = hopper;
            c.mmaInFlight = mode == HopperInFlight || mode == HopperTransposed;
            c.transposedProduct = mode == HopperTransposed;
            out.push_back(softmaxMatmulVariant(
                c, 2, c.blockN, [c](ModuleOp m) { buildSoftmaxMatmul(m, c); }));
            // The f16/bf16 tile the dispatcher takes from d2 = 257 also
            // with TMA copies (taken when the tensors allow them).
            // The same for the tf32 tile with the product transposed, for
            // tuning only (2-5% slower than its cp.async build from
            // d2 = 1024: V's fragments read from a swizzled stage conflict
            // in the banks; session 10).
            bool tmaTwin =
                (mode == HopperInFlight && mm.t != ElemType::F32 && bm == 128 &&
                 bk == 64 && bn == 256 && stages == 4) ||
                (mode == HopperTransposed && bm == 128 && bk == 32 &&
                 bn == 256 && stages == 3 && warps == 8);
            if (tmaTwin) {
              SoftmaxMatmulConfig t = c;
              t.tma = true;
              out.push_back(
                  softmaxMatmulVariant(t, 2, t.blockN, [t](ModuleOp m) {
                    buildSoftmaxMatmul(m, t);
                  }));
            }
          }
          c.hopper = false;
          c.mmaInFlight = false;
          c.transposedProduct = false;
        }
      }
    }
  // tf32x3 on Hopper with the product transposed (_t): wgmma reads P's
  // tf32 parts and remainders from its buffer, V's split fragments from
  // registers; each step's products start from zero and are added in f32,
  // either in the step (waiting for them) or, with the wgmma in flight
  // (_f), in the next step after its exponentials.
  // (256 columns: 255 registers and 1 KiB of spills at compile time.)
  for (auto [bm, bk, bn, warps] :
       {std::tuple<int64_t, int64_t, int64_t, int64_t>{128, 32, 128, 8},
        {64, 32, 128, 4}})
    for (int64_t stages : {2, 3})
      for (bool inFlight : {false, true}) {
        SoftmaxMatmulConfig c;
        c.mmaInFlight = inFlight;
        c.dtype = ElemType::F32;
        c.precision = InputPrecision::TF32x3;
        c.blockM = bm;
        c.blockK = bk;
        c.blockN = bn;
        c.numWarps = warps;
        c.stages = stages;
        c.hopper = true;
        c.transposedProduct = true;
        out.push_back(softmaxMatmulVariant(
            c, 2, c.blockN, [c](ModuleOp m) { buildSoftmaxMatmul(m, c); }));
      }
  // Short rows (d2 <= block_k): the softmax of a program's 64 rows once,
  // kept in registers as the dot's A operand, times 4 or 8 consecutive
  // column blocks of V (pipelined over 2 stages), each stored before the
  // next; f16/bf16 also for Hopper (wgmma with A from registers), tf32 for
  // Hopper with P in a shared buffer and the product transposed (wgmma
  // with V transposed into its stage had measured 2-8x slower here). The
  // kernel table's block_n is the columns per program. Stages of V up to
  // 32 KiB (two or more programs per SM); tf32 holds P as f32: up to 128
  // columns.
  for (MM mm : {MM{ElemType::F32, InputPrecision::TF32},
                MM{ElemType::F16, InputPrecision::IEEE},
                MM{ElemType::BF16, InputPrecision::IEEE}})
    for (int64_t bk : {64, 128, 256})
      for (int64_t bn : {64, 128})
        for (int64_t products : {4, 8})
          for (bool hopper : {false, true}) {
            // tf32 on Hopper: P through a shared buffer, the product
            // transposed (_t), 64 x 64 blocks (the A fragments of all of k
            // stay live through a wgmma group; k = 128 measured slower than
            // the pipelined tiles: 0.071 against 0.061 ms at d2 = 128,
            // H200, 2026-11-24).
            bool transposed = mm.t == ElemType::F32 && hopper;
            if ((mm.t == ElemType::F32 && bk > 128) ||
                (transposed && (bn != 64 || bk != 64)) ||
                bk * bn * (mm.t == ElemType::F32 ? 4 : 2) > 32768)
              continue;
            SoftmaxMatmulConfig c;
            c.dtype = mm.t;
            c.precision = mm.p;
            c.blockM = 64;
            c.blockK = bk;
            c.blockN = bn;
            c.numWarps = 4;
            c.stages = 2;
            c.hopper = hopper;
            c.transposedProduct = transposed;
            c.residentProducts = products;
            out.push_back(
                softmaxMatmulVariant(c, 5, bn * products, [c](ModuleOp m) {
                  buildSoftmaxMatmulResident(m, c);
                }));
          }
  return out;
}

/// A C++ string literal of `data` (octal escapes keep it plain ASCII).
static void writeLiteral(llvm::raw_ostream &os, StringRef data) {
  os << "\"";
  int column = 0;
  for (unsigned char ch : data) {
    if (column > 100) {
      os << "\"\n    \"";
      column = 0;
    }
    if (ch == '\n') {
      os << "\\n\"\n    \"";
      column = 0;
      continue;
    }
    if (ch == '"' || ch == '\\') {
      os << '\\' << ch;
      column += 2;
    } else if (ch >= 32 && ch < 127) {
      os << ch;
      ++column;
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\%03o", (unsigned)ch);
      os << escaped;
      column += 4;
    }
  }
  os << "\"";
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "Tile library kernel generator\n");
  DialectRegistry registry;
  registerCompilerDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::string text;
  llvm::raw_string_ostream os(text);
  os << "// Generated by tile-kernel-gen; do not edit.\n"
     << "#include \"EmbeddedKernels.h\"\n\n"
     << "namespace tile {\nnamespace embedded {\n\n";
  std::vector<Variant> variants = listVariants();
  if (!only.empty())
    llvm::erase_if(variants, [](const Variant &v) {
      return !StringRef(v.name).contains(only);
    });
  for (auto [i, v] : llvm::enumerate(variants)) {
    OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&context));
    v.build(*module);
    if (failed(verify(*module))) {
      llvm::errs() << "tile-kernel-gen: " << v.name << " does not verify\n";
      return 1;
    }
    if (!mlirDir.empty()) {
      std::string error;
      auto file = openOutputFile(mlirDir + "/" + v.name + ".mlir", &error);
      if (file) {
        module->print(file->os());
        file->keep();
      }
    }
    CompileOptions opts;
    opts.chip = v.chip.empty() ? chip : v.chip;
    FailureOr<CompiledModule> compiled = compileModule(*module, opts);
    if (failed(compiled)) {
      llvm::errs() << "tile-kernel-gen: compiling " << v.name << " failed\n";
      return 1;
    }
    os << "static const char kImage" << i << "[] =\n    ";
    writeLiteral(os, compiled->image);
    os << ";\nstatic const char kMetadata" << i << "[] =\n    ";
    writeLiteral(os, compiled->metadata);
    os << ";\n\n";
  }
  os << "const EmbeddedKernel kKernels[] = {\n";
  for (auto [i, v] : llvm::enumerate(variants))
    os << llvm::formatv(
        "    {{\"{0}\", {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}, "
        "{9}, {10}, {11}, {13}, {14}, {15}, kImage{12}, "
        "sizeof(kImage{12}) - 1, kMetadata{12}},\n",
        v.name, v.family, v.in, v.out, v.rows, v.block, v.warps, v.aligned,
        v.precision, v.bm, v.bk, v.bn, i, v.arch, v.clusterSize, v.tail);
  os << "};\nconst unsigned kNumKernels = " << variants.size() << ";\n\n"
     << "} // namespace embedded\n} // namespace tile\n";

  std::string error;
  auto out = openOutputFile(outputFile, &error);
  if (!out) {
    llvm::errs() << "tile-kernel-gen: " << error << "\n";
    return 1;
  }
  out->os() << text;
  out->keep();
  return 0;
}
