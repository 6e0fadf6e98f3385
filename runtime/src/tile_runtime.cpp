//===- tile_runtime.cpp - Tile runtime C API ------------------------------===//
//
// The implementation of tile_runtime.h over the CUDA driver API, which
// Driver.cpp opens at run time. One device per process: tile_init retains
// that device's primary context, and every later call makes it current on
// its thread when it is not already, so any thread may use the runtime once
// one thread has initialized it.
//
// Errors: each failing call stores its message in a thread-local string
// (tile_last_error); successful calls leave it unchanged. CUDA failures read
// "<cuCall>: <CUDA_ERROR_NAME>: <description>", followed by the runtime
// call's context in parentheses.
//
//===----------------------------------------------------------------------===//

#include "tile_runtime.h"

#include "Driver.h"
#include "Internal.h"
#include "Metadata.h"

#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

using tile::internal::ArgMeta;
using tile::internal::KernelMeta;

struct tile_kernel_s {
  tile_module_s *module = nullptr;
  const KernelMeta *meta = nullptr; // owned by the module
  CUfunction function = nullptr;
  int maxThreadsPerBlock = 0;
  int staticSharedBytes = 0;
  // Arrays for tile_kernel_get_info.
  std::vector<tile_arg_kind> argKinds;
  std::vector<int64_t> argDivisibility;
  // Current CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES; raised once,
  // under sharedMutex, by the first launch that needs more.
  std::mutex sharedMutex;
  std::atomic<int> maxDynamicSharedBytes{0};
};

struct tile_module_s {
  CUmodule module = nullptr;
  std::vector<KernelMeta> kernels;
  std::mutex mutex; // guards `loaded`
  std::vector<std::unique_ptr<tile_kernel_s>> loaded;
};

namespace {

constexpr int kDefaultSharedLimit = 48 * 1024;

struct Runtime {
  std::mutex initMutex;
  std::atomic<bool> initialized{false};
  // Set before `initialized` becomes true, constant afterwards.
  const tile::driver::Api *api = nullptr;
  int ordinal = -1;
  CUdevice device = 0;
  CUcontext context = nullptr;
  std::string deviceName;
  int ccMajor = 0, ccMinor = 0, numSms = 0;
  int sharedOptin = 0;

  std::mutex modulesMutex;
  std::set<tile_module_s *> modules;
};

Runtime &runtime() {
  static Runtime *instance = new Runtime(); // never destroyed: no exit-order
  return *instance;                         // hazards with other statics
}

thread_local std::string tlsError;
thread_local tile_status tlsStatus = TILE_SUCCESS;
thread_local uint64_t tlsFailures = 0;

tile_status fail(tile_status status, std::string message) {
  tlsError = std::move(message);
  tlsStatus = status;
  ++tlsFailures;
  return status;
}

tile_status statusOf(CUresult result) {
  switch (result) {
  case CUDA_SUCCESS:
    return TILE_SUCCESS;
  case CUDA_ERROR_OUT_OF_MEMORY:
    return TILE_ERROR_OUT_OF_MEMORY;
  case CUDA_ERROR_NO_DEVICE:
    return TILE_ERROR_NO_DEVICE;
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    return TILE_ERROR_OUT_OF_RESOURCES;
  default:
    return TILE_ERROR_CUDA;
  }
}

/// Records a CUDA failure: "<call>: <NAME>: <description> (<context>)".
tile_status cudaFail(CUresult result, const char *call,
                     const std::string &context = std::string(),
                     tile_status status = TILE_SUCCESS) {
  std::string message =
      std::string(call) + ": " + tile::driver::describe(*runtime().api, result);
  if (!context.empty())
    message += " (" + context + ")";
  return fail(status == TILE_SUCCESS ? statusOf(result) : status,
              std::move(message));
}

#define TILE_CU(call, expr, context)                                           \
  do {                                                                         \
    CUresult tileResult_ = (expr);                                             \
    if (tileResult_ != CUDA_SUCCESS)                                           \
      return cudaFail(tileResult_, call, context);                             \
  } while (false)

/// Every entry point but tile_init, tile_last_error and tile_status_name
/// starts here: it fails before tile_init and makes the runtime's context
/// current on the calling thread.
tile_status enter(const char *function) {
  Runtime &rt = runtime();
  if (!rt.initialized.load(std::memory_order_acquire))
    return fail(TILE_ERROR_NOT_INITIALIZED,
                std::string(function) +
                    ": the runtime is not initialized (call tile_init first)");
  CUcontext current = nullptr;
  CUresult result = rt.api->ctxGetCurrent(&current);
  if (result == CUDA_SUCCESS && current == rt.context)
    return TILE_SUCCESS;
  result = rt.api->ctxSetCurrent(rt.context);
  if (result != CUDA_SUCCESS)
    return cudaFail(result, "cuCtxSetCurrent", function);
  return TILE_SUCCESS;
}

#define TILE_ENTER(function)                                                   \
  do {                                                                         \
    tile_status tileStatus_ = enter(function);                                 \
    if (tileStatus_ != TILE_SUCCESS)                                           \
      return tileStatus_;                                                      \
  } while (false)

tile_status invalid(const char *function, const std::string &what) {
  return fail(TILE_ERROR_INVALID_ARGUMENT, std::string(function) + ": " + what);
}

bool moduleIsLive(tile_module_s *module) {
  Runtime &rt = runtime();
  std::lock_guard<std::mutex> lock(rt.modulesMutex);
  return rt.modules.count(module) != 0;
}

std::string knownKernels(const tile_module_s &module) {
  std::string out;
  for (const KernelMeta &k : module.kernels)
    out += (out.empty() ? "" : ", ") + k.name;
  return out;
}

/// Initializes the runtime on `ordinal`; called with initMutex held.
tile_status initLocked(Runtime &rt, int ordinal) {
  std::string error;
  const tile::driver::Api *api = tile::driver::load(error);
  if (!api)
    return fail(TILE_ERROR_NO_DRIVER,
                "tile_init: cannot load the CUDA driver: " + error);
  rt.api = api;

  TILE_CU("cuInit", api->init(0), "tile_init");
  int count = 0;
  TILE_CU("cuDeviceGetCount", api->deviceGetCount(&count), "tile_init");
  if (count == 0)
    return fail(TILE_ERROR_NO_DEVICE, "tile_init: no CUDA device found");
  if (ordinal < 0 || ordinal >= count)
    return invalid("tile_init", "device ordinal " + std::to_string(ordinal) +
                                    " is out of range (" +
                                    std::to_string(count) + " devices)");

  CUdevice device = 0;
  TILE_CU("cuDeviceGet", api->deviceGet(&device, ordinal), "tile_init");

  char name[256] = {};
  TILE_CU("cuDeviceGetName", api->deviceGetName(name, sizeof(name), device),
          "tile_init");
  struct {
    CUdevice_attribute attribute;
    int *value;
  } queries[] = {
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &rt.ccMajor},
      {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &rt.ccMinor},
      {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &rt.numSms},
      {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, &rt.sharedOptin},
  };
  for (auto &q : queries)
    TILE_CU("cuDeviceGetAttribute",
            api->deviceGetAttribute(q.value, q.attribute, device), "tile_init");
  if (rt.sharedOptin < kDefaultSharedLimit)
    rt.sharedOptin = kDefaultSharedLimit;

