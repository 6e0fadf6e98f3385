//===- LibraryOps.cpp - tile_softmax and tile_softmax_matmul --------------===//
//
// The library operations launch kernels that Tile compiled at build time
// (EmbeddedKernels.h); each variant's module is loaded on first use.
// Softmax dispatches by row length as OneFlow does: several rows per CTA
// (a warp per row, or several rows per warp for the shortest) for short
// rows, one row per CTA held in registers up to 32768 columns (rows just
// past a power of two in two tiles, a power of two and a smaller one),
// then clusters of CTAs per row or a two-pass online kernel.
//
//===----------------------------------------------------------------------===//

#include "EmbeddedKernels.h"
#include "Internal.h"
#include "tile_runtime.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

using tile::embedded::EmbeddedKernel;
using tile::embedded::kKernels;
using tile::embedded::kNumKernels;
using tile::internal::setError;

namespace {

std::mutex cacheMutex;
std::vector<tile_kernel> &cache() {
  static std::vector<tile_kernel> *kernels =
      new std::vector<tile_kernel>(kNumKernels, nullptr);
  return *kernels;
}

tile_status loadKernel(unsigned index, tile_kernel *out) {
  std::lock_guard<std::mutex> lock(cacheMutex);
  tile_kernel &slot = cache()[index];
  if (!slot) {
    const EmbeddedKernel &k = kKernels[index];
    tile_module module = nullptr;
    tile_status s =
        tile_module_load(k.image, k.imageSize, k.metadata, &module);
    if (s != TILE_SUCCESS)
      return s;
    s = tile_module_get_kernel(module, k.name, &slot);
    if (s != TILE_SUCCESS)
      return s;
  }
  *out = slot;
  return TILE_SUCCESS;
}

const char *dtypeName(int t) {
  switch (t) {
  case TILE_F32: return "f32";
  case TILE_F16: return "f16";
  case TILE_BF16: return "bf16";
  default: return "unknown";
  }
}

/// Bytes of one element of a valid dtype.
int64_t dtypeBytes(tile_dtype t) { return t == TILE_F32 ? 4 : 2; }

bool validDtype(tile_dtype t) {
  return t == TILE_F32 || t == TILE_F16 || t == TILE_BF16;
}

bool validPrecision(tile_precision p) {
  return p == TILE_PRECISION_IEEE || p == TILE_PRECISION_TF32 ||
         p == TILE_PRECISION_TF32X3;
}

int64_t nextPowerOf2(int64_t v) {
  int64_t p = 1;
  while (p < v)
    p <<= 1;
  return p;
}

constexpr int64_t kMaxRowsBlock = 32768;
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

/// The current device's compute capability; false without a device.
bool getComputeCapability(int &major, int &minor) {
  char name[8];
  int sms = 0;
  return tile_device_info(name, sizeof(name), &major, &minor, &sms) ==
         TILE_SUCCESS;
}

/// Whether the current device runs thread block clusters (compute
/// capability 9.0 and later); false without a device.
bool hasClusters() {
  int major = 0, minor = 0;
  return getComputeCapability(major, minor) && major >= 9;
}

/// Whether the current device is compute capability 9.0 (H100/H200), which
/// runs the sm_90a builds; false without a device.
bool isHopper() {
  int major = 0, minor = 0;
  return getComputeCapability(major, minor) && major == 9 && minor == 0;
}

/// Where the cluster kernels beat the online kernel (f32, aligned rows).
/// Measured on an H200, 2026-11-23 (bench/scripts/tune_softmax_cluster.sh,
/// GB/s at M = 4096; the online kernel: 2710-2800): 49152 columns 3200 and
/// 65536 3633 with 4 programs of 16384 (2 per SM requested), 98304 2927 and
/// 131072 3275 with 8 of 16384, 262144 2933 with 8 of 32768 (196608: 2477,
/// slower than online, hence the range's start). Without the occupancy
/// requests a program waiting for its cluster's exchange idles its SM
/// (65536: 2699 with 4 of 16384). Clusters of 16 (non-portable) were
/// slower: 262144 2606 with 16 of 16384, 524288 2216 with 16 of 32768
/// (online 2707). 20000 columns (3251 with 4 of 8192) went to a cluster
/// until the two-tile row kernel took rows up to 24576 columns (4006,
/// 2026-11-24). Rows of a multiple of 16 bytes take the `_n16` builds
/// (2026-11-24: 65536 3873 against 3644, 131072 3678 against 3298, 262144
/// 3087 against 2937).
/// A configuration (a kernel name's suffix) for rows of minCols..maxCols
/// columns.
struct WidthChoice {
  int64_t minCols, maxCols;
  const char *config;
};
constexpr WidthChoice kClusterChoices[] = {
    {32769, 65536, "c4_b16384_w16_a16_o2"},
    {65537, 131072, "c8_b16384_w16_a16_o2"},
    {229377, 262144, "c8_b32768_w32_a16"}};

/// Rows longer than the register-held choices above, of a multiple of 16
/// bytes: clusters whose programs run the online passes over slices of
/// the row (`_l`), so that pass 2 reads a slice pass 1 has just read,
/// partly from L2. Measured on an H200, 2026-11-24
/// (bench/scripts/tune_softmax_tail.py, fraction of a copy of the same
/// bytes, the online kernel in parentheses): f32 150000 0.72 (0.61) and
/// 196608 0.73 (0.64) with 8 programs of 8192-column blocks (262144: 0.70,
/// the register-held clusters 0.72), 524288 0.69 (0.63) and 1048576 0.67
/// (0.63) with 16; f16 100000 0.70 (0.58), 131072 0.74 (0.61), 262144
/// 0.68 (0.61), 524288 0.66 (0.60) with 8 programs of 4096, 1048576 0.66
/// (0.60) with 16; bf16 within 0.01 of f16. f16 49152 0.65 and 65536 0.74
/// against 0.60 and 0.73 for the register-held clusters (4 programs of
/// 16384, 2 per SM; session 9's 2-byte choice at 32769-65536, 3036 GB/s
/// against 2607 online) and 0.62 online; at 20000-32768 the slices lost
/// to the row kernels. (f16 and bf16 share their choices.)
struct LoopClusterChoice {
  bool f32;
  int64_t minCols, maxCols;
  const char *config;
};
constexpr LoopClusterChoice kLoopClusterChoices[] = {
    {true, 131073, 229376, "c8_b8192_w16_a16_n16_l"},
    {true, 262145, kInt32Max, "c16_b8192_w16_a16_n16_l"},
    {false, 32769, 524288, "c8_b4096_w8_a16_n16_l"},
    {false, 524289, kInt32Max, "c16_b4096_w8_a16_n16_l"}};

/// Rows split over programs anywhere in the grid, each holding a slice of
/// `block` columns in registers and exchanging (max, sum) through a
/// workspace (kSoftmaxGrid): rows of a multiple of 16 bytes, where
/// measured faster than the cluster kernels (see the tuning note in
/// docs/perf-notes.md, session 13). A row's programs must be resident at
/// once: at most kGridMaxSlices (the builds' tile of pairs) and at most
/// one per SM.
struct GridChoice {
  tile_dtype dtype;
  int64_t minCols, maxCols, block;
  const char *config;
};
/// 2-byte rows (session 14): the slices' halves held as loaded and
/// their exponentials recomputed (`_rm`); H200, 2026-11-24, GB/s against
/// the loop clusters: f16 (63 registers, four programs per SM) 49152 3440
/// (2735), 65536 3522 (3082), 131072 3584 (3126), 262144 3479 (2891),
/// 1048576 3418 (2828); bf16 with four programs per SM requested (its
/// build otherwise takes 76 registers, three per SM: 3268 at 131072,
/// 3000 at 1048576) 65536 3428, 131072 3560, 524288 3398, 1048576 3329
/// (the loop clusters 3119 at 131072, 2831 at 1048576). The request cost
/// f16 0-2%.
constexpr GridChoice kGridChoices[] = {
    {TILE_F32, 131073, kInt32Max, 8192, "b8192_w8_s128_a16_n16"},
    {TILE_F16, 32769, kInt32Max, 16384, "b16384_w8_s128_a16_n16_rm"},
    {TILE_BF16, 32769, kInt32Max, 16384, "b16384_w8_s128_a16_n16_rm_o4"}};
constexpr int64_t kGridMaxSlices = 128;

/// 2-byte rows of a multiple of 16 bytes held as loaded, their f32 values
/// and exponentials recomputed after each row reduction (`_rm`, about half
/// the registers of the builds holding exponentials). Measured on an H200,
/// 2026-11-24 (tune_softmax_tail.py, GB/s, the previous choice in
/// parentheses): f16 3000 2912 (2733) over 4 warps, 6144 3499 (3397 over
/// 8 warps), 8192 3602 (3539), 10000 3620 (3452, 8192 + 4096), 12672 3748
/// (3325), 16384 3855 (3677), 20000 3767 (2956, 16384 + 4096), 24576 3951
/// (2719, online), 32768 3985 (3178); bf16 3000 2852 (2716), 6144 3430,
/// 8192 3580 (3537), 16384 3780 (3703), 32768 3990 (3164). Level at 4096
/// (f16 3154 against 3168, bf16 3130 against 3173); at 5000 the two-tile
/// 4096 + 1024 kernel stays (f16 3236 against 3274, bf16 3245 against
/// 3200).
constexpr WidthChoice kRematRowChoices[] = {
    {2049, 3072, "r1_b4096_w4_a16_n16_rm"},
    {5121, 8192, "r1_b8192_w4_a16_n16_rm"},
    {8193, 16384, "r1_b16384_w8_a16_n16_rm"},
    {16385, 32768, "r1_b32768_w16_a16_n16_rm"}};

/// The SMs of the current device (0 without one).
int64_t getSmCount() {
  char name[8];
  int major = 0, minor = 0, sms = 0;
  if (tile_device_info(name, sizeof(name), &major, &minor, &sms) !=
      TILE_SUCCESS)
    return 0;
  return sms;
}

/// Whether a grid kernel of `block` columns per program may run rows of
/// `cols`: every program of a row resident at once (one per SM suffices),
/// and the driver allocates its workspace in stream order.
bool gridFits(int64_t block, int64_t cols, int64_t rows) {
  int64_t slices = (cols + block - 1) / block;
  return slices <= kGridMaxSlices && slices <= getSmCount() &&
         rows * slices <= kInt32Max &&
         tile::internal::hasStreamOrderedAllocation();
}

/// The softmax variant for these arguments at `alignment` (the kernel
/// table's: 0 element-aligned rows, 1 rows starting 16-byte aligned, 2
/// also holding a multiple of 16 bytes), or -1.
int chooseSoftmaxAt(tile_dtype y_dtype, tile_dtype x_dtype, int64_t cols,
                    int alignment, int64_t rows) {
  bool aligned = alignment > 0;
  int64_t block = std::max<int64_t>(32, nextPowerOf2(cols));
  // Rows up to 32768 columns are held in registers. The 32768-wide kernel
  // needs 32 warps (one CTA per SM), and rows that fill less than 3/4 of it
  // ran slower than the two-pass online kernel (H200, 2026-11-22: 0.55 of
  // copy at 20000 columns against 0.64 online, 0.93 at 32768).
  // (A forced row variant runs on any row it holds.)
  const char *forced = std::getenv("TILE_SOFTMAX_VARIANT");
  bool rowKernel =
      block <= kMaxRowsBlock &&
      (forced || !(block == kMaxRowsBlock && cols <= kMaxRowsBlock * 3 / 4));
  // Longer aligned f32 rows, on a device with clusters, may be split over a
  // cluster of programs and read once (the online kernel reads them
  // twice); where measured faster, see kClusterChoices.
  std::string clusterName;
  if (!rowKernel && aligned && x_dtype == TILE_F32 && y_dtype == TILE_F32 &&
      hasClusters())
    for (const WidthChoice &choice : kClusterChoices)
      if (cols >= choice.minCols && cols <= choice.maxCols)
        clusterName = std::string("softmax_cluster_f32_f32_") + choice.config;
  // Rows of a multiple of 16 bytes have their own builds (`_n16`).
  if (alignment == 2 && !clusterName.empty())
    clusterName.insert(clusterName.find("_a16") + 4, "_n16");
  // Longer rows of a multiple of 16 bytes: clusters looping over slices,
  // where measured faster than the online kernel.
  if (!rowKernel && alignment == 2 && clusterName.empty() &&
      x_dtype == y_dtype && hasClusters())
    for (const LoopClusterChoice &choice : kLoopClusterChoices)
      if (cols >= choice.minCols && cols <= choice.maxCols &&
          (x_dtype == TILE_F32) == choice.f32)
        clusterName = std::string("softmax_cluster_") + dtypeName(x_dtype) +
                      "_" + dtypeName(y_dtype) + "_" + choice.config;
  // Longer rows of a multiple of 16 bytes: slices anywhere in the grid,
  // where measured faster than the clusters.
  std::string gridName;
  if (!rowKernel && alignment == 2 && x_dtype == y_dtype)
    for (const GridChoice &choice : kGridChoices)
      if (cols >= choice.minCols && cols <= choice.maxCols &&
          x_dtype == choice.dtype && gridFits(choice.block, cols, rows))
        gridName = std::string("softmax_grid_") + dtypeName(x_dtype) + "_" +
                   dtypeName(y_dtype) + "_" + choice.config;
  // (Where its slices cannot all be resident, the clusters run instead.)
  if (!gridName.empty())
    clusterName.clear();
  // 2-byte rows of a multiple of 16 bytes that fit a rematerializing row
  // kernel.
  std::string rematName;
  if (alignment == 2 && x_dtype == y_dtype && x_dtype != TILE_F32)
    for (const WidthChoice &choice : kRematRowChoices)
      if (cols >= choice.minCols && cols <= choice.maxCols)
        rematName = std::string("softmax_rows_") + dtypeName(x_dtype) + "_" +
                    dtypeName(y_dtype) + "_" + choice.config;
  // TILE_SOFTMAX_VARIANT=<name> forces a variant of the right dtypes,
  // alignment and width (for tuning); the first match is the default.
  auto candidate = [&](const EmbeddedKernel &k) {
    return k.inDtype == x_dtype && k.outDtype == y_dtype &&
           k.aligned == alignment &&
           (!forced || std::strcmp(forced, k.name) == 0);
  };
  for (unsigned i = 0; i < kNumKernels; ++i) {
    const EmbeddedKernel &k = kKernels[i];
    bool holds = k.block >= cols && k.rows == 1;
    if (candidate(k) && k.family == tile::embedded::kSoftmaxRowsRemat &&
        holds && (forced || rematName == k.name))
      return (int)i;
  }
  // Rows past a power of two (aligned rows, up to 24576 columns): a tile
  // of half the next power of two and the smallest second tile that holds
  // the rest, rather than a tile of the next power of two. (A forced
  // two-tile variant runs on any row it holds.)
  int tailed = -1;
  for (unsigned i = 0; i < kNumKernels; ++i) {
    const EmbeddedKernel &k = kKernels[i];
    bool twoTile = k.family == tile::embedded::kSoftmaxRows ||
                   (forced && k.family == tile::embedded::kSoftmaxRowsTuning);
    if (candidate(k) && twoTile && k.tail && k.block + k.tail >= cols &&
        (forced || (int64_t)k.block * 2 == block) &&
        (tailed < 0 || k.tail < kKernels[tailed].tail))
      tailed = (int)i;
  }
  if (tailed >= 0)
    return tailed;
  int online = -1;
  for (unsigned i = 0; i < kNumKernels; ++i) {
    const EmbeddedKernel &k = kKernels[i];
    if (!candidate(k))
      continue;
    // Persistent and tuning variants only when forced.
    bool rowsFamily =
        k.family == tile::embedded::kSoftmaxRows ||
        (forced && (k.family == tile::embedded::kSoftmaxRowsPersistent ||
                    k.family == tile::embedded::kSoftmaxRowsTuning));
    if (rowKernel && rowsFamily && k.block == block && !k.tail)
      return (int)i;
    if (k.family == tile::embedded::kSoftmaxOnline && online < 0)
      online = (int)i;
    // A cluster kernel must hold the row, and its grid (rows x cluster
    // size) fit in 2^31 (else the online kernel runs).
    if (k.family == tile::embedded::kSoftmaxCluster &&
        (int64_t)k.block * k.clusterSize >= cols &&
        rows * k.clusterSize <= kInt32Max && (forced || clusterName == k.name))
      return (int)i;
    // Grid kernels hold rows whose slices can all be resident.
    if (k.family == tile::embedded::kSoftmaxGrid &&
        gridFits(k.block, cols, rows) && (forced || gridName == k.name))
      return (int)i;
    // Clusters looping over slices hold rows of any length.
    if (k.family == tile::embedded::kSoftmaxClusterLoop &&
        rows * k.clusterSize <= kInt32Max && (forced || clusterName == k.name))
      return (int)i;
  }
  return rowKernel && !forced ? -1 : online;
}

/// The softmax variant for these arguments, or -1: for aligned rows of a
/// multiple of 16 bytes (contiguous aligned rows are), the build of the
/// chosen kernel that knows it, where there is one.
int chooseSoftmax(tile_dtype y_dtype, tile_dtype x_dtype, int64_t cols,
                  bool aligned, int64_t rows = 1) {
  int index = chooseSoftmaxAt(y_dtype, x_dtype, cols, aligned ? 1 : 0, rows);
  if (!aligned || (cols * dtypeBytes(x_dtype)) % 16 != 0 ||
      (cols * dtypeBytes(y_dtype)) % 16 != 0)
    return index;
  int whole = chooseSoftmaxAt(y_dtype, x_dtype, cols, 2, rows);
  // (index < 0 here only when a whole-row build is forced.)
  if (whole < 0 || index < 0)
    return whole < 0 ? index : whole;
  const EmbeddedKernel &a = kKernels[index], &b = kKernels[whole];
  bool twin = a.family == b.family && a.block == b.block && a.tail == b.tail &&
              a.rows == b.rows && a.warps == b.warps &&
              a.clusterSize == b.clusterSize;
  // A cluster kernel at this level is one its tables name for such rows.
  return twin || b.family == tile::embedded::kSoftmaxCluster ||
                 b.family == tile::embedded::kSoftmaxClusterLoop ||
                 b.family == tile::embedded::kSoftmaxGrid ||
                 b.family == tile::embedded::kSoftmaxRowsRemat
             ? whole
             : index;
}

tile_status checkSoftmax(uint64_t y, tile_dtype y_dtype, int64_t y_row_stride,
                         uint64_t x, tile_dtype x_dtype, int64_t x_row_stride,
                         int64_t rows, int64_t cols) {
  const char *fn = "tile_softmax";
  auto bad = [&](const std::string &what) {
    return setError(TILE_ERROR_INVALID_ARGUMENT, std::string(fn) + ": " + what);
  };
  if (!y || !x)
    return bad(!x ? "x is null" : "y is null");
  if (!validDtype(y_dtype) || !validDtype(x_dtype))
    return bad("unknown dtype");
  if (rows < 1 || cols < 1)
    return bad("rows and cols must be at least 1 (got " +
               std::to_string(rows) + " x " + std::to_string(cols) + ")");
  if (rows > kInt32Max || cols > kInt32Max)
    return bad("rows and cols must be below 2^31");
  if (x_row_stride < cols || y_row_stride < cols)
    return bad("row strides (x " + std::to_string(x_row_stride) + ", y " +
               std::to_string(y_row_stride) +
               ") must be at least cols (" + std::to_string(cols) +
               "): rows would overlap");
  if (y_dtype != x_dtype)
    return setError(TILE_ERROR_UNSUPPORTED,
                    std::string(fn) + ": x is " + dtypeName(x_dtype) +
                        " but y is " + dtypeName(y_dtype) +
                        "; input and output must share a dtype");
  int64_t esize = dtypeBytes(x_dtype);
  if (x % esize || y % esize)
    return bad("x and y must be aligned to their element size");
  return TILE_SUCCESS;
}

/// Whether every row of x and y starts 16-byte aligned (what the aligned
/// variants promise the compiler: one 16-byte access per 16 bytes).
bool isAligned(uint64_t y, int64_t y_row_stride, uint64_t x,
               int64_t x_row_stride, int64_t elemBytes) {
  return x % 16 == 0 && y % 16 == 0 && (x_row_stride * elemBytes) % 16 == 0 &&
         (y_row_stride * elemBytes) % 16 == 0;
}

/// The softmax-matmul variant to use: the configuration measured fastest on
/// an H200 for the seed's shape (batch 16, d1 2048, d3 512; the tuning run
/// is recorded in docs/perf-notes.md), with smaller row tiles for small d1
/// so that every SM still gets work. TILE_SOFTMAX_MATMUL_VARIANT=<name>
/// forces a variant (for tuning).
int chooseSoftmaxMatmul(tile_dtype dtype, tile_precision requested, int64_t d1,
                        int64_t d2, int64_t d3, bool tmaReadable) {
  // f16/bf16 products are exact in f32: one variant serves every precision.
  int precision = dtype == TILE_F32 ? (int)requested : 0;
  const char *forced = std::getenv("TILE_SOFTMAX_MATMUL_VARIANT");
  std::string wanted;
  if (!forced && d1 >= 1024) {
    // Measured (H200, 2026-11-22, bench/scripts/tune_softmax_matmul.sh at
    // d2 = 512 and 8192, run I of docs/perf-notes.md): the two-stage
    // cp.async pipeline with 64 x 128 output tiles (32-wide d2 steps, 128
    // registers, 4 programs per SM) is fastest for tf32 (2.43 ms at
    // d2 = 8192), f16 (1.38) and bf16 (1.40); tf32x3 prefers 128 x 64 tiles
    // (5.72 ms: two m16 tiles per warp halve its shared reads, which its
    // three products per step multiply). For d3 < 128 the 64-wide tiles
    // waste less. f32 ieee (FMA units): the 128 x 32 x 64 tile, 8 x 8
    // accumulators per thread (getFmaLayout), unpipelined: 8.18 ms at
    // d2 = 8192 against 11.9 for the 64 x 64 x 64 one (H200, 2026-11-23,
    // tune_softmax_matmul_hopper.sh; its 2-stage build ties, 8.19).
    const char *type = dtype == TILE_F32    ? "f32"
                       : dtype == TILE_F16 ? "f16"
                                           : "bf16";
    const char *mode = precision == TILE_PRECISION_TF32     ? "tf32"
                       : precision == TILE_PRECISION_TF32X3 ? "tf32x3"
                                                            : "ieee";
    std::string tileName;
    if (dtype == TILE_F32 && precision == TILE_PRECISION_IEEE)
      tileName = "m128_k32_n64_w4";
    else if (precision == TILE_PRECISION_TF32X3)
      tileName = "m128_k32_n64_w4_s2";
    else if (d3 >= 128)
      tileName = "m64_k32_n128_w4_s2";
    else
      tileName = "m64_k64_n64_w4_s2";
    // On compute capability 9.0, f16/bf16 and tf32 use the Hopper builds
    // (wgmma) from d2 = 128 (f16/bf16) or 256 (tf32) on. Measured (H200,
    // 2026-11-22, bench/scripts/tune_softmax_matmul_hopper.sh,
    // docs/perf-notes.md and the tuning logs in git history): f16 at d2 = 8192
    // 0.90 ms with the 64 x 256 tile and a 3-stage pipeline (half the
    // exponentials of the 128-wide tile: 1.12; mma.sync 1.38), while for
    // 128 <= d2 < 512 the 64 x 128 Hopper tile is fastest (d2 = 256: 0.057
    // against 0.064 and 0.065 for mma.sync); tf32 with V transposed into its
    // stage, 128 x 256 tiles, 2 stages: 2.02 ms at 8192 (mma.sync 2.43),
    // 0.093 at 256 (0.095). Shorter d2 keeps the mma.sync tiles: the wide
    // tiles leave SMs idle there. Session 5 (H200, 2026-11-23, same
    // script, docs/perf-notes.md): leaving each step's wgmma running while
    // the next step's exponentials are computed (_f) took tf32 with 3
    // stages to 1.81 ms at 8192 (0.088 at 256, 0.141 at 512); f16 with
    // 128 x 256 tiles, 64-wide d2 steps (half the rescales per product)
    // and 3 stages to 0.69 ms (0.080 at 512, 0.199 at 2048; bf16 0.67).
    // Session 6 (H200, 2026-11-23, same script): rows of d2 <= 256 take
    // the short-row kernels (_p8: the softmax once per 64 rows, kept in
    // registers, times 8 column blocks of V, each stored through a
    // coalesced layout): f16 0.015 / 0.020 / 0.036 ms at d2 = 64 / 128 /
    // 256 (Hopper builds; the 64 x 128 tile: 0.023 / 0.032 / 0.049), tf32
    // 0.040 at d2 = 64 (0.042).
    // (Other chips: the sm_80 build at d2 <= 64, 0.018 on the H200.)
    // Session 7 (H200, 2026-11-23, same script): with the coalesced
    // stores of the Hopper builds, tf32 at d2 = 128 is faster with the
    // 128 x 256 tile too: 0.061 ms against 0.065 for mma.sync. f16/bf16
    // from d2 = 512 store through shared memory reused from the pipeline's
    // buffers, with 4 stages: 0.064 / 0.105 / 0.184 / 0.667 ms at d2 =
    // 512 / 1024 / 2048 / 8192 (3 stages, direct stores: 0.080 / 0.121 /
    // 0.199 / 0.675).
    // Session 8 (H200, 2026-11-24, same script): tf32 from d2 = 1024 takes
    // the product transposed (_t: P through shared memory as wgmma's B
    // operand, V's row-major stage read into A fragments, no element-wise
    // transposing copies, copies 2 steps ahead): 0.246 / 0.460 / 0.880 /
    // 1.71 ms at d2 = 1024 / 2048 / 4096 / 8192 against 0.254 / 0.471 /
    // 0.912 / 1.80; level at 512, slower below (0.050 against 0.047 at
    // d2 = 64). tf32 at d2 <= 64 takes the short-row kernel with P in a
    // shared buffer and the product transposed (_h_t_p8): 0.037 ms at
    // d2 = 64 against 0.040 for the mma.sync build. f16/bf16 take the
    // 128 x 64 x 256 tile from d2 = 257 (was 512): 0.055 ms at d2 = 384
    // against 0.064 for the 64 x 32 x 128 one.

    bool halfType = dtype != TILE_F32;
    if (isHopper() && d2 <= 256 && d3 >= 64 && halfType) {
      tileName = d2 <= 64    ? "m64_k64_n64_w4_s2_h_p8"
                 : d2 <= 128 ? "m64_k128_n64_w4_s2_h_p8"
                             : "m64_k256_n64_w4_s2_h_p8";
    } else if (d2 <= 64 && d3 >= 64 &&
               (halfType || precision == TILE_PRECISION_TF32)) {
      tileName = isHopper() && !halfType ? "m64_k64_n64_w4_s2_h_t_p8"
                                         : "m64_k64_n64_w4_s2_p8";
    } else if (isHopper() && d3 >= 128 && halfType && d2 >= 128) {
      // Session 10: the wide tile's X and V blocks by TMA where the
      // tensors allow it (tmaReadable; docs/perf-notes.md).
      tileName = d2 > 256 && d3 >= 256
                     ? (tmaReadable ? "m128_k64_n256_w8_s4_h_f_tma"
                                    : "m128_k64_n256_w8_s4_h_f")
                     : "m64_k32_n128_w4_s2_h";
    } else if (isHopper() && d3 >= 128 &&
               precision == TILE_PRECISION_TF32X3) {
      // Session 15 (H100, 2026-11-25, tile-softmax-matmul-bench with the
      // variant forced: `git show d23ae56:docs/benchmarks/tuning/session15-tf32-tf32x3.txt`,
      // docs/perf-notes.md): tf32x3 with the product
      // transposed (P's tf32 parts and remainders in its buffer, three
      // wgmma per k8 step, products added in f32 in the step), 64 x 128
      // tiles (two programs per SM): 3.75 ms at d2 = 8192 against 5.69 for
      // the mma.sync tile, faster at every d2 from 64 (0.066 against
      // 0.068 ms); 128 x 128 tiles 4.52 (4.02 with the wgmma in flight).
      tileName = "m64_k32_n128_w4_s3_h_t";
    } else if (isHopper() && d3 >= 256 && precision == TILE_PRECISION_TF32 &&
               d2 >= 128) {
      // (Its TMA build, _t_tma, measured 2-5% slower from d2 = 1024:
      // V's fragments read from a swizzled stage conflict in the banks;
      // session 10, docs/perf-notes.md. Built for tuning only.)
      tileName =
          d2 >= 1024 ? "m128_k32_n256_w8_s3_h_f_t" : "m128_k32_n256_w8_s3_h_f";
    }
    wanted = std::string("softmax_matmul_") + type + "_" + mode + "_" +
             tileName;
    forced = wanted.c_str();
  }
  int64_t bm = d1 >= 256 ? 32 : 16, bn = 64;
  int index = -1;
  for (unsigned i = 0; i < kNumKernels; ++i) {
    const EmbeddedKernel &k = kKernels[i];
    bool resident = k.family == tile::embedded::kSoftmaxMatmulResident;
    if ((k.family != tile::embedded::kSoftmaxMatmul && !resident) ||
        k.inDtype != dtype || k.precision != precision)
      continue;
    if (forced) {
      if (std::strcmp(forced, k.name) == 0)
        return (int)i;
      continue;
    }
    // Small d1: the unpipelined square tiles (the first variant of a size).
    if (index < 0 && !resident && k.blockM == bm && k.blockN == bn &&
        k.blockK == bm && !std::strstr(k.name, "_s"))
      index = (int)i;
  }
  return index;
}

/// The bytes [first, last] an array of these sizes and strides spans.
std::pair<uint64_t, uint64_t> byteSpan(uint64_t base, const int64_t sizes[3],
                                       const int64_t strides[3],
                                       int64_t esize) {
  uint64_t last = 0;
  for (int i = 0; i < 3; ++i)
    last += (uint64_t)(sizes[i] - 1) * (uint64_t)strides[i];
  return {base, base + (last + 1) * (uint64_t)esize - 1};
}

} // namespace

