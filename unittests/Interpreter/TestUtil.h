//===- TestUtil.h - Helpers for interpreter tests ---------------*- C++ -*-===//

#ifndef TILE_UNITTESTS_INTERPRETER_TESTUTIL_H
#define TILE_UNITTESTS_INTERPRETER_TESTUTIL_H

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Interpreter/Interpreter.h"
#include "tile/Support/KernelParameters.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

#include <limits>
#include <random>
#include <string>

namespace tiletest {
using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::interp;

/// Owns a context, a parsed module and the diagnostics it produced.
class KernelHarness {
public:
  KernelHarness() {
    context.loadDialect<TileDialect, arith::ArithDialect, math::MathDialect,
                        scf::SCFDialect, func::FuncDialect>();
    context.printOpOnDiagnostic(false);
    handler = std::make_unique<ScopedDiagnosticHandler>(
        &context, [this](Diagnostic &d) {
          diagnostics += d.str() + "\n";
          return success();
        });
  }

  /// Parses a kernel source as the tools do: its parameters (`tile.param`)
  /// specialized with `settings` ("NAME=VALUE"), by default their defaults.
  bool parseFile(const std::string &path,
                 llvm::ArrayRef<std::string> settings = {}) {
    std::vector<KernelParameter> parameters;
    std::string error;
    std::unique_ptr<llvm::MemoryBuffer> source =
        readKernelSource(path, settings, parameters, error);
    if (!source) {
      diagnostics += error + "\n";
      return false;
    }
    module = parseSourceString<ModuleOp>(source->getBuffer(), &context, path);
    return (bool)module;
  }
  bool parseString(llvm::StringRef text) {
    module = parseSourceString<ModuleOp>(text, &context);
    return (bool)module;
  }
  func::FuncOp kernel(llvm::StringRef name = "") {
    return lookupKernel(*module, name);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::string diagnostics;

private:
  std::unique_ptr<ScopedDiagnosticHandler> handler;
};

inline std::string examplePath(const std::string &name) {
  return std::string(TILE_EXAMPLES_DIR) + "/" + name;
}

/// A buffer of normally distributed values times `scale`.
inline Buffer randomBuffer(const std::string &name, std::vector<int64_t> shape,
                           std::mt19937_64 &rng, double scale = 1.0) {
  Buffer b(name, DType::F32, std::move(shape));
  std::normal_distribution<double> dist(0.0, 1.0);
  for (int64_t i = 0; i < b.numElements(); ++i)
    b.set(i, dist(rng) * scale);
  return b;
}

/// An output buffer poisoned with NaN so unwritten elements are caught.
inline Buffer poisonedBuffer(const std::string &name,
                             std::vector<int64_t> shape) {
  Buffer b(name, DType::F32, std::move(shape));
  for (int64_t i = 0; i < b.numElements(); ++i)
    b.set(i, std::numeric_limits<double>::quiet_NaN());
  return b;
}

inline ArgValue i32(int64_t v) { return ArgValue::integer(v); }

/// Asserts `got` matches `ref` to the f32 tolerance, naming the case.
inline void expectClose(const std::vector<double> &got,
                        const std::vector<double> &ref,
                        const std::string &what, double rtol = 1e-5) {
  Comparison c = compare(got, ref, rtol);
  EXPECT_TRUE(c.passed) << what << ": rel error " << c.relError
                        << ", max abs " << c.maxAbsError << " at element "
                        << c.worstIndex << ", non-finite mismatches "
                        << c.nonFinite;
}
} // namespace tiletest

#endif // TILE_UNITTESTS_INTERPRETER_TESTUTIL_H
