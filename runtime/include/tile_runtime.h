/*===- tile_runtime.h - Tile runtime C API ---------------------------------===
 *
 * Loads kernels compiled by Tile (PTX or cubin plus a metadata text),
 * checks launch arguments against the metadata and launches them through
 * the CUDA driver API. The driver is opened at run time (dlopen of
 * libcuda.so.1), so a program linked with this library starts on a machine
 * without a driver or GPU; tile_init then reports TILE_ERROR_NO_DRIVER or
 * TILE_ERROR_NO_DEVICE.
 *
 * Every function returns a tile_status; on failure tile_last_error() gives
 * a message naming the failing call and, for CUDA failures, the CUDA
 * error's name (e.g. "cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX: ...").
 * The message is thread-local and valid until the next call on the thread.
 *===----------------------------------------------------------------------===*/

#ifndef TILE_RUNTIME_H
#define TILE_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tile_status {
  TILE_SUCCESS = 0,
  TILE_ERROR_NO_DRIVER = 1,      /* libcuda.so.1 cannot be loaded */
  TILE_ERROR_NO_DEVICE = 2,      /* cuInit/cuDeviceGet found no device */
  TILE_ERROR_CUDA = 3,           /* another CUDA driver error */
  TILE_ERROR_INVALID_ARGUMENT = 4,
  TILE_ERROR_OUT_OF_MEMORY = 5,
  TILE_ERROR_OUT_OF_RESOURCES = 6, /* kernel needs more than the device has */
  TILE_ERROR_NOT_FOUND = 7,        /* no such kernel in a module */
  TILE_ERROR_UNSUPPORTED = 8,
  TILE_ERROR_NOT_INITIALIZED = 9
} tile_status;

/* Message of the last failure on this thread ("" when none). */
const char *tile_last_error(void);
/* Short name of a status, e.g. "TILE_ERROR_NO_DEVICE". */
const char *tile_status_name(tile_status status);

/* Opens the driver, initializes it and makes the primary context of device
 * `ordinal` current on the calling thread. Idempotent. */
tile_status tile_init(int ordinal);
/* Name and compute capability of the current device. */
tile_status tile_device_info(char *name, size_t name_size, int *major,
                             int *minor, int *num_sms);

/*--- Device memory --------------------------------------------------------*/
/* Device pointers are plain 64-bit addresses (CUdeviceptr). */
tile_status tile_malloc(uint64_t *dptr, size_t bytes);
tile_status tile_free(uint64_t dptr);
tile_status tile_memcpy_htod(uint64_t dst, const void *src, size_t bytes);
/* Device-to-device copy (asynchronous on the default stream). */
tile_status tile_memcpy_dtod(uint64_t dst, uint64_t src, size_t bytes);
tile_status tile_memcpy_dtoh(void *dst, uint64_t src, size_t bytes);
tile_status tile_memset_d8(uint64_t dst, unsigned char value, size_t bytes);
tile_status tile_synchronize(void);
/* Free and total memory of the current device in bytes (cuMemGetInfo):
 * what every process's allocations leave, not this library's alone. */
tile_status tile_mem_get_info(size_t *free_bytes, size_t *total_bytes);

/*--- Kernels --------------------------------------------------------------*/
typedef enum tile_arg_kind {
  TILE_ARG_PTR = 0, /* a device pointer (uint64_t) */
  TILE_ARG_I32 = 1,
  TILE_ARG_I64 = 2,
  TILE_ARG_F32 = 3,
  TILE_ARG_F64 = 4,
  TILE_ARG_I1 = 5
} tile_arg_kind;

/* One launch argument; `kind` must match the kernel's metadata. */
typedef struct tile_arg {
  tile_arg_kind kind;
  union {
    uint64_t ptr;
    int32_t i32;
    int64_t i64;
    float f32;
    double f64;
  } value;
} tile_arg;

typedef struct tile_module_s *tile_module;
typedef struct tile_kernel_s *tile_kernel;

/* Loads a module from PTX text or a cubin image (detected by the ELF magic)
 * and the metadata text that tile-compile writes next to it. */
tile_status tile_module_load(const void *image, size_t image_size,
                             const char *metadata, tile_module *module);
tile_status tile_module_unload(tile_module module);
tile_status tile_module_get_kernel(tile_module module, const char *name,
                                   tile_kernel *kernel);
