//===- LibraryOps.cpp - tile_softmax and tile_softmax_matmul --------------===//
//
// The library operations check their arguments, choose a kernel from the
// tuning tables (Dispatch.h) and launch it; each kernel's module is loaded
// on first use. TILE_SOFTMAX_VARIANT and TILE_SOFTMAX_MATMUL_VARIANT name a
// kernel to run instead (tuning, tests); it must admit the problem.
//
//===----------------------------------------------------------------------===//

#include "Dispatch.h"
#include "EmbeddedKernels.h"
#include "Internal.h"
#include "Library.h"
#include "tile_runtime.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

using namespace tile::catalogue;
using tile::dispatch::DeviceInfo;
using tile::dispatch::SoftmaxMatmulQuery;
using tile::dispatch::SoftmaxQuery;
using tile::embedded::EmbeddedKernel;
using tile::embedded::kKernels;
using tile::embedded::kNumKernels;
using tile::internal::setError;

namespace {

std::mutex cacheMutex;
std::vector<tile_kernel> &cache() {
  static std::vector<tile_kernel> *kernels =
      new std::vector<tile_kernel>(kNumKernels, nullptr);
  return *kernels;
}

tile_status loadKernel(unsigned index, tile_kernel *out) {
  std::lock_guard<std::mutex> lock(cacheMutex);
  tile_kernel &slot = cache()[index];
  if (!slot) {
    const EmbeddedKernel &k = kKernels[index];
    tile_module module = nullptr;
    tile_status s =
        tile_module_load(k.image, k.imageSize, k.metadata, &module);
    if (s != TILE_SUCCESS)
      return s;
    s = tile_module_get_kernel(module, k.name, &slot);
    if (s != TILE_SUCCESS)
      return s;
  }
  *out = slot;
  return TILE_SUCCESS;
}

const char *dtypeName(int t) {
  switch (t) {
  case TILE_F32: return "f32";
  case TILE_F16: return "f16";
  case TILE_BF16: return "bf16";
  default: return "unknown";
  }
}

/// Bytes of one element of a valid dtype.
int64_t dtypeBytes(tile_dtype t) { return t == TILE_F32 ? 4 : 2; }

bool validDtype(tile_dtype t) {
  return t == TILE_F32 || t == TILE_F16 || t == TILE_BF16;
}

bool validPrecision(tile_precision p) {
  return p == TILE_PRECISION_IEEE || p == TILE_PRECISION_TF32 ||
         p == TILE_PRECISION_TF32X3;
}

constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

tile::dispatch::Library library() {
  return {kKernels, kNumKernels, tile::embedded::kTables,
          tile::embedded::kNumTables};
}

/// The kernel a TILE_*_VARIANT variable names, or -1 (none set), or -2 (a
/// name that no embedded kernel has).
int forcedKernel(const char *variable) {
  const char *name = std::getenv(variable);
  if (!name)
    return -1;
  for (unsigned i = 0; i < kNumKernels; ++i)
    if (std::strcmp(kKernels[i].name, name) == 0)
      return (int)i;
  return -2;
}

/// The query of a softmax problem.
SoftmaxQuery softmaxQuery(tile_dtype dtype, int64_t rows, int64_t cols,
                          bool aligned) {
  RowAlignment a = !aligned ? RowAlignment::Element
                   : (cols * dtypeBytes(dtype)) % 16 == 0
                       ? RowAlignment::Whole16
                       : RowAlignment::Rows16;
  return {DType(dtype), a, rows, cols};
}

/// Choices already made, so that a call costs a lookup rather than the
/// rule's walk over the table (about 10 us, as long as a short kernel).
/// Keyed by the device's compute capability and SM count and the
/// problem; cleared when it reaches kMaxCachedChoices.
using ChoiceKey = std::tuple<int, int, int, int, int, int, int64_t, int64_t,
                             int64_t, int64_t, bool>;
constexpr size_t kMaxCachedChoices = 4096;

int cachedChoice(const ChoiceKey &key,
                 int (*choose)(const void *, const DeviceInfo &),
                 const void *query, const DeviceInfo &device) {
  static std::mutex mutex;
  static std::map<ChoiceKey, int> *choices = new std::map<ChoiceKey, int>();
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = choices->find(key);
    if (it != choices->end())
      return it->second;
  }
  int index = choose(query, device);
  std::lock_guard<std::mutex> lock(mutex);
  if (choices->size() >= kMaxCachedChoices)
    choices->clear();
  choices->emplace(key, index);
  return index;
}