  CUcontext context = nullptr;
  TILE_CU("cuDevicePrimaryCtxRetain",
          api->devicePrimaryCtxRetain(&context, device), "tile_init");
  CUresult result = api->ctxSetCurrent(context);
  if (result != CUDA_SUCCESS) {
    tile_status status = cudaFail(result, "cuCtxSetCurrent", "tile_init");
    api->devicePrimaryCtxRelease(device);
    return status;
  }

  rt.deviceName = name;
  rt.ordinal = ordinal;
  rt.device = device;
  rt.context = context;
  rt.initialized.store(true, std::memory_order_release);
  return TILE_SUCCESS;
}

/// PTX needs a NUL-terminated string; cubins and fatbins are passed as is.
bool isBinaryImage(const void *image, size_t size) {
  const unsigned char *bytes = static_cast<const unsigned char *>(image);
  if (size >= 4 && bytes[0] == 0x7f && bytes[1] == 'E' && bytes[2] == 'L' &&
      bytes[3] == 'F')
    return true;
  // Fatbinary magic 0xBA55ED50, little-endian.
  return size >= 4 && bytes[0] == 0x50 && bytes[1] == 0xED &&
         bytes[2] == 0x55 && bytes[3] == 0xBA;
}

/// Destroys the events of a tile_time call on every path out of it.
struct Events {
  const tile::driver::Api &api;
  std::vector<CUevent> events;
  explicit Events(const tile::driver::Api &api) : api(api) {}
  ~Events() {
    for (CUevent e : events)
      api.eventDestroy(e);
  }
};

} // namespace

bool tile::internal::runtimeInitialized() {
  return runtime().initialized.load(std::memory_order_acquire);
}

