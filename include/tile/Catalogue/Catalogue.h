//===- Catalogue.h - The library kernels, described by type -----*- C++ -*-===//
//
// One description of every library kernel configuration, shared by the
// compiler's kernel generator (which builds a kernel from it), the runtime's
// dispatcher (which launches and chooses kernels by it), the tuner and the
// tests. A kernel is found by comparing descriptions, never by its name: the
// name is derived from the description for display and for the symbol of
// the compiled function.
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

/// What a softmax kernel may assume of its rows. Each class admits the
/// inputs of the classes after it: a kernel for Element rows runs any row.
enum class RowAlignment : uint8_t {
  Element = 0, ///< rows aligned to their element size
  Rows16 = 1,  ///< every row starts 16-byte aligned
  Whole16 = 2, ///< ... and holds a multiple of 16 bytes
};

/// The PTX target a kernel is compiled for, which decides where it runs.
enum class Target : uint8_t {
  Sm80 = 0,  ///< compute capability 8.0 and later
  Sm90 = 1,  ///< 9.0 and later (thread block clusters)
  Sm90a = 2, ///< 9.0 only (wgmma, TMA)
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

/// How the product of the exponentiated tile with V is computed.
enum class MatmulProduct : uint8_t {
  Mma,                     ///< mma.sync (FMA for f32 ieee); any target
  Wgmma,                   ///< wgmma, waited for in its step (sm_90a)
  WgmmaInFlight,           ///< wgmma left running across the next step's
                           ///< exponentials (3 or more stages)
  WgmmaTransposed,         ///< f32: P through a shared buffer, O^T = V^T P^T
  WgmmaTransposedInFlight, ///< both
};

/// A softmax(X) @ V kernel.
struct SoftmaxMatmulKernel {
  DType dtype = DType::F32;
  Precision precision = Precision::IEEE;
  int32_t blockM = 0, blockK = 0, blockN = 0, warps = 0;
  int32_t stages = 0;           ///< 0: loads; n >= 2: a cp.async pipeline
  int32_t minProgramsPerSM = 0; ///< occupancy request (registers capped)
  MatmulProduct product = MatmulProduct::Mma;
  bool tma = false; ///< X's and V's blocks copied by TMA (Wgmma products)
  /// 0: the d2 loop. n: the short-row kernel (d2 <= blockK), the softmax
  /// computed once and multiplied with n consecutive blockN column blocks.
  int32_t residentProducts = 0;
};

enum class Op : uint8_t { Softmax = 0, SoftmaxMatmul = 1 };

/// A library kernel: its operation and that operation's description.
struct KernelDesc {
  Op op = Op::Softmax;
  SoftmaxKernel softmax;             ///< op == Softmax
  SoftmaxMatmulKernel softmaxMatmul; ///< op == SoftmaxMatmul
};

bool operator==(const SoftmaxKernel &a, const SoftmaxKernel &b);
bool operator==(const SoftmaxMatmulKernel &a, const SoftmaxMatmulKernel &b);
bool operator==(const KernelDesc &a, const KernelDesc &b);
inline bool operator!=(const KernelDesc &a, const KernelDesc &b) {
  return !(a == b);
}

/// Why the description is not a kernel that can be built ("" if it is).
/// The generator, the tuning-table reader and the tests all call these.
std::string whyInvalid(const SoftmaxKernel &k);
std::string whyInvalid(const SoftmaxMatmulKernel &k);
std::string whyInvalid(const KernelDesc &k);

/// The target the kernel is compiled for.
Target getTarget(const KernelDesc &k);
/// Whether a kernel compiled for `target` runs on this compute capability.
bool runsOn(Target target, int ccMajor, int ccMinor);

/// The (max, sum) pairs a Grid kernel's workspace holds per row: the most
/// programs (slices) one row may take.
constexpr int64_t kGridMaxSlices = 128;

/// Output columns one softmax-matmul program computes.
inline int64_t columnsPerProgram(const SoftmaxMatmulKernel &k) {
  return int64_t(k.blockN) * (k.residentProducts ? k.residentProducts : 1);
}

const char *getName(DType t);
const char *getName(Precision p);
const char *getName(RowAlignment a);
const char *getName(SoftmaxScheme s);
const char *getName(MatmulProduct p);
const char *getName(Target t);

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

struct SoftmaxPoint {
  DType dtype;
  RowAlignment alignment;
  int64_t rows, cols;
  int16_t ranked[kMaxRanked];
};

struct SoftmaxMatmulPoint {
  DType dtype;
  Precision precision;
  int64_t batch, d1, d2, d3;
  bool tmaReadable; ///< X and V allowed TMA copies
  int16_t ranked[kMaxRanked];
};

struct TuningTable {
  DeviceKey device;
  const SoftmaxPoint *softmax;
  unsigned numSoftmax;
  const SoftmaxMatmulPoint *softmaxMatmul;
  unsigned numSoftmaxMatmul;
};

} // namespace catalogue
} // namespace tile

#endif // TILE_CATALOGUE_CATALOGUE_H
