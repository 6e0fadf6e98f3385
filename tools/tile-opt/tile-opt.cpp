//===- tile-opt.cpp - The mlir-opt of the Tile project --------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Analysis/AxisInfo.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Target/Compile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tile::registerCompilerDialects(registry);
  // Generic passes users combine with ours: canonicalize, cse, inline,
  // symbol-dce, loop-invariant-code-motion, ...
  mlir::registerTransformsPasses();
  mlir::tile::registerTilePasses();
  mlir::tile::registerTileConversionPasses();
  mlir::tile::registerTileToPTXPipeline();
  mlir::tile::registerTestAxisInfoPass();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "Tile optimizer driver\n", registry));
}