extern "C" {

const char *tile_last_error(void) { return tlsError.c_str(); }

const char *tile_status_name(tile_status status) {
  switch (status) {
  case TILE_SUCCESS:
    return "TILE_SUCCESS";
  case TILE_ERROR_NO_DRIVER:
    return "TILE_ERROR_NO_DRIVER";
  case TILE_ERROR_NO_DEVICE:
    return "TILE_ERROR_NO_DEVICE";
  case TILE_ERROR_CUDA:
    return "TILE_ERROR_CUDA";
  case TILE_ERROR_INVALID_ARGUMENT:
    return "TILE_ERROR_INVALID_ARGUMENT";
  case TILE_ERROR_OUT_OF_MEMORY:
    return "TILE_ERROR_OUT_OF_MEMORY";
  case TILE_ERROR_OUT_OF_RESOURCES:
    return "TILE_ERROR_OUT_OF_RESOURCES";
  case TILE_ERROR_NOT_FOUND:
    return "TILE_ERROR_NOT_FOUND";
  case TILE_ERROR_UNSUPPORTED:
    return "TILE_ERROR_UNSUPPORTED";
  case TILE_ERROR_NOT_INITIALIZED:
    return "TILE_ERROR_NOT_INITIALIZED";
  }
  return "TILE_ERROR_UNKNOWN_STATUS";
}

tile_status tile_init(int ordinal) {
  Runtime &rt = runtime();
  {
    std::lock_guard<std::mutex> lock(rt.initMutex);
    if (!rt.initialized.load(std::memory_order_acquire))
      return initLocked(rt, ordinal);
  }
  if (ordinal != rt.ordinal)
    return fail(TILE_ERROR_UNSUPPORTED,
                "tile_init(" + std::to_string(ordinal) +
                    "): the runtime is already initialized on device " +
                    std::to_string(rt.ordinal) + " (one device per process)");
  return enter("tile_init");
}

tile_status tile_device_info(char *name, size_t name_size, int *major,
                             int *minor, int *num_sms) {
  TILE_ENTER("tile_device_info");
  if (!name || name_size == 0)
    return invalid("tile_device_info", "name is null or name_size is 0");
  if (!major || !minor || !num_sms)
    return invalid("tile_device_info", "major, minor or num_sms is null");
  const Runtime &rt = runtime();
  size_t n = rt.deviceName.size() < name_size - 1 ? rt.deviceName.size()
                                                  : name_size - 1;
  std::memcpy(name, rt.deviceName.data(), n);
  name[n] = '\0';
  *major = rt.ccMajor;
  *minor = rt.ccMinor;
  *num_sms = rt.numSms;
  return TILE_SUCCESS;
}

/*--- Device memory --------------------------------------------------------*/

tile_status tile_malloc(uint64_t *dptr, size_t bytes) {
  TILE_ENTER("tile_malloc");
  if (!dptr)
    return invalid("tile_malloc", "dptr is null");
  *dptr = 0;
  if (bytes == 0)
    return invalid("tile_malloc", "bytes is 0");
  CUdeviceptr p = 0;
  TILE_CU("cuMemAlloc", runtime().api->memAlloc(&p, bytes),
          "tile_malloc of " + std::to_string(bytes) + " bytes");
  *dptr = uint64_t(p);
  return TILE_SUCCESS;
}

tile_status tile_free(uint64_t dptr) {
  TILE_ENTER("tile_free");
  if (dptr == 0)
    return TILE_SUCCESS;
  TILE_CU("cuMemFree", runtime().api->memFree(CUdeviceptr(dptr)), "tile_free");
  return TILE_SUCCESS;
}

tile_status tile_memcpy_dtod(uint64_t dst, uint64_t src, size_t bytes) {
  TILE_ENTER("tile_memcpy_dtod");
  if (dst == 0 || src == 0)
    return invalid("tile_memcpy_dtod",
                   dst == 0 ? "dst is null" : "src is null");
  if (bytes == 0)
    return TILE_SUCCESS;
  TILE_CU("cuMemcpyDtoD",
          runtime().api->memcpyDtoD(CUdeviceptr(dst), CUdeviceptr(src), bytes),
          "tile_memcpy_dtod of " + std::to_string(bytes) + " bytes");
  return TILE_SUCCESS;
}

tile_status tile_memcpy_htod(uint64_t dst, const void *src, size_t bytes) {
  TILE_ENTER("tile_memcpy_htod");
  if (dst == 0 || !src)
    return invalid("tile_memcpy_htod",
                   dst == 0 ? "dst is null" : "src is null");
  if (bytes == 0)
    return TILE_SUCCESS;
  TILE_CU("cuMemcpyHtoD",
          runtime().api->memcpyHtoD(CUdeviceptr(dst), src, bytes),
          "tile_memcpy_htod of " + std::to_string(bytes) + " bytes");
  return TILE_SUCCESS;
}

tile_status tile_memcpy_dtoh(void *dst, uint64_t src, size_t bytes) {
  TILE_ENTER("tile_memcpy_dtoh");
  if (!dst || src == 0)
    return invalid("tile_memcpy_dtoh", !dst ? "dst is null" : "src is null");
  if (bytes == 0)
    return TILE_SUCCESS;
  TILE_CU("cuMemcpyDtoH",
          runtime().api->memcpyDtoH(dst, CUdeviceptr(src), bytes),
          "tile_memcpy_dtoh of " + std::to_string(bytes) + " bytes");
  return TILE_SUCCESS;
}

tile_status tile_memset_d8(uint64_t dst, unsigned char value, size_t bytes) {
  TILE_ENTER("tile_memset_d8");
  if (dst == 0)
    return invalid("tile_memset_d8", "dst is null");
  if (bytes == 0)
    return TILE_SUCCESS;
  TILE_CU("cuMemsetD8", runtime().api->memsetD8(CUdeviceptr(dst), value, bytes),
          "tile_memset_d8 of " + std::to_string(bytes) + " bytes");
  return TILE_SUCCESS;
}

tile_status tile_synchronize(void) {
  TILE_ENTER("tile_synchronize");
  TILE_CU("cuCtxSynchronize", runtime().api->ctxSynchronize(),
          "tile_synchronize");
  return TILE_SUCCESS;
}

/*--- Kernels --------------------------------------------------------------*/

tile_status tile_module_load(const void *image, size_t image_size,
                             const char *metadata, tile_module *module) {
  TILE_ENTER("tile_module_load");
  if (!module)
    return invalid("tile_module_load", "module is null");
  *module = nullptr;
  if (!image || image_size == 0)
    return invalid("tile_module_load", "image is null or image_size is 0");
  if (!metadata)
    return invalid("tile_module_load", "metadata is null");

  std::unique_ptr<tile_module_s> result(new tile_module_s());
  std::string error;
  if (!tile::internal::parseMetadata(metadata, result->kernels, error))
    return invalid("tile_module_load", error);

  // PTX must reach the driver NUL-terminated; image_size may or may not
  // count a terminator.
  std::string ptx;
  const void *data = image;
  if (!isBinaryImage(image, image_size)) {
    const char *text = static_cast<const char *>(image);
    ptx.assign(text, strnlen(text, image_size));
    data = ptx.c_str();
  }

  constexpr size_t kLogSize = 16384;
  std::unique_ptr<char[]> log(new char[kLogSize]());
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log.get(), reinterpret_cast<void *>(uintptr_t(kLogSize))};
  const tile::driver::Api &api = *runtime().api;
  CUresult status =
      api.moduleLoadDataEx(&result->module, data, 2, options, values);
  if (status != CUDA_SUCCESS) {
    log[kLogSize - 1] = '\0';
    std::string jitLog(log.get());
    while (!jitLog.empty() && (jitLog.back() == '\n' || jitLog.back() == ' '))
      jitLog.pop_back();
    tile_status failed =
        cudaFail(status, "cuModuleLoadDataEx", "tile_module_load");
    if (!jitLog.empty())
      tlsError += "\nJIT error log:\n" + jitLog;
    return failed;
  }

  tile_module_s *handle = result.release();
  {
    Runtime &rt = runtime();
    std::lock_guard<std::mutex> lock(rt.modulesMutex);
    rt.modules.insert(handle);
  }
  *module = handle;
  return TILE_SUCCESS;
}

