//===- Driver.cpp - The CUDA driver API, opened at run time ---------------===//

#include "Driver.h"

#include <dlfcn.h>

#include <initializer_list>
#include <mutex>

namespace tile {
namespace driver {
namespace {

struct Loader {
  std::mutex mutex;
  void *handle = nullptr;
  bool loaded = false;
  Api api = {};
};

Loader &loader() {
  static Loader instance;
  return instance;
}

/// Stores the first of `names` that `handle` exports into `fn`. Newer
/// symbol versions come first: the unversioned names of functions that have
/// a _v2 keep their old ABI for binaries built against old headers.
template <typename Fn>
bool resolve(void *handle, Fn &fn, std::initializer_list<const char *> names,
             std::string &missing) {
  for (const char *name : names) {
    if (void *symbol = dlsym(handle, name)) {
      fn = reinterpret_cast<Fn>(symbol);
      return true;
    }
  }
  if (missing.empty())
    missing = *names.begin();
  return false;
}

} // namespace

const Api *load(std::string &error) {
  Loader &state = loader();
  std::lock_guard<std::mutex> lock(state.mutex);
  if (state.loaded)
    return &state.api;

  if (!state.handle) {
    dlerror();
    state.handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!state.handle) {
      const char *reason = dlerror();
      error = std::string("dlopen(libcuda.so.1) failed: ") +
              (reason ? reason : "unknown error");
      return nullptr;
    }
  }

  void *h = state.handle;
  Api api = {};
  std::string missing;
  bool ok = true;
  ok &= resolve(h, api.init, {"cuInit"}, missing);
  ok &= resolve(h, api.getErrorName, {"cuGetErrorName"}, missing);
  ok &= resolve(h, api.getErrorString, {"cuGetErrorString"}, missing);
  ok &= resolve(h, api.deviceGetCount, {"cuDeviceGetCount"}, missing);
  ok &= resolve(h, api.deviceGet, {"cuDeviceGet"}, missing);
  ok &= resolve(h, api.deviceGetName, {"cuDeviceGetName"}, missing);
  ok &= resolve(h, api.deviceGetAttribute, {"cuDeviceGetAttribute"}, missing);
  ok &= resolve(h, api.devicePrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"},
                missing);
  ok &= resolve(h, api.devicePrimaryCtxRelease,
                {"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"},
                missing);
  ok &= resolve(h, api.ctxSetCurrent, {"cuCtxSetCurrent"}, missing);
  ok &= resolve(h, api.ctxGetCurrent, {"cuCtxGetCurrent"}, missing);
  ok &= resolve(h, api.ctxSynchronize, {"cuCtxSynchronize"}, missing);
  ok &= resolve(h, api.memAlloc, {"cuMemAlloc_v2"}, missing);
  ok &= resolve(h, api.memFree, {"cuMemFree_v2"}, missing);
  ok &= resolve(h, api.memcpyHtoD, {"cuMemcpyHtoD_v2"}, missing);
  ok &= resolve(h, api.memcpyDtoD, {"cuMemcpyDtoD_v2"}, missing);
  ok &= resolve(h, api.memcpyDtoH, {"cuMemcpyDtoH_v2"}, missing);
  ok &= resolve(h, api.memsetD8, {"cuMemsetD8_v2"}, missing);
  ok &= resolve(h, api.memGetInfo, {"cuMemGetInfo_v2", "cuMemGetInfo"},
                missing);
  ok &= resolve(h, api.moduleLoadDataEx, {"cuModuleLoadDataEx"}, missing);
  ok &= resolve(h, api.moduleUnload, {"cuModuleUnload"}, missing);
  ok &= resolve(h, api.moduleGetFunction, {"cuModuleGetFunction"}, missing);
  ok &= resolve(h, api.funcGetAttribute, {"cuFuncGetAttribute"}, missing);
  ok &= resolve(h, api.funcSetAttribute, {"cuFuncSetAttribute"}, missing);
  ok &= resolve(h, api.launchKernel, {"cuLaunchKernel"}, missing);
  ok &= resolve(h, api.eventCreate, {"cuEventCreate"}, missing);
  ok &= resolve(h, api.eventRecord, {"cuEventRecord"}, missing);
  ok &= resolve(h, api.eventSynchronize, {"cuEventSynchronize"}, missing);
  ok &= resolve(h, api.eventElapsedTime,
                {"cuEventElapsedTime_v2", "cuEventElapsedTime"}, missing);
  ok &= resolve(h, api.eventDestroy, {"cuEventDestroy_v2", "cuEventDestroy"},
                missing);
  {
    std::string optional;
    resolve(h, api.tensorMapEncodeTiled, {"cuTensorMapEncodeTiled"}, optional);
    resolve(h, api.memAllocAsync, {"cuMemAllocAsync"}, optional);
    resolve(h, api.launchKernelEx, {"cuLaunchKernelEx"}, optional);
    resolve(h, api.memFreeAsync, {"cuMemFreeAsync"}, optional);
    resolve(h, api.memsetD32Async, {"cuMemsetD32Async"}, optional);
  }
  if (!ok) {
    // Keep the library open: dlclose of a driver is not worth the risk, and
    // the next attempt fails the same way.
    error = "libcuda.so.1 does not export " + missing +
            " (the CUDA driver is too old)";
    return nullptr;
  }
  state.api = api;
  state.loaded = true;
  return &state.api;
}

std::string describe(const Api &api, CUresult result) {
  const char *name = nullptr;
  const char *text = nullptr;
  if (api.getErrorName(result, &name) != CUDA_SUCCESS || !name)
    name = nullptr;
  if (api.getErrorString(result, &text) != CUDA_SUCCESS || !text)
    text = nullptr;
  std::string out =
      name ? std::string(name) : "CUDA_ERROR_" + std::to_string(int(result));
  out += ": ";
  out += text ? text : "unrecognized error code";
  return out;
}

} // namespace driver
} // namespace tile
