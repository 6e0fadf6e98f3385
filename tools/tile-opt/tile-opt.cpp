//===- tile-opt.cpp - The mlir-opt of the Tile project --------------------===//
//
// MlirOptMain with the project's input and output handling: the source is
// read through readSource (no device files or endless streams, a bound on
// bracket nesting) and the output is written only when the run succeeded,
// with write errors (a full disk) reported instead of aborting.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/AxisInfo.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Support/FileIO.h"
#include "tile/Support/KernelParameters.h"
#include "tile/Target/Compile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static llvm::cl::list<std::string> paramSettings(
    "param",
    llvm::cl::desc("Set a parameter the kernel declares (tile.param); "
                   "repeatable or comma-separated"),
    llvm::cl::value_desc("NAME=VALUE"), llvm::cl::CommaSeparated);

static int run(int argc, char **argv) {
  DialectRegistry registry;
  tile::registerCompilerDialects(registry);
  // Generic passes users combine with ours: canonicalize, cse, inline,
  // symbol-dce, loop-invariant-code-motion, ...
  registerTransformsPasses();
  tile::registerTilePasses();
  tile::registerTileConversionPasses();
  tile::registerTileToPTXPipeline();
  tile::registerTestAxisInfoPass();
  auto [inputPath, outputPath] = registerAndParseCLIOptions(
      argc, argv, "Tile optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  // A pipeline with MLIR's inliner (`--inline`) bounds call chains first:
  // the inliner takes time cubic in a chain's length. (Tile's pipelines
  // check calls themselves.)
  MlirOptMainConfig userConfig = config;
  config.setPassPipelineSetupFn([userConfig](PassManager &pm) {
    PassManager probe(pm.getContext(), pm.getOpAnchorName());
    if (failed(userConfig.setupPassPipeline(probe)))
      return failure();
    if (llvm::any_of(probe.getPasses(), [](Pass &pass) {
          return pass.getArgument() == "inline";
        })) {
      tile::TileCheckCallsOptions chains;
      chains.chainsOnly = true;
      pm.addPass(tile::createTileCheckCalls(chains));
    }
    return userConfig.setupPassPipeline(pm);
  });
  if (config.shouldShowDialects() || config.shouldListPasses())
    return asMainReturnCode(
        MlirOptMain(argc, argv, inputPath, outputPath, registry));

  // The pipeline is built once here, to report a bad pass option by itself:
  // MLIR's option parser prints its message and then reports an empty error
  // at an unknown location.
  {
    MLIRContext context(registry);
    PassManager pm(&context);
    bool reported = false;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      std::string text = diag.str();
      StringRef message = StringRef(text).trim();
      if (!message.empty()) {
        llvm::errs() << "tile-opt: error: " << message << "\n";
        reported = true;
      }
      return success();
    });
    if (failed(config.setupPassPipeline(pm))) {
      if (!reported)
        llvm::errs() << "tile-opt: error: invalid pass pipeline or pass "
                        "option (see the message above)\n";
      return 1;
    }
  }

  std::string error;
  std::vector<tile::KernelParameter> parameters;
  std::unique_ptr<llvm::MemoryBuffer> source =
      tile::readKernelSource(inputPath, paramSettings, parameters, error);
  if (!source) {
    tile::reportError("tile-opt", error);
    return 1;
  }
  // MLIR 22's driver checks `expected-*` comments even without
  // -verify-diagnostics, printing unmet ones as errors while exiting 0.
  // Without the flag they are plain comments: their marker is renamed in a
  // copy of the source (same length, so locations do not move).
  if (!config.shouldVerifyDiagnostics())
    source = tile::withoutDiagnosticExpectations(*source);
  std::string output;
  llvm::raw_string_ostream os(output);
  LogicalResult result = MlirOptMain(os, std::move(source), registry, config);
  // MlirOptMain prints its diagnostics itself; the specialization they are
  // about follows them.
  if (failed(result) &&
      llvm::any_of(parameters, [](const auto &p) { return p.isSet; }))
    llvm::errs() << "tile-opt: note: with kernel parameters "
                 << tile::describeParameters(parameters) << "\n";
  // A failed run writes no file; on standard output, what the successful
  // parts of a split input printed stays visible.
  if (failed(result) && outputPath != "-")
    return 1;
  if (!tile::writeOutput(outputPath, output, error)) {
    tile::reportError("tile-opt", error);
    return 1;
  }
  return failed(result) ? 1 : 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  return tile::finishTool("tile-opt", run(argc, argv));
}
