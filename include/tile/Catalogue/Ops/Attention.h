//===- Attention.h - Attention forward kernels, typed -----------*- C++ -*-===//
//
// A typed view of the "attention" operation's descriptions and problems
// (lib/Catalogue/Ops/Attention.cpp), for the builder, the C API and the
// tests.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CATALOGUE_OPS_ATTENTION_H
#define TILE_CATALOGUE_OPS_ATTENTION_H

#include "tile/Catalogue/OpSpec.h"

namespace tile {
namespace catalogue {

/// An attention forward kernel: O = softmax(Q K^T * scale + mask) V for
/// blockM query rows of one head per program, streaming blockN keys per
/// step.
struct AttentionKernel {
  DType dtype = DType::F16;
  /// Columns of the Q, K, V and O blocks: a power of two from 16 to 256.
  int32_t headBlock = 0;
  /// head_dim is a runtime size up to headBlock (the blocks' columns past
  /// it are masked); otherwise head_dim == headBlock.
  bool padded = false;
  /// The tensors' bases 16-byte aligned and their batch, head and row
  /// strides multiples of 16 bytes.
  bool aligned = false;
  int32_t blockM = 0, blockN = 0, warps = 0;
  int32_t stages = 0; ///< 0: loads; n >= 2: the K/V blocks pipelined
  /// Compiled for sm_90a: both products on wgmma (2-byte types).
  bool hopper = false;
  /// Hopper: a producer warpgroup copies the unmasked key and value blocks
  /// with TMA into a ring of `stages` stages (tile-warp-specialize), for
  /// two warpgroups (8 warps), four (16 warps, head_dim 64), or one where
  /// programs share an SM.
  bool specialized = false;
  /// Specialized: the two warpgroups take turns issuing their products
  /// (ping-pong), each one's softmax overlapping the other's products.
  bool pingpong = false;
  /// Specialized: the masked steps (the diagonal's blocks, a partial last
  /// block) run in a second loop that the producer serves too, instead of
  /// behind a branch in the one loop of every step.
  bool splitMasked = false;
  /// Specialized: a persistent grid of P programs per batch entry, each
  /// running tiles pid, pid + P, ... of the entry's heads x query blocks,
  /// so that the producer copies the next tile's keys and values while the
  /// warpgroups finish the last one.
  bool persistent = false;
  /// Specialized: programs that share an SM (0 or 1: one), each with its
  /// share of the registers and shared memory; persistent grids launch as
  /// many per SM.
  int32_t minProgramsPerSM = 0;
};

const OpSpec &getAttentionOp();

KernelDesc toDesc(const AttentionKernel &k);
/// The kernel `k` describes (k must be of the attention operation).
AttentionKernel toAttentionKernel(const KernelDesc &k);

/// Whether `k` keeps Q in a shared buffer: where its block, rows padded by
/// 16 bytes, takes at most 48 KiB (specialized kernels must).
bool hasQueryBuffer(const AttentionKernel &k);

/// Whether the specialized kernel `k` keeps the last value block in a
/// shared buffer of its own, which the producer copies with TMA: outside a
/// persistent loop always; in one where that buffer and two tiles' Q fit
/// (twoQueryBlocks; otherwise the last values take the first keys' buffer,
/// through the warpgroups' registers, and the kernel keeps one Q).
bool copiesLastValues(const AttentionKernel &k);

/// Whether the persistent kernel `k` keeps two tiles' Q in its shared
/// buffer (of at most 48 KiB a tile), so that the producer copies the next
/// tile's while this one runs, and stages the output through it. Only with
/// the last values' own buffer: in the kernels that lack the room, the
/// second Q's dynamic addresses cost the 128-wide head_dim 128 kernels
/// spills, and their next tile waits for the first keys' buffer anyway.
bool twoQueryBlocks(const AttentionKernel &k);

/// The bytes of shared buffers the catalogue admits `k` by: Q's, the key
/// and value stages', the edge blocks' and the output's staging, as the
/// lowering lays them out (without its barriers; SharedMemoryTest checks
/// every specialized kernel of the space against the compiled layout).
int64_t getSharedBufferBytes(const AttentionKernel &k);

/// The shared memory a program of `k` may take: 227 KiB on sm_90 (its share
/// of the SM's 228 KiB where programs share one), 112 KiB on sm_80.
int64_t getSharedBytesLimit(const AttentionKernel &k);

/// A problem: Q, O [batch, heads, seq_q, headDim], K, V [batch, kvHeads,
/// seq_k, headDim] (kvHeads divides heads); `aligned` as
/// AttentionKernel::aligned.
Problem attentionProblem(DType t, bool causal, bool aligned, int64_t batch,
                         int64_t heads, int64_t kvHeads, int64_t seqQ,
                         int64_t seqK, int64_t headDim);

/// The kernel's arguments, in order: o, q, k, v (element pointers), lse
/// (f32 pointer), seq_q, seq_k, heads, group (query heads per key/value
/// head), head_dim, causal, write_lse (i32), the batch, head and row
/// strides of o, q, k and v (12 x i64, elements), scale (f32).
constexpr unsigned kAttentionArgCount = 25;

} // namespace catalogue
} // namespace tile

#endif // TILE_CATALOGUE_OPS_ATTENTION_H
