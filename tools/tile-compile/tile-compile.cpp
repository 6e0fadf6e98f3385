//===- tile-compile.cpp - Compile tile kernels to PTX or a cubin ----------===//
//
// tile-compile kernel.mlir -o kernel.ptx --metadata kernel.meta [--chip sm_90]
//
// Runs the whole compiler (checks, layouts, lowering, LLVM's NVPTX backend)
// in-process and writes the PTX text (or, with --format=bin, a cubin made
// by ptxas) and the metadata the runtime needs to launch the kernels.
//
//===----------------------------------------------------------------------===//

#include "tile/Target/Compile.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

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
static cl::opt<unsigned> optLevel("O", cl::desc("LLVM optimization level"),
                                  cl::init(3));

static bool writeFile(StringRef path, StringRef data) {
  std::string error;
  auto out = openOutputFile(path, &error);
  if (!out) {
    llvm::errs() << "tile-compile: error: " << error << "\n";
    return false;
  }
  out->os() << data;
  out->keep();
  return true;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
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
  auto file = openInputFile(inputFile, &error);
  if (!file) {
    llvm::errs() << "tile-compile: error: " << error << "\n";
    return 2;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  tile::CompileOptions opts;
  opts.chip = chip;
  opts.features = features;
  opts.format = format;
  opts.optLevel = optLevel;
  FailureOr<tile::CompiledModule> compiled = tile::compileModule(*module, opts);
  if (failed(compiled))
    return 1;
  if (!writeFile(outputFile, compiled->image))
    return 1;
  if (!metadataFile.empty() && !writeFile(metadataFile, compiled->metadata))
    return 1;
  return 0;
}
