//===- SpecializedRegisters.h - Warp-specialized registers ------*- C++ -*-===//
//
// The register arithmetic of warp-specialized programs, in one place for
// tile-warp-specialize (which sets the counts), the tile.warp_specialize
// verifier (which checks them) and the kernel catalogue (which keeps out
// kernels whose tiles would not fit). Header-only: the runtime's catalogue
// uses it without MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SUPPORT_SPECIALIZEDREGISTERS_H
#define TILE_SUPPORT_SPECIALIZEDREGISTERS_H

#include <algorithm>
#include <cstdint>

namespace mlir {
namespace tile {

/// Warps of a warp-specialized program's producer warpgroup, and the
/// registers each of their threads keeps.
constexpr int64_t kSpecializedProducerWarps = 4;
constexpr int64_t kSpecializedProducerRegisters = 24;
/// The most registers the program's own warps take.
constexpr int64_t kSpecializedMaxRegisters = 240;

/// Registers per thread that a launch of `threads` threads allocates where
/// `programsPerSM` programs share an SM: ptxas' bound (64K registers among
/// them, at most 255 a thread), in multiples of 8. setmaxnreg moves
/// registers within that pool, times the program's threads, only.
inline int64_t getLaunchRegistersPerThread(int64_t threads,
                                           int64_t programsPerSM) {
  return std::min<int64_t>(255, 65536 / (programsPerSM * threads)) / 8 * 8;
}

/// Registers per thread of a warp-specialized program's `warps` own warps:
/// what the producer's warps, at kSpecializedProducerRegisters each, leave
/// of the launch's pool, in multiples of 8, at most
/// kSpecializedMaxRegisters (an increase the pool cannot cover would wait
/// forever).
inline int64_t getSpecializedConsumerRegisters(int64_t warps,
                                               int64_t programsPerSM) {
  int64_t all = warps + kSpecializedProducerWarps;
  int64_t pool = getLaunchRegistersPerThread(32 * all, programsPerSM) * all;
  return std::min<int64_t>(
      kSpecializedMaxRegisters,
      (pool - kSpecializedProducerWarps * kSpecializedProducerRegisters) /
          warps / 8 * 8);
}

} // namespace tile
} // namespace mlir

#endif // TILE_SUPPORT_SPECIALIZEDREGISTERS_H
