//===- Softmax.cpp - tile_softmax and tile_softmax_variant ----------------===//

#include "tile/Catalogue/Ops/Softmax.h"
#include "Library.h"

#include <limits>
#include <string>

using namespace tile::catalogue;
using namespace tile::library;

namespace {
constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

/// The rows' class: Whole16 if every row of x and y starts 16-byte aligned
/// and holds a multiple of 16 bytes (one 16-byte access per 16 bytes),
/// Rows16 if they only start aligned, else Element.
RowAlignment rowAlignment(uint64_t y, int64_t y_row_stride, uint64_t x,
                          int64_t x_row_stride, int64_t cols,
                          int64_t elemBytes) {
  bool aligned = x % 16 == 0 && y % 16 == 0 &&
                 (x_row_stride * elemBytes) % 16 == 0 &&
                 (y_row_stride * elemBytes) % 16 == 0;
  if (!aligned)
    return RowAlignment::Element;
  return (cols * elemBytes) % 16 == 0 ? RowAlignment::Whole16
                                      : RowAlignment::Rows16;
}
} // namespace

extern "C" tile_status tile_softmax(uint64_t y, tile_dtype y_dtype,
                                    int64_t y_row_stride, uint64_t x,
                                    tile_dtype x_dtype, int64_t x_row_stride,
                                    int64_t rows, int64_t cols, void *stream) {
  const char *fn = "tile_softmax";
  if (!y || !x)
    return invalidArgument(fn, !x ? "x is null" : "y is null");
  if (!isValidDtype(y_dtype) || !isValidDtype(x_dtype))
    return invalidArgument(fn, "unknown dtype");
  if (rows < 1 || cols < 1)
    return invalidArgument(fn, "rows and cols must be at least 1 (got " +
                                   std::to_string(rows) + " x " +
                                   std::to_string(cols) + ")");
  if (rows > kInt32Max || cols > kInt32Max)
    return invalidArgument(fn, "rows and cols must be below 2^31");
  if (x_row_stride < cols || y_row_stride < cols)
    return invalidArgument(
        fn, "row strides (x " + std::to_string(x_row_stride) + ", y " +
                std::to_string(y_row_stride) + ") must be at least cols (" +
                std::to_string(cols) + "): rows would overlap");
  if (y_dtype != x_dtype)
    return unsupported(fn, std::string("x is ") + getName(DType(x_dtype)) +
                               " but y is " + getName(DType(y_dtype)) +
                               "; input and output must share a dtype");
  int64_t esize = getBytes(DType(x_dtype));
  if (x % esize || y % esize)
    return invalidArgument(fn, "x and y must be aligned to their element size");
  Problem p = softmaxProblem(
      DType(x_dtype),
      rowAlignment(y, y_row_stride, x, x_row_stride, cols, esize), rows, cols);
  tile_arg args[] = {pointerArg(y),         pointerArg(x),
                     i64Arg(y_row_stride),  i64Arg(x_row_stride),
                     i32Arg((int32_t)rows), i32Arg((int32_t)cols)};
  return run(fn, getSoftmaxOp(), p, args, 6, stream);
}

extern "C" tile_status tile_softmax_variant(tile_dtype y_dtype,
                                            tile_dtype x_dtype, int64_t rows,
                                            int64_t cols, int aligned,
                                            char *name, size_t name_size) {
  const char *fn = "tile_softmax_variant";
  if (!name || name_size == 0)
    return invalidArgument(fn, "name is null");
  if (!isValidDtype(y_dtype) || !isValidDtype(x_dtype) || y_dtype != x_dtype ||
      rows < 1 || cols < 1 || cols > kInt32Max)
    return unsupported(fn, "no kernel for these dtypes, rows and cols");
  int64_t esize = getBytes(DType(x_dtype));
  RowAlignment a = !aligned                   ? RowAlignment::Element
                   : (cols * esize) % 16 == 0 ? RowAlignment::Whole16
                                              : RowAlignment::Rows16;
  return chosenName(fn, getSoftmaxOp(),
                    softmaxProblem(DType(x_dtype), a, rows, cols), name,
                    name_size);
}
