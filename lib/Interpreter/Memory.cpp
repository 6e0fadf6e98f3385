//===- Memory.cpp - Buffers and element types of the interpreter ----------===//

#include "tile/Interpreter/Interpreter.h"
#include "tile/Reference/Float16.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include <sys/resource.h>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interp;

std::optional<DType> mlir::tile::interp::parseDType(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<DType>>(name)
      .Case("f16", DType::F16)
      .Case("bf16", DType::BF16)
      .Case("f32", DType::F32)
      .Case("f64", DType::F64)
      .Case("i1", DType::I1)
      .Case("i8", DType::I8)
      .Case("i16", DType::I16)
      .Case("i32", DType::I32)
      .Case("i64", DType::I64)
      .Default(std::nullopt);
}

llvm::StringRef mlir::tile::interp::dtypeName(DType t) {
  switch (t) {
  case DType::F16: return "f16";
  case DType::BF16: return "bf16";
  case DType::F32: return "f32";
  case DType::F64: return "f64";
  case DType::I1: return "i1";
  case DType::I8: return "i8";
  case DType::I16: return "i16";
  case DType::I32: return "i32";
  case DType::I64: return "i64";
  }
  return "?";
}

int64_t mlir::tile::interp::dtypeSize(DType t) {
  switch (t) {
  case DType::F16: case DType::BF16: case DType::I16: return 2;
  case DType::F32: case DType::I32: return 4;
  case DType::F64: case DType::I64: return 8;
  case DType::I1: case DType::I8: return 1;
  }
  return 1;
}

bool mlir::tile::interp::isFloat(DType t) {
  return t == DType::F16 || t == DType::BF16 || t == DType::F32 ||
         t == DType::F64;
}

std::optional<DType> mlir::tile::interp::dtypeOf(Type t) {
  if (t.isF16()) return DType::F16;
  if (t.isBF16()) return DType::BF16;
  if (t.isF32()) return DType::F32;
  if (t.isF64()) return DType::F64;
  if (t.isIndex()) return DType::I64;
  if (auto i = dyn_cast<IntegerType>(t)) {
    switch (i.getWidth()) {
    case 1: return DType::I1;
    case 8: return DType::I8;
    case 16: return DType::I16;
    case 32: return DType::I32;
    case 64: return DType::I64;
    default: return std::nullopt;
    }
  }
  return std::nullopt;
}

std::string mlir::tile::interp::formatNumber(double v) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v > 0 ? "inf" : "-inf";
  char text[32];
  std::snprintf(text, sizeof(text), "%.7g", v);
  return text;
}

//===----------------------------------------------------------------------===//
// 16-bit float formats (round to nearest even)
//===----------------------------------------------------------------------===//

using reference::bf16ToFloat;
using reference::doubleToBF16;
using reference::doubleToHalf;
using reference::floatToBF16;
using reference::floatToHalf;
using reference::halfToFloat;

static int64_t wrapInt(DType t, double v) {
  if (std::isnan(v))
    return 0;
  // Saturate before converting: out-of-range double->int is undefined.
  double lo = -9.2233720368547758e18, hi = 9.2233720368547748e18;
  int64_t i = (int64_t)std::min(std::max(std::trunc(v), lo), hi);
  switch (t) {
  case DType::I1: return i & 1;
  case DType::I8: return (int8_t)i;
  case DType::I16: return (int16_t)i;
  case DType::I32: return (int32_t)i;
  default: return i;
  }
}

double mlir::tile::interp::roundTo(DType t, double v) {
  switch (t) {
  case DType::F16:
    return halfToFloat(doubleToHalf(v));
  case DType::BF16:
    return bf16ToFloat(doubleToBF16(v));
  case DType::F32: return (double)(float)v;
  case DType::F64: return v;
  default: return (double)wrapInt(t, v);
  }
}

//===----------------------------------------------------------------------===//
// Buffer
//===----------------------------------------------------------------------===//

std::optional<int64_t>
mlir::tile::interp::bufferSizeInBytes(DType dtype,
                                      llvm::ArrayRef<int64_t> shape) {
  int64_t bytes = dtypeSize(dtype);
  for (int64_t d : shape)
    if (d < 0 || llvm::MulOverflow(bytes, d, bytes))
      return std::nullopt;
  return bytes;
}

