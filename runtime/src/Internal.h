//===- Internal.h - Runtime internals shared between its files --*- C++ -*-===//

#ifndef TILE_RUNTIME_INTERNAL_H
#define TILE_RUNTIME_INTERNAL_H

#include "tile_runtime.h"

#include <string>

namespace tile {
namespace internal {
/// Records `message` as this thread's last error and returns `status`.
tile_status setError(tile_status status, std::string message);
} // namespace internal
} // namespace tile

#endif // TILE_RUNTIME_INTERNAL_H
