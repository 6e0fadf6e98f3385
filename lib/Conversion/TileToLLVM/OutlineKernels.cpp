//===- OutlineKernels.cpp - Put lowered kernels into a gpu.module ---------===//

#include "Utility.h"

#include "tile/Conversion/Passes.h"
#include "tile/Conversion/TileToLLVM/TileToLLVM.h"
#include "tile/Dialect/Tile/IR/Layout.h"
#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEOUTLINEKERNELS
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

/// Largest shared memory (bytes) one CTA may opt into on `chip`.
static int64_t getSharedMemoryLimit(StringRef chip) {
  unsigned sm = getSMVersion(chip);
  if (sm == 0)
    return 48 * 1024;
  if (sm >= 120)
    return 101376;
  if (sm >= 90)
    return 232448;
  if (sm == 80 || sm == 87)
    return 166912;
  if (sm >= 86)
    return 101376;
  if (sm >= 75 && sm < 80)
    return 65536;
  return 98304;
}

namespace {

struct TileOutlineKernelsPass
    : public tile::impl::TileOutlineKernelsBase<TileOutlineKernelsPass> {
  using TileOutlineKernelsBase::TileOutlineKernelsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    // Lowered kernels: llvm.func ops that still carry their metadata.
    SmallVector<LLVM::LLVMFuncOp> kernels;
    for (auto f : module.getOps<LLVM::LLVMFuncOp>())
      if (f->hasAttr("tile.metadata"))
        kernels.push_back(f);
    if (kernels.empty())
      return;
    // NVVM's target attribute takes any strings; LLVM's backend aborts on a
    // chip or PTX version it does not know.
    std::string error = verifyTarget(chip, features);
    if (!error.empty()) {
      module.emitError() << error;
      return signalPassFailure();
    }

    OpBuilder b(module.getBodyRegion());
    b.setInsertionPointToEnd(module.getBody());
    auto target = NVVM::NVVMTargetAttr::get(
        ctx, optLevel, "nvptx64-nvidia-cuda", chip, features);
    auto gpuModule = gpu::GPUModuleOp::create(
        b, module.getLoc(), "tile_kernels", b.getArrayAttr({target}));
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(ctx));

    Block &body = gpuModule.getBodyRegion().front();
    if (Operation *smem = module.lookupSymbol(kSharedMemoryName))
      smem->moveBefore(&body, body.end());
    // Shared memory beyond the chip's limit would only fail at launch;
    // reject it here with the numbers.
    int64_t limit = getSharedMemoryLimit(chip);
    bool rejected = false;
    TileDialect::SharedBytesAttrHelper sharedBytes(module.getContext());
    for (LLVM::LLVMFuncOp kernel : kernels)
      if (IntegerAttr bytes = sharedBytes.getAttr(kernel))
        if (bytes.getInt() > limit) {
          kernel.emitError() << "out of resources: kernel '"
                             << kernel.getSymName() << "' needs "
                             << bytes.getInt()
                             << " bytes of shared memory; " << chip
                             << " allows " << limit
                             << " per CTA (use smaller tiles)";
          rejected = true;
        }
    // Thread block clusters (tile.cluster_size) exist from sm_90 on.
    for (LLVM::LLVMFuncOp kernel : kernels)
      if (auto attr = kernel->getAttrOfType<IntegerAttr>(
              TileDialect::getClusterSizeAttrName());
          attr && attr.getInt() > 1 && getSMVersion(chip) < 90) {
        kernel.emitError() << "kernel '" << kernel.getSymName()
                           << "' runs in clusters of " << attr.getInt()
                           << " programs (tile.cluster_size), which need "
                              "sm_90 or later; the target is "
                           << chip;
        rejected = true;
      }
    // The functions the kernels call (libdevice's, declared by
    // tile-convert-to-llvm, and vprintf) and the globals they read move
    // with them; gpu-module-to-binary links libdevice's definitions from
    // `libdevice`.
    llvm::SetVector<Operation *> callees;
    for (LLVM::LLVMFuncOp kernel : kernels) {
      llvm::DenseSet<Operation *> reported;
      kernel.walk([&](LLVM::CallOp call) {
        auto name = call.getCalleeAttr();
        auto callee = name ? module.lookupSymbol<LLVM::LLVMFuncOp>(name)
                           : LLVM::LLVMFuncOp();
        if (!callee || !callee.isExternal())
          return;
        if (libdevice.empty() && callee.getName().starts_with("__nv_") &&
            reported.insert(callee).second) {
          call.emitError() << "kernel '" << kernel.getSymName()
                           << "' calls libdevice's " << callee.getName()
                           << ", and no libdevice was found: set CUDA_HOME "
                              "to a CUDA toolkit (its "
                              "nvvm/libdevice/libdevice.10.bc)";
          rejected = true;
        }
        callees.insert(callee);
      });
      // Globals the kernels read (tile.print's format strings).
      kernel.walk([&](LLVM::AddressOfOp address) {
        if (auto global = module.lookupSymbol<LLVM::GlobalOp>(
                address.getGlobalNameAttr()))
          callees.insert(global);
      });
    }
    if (rejected)
      return signalPassFailure();
    for (Operation *callee : callees)
      callee->moveBefore(&body, body.end());

