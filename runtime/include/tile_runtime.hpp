//===- tile_runtime.hpp - Thin C++ wrapper of the Tile runtime ------------===//
//
// Header-only RAII classes over tile_runtime.h. No exceptions (the project
// builds with -fno-exceptions): every operation that can fail returns a
// tile::Status, which holds the status code and a copy of tile_last_error()
// taken when the call failed.
//
//   tile::Status s = tile::init();
//   if (!s.ok()) { fprintf(stderr, "%s\n", s.message().c_str()); ... }
//   tile::DeviceBuffer buf;
//   s = tile::DeviceBuffer::allocate(n * sizeof(float), buf);
//   tile::Module module;
//   s = tile::Module::load(ptx, metadata, module);
//   tile::Kernel kernel;
//   s = module.getKernel("softmax", kernel);
//   s = kernel.launch({grid_x}, {tile::arg::ptr(buf), tile::arg::i32(n)});
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_HPP
#define TILE_RUNTIME_HPP

#include "tile_runtime.h"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tile {

/// The outcome of a runtime call: a tile_status and, on failure, its
/// message.
class [[nodiscard]] Status {
public:
  Status() = default;
  explicit Status(tile_status code)
      : code_(code), message_(code == TILE_SUCCESS ? "" : tile_last_error()) {}

  bool ok() const { return code_ == TILE_SUCCESS; }
  tile_status code() const { return code_; }
  /// tile_last_error() as it was when the call failed; "" on success.
  const std::string &message() const { return message_; }
  /// "TILE_ERROR_...: <message>", or "TILE_SUCCESS".
  std::string toString() const {
    std::string out = tile_status_name(code_);
    if (!message_.empty())
      out += ": " + message_;
    return out;
  }

private:
  tile_status code_ = TILE_SUCCESS;
  std::string message_;
};

/// Wraps a C API result: `tile::Status s = tile::check(tile_synchronize());`
inline Status check(tile_status status) { return Status(status); }

inline Status init(int ordinal = 0) { return check(tile_init(ordinal)); }
inline Status synchronize() { return check(tile_synchronize()); }

struct DeviceInfo {
  std::string name;
  int major = 0;
  int minor = 0;
  int numSms = 0;
};

inline Status deviceInfo(DeviceInfo &info) {
  char name[256] = {};
  Status s = check(tile_device_info(name, sizeof(name), &info.major,
                                    &info.minor, &info.numSms));
  if (s.ok())
    info.name = name;
  return s;
}

