//===- Compile.h - Tile kernels to PTX/cubin ---------------------*- C++ -*-===//
//
// The whole compiler as a library: tile IR in, PTX text (and, when ptxas
// is available, a cubin) plus the runtime metadata out. Used by tile-opt's
// `tile-to-ptx` pipeline, tile-compile and tile-run.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TARGET_COMPILE_H
#define TILE_TARGET_COMPILE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"

#include <string>

namespace mlir {
namespace tile {

struct CompileOptions {
  /// Target GPU, e.g. sm_90 (default) or sm_80.
  std::string chip = "sm_90";
  /// PTX ISA features; empty picks the lowest ISA that supports `chip`.
  std::string features;
  /// `isa` for PTX text, `bin` for a cubin (runs ptxas).
  std::string format = "isa";
  unsigned optLevel = 3;
};

/// Every dialect, interface and translation the pipeline needs.
void registerCompilerDialects(DialectRegistry &registry);

/// The passes from tile IR to a `gpu.binary` (plus `tile.metadata` on the
/// module). Tile-level half (for `chip`: sm_90a lowers dots to wgmma), then
/// the backend half.
void buildTileToLLVMPipeline(OpPassManager &pm, StringRef chip = "");
/// The checks every kernel passes before it is compiled or interpreted:
/// helpers inlined, then tile-kernel-check (tile-run runs these too, so that
/// it interprets exactly the kernels the compiler accepts).
void buildKernelCheckPipeline(OpPassManager &pm);
void buildTileToBinaryPipeline(OpPassManager &pm, const CompileOptions &opts);

/// Registers `tile-to-ptx` (options chip, features, format, O) for tile-opt.
void registerTileToPTXPipeline();

struct CompiledModule {
  std::string image;    ///< PTX text or cubin bytes
  std::string metadata; ///< runtime metadata for every kernel
};

/// Compiles `module` (consumed: it is lowered in place). Diagnostics go to
/// the context's handler.
FailureOr<CompiledModule> compileModule(ModuleOp module,
                                        const CompileOptions &opts);

/// The PTX ISA version feature ("+ptxNN") for `chip`.
std::string getDefaultFeatures(StringRef chip);

} // namespace tile
} // namespace mlir

#endif // TILE_TARGET_COMPILE_H
