//===- Driver.h - The CUDA driver API, opened at run time -----------------===//
//
// libcuda.so.1 is opened with dlopen and its entry points resolved with
// dlsym, so the runtime links against neither libcuda nor its stub and a
// program using it starts on machines without a driver. cuda.h is included
// for its types only; the functions are called through the pointers below.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_DRIVER_H
#define TILE_RUNTIME_DRIVER_H

#include <cuda.h>

#include <cstddef>
#include <string>

namespace tile {
namespace driver {

/// The driver entry points the runtime uses. Members are named after the API
/// functions without their "cu" prefix (cuda.h #defines several API names to
/// their _v2 symbols, which must not rewrite these members).
struct Api {
  CUresult (*init)(unsigned int flags);
  CUresult (*getErrorName)(CUresult error, const char **str);
  CUresult (*getErrorString)(CUresult error, const char **str);

  CUresult (*deviceGetCount)(int *count);
  CUresult (*deviceGet)(CUdevice *device, int ordinal);
  CUresult (*deviceGetName)(char *name, int len, CUdevice device);
  CUresult (*deviceGetAttribute)(int *value, CUdevice_attribute attribute,
                                 CUdevice device);
  CUresult (*devicePrimaryCtxRetain)(CUcontext *context, CUdevice device);
  CUresult (*devicePrimaryCtxRelease)(CUdevice device);

  CUresult (*ctxSetCurrent)(CUcontext context);
  CUresult (*ctxGetCurrent)(CUcontext *context);
  CUresult (*ctxSynchronize)(void);

  CUresult (*memAlloc)(CUdeviceptr *dptr, size_t bytes);
  CUresult (*memFree)(CUdeviceptr dptr);
  CUresult (*memcpyHtoD)(CUdeviceptr dst, const void *src, size_t bytes);
  CUresult (*memcpyDtoD)(CUdeviceptr dst, CUdeviceptr src, size_t bytes);
  CUresult (*memcpyDtoH)(void *dst, CUdeviceptr src, size_t bytes);
  CUresult (*memsetD8)(CUdeviceptr dst, unsigned char value, size_t count);
  // Stream-ordered allocation (CUDA 11.2 drivers on): optional, null where
  // the driver lacks them.
  CUresult (*memAllocAsync)(CUdeviceptr *dptr, size_t bytes, CUstream stream);
  CUresult (*memFreeAsync)(CUdeviceptr dptr, CUstream stream);
  CUresult (*memsetD32Async)(CUdeviceptr dst, unsigned int value, size_t count,
                             CUstream stream);
  CUresult (*memGetInfo)(size_t *freeBytes, size_t *totalBytes);

  CUresult (*moduleLoadDataEx)(CUmodule *module, const void *image,
                               unsigned int numOptions, CUjit_option *options,
                               void **optionValues);
  CUresult (*moduleUnload)(CUmodule module);
  CUresult (*moduleGetFunction)(CUfunction *function, CUmodule module,
                                const char *name);
  CUresult (*funcGetAttribute)(int *value, CUfunction_attribute attribute,
                               CUfunction function);
  CUresult (*funcSetAttribute)(CUfunction function,
                               CUfunction_attribute attribute, int value);
  CUresult (*launchKernel)(CUfunction function, unsigned int gridX,
                           unsigned int gridY, unsigned int gridZ,
                           unsigned int blockX, unsigned int blockY,
                           unsigned int blockZ, unsigned int sharedBytes,
                           CUstream stream, void **kernelParams, void **extra);

  /// Null when the driver predates CUDA 12.0; kernels that may overlap
  /// their predecessor (programmatic dependent launch) then launch plainly.
  CUresult (*launchKernelEx)(const CUlaunchConfig *config, CUfunction function,
                             void **kernelParams, void **extra);

  CUresult (*eventCreate)(CUevent *event, unsigned int flags);
  CUresult (*eventRecord)(CUevent event, CUstream stream);
  CUresult (*eventSynchronize)(CUevent event);
  CUresult (*eventElapsedTime)(float *milliseconds, CUevent start, CUevent end);
  CUresult (*eventDestroy)(CUevent event);

  /// Null when the driver predates TMA (CUDA 12.0); only kernels that copy
  /// with TMA need it, and their launch reports its absence.
  CUresult (*tensorMapEncodeTiled)(
      CUtensorMap *map, CUtensorMapDataType dataType, cuuint32_t rank,
      void *globalAddress, const cuuint64_t *globalDim,
      const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
      const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
      CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
      CUtensorMapFloatOOBfill oobFill);
};

/// Opens libcuda.so.1 and resolves every entry point, once per process
/// (thread-safe; a failed attempt is retried by the next call). Returns null
/// and sets `error` when the library cannot be opened or lacks a symbol.
const Api *load(std::string &error);

/// "CUDA_ERROR_NAME: description" for `result`.
std::string describe(const Api &api, CUresult result);

} // namespace driver
} // namespace tile

#endif // TILE_RUNTIME_DRIVER_H