bool mlir::tile::interp::checkHostMemory(int64_t bytes, std::string &error) {
  // MemAvailable, in kB, from /proc/meminfo (Linux); no limit elsewhere.
  int64_t available = std::numeric_limits<int64_t>::max();
  if (std::FILE *meminfo = std::fopen("/proc/meminfo", "r")) {
    char line[256];
    long long kb;
    while (std::fgets(line, sizeof(line), meminfo))
      if (std::sscanf(line, "MemAvailable: %lld kB", &kb) == 1) {
        available = int64_t(kb) * 1024;
        break;
      }
    std::fclose(meminfo);
  }
  struct rlimit limit;
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    available = std::min<int64_t>(available, int64_t(limit.rlim_cur) / 2);
  if (bytes <= available)
    return true;
  auto gib = [](int64_t b) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.2f GiB", double(b) / (1 << 30));
    return std::string(text);
  };
  error = "about " + gib(bytes) + " of host memory are needed, " +
          gib(available) + " are available";
  return false;
}

Buffer::Buffer(std::string name, DType dtype, std::vector<int64_t> shape)
    : name(std::move(name)), dtype(dtype), shape(std::move(shape)) {
  // An unchecked product could wrap to a small size (and every access would
  // then be out of bounds of what was meant), and a huge one would abort in
  // the allocator with only "out of memory"; say which buffer it was.
  std::optional<int64_t> size = bufferSizeInBytes(dtype, this->shape);
  if (!size || *size > kMaxBufferBytes)
    llvm::report_fatal_error(llvm::Twine("buffer '") + this->name +
                                 "' is too large (more than " +
                                 llvm::Twine(kMaxBufferBytes >> 30) + " GiB)",
                             /*gen_crash_diag=*/false);
  bytes.assign(*size, 0);
}

int64_t Buffer::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

double Buffer::get(int64_t i) const {
  const uint8_t *p = bytes.data() + i * dtypeSize(dtype);
  switch (dtype) {
  case DType::F16: { uint16_t h; std::memcpy(&h, p, 2); return halfToFloat(h); }
  case DType::BF16: { uint16_t h; std::memcpy(&h, p, 2); return bf16ToFloat(h); }
  case DType::F32: { float f; std::memcpy(&f, p, 4); return f; }
  case DType::F64: { double d; std::memcpy(&d, p, 8); return d; }
  case DType::I1: return *p & 1;
  case DType::I8: return (int8_t)*p;
  case DType::I16: { int16_t v; std::memcpy(&v, p, 2); return v; }
  case DType::I32: { int32_t v; std::memcpy(&v, p, 4); return v; }
  case DType::I64: { int64_t v; std::memcpy(&v, p, 8); return (double)v; }
  }
  return 0;
}

int64_t Buffer::getInt(int64_t i) const {
  const uint8_t *p = bytes.data() + i * dtypeSize(dtype);
  switch (dtype) {
  case DType::I1: return *p & 1;
  case DType::I8: return (int8_t)*p;
  case DType::I16: { int16_t v; std::memcpy(&v, p, 2); return v; }
  case DType::I32: { int32_t v; std::memcpy(&v, p, 4); return v; }
  case DType::I64: { int64_t v; std::memcpy(&v, p, 8); return v; }
  default: return (int64_t)get(i);
  }
}

void Buffer::set(int64_t i, double v) {
  uint8_t *p = bytes.data() + i * dtypeSize(dtype);
  switch (dtype) {
  case DType::F16: {
    uint16_t h = doubleToHalf(v);
    std::memcpy(p, &h, 2);
    return;
  }
  case DType::BF16: {
    uint16_t h = doubleToBF16(v);
    std::memcpy(p, &h, 2);
    return;
  }
  case DType::F32: { float f = (float)v; std::memcpy(p, &f, 4); return; }
  case DType::F64: std::memcpy(p, &v, 8); return;
  case DType::I1: *p = (uint8_t)(wrapInt(DType::I1, v)); return;
  case DType::I8: *p = (uint8_t)(int8_t)wrapInt(DType::I8, v); return;
  case DType::I16: { int16_t x = (int16_t)wrapInt(DType::I16, v); std::memcpy(p, &x, 2); return; }
  case DType::I32: { int32_t x = (int32_t)wrapInt(DType::I32, v); std::memcpy(p, &x, 4); return; }
  case DType::I64: { int64_t x = wrapInt(DType::I64, v); std::memcpy(p, &x, 8); return; }
  }
}

std::vector<double> Buffer::toDoubles() const {
  std::vector<double> out(numElements());
  for (int64_t i = 0, e = numElements(); i < e; ++i)
    out[i] = get(i);
  return out;
}

double mlir::tile::interp::defaultTolerance(DType t) {
  switch (t) {
  case DType::F16:
  case DType::BF16:
    return 1e-2;
  case DType::F64:
    return 1e-12;
  default:
    return 1e-5;
  }
}