tile_status tile_module_unload(tile_module module) {
  TILE_ENTER("tile_module_unload");
  if (!module)
    return invalid("tile_module_unload", "module is null");
  {
    Runtime &rt = runtime();
    std::lock_guard<std::mutex> lock(rt.modulesMutex);
    if (!rt.modules.erase(module))
      return invalid("tile_module_unload",
                     "not a loaded module (already unloaded?)");
  }
  std::unique_ptr<tile_module_s> owned(module);
  TILE_CU("cuModuleUnload", runtime().api->moduleUnload(owned->module),
          "tile_module_unload");
  return TILE_SUCCESS;
}

static tile_status getModuleKernel(tile_module module, const KernelMeta *meta,
                                   tile_kernel *kernel);

tile_status tile_module_get_kernel(tile_module module, const char *name,
                                   tile_kernel *kernel) {
  TILE_ENTER("tile_module_get_kernel");
  if (!kernel)
    return invalid("tile_module_get_kernel", "kernel is null");
  *kernel = nullptr;
  if (!module || !name)
    return invalid("tile_module_get_kernel",
                   !module ? "module is null" : "name is null");
  if (!moduleIsLive(module))
    return invalid("tile_module_get_kernel",
                   "not a loaded module (already unloaded?)");

  const KernelMeta *meta = nullptr;
  bool specialized = false;
  for (const KernelMeta &k : module->kernels) {
    if (k.name == name)
      meta = &k;
    specialized |= k.base == name;
  }
  if (!meta && specialized)
    return fail(TILE_ERROR_NOT_FOUND,
                std::string("tile_module_get_kernel: kernel '") + name +
                    "' is compiled in several specializations; select one "
                    "with tile_module_get_specialization");
  if (!meta)
    return fail(TILE_ERROR_NOT_FOUND,
                std::string("tile_module_get_kernel: no kernel '") + name +
                    "' in the module's metadata (known kernels: " +
                    knownKernels(*module) + ")");
  return getModuleKernel(module, meta, kernel);
}

