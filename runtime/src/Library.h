//===- Library.h - Choosing and launching library kernels -------*- C++ -*-===//
//
// What every library operation's C API function shares: it checks its
// arguments, forms the operation's Problem and the kernel's arguments, and
// calls run(), which chooses an embedded kernel (TILE_<OP>_VARIANT's if
// set, else the dispatcher's, cached per device and problem), loads its
// module on first use and launches it on the grid and workspace its
// operation plans. The tuner and the tests launch kernels by index.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_LIBRARY_H
#define TILE_RUNTIME_LIBRARY_H

#include "Dispatch.h"
#include "tile_runtime.h"

#include <string>
#include <vector>

namespace tile {
namespace library {

/// The current device, as the dispatcher sees it.
tile_status getDeviceInfo(catalogue::DeviceInfo &device);

/// The embedded kernels and tables.
dispatch::Library getLibrary();

/// Launches embedded kernel `index`, which must admit the problem, with
/// its arguments (before any workspace's, which this adds).
tile_status launch(unsigned index, const catalogue::Problem &p,
                   const tile_arg *args, unsigned numArgs,
                   const catalogue::DeviceInfo &device, void *stream);

/// The kernel for the problem: the one TILE_<OP>_VARIANT names (it must
/// admit the problem, else TILE_ERROR_INVALID_ARGUMENT), else the
/// dispatcher's choice. `fn` names the calling function in errors.
tile_status choose(const char *fn, const catalogue::OpSpec &op,
                   const catalogue::Problem &p,
                   const catalogue::DeviceInfo &device, int *index);

/// choose, then launch.
tile_status run(const char *fn, const catalogue::OpSpec &op,
                const catalogue::Problem &p, const tile_arg *args,
                unsigned numArgs, void *stream);

/// The name of the kernel run() would launch, into name[nameSize].
tile_status chosenName(const char *fn, const catalogue::OpSpec &op,
                       const catalogue::Problem &p, char *name,
                       size_t nameSize);

/// A test case's kernel arguments, its tensors at `tensors` (tile-tune and
/// the tests run operations' test cases on the device).
std::vector<tile_arg> testCaseArguments(const catalogue::TestCase &c,
                                        const std::vector<uint64_t> &tensors);

/// TILE_ERROR_INVALID_ARGUMENT with "fn: what" as the last error.
tile_status invalidArgument(const char *fn, const std::string &what);
/// TILE_ERROR_UNSUPPORTED with "fn: what" as the last error.
tile_status unsupported(const char *fn, const std::string &what);

inline tile_arg pointerArg(uint64_t v) {
  tile_arg a;
  a.kind = TILE_ARG_PTR;
  a.value.ptr = v;
  return a;
}
inline tile_arg i32Arg(int32_t v) {
  tile_arg a;
  a.kind = TILE_ARG_I32;
  a.value.i32 = v;
  return a;
}
inline tile_arg i64Arg(int64_t v) {
  tile_arg a;
  a.kind = TILE_ARG_I64;
  a.value.i64 = v;
  return a;
}

inline tile_arg f32Arg(float v) {
  tile_arg a;
  a.kind = TILE_ARG_F32;
  a.value.f32 = v;
  return a;
}

/// The bytes [first, last] of an array of `rank` dimensions with these
/// sizes (each at least 1) and strides (elements), starting at `base`.
struct ByteSpan {
  uint64_t first, last;
  bool overlaps(const ByteSpan &o) const {
    return first <= o.last && o.first <= last;
  }
};
ByteSpan byteSpan(uint64_t base, const int64_t *sizes, const int64_t *strides,
                  int rank, int64_t elementBytes);

/// Whether t is a tile_dtype (whose values are catalogue::DType's: its
/// size and name are catalogue::getBytes and catalogue::getName).
bool isValidDtype(tile_dtype t);

} // namespace library
} // namespace tile

#endif // TILE_RUNTIME_LIBRARY_H
