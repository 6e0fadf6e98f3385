//===- SoftmaxMatmul.cpp - tile_softmax_matmul and its variant ------------===//

#include "tile/Catalogue/Ops/SoftmaxMatmul.h"
#include "Library.h"

#include <limits>
#include <string>

using namespace tile::catalogue;
using namespace tile::library;

namespace {
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

bool isValidPrecision(tile_precision p) {
  return p == TILE_PRECISION_IEEE || p == TILE_PRECISION_TF32 ||
         p == TILE_PRECISION_TF32X3;
}

/// Whether TMA may read X and V: contiguous rows, every row and matrix
/// starting 16-byte aligned (tensor maps, checked again at launch).
bool tmaReadable(tile_dtype dtype, uint64_t x, const int64_t x_strides[3],
                 uint64_t v, const int64_t v_strides[3], int64_t batch) {
  int64_t esize = getBytes(DType(dtype));
  auto tmaRows = [&](uint64_t base, const int64_t *strides) {
    return base % 16 == 0 && strides[2] == 1 &&
           (strides[1] * esize) % 16 == 0 &&
           (batch == 1 || (strides[0] * esize) % 16 == 0) &&
           strides[0] < (int64_t(1) << 36) && strides[1] < (int64_t(1) << 36);
  };
  return tmaRows(x, x_strides) && tmaRows(v, v_strides);
}
} // namespace

extern "C" tile_status
tile_softmax_matmul(uint64_t out, const int64_t out_strides[3], uint64_t x,
                    const int64_t x_strides[3], uint64_t v,
                    const int64_t v_strides[3], tile_dtype dtype, int64_t batch,
                    int64_t d1, int64_t d2, int64_t d3,
                    tile_precision precision, void *stream) {
  const char *fn = "tile_softmax_matmul";
  auto bad = [&](const std::string &what) { return invalidArgument(fn, what); };
  if (!out || !x || !v)
    return bad(!x ? "x is null" : !v ? "v is null" : "out is null");
  if (!out_strides || !x_strides || !v_strides)
    return bad("a strides array is null");
  if (!isValidDtype(dtype))
    return bad("unknown dtype");
  if (!isValidPrecision(precision))
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
  if (out_strides[1] < d3 * out_strides[2] &&
      out_strides[2] < d1 * out_strides[1])
    return bad("out strides make rows overlap");
  int64_t esize = getBytes(DType(dtype));
  if (out % esize || x % esize || v % esize)
    return bad("pointers must be aligned to the element size");
  // Programs read X and V while others write their output tiles: the
  // output's span (first to last element) may not overlap either input's
  // (conservative for interleaved layouts, which nobody needs here).
  const int64_t outSizes[3] = {batch, d1, d3}, xSizes[3] = {batch, d1, d2},
                vSizes[3] = {batch, d2, d3};
  ByteSpan o = byteSpan(out, outSizes, out_strides, 3, esize);
  if (o.overlaps(byteSpan(x, xSizes, x_strides, 3, esize)))
    return bad("out overlaps x");
  if (o.overlaps(byteSpan(v, vSizes, v_strides, 3, esize)))
    return bad("out overlaps v");

  Problem p = softmaxMatmulProblem(
      DType(dtype), Precision(precision), batch, d1, d2, d3,
      tmaReadable(dtype, x, x_strides, v, v_strides, batch));
  tile_arg args[15] = {pointerArg(out),     pointerArg(x),
                       pointerArg(v),       i32Arg((int32_t)d1),
                       i32Arg((int32_t)d2), i32Arg((int32_t)d3)};
  const int64_t *strides[3] = {out_strides, x_strides, v_strides};
  for (int t = 0; t < 3; ++t)
    for (int d = 0; d < 3; ++d)
      args[6 + 3 * t + d] = i64Arg(strides[t][d]);
  return run(fn, getSoftmaxMatmulOp(), p, args, 15, stream);
}

extern "C" tile_status
tile_softmax_matmul_variant(tile_dtype dtype, tile_precision precision,
                            int64_t batch, int64_t d1, int64_t d2, int64_t d3,
                            char *name, size_t name_size) {
  const char *fn = "tile_softmax_matmul_variant";
  if (!name || name_size == 0)
    return invalidArgument(fn, "name is null");
  if (!isValidDtype(dtype) || !isValidPrecision(precision) || batch < 1 ||
      d1 < 1 || d2 < 1 || d3 < 1)
    return invalidArgument(fn, "bad dtype, precision or sizes");
  // Contiguous tensors with 16-byte aligned bases, as the header says.
  int64_t esize = getBytes(DType(dtype));
  bool tma = (d2 * esize) % 16 == 0 && (d3 * esize) % 16 == 0;
  return chosenName(fn, getSoftmaxMatmulOp(),
                    softmaxMatmulProblem(DType(dtype), Precision(precision),
                                         batch, d1, d2, d3, tma),
                    name, name_size);
}