int chooseSoftmaxCached(const SoftmaxQuery &q, const DeviceInfo &device) {
  ChoiceKey key{0,
                device.ccMajor,
                device.ccMinor,
                device.sms,
                int(q.dtype),
                int(q.alignment),
                q.rows,
                q.cols,
                0,
                0,
                device.streamOrderedAllocation};
  return cachedChoice(
      key,
      [](const void *query, const DeviceInfo &d) {
        return tile::dispatch::chooseSoftmax(
            library(), d, *static_cast<const SoftmaxQuery *>(query));
      },
      &q, device);
}

int chooseSoftmaxMatmulCached(const SoftmaxMatmulQuery &q,
                              const DeviceInfo &device) {
  ChoiceKey key{1,
                device.ccMajor,
                device.ccMinor,
                device.sms,
                int(q.dtype) * 4 + int(q.precision),
                int(q.tmaReadable),
                q.batch,
                q.d1,
                q.d2,
                q.d3,
                device.streamOrderedAllocation};
  return cachedChoice(
      key,
      [](const void *query, const DeviceInfo &d) {
        return tile::dispatch::chooseSoftmaxMatmul(
            library(), d, *static_cast<const SoftmaxMatmulQuery *>(query));
      },
      &q, device);
}

/// The kernel for a softmax problem (forced or chosen), or an error.
tile_status chooseSoftmax(const char *fn, const SoftmaxQuery &q, int *index) {
  DeviceInfo device;
  tile_status s = tile::library::getDeviceInfo(device);
  if (s != TILE_SUCCESS)
    return s;
  int forced = forcedKernel("TILE_SOFTMAX_VARIANT");
  if (forced == -2 || (forced >= 0 && !tile::dispatch::admits(
                                          kKernels[forced].desc, q, device)))
    return setError(TILE_ERROR_INVALID_ARGUMENT,
                    std::string(fn) + ": TILE_SOFTMAX_VARIANT='" +
                        std::getenv("TILE_SOFTMAX_VARIANT") +
                        "' names no embedded kernel that runs this " +
                        getName(q.dtype) + " softmax of " +
                        std::to_string(q.cols) + " columns here");
  *index = forced >= 0 ? forced : chooseSoftmaxCached(q, device);
  if (*index < 0)
    return setError(TILE_ERROR_UNSUPPORTED,
                    std::string(fn) + ": no kernel for these arguments");
  return TILE_SUCCESS;
}

tile_status chooseSoftmaxMatmul(const char *fn, const SoftmaxMatmulQuery &q,
                                int *index) {
  DeviceInfo device;
  tile_status s = tile::library::getDeviceInfo(device);
  if (s != TILE_SUCCESS)
    return s;
  int forced = forcedKernel("TILE_SOFTMAX_MATMUL_VARIANT");
  if (forced == -2 || (forced >= 0 && !tile::dispatch::admits(
                                          kKernels[forced].desc, q, device)))
    return setError(TILE_ERROR_INVALID_ARGUMENT,
                    std::string(fn) + ": TILE_SOFTMAX_MATMUL_VARIANT='" +
                        std::getenv("TILE_SOFTMAX_MATMUL_VARIANT") +
                        "' names no embedded " + getName(q.dtype) + " " +
                        getName(q.precision) +
                        " kernel that runs these sizes here");
  *index = forced >= 0 ? forced : chooseSoftmaxMatmulCached(q, device);
  if (*index < 0)
    return setError(TILE_ERROR_UNSUPPORTED,
                    std::string(fn) + ": no kernel for these arguments");
  return TILE_SUCCESS;
}

