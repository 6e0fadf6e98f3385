//===- Passes.td - Tile conversion passes ------------------*- tablegen -*-===//

#ifndef TILE_CONVERSION_PASSES_TD
#define TILE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileConvertToLLVM : Pass<"tile-convert-to-llvm", "ModuleOp"> {
  let summary = "Lower laid-out tile kernels to per-thread LLVM/NVVM code";
  let description = [{
    Every tile of a kernel (which must carry layouts: run
    `tile-assign-layouts` first) becomes the list of scalars its thread
    holds; tile ops become scalar `arith`/`math`/`scf` code, `llvm` memory
    accesses (vectorized where the axis analysis allows), NVVM special
    registers, warp shuffles and shared-memory exchanges. `math.exp`
    becomes `ex2.approx.f32` of `x * log2(e)`.

    Before rewriting, each kernel gets a `tile.metadata` attribute (the text
    the runtime reads: name, warps, shared memory bytes, arguments) and the
    module a dynamic shared-memory array `@tile_smem`. Ops after the last
    use of every software-pipeline buffer reuse the buffers' bytes as
    scratch space, behind a `tile.async_wait pending = 0` the pass inserts
    there.

    With a `chip` that has Hopper's wgmma (sm_90a), dots laid out for it
    (see tile-assign-layouts) become `wgmma.mma_async` over swizzled shared
    buffers; other chips use `mma.sync`.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Target GPU (sm_90a enables wgmma)">
  ];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect"
  ];
}

def TileVerifyTarget : Pass<"tile-verify-target", "ModuleOp"> {
  let summary = "Reject a compilation target Tile does not compile for";
  let description = [{
    Fails, with an error on the module naming the supported values, when
    `chip` is not a GPU Tile compiles for (sm_80 and newer), `format` is
    neither `isa` (PTX text) nor `bin` (a cubin), or `features` names a PTX
    ISA version (`+ptxNN`) that LLVM does not know or that is too old for
    the chip (LLVM's backend aborts on those), and at the op when the chip
    cannot run it: a bf16 atomic add or a TMA copy, prefetch or store
    before sm_90, `tile.warp_specialize` other than on sm_90a. The
    compilation pipelines run it first, so that a mistyped target stops the
    compiler before any work, with a non-zero exit, instead of reaching
    LLVM's backend.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target GPU">,
    Option<"format", "format", "std::string", /*default=*/"\"isa\"",
           "isa (PTX) or bin (cubin)">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "PTX features: empty (by chip) or +ptxNN">
  ];
}

def TileOutlineKernels : Pass<"tile-outline-kernels", "ModuleOp"> {
  let summary = "Move lowered kernels into a gpu.module targeting NVVM";
  let description = [{
    Runs after the conversion to the LLVM dialect. Moves every lowered tile
    kernel (an `llvm.func` carrying `tile.metadata`) and the shared-memory
    array into `gpu.module @tile_kernels` with an `#nvvm.target` for `chip`,
    marks the kernels `nvvm.kernel` with `nvvm.maxntid` = 32 x warps, and
    gathers the kernels' metadata into the `tile.metadata` attribute of the
    enclosing module. The libdevice functions the kernels call (declared by
    tile-convert-to-llvm) move with them; `libdevice` names the file that
    gpu-module-to-binary will link them from, and a kernel that calls one
    when it is empty is rejected.
  }];
  let options =
      [Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
              "Target GPU (sm_80, sm_86, sm_89, sm_90, ...)">,
       Option<"features", "features", "std::string", /*default=*/"\"+ptx80\"",
              "PTX ISA features">,
       Option<"optLevel", "O", "unsigned", /*default=*/"3",
              "LLVM optimization level">,
       Option<"libdevice", "libdevice", "std::string", /*default=*/"\"\"",
              "libdevice.10.bc that the binary will link (empty: none)">];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

#endif // TILE_CONVERSION_PASSES_TD
