//===- Attention.cpp - tile_attention and its variant ---------------------===//

#include "tile/Catalogue/Ops/Attention.h"
#include "Library.h"

#include <cmath>
#include <limits>
#include <string>

using namespace tile::catalogue;
using namespace tile::library;

namespace {
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

/// Whether every tensor starts 16-byte aligned with batch, head and row
/// strides of whole 16-byte units (the aligned kernels' promise).
bool alignedTensors(const uint64_t *bases, const int64_t *const *strides,
                    int64_t esize) {
  for (int t = 0; t < 4; ++t) {
    if (bases[t] % 16)
      return false;
    for (int d = 0; d < 3; ++d)
      if ((strides[t][d] * esize) % 16)
        return false;
  }
  return true;
}
} // namespace

extern "C" tile_status tile_attention(
    uint64_t o, const int64_t o_strides[4], uint64_t q,
    const int64_t q_strides[4], uint64_t k, const int64_t k_strides[4],
    uint64_t v, const int64_t v_strides[4], uint64_t lse, tile_dtype dtype,
    int64_t batch, int64_t heads, int64_t kv_heads, int64_t seq_q,
    int64_t seq_k, int64_t head_dim, float scale, int causal, void *stream) {
  const char *fn = "tile_attention";
  auto bad = [&](const std::string &what) { return invalidArgument(fn, what); };
  if (!o || !q || !k || !v)
    return bad(!q   ? "q is null"
               : !k ? "k is null"
               : !v ? "v is null"
                    : "o is null");
  if (!o_strides || !q_strides || !k_strides || !v_strides)
    return bad("a strides array is null");
  if (!isValidDtype(dtype))
    return bad("unknown dtype");
  if (batch < 1 || heads < 1 || kv_heads < 1 || seq_q < 1 || seq_k < 1 ||
      head_dim < 1)
    return bad("sizes must be at least 1 (batch " + std::to_string(batch) +
               ", heads " + std::to_string(heads) + ", kv_heads " +
               std::to_string(kv_heads) + ", seq_q " + std::to_string(seq_q) +
               ", seq_k " + std::to_string(seq_k) + ", head_dim " +
               std::to_string(head_dim) + ")");
  if (heads % kv_heads)
    return bad("kv_heads (" + std::to_string(kv_heads) +
               ") must divide heads (" + std::to_string(heads) + ")");
  if (head_dim > 256)
    return unsupported(fn,
                       "head_dim " + std::to_string(head_dim) + " is over 256");
  // The kernels compute key positions up to seq_k + seq_q in 32 bits.
  if (seq_q + seq_k > kInt32Max)
    return bad("seq_q + seq_k must be below 2^31");
  if (batch > 65535 || heads > 65535)
    return bad("batch and heads must be at most 65535 (grid limit)");
  if (!std::isfinite(scale))
    return bad("scale must be finite");
  const int64_t *strides[4] = {o_strides, q_strides, k_strides, v_strides};
  for (const int64_t *s : strides) {
    if (s[3] != 1)
      return bad("the head_dim dimension must be contiguous (stride 1)");
    for (int d = 0; d < 3; ++d)
      if (s[d] < 1)
        return bad("strides must be positive");
  }
  // Rows of o may not overlap: distinct (batch, head, row) start at least
  // head_dim elements apart along the row dimension, and the head and batch
  // dimensions do not fold back onto rows (the layouts Q, K, V and O come
  // in: BHSD, BSHD and their slices).
  if (o_strides[2] < head_dim && seq_q > 1)
    return bad("o's row stride is below head_dim: rows overlap");
  int64_t esize = getBytes(DType(dtype));
  const uint64_t bases[4] = {o, q, k, v};
  for (uint64_t b : bases)
    if (b % esize)
      return bad("pointers must be aligned to the element size");
  if (lse % 4)
    return bad("lse must be 4-byte aligned");
  // Programs read Q, K and V while others write O: O's span (first to last
  // element) may not overlap any input's, nor the log-sum-exp's.
  const int64_t qSizes[4] = {batch, heads, seq_q, head_dim},
                kvSizes[4] = {batch, kv_heads, seq_k, head_dim};
  ByteSpan out = byteSpan(o, qSizes, o_strides, 4, esize),
           qs = byteSpan(q, qSizes, q_strides, 4, esize),
           ks = byteSpan(k, kvSizes, k_strides, 4, esize),
           vs = byteSpan(v, kvSizes, v_strides, 4, esize);
  if (out.overlaps(qs))
    return bad("o overlaps q");
  if (out.overlaps(ks))
    return bad("o overlaps k");
  if (out.overlaps(vs))
    return bad("o overlaps v");
  if (lse) {
    ByteSpan l{lse, lse + (uint64_t)(batch * heads * seq_q) * 4 - 1};
    if (out.overlaps(l) || l.overlaps(qs) || l.overlaps(ks) || l.overlaps(vs))
      return bad("lse overlaps o, q, k or v");
  }

  Problem p = attentionProblem(DType(dtype), causal != 0,
                               alignedTensors(bases, strides, esize), batch,
                               heads, kv_heads, seq_q, seq_k, head_dim);
  // Without lse the kernel stores none (write_lse = 0); the launch still
  // takes a non-null, 4-byte aligned pointer there: o's, rounded down.
  uint64_t lseArg = lse ? lse : o & ~uint64_t(3);
  tile_arg args[kAttentionArgCount] = {pointerArg(o),
                                       pointerArg(q),
                                       pointerArg(k),
                                       pointerArg(v),
                                       pointerArg(lseArg),
                                       i32Arg((int32_t)seq_q),
                                       i32Arg((int32_t)seq_k),
                                       i32Arg((int32_t)heads),
                                       i32Arg((int32_t)(heads / kv_heads)),
                                       i32Arg((int32_t)head_dim),
                                       i32Arg(causal != 0),
                                       i32Arg(lse != 0)};
  for (int t = 0; t < 4; ++t)
    for (int d = 0; d < 3; ++d)
      args[12 + 3 * t + d] = i64Arg(strides[t][d]);
  args[24] = f32Arg(scale);
  return run(fn, getAttentionOp(), p, args, kAttentionArgCount, stream);
}

extern "C" tile_status tile_attention_variant(tile_dtype dtype, int64_t batch,
                                              int64_t heads, int64_t kv_heads,
                                              int64_t seq_q, int64_t seq_k,
                                              int64_t head_dim, int causal,
                                              char *name, size_t name_size) {
  const char *fn = "tile_attention_variant";
  if (!name || name_size == 0)
    return invalidArgument(fn, "name is null");
  if (!isValidDtype(dtype) || batch < 1 || heads < 1 || kv_heads < 1 ||
      heads % kv_heads != 0 || seq_q < 1 || seq_k < 1 || head_dim < 1 ||
      head_dim > 256)
    return invalidArgument(fn, "bad dtype or sizes");
  // Contiguous BHSD tensors with 16-byte aligned bases, as the header says.
  bool aligned = (head_dim * getBytes(DType(dtype))) % 16 == 0;
  return chosenName(fn, getAttentionOp(),
                    attentionProblem(DType(dtype), causal != 0, aligned, batch,
                                     heads, kv_heads, seq_q, seq_k, head_dim),
                    name, name_size);
}
