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
  let hasRegionArgAttrVerify = 1;
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
    /// On a pointer argument of a kernel: the kernel only reads through it
    /// (no store or atomic reaches memory through a pointer derived from
    /// it); the verifier holds the kernel to it.
    static constexpr ::llvm::StringLiteral getReadOnlyAttrName() {
      return "tile.readonly";
    }
    /// On a kernel compiled as one of several specializations of a source
    /// (tile-compile --specialize): {kernel = "NAME", parameters = {P =
    /// value, ...}}, the source's kernel name and every parameter's value
    /// (i64 or bool). The runtime selects a specialization by them.
    static constexpr ::llvm::StringLiteral getSpecializationAttrName() {
      return "tile.specialization";
    }
    /// The names of the `tma`, `mma_in_flight` and `warp_specialize`
    /// discardable attributes
    /// (see discardableAttrs), for code that builds kernels by name.
    static constexpr ::llvm::StringLiteral getTmaAttrName() {
      return TmaAttrHelper::getNameStr();
    }
    static constexpr ::llvm::StringLiteral getMmaInFlightAttrName() {
      return MmaInFlightAttrHelper::getNameStr();
    }
    static constexpr ::llvm::StringLiteral getWarpSpecializeAttrName() {
      return WarpSpecializeAttrHelper::getNameStr();
    }
  }];
  // Decisions one pass records on the IR for a later one to read, and
  // kernel options that need a typed accessor. The dialect verifies their
  // values (verifyOperationAttribute), so that hand-written or corrupted IR
  // is rejected with a message instead of being lowered to wrong code.
  let discardableAttrs = (ins
      // On a kernel: its pipelined block loads may be copied by the tensor
      // memory accelerator (Hopper TMA) where tile-pipeline-loops can, which
      // adds a `!tile.tensormap` argument per copied array (the runtime
      // encodes it at launch) and requires those arrays to be contiguous
      // along their last dimension, 16-byte aligned, with row strides a
      // multiple of 16 bytes (checked at launch). On such an argument (an
      // argument attribute of the same name), a dictionary naming the array.
      "::mlir::UnitAttr":$tma,
      // Set by tile-pipeline-loops on an scf.for whose stages stay untouched
      // for one iteration after their dots read them (a wgmma group may
      // still be reading), read by tile-convert-to-llvm.
      "::mlir::UnitAttr":$mma_in_flight,
      // On an scf.for of a kernel compiled for sm_90a: tile-warp-specialize
      // moves the loop's streamed block loads to a producer warpgroup (TMA
      // copies into a ring of tile.num_stages stages).
      "::mlir::UnitAttr":$warp_specialize,
      // The following are set by tile-convert-to-llvm before its patterns
      // run (see TileToLLVM.h), and read by them and by tile-outline-kernels.
      // Bytes of dynamic shared memory a kernel needs (>= 0).
      "::mlir::IntegerAttr":$shared_bytes,
      // Byte offset (>= 0) in that memory of a tile.alloc_shared buffer, a
      // tile.alloc_mbarriers array or a cluster op's exchange words.
      "::mlir::IntegerAttr":$shared_offset,
      // On a tile.alloc_shared a wgmma or a TMA copy uses: the bytes of its
      // swizzled rows (32, 64 or 128; 0 for unswizzled rows), see SharedLayout
      // in lib/Conversion/TileToLLVM/Utility.h.
      "::mlir::IntegerAttr":$swizzle_bytes,
      // On the buffer of a wgmma's `a` operand: the dot's warps along M,
      // whose rows the buffer stores in wgmma order (a power of two, as
      // tile.num_warps is).
      "::mlir::IntegerAttr":$mma_row_warps,
      // On such a buffer: stored transposed (K-major, tf32 `b`).
      "::mlir::UnitAttr":$k_major,
      // On the `a` buffer of tf32x3 dots computed transposed: the buffer
      // holds each value twice, as its tf32 part (hi, where it is stored) and
      // its rounded remainder (lo, SharedLayout::getLowPartOffset bytes on),
      // which the buffer's stores write and the dots read as two wgmma B
      // operands.
      "::mlir::UnitAttr":$split_tf32,
      // On the tile.local_store ops that fill the `a` buffer of a tf32 dot
      // computed transposed (wgmma reads it as stored): they round the values
      // to tf32 as the dot's inputs are.
      "::mlir::UnitAttr":$round_tf32,
      // On dots lowered to wgmma, and on kernels holding one.
      "::mlir::UnitAttr":$wgmma,
      // On such a dot: how many wgmma groups (its own, >= 0) it leaves in
      // flight.
      "::mlir::IntegerAttr":$wgmma_pending);
}

#endif // TILE_DIALECT_TD
