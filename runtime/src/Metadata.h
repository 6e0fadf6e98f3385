//===- Metadata.h - Kernel metadata and launch-argument checks ------------===//
//
// Internal to the runtime (and its unit tests): the parser of the metadata
// text that tile-compile writes next to a module, and the check of launch
// arguments against it. Neither needs a driver or a GPU.
//
// Format, one block per kernel, several blocks per text:
//
//   tile-kernel v1
//   name softmax
//   num_warps 4
//   shared_bytes 1024
//   cluster_size 4      programs per cluster along grid x (optional; up to
//                       16, above 8 the runtime opts the kernel in to
//                       non-portable cluster sizes)
//   waits_for_prior_grid the kernel waits for the one launched before it
//                       (tile.wait_prior_grid) before touching its data:
//                       the runtime may start it while that one still runs
//                       (optional)
//   arg ptr f32 16      pointer to f32 data, 16-byte aligned (0: no promise)
//   arg i32 16          integer divisible by 16 (1: no promise)
//   arg f32             f32, f64 and i1 carry no constraint
//   tma arg0 f16 shape arg3 arg5 strides arg6 1 box 8 64 swizzle 128 groups 8
//                       a TMA tensor map (f16, bf16 or f32) the runtime
//                       encodes at launch and
//                       passes after the caller's arguments: the 2-d array
//                       at pointer argument 0, its shape and strides (in
//                       elements, outer dimension first) read from integer
//                       arguments or given as constants, the box one copy
//                       moves (rows, columns) and the shared-memory swizzle
//                       in bytes (32, 64 or 128). With groups W > 0 (box
//                       rows 8) the parameter holds a second, 4-d map of
//                       the same array after the first: [column, row g < 8,
//                       h < 2 (stride 8W rows), 8-row group (stride 8 rows)]
//                       with box [columns, 8, 2, W / 2]: two copies write
//                       16W rows with their 8-row groups interleaved as
//                       wgmma reads them (see TmaBox in the compiler).
//                       A trailing "batch <stride> <count>" (count
//                       possibly "gridN", the launch grid along N) makes
//                       it a batch of such matrices: a 3-d map; up to
//                       three such pairs, innermost first, give a map of
//                       rank 3 to 5 (attention's [batch, heads, seq,
//                       head_dim] with any strides)
//   end
//
// Blank lines and lines whose first non-blank character is '#' are ignored.
// `name` and `num_warps` are required; `shared_bytes` defaults to 0 and
// `cluster_size` to 1.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_METADATA_H
#define TILE_RUNTIME_METADATA_H