/* A module compiled with `tile-compile --specialize NAME=V1,V2,...` holds
 * one kernel per combination of parameter values. This selects the
 * specialization of kernel `name` (its name in the source) whose parameters
 * have the values in `settings`, "NAME=VALUE,NAME=VALUE": the parameters
 * left out may have any value, but exactly one specialization must match
 * (TILE_ERROR_NOT_FOUND, with the compiled ones listed in
 * tile_last_error(), otherwise). */
tile_status tile_module_get_specialization(tile_module module, const char *name,
                                           const char *settings,
                                           tile_kernel *kernel);

/* What the metadata says about a kernel. */
typedef struct tile_kernel_info {
  const char *name;
  int num_args;
  const tile_arg_kind *arg_kinds;
  /* For pointer arguments: required alignment in bytes (0 if none). For
   * integer arguments: required divisibility of the value (0 if none). */
  const int64_t *arg_divisibility;
  int num_warps;
  int shared_bytes; /* dynamic shared memory per CTA */
} tile_kernel_info;
tile_status tile_kernel_get_info(tile_kernel kernel, tile_kernel_info *info);

/* Launches `kernel` on `grid` CTAs of num_warps * 32 threads, on `stream`
 * (a CUstream; NULL for the default stream). Arguments are checked against
 * the metadata first: count, kinds, null or misaligned pointers and
 * divisibility; a mismatch returns TILE_ERROR_INVALID_ARGUMENT and launches
 * nothing. Shared memory beyond 48 KiB is enabled per kernel; more than the
 * device allows returns TILE_ERROR_OUT_OF_RESOURCES. */
tile_status tile_kernel_launch(tile_kernel kernel, const uint32_t grid[3],
                               const tile_arg *args, int num_args,
                               void *stream);

/*--- Timing -----------------------------------------------------------------*/
/* Runs `fn(user)` (which enqueues work on `stream`) `warmup` times, then
 * `iters` times between CUDA events, and stores each timed call's
 * milliseconds in `ms` (length `iters`). */
tile_status tile_time(void (*fn)(void *user), void *user, void *stream,
                      int warmup, int iters, float *ms);

/*--- Library operations -----------------------------------------------------
 * Kernels compiled at build time by Tile's own compiler and embedded in the
 * library. Pointers are device addresses; strides count elements. Arguments
 * are checked before anything is launched: null pointers, sizes below 1,
 * strides that make rows overlap, unsupported dtype combinations return
 * TILE_ERROR_INVALID_ARGUMENT (or TILE_ERROR_UNSUPPORTED) with a message.
 * Work is enqueued on `stream` (a CUstream; NULL for the default stream).
 *---------------------------------------------------------------------------*/
typedef enum tile_dtype {
  TILE_F32 = 0,
  TILE_F16 = 1,
  TILE_BF16 = 2
} tile_dtype;

typedef enum tile_precision {
  TILE_PRECISION_IEEE = 0,  /* f32 products (FMA) */
  TILE_PRECISION_TF32 = 1,  /* tensor-core TF32 products, f32 accumulation */
  TILE_PRECISION_TF32X3 = 2 /* split TF32 products, f32-level error */
} tile_precision;

/* y[r, :] = softmax(x[r, :]) for r < rows: x is rows x cols with row stride
 * `x_row_stride`, y likewise with `y_row_stride` (both >= cols). x and y
 * share their dtype (f32, f16 or bf16; a mixed pair returns
 * TILE_ERROR_UNSUPPORTED); computed in f32. cols from 1 to 2^31 - 1. */
tile_status tile_softmax(uint64_t y, tile_dtype y_dtype, int64_t y_row_stride,
                         uint64_t x, tile_dtype x_dtype, int64_t x_row_stride,
                         int64_t rows, int64_t cols, void *stream);

/* out = softmax(x, dim=-1) @ v without materializing softmax(x):
 * x is [batch, d1, d2], v is [batch, d2, d3], out is [batch, d1, d3], each
 * with strides {batch, row, column} in elements. x, v and out share `dtype`;
 * f32 inputs use `precision`, f16/bf16 inputs multiply in their own type
 * with f32 accumulation (their products are exact in f32, so `precision`
 * does not apply to them). The byte range out spans (first to last
 * element) may not overlap those of x and v (checked:
 * TILE_ERROR_INVALID_ARGUMENT). */
tile_status tile_softmax_matmul(uint64_t out, const int64_t out_strides[3],
                                uint64_t x, const int64_t x_strides[3],
                                uint64_t v, const int64_t v_strides[3],
                                tile_dtype dtype, int64_t batch, int64_t d1,
                                int64_t d2, int64_t d3,
                                tile_precision precision, void *stream);