extern "C" size_t tile_library_kernel_count(void) { return kNumKernels; }

extern "C" const char *tile_library_kernel_name(size_t index) {
  return index < kNumKernels ? kKernels[index].name : nullptr;
}

extern "C" tile_status tile_softmax_variant(tile_dtype y_dtype,
                                            tile_dtype x_dtype, int64_t cols,
                                            int aligned, char *name,
                                            size_t name_size) {
  if (!name || name_size == 0)
    return setError(TILE_ERROR_INVALID_ARGUMENT,
                    "tile_softmax_variant: name is null");
  int index = chooseSoftmax(y_dtype, x_dtype, cols, aligned != 0);
  if (index < 0)
    return setError(TILE_ERROR_UNSUPPORTED,
                    "tile_softmax_variant: no kernel for these dtypes");
  std::strncpy(name, kKernels[index].name, name_size - 1);
  name[name_size - 1] = 0;
  return TILE_SUCCESS;
}

extern "C" tile_status tile_softmax_matmul_variant(tile_dtype dtype,
                                                   tile_precision precision,
                                                   int64_t d1, int64_t d2,
                                                   int64_t d3, char *name,
                                                   size_t name_size) {
  const char *fn = "tile_softmax_matmul_variant";
  if (!name || name_size == 0)
    return setError(TILE_ERROR_INVALID_ARGUMENT,
                    std::string(fn) + ": name is null");
  if (!validDtype(dtype) || !validPrecision(precision) || d1 < 1 || d2 < 1 ||
      d3 < 1)
    return setError(TILE_ERROR_INVALID_ARGUMENT,
                    std::string(fn) + ": bad dtype, precision or sizes");
  // Contiguous tensors with 16-byte aligned bases, as the header says.
  int64_t esize = dtypeBytes(dtype);
  bool tmaReadable = (d2 * esize) % 16 == 0 && (d3 * esize) % 16 == 0;
  int index = chooseSoftmaxMatmul(dtype, precision, d1, d2, d3, tmaReadable);
  if (index < 0)
    return setError(TILE_ERROR_UNSUPPORTED,
                    std::string(fn) + ": no kernel for these arguments");
  std::strncpy(name, kKernels[index].name, name_size - 1);
  name[name_size - 1] = 0;
  return TILE_SUCCESS;
}

