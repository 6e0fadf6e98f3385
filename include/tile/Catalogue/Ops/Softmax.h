//===- Softmax.h - The softmax kernels' parameters, typed -------*- C++ -*-===//
//
// A typed view of the "softmax" operation's descriptions and problems
// (lib/Catalogue/Ops/Softmax.cpp), for the builders, the C API and the
// tests.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CATALOGUE_OPS_SOFTMAX_H
#define TILE_CATALOGUE_OPS_SOFTMAX_H

#include "tile/Catalogue/OpSpec.h"

namespace tile {
namespace catalogue {

/// What a softmax kernel may assume of its rows. Each class admits the
/// inputs of the classes after it: a kernel for Element rows runs any row.
enum class RowAlignment : uint8_t {
  Element = 0, ///< rows aligned to their element size
  Rows16 = 1,  ///< every row starts 16-byte aligned
  Whole16 = 2, ///< ... and holds a multiple of 16 bytes
};

/// How a softmax kernel maps rows to programs.
enum class SoftmaxScheme : uint8_t {
  Rows,           ///< `rows` rows per program, held in registers
  PersistentRows, ///< Rows on a few programs per SM, each looping over rows
  Online,         ///< one program per row, two passes over column blocks
  Cluster,        ///< a row over a cluster of programs, held in registers
  ClusterLoop,    ///< a row over a cluster, each program looping (any length)
  Grid,           ///< a row over programs anywhere in the grid, a workspace
                  ///< in global memory exchanging (max, sum)
};

/// A softmax kernel. Fields a scheme does not use are zero.
struct SoftmaxKernel {
  SoftmaxScheme scheme = SoftmaxScheme::Rows;
  DType dtype = DType::F32; ///< input and output
  RowAlignment alignment = RowAlignment::Element;
  int32_t block = 0; ///< columns per program (Online, ClusterLoop: per step)
  int32_t tail = 0;  ///< Rows: columns in a second tile after `block`
  int32_t rows = 0;  ///< Rows, PersistentRows: rows per program
  int32_t warps = 0;
  int32_t clusterSize = 0;      ///< Cluster, ClusterLoop: programs per row
  int32_t minProgramsPerSM = 0; ///< occupancy request (registers capped)
  bool rematerialize = false;   ///< Rows, Grid (2-byte types): exponentials
                                ///< recomputed instead of held
};

const OpSpec &getSoftmaxOp();

KernelDesc toDesc(const SoftmaxKernel &k);
/// The softmax kernel `k` describes (k must be of the softmax operation).
SoftmaxKernel toSoftmaxKernel(const KernelDesc &k);

/// A softmax problem: `rows` rows of `cols` elements, the rows of both
/// tensors in `alignment`'s class.
Problem softmaxProblem(DType t, RowAlignment alignment, int64_t rows,
                       int64_t cols);

/// The (max, sum) pairs a Grid kernel's workspace holds per row: the most
/// programs (slices) one row may take.
constexpr int64_t kGridMaxSlices = 128;

const char *getName(RowAlignment a);
const char *getName(SoftmaxScheme s);

} // namespace catalogue
} // namespace tile

#endif // TILE_CATALOGUE_OPS_SOFTMAX_H