    std::string metadata;
    for (LLVM::LLVMFuncOp kernel : kernels) {
      metadata += cast<StringAttr>(kernel->getAttr("tile.metadata")).str();
      int64_t warps = 4;
      if (auto attr = kernel->getAttrOfType<IntegerAttr>(
              TileDialect::getNumWarpsAttrName()))
        warps = attr.getInt();
      int64_t threads = warps * 32;
      std::optional<int32_t> minPrograms;
      if (auto attr = kernel->getAttrOfType<IntegerAttr>(
              TileDialect::getMinProgramsPerSMAttrName()))
        if (attr.getInt() > 0)
          minPrograms = (int32_t)attr.getInt();
      int32_t clusterSize = 1;
      if (auto attr = kernel->getAttrOfType<IntegerAttr>(
              TileDialect::getClusterSizeAttrName()))
        clusterSize = (int32_t)attr.getInt();
      // Tile attributes have served their purpose; LLVM translation would
      // not know them.
      SmallVector<StringAttr> drop;
      for (NamedAttribute attr : kernel->getDiscardableAttrs())
        if (attr.getName().getValue().starts_with("tile."))
          drop.push_back(attr.getName());
      for (StringAttr name : drop)
        kernel->removeAttr(name);
      kernel->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(),
                      UnitAttr::get(ctx));
      // A warp-specialized kernel's count includes its producer warps (set
      // by tile-convert-to-llvm).
      if (!kernel->hasAttr(NVVM::NVVMDialect::getMaxntidAttrName()))
        kernel->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
                        DenseI32ArrayAttr::get(ctx, {(int32_t)threads, 1, 1}));
      // .reqnctapercluster: a plain launch then forms the clusters.
      if (clusterSize > 1)
        kernel->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(),
                        DenseI32ArrayAttr::get(ctx, {clusterSize, 1, 1}));
      if (minPrograms)
        kernel->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                        IntegerAttr::get(IntegerType::get(ctx, 32),
                                         *minPrograms));
      // Argument attributes (tile.divisibility) likewise.
      // Parameters passed by value (TMA tensor maps) are read in place, by
      // address: __grid_constant__, now that the function is a kernel.
      for (unsigned i = 0; i < kernel.getNumArguments(); ++i) {
        kernel.removeArgAttr(i, StringAttr::get(ctx, "tile.divisibility"));
        if (kernel.getArgAttr(i, LLVM::LLVMDialect::getByValAttrName()))
          kernel.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                            UnitAttr::get(ctx));
      }
      // scf-to-cf and cf-to-llvm leave an scf.for's loop annotation on its
      // latch branch as a discardable attribute, which the translation to
      // LLVM IR does not read: it becomes the branch's own.
      kernel.walk([&](LLVM::BrOp br) {
        if (auto annotation = br->getAttrOfType<LLVM::LoopAnnotationAttr>(
                kLoopAnnotationAttrName)) {
          br.setLoopAnnotationAttr(annotation);
          br->removeAttr(kLoopAnnotationAttrName);
        }
      });
      kernel->moveBefore(&body, body.end());
    }
    module->setAttr("tile.metadata", StringAttr::get(ctx, metadata));
  }
};

} // namespace