/* Variant the dispatcher would launch (for benchmarks and tests) for `rows`
 * rows of `cols` elements, 16-byte aligned bases and row strides if
 * `aligned`: writes its kernel name (e.g.
 * "softmax_rows_f32_f32_r4_b1024_w4_a16") to `name`. */
tile_status tile_softmax_variant(tile_dtype y_dtype, tile_dtype x_dtype,
                                 int64_t rows, int64_t cols, int aligned,
                                 char *name, size_t name_size);

/* Variant tile_softmax_matmul would launch for these arguments (the kernel
 * name, e.g. "softmax_matmul_f32_tf32_m64_k32_n128_w4_s2") on the current
 * device (compute capability 9.0 has its own choices) for contiguous
 * tensors with 16-byte aligned bases (f16/bf16 on 9.0 may then take a
 * build whose copies use TMA, suffix "_tma"); honours
 * TILE_SOFTMAX_MATMUL_VARIANT like the operation does. The choice depends
 * on every size, the batch included. */
tile_status tile_softmax_matmul_variant(tile_dtype dtype,
                                        tile_precision precision, int64_t batch,
                                        int64_t d1, int64_t d2, int64_t d3,
                                        char *name, size_t name_size);

/* The attention forward pass, o = softmax(q k^T * scale + mask) v, for every
 * batch entry and head: q and o are [batch, heads, seq_q, head_dim], k and v
 * [batch, kv_heads, seq_k, head_dim], each with strides {batch, head, seq,
 * dim} in elements, the dim stride 1 (BHSD, BSHD and their slices need no
 * copy). Query head h reads key/value head h / (heads / kv_heads): kv_heads
 * must divide heads (GQA; MQA with kv_heads = 1). q, k, v and o share
 * `dtype`: f16 and bf16 multiply in their type with f32 accumulation, f32
 * in TF32. head_dim 1 to 256 (32, 64, 128 and 256 with 16-byte rows take
 * pipelined kernels, the others padded ones); any seq_q and seq_k with
 * seq_q + seq_k below 2^31; batch and heads up to 65535.
 * causal: key j is visible to query i when j <= i + seq_k - seq_q (the
 * diagonal aligned bottom-right, as in FlashAttention 2 and later); a row
 * with no visible key gets o = 0 and lse = -inf.
 * lse: 0, or a contiguous f32 [batch, heads, seq_q] buffer receiving each
 * row's log-sum-exp of its scaled, masked scores (what a backward pass
 * needs).
 * Errors (nothing written): null pointers or strides arrays, sizes below 1,
 * kv_heads not dividing heads, a dim stride other than 1, pointers not
 * aligned to the element (lse: 4 bytes), a non-finite scale, o overlapping
 * q, k, v or lse (TILE_ERROR_INVALID_ARGUMENT); head_dim over 256
 * (TILE_ERROR_UNSUPPORTED). */
tile_status tile_attention(uint64_t o, const int64_t o_strides[4], uint64_t q,
                           const int64_t q_strides[4], uint64_t k,
                           const int64_t k_strides[4], uint64_t v,
                           const int64_t v_strides[4], uint64_t lse,
                           tile_dtype dtype, int64_t batch, int64_t heads,
                           int64_t kv_heads, int64_t seq_q, int64_t seq_k,
                           int64_t head_dim, float scale, int causal,
                           void *stream);

/* Variant tile_attention would launch (the kernel name, e.g.
 * "attention_f16_d128_m64_n64_w8_s2_a16") on the current device for
 * contiguous BHSD tensors with 16-byte aligned bases; honours
 * TILE_ATTENTION_VARIANT like the operation does. The choice depends on
 * every size, the batch, the heads and the key/value heads included. */
tile_status tile_attention_variant(tile_dtype dtype, int64_t batch,
                                   int64_t heads, int64_t kv_heads,
                                   int64_t seq_q, int64_t seq_k,
                                   int64_t head_dim, int causal, char *name,
                                   size_t name_size);

/* The library's embedded kernels, by index (0 .. count - 1): their names,
 * e.g. for forcing one through TILE_SOFTMAX_VARIANT or
 * TILE_SOFTMAX_MATMUL_VARIANT when tuning or testing. Returns NULL past the
 * end. */
size_t tile_library_kernel_count(void);
const char *tile_library_kernel_name(size_t index);

#ifdef __cplusplus
}
#endif

#endif /* TILE_RUNTIME_H */
