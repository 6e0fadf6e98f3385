//===- Dispatch.h - Choosing a kernel from tuning tables --------*- C++ -*-===//
//
// The rule, for a problem of an operation on a device:
//   1. The table: the one measured on a device of the same name and SM
//      count, else the same name, else the same compute capability, else
//      the same major version, else the first table.
//   2. The table's points of the operation with the problem's key values
//      (its types), nearest first by the operation's distance
//      (OpSpec::distance), ties in table order.
//   3. At each point, its ranked kernels, fastest first: the first that
//      admits the problem on this device (runs on its compute capability,
//      and OpSpec::admits) is taken.
//   4. Without one (no table, or nothing admissible), the operation's
//      fallbacks in their order, then any embedded kernel of the operation
//      that admits the problem.
//
// Plain functions of their arguments, tested without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_DISPATCH_H
#define TILE_RUNTIME_DISPATCH_H

#include "EmbeddedKernels.h"
#include "tile/Catalogue/OpSpec.h"

#include <cstdint>
#include <string>

namespace tile {
namespace dispatch {

using catalogue::DeviceInfo;

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

/// Whether the kernel, of operation `op`, runs the problem on this device
/// (rule 3).
bool admits(const catalogue::OpSpec &op, const catalogue::KernelDesc &k,
            const catalogue::Problem &p, const DeviceInfo &device);

/// The kernel's index in lib.kernels, or -1 if none admits the problem.
int choose(const Library &lib, const DeviceInfo &device,
           const catalogue::OpSpec &op, const catalogue::Problem &p);

} // namespace dispatch
} // namespace tile

#endif // TILE_RUNTIME_DISPATCH_H
