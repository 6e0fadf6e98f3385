//===- EmbeddedKernels.h - Kernels compiled into the runtime ----*- C++ -*-===//
//
// What tile-kernel-gen writes at build time: the library kernels with their
// descriptions, images and metadata, and the tuning tables that rank them.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_EMBEDDEDKERNELS_H
#define TILE_RUNTIME_EMBEDDEDKERNELS_H

#include "tile/Catalogue/Catalogue.h"

#include <cstddef>

namespace tile {
namespace embedded {

struct EmbeddedKernel {
  const char *name; ///< the function's symbol (for display and lookup)
  catalogue::KernelDesc desc;
  const char *image; ///< PTX, or a fat binary of machine code and PTX
  size_t imageSize;
  const char *metadata;
};

extern const EmbeddedKernel kKernels[];
extern const unsigned kNumKernels;
/// One table per measured device; kNumTables may be 0.
extern const catalogue::TuningTable kTables[];
extern const unsigned kNumTables;

} // namespace embedded
} // namespace tile

#endif // TILE_RUNTIME_EMBEDDEDKERNELS_H
