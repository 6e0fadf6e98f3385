//===- Reference.h - float64 references and result comparison ---*- C++ -*-===//
//
// Plain C++ (no MLIR): used by the interpreter, tile-run, the GPU tests and
// the benchmarks to check results against float64 computations.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_REFERENCE_REFERENCE_H
#define TILE_REFERENCE_REFERENCE_H

#include <cstdint>
#include <vector>

namespace mlir {
namespace tile {
namespace reference {

/// Row softmax over the last dimension of `x` (shape [..., N]).
std::vector<double> referenceSoftmax(const std::vector<double> &x,
                                     int64_t rows, int64_t cols);
/// softmax(X) @ V for X [batch, d1, d2], V [batch, d2, d3].
std::vector<double> referenceSoftmaxMatmul(const std::vector<double> &x,
                                           const std::vector<double> &v,
                                           int64_t batch, int64_t d1,
                                           int64_t d2, int64_t d3);
/// One query row of attention over the first `visible` rows of K and V
/// ([seq_k, headDim], row-major): o = sum_j p_j v_j with p = softmax(scale
/// q . k_j), lse = log sum_j exp(scale q . k_j). With no visible key, o = 0
/// and lse = -inf.
void referenceAttentionRow(const double *q, const std::vector<double> &k,
                           const std::vector<double> &v, int64_t visible,
                           int64_t headDim, double scale, double *o,
                           double &lse);
/// How many keys (from the first) query row `row` sees: every one, or
/// with `causal` those up to its diagonal aligned bottom-right (key j is
/// visible when j <= row + seqK - seqQ).
inline int64_t attentionVisibleKeys(int64_t row, int64_t seqQ, int64_t seqK,
                                    bool causal) {
  if (!causal)
    return seqK;
  int64_t last = row + seqK - seqQ + 1;
  return last < 0 ? 0 : last > seqK ? seqK : last;
}
/// A [M, K] @ B [K, N], optionally followed by leaky-relu (slope 0.01).
std::vector<double> referenceMatmul(const std::vector<double> &a,
                                    const std::vector<double> &b, int64_t m,
                                    int64_t n, int64_t k, bool leakyRelu);

struct Comparison {
  /// max |got - ref| / max |ref| (normwise relative error).
  double relError = 0;
  double maxAbsError = 0;
  int64_t worstIndex = -1;
  int64_t nonFinite = 0; ///< elements finite in ref but not in got
  bool passed = false;
};
Comparison compare(const std::vector<double> &got,
                   const std::vector<double> &ref, double rtol);

} // namespace reference
} // namespace tile
} // namespace mlir

#endif // TILE_REFERENCE_REFERENCE_H