/// The query of a softmax-matmul problem; 2-byte products are exact in
/// f32, so one precision serves them all.
SoftmaxMatmulQuery softmaxMatmulQuery(tile_dtype dtype,
                                      tile_precision precision, int64_t batch,
                                      int64_t d1, int64_t d2, int64_t d3,
                                      bool tmaReadable) {
  Precision p = dtype == TILE_F32 ? Precision(precision) : Precision::IEEE;
  return {DType(dtype), p, batch, d1, d2, d3, tmaReadable};
}

tile_status checkSoftmax(uint64_t y, tile_dtype y_dtype, int64_t y_row_stride,
                         uint64_t x, tile_dtype x_dtype, int64_t x_row_stride,
                         int64_t rows, int64_t cols) {
  const char *fn = "tile_softmax";
  auto bad = [&](const std::string &what) {
    return setError(TILE_ERROR_INVALID_ARGUMENT, std::string(fn) + ": " + what);
  };
  if (!y || !x)
    return bad(!x ? "x is null" : "y is null");
  if (!validDtype(y_dtype) || !validDtype(x_dtype))
    return bad("unknown dtype");
  if (rows < 1 || cols < 1)
    return bad("rows and cols must be at least 1 (got " +
               std::to_string(rows) + " x " + std::to_string(cols) + ")");
  if (rows > kInt32Max || cols > kInt32Max)
    return bad("rows and cols must be below 2^31");
  if (x_row_stride < cols || y_row_stride < cols)
    return bad("row strides (x " + std::to_string(x_row_stride) + ", y " +
               std::to_string(y_row_stride) +
               ") must be at least cols (" + std::to_string(cols) +
               "): rows would overlap");
  if (y_dtype != x_dtype)
    return setError(TILE_ERROR_UNSUPPORTED,
                    std::string(fn) + ": x is " + dtypeName(x_dtype) +
                        " but y is " + dtypeName(y_dtype) +
                        "; input and output must share a dtype");
  int64_t esize = dtypeBytes(x_dtype);
  if (x % esize || y % esize)
    return bad("x and y must be aligned to their element size");
  return TILE_SUCCESS;
}

/// Whether every row of x and y starts 16-byte aligned (what the aligned
/// variants promise the compiler: one 16-byte access per 16 bytes).
bool isAligned(uint64_t y, int64_t y_row_stride, uint64_t x,
               int64_t x_row_stride, int64_t elemBytes) {
  return x % 16 == 0 && y % 16 == 0 && (x_row_stride * elemBytes) % 16 == 0 &&
         (y_row_stride * elemBytes) % 16 == 0;
}

/// The bytes [first, last] an array of these sizes and strides spans.
std::pair<uint64_t, uint64_t> byteSpan(uint64_t base, const int64_t sizes[3],
                                       const int64_t strides[3],
                                       int64_t esize) {
  uint64_t last = 0;
  for (int i = 0; i < 3; ++i)
    last += (uint64_t)(sizes[i] - 1) * (uint64_t)strides[i];
  return {base, base + (last + 1) * (uint64_t)esize - 1};
}

} // namespace

