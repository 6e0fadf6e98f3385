//===- Library.h - The library operations' kernels, by index -----*- C++
//-*-===//
//
// For the tuner and the tests (linked with the static runtime): launch an
// embedded kernel by its index in tile::embedded::kKernels, without the
// dispatcher. The arguments must have passed the C API's checks
// (tile_softmax, tile_softmax_matmul) and the kernel must admit the problem
// (dispatch::admits).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_LIBRARY_H
#define TILE_RUNTIME_LIBRARY_H

#include "Dispatch.h"
#include "tile_runtime.h"

namespace tile {
namespace library {

/// The current device, as the dispatcher sees it.
tile_status getDeviceInfo(dispatch::DeviceInfo &device);

tile_status launchSoftmax(unsigned index, uint64_t y, int64_t y_row_stride,
                          uint64_t x, int64_t x_row_stride, int64_t rows,
                          int64_t cols, void *stream);

tile_status launchSoftmaxMatmul(unsigned index, uint64_t out,
                                const int64_t out_strides[3], uint64_t x,
                                const int64_t x_strides[3], uint64_t v,
                                const int64_t v_strides[3], int64_t batch,
                                int64_t d1, int64_t d2, int64_t d3,
                                void *stream);

/// Whether TMA may read X and V: contiguous rows, every row and matrix
/// starting 16-byte aligned.
bool softmaxMatmulTmaReadable(tile_dtype dtype, uint64_t x,
                              const int64_t x_strides[3], uint64_t v,
                              const int64_t v_strides[3], int64_t batch);

} // namespace library
} // namespace tile

#endif // TILE_RUNTIME_LIBRARY_H
