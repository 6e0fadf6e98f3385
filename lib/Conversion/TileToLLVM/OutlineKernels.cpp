//===- OutlineKernels.cpp - Put lowered kernels into a gpu.module ---------===//

#include "tile/Conversion/Passes.h"
#include "tile/Conversion/TileToLLVM/TileToLLVM.h"
#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEOUTLINEKERNELS
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

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
    std::string metadata;
    for (LLVM::LLVMFuncOp kernel : kernels) {
      metadata += cast<StringAttr>(kernel->getAttr("tile.metadata")).str();
      int64_t warps = 4;
      if (auto attr = kernel->getAttrOfType<IntegerAttr>(
              TileDialect::getNumWarpsAttrName()))
        warps = attr.getInt();
      int64_t threads = warps * 32;
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
      kernel->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
                      DenseI32ArrayAttr::get(ctx, {(int32_t)threads, 1, 1}));
      // Argument attributes (tile.divisibility) likewise.
      for (unsigned i = 0; i < kernel.getNumArguments(); ++i)
        kernel.removeArgAttr(i, StringAttr::get(ctx, "tile.divisibility"));
      kernel->moveBefore(&body, body.end());
    }
    module->setAttr("tile.metadata", StringAttr::get(ctx, metadata));
  }
};

} // namespace