namespace tile {
namespace library {

tile_status getDeviceInfo(dispatch::DeviceInfo &device) {
  char name[256];
  tile_status s = tile_device_info(name, sizeof(name), &device.ccMajor,
                                   &device.ccMinor, &device.sms);
  if (s != TILE_SUCCESS)
    return s;
  device.name = name;
  device.streamOrderedAllocation = internal::hasStreamOrderedAllocation();
  return TILE_SUCCESS;
}

tile_status launchSoftmax(unsigned index, uint64_t y, int64_t y_row_stride,
                          uint64_t x, int64_t x_row_stride, int64_t rows,
                          int64_t cols, void *stream) {
  const EmbeddedKernel &e = kKernels[index];
  const SoftmaxKernel &k = e.desc.softmax;
  tile_kernel kernel;
  tile_status s = loadKernel(index, &kernel);
  if (s != TILE_SUCCESS)
    return s;
  tile_arg args[8];
  args[0].kind = TILE_ARG_PTR;
  args[0].value.ptr = y;
  args[1].kind = TILE_ARG_PTR;
  args[1].value.ptr = x;
  args[2].kind = TILE_ARG_I64;
  args[2].value.i64 = y_row_stride;
  args[3].kind = TILE_ARG_I64;
  args[3].value.i64 = x_row_stride;
  args[4].kind = TILE_ARG_I32;
  args[4].value.i32 = (int32_t)rows;
  args[5].kind = TILE_ARG_I32;
  args[5].value.i32 = (int32_t)cols;
  int64_t programs = rows; // Online: one per row
  switch (k.scheme) {
  case SoftmaxScheme::Rows:
    programs = (rows + k.rows - 1) / k.rows;
    break;
  case SoftmaxScheme::PersistentRows: {
    // Enough programs for 1024 threads per SM; each loops over the rest.
    DeviceInfo device;
    if ((s = getDeviceInfo(device)) != TILE_SUCCESS)
      return s;
    int64_t perSm = std::max<int64_t>(1, 1024 / (32 * k.warps));
    programs = std::min<int64_t>((rows + k.rows - 1) / k.rows,
                                 (int64_t)device.sms * perSm);
    break;
  }
  case SoftmaxScheme::Cluster:
  case SoftmaxScheme::ClusterLoop:
    programs = rows * k.clusterSize; // below 2^31 (dispatch::admits)
    break;
  case SoftmaxScheme::Grid: {
    // The workspace: the ticket and one counter per row (zeroed), then
    // 2 x kGridMaxSlices (max, sum) words per row; allocated and freed in
    // stream order, so that launches on other streams never share it.
    int64_t slices = (cols + k.block - 1) / k.block; // dispatch::admits
    size_t counterWords = (size_t)rows + 1;
    // Pairs from a 128-byte boundary: no cache line holds two rows' pairs.
    size_t statsOffset = (counterWords * 4 + 127) / 128 * 128;
    size_t bytes = statsOffset + (size_t)rows * 2 * kGridMaxSlices * 4;
    uint64_t workspace = 0;
    if ((s = internal::allocWorkspace(bytes, counterWords, stream,
                                      &workspace)) != TILE_SUCCESS)
      return s;
    args[6].kind = TILE_ARG_PTR;
    args[6].value.ptr = workspace;
    args[7].kind = TILE_ARG_PTR;
    args[7].value.ptr = workspace + statsOffset;
    uint32_t grid[3] = {(uint32_t)(rows * slices), 1, 1};
    tile_status launched = tile_kernel_launch(kernel, grid, args, 8, stream);
    tile_status freed = internal::freeWorkspace(workspace, stream);
    return launched != TILE_SUCCESS ? launched : freed;
  }
  case SoftmaxScheme::Online:
    break;
  }
  uint32_t grid[3] = {(uint32_t)programs, 1, 1};
  return tile_kernel_launch(kernel, grid, args, 6, stream);
}

tile_status launchSoftmaxMatmul(unsigned index, uint64_t out,
                                const int64_t out_strides[3], uint64_t x,
                                const int64_t x_strides[3], uint64_t v,
                                const int64_t v_strides[3], int64_t batch,
                                int64_t d1, int64_t d2, int64_t d3,
                                void *stream) {
  const SoftmaxMatmulKernel &k = kKernels[index].desc.softmaxMatmul;
  tile_kernel kernel;
  tile_status s = loadKernel(index, &kernel);
  if (s != TILE_SUCCESS)
    return s;
  tile_arg args[15];
  uint64_t ptrs[3] = {out, x, v};
  for (int i = 0; i < 3; ++i) {
    args[i].kind = TILE_ARG_PTR;
    args[i].value.ptr = ptrs[i];
  }
  int64_t sizes[3] = {d1, d2, d3};
  for (int i = 0; i < 3; ++i) {
    args[3 + i].kind = TILE_ARG_I32;
    args[3 + i].value.i32 = (int32_t)sizes[i];
  }
  const int64_t *strides[3] = {out_strides, x_strides, v_strides};
  for (int t = 0; t < 3; ++t)
    for (int d = 0; d < 3; ++d) {
      args[6 + 3 * t + d].kind = TILE_ARG_I64;
      args[6 + 3 * t + d].value.i64 = strides[t][d];
    }
  int64_t columns = columnsPerProgram(k);
  uint32_t grid[3] = {(uint32_t)((d1 + k.blockM - 1) / k.blockM),
                      (uint32_t)((d3 + columns - 1) / columns),
                      (uint32_t)batch};
  return tile_kernel_launch(kernel, grid, args, 15, stream);
}

bool softmaxMatmulTmaReadable(tile_dtype dtype, uint64_t x,
                              const int64_t x_strides[3], uint64_t v,
                              const int64_t v_strides[3], int64_t batch) {
  // TMA reads X and V if their rows are contiguous and every row and
  // matrix starts 16-byte aligned (tensor maps, checked again at launch).
  int64_t esize = dtypeBytes(dtype);
  auto tmaRows = [&](uint64_t base, const int64_t *strides) {
    return base % 16 == 0 && strides[2] == 1 &&
           (strides[1] * esize) % 16 == 0 &&
           (batch == 1 || (strides[0] * esize) % 16 == 0) &&
           strides[0] < (int64_t(1) << 36) && strides[1] < (int64_t(1) << 36);
  };
  return tmaRows(x, x_strides) && tmaRows(v, v_strides);
}

} // namespace library
} // namespace tile

