//===- LibraryKernels.h - The runtime library's kernels, as builders -*- C++ -*-===//
//
// The library operations (tile_softmax, tile_softmax_matmul) are tile
// kernels like the examples, but parameterized: tile sizes, warps, element
// types. These builders write them with the C++ API; tile-kernel-gen
// compiles every variant at build time and embeds the images in the runtime.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_KERNELS_LIBRARYKERNELS_H
#define TILE_KERNELS_LIBRARYKERNELS_H

#include "tile/Dialect/Tile/IR/Tile.h"

#include <string>

namespace mlir {
namespace tile {

enum class ElemType { F32 = 0, F16 = 1, BF16 = 2 }; // = tile_dtype

/// Softmax over rows held whole in registers: each program handles `rows`
/// rows of up to `block` (+ `tail`) columns (rows > 1 for short rows: one warp
/// per row). Signature:
///   (y: ptr<out>, x: ptr<in>, y_row_stride: i64, x_row_stride: i64,
///    n_rows: i32, n_cols: i32)
/// launched on cdiv(n_rows, rows) programs.
struct SoftmaxRowsConfig {
  ElemType in = ElemType::F32, out = ElemType::F32;
  int64_t rows = 1, block = 1024, numWarps = 4;
  /// If nonzero (a power of two), columns [block, block + tail) are held
  /// in a second tile: rows of up to block + tail columns without rounding
  /// the row up to the next power of two.
  int64_t tail = 0;
  /// Strides are multiples of 16 elements and buffers 16-byte aligned:
  /// the compiler may then use 16-byte accesses.
  bool aligned = true;
  /// Rows also hold a multiple of 16 bytes (n_cols divisible by 16 /
  /// element size, as contiguous aligned rows do): every 16-byte vector is
  /// then wholly inside the row or wholly past it, and its mask one bit.
  bool colsAligned = false;
  /// Persistent: a grid of a few programs per SM, each looping over rows
  /// (R at a time) and loading the next rows while computing the current.
  bool persistent = false;
  /// Persistent only: if nonzero, the rows are read through a block
  /// pointer that tile-pipeline-loops turns into a `stages`-deep cp.async
  /// pipeline through shared memory (`_s<stages>`), as Triton's tutorial
  /// kernel is pipelined: rows in flight without registers to hold them.
  int64_t stages = 0;
  /// Marked tile.rematerialize (`_rm`): 2-byte rows stay in registers as
  /// loaded, and their f32 values and exponentials are recomputed after
  /// each row reduction instead of held across it (a second exponential
  /// per element for fewer registers).
  bool rematerialize = false;
};

/// Softmax of long rows in two passes over column blocks (online max and
/// sum, then normalization); one program per row, any row length.
struct SoftmaxOnlineConfig {
  ElemType in = ElemType::F32, out = ElemType::F32;
  int64_t block = 2048, numWarps = 8;
  bool aligned = true;
  bool colsAligned = false; // as in SoftmaxRowsConfig
};

/// Softmax of rows split over a thread block cluster (sm_90 and later):
/// `clusterSize` programs per row, each holding `block` consecutive columns
/// in registers, exchange their (max, sum) pairs with one
/// tile.cluster_gather and merge them as online softmax merges blocks, so
/// every row is read from memory once (the online kernel reads it twice). Rows of up to clusterSize * block columns; same
/// signature as the other softmax kernels, launched on
/// n_rows * clusterSize programs.
struct SoftmaxClusterConfig {
  ElemType in = ElemType::F32, out = ElemType::F32;
  int64_t block = 16384, numWarps = 16, clusterSize = 4;
  bool aligned = true;
  bool colsAligned = false; // as in SoftmaxRowsConfig
  /// If nonzero, ask for this many programs per SM (registers capped): a
  /// program waiting for its cluster's exchange leaves the SM to others.
  int64_t minProgramsPerSM = 0;
  /// Rows of any length: each program runs the online kernel's two passes
  /// over a C-th of the row in blocks of `block` columns and the programs
  /// exchange (max, sum) between the passes. Pass 2 reads the slice pass 1
  /// has just read, from L2 where the slices of the running programs fit
  /// in it, so rows too long for the cluster's registers are not read
  /// twice from memory. Named with a trailing `_l`.
  bool loop = false;
};

/// softmax(X) @ V for one (block_m x block_n) output tile per program,
/// looping over d2 in steps of block_k. Signature:
///   (out: ptr, x: ptr, v: ptr, d1: i32, d2: i32, d3: i32,
///    out strides (3 x i64), x strides (3 x i64), v strides (3 x i64))
/// launched on (cdiv(d1, block_m), cdiv(d3, block_n), batch).
/// Rows split into slices of `block` columns, one program each, held in
/// registers: every program publishes its slice's (max, sum) in a
/// workspace and waits (tile.wait_at_least) for the other programs of its
/// row before normalizing, so each row is read once from memory at any
/// length. Programs take their (row, slice) by ticket (tile.atomic_add),
/// so the ones a program waits for are already running: the launch must
/// keep at least a row's programs (cdiv(n_cols, block) <= maxSlices)
/// resident at once. Two arguments follow the softmax kernels' six: the
/// workspace's counters (i32: the ticket, then one per row, zeroed before
/// the launch) and its (max, sum) pairs (f32, 2 x maxSlices per row).
struct SoftmaxGridConfig {
  ElemType in = ElemType::F32, out = ElemType::F32;
  int64_t block = 16384, numWarps = 8;
  int64_t maxSlices = 128;
  bool colsAligned = true; // as in SoftmaxRowsConfig; rows 16-byte aligned
  bool rematerialize = false; // as in SoftmaxRowsConfig
  /// If nonzero, ask for this many programs per SM (registers capped).
  int64_t minProgramsPerSM = 0;
};

struct SoftmaxMatmulConfig {
  ElemType dtype = ElemType::F32;
  InputPrecision precision = InputPrecision::IEEE;
  int64_t blockM = 32, blockK = 32, blockN = 64, numWarps = 4;
  /// Software pipelining of the d2 loop: 0 loads each step's tiles at the
  /// top of the step; n >= 2 copies them asynchronously (tile.async_copy)
  /// into n-stage shared buffers, n - 1 steps ahead.
  int64_t stages = 0;
  /// If nonzero, ask for this many programs per SM (registers capped).
  int64_t minProgramsPerSM = 0;
  /// Built for Hopper's arch-specific features (sm_90a: wgmma); named with
  /// a trailing `_h`, run on compute capability 9.0 only.
  bool hopper = false;
  /// Hopper, stages >= 3: each step's wgmma keeps running while the next
  /// step's exponentials are computed (tile.mma_in_flight). Copies run
  /// stages - 2 steps ahead so that no copy overwrites the stage the
  /// running wgmma reads. Named with a trailing `_f`.
  bool mmaInFlight = false;
  /// Hopper, tf32, stages >= 2: the exponentiated tile is stored into a
  /// shared buffer (tile.local_store) and read back as the dot's `a`, so
  /// that wgmma computes the product transposed (O^T = V^T P^T; see
  /// getTransposedWgmmaLayout): V's stage stays row-major, filled by
  /// 16-byte copies, instead of being transposed element by element.
  /// Also tf32x3: the buffer then holds P's tf32 parts and remainders,
  /// three wgmma per k8, and each step's products start from zero and are
  /// added in f32: in the step (waiting for them) or, with mmaInFlight, in
  /// the next step after its exponentials. Named with a trailing `_t`.
  bool transposedProduct = false;
  /// Hopper, f16/bf16 pipelined or tf32 transposed: X's and V's blocks are
  /// copied by TMA (tile.tma_copy, one mbarrier per stage) through 3-d
  /// tensor maps (the batch outermost) that the runtime encodes at launch
  /// from the kernel's arguments; two `!tile.tensormap` parameters follow
  /// the 15 above. The arrays must be contiguous along their rows, 16-byte
  /// aligned, with row and batch strides of a multiple of 16 bytes (the
  /// dispatcher takes these builds only then). Named with a trailing
  /// `_tma`.
  bool tma = false;
  /// Hopper, f16/bf16, wgmma: X's and V's blocks are streamed through 3-d
  /// block pointers that tile-warp-specialize turns into TMA copies by a
  /// producer warpgroup into a `stages`-deep ring (the pass adds the
  /// tensor maps). Named with a trailing `_ws`. With mmaInFlight, each
  /// step issues the previous block's product and computes its block's
  /// exponentials while it runs (the first block's softmax peeled off the
  /// loop), instead of waiting for its own product.
  bool specialized = false;
  /// If nonzero, the short-row kernel (buildSoftmaxMatmulResident): d2 must
  /// be at most block_k; each program computes its rows' softmax once, keeps
  /// it in registers and multiplies it with this many consecutive block_n
  /// column blocks of V, each stored before the next (V's blocks pipelined
  /// over `stages`). Named with a trailing `_p<n>`.
  int64_t residentProducts = 0;
  /// Specialized kernels: if above 1, programs run in clusters of this many
  /// consecutive row blocks (tile.cluster_size), whose producers share V's
  /// blocks (tile-warp-specialize multicasts them); grid x must be a
  /// multiple. Named with a trailing `_c<n>`.
  int64_t clusterSize = 0;
  /// With clusterSize: the clusters are consecutive column blocks of the
  /// same rows (program_id 0 the column block, 1 the row block), whose
  /// producers share X's blocks instead; grid x must be a multiple of the
  /// cluster. Named `_cn<n>`.
  bool clusterColumns = false;
  /// Specialized 2-byte kernels over 8 warps, block_m 64: the two consumer
  /// warpgroups split block_n (each holds all rows of its half, see
  /// getColumnSplitWarpgroupMmaLayout) and each exponentiates half of
  /// every block of X, so a row's softmax is computed once for up to 512
  /// columns; P reaches both warpgroups' wgmma through a shared buffer.
  /// Named with a trailing `_sc`.
  bool splitColumns = false;
  /// Specialized 2-byte kernels over 8 warps: the warpgroups take turns
  /// issuing their products (tile.wait_turn / tile.pass_turn around each
  /// step's product). Named with a trailing `_pp`.
  bool pingpong = false;
  /// Specialized tf32 and tf32x3 kernels: V arrives transposed, as
  /// written by buildSoftmaxMatmulTransposeV into the launch's workspace:
  /// argument 2 and strides 12-14 describe V^T [batch, d3, d2] rounded to
  /// tf32; tf32x3 takes a 16th argument, the remainders V - V^T rounded
  /// again (same strides), P is split the same way in registers and each
  /// step's three products (small x big, big x small, big x big) start
  /// from zero and are added to the accumulator in f32. V^T's blocks are
  /// K-major, as tf32 wgmma reads B, and the producer copies them by TMA.
  /// Named with a trailing `_vt`.
  bool vTransposed = false;
  /// Specialized kernels whose products are waited for in their step: a
  /// grid of (P, 1, batch) programs, each running tiles pid, pid + P, ...
  /// of its batch entry's row x column blocks (row blocks fastest) in a
  /// loop around the rest of the kernel. Named with a trailing `_pers`.
  bool persistent = false;
};

/// The V transposition the `_vt` softmax_matmul kernels read: takes their
/// 15 arguments and the workspace pointer, and writes there V^T
/// [batch, d3, d2p] rounded to tf32 (d2p: d2 rounded up to a multiple of
/// 4, so that rows are 16-byte aligned; the columns past d2 zero), and
/// for tf32x3 the remainders in a second such array after it, from V's
/// blocks of block x block; launched on (cdiv(d2, block), cdiv(d3, block),
/// batch).
struct SoftmaxMatmulTransposeConfig {
  InputPrecision precision = InputPrecision::TF32;
  int64_t block = 64, numWarps = 4;
};

std::string getKernelName(const SoftmaxRowsConfig &c);
std::string getKernelName(const SoftmaxOnlineConfig &c);
std::string getKernelName(const SoftmaxClusterConfig &c);
std::string getKernelName(const SoftmaxMatmulConfig &c);
std::string getKernelName(const SoftmaxGridConfig &c);
std::string getKernelName(const SoftmaxMatmulTransposeConfig &c);

/// Appends the kernel to `module`.
func::FuncOp buildSoftmaxRows(ModuleOp module, const SoftmaxRowsConfig &c);
func::FuncOp buildSoftmaxOnline(ModuleOp module, const SoftmaxOnlineConfig &c);
func::FuncOp buildSoftmaxCluster(ModuleOp module,
                                 const SoftmaxClusterConfig &c);
func::FuncOp buildSoftmaxGrid(ModuleOp module, const SoftmaxGridConfig &c);
func::FuncOp buildSoftmaxMatmul(ModuleOp module,
                                const SoftmaxMatmulConfig &c);
func::FuncOp
buildSoftmaxMatmulTransposeV(ModuleOp module,
                             const SoftmaxMatmulTransposeConfig &c);
/// softmax(X) @ V for rows of at most block_k columns (d2 <= block_k), the
/// same signature as buildSoftmaxMatmul's kernels, launched on
/// (cdiv(d1, block_m), cdiv(d3, block_n * residentProducts), batch).
func::FuncOp buildSoftmaxMatmulResident(ModuleOp module,
                                        const SoftmaxMatmulConfig &c);

} // namespace tile
} // namespace mlir

#endif // TILE_KERNELS_LIBRARYKERNELS_H
