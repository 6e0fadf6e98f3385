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
//   arg ptr f32 16      pointer to f32 data, 16-byte aligned (0: no promise)
//   arg i32 16          integer divisible by 16 (1: no promise)
//   arg f32             f32, f64 and i1 carry no constraint
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

struct KernelMeta {
  std::string name;
  int numWarps = 0;
  int sharedBytes = 0;
  /// Programs per thread block cluster along grid x (1: no clusters); the
  /// grid's x must be a multiple of it.
  int clusterSize = 1;
  std::vector<ArgMeta> args;
  /// Line of the block's "tile-kernel" header, for messages.
  int line = 0;
};

/// Parses every block of `text` into `kernels` (cleared first). On a
/// malformed text returns false and sets `error` to a message naming the
/// line ("metadata line 3: ...").
bool parseMetadata(const char *text, std::vector<KernelMeta> &kernels,
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

/// True once tile_init has succeeded in this process (for tests that need
/// the uninitialized state).
bool runtimeInitialized();

} // namespace internal
} // namespace tile

#endif // TILE_RUNTIME_METADATA_H