extern "C" tile_status tile_softmax(uint64_t y, tile_dtype y_dtype,
                                    int64_t y_row_stride, uint64_t x,
                                    tile_dtype x_dtype, int64_t x_row_stride,
                                    int64_t rows, int64_t cols, void *stream) {
  tile_status s = checkSoftmax(y, y_dtype, y_row_stride, x, x_dtype,
                               x_row_stride, rows, cols);
  if (s != TILE_SUCCESS)
    return s;
  bool aligned =
      isAligned(y, y_row_stride, x, x_row_stride, dtypeBytes(x_dtype));
  int index = chooseSoftmax(y_dtype, x_dtype, cols, aligned, rows);
  if (index < 0)
    return setError(TILE_ERROR_UNSUPPORTED,
                    "tile_softmax: no kernel for these dtypes");
  tile_kernel kernel;
  if ((s = loadKernel(index, &kernel)) != TILE_SUCCESS)
    return s;
  const EmbeddedKernel &k = kKernels[index];
  tile_arg args[6];
  args[0].kind = TILE_ARG_PTR;
  args[0].value.ptr = y;
  args[1].kind = TILE_ARG_PTR;
  args[1].value.ptr = x;
  args[2].kind = TILE_ARG_I64;
  args[2].value.i64 = y_row_stride;
  args[3].kind = TILE_ARG_I64;
  args[3].value.i64 = x_row_stride;
  args[4].kind = TILE_ARG_I32;
  args[4].value.i32 = (int32_t)rows;
  args[5].kind = TILE_ARG_I32;
  args[5].value.i32 = (int32_t)cols;
  int64_t perProgram = k.family == tile::embedded::kSoftmaxOnline ? 1 : k.rows;
  int64_t programs = (rows + perProgram - 1) / perProgram;
  if (k.family == tile::embedded::kSoftmaxCluster ||
      k.family == tile::embedded::kSoftmaxClusterLoop)
    programs = rows * k.clusterSize; // below 2^31 (chooseSoftmax)
  if (k.family == tile::embedded::kSoftmaxRowsPersistent) {
    // Enough programs for 1024 threads per SM; each loops over the rest.
    char name[8];
    int major = 0, minor = 0, sms = 0;
    if ((s = tile_device_info(name, sizeof(name), &major, &minor, &sms)) !=
        TILE_SUCCESS)
      return s;
    int64_t perSm = std::max<int64_t>(1, 1024 / (32 * k.warps));
    programs = std::min<int64_t>(programs, (int64_t)sms * perSm);
  }
  if (k.family == tile::embedded::kSoftmaxGrid) {
    // The workspace: the ticket and one counter per row (zeroed), then
    // 2 x kGridMaxSlices (max, sum) words per row; allocated and freed in
    // stream order, so that launches on other streams never share it.
    int64_t slices = (cols + k.block - 1) / k.block; // gridFits holds
    size_t counterWords = (size_t)rows + 1;
    // Pairs from a 128-byte boundary: no cache line holds two rows' pairs.
    size_t statsOffset = (counterWords * 4 + 127) / 128 * 128;
    size_t bytes = statsOffset + (size_t)rows * 2 * kGridMaxSlices * 4;
    uint64_t workspace = 0;
    if ((s = tile::internal::allocWorkspace(bytes, counterWords, stream,
                                            &workspace)) != TILE_SUCCESS)
      return s;
    tile_arg gridArgs[8];
    std::copy(args, args + 6, gridArgs);
    gridArgs[6].kind = TILE_ARG_PTR;
    gridArgs[6].value.ptr = workspace;
    gridArgs[7].kind = TILE_ARG_PTR;
    gridArgs[7].value.ptr = workspace + statsOffset;
    uint32_t grid[3] = {(uint32_t)(rows * slices), 1, 1};
    tile_status launched =
        tile_kernel_launch(kernel, grid, gridArgs, 8, stream);
    tile_status freed = tile::internal::freeWorkspace(workspace, stream);
    return launched != TILE_SUCCESS ? launched : freed;
  }
  uint32_t grid[3] = {(uint32_t)programs, 1, 1};
  return tile_kernel_launch(kernel, grid, args, 6, stream);
}