#include "tile_runtime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tile {
namespace internal {

struct ArgMeta {
  tile_arg_kind kind = TILE_ARG_PTR;
  /// Element type of a pointer argument ("f32", ...); empty otherwise.
  std::string dtype;
  /// Pointer: alignment in bytes (0 or a power of two). Integer: the
  /// divisibility of the value (0 and 1 both mean none). Else 0.
  int64_t constraint = 0;
};

/// An integer the runtime knows at launch: integer argument `arg` when it
/// is >= 0, else the launch grid's size along `grid` when that is >= 0
/// ("gridN" in the text), else `value`.
struct HostInt {
  int arg = -1;
  int grid = -1;
  int64_t value = 0;
};

/// A `tma` line: see the format above.
struct TensorMapMeta {
  int baseArg = 0;
  std::string dtype;
  HostInt shape[2], strides[2];
  int64_t boxRows = 0, boxCols = 0, swizzle = 0, groups = 0;
  /// Dimensions outside the matrices (0 to 3, innermost first): their
  /// strides in elements and their counts; a batch of matrices has one.
  int outerDims = 0;
  HostInt outerStrides[3], outerCounts[3];
};

/// Tensor maps one kernel may take.
constexpr int kMaxTensorMaps = 8;

struct KernelMeta {
  std::string name;
  /// For one of several specializations of a source's kernel: that
  /// kernel's name and every parameter's value ("1024", "true"), in the
  /// metadata's order; empty otherwise.
  std::string base;
  std::vector<std::pair<std::string, std::string>> params;
  int numWarps = 0;
  int sharedBytes = 0;
  /// Programs per thread block cluster along grid x (1: no clusters); the
  /// grid's x must be a multiple of it.
  int clusterSize = 1;
  /// The kernel waits for its stream's previous kernel (griddepcontrol)
  /// before it reads or writes memory: it may be launched to overlap it.
  bool waitsForPriorGrid = false;
  std::vector<ArgMeta> args;
  /// Passed after `args`, in this order.
  std::vector<TensorMapMeta> tensorMaps;
  /// Line of the block's "tile-kernel" header, for messages.
  int line = 0;
};

/// Parses every block of `text` into `kernels` (cleared first). On a
/// malformed text returns false and sets `error` to a message naming the
/// line ("metadata line 3: ...").
bool parseMetadata(const char *text, std::vector<KernelMeta> &kernels,
                   std::string &error);

/// The specialization of kernel `base` whose parameters have the values of
/// `settings` ("NAME=VALUE,..."; the parameters not named may have any
/// value, but exactly one specialization must match). Null with `error`
/// when none or several match, or a setting is malformed or names no
/// parameter of `base`.
const KernelMeta *findSpecialization(const std::vector<KernelMeta> &kernels,
                                     const std::string &base,
                                     const std::string &settings,
                                     std::string &error);

/// "ptr", "i32", ... ; "invalid" for a value outside the enum.
const char *argKindName(tile_arg_kind kind);

/// Grid limits that every CUDA device of compute capability >= 3.0 has.
constexpr uint32_t kMaxGridX = 2147483647u;
constexpr uint32_t kMaxGridYZ = 65535u;

/// Checks a launch of `kernel` against its metadata: grid non-null with
/// every dimension in [1, limit], args non-null when numArgs > 0, the count
/// and kind of each argument, pointers non-null and aligned, integers
/// divisible. Returns TILE_SUCCESS or TILE_ERROR_INVALID_ARGUMENT with
/// `error` set to the message tile_kernel_launch reports, e.g.
/// "tile_kernel_launch(softmax): argument #0 (ptr) is null". Argument
/// numbers are 0-based indices into `args`.
tile_status validateLaunch(const KernelMeta &kernel, const uint32_t *grid,
                           const tile_arg *args, int numArgs,
                           std::string &error);

/// What a tensor map is encoded from (innermost dimension first, as
/// cuTensorMapEncodeTiled takes them).
struct TensorMapArgs {
  uint64_t address = 0;
  uint64_t dims[2] = {0, 0};
  uint64_t rowStrideBytes = 0;
  uint32_t box[2] = {0, 0};
  int64_t swizzle = 0;
  bool bf16 = false, f32 = false;
  /// The interleaved map's W, or 0 (see `groups` in the format above).
  uint32_t groups = 0;
  /// Dimensions outside the matrices (innermost first): their counts and
  /// strides in bytes.
  int outerDims = 0;
  uint64_t outerCounts[3] = {0, 0, 0}, outerStrideBytes[3] = {0, 0, 0};
};

/// Evaluates `kernel`'s tensor maps for a launch whose arguments passed
/// validateLaunch, into out[0 .. kernel.tensorMaps.size()), checking what
/// TMA requires of the arrays: unit stride along the last dimension, a
/// 16-byte aligned base, a row stride that is a multiple of 16 bytes below
/// 2^40, dimensions from 1 to 2^32. Returns TILE_SUCCESS or
/// TILE_ERROR_INVALID_ARGUMENT with `error` naming the argument.
tile_status resolveTensorMaps(const KernelMeta &kernel, const uint32_t *grid,
                              const tile_arg *args, TensorMapArgs *out,
                              std::string &error);

/// True once tile_init has succeeded in this process (for tests that need
/// the uninitialized state).
bool runtimeInitialized();

} // namespace internal
} // namespace tile

#endif // TILE_RUNTIME_METADATA_H
