//===- ElementwiseCases.h - Kernels for each supported op -------*- C++ -*-===//
//
// For each entry of Tile's table of arith and math ops (ElementwiseOps.h)
// and each element type it takes, a kernel y = op(x, ...) over 256 random
// inputs from the entry's domain; the ops whose operand and result types
// differ share one kernel. The interpreter's results and the compiled PTX
// of each are what the CPU test checks and what the GPU test compares the
// GPU with.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_UNITTESTS_ELEMENTWISE_ELEMENTWISECASES_H
#define TILE_UNITTESTS_ELEMENTWISE_ELEMENTWISECASES_H

#include "tile/Dialect/Tile/IR/ElementwiseOps.h"
#include "tile/Interpreter/Interpreter.h"
#include "tile/Target/Compile.h"

#include <string>
#include <vector>

namespace elementwise {

using mlir::tile::ElementwiseOpInfo;
using mlir::tile::interp::Buffer;

constexpr int64_t kElements = 256;

struct Case {
  /// e.g. "math.erf_f32"; the kernel is @k.
  std::string name;
  std::string text;
  /// Inputs, then outputs (poisoned: NaN, or -12345 for integers).
  std::vector<Buffer> buffers;
  int numOutputs = 1;
  /// i32 arguments after the buffers.
  std::vector<int64_t> scalars;
  /// Of the GPU against the interpreter, relative to max(max |expected|, 1).
  double tolerance = 0;
  /// The op, or null for the kernel of the conversions.
  const ElementwiseOpInfo *info = nullptr;
};

/// Every case, inputs drawn with `seed`.
std::vector<Case> makeCases(uint64_t seed);
/// The ops of the table that the conversions kernel covers.
bool isConversionOp(llvm::StringRef name);

struct Prepared {
  /// The buffers after the interpreter's run.
  std::vector<Buffer> results;
  mlir::tile::CompiledModule compiled;
};

/// Parses `c`, runs the kernel checks and the interpreter, and compiles it
/// for `chip`; false with the diagnostics in `error` on any failure.
bool prepare(const Case &c, const std::string &chip, Prepared &out,
             std::string &error);

} // namespace elementwise

#endif // TILE_UNITTESTS_ELEMENTWISE_ELEMENTWISECASES_H
