//===- KernelParameters.h - Compile-time parameters of kernels --*- C++ -*-===//
//
// A kernel source may declare named compile-time parameters, one per line:
//
//   tile.param BLOCK = 1024
//   tile.param EVEN_N = false
//
// and use them anywhere outside comments as `${EXPR}`, where EXPR is an
// integer or boolean expression of the parameters:
//
//   %cols = tile.range 0, ${BLOCK} : tensor<${BLOCK}xi32>
//   %acc = ... : tensor<${BLOCK_M * BLOCK_N / 32}xf32>
//
// Specializing the source replaces every `${EXPR}` by its value (integers in
// decimal, booleans as `true`/`false`) and turns the declarations into
// comments, so the result is an ordinary static kernel for the MLIR parser,
// with every line where it was. The values are the declared defaults unless
// set by a tool's `--param NAME=VALUE` or by the caller of specializeSource.
//
// Expressions: integer and boolean literals, parameter names, parentheses,
// unary - and !, * / %, + -, << >>, < <= > >=, == !=, &&, ||, c ? a : b, and
// the functions min(a, b), max(a, b), cdiv(a, b) (division rounding up) and
// log2(x) (x a power of two). Integers are 64-bit; overflow, division by
// zero and mixing integers with booleans are errors at the expression.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_SUPPORT_KERNELPARAMETERS_H
#define TILE_SUPPORT_KERNELPARAMETERS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
class ScopedDiagnosticHandler;

namespace tile {

/// One declared parameter and the value it has in a specialization.
struct KernelParameter {
  std::string name;
  bool isBool = false;
  int64_t value = 0;
  /// Set by a setting rather than by the declaration's default.
  bool isSet = false;
  /// Line of its declaration (1-based).
  unsigned line = 0;
};

/// A value given to a parameter from outside the source ("NAME=VALUE").
struct ParameterSetting {
  std::string name;
  std::string value;
};

/// Splits "NAME=VALUE" settings. On a malformed one returns std::nullopt
/// and sets `error`.
std::optional<std::vector<ParameterSetting>>
parseParameterSettings(llvm::ArrayRef<std::string> settings,
                       std::string &error);

struct SpecializedSource {
  /// The specialized text, under the source's name.
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  /// Every declared parameter, in declaration order, with its value.
  std::vector<KernelParameter> parameters;
};

/// Specializes `source` with `settings`. A setting of a parameter the
/// source does not declare, a value of the wrong kind, a malformed
/// declaration or expression and a use of an undeclared name are errors:
/// returns std::nullopt and sets `error` to "NAME:LINE:COL: error: ..."
/// (or "NAME: error: ..." for a setting). A source without declarations
/// and without `${` comes back unchanged.
std::optional<SpecializedSource>
specializeSource(const llvm::MemoryBuffer &source,
                 llvm::ArrayRef<ParameterSetting> settings, std::string &error);

/// `text` (a command-line value such as tile-run's grid) with every
/// `${EXPR}` replaced by its value under `parameters`. On an error returns
/// std::nullopt and sets `error` ("'TEXT', column N: ...").
std::optional<std::string>
substituteParameters(llvm::StringRef text,
                     llvm::ArrayRef<KernelParameter> parameters,
                     std::string &error);

/// "BLOCK=1024 (set), EVEN_N=false": the values of a specialization, for
/// notes under diagnostics of the specialized kernel. Empty without
/// parameters.
std::string describeParameters(llvm::ArrayRef<KernelParameter> parameters);

/// What the tools read: the source at `path` (readSource's checks)
/// specialized with `settings`, the "NAME=VALUE" strings of `--param`.
/// `parameters` receives the specialization's values. On failure returns
/// null and sets `error` (a located message where there is a location).
std::unique_ptr<llvm::MemoryBuffer>
readKernelSource(llvm::StringRef path, llvm::ArrayRef<std::string> settings,
                 std::vector<KernelParameter> &parameters, std::string &error);

/// While the returned handler lives, every error reported in `context` gets
/// the note "with kernel parameters BLOCK=..., ...": a diagnostic of a
/// specialized kernel says which specialization it is about. Null when no
/// parameter was set (the source's defaults are what was compiled).
std::unique_ptr<ScopedDiagnosticHandler>
noteParametersOnErrors(MLIRContext *context,
                       llvm::ArrayRef<KernelParameter> parameters);

} // namespace tile
} // namespace mlir

#endif // TILE_SUPPORT_KERNELPARAMETERS_H
