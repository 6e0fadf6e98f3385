//===- Dispatch.h - Choosing a library kernel from tuning tables -*- C++
//-*-===//
//
// The rule, for a problem on a device:
//   1. The table: the one measured on a device of the same name and SM
//      count, else the same name, else the same compute capability, else
//      the same major version, else the first table.
//   2. The table's points of the problem's types, nearest first. Softmax:
//      points of the problem's row alignment class first, then points at
//      or above the row length (their kernels hold the row), then by the
//      ratio of row lengths and of row counts. Softmax-matmul: points of
//      the problem's TMA readability first, then by the ratios of
//      batch x d1, d2 and d3.
//   3. At each point, its ranked kernels, fastest first: the first that
//      admits the problem on this device (runs on its compute capability,
//      holds the row, has its grid within limits, finds its TMA and
//      workspace conditions met) is taken.
//   4. Without one (no table, or nothing admissible), the fallbacks: for
//      softmax the online kernel of the best alignment class the problem
//      allows; for softmax-matmul an unpipelined mma.sync tile; else any
//      embedded kernel that admits the problem.
//
// Plain functions of their arguments, tested without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_DISPATCH_H
#define TILE_RUNTIME_DISPATCH_H

#include "EmbeddedKernels.h"

#include <cstdint>
#include <string>

namespace tile {
namespace dispatch {

struct DeviceInfo {
  std::string name;
  int ccMajor = 0, ccMinor = 0, sms = 0;
  bool streamOrderedAllocation = false; ///< Grid kernels' workspace
};

struct SoftmaxQuery {
  catalogue::DType dtype;
  catalogue::RowAlignment alignment;
  int64_t rows, cols;
};

struct SoftmaxMatmulQuery {
  catalogue::DType dtype;
  catalogue::Precision precision; ///< IEEE for 2-byte types
  int64_t batch, d1, d2, d3;
  bool tmaReadable;
};

/// The kernels and tables to choose from.
struct Library {
  const embedded::EmbeddedKernel *kernels;
  unsigned numKernels;
  const catalogue::TuningTable *tables;
  unsigned numTables;
};

/// The table for this device (rule 1), or null without tables.
const catalogue::TuningTable *selectTable(const Library &lib,
                                          const DeviceInfo &device);

/// Whether the kernel can run the problem on this device (rule 3).
bool admits(const catalogue::KernelDesc &k, const SoftmaxQuery &q,
            const DeviceInfo &device);
bool admits(const catalogue::KernelDesc &k, const SoftmaxMatmulQuery &q,
            const DeviceInfo &device);

/// The kernel's index in lib.kernels, or -1 if none admits the problem.
int chooseSoftmax(const Library &lib, const DeviceInfo &device,
                  const SoftmaxQuery &q);
int chooseSoftmaxMatmul(const Library &lib, const DeviceInfo &device,
                        const SoftmaxMatmulQuery &q);

} // namespace dispatch
} // namespace tile

#endif // TILE_RUNTIME_DISPATCH_H
