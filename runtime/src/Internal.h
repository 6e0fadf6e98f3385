//===- Internal.h - Runtime internals shared between its files --*- C++ -*-===//

#ifndef TILE_RUNTIME_INTERNAL_H
#define TILE_RUNTIME_INTERNAL_H

#include "tile_runtime.h"

#include <string>

namespace tile {
namespace internal {
/// Records `message` as this thread's last error and returns `status`.
tile_status setError(tile_status status, std::string message);

/// Whether the driver allocates memory in stream order (cuMemAllocAsync).
bool hasStreamOrderedAllocation();
/// `bytes` of device memory for work queued on `stream`, its first
/// `zeroWords` 32-bit words zeroed in stream order; freed with
/// freeWorkspace on the same stream once that work is queued.
tile_status allocWorkspace(size_t bytes, size_t zeroWords, void *stream,
                           uint64_t *ptr);
tile_status freeWorkspace(uint64_t ptr, void *stream);

/// As tile_time, but each timed call of `fn(user)` is preceded, outside its
/// pair of events, by `prepare(user)` (e.g. a write that flushes L2).
tile_status timeEach(void (*prepare)(void *user), void (*fn)(void *user),
                     void *user, void *stream, int warmup, int iters,
                     float *ms);
} // namespace internal
} // namespace tile

#endif // TILE_RUNTIME_INTERNAL_H