extern "C" size_t tile_library_kernel_count(void) { return kNumKernels; }

extern "C" const char *tile_library_kernel_name(size_t index) {
  return index < kNumKernels ? kKernels[index].name : nullptr;
}

extern "C" tile_status tile_softmax_variant(tile_dtype y_dtype,
                                            tile_dtype x_dtype, int64_t cols,
                                            int aligned, char *name,
                                            size_t name_size) {
  const char *fn = "tile_softmax_variant";
  if (!name || name_size == 0)
    return setError(TILE_ERROR_INVALID_ARGUMENT,
                    std::string(fn) + ": name is null");
  if (!validDtype(y_dtype) || !validDtype(x_dtype) || y_dtype != x_dtype ||
      cols < 1 || cols > kInt32Max)
    return setError(TILE_ERROR_UNSUPPORTED,
                    std::string(fn) + ": no kernel for these dtypes and cols");
  int index = -1;
  tile_status s =
      chooseSoftmax(fn, softmaxQuery(x_dtype, 1, cols, aligned != 0), &index);
  if (s != TILE_SUCCESS)
    return s;
  std::strncpy(name, kKernels[index].name, name_size - 1);
  name[name_size - 1] = 0;
  return TILE_SUCCESS;
}

extern "C" tile_status tile_softmax_matmul_variant(tile_dtype dtype,
                                                   tile_precision precision,
                                                   int64_t d1, int64_t d2,
                                                   int64_t d3, char *name,
                                                   size_t name_size) {
  const char *fn = "tile_softmax_matmul_variant";
  if (!name || name_size == 0)
    return setError(TILE_ERROR_INVALID_ARGUMENT,
                    std::string(fn) + ": name is null");
  if (!validDtype(dtype) || !validPrecision(precision) || d1 < 1 || d2 < 1 ||
      d3 < 1)
    return setError(TILE_ERROR_INVALID_ARGUMENT,
                    std::string(fn) + ": bad dtype, precision or sizes");
  // Contiguous tensors with 16-byte aligned bases, as the header says.
  int64_t esize = dtypeBytes(dtype);
  bool tmaReadable = (d2 * esize) % 16 == 0 && (d3 * esize) % 16 == 0;
  int index = -1;
  tile_status s = chooseSoftmaxMatmul(
      fn, softmaxMatmulQuery(dtype, precision, 1, d1, d2, d3, tmaReadable),
      &index);
  if (s != TILE_SUCCESS)
    return s;
  std::strncpy(name, kKernels[index].name, name_size - 1);
  name[name_size - 1] = 0;
  return TILE_SUCCESS;
}

