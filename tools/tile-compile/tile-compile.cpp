//===- tile-compile.cpp - Compile tile kernels to PTX or a cubin ----------===//
//
// tile-compile kernel.mlir -o kernel.ptx --metadata kernel.meta [--chip sm_90]
//
// Runs the whole compiler (checks, layouts, lowering, LLVM's NVPTX backend)
// in-process and writes the PTX text (or, with --format=bin, a cubin made
// by ptxas) and the metadata the runtime needs to launch the kernels.
//
//===----------------------------------------------------------------------===//

#include "Specializations.h"

#include "tile/Support/FileIO.h"
#include "tile/Support/KernelParameters.h"
#include "tile/Target/Compile.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<kernel.mlir>"),
                                      cl::init("-"));
static cl::opt<std::string> outputFile("o", cl::desc("PTX/cubin output file"),
                                       cl::value_desc("file"), cl::init("-"));
static cl::opt<std::string>
    metadataFile("metadata", cl::desc("Write the runtime metadata here"),
                 cl::value_desc("file"), cl::init(""));
static cl::opt<std::string> chip("chip", cl::desc("Target GPU (sm_80, sm_90)"),
                                 cl::init("sm_90"));
static cl::opt<std::string>
    features("features", cl::desc("PTX features (default: by chip)"),
             cl::init(""));
static cl::opt<std::string> format("format",
                                   cl::desc("isa (PTX text) or bin (cubin)"),
                                   cl::init("isa"));
static cl::list<std::string>
    paramSettings("param",
                  cl::desc("Set a parameter the kernel declares (tile.param); "
                           "repeatable or comma-separated"),
                  cl::value_desc("NAME=VALUE"), cl::CommaSeparated);
static cl::list<std::string> specializeSweeps(
    "specialize",
    cl::desc("Compile the kernels for each of these values of a parameter "
             "(repeatable: every combination, at most 256) into one image; "
             "the runtime selects one with tile_module_get_specialization"),
    cl::value_desc("NAME=V1,V2,..."));
static cl::opt<unsigned> optLevel("O", cl::desc("LLVM optimization level"),
                                  cl::init(3));

static int run(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "Tile kernel compiler\n");
  if (format != "isa" && format != "bin") {
    llvm::errs() << "tile-compile: error: --format must be isa or bin\n";
    return 2;
  }
  DialectRegistry registry;
  tile::registerCompilerDialects(registry);
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  std::string error;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<ScopedDiagnosticHandler> parameterNotes;
  if (!specializeSweeps.empty()) {
    module = tile::buildSpecializations(inputFile, paramSettings,
                                        specializeSweeps, &context, error);
    if (!module && !error.empty()) {
      tile::reportError("tile-compile", error);
      return 2;
    }
  } else {
    std::vector<tile::KernelParameter> parameters;
    std::unique_ptr<llvm::MemoryBuffer> source =
        tile::readKernelSource(inputFile, paramSettings, parameters, error);
    if (!source) {
      tile::reportError("tile-compile", error);
      return 2;
    }
    sourceMgr.AddNewSourceBuffer(std::move(source), llvm::SMLoc());
    parameterNotes = tile::noteParametersOnErrors(&context, parameters);
    module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  }
  if (!module)
    return 1;

  // The chip is checked by the pipeline's first pass, with the other
  // errors about the module.
  tile::CompileOptions opts;
  opts.chip = chip;
  opts.features = features;
  opts.format = format;
  opts.optLevel = optLevel;
  FailureOr<tile::CompiledModule> compiled = tile::compileModule(*module, opts);
  if (failed(compiled))
    return 1;
  // The metadata first: an image without its metadata cannot be launched,
  // and neither file is left behind when the other fails.
  if (!metadataFile.empty() &&
      !tile::writeOutput(metadataFile, compiled->metadata, error)) {
    tile::reportError("tile-compile", error);
    return 1;
  }
  if (!tile::writeOutput(outputFile, compiled->image, error)) {
    tile::reportError("tile-compile", error);
    if (!metadataFile.empty() && metadataFile != "-")
      llvm::sys::fs::remove(metadataFile);
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  return tile::finishTool("tile-compile", run(argc, argv));
}