tile_status tile_module_get_specialization(tile_module module, const char *name,
                                           const char *settings,
                                           tile_kernel *kernel) {
  TILE_ENTER("tile_module_get_specialization");
  if (!kernel)
    return invalid("tile_module_get_specialization", "kernel is null");
  *kernel = nullptr;
  if (!module || !name || !settings)
    return invalid("tile_module_get_specialization", !module ? "module is null"
                                                     : !name
                                                         ? "name is null"
                                                         : "settings is null");
  if (!moduleIsLive(module))
    return invalid("tile_module_get_specialization",
                   "not a loaded module (already unloaded?)");
  std::string error;
  const KernelMeta *meta =
      findSpecialization(module->kernels, name, settings, error);
  if (!meta)
    return fail(TILE_ERROR_NOT_FOUND,
                "tile_module_get_specialization: " + error);
  return getModuleKernel(module, meta, kernel);
}

/// The kernel of `module` that `meta` describes, loaded on first use.
static tile_status getModuleKernel(tile_module module, const KernelMeta *meta,
                                   tile_kernel *kernel) {
  const char *name = meta->name.c_str();
  std::lock_guard<std::mutex> lock(module->mutex);
  for (const auto &k : module->loaded)
    if (k->meta == meta) {
      *kernel = k.get();
      return TILE_SUCCESS;
    }

  const tile::driver::Api &api = *runtime().api;
  std::unique_ptr<tile_kernel_s> result(new tile_kernel_s());
  result->module = module;
  result->meta = meta;
  CUresult status =
      api.moduleGetFunction(&result->function, module->module, name);
  if (status == CUDA_ERROR_NOT_FOUND)
    return cudaFail(status, "cuModuleGetFunction",
                    std::string("tile_module_get_kernel: kernel '") + name +
                        "' is in the metadata but not in the module image; "
                        "known kernels: " +
                        knownKernels(*module),
                    TILE_ERROR_NOT_FOUND);
  if (status != CUDA_SUCCESS)
    return cudaFail(status, "cuModuleGetFunction",
                    std::string("tile_module_get_kernel(") + name + ")");

  int maxDynamicShared = 0;
  struct {
    CUfunction_attribute attribute;
    int *value;
  } queries[] = {
      {CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &result->maxThreadsPerBlock},
      {CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, &result->staticSharedBytes},
      {CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, &maxDynamicShared},
  };
  for (auto &q : queries)
    TILE_CU("cuFuncGetAttribute",
            api.funcGetAttribute(q.value, q.attribute, result->function),
            std::string("tile_module_get_kernel(") + name + ")");
  result->maxDynamicSharedBytes.store(maxDynamicShared);
  // Clusters of more than 8 CTAs (16 on H100/H200) are non-portable: the
  // kernel has to opt in before its first launch.
  if (meta->clusterSize > 8)
    TILE_CU("cuFuncSetAttribute",
            api.funcSetAttribute(
                result->function,
                CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1),
            std::string("tile_module_get_kernel(") + name +
                "): allowing clusters of " +
                std::to_string(meta->clusterSize) + " CTAs");

  for (const ArgMeta &arg : meta->args) {
    result->argKinds.push_back(arg.kind);
    // The C API reports "no constraint" as 0; the metadata also uses 1.
    result->argDivisibility.push_back(arg.constraint > 1 ? arg.constraint : 0);
  }
  module->loaded.push_back(std::move(result));
  *kernel = module->loaded.back().get();
  return TILE_SUCCESS;
}

tile_status tile_kernel_get_info(tile_kernel kernel, tile_kernel_info *info) {
  TILE_ENTER("tile_kernel_get_info");
  if (!kernel || !info)
    return invalid("tile_kernel_get_info",
                   !kernel ? "kernel is null" : "info is null");
  const KernelMeta &meta = *kernel->meta;
  info->name = meta.name.c_str();
  info->num_args = int(meta.args.size());
  info->arg_kinds =
      kernel->argKinds.empty() ? nullptr : kernel->argKinds.data();
  info->arg_divisibility = kernel->argDivisibility.empty()
                               ? nullptr
                               : kernel->argDivisibility.data();
  info->num_warps = meta.numWarps;
  info->shared_bytes = meta.sharedBytes;
  return TILE_SUCCESS;
}