extern "C" tile_status tile_softmax(uint64_t y, tile_dtype y_dtype,
                                    int64_t y_row_stride, uint64_t x,
                                    tile_dtype x_dtype, int64_t x_row_stride,
                                    int64_t rows, int64_t cols, void *stream) {
  tile_status s = checkSoftmax(y, y_dtype, y_row_stride, x, x_dtype,
                               x_row_stride, rows, cols);
  if (s != TILE_SUCCESS)
    return s;
  bool aligned =
      isAligned(y, y_row_stride, x, x_row_stride, dtypeBytes(x_dtype));
  int index = -1;
  if ((s = chooseSoftmax("tile_softmax",
                         softmaxQuery(x_dtype, rows, cols, aligned), &index)) !=
      TILE_SUCCESS)
    return s;
  return tile::library::launchSoftmax(index, y, y_row_stride, x, x_row_stride,
                                      rows, cols, stream);
}

extern "C" tile_status
tile_softmax_matmul(uint64_t out, const int64_t out_strides[3], uint64_t x,
                    const int64_t x_strides[3], uint64_t v,
                    const int64_t v_strides[3], tile_dtype dtype,
                    int64_t batch, int64_t d1, int64_t d2, int64_t d3,
                    tile_precision precision, void *stream) {
  const char *fn = "tile_softmax_matmul";
  auto bad = [&](const std::string &what) {
    return setError(TILE_ERROR_INVALID_ARGUMENT, std::string(fn) + ": " + what);
  };
  if (!out || !x || !v)
    return bad(!x ? "x is null" : !v ? "v is null" : "out is null");
  if (!out_strides || !x_strides || !v_strides)
    return bad("a strides array is null");
  if (!validDtype(dtype))
    return bad("unknown dtype");
  if (!validPrecision(precision))
    return bad("unknown precision");
  if (batch < 1 || d1 < 1 || d2 < 1 || d3 < 1)
    return bad("sizes must be at least 1 (batch " + std::to_string(batch) +
               ", d1 " + std::to_string(d1) + ", d2 " + std::to_string(d2) +
               ", d3 " + std::to_string(d3) + ")");
  if (d1 > kInt32Max || d2 > kInt32Max || d3 > kInt32Max)
    return bad("d1, d2 and d3 must be below 2^31");
  if (batch > 65535)
    return bad("batch must be at most 65535 (grid limit)");
  for (int i = 0; i < 3; ++i)
    if (out_strides[i] < 1 || x_strides[i] < 1 || v_strides[i] < 1)
      return bad("strides must be positive");
  // The output must not overlap itself (rows and columns distinct).
  if (out_strides[1] < d3 * out_strides[2] && out_strides[2] < d1 * out_strides[1])
    return bad("out strides make rows overlap");
  int64_t esize = dtypeBytes(dtype);
  if (out % esize || x % esize || v % esize)
    return bad("pointers must be aligned to the element size");
  // Programs read X and V while others write their output tiles: the
  // output's span (first to last element) may not overlap either input's
  // (conservative for interleaved layouts, which nobody needs here).
  {
    const int64_t outSizes[3] = {batch, d1, d3}, xSizes[3] = {batch, d1, d2},
                  vSizes[3] = {batch, d2, d3};
    auto o = byteSpan(out, outSizes, out_strides, esize);
    auto overlaps = [&](std::pair<uint64_t, uint64_t> in) {
      return o.first <= in.second && in.first <= o.second;
    };
    if (overlaps(byteSpan(x, xSizes, x_strides, esize)))
      return bad("out overlaps x");
    if (overlaps(byteSpan(v, vSizes, v_strides, esize)))
      return bad("out overlaps v");
  }

  bool tmaReadable = tile::library::softmaxMatmulTmaReadable(
      dtype, x, x_strides, v, v_strides, batch);
  int index = -1;
  tile_status s = chooseSoftmaxMatmul(
      fn, softmaxMatmulQuery(dtype, precision, batch, d1, d2, d3, tmaReadable),
      &index);
  if (s != TILE_SUCCESS)
    return s;
  return tile::library::launchSoftmaxMatmul(index, out, out_strides, x,
                                            x_strides, v, v_strides, batch, d1,
                                            d2, d3, stream);
}
