//===- TuningCache.h - Tuned parameters of user kernels ---------*- C++ -*-===//
//
// `tile-tune` measures a parameterized kernel over a parameter space and
// keeps the fastest correct setting in a JSON file; `tile-run --tuned FILE`
// runs the kernel with it. An entry is keyed by the device (name, compute
// capability, SM count), the kernel (the source's hash and the --kernel
// name), and the problem (the dtypes, shapes and scalar values of the
// arguments); a change to any of them needs a new measurement.
//
//   {"format": "tile-tuning-cache", "version": 1, "entries": [
//     {"device": "NVIDIA H100 80GB HBM3, sm_90, 132 SMs",
//      "source": "xxh3:4c1f...", "kernel": "matmul_f16_auto",
//      "problem": "a=f16[4096x4096] b=f16[4096x4096] ... i32:4096",
//      "parameters": {"BLOCK_M": 128, "GROUP_M": 8},
//      "ms": 0.71, "candidates": 24, "date": "2026-11-26"}]}
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SUPPORT_TUNINGCACHE_H
#define TILE_SUPPORT_TUNINGCACHE_H

#include "tile/Support/KernelParameters.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace mlir {
namespace tile {

struct TuningKey {
  std::string device;
  std::string source;
  std::string kernel;
  std::string problem;

  bool operator==(const TuningKey &other) const {
    return device == other.device && source == other.source &&
           kernel == other.kernel && problem == other.problem;
  }
};

struct TuningEntry {
  TuningKey key;
  /// The fastest correct setting; integers and booleans as text.
  std::vector<ParameterSetting> parameters;
  double ms = 0;
  unsigned candidates = 0;
  std::string date;
};

/// "BLOCK_M=128, GROUP_M=8": settings as the tools show them.
std::string describeSettings(llvm::ArrayRef<ParameterSetting> settings);

/// "xxh3:" and the 64-bit xxh3 hash of a kernel source, in hex.
std::string hashKernelSource(llvm::StringRef text);

/// Reads the entries of the cache at `path`; a missing file has none.
/// False, with `error`, for a file that is not such a cache.
bool readTuningCache(llvm::StringRef path, std::vector<TuningEntry> &entries,
                     std::string &error);

/// Writes `entry` into the cache at `path`, replacing an entry of the same
/// key and keeping the others.
bool updateTuningCache(llvm::StringRef path, const TuningEntry &entry,
                       std::string &error);

/// The entry of `key`, or null.
const TuningEntry *findTuning(llvm::ArrayRef<TuningEntry> entries,
                              const TuningKey &key);

} // namespace tile
} // namespace mlir

#endif // TILE_SUPPORT_TUNINGCACHE_H
