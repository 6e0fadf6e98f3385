//===- Interpreter.h - Reference interpreter for tile kernels ---*- C++ -*-===//
//
// Executes a tile kernel on the CPU, program instance by program instance,
// with tiles held as host arrays. It is the project's reference: every
// example's numerics are checked through it where no GPU exists, and GPU
// results are compared against it.
//
// Memory is a set of named buffers holding elements in their storage type
// (f16 and bf16 as 16-bit patterns). Pointers are (buffer, byte offset)
// pairs, so any access outside a buffer is caught and reported with the
// location of the op that made it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_INTERPRETER_INTERPRETER_H
#define TILE_INTERPRETER_INTERPRETER_H

#include "tile/Reference/Reference.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace tile {
namespace interp {

/// Element types a buffer can hold.
enum class DType { F16, BF16, F32, F64, I1, I8, I16, I32, I64 };

/// Parses "f32", "bf16", "i32", ...
std::optional<DType> parseDType(llvm::StringRef name);
llvm::StringRef dtypeName(DType t);
/// Storage size in bytes.
int64_t dtypeSize(DType t);
bool isFloat(DType t);
/// The DType of an MLIR scalar type, if it has one.
std::optional<DType> dtypeOf(Type t);

/// Formats a number as printed by `tile.print` and tile-run: shortest
/// general form, with `inf`, `-inf` and `nan` spelled as MLIR does.
std::string formatNumber(double v);

/// Rounds `v` to the nearest value representable in `t` (round to nearest
/// even for floats; wrap-around for integers).
double roundTo(DType t, double v);

/// The largest buffer the interpreter (and tile-run) will allocate: 64 GiB.
/// Larger requests are almost always a mistyped shape, and the host would
/// fail to provide them anyway.
constexpr int64_t kMaxBufferBytes = int64_t(64) << 30;

/// The size in bytes of a buffer of `shape` elements of type `dtype`, or
/// std::nullopt when the element count or the byte size overflows int64 (or
/// a dimension is negative). Does not apply kMaxBufferBytes.
std::optional<int64_t> bufferSizeInBytes(DType dtype,
                                         llvm::ArrayRef<int64_t> shape);

/// Whether the host can provide `bytes` more bytes of memory: at most what
/// the system reports available (MemAvailable) and what the process's
/// address-space limit leaves. Otherwise false with `error` saying how much
/// is needed and available. Callers allocating for user input check this
/// first: an allocation the host cannot back ends the process.
bool checkHostMemory(int64_t bytes, std::string &error);

/// A named region of host memory that kernels address through pointers.
struct Buffer {
  std::string name;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;

  Buffer() = default;
  /// A zero-filled buffer. Aborts with a fatal error (instead of wrapping
  /// the size or exhausting memory) when its size overflows or exceeds
  /// kMaxBufferBytes; callers taking user input check bufferSizeInBytes
  /// first.
  Buffer(std::string name, DType dtype, std::vector<int64_t> shape);

  int64_t numElements() const;
  int64_t sizeInBytes() const { return (int64_t)bytes.size(); }
  /// Element `i` converted to double.
  double get(int64_t i) const;
  /// Integer element `i`, exactly (also beyond 2^53).
  int64_t getInt(int64_t i) const;
  /// Stores `v` into element `i`, rounded to the buffer's type.
  void set(int64_t i, double v);
  std::vector<double> toDoubles() const;
};

/// One kernel argument: a buffer (for `!tile.ptr<T>` parameters) or a
/// scalar.
struct ArgValue {
  enum class Kind { Buffer, Int, Float } kind = Kind::Int;
  int bufferIndex = -1;
  int64_t intValue = 0;
  double floatValue = 0;

  static ArgValue buffer(int index) {
    ArgValue a;
    a.kind = Kind::Buffer;
    a.bufferIndex = index;
    return a;
  }
  static ArgValue integer(int64_t v) {
    ArgValue a;
    a.kind = Kind::Int;
    a.intValue = v;
    return a;
  }
  static ArgValue real(double v) {
    ArgValue a;
    a.kind = Kind::Float;
    a.floatValue = v;
    return a;
  }
};

struct RunOptions {
  /// Grid size along axes 0, 1, 2.
  int64_t grid[3] = {1, 1, 1};
  /// Where `tile.print` writes; null silences it.
  llvm::raw_ostream *printStream = &llvm::outs();
  /// Stop after this many scf.for iterations in one loop (guards against
  /// runaway loops from bad scalar arguments). 0 means no limit.
  int64_t maxLoopIterations = int64_t(1) << 32;
  /// Stop when the run (all programs together) has executed this many steps,
  /// each op counting the elements of its result and at least 64: about
  /// four minutes of interpretation, a bound on runaway work from huge loop
  /// bounds. 0 means no limit.
  int64_t maxSteps = int64_t(1) << 36;
};

/// Runs `kernel` over the whole grid. Errors (bad arguments, out-of-bounds
/// accesses, unsupported ops) are reported through the MLIR diagnostic
/// engine at the offending op's location and yield failure.
LogicalResult runKernel(func::FuncOp kernel, llvm::ArrayRef<ArgValue> args,
                        std::vector<Buffer> &buffers,
                        const RunOptions &options = {});

/// Finds the kernel named `name` in `module` (or its only kernel when `name`
/// is empty); reports an error and returns null when there is none.
func::FuncOp lookupKernel(ModuleOp module, llvm::StringRef name);

using reference::Comparison;
using reference::compare;
using reference::referenceMatmul;
using reference::referenceSoftmax;
using reference::referenceSoftmaxMatmul;
/// The default relative tolerance for results stored as `t`.
double defaultTolerance(DType t);

} // namespace interp
} // namespace tile
} // namespace mlir

#endif // TILE_INTERPRETER_INTERPRETER_H
