//===- Reference.cpp - float64 references and result comparison -----------===//

#include "tile/Reference/Reference.h"

#include <algorithm>

#include <cmath>
#include <limits>

using namespace mlir::tile::reference;

std::vector<double> mlir::tile::reference::referenceSoftmax(
    const std::vector<double> &x, int64_t rows, int64_t cols) {
  std::vector<double> y(rows * cols);
  for (int64_t r = 0; r < rows; ++r) {
    const double *in = x.data() + r * cols;
    double *out = y.data() + r * cols;
    double m = -std::numeric_limits<double>::infinity();
    for (int64_t c = 0; c < cols; ++c)
      m = std::max(m, in[c]);
    double sum = 0;
    for (int64_t c = 0; c < cols; ++c)
      sum += (out[c] = std::exp(in[c] - m));
    for (int64_t c = 0; c < cols; ++c)
      out[c] /= sum;
  }
  return y;
}

std::vector<double> mlir::tile::reference::referenceSoftmaxMatmul(
    const std::vector<double> &x, const std::vector<double> &v, int64_t batch,
    int64_t d1, int64_t d2, int64_t d3) {
  std::vector<double> p = referenceSoftmax(x, batch * d1, d2);
  std::vector<double> out(batch * d1 * d3, 0.0);
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < d1; ++i) {
      double *o = out.data() + (b * d1 + i) * d3;
      const double *prow = p.data() + (b * d1 + i) * d2;
      for (int64_t k = 0; k < d2; ++k) {
        const double *vrow = v.data() + (b * d2 + k) * d3;
        for (int64_t j = 0; j < d3; ++j)
          o[j] += prow[k] * vrow[j];
      }
    }
  return out;
}

void mlir::tile::reference::referenceAttentionRow(
    const double *q, const std::vector<double> &k, const std::vector<double> &v,
    int64_t visible, int64_t headDim, double scale, double *o, double &lse) {
  std::fill(o, o + headDim, 0.0);
  if (visible <= 0) {
    lse = -std::numeric_limits<double>::infinity();
    return;
  }
  std::vector<double> s(visible);
  double m = -std::numeric_limits<double>::infinity();
  for (int64_t j = 0; j < visible; ++j) {
    double dot = 0;
    for (int64_t d = 0; d < headDim; ++d)
      dot += q[d] * k[j * headDim + d];
    s[j] = scale * dot;
    m = std::max(m, s[j]);
  }
  double sum = 0;
  for (int64_t j = 0; j < visible; ++j) {
    s[j] = std::exp(s[j] - m);
    sum += s[j];
  }
  for (int64_t j = 0; j < visible; ++j)
    for (int64_t d = 0; d < headDim; ++d)
      o[d] += s[j] / sum * v[j * headDim + d];
  lse = m + std::log(sum);
}

std::vector<double> mlir::tile::reference::referenceMatmul(
    const std::vector<double> &a, const std::vector<double> &b, int64_t m,
    int64_t n, int64_t k, bool leakyRelu) {
  std::vector<double> c(m * n, 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p) {
      double av = a[i * k + p];
      for (int64_t j = 0; j < n; ++j)
        c[i * n + j] += av * b[p * n + j];
    }
  if (leakyRelu)
    for (double &v : c)
      v = v > 0 ? v : 0.01 * v;
  return c;
}

Comparison mlir::tile::reference::compare(const std::vector<double> &got,
                                       const std::vector<double> &ref,
                                       double rtol) {
  Comparison c;
  if (got.size() != ref.size()) {
    c.relError = std::numeric_limits<double>::infinity();
    return c;
  }
  double refMax = 0;
  for (double r : ref)
    if (std::isfinite(r))
      refMax = std::max(refMax, std::fabs(r));
  for (size_t i = 0; i < got.size(); ++i) {
    double g = got[i], r = ref[i];
    if (std::isfinite(r) != std::isfinite(g) ||
        (std::isnan(r) != std::isnan(g))) {
      if (c.nonFinite++ == 0)
        c.worstIndex = (int64_t)i;
      continue;
    }
    if (!std::isfinite(r)) { // both NaN, or both infinite
      if (!std::isnan(r) && g != r && c.nonFinite++ == 0)
        c.worstIndex = (int64_t)i;
      continue;
    }
    double err = std::fabs(g - r);
    if (err > c.maxAbsError) {
      c.maxAbsError = err;
      if (c.nonFinite == 0)
        c.worstIndex = (int64_t)i;
    }
  }
  c.relError = refMax > 0 ? c.maxAbsError / refMax : c.maxAbsError;
  c.passed = c.nonFinite == 0 && c.relError <= rtol;
  return c;
}

