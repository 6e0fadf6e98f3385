//===- Catalogue.h - The library kernels, described by type -----*- C++ -*-===//
//
// One description of every library kernel configuration, shared by the
// compiler's kernel generator (which builds a kernel from it), the runtime's
// dispatcher (which launches and chooses kernels by it), the tuner and the
// tests. A kernel is its operation's name and the values of that
// operation's parameters (OpSpec.h declares them); it is found by comparing
// descriptions, never by its name, which is derived from the description for
// display and for the symbol of the compiled function.
//
// Plain C++17 without MLIR or CUDA: the runtime includes it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CATALOGUE_CATALOGUE_H
#define TILE_CATALOGUE_CATALOGUE_H

#include <cstdint>
#include <string>

namespace tile {
namespace catalogue {

/// Element types of the library operations (the values of tile_dtype).
enum class DType : uint8_t { F32 = 0, F16 = 1, BF16 = 2 };
/// How f32 products are computed (the values of tile_precision); 2-byte
/// types always use IEEE (their products are exact in f32).
enum class Precision : uint8_t { IEEE = 0, TF32 = 1, TF32x3 = 2 };

/// The PTX target a kernel is compiled for, which decides where it runs.
enum class Target : uint8_t {
  Sm80 = 0,  ///< compute capability 8.0 and later
  Sm90 = 1,  ///< 9.0 and later (thread block clusters)
  Sm90a = 2, ///< 9.0 only (wgmma, TMA)
};

/// Whether a kernel compiled for `target` runs on this compute capability.
bool runsOn(Target target, int ccMajor, int ccMinor);

const char *getName(DType t);
const char *getName(Precision p);
const char *getName(Target t);
/// Bytes of one element.
inline int64_t getBytes(DType t) { return t == DType::F32 ? 4 : 2; }

/// The most parameters an operation's kernels have.
constexpr int kMaxParams = 20;

/// A library kernel: its operation (OpSpec::getName, e.g. "softmax") and the
/// values of the operation's kernel parameters, in the order the operation
/// declares them; the others are zero.
struct KernelDesc {
  const char *op = "";
  int32_t params[kMaxParams] = {};
};

bool operator==(const KernelDesc &a, const KernelDesc &b);
inline bool operator!=(const KernelDesc &a, const KernelDesc &b) {
  return !(a == b);
}

/// The most fields an operation's problems have.
constexpr int kMaxProblemFields = 9;

/// A problem of an operation (its types and sizes, and the properties of
/// its arguments that kernels may require), as the values of the
/// operation's problem fields in the order it declares them.
struct Problem {
  int64_t values[kMaxProblemFields] = {};
};

bool operator==(const Problem &a, const Problem &b);

/// The GPU a kernel is chosen for.
struct DeviceInfo {
  std::string name;
  int ccMajor = 0, ccMinor = 0, sms = 0;
  bool streamOrderedAllocation = false; ///< workspaces in stream order
};

/// Why the description is not a kernel that can be built ("" if it is):
/// an unknown operation, values outside their fields' ranges, or a
/// combination the operation rules out. The generator, the tuning-table
/// reader and the tests all call it.
std::string whyInvalid(const KernelDesc &k);

/// The target the kernel is compiled for (that of a valid kernel).
Target getTarget(const KernelDesc &k);

//===----------------------------------------------------------------------===//
// Tuning tables, as embedded in the runtime
//===----------------------------------------------------------------------===//

/// The device a table was measured on.
struct DeviceKey {
  const char *name; ///< as the driver reports it, e.g. "NVIDIA H200"
  int ccMajor, ccMinor, sms;
};

/// Kernels ranked at one measured point: indices into the runtime's kernel
/// table, fastest first, -1 after the last.
constexpr int kMaxRanked = 8;

/// A measured problem of an operation and its ranked kernels.
struct TablePoint {
  const char *op;
  Problem problem;
  int16_t ranked[kMaxRanked];
};

struct TuningTable {
  DeviceKey device;
  const TablePoint *points;
  unsigned numPoints;
};

} // namespace catalogue
} // namespace tile

#endif // TILE_CATALOGUE_CATALOGUE_H