tile_status tile_kernel_launch(tile_kernel kernel, const uint32_t grid[3],
                               const tile_arg *args, int num_args,
                               void *stream) {
  TILE_ENTER("tile_kernel_launch");
  if (!kernel)
    return invalid("tile_kernel_launch", "kernel is null");
  const KernelMeta &meta = *kernel->meta;
  std::string error;
  tile_status status =
      tile::internal::validateLaunch(meta, grid, args, num_args, error);
  if (status != TILE_SUCCESS)
    return fail(status, std::move(error));

  // Built only on failure paths: launches should not allocate.
  auto prefix = [&] { return "tile_kernel_launch(" + meta.name + "): "; };
  const int threads = meta.numWarps * 32;
  if (threads > kernel->maxThreadsPerBlock)
    return fail(TILE_ERROR_OUT_OF_RESOURCES,
                prefix() + "needs " + std::to_string(threads) +
                    " threads per block (num_warps " +
                    std::to_string(meta.numWarps) +
                    ") but the compiled kernel allows at most " +
                    std::to_string(kernel->maxThreadsPerBlock) +
                    " (limited by its registers or .maxntid)");

  const tile::driver::Api &api = *runtime().api;
  const int dynamicShared = meta.sharedBytes;
  if (dynamicShared > kernel->maxDynamicSharedBytes.load()) {
    std::lock_guard<std::mutex> lock(kernel->sharedMutex);
    if (dynamicShared > kernel->maxDynamicSharedBytes.load()) {
      const long long need =
          (long long)dynamicShared + kernel->staticSharedBytes;
      const int limit = runtime().sharedOptin;
      if (need > limit)
        return fail(TILE_ERROR_OUT_OF_RESOURCES,
                    prefix() + "needs " + std::to_string(need) +
                        " bytes of shared memory per block (" +
                        std::to_string(dynamicShared) + " dynamic + " +
                        std::to_string(kernel->staticSharedBytes) +
                        " static) but the device allows at most " +
                        std::to_string(limit));
      TILE_CU(
          "cuFuncSetAttribute",
          api.funcSetAttribute(kernel->function,
                               CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               dynamicShared),
          prefix() + "raising the dynamic shared memory limit to " +
              std::to_string(dynamicShared) + " bytes");
      kernel->maxDynamicSharedBytes = dynamicShared;
    }
  }

  // Each parameter points at a copy of its value; the driver reads as many
  // bytes as the kernel's parameter has (all union members start at offset
  // 0, and i1 is passed as 0 or 1 in the low byte).
  using Value = decltype(tile_arg::value);
  constexpr int kInline = 32;
  Value inlineValues[kInline];
  void *inlineParams[kInline];
  std::vector<Value> heapValues;
  std::vector<void *> heapParams;
  Value *values = inlineValues;
  void **params = inlineParams;
  if (num_args > kInline) {
    heapValues.resize(size_t(num_args));
    heapParams.resize(size_t(num_args));
    values = heapValues.data();
    params = heapParams.data();
  }
  for (int i = 0; i < num_args; ++i) {
    values[i] = args[i].value;
    if (args[i].kind == TILE_ARG_I1) {
      values[i].i64 = args[i].value.i32 != 0 ? 1 : 0;
    }
    params[i] = &values[i];
  }

  // Tensor maps of TMA copies, encoded from the arguments they name and
  // passed by value after them.
  const int numMaps = int(meta.tensorMaps.size());
  tile::internal::TensorMapArgs mapArgs[tile::internal::kMaxTensorMaps];
  // A parameter holds one map, or two (the interleaved one second).
  struct MapParam {
    CUtensorMap plain, interleaved;
  } maps[tile::internal::kMaxTensorMaps];
  void *allParams[kInline + tile::internal::kMaxTensorMaps];
  if (numMaps > 0) {
    status =
        tile::internal::resolveTensorMaps(meta, grid, args, mapArgs, error);
    if (status != TILE_SUCCESS)
      return fail(status, std::move(error));
    if (!api.tensorMapEncodeTiled)
      return fail(TILE_ERROR_UNSUPPORTED,
                  prefix() + "copies with TMA, but the CUDA driver has no "
                             "cuTensorMapEncodeTiled (it needs CUDA 12.0 or "
                             "later)");
    if (num_args > kInline) {
      heapParams.resize(size_t(num_args + numMaps));
      params = heapParams.data();
    } else {
      std::copy(params, params + num_args, allParams);
      params = allParams;
    }
    for (int m = 0; m < numMaps; ++m) {
      const tile::internal::TensorMapArgs &t = mapArgs[m];
      CUtensorMapSwizzle swizzle = t.swizzle == 128 ? CU_TENSOR_MAP_SWIZZLE_128B
                                   : t.swizzle == 64
                                       ? CU_TENSOR_MAP_SWIZZLE_64B
                                       : CU_TENSOR_MAP_SWIZZLE_32B;
      CUtensorMapDataType type = t.f32    ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
                                 : t.bf16 ? CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
                                          : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
      auto what = [&] {
        return prefix() + "encoding the tensor map of argument #" +
               std::to_string(meta.tensorMaps[size_t(m)].baseArg);
      };
      // Outer dimensions (a batch, heads) follow the matrix's two, one
      // element of each per box.
      const int rank = 2 + t.outerDims;
      cuuint64_t dimsN[5] = {t.dims[0], t.dims[1]};
      cuuint64_t stridesN[4] = {t.rowStrideBytes};
      cuuint32_t boxN[5] = {t.box[0], t.box[1], 1, 1, 1};
      const cuuint32_t elementStridesN[5] = {1, 1, 1, 1, 1};
      for (int d = 0; d < t.outerDims; ++d) {
        dimsN[2 + d] = t.outerCounts[d];
        stridesN[1 + d] = t.outerStrideBytes[d];
      }
      TILE_CU("cuTensorMapEncodeTiled",
              api.tensorMapEncodeTiled(&maps[m].plain, type, cuuint32_t(rank),
                                       reinterpret_cast<void *>(t.address),
                                       dimsN, stridesN, boxN, elementStridesN,
                                       CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                                       CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                       CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
              what());
      if (t.groups) {
        // Row = 8W h + 8 group + g: the groups dimension ends where the
        // last whole block's second half would leave the array (at least
        // one group; blocks past it take the plain map).
        const uint64_t w = t.groups, rows = t.dims[1];
        const uint64_t groups = rows >= 8 * w + 8 ? (rows - 8 * w) / 8 : 1;
        const cuuint64_t dims4[4] = {t.dims[0], 8, 2, groups};
        const cuuint64_t strides4[3] = {
            t.rowStrideBytes, 8 * w * t.rowStrideBytes, 8 * t.rowStrideBytes};
        // Half the groups per copy (see TmaOpToLLVM.cpp).
        const cuuint32_t box4[4] = {t.box[0], 8, 2, cuuint32_t(w / 2)};
        const cuuint32_t elementStrides4[4] = {1, 1, 1, 1};
        TILE_CU("cuTensorMapEncodeTiled",
                api.tensorMapEncodeTiled(&maps[m].interleaved, type, 4,
                                         reinterpret_cast<void *>(t.address),
                                         dims4, strides4, box4, elementStrides4,
                                         CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                                         CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
                what() + " (interleaved 8-row groups)");
      }
      params[num_args + m] = &maps[m];
    }
  }

  void **launchParams = num_args + numMaps > 0 ? params : nullptr;
  auto describeLaunch = [&] {
    return "tile_kernel_launch(" + meta.name + ") with grid " +
           std::to_string(grid[0]) + "x" + std::to_string(grid[1]) + "x" +
           std::to_string(grid[2]) + ", " + std::to_string(threads) +
           " threads, " + std::to_string(dynamicShared) +
           " bytes of dynamic shared memory";
  };
  // A kernel that waits for its predecessor (tile.wait_prior_grid) may
  // start while that one's last programs run: a programmatic dependent
  // launch, where the driver has cuLaunchKernelEx.
  if (meta.waitsForPriorGrid && api.launchKernelEx) {
    CUlaunchAttribute overlap = {};
    overlap.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    overlap.value.programmaticStreamSerializationAllowed = 1;
    CUlaunchConfig config = {};
    config.gridDimX = grid[0];
    config.gridDimY = grid[1];
    config.gridDimZ = grid[2];
    config.blockDimX = unsigned(threads);
    config.blockDimY = 1;
    config.blockDimZ = 1;
    config.sharedMemBytes = unsigned(dynamicShared);
    config.hStream = static_cast<CUstream>(stream);
    config.attrs = &overlap;
    config.numAttrs = 1;
    TILE_CU(
        "cuLaunchKernelEx",
        api.launchKernelEx(&config, kernel->function, launchParams, nullptr),
        describeLaunch());
    return TILE_SUCCESS;
  }
  TILE_CU("cuLaunchKernel",
          api.launchKernel(kernel->function, grid[0], grid[1], grid[2],
                           unsigned(threads), 1, 1, unsigned(dynamicShared),
                           static_cast<CUstream>(stream), launchParams,
                           nullptr),
          describeLaunch());
  return TILE_SUCCESS;
}

/*--- Timing -----------------------------------------------------------------*/

tile_status tile_time(void (*fn)(void *user), void *user, void *stream,
                      int warmup, int iters, float *ms) {
  TILE_ENTER("tile_time");
  if (!fn)
    return invalid("tile_time", "fn is null");
  if (warmup < 0 || iters < 1)
    return invalid("tile_time", "needs warmup >= 0 and iters >= 1, got " +
                                    std::to_string(warmup) + " and " +
                                    std::to_string(iters));
  if (!ms)
    return invalid("tile_time", "ms is null");

  const tile::driver::Api &api = *runtime().api;
  CUstream cuStream = static_cast<CUstream>(stream);
  Events events(api);
  events.events.reserve(size_t(iters) + 1);
  for (int i = 0; i <= iters; ++i) {
    CUevent e = nullptr;
    TILE_CU("cuEventCreate", api.eventCreate(&e, CU_EVENT_DEFAULT),
            "tile_time");
    events.events.push_back(e);
  }

  // A tile_* call inside fn that fails makes tile_time fail with its status.
  const uint64_t failuresBefore = tlsFailures;
  auto call = [&]() -> bool {
    fn(user);
    return tlsFailures == failuresBefore;
  };
  auto fnFailed = [&]() {
    return fail(tlsStatus, "tile_time: the timed function failed: " + tlsError);
  };

  for (int i = 0; i < warmup; ++i)
    if (!call())
      return fnFailed();
  TILE_CU("cuEventRecord", api.eventRecord(events.events[0], cuStream),
          "tile_time");
  for (int i = 0; i < iters; ++i) {
    if (!call())
      return fnFailed();
    TILE_CU("cuEventRecord",
            api.eventRecord(events.events[size_t(i) + 1], cuStream),
            "tile_time");
  }
  TILE_CU("cuEventSynchronize",
          api.eventSynchronize(events.events[size_t(iters)]), "tile_time");
  for (int i = 0; i < iters; ++i)
    TILE_CU("cuEventElapsedTime",
            api.eventElapsedTime(&ms[i], events.events[size_t(i)],
                                 events.events[size_t(i) + 1]),
            "tile_time");
  return TILE_SUCCESS;
}

} // extern "C"

tile_status tile::internal::timeEach(void (*prepare)(void *user),
                                     void (*fn)(void *user), void *user,
                                     void *stream, int warmup, int iters,
                                     float *ms) {
  TILE_ENTER("timeEach");
  if (!prepare || !fn || !ms || warmup < 0 || iters < 1)
    return invalid("timeEach", "bad arguments");
  const tile::driver::Api &api = *runtime().api;
  CUstream cuStream = static_cast<CUstream>(stream);
  Events events(api);
  events.events.reserve(2 * size_t(iters));
  for (int i = 0; i < 2 * iters; ++i) {
    CUevent e = nullptr;
    TILE_CU("cuEventCreate", api.eventCreate(&e, CU_EVENT_DEFAULT), "timeEach");
    events.events.push_back(e);
  }
  const uint64_t failuresBefore = tlsFailures;
  auto failed = [&]() { return tlsFailures != failuresBefore; };
  auto fnFailed = [&]() {
    return fail(tlsStatus, "timeEach: the timed function failed: " + tlsError);
  };
  for (int i = 0; i < warmup; ++i) {
    prepare(user);
    fn(user);
    if (failed())
      return fnFailed();
  }
  // Each call between its own pair of events; `prepare` runs before the
  // first of them.
  for (int i = 0; i < iters; ++i) {
    prepare(user);
    TILE_CU("cuEventRecord",
            api.eventRecord(events.events[2 * size_t(i)], cuStream),
            "timeEach");
    fn(user);
    if (failed())
      return fnFailed();
    TILE_CU("cuEventRecord",
            api.eventRecord(events.events[2 * size_t(i) + 1], cuStream),
            "timeEach");
  }
  TILE_CU("cuEventSynchronize",
          api.eventSynchronize(events.events[2 * size_t(iters) - 1]),
          "timeEach");
  for (int i = 0; i < iters; ++i)
    TILE_CU("cuEventElapsedTime",
            api.eventElapsedTime(&ms[i], events.events[2 * size_t(i)],
                                 events.events[2 * size_t(i) + 1]),
            "timeEach");
  return TILE_SUCCESS;
}

/*--- Device memory: free and total ------------------------------------------*/

extern "C" tile_status tile_mem_get_info(size_t *free_bytes,
                                         size_t *total_bytes) {
  TILE_ENTER("tile_mem_get_info");
  if (!free_bytes || !total_bytes)
    return invalid("tile_mem_get_info",
                   !free_bytes ? "free_bytes is null" : "total_bytes is null");
  *free_bytes = 0;
  *total_bytes = 0;
  TILE_CU("cuMemGetInfo", runtime().api->memGetInfo(free_bytes, total_bytes),
          "tile_mem_get_info");
  return TILE_SUCCESS;
}

namespace tile {
namespace internal {
tile_status setError(tile_status status, std::string message) {
  return fail(status, std::move(message));
}

bool hasStreamOrderedAllocation() {
  const tile::driver::Api *api = runtime().api;
  return api && api->memAllocAsync && api->memFreeAsync && api->memsetD32Async;
}

tile_status allocWorkspace(size_t bytes, size_t zeroWords, void *stream,
                           uint64_t *ptr) {
  *ptr = 0;
  if (!hasStreamOrderedAllocation())
    return fail(TILE_ERROR_UNSUPPORTED,
                "the driver has no stream-ordered allocation "
                "(cuMemAllocAsync)");
  const tile::driver::Api &api = *runtime().api;
  CUstream s = static_cast<CUstream>(stream);
  CUdeviceptr p = 0;
  std::string what = "a workspace of " + std::to_string(bytes) + " bytes";
  TILE_CU("cuMemAllocAsync", api.memAllocAsync(&p, bytes, s), what);
  CUresult result = api.memsetD32Async(p, 0, zeroWords, s);
  if (result != CUDA_SUCCESS) {
    api.memFreeAsync(p, s);
    return cudaFail(result, "cuMemsetD32Async", what);
  }
  *ptr = p;
  return TILE_SUCCESS;
}

tile_status freeWorkspace(uint64_t ptr, void *stream) {
  TILE_CU("cuMemFreeAsync",
          runtime().api->memFreeAsync(CUdeviceptr(ptr),
                                      static_cast<CUstream>(stream)),
          "a workspace");
  return TILE_SUCCESS;
}
} // namespace internal
} // namespace tile