/// Owns a device allocation; freed on destruction. Move-only.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(DeviceBuffer &&other) noexcept
      : ptr_(other.ptr_), size_(other.size_) {
    other.ptr_ = 0;
    other.size_ = 0;
  }
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept {
    if (this != &other) {
      reset();
      std::swap(ptr_, other.ptr_);
      std::swap(size_, other.size_);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  /// Replaces `out`'s allocation with a new one of `bytes` bytes.
  static Status allocate(size_t bytes, DeviceBuffer &out) {
    out.reset();
    uint64_t ptr = 0;
    Status s = check(tile_malloc(&ptr, bytes));
    if (s.ok()) {
      out.ptr_ = ptr;
      out.size_ = bytes;
    }
    return s;
  }

  uint64_t ptr() const { return ptr_; }
  size_t size() const { return size_; }
  bool empty() const { return ptr_ == 0; }

  /// Frees the allocation now (errors are ignored, as in the destructor).
  void reset() {
    if (ptr_)
      (void)tile_free(ptr_);
    ptr_ = 0;
    size_ = 0;
  }
  /// Gives up ownership; the caller frees the pointer with tile_free.
  uint64_t release() {
    uint64_t p = ptr_;
    ptr_ = 0;
    size_ = 0;
    return p;
  }

  Status copyFromHost(const void *src, size_t bytes, size_t offset = 0) {
    return check(tile_memcpy_htod(ptr_ + offset, src, bytes));
  }
  Status copyToHost(void *dst, size_t bytes, size_t offset = 0) const {
    return check(tile_memcpy_dtoh(dst, ptr_ + offset, bytes));
  }
  Status fill(unsigned char value) {
    return check(tile_memset_d8(ptr_, value, size_));
  }

  template <typename T> Status upload(const std::vector<T> &host) {
    return copyFromHost(host.data(), host.size() * sizeof(T));
  }
  /// Resizes `host` to size() / sizeof(T) elements and copies into it.
  template <typename T> Status download(std::vector<T> &host) const {
    host.resize(size_ / sizeof(T));
    return copyToHost(host.data(), host.size() * sizeof(T));
  }

private:
  uint64_t ptr_ = 0;
  size_t size_ = 0;
};

/// Builders of launch arguments.
namespace arg {
inline tile_arg ptr(uint64_t value) {
  tile_arg a = {};
  a.kind = TILE_ARG_PTR;
  a.value.ptr = value;
  return a;
}
inline tile_arg ptr(const DeviceBuffer &buffer) { return ptr(buffer.ptr()); }
inline tile_arg i32(int32_t value) {
  tile_arg a = {};
  a.kind = TILE_ARG_I32;
  a.value.i32 = value;
  return a;
}
inline tile_arg i64(int64_t value) {
  tile_arg a = {};
  a.kind = TILE_ARG_I64;
  a.value.i64 = value;
  return a;
}
inline tile_arg f32(float value) {
  tile_arg a = {};
  a.kind = TILE_ARG_F32;
  a.value.f32 = value;
  return a;
}
inline tile_arg f64(double value) {
  tile_arg a = {};
  a.kind = TILE_ARG_F64;
  a.value.f64 = value;
  return a;
}
/// The runtime reads an i1 argument from value.i32 (non-zero is true).
inline tile_arg i1(bool value) {
  tile_arg a = {};
  a.kind = TILE_ARG_I1;
  a.value.i32 = value ? 1 : 0;
  return a;
}
} // namespace arg

/// A launch grid; unnamed dimensions are 1.
struct Grid {
  Grid(uint32_t x = 1, uint32_t y = 1, uint32_t z = 1) : dims{x, y, z} {}
  uint32_t dims[3];
};

/// A kernel of a loaded Module. It does not own anything: it is valid while
/// its Module is loaded.
class Kernel {
public:
  Kernel() = default;
  explicit Kernel(tile_kernel handle) : handle_(handle) {}
  tile_kernel handle() const { return handle_; }
  bool valid() const { return handle_ != nullptr; }

  Status info(tile_kernel_info &out) const {
    return check(tile_kernel_get_info(handle_, &out));
  }
  Status launch(const Grid &grid, const tile_arg *args, int numArgs,
                void *stream = nullptr) const {
    return check(tile_kernel_launch(handle_, grid.dims, args, numArgs, stream));
  }
  Status launch(const Grid &grid, std::initializer_list<tile_arg> args,
                void *stream = nullptr) const {
    return launch(grid, args.begin(), int(args.size()), stream);
  }
  Status launch(const Grid &grid, const std::vector<tile_arg> &args,
                void *stream = nullptr) const {
    return launch(grid, args.data(), int(args.size()), stream);
  }

private:
  tile_kernel handle_ = nullptr;
};

/// Owns a loaded module; unloaded on destruction. Move-only.
class Module {
public:
  Module() = default;
  ~Module() { reset(); }
  Module(Module &&other) noexcept : handle_(other.handle_) {
    other.handle_ = nullptr;
  }
  Module &operator=(Module &&other) noexcept {
    if (this != &other) {
      reset();
      std::swap(handle_, other.handle_);
    }
    return *this;
  }
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  /// Loads PTX or a cubin image and its metadata text into `out`.
  static Status load(const void *image, size_t size, const char *metadata,
                     Module &out) {
    out.reset();
    return check(tile_module_load(image, size, metadata, &out.handle_));
  }
  static Status load(const std::string &image, const std::string &metadata,
                     Module &out) {
    return load(image.data(), image.size(), metadata.c_str(), out);
  }

  Status getKernel(const char *name, Kernel &out) const {
    tile_kernel k = nullptr;
    Status s = check(tile_module_get_kernel(handle_, name, &k));
    out = Kernel(k);
    return s;
  }
  /// The specialization of `name` with the parameter values in `settings`
  /// ("BLOCK=1024,NUM_WARPS=8"); see tile_module_get_specialization.
  Status getSpecialization(const char *name, const char *settings,
                           Kernel &out) const {
    tile_kernel k = nullptr;
    Status s =
        check(tile_module_get_specialization(handle_, name, settings, &k));
    out = Kernel(k);
    return s;
  }

  tile_module handle() const { return handle_; }
  bool loaded() const { return handle_ != nullptr; }
  void reset() {
    if (handle_)
      (void)tile_module_unload(handle_);
    handle_ = nullptr;
  }

private:
  tile_module handle_ = nullptr;
};

/// One [batch, heads, seq, dim] tensor of tile_attention: its device
/// pointer and strides in elements (dim's must be 1).
struct AttentionTensor {
  uint64_t ptr = 0;
  int64_t strides[4] = {0, 0, 0, 1};

  /// A contiguous [batch, heads, seq, dim] tensor (BHSD).
  static AttentionTensor bhsd(uint64_t ptr, int64_t heads, int64_t seq,
                              int64_t dim) {
    return {ptr, {heads * seq * dim, seq * dim, dim, 1}};
  }
  /// A contiguous [batch, seq, heads, dim] tensor (BSHD), seen as
  /// [batch, heads, seq, dim].
  static AttentionTensor bshd(uint64_t ptr, int64_t heads, int64_t seq,
                              int64_t dim) {
    return {ptr, {seq * heads * dim, dim, heads * dim, 1}};
  }
};

/// The sizes and options of tile_attention.
struct AttentionShape {
  tile_dtype dtype = TILE_F16;
  int64_t batch = 1, heads = 1, kvHeads = 1, seqQ = 1, seqK = 1, headDim = 64;
  float scale = 0.125f;
  bool causal = false;
};

/// tile_attention: o = softmax(q k^T * scale + mask) v; `lse` is 0 or a
/// contiguous f32 [batch, heads, seq_q] buffer.
inline Status attention(const AttentionTensor &o, const AttentionTensor &q,
                        const AttentionTensor &k, const AttentionTensor &v,
                        uint64_t lse, const AttentionShape &s,
                        void *stream = nullptr) {
  return check(tile_attention(o.ptr, o.strides, q.ptr, q.strides, k.ptr,
                              k.strides, v.ptr, v.strides, lse, s.dtype,
                              s.batch, s.heads, s.kvHeads, s.seqQ, s.seqK,
                              s.headDim, s.scale, s.causal ? 1 : 0, stream));
}

/// Times `fn` (a callable that enqueues work on `stream`) with tile_time;
/// `ms` receives one duration per timed call.
template <typename F>
Status time(F &&fn, void *stream, int warmup, int iters,
            std::vector<float> &ms) {
  ms.assign(iters > 0 ? size_t(iters) : 0, 0.0f);
  using Fn = typename std::remove_reference<F>::type;
  auto trampoline = [](void *user) { (*static_cast<Fn *>(user))(); };
  void *user =
      const_cast<void *>(static_cast<const void *>(std::addressof(fn)));
  return check(tile_time(trampoline, user, stream, warmup, iters,
                         ms.empty() ? nullptr : ms.data()));
}

} // namespace tile

#endif // TILE_RUNTIME_HPP