extern "C" tile_status
tile_softmax_matmul(uint64_t out, const int64_t out_strides[3], uint64_t x,
                    const int64_t x_strides[3], uint64_t v,
                    const int64_t v_strides[3], tile_dtype dtype,
                    int64_t batch, int64_t d1, int64_t d2, int64_t d3,
                    tile_precision precision, void *stream) {
  const char *fn = "tile_softmax_matmul";
  auto bad = [&](const std::string &what) {
    return setError(TILE_ERROR_INVALID_ARGUMENT, std::string(fn) + ": " + what);
  };
  if (!out || !x || !v)
    return bad(!x ? "x is null" : !v ? "v is null" : "out is null");
  if (!out_strides || !x_strides || !v_strides)
    return bad("a strides array is null");
  if (!validDtype(dtype))
    return bad("unknown dtype");
  if (!validPrecision(precision))
    return bad("unknown precision");
  if (batch < 1 || d1 < 1 || d2 < 1 || d3 < 1)
    return bad("sizes must be at least 1 (batch " + std::to_string(batch) +
               ", d1 " + std::to_string(d1) + ", d2 " + std::to_string(d2) +
               ", d3 " + std::to_string(d3) + ")");
  if (d1 > kInt32Max || d2 > kInt32Max || d3 > kInt32Max)
    return bad("d1, d2 and d3 must be below 2^31");
  if (batch > 65535)
    return bad("batch must be at most 65535 (grid limit)");
  for (int i = 0; i < 3; ++i)
    if (out_strides[i] < 1 || x_strides[i] < 1 || v_strides[i] < 1)
      return bad("strides must be positive");
  // The output must not overlap itself (rows and columns distinct).
  if (out_strides[1] < d3 * out_strides[2] && out_strides[2] < d1 * out_strides[1])
    return bad("out strides make rows overlap");
  int64_t esize = dtypeBytes(dtype);
  if (out % esize || x % esize || v % esize)
    return bad("pointers must be aligned to the element size");
  // Programs read X and V while others write their output tiles: the
  // output's span (first to last element) may not overlap either input's
  // (conservative for interleaved layouts, which nobody needs here).
  {
    const int64_t outSizes[3] = {batch, d1, d3}, xSizes[3] = {batch, d1, d2},
                  vSizes[3] = {batch, d2, d3};
    auto o = byteSpan(out, outSizes, out_strides, esize);
    auto overlaps = [&](std::pair<uint64_t, uint64_t> in) {
      return o.first <= in.second && in.first <= o.second;
    };
    if (overlaps(byteSpan(x, xSizes, x_strides, esize)))
      return bad("out overlaps x");
    if (overlaps(byteSpan(v, vSizes, v_strides, esize)))
      return bad("out overlaps v");
  }

  // TMA reads X and V if their rows are contiguous and every row and
  // matrix starts 16-byte aligned (tensor maps, checked again at launch).
  auto tmaRows = [&](uint64_t base, const int64_t *strides) {
    return base % 16 == 0 && strides[2] == 1 &&
           (strides[1] * esize) % 16 == 0 &&
           (batch == 1 || (strides[0] * esize) % 16 == 0) &&
           strides[0] < (int64_t(1) << 36) && strides[1] < (int64_t(1) << 36);
  };
  bool tmaReadable = tmaRows(x, x_strides) && tmaRows(v, v_strides);
  int index = chooseSoftmaxMatmul(dtype, precision, d1, d2, d3, tmaReadable);
  if (index < 0) {
    if (const char *forced = std::getenv("TILE_SOFTMAX_MATMUL_VARIANT"))
      return setError(TILE_ERROR_INVALID_ARGUMENT,
                      std::string(fn) + ": TILE_SOFTMAX_MATMUL_VARIANT='" +
                          forced + "' names no " + dtypeName(dtype) +
                          " variant of this precision");
    return setError(TILE_ERROR_UNSUPPORTED,
                    std::string(fn) + ": no kernel for " + dtypeName(dtype));
  }
  const EmbeddedKernel &k = kKernels[index];
  if (k.family == tile::embedded::kSoftmaxMatmulResident && d2 > k.blockK)
    return bad(std::string("variant ") + k.name + " holds rows of at most " +
               std::to_string(k.blockK) +
               " columns (d2 = " + std::to_string(d2) + ")");
  tile_kernel kernel;
  tile_status s = loadKernel(index, &kernel);
  if (s != TILE_SUCCESS)
    return s;
  tile_arg args[15];
  uint64_t ptrs[3] = {out, x, v};
  for (int i = 0; i < 3; ++i) {
    args[i].kind = TILE_ARG_PTR;
    args[i].value.ptr = ptrs[i];
  }
  int64_t sizes[3] = {d1, d2, d3};
  for (int i = 0; i < 3; ++i) {
    args[3 + i].kind = TILE_ARG_I32;
    args[3 + i].value.i32 = (int32_t)sizes[i];
  }
  const int64_t *strides[3] = {out_strides, x_strides, v_strides};
  for (int t = 0; t < 3; ++t)
    for (int d = 0; d < 3; ++d) {
      args[6 + 3 * t + d].kind = TILE_ARG_I64;
      args[6 + 3 * t + d].value.i64 = strides[t][d];
    }
  uint32_t grid[3] = {(uint32_t)((d1 + k.blockM - 1) / k.blockM),
                      (uint32_t)((d3 + k.blockN - 1) / k.blockN),
                      (uint32_t)batch};
  return tile_kernel_launch(kernel, grid, args, 15, stream);
}
