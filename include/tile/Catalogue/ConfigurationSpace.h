//===- ConfigurationSpace.h - Every buildable library kernel ----*- C++ -*-===//
//
// The configuration space of the library kernels: what tile-tune measures
// and the generator can build. The default build embeds only the kernels a
// tuning table ranks and the fallbacks below; -DTILE_TUNING_KERNELS=ON
// embeds the whole space.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CATALOGUE_CONFIGURATIONSPACE_H
#define TILE_CATALOGUE_CONFIGURATIONSPACE_H

#include "tile/Catalogue/Catalogue.h"

#include <vector>

namespace tile {
namespace catalogue {

/// Every kernel configuration, in a fixed order, each valid (whyInvalid).
std::vector<KernelDesc> getConfigurationSpace();

/// The kernels the dispatcher falls back to where no tuning table ranks an
/// admissible kernel: for softmax the online kernel of each dtype for any
/// row (Element alignment), for softmax-matmul an unpipelined mma.sync tile
/// of each dtype and precision. They run on every target.
std::vector<KernelDesc> getFallbackKernels();

} // namespace catalogue
} // namespace tile

#endif // TILE_CATALOGUE_CONFIGURATIONSPACE_H
