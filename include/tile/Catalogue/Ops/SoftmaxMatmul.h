//===- SoftmaxMatmul.h - softmax(X) @ V kernels, typed ----------*- C++ -*-===//
//
// A typed view of the "softmax_matmul" operation's descriptions and
// problems (lib/Catalogue/Ops/SoftmaxMatmul.cpp), for the builders, the C
// API and the tests.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CATALOGUE_OPS_SOFTMAXMATMUL_H
#define TILE_CATALOGUE_OPS_SOFTMAXMATMUL_H

#include "tile/Catalogue/OpSpec.h"

namespace tile {
namespace catalogue {

/// How the product of the exponentiated tile with V is computed.
enum class MatmulProduct : uint8_t {
  Mma,                     ///< mma.sync (FMA for f32 ieee); any target
  Wgmma,                   ///< wgmma, waited for in its step (sm_90a)
  WgmmaInFlight,           ///< wgmma left running across the next step's
                           ///< exponentials (3 or more stages)
  WgmmaTransposed,         ///< f32: P through a shared buffer, O^T = V^T P^T
  WgmmaTransposedInFlight, ///< both
};

/// A softmax(X) @ V kernel.
struct SoftmaxMatmulKernel {
  DType dtype = DType::F32;
  Precision precision = Precision::IEEE;
  int32_t blockM = 0, blockK = 0, blockN = 0, warps = 0;
  int32_t stages = 0;           ///< 0: loads; n >= 2: a cp.async pipeline
  int32_t minProgramsPerSM = 0; ///< occupancy request (registers capped)
  MatmulProduct product = MatmulProduct::Mma;
  bool tma = false; ///< X's and V's blocks copied by TMA (Wgmma products)
  /// X's and V's blocks copied by a producer warpgroup (TMA; plain Wgmma
  /// products of 2-byte types)
  bool specialized = false;
  /// 0: the d2 loop. n: the short-row kernel (d2 <= blockK), the softmax
  /// computed once and multiplied with n consecutive blockN column blocks.
  int32_t residentProducts = 0;
  /// 0: programs alone. n: specialized kernels in clusters of n programs
  /// of consecutive row blocks, which share V's blocks (each copies 1/n of
  /// every block to all n); the grid's rows are rounded up to a multiple.
  int32_t cluster = 0;
  /// With `cluster`: the cluster's programs are consecutive column blocks
  /// of the same rows instead (the column blocks along the grid's x, the
  /// row blocks along y), which share X's blocks.
  bool clusterColumns = false;
  /// Specialized tf32 and tf32x3 kernels: V read transposed (V^T rounded
  /// to tf32, K-major as tf32 wgmma reads it, and for tf32x3 also the
  /// remainders), written into the launch's workspace by the V
  /// transposition kernel (transposesV) that the launch runs first.
  bool vTransposed = false;
  /// Not a softmax(X) @ V kernel: the V transposition that launches of the
  /// vTransposed kernels run first (f32, tf32 or tf32x3, 64 x 64 blocks
  /// over 4 warps or 32 x 32 over one). No problem admits it on its own.
  bool transposesV = false;
  /// Specialized f16/bf16 kernels over 8 warps with block_m 64: the two
  /// consumer warpgroups split block_n (up to 512 columns, so that a row's
  /// softmax is computed once for d3 = 512) and P goes through shared
  /// memory to both warpgroups' products.
  bool splitColumns = false;
  /// Specialized kernels, products waited for in their step: a grid of
  /// (P, 1, batch) programs, each running every P-th tile of its batch
  /// entry (P about the SMs per batch entry).
  bool persistent = false;
  /// Specialized f16/bf16 kernels over 8 warps, each warpgroup with its own
  /// rows: the warpgroups take turns issuing their products (ping-pong),
  /// so that one's softmax runs while the other's product does.
  bool pingpong = false;
};

/// A V transposition a vTransposed kernel's launch runs first: blocks of
/// 64 x 64 over 4 warps, or 32 x 32 over one.
SoftmaxMatmulKernel vTransposition(Precision p, int32_t block);
/// The transposition's block for V [batch, d2, d3]: 32 up to 2^24
/// elements (more programs, each with less to wait for, where V is small),
/// else 64.
int32_t vTranspositionBlock(int64_t batch, int64_t d2, int64_t d3);

const OpSpec &getSoftmaxMatmulOp();

KernelDesc toDesc(const SoftmaxMatmulKernel &k);
/// The kernel `k` describes (k must be of the softmax_matmul operation).
SoftmaxMatmulKernel toSoftmaxMatmulKernel(const KernelDesc &k);

/// A problem: X [batch, d1, d2], V [batch, d2, d3]; `tmaReadable` if TMA
/// may read X and V (contiguous rows, rows and matrices 16-byte aligned).
/// 2-byte types take Precision::IEEE (their products are exact in f32).
Problem softmaxMatmulProblem(DType t, Precision p, int64_t batch, int64_t d1,
                             int64_t d2, int64_t d3, bool tmaReadable);

/// Output columns one program computes.
inline int64_t columnsPerProgram(const SoftmaxMatmulKernel &k) {
  return int64_t(k.blockN) * (k.residentProducts ? k.residentProducts : 1);
}

/// Row-block and column-block programs: one per blockM rows and
/// columnsPerProgram columns, those along the cluster's axis rounded up to
/// a whole number of clusters.
inline int64_t rowPrograms(const SoftmaxMatmulKernel &k, int64_t d1) {
  int64_t n = (d1 + k.blockM - 1) / k.blockM;
  int64_t c = k.cluster > 1 && !k.clusterColumns ? k.cluster : 1;
  return (n + c - 1) / c * c;
}
inline int64_t columnPrograms(const SoftmaxMatmulKernel &k, int64_t d3) {
  int64_t n = (d3 + columnsPerProgram(k) - 1) / columnsPerProgram(k);
  int64_t c = k.cluster > 1 && k.clusterColumns ? k.cluster : 1;
  return (n + c - 1) / c * c;
}

const char *getName(MatmulProduct p);

} // namespace catalogue
} // namespace tile

#endif // TILE_CATALOGUE_OPS_SOFTMAXMATMUL_H
