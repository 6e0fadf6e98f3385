//===- Compile.cpp - Tile kernels to PTX/cubin ----------------------------===//

#include "tile/Target/Compile.h"

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/Layout.h"
#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <mutex>

using namespace mlir;
using namespace mlir::tile;

void mlir::tile::registerCompilerDialects(DialectRegistry &registry) {
  registry.insert<TileDialect, arith::ArithDialect, math::MathDialect,
                  scf::SCFDialect, func::FuncDialect, cf::ControlFlowDialect,
                  LLVM::LLVMDialect, NVVM::NVVMDialect, gpu::GPUDialect>();
  // Without the target interface gpu-module-to-binary crashes.
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  arith::registerConvertArithToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  func::registerInlinerExtension(registry);
}

std::string mlir::tile::getDefaultFeatures(StringRef chip) {
  return "+ptx" + std::to_string(getDefaultPtxVersion(chip));
}

void mlir::tile::buildKernelCheckPipeline(OpPassManager &pm) {
  // Helper functions called by kernels are inlined: kernels are lowered as
  // single functions, and checked as such.
  pm.addPass(createTileCheckCalls());
  pm.addPass(createInlinerPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createTileKernelCheck());
}

/// The tile-level passes, for a chip already verified.
static void addTileToLLVMPasses(OpPassManager &pm, StringRef chip) {
  buildKernelCheckPipeline(pm);
  pm.addPass(createTileExpandMath());
  pm.addPass(createTileSimplifyMasks());
  pm.addPass(createCanonicalizerPass());
  TileWarpSpecializeOptions specializing;
  specializing.chip = chip.str();
  pm.addPass(createTileWarpSpecialize(specializing));
  TilePipelineLoopsOptions pipelining;
  pipelining.chip = chip.str();
  pm.addPass(createTilePipelineLoops(pipelining));
  TileAssignLayoutsOptions layouts;
  layouts.chip = chip.str();
  pm.addPass(createTileAssignLayouts(layouts));
  pm.addPass(createTileRemoveLayoutConversions());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // After the last CSE: its recomputations must not be merged back.
  pm.addPass(createTileRematerialize());
  TileConvertToLLVMOptions convert;
  convert.chip = chip.str();
  pm.addPass(createTileConvertToLLVM(convert));
}

void mlir::tile::buildTileToLLVMPipeline(OpPassManager &pm, StringRef chip) {
  if (!chip.empty()) {
    TileVerifyTargetOptions target;
    target.chip = chip.str();
    pm.addPass(createTileVerifyTarget(target));
  }
  addTileToLLVMPasses(pm, chip);
}

/// Makes the NVPTX backend's shared-memory pointers 32 bits wide, as the
/// shared window is: the NVVM ops the lowering emits on !llvm.ptr<3>
/// (cp.async, ldmatrix, mbarriers, TMA copies, mapa) then take 32-bit
/// registers, as their PTX instructions do, with no conversions between
/// them and the 32-bit address arithmetic of the layouts. The backend
/// reads this from its command-line option only; a tool's own
/// --nvptx-short-ptr=false is respected.
static void useShortSharedPointers() {
  static std::once_flag once;
  std::call_once(once, [] {
    auto &options = llvm::cl::getRegisteredOptions();
    auto it = options.find("nvptx-short-ptr");
    if (it != options.end() && it->second->getNumOccurrences() == 0)
      (void)it->second->addOccurrence(0, "nvptx-short-ptr", "true");
  });
}

void mlir::tile::buildTileToBinaryPipeline(OpPassManager &pm,
                                           const CompileOptions &opts) {
  useShortSharedPointers();
  TileVerifyTargetOptions target;
  target.chip = opts.chip;
  target.format = opts.format;
  target.features = opts.features;
  pm.addPass(createTileVerifyTarget(target));
  addTileToLLVMPasses(pm, opts.chip);
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // The CUDA toolkit: ptxas (for cubins) and libdevice (for the math ops
  // that call it) come from it; ptxas is looked up on PATH without one.
  std::string toolkit;
  for (const char *env : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *dir = std::getenv(env)) {
      toolkit = dir;
      break;
    }
  if (toolkit.empty() && llvm::sys::fs::exists("/usr/local/cuda/bin/ptxas"))
    toolkit = "/usr/local/cuda";
  SmallString<128> libdevice(toolkit);
  llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");

  TileOutlineKernelsOptions outline;
  outline.chip = opts.chip;
  outline.features =
      opts.features.empty() ? getDefaultFeatures(opts.chip) : opts.features;
  outline.optLevel = opts.optLevel;
  if (!toolkit.empty() && llvm::sys::fs::exists(libdevice))
    outline.libdevice = libdevice.str().str();
  pm.addPass(createTileOutlineKernels(outline));
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = opts.format;
  binary.toolkitPath = toolkit;
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

namespace {
struct TileToPTXPipelineOptions
    : public PassPipelineOptions<TileToPTXPipelineOptions> {
  Option<std::string> chip{*this, "chip", llvm::cl::desc("Target GPU"),
                           llvm::cl::init("sm_90")};
  Option<std::string> features{*this, "features",
                               llvm::cl::desc("PTX features (default: by "
                                              "chip)"),
                               llvm::cl::init("")};
  Option<std::string> format{*this, "format",
                             llvm::cl::desc("isa (PTX) or bin (cubin)"),
                             llvm::cl::init("isa")};
  Option<unsigned> optLevel{*this, "O", llvm::cl::desc("LLVM opt level"),
                            llvm::cl::init(3)};
};
struct TileToLLVMPipelineOptions
    : public PassPipelineOptions<TileToLLVMPipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("Target GPU (sm_90a: wgmma)"),
                           llvm::cl::init("")};
};
} // namespace

void mlir::tile::registerTileToPTXPipeline() {
  PassPipelineRegistration<TileToPTXPipelineOptions>(
      "tile-to-ptx",
      "Compile tile kernels to a gpu.binary holding PTX (or a cubin)",
      [](OpPassManager &pm, const TileToPTXPipelineOptions &o) {
        CompileOptions opts;
        opts.chip = o.chip;
        opts.features = o.features;
        opts.format = o.format;
        opts.optLevel = o.optLevel;
        buildTileToBinaryPipeline(pm, opts);
      });
  PassPipelineRegistration<TileToLLVMPipelineOptions>(
      "tile-to-llvm",
      "Run the tile-level half of the compiler: checks, layouts, lowering "
      "to per-thread LLVM/NVVM code",
      [](OpPassManager &pm, const TileToLLVMPipelineOptions &o) {
        buildTileToLLVMPipeline(pm, o.chip);
      });
}

FailureOr<CompiledModule> mlir::tile::compileModule(ModuleOp module,
                                                    const CompileOptions &opts) {
  PassManager pm(module.getContext());
  buildTileToBinaryPipeline(pm, opts);
  if (failed(pm.run(module)))
    return failure();
  CompiledModule out;
  if (auto md = module->getAttrOfType<StringAttr>("tile.metadata"))
    out.metadata = md.str();
  bool found = false;
  module.walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      out.image = object.getObject().str();
      found = true;
    }
  });
  if (!found)
    return module.emitError("no tile kernel in this module to compile"),
           failure();
  return out;
}
