//===- EmbeddedKernels.h - Kernel images compiled into the runtime -*- C++ -*-===//
//
// The table tile-kernel-gen writes at build time: every variant of the
// library kernels with its PTX and metadata.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_EMBEDDEDKERNELS_H
#define TILE_RUNTIME_EMBEDDEDKERNELS_H

#include <cstddef>

namespace tile {
namespace embedded {

enum Family {
  kSoftmaxRows = 0,
  kSoftmaxOnline = 1,
  kSoftmaxMatmul = 2,
  kSoftmaxRowsPersistent = 3, // grid: a few programs per SM, looping
  kSoftmaxCluster = 4,        // rows split over clusters of programs
  // softmax(X) @ V for d2 <= blockK, blockN columns of the output per
  // program (several column blocks each, the softmax computed once)
  kSoftmaxMatmulResident = 5,
  // softmax row kernels that measured slower than the dispatcher's other
  // choices: run only when forced (tuning)
  kSoftmaxRowsTuning = 6,
  // rows of any length split over clusters of programs, each running the
  // online passes over its slice (kSoftmaxCluster's grid)
  kSoftmaxClusterLoop = 7,
  // rows split over programs anywhere in the grid, each holding a slice in
  // registers, exchanging (max, sum) through a workspace in global memory
  kSoftmaxGrid = 8,
  // one-tile row kernels for 2-byte rows of a multiple of 16 bytes that
  // recompute their f32 values and exponentials after each reduction
  // (tile.rematerialize, `_rm`): the dispatcher's kRematRowChoices, the
  // others when forced
  kSoftmaxRowsRemat = 9
};

struct EmbeddedKernel {
  const char *name;
  int family;
  int inDtype, outDtype; // tile_dtype
  int rows, block, warps;
  int aligned;   // rows start 16-byte aligned (strides of 16 bytes)
  int precision; // tile_precision (softmax_matmul)
  int blockM, blockK, blockN;
  int arch; // 90: built for sm_90a, runs on compute capability 9.0 only
  int clusterSize; // programs per row (softmax cluster; needs 9.0 or later)
  int tail;        // softmax rows: columns [block, block + tail) in a
                   // second tile (0: none)
  const char *image;
  size_t imageSize;
  const char *metadata;
};

extern const EmbeddedKernel kKernels[];
extern const unsigned kNumKernels;

} // namespace embedded
} // namespace tile

#endif // TILE_RUNTIME_EMBEDDEDKERNELS_H
