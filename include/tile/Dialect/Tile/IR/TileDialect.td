//===- TileDialect.td - Tile dialect definition ------------*- tablegen -*-===//
//
// The tile dialect describes what one program instance (one CTA) computes on
// whole tiles: ranked, statically shaped tensors with power-of-two dimensions.
// It never says which thread does what; that is the job of the layout passes.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TD
#define TILE_DIALECT_TD

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mlir::tile";
  let summary = "A tensor-level tile dialect for GPU kernels";
  let description = [{
    A kernel is a `func.func` marked with the `tile.kernel` unit attribute and
    `tile.num_warps`. It runs as a grid of program instances; each instance
    computes on tiles (static, power-of-two shaped tensors) with the ops of
    this dialect plus elementwise `arith`/`math` ops and `scf` control flow.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::func::FuncDialect"
  ];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    /// Attribute names of a kernel function.
    static constexpr ::llvm::StringLiteral getKernelAttrName() {
      return "tile.kernel";
    }
    static constexpr ::llvm::StringLiteral getNumWarpsAttrName() {
      return "tile.num_warps";
    }
    static constexpr ::llvm::StringLiteral getNumStagesAttrName() {
      return "tile.num_stages";
    }
    /// Occupancy request: at least this many programs resident per SM (the
    /// backend caps registers per thread accordingly, spilling if needed).
    static constexpr ::llvm::StringLiteral getMinProgramsPerSMAttrName() {
      return "tile.min_programs_per_sm";
    }
    /// Programs along grid axis 0 form clusters of this many consecutive
    /// instances (pid 0..n-1, n..2n-1, ...), scheduled together and able to
    /// exchange values with tile.cluster_reduce and tile.cluster_gather
    /// (Hopper thread block clusters; 1, 2, 4, 8 or 16 programs, above 8
    /// non-portable).
    static constexpr ::llvm::StringLiteral getClusterSizeAttrName() {
      return "tile.cluster_size";
    }
    /// On a kernel: tile-rematerialize recomputes wide tiles from narrow
    /// ones instead of holding them across synchronization.
    static constexpr ::llvm::StringLiteral getRematerializeAttrName() {
      return "tile.rematerialize";
    }
    /// On a kernel: its pipelined block loads may be copied by the tensor
    /// memory accelerator (Hopper TMA) where tile-pipeline-loops can, which
    /// adds a `!tile.tensormap` argument per copied array (the runtime
    /// encodes it at launch) and requires those arrays to be contiguous
    /// along their last dimension, 16-byte aligned, with row strides a
    /// multiple of 16 bytes (checked at launch). On such an argument, a
    /// dictionary naming the array.
    static constexpr ::llvm::StringLiteral getTmaAttrName() {
      return "tile.tma";
    }
    /// Set by tile-pipeline-loops on an scf.for whose stages stay untouched
    /// for one iteration after their dots read them (a wgmma group may
    /// still be reading), read by tile-convert-to-llvm.
    static constexpr ::llvm::StringLiteral getMmaInFlightAttrName() {
      return "tile.mma_in_flight";
    }
  }];
}

#endif // TILE_DIALECT_TD
