//===- TileOps.td - Tile dialect operations ----------------*- tablegen -*-===//

#ifndef TILE_OPS_TD
#define TILE_OPS_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "tile/Dialect/Tile/IR/TileTypes.td"
include "tile/Dialect/Tile/IR/TileAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

// Every tensor operand and result of a tile op has a static shape whose
// dimensions are powers of two.
def Tile_PowerOfTwoTiles : NativeOpTrait<"PowerOfTwoTiles"> {
  let cppNamespace = "::mlir::OpTrait::tile";
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, !listconcat(traits, [Tile_PowerOfTwoTiles])>;

//===----------------------------------------------------------------------===//
// Program indexing
//===----------------------------------------------------------------------===//

def Tile_ProgramIdOp : Tile_Op<"program_id", [Pure]> {
  let summary = "Index of the running program instance along a grid axis";
  let description = [{
    ```mlir
    %pid = tile.program_id 0
    ```
    Returns the index (0-based, `i32`) of this program instance along grid
    axis 0, 1 or 2.
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict";
  let hasVerifier = 1;
}

def Tile_NumProgramsOp : Tile_Op<"num_programs", [Pure]> {
  let summary = "Number of program instances along a grid axis";
  let description = [{
    ```mlir
    %n = tile.num_programs 1
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict";
  let hasVerifier = 1;
}

def Tile_RangeOp : Tile_Op<"range", [Pure]> {
  let summary = "The 1-d tile [start, end) of consecutive i32 values";
  let description = [{
    ```mlir
    %cols = tile.range 0, 128 : tensor<128xi32>
    ```
    The tile length `end - start` must be a power of two and equal to the
    result's only dimension.
  }];
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = "$start `,` $end attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

def Tile_SplatOp : Tile_Op<"splat", [Pure,
    TypesMatchWith<"result element type is the scalar's type",
                   "result", "src",
                   "::llvm::cast<::mlir::RankedTensorType>($_self).getElementType()">]> {
  let summary = "A tile whose every element is one scalar";
  let description = [{
    ```mlir
    %t = tile.splat %x : tensor<64x128xf32>
    ```
  }];
  let arguments = (ins Tile_Scalar:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($result)";
  let hasFolder = 1;
}

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Repeat a tile along its size-1 dimensions";
  let description = [{
    ```mlir
    %b = tile.broadcast %row : tensor<1x128xf32> -> tensor<64x128xf32>
    ```
    Source and result have the same rank; every source dimension is 1 or
    equal to the result's.
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tile_ExpandDimsOp : Tile_Op<"expand_dims", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Insert a size-1 dimension at `axis`";
  let description = [{
    ```mlir
    %c = tile.expand_dims %v axis = 1 : tensor<64xf32> -> tensor<64x1xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src, ConfinedAttr<I32Attr, [IntNonNegative]>:$axis);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src `axis` `=` $axis attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Tile_ReshapeOp : Tile_Op<"reshape", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Reinterpret a tile with another shape of equal size";
  let description = [{
    ```mlir
    %r = tile.reshape %t : tensor<4x32xf32> -> tensor<128xf32>
    ```
    Elements keep their row-major order.
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_TransOp : Tile_Op<"trans", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Permute the dimensions of a tile";
  let description = [{
    ```mlir
    %t = tile.trans %x order = [1, 0] : tensor<16x32xf32> -> tensor<32x16xf32>
    ```
    Result dimension `i` is source dimension `order[i]`.
  }];
  let arguments = (ins Tile_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src `order` `=` $order attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_OptimizationBarrierOp : Tile_Op<"optimization_barrier",
    [AllTypesMatch<["src", "result"]>]> {
  let summary = "Return a tile that later optimizations do not look through";
  let description = [{
    ```mlir
    %h = tile.optimization_barrier %x : tensor<1024xf16>
    ```
    `%h` holds the same values as `%x`, but no later pass (nor LLVM) may
    treat it as `%x`: computations from `%h` are never merged with the
    same computations from `%x`. Inserted by `tile-rematerialize` so that
    a value recomputed late from a narrow tile stays recomputed instead of
    being merged back into the early computation (whose wide result would
    then stay live in registers). It has no memory effects of its own but
    is never erased, merged or moved by generic passes; code generation
    emits one register move per element (free after ptxas's copy
    propagation). Elements are integers or floats of 16, 32 or 64 bits.
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_TF32PartsOp
    : Tile_Op<"tf32_parts", [Pure, AllTypesMatch<["src", "hi", "lo"]>]> {
  let summary = "Split f32 values into tf32 parts and tf32 remainders";
  let description = [{
    ```mlir
    %hi, %lo = tile.tf32_parts %x : tensor<64x64xf32>
    ```
    `hi` is each element of `x` rounded to tf32 (10 explicit mantissa
    bits; to nearest, ties to even: one instruction on sm_90, where the
    ties-away rounding of a `tf32` `tile.dot`'s operands takes three), and
    `lo` is the remainder `x - hi` rounded the same way: `hi + lo` is `x`
    to within 2^-22 of `|x|`. tf32x3 products built
    from them (`hi b_hi + hi b_lo + lo b_hi`) need no further rounding: a
    `tf32` dot whose `a` is either result takes its values as they are.
    Where `x` is infinite or NaN, `hi` is `x` and `lo` is NaN. Elements
    are f32.
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$hi, Tile_Tensor:$lo);
  let assemblyFormat = "$src attr-dict `:` type($src)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def Tile_AddPtrOp : Tile_Op<"addptr", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "Advance pointers by element offsets";
  let description = [{
    ```mlir
    %p = tile.addptr %base, %offs : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    ```
    Offsets count elements of the pointee type. A tensor of pointers takes a
    tensor of offsets of the same shape; a scalar pointer takes a scalar.
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_IntLike:$offset);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($ptr) `,` type($offset)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_LoadOp : Tile_Op<"load", [
    AttrSizedOperandSegments,
    MemoryEffects<[MemRead]>,
    TypesMatchWith<"result has the pointee type and shape of the pointers",
                   "ptr", "result", "::mlir::tile::getPointeeLikeType($_self)">,
    OptionalTypesMatchWith<"mask is an i1 tile of the pointers' shape",
                   "ptr", "mask", "::mlir::tile::getMaskLikeType($_self)">,
    OptionalTypesMatchWith<"`other` has the type of the result",
                   "ptr", "other", "::mlir::tile::getPointeeLikeType($_self)">]> {
  let summary = "Load a tile (or a scalar) through pointers, with a mask";
  let description = [{
    ```mlir
    %x = tile.load %ptrs, %mask, %other : tensor<128x!tile.ptr<f32>>
    ```
    Lanes whose mask is false are not accessed and read `other` (zero when
    `other` is absent). `other` requires a mask.
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Optional<AnyTypeOf<[I1, Tile_BoolTensor]>>:$mask,
                       Optional<Tile_Value>:$other);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    $ptr (`,` $mask^)? (`,` $other^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Tile_StoreOp : Tile_Op<"store", [
    MemoryEffects<[MemWrite]>,
    TypesMatchWith<"value has the pointee type and shape of the pointers",
                   "ptr", "value", "::mlir::tile::getPointeeLikeType($_self)">,
    OptionalTypesMatchWith<"mask is an i1 tile of the pointers' shape",
                   "ptr", "mask", "::mlir::tile::getMaskLikeType($_self)">]> {
  let summary = "Store a tile (or a scalar) through pointers, with a mask";
  let description = [{
    ```mlir
    tile.store %ptrs, %y, %mask : tensor<128x!tile.ptr<f32>>
    ```
    Lanes whose mask is false are not written.
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_Value:$value,
                       Optional<AnyTypeOf<[I1, Tile_BoolTensor]>>:$mask);
  let assemblyFormat = "$ptr `,` $value (`,` $mask^)? attr-dict `:` type($ptr)";
  let hasCanonicalizer = 1;
}

def Tile_MakeBlockPtrOp : Tile_Op<"make_block_ptr", [Pure,
    AttrSizedOperandSegments,
    TypesMatchWith<"base points to the block's element type", "result", "base",
        "::mlir::tile::PointerType::get($_self.getContext(), ::llvm::cast<::mlir::tile::BlockPointerType>($_self).getElementType())">]> {
  let summary = "Describe a block of a strided N-d array";
  let description = [{
    ```mlir
    %bp = tile.make_block_ptr %base, [%rows, %cols], [%stride0, %stride1],
            [%off0, %off1] order = [1, 0] : !tile.block_ptr<tensor<16x64xf32>>
    ```
    `shape` and `strides` (i64, in elements) describe the whole array,
    `offsets` (i32) the block's first element, `order` the dimensions from
    the fastest-varying to the slowest (a hint for the layout passes).
  }];
  let arguments = (ins Tile_Ptr:$base, Variadic<I64>:$shape, Variadic<I64>:$strides,
                       Variadic<I32>:$offsets, DenseI32ArrayAttr:$order);
  let results = (outs Tile_BlockPtr:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` `,` `[` $offsets `]`
    `order` `=` $order attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_AdvanceOp : Tile_Op<"advance", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "Move a block pointer by element offsets per dimension";
  let description = [{
    ```mlir
    %next = tile.advance %bp, [%c0, %c64] : !tile.block_ptr<tensor<16x64xf32>>
    ```
  }];
  let arguments = (ins Tile_BlockPtr:$ptr, Variadic<I32>:$offsets);
  let results = (outs Tile_BlockPtr:$result);
  let assemblyFormat = "$ptr `,` `[` $offsets `]` attr-dict `:` type($ptr)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_BlockLoadOp : Tile_Op<"block_load", [
    MemoryEffects<[MemRead]>,
    TypesMatchWith<"result is the block's tensor type", "ptr", "result",
        "::llvm::cast<::mlir::tile::BlockPointerType>($_self).getBlockType()">]> {
  let summary = "Load the block a block pointer designates";
  let description = [{
    ```mlir
    %x = tile.block_load %bp check = [0, 1] padding = neg_inf
           : !tile.block_ptr<tensor<16x64xf32>>
    ```
    Dimensions listed in `check` are bounds-checked against the array's
    shape; out-of-bounds elements read the padding value (`zero` by default,
    `nan` or `neg_inf`). Unchecked dimensions must stay in bounds.
  }];
  let arguments = (ins Tile_BlockPtr:$ptr,
                       DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$check,
                       DefaultValuedAttr<Tile_PaddingKindAttr, "::mlir::tile::PaddingKind::Zero">:$padding);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $ptr (`check` `=` $check^)? (`padding` `=` `` $padding^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_BlockStoreOp : Tile_Op<"block_store", [
    MemoryEffects<[MemWrite]>,
    TypesMatchWith<"value is the block's tensor type", "ptr", "value",
        "::llvm::cast<::mlir::tile::BlockPointerType>($_self).getBlockType()">]> {
  let summary = "Store a tile into the block a block pointer designates";
  let description = [{
    ```mlir
    tile.block_store %bp, %acc check = [0, 1] : !tile.block_ptr<tensor<16x64xf32>>
    ```
    Elements outside the array's shape along the dimensions listed in
    `check` are not written.
  }];
  let arguments = (ins Tile_BlockPtr:$ptr, Tile_Tensor:$value,
                       DefaultValuedAttr<DenseI32ArrayAttr, "{}">:$check);
  let assemblyFormat = [{
    $ptr `,` $value (`check` `=` $check^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Asynchronous copies into shared memory (software pipelining)
//===----------------------------------------------------------------------===//

def Tile_AllocSharedOp : Tile_Op<"alloc_shared", [MemoryEffects<[MemAlloc]>]> {
  let summary = "Shared memory for blocks, live for the whole kernel";
  let description = [{
    ```mlir
    %buf = tile.alloc_shared : !tile.shared<tensor<64x32xf32>, stages = 2, pad = 8>
    ```
    The compiler places each buffer after the scratch space its other ops
    use, so buffers keep their contents across them.
  }];
  let results = (outs Tile_SharedBuffer:$buffer);
  let assemblyFormat = "attr-dict `:` type($buffer)";
}

def Tile_AsyncCopyOp : Tile_Op<"async_copy", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Start copying a block into a stage of a shared buffer";
  let description = [{
    ```mlir
    tile.async_copy %bp, %buf[%stage]
        : !tile.block_ptr<tensor<64x32xf32>>, !tile.shared<tensor<64x32xf32>, stages = 2, pad = 8>
    ```
    Starts copying the block `%bp` designates into stage `%stage` of
    `%buf`; elements outside the array (along every dimension) are written
    as zero. The copy joins the group the next `tile.async_commit` closes
    and is complete after a `tile.async_wait` that leaves fewer groups
    pending. Blocks are 2-d with rows of a multiple of 16 bytes. On the GPU
    interior blocks of rows with stride 1 and 16-byte alignment move with
    `cp.async` (no registers involved); others are copied synchronously.
  }];
  let arguments = (ins Tile_BlockPtr:$ptr, Tile_SharedBuffer:$buffer,
                       I32:$stage);
  let assemblyFormat = [{
    $ptr `,` $buffer `[` $stage `]` attr-dict `:` type($ptr) `,` type($buffer)
  }];
  let hasVerifier = 1;
}

def Tile_AsyncCommitOp : Tile_Op<"async_commit", [
    MemoryEffects<[MemWrite]>]> {
  let summary = "Close the group of asynchronous copies started so far";
  let assemblyFormat = "attr-dict";
}

def Tile_AsyncWaitOp : Tile_Op<"async_wait", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Wait until at most `pending` copy groups are in flight";
  let description = [{
    ```mlir
    tile.async_wait pending = 1
    ```
    Waits until at most `pending` of the most recently committed groups are
    still in flight, then synchronizes the program's threads, so the blocks
    of the completed groups are visible to all of them and every earlier
    read of shared memory is done (a stage may then be overwritten).
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative]>:$pending);
  let assemblyFormat = "`pending` `=` $pending attr-dict";
}

def Tile_AllocMBarriersOp : Tile_Op<"alloc_mbarriers", [
    MemoryEffects<[MemAlloc, MemWrite]>]> {
  let summary = "Initialized transaction barriers in shared memory";
  let description = [{
    ```mlir
    %bars = tile.alloc_mbarriers : !tile.mbarriers<4, arrivals = 2>
    ```
    Shared memory for the barriers, initialized (phase 0 pending, expecting
    `arrivals` arrivals) and visible to the program's threads and to the
    tensor memory accelerator once the op has run.
  }];
  let results = (outs Tile_MBarriers:$barriers);
  let assemblyFormat = "attr-dict `:` type($barriers)";
}

def Tile_TmaCopyOp : Tile_Op<"tma_copy", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Copy a block into a stage of a shared buffer with TMA";
  let description = [{
    ```mlir
    tile.tma_copy %bp, %buf[%stage] map %desc, %bars if %pred
        : !tile.block_ptr<tensor<128x64xf16>>,
          !tile.shared<tensor<128x64xf16>, stages = 4, pad = 8>,
          !tile.mbarriers<4, arrivals = 2>
    ```
    When `%pred` holds, one thread of the program announces the block's
    bytes on barrier `%stage` of `%bars` (one of its arrivals) and starts
    the tensor memory accelerator copying the block at `%bp`'s offsets of
    the array `%desc` maps into stage `%stage` of `%buf`, in the layout the
    buffer gets for its readers (wgmma's swizzled rows). Elements outside
    the array are written as zero. The bytes are in the buffer once
    `tile.mbarrier_wait` has seen the barrier's phase complete. `%bp`'s
    base, shape and strides must be those the map's `tile.tma` attribute
    names; only its offsets are read. With `batch %b`, the map describes a
    3-d array (its dictionary's `batch` entry: the stride and count of the
    outer dimension) and the block lies in matrix `%b` of it; `%bp`'s base
    is then that matrix's. A block pointer of higher rank (up to 5) whose
    block is 1 along its leading dimensions copies through a map of that
    rank (shape, strides and offsets of every dimension from `%bp`); its
    buffer holds the last two dimensions. Sm_90a and later.

    With `multicast N`, the N programs of a cluster (`tile.cluster_size`
    N) copy the same block together: the program of rank r copies rows
    [r R/N, (r + 1) R/N) of the R-row block into stage `%stage` of every
    program's buffer, completing bytes on every program's barrier
    `%stage`, and announces the whole block's bytes on its own. Each
    program's copy of the block is then complete once its barrier's phase
    is, and a stage may be refilled only once every program of the
    cluster has released it (see `tile.mbarrier_arrive ... cluster`).
  }];
  let arguments = (ins Tile_BlockPtr:$ptr, Tile_SharedBuffer:$buffer,
      I32:$stage, Tile_TensorMap:$map, Tile_MBarriers:$barriers, I1:$pred,
      Optional<I32>:$batch,
      OptionalAttr<ConfinedAttr<I32Attr, [IntMinValue<2>]>>:$multicast);
  let assemblyFormat = [{
    $ptr `,` $buffer `[` $stage `]` `map` $map `,` $barriers `if` $pred
    (`batch` $batch^)? (`multicast` $multicast^)?
    attr-dict `:` type($ptr) `,` type($buffer) `,` type($barriers)
  }];
  let hasVerifier = 1;
}

// Declared as writing too: an op that only reads and has no results would be
// erased as dead.
def Tile_TmaPrefetchOp
    : Tile_Op<"tma_prefetch", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Bring a block into L2 with TMA, ahead of its copy";
  let description = [{
    ```mlir
    tile.tma_prefetch %bp map %desc if %pred : !tile.block_ptr<tensor<1x1x128x64xf16>>
    ```
    When `%pred` holds, one thread of the program starts the tensor memory
    accelerator loading the block at `%bp`'s offsets of the array `%desc`
    maps into the L2 cache, in the boxes that the `tile.tma_copy` through
    the same map copies (the map's box). Nothing is written to shared
    memory and no barrier is involved: a later `tile.tma_copy` of the
    block then reads it from L2 instead of device memory. The block's
    shape and rank follow `tile.tma_copy`'s rules (rank 2 to 5, 1 along
    the leading dimensions). The kernel must copy through `%desc` with
    `tile.tma_copy` too, whose buffer's layout gives the map its box.
    Sm_90a and later.
  }];
  let arguments = (ins Tile_BlockPtr:$ptr, Tile_TensorMap:$map, I1:$pred);
  let assemblyFormat = [{
    $ptr `map` $map `if` $pred attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_TmaStoreOp
    : Tile_Op<"tma_store", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Copy a stage of a shared buffer to a block with TMA";
  let description = [{
    ```mlir
    tile.tma_store %buf[%stage], %bp map %desc
        : !tile.shared<tensor<128x64xf16>, stages = 2, pad = 8>,
          !tile.block_ptr<tensor<1x1x128x64xf16>>
    ```
    Once every thread of the program has got here (their earlier writes of
    the stage made visible to the tensor memory accelerator), one thread
    starts it copying stage `%stage` of `%buf` to the block at `%bp`'s
    offsets of the array `%desc` maps. Elements of the block outside the
    array are not written. The block's shape and rank follow
    `tile.tma_copy`'s rules; `%bp`'s base, shape and strides must be those
    the map's `tile.tma` attribute names. The copy reads the stage after
    the op returns: the stage may be written again only once a
    `tile.mbarrier_arrive ... stores` of the thread that started it has
    run (as the release of the stage). Sm_90a and later.
  }];
  let arguments = (ins Tile_SharedBuffer:$buffer, I32:$stage,
      Tile_BlockPtr:$ptr, Tile_TensorMap:$map);
  let assemblyFormat = [{
    $buffer `[` $stage `]` `,` $ptr `map` $map attr-dict `:` type($buffer)
    `,` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_MBarrierWaitOp : Tile_Op<"mbarrier_wait", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Wait for a phase of a transaction barrier, then synchronize";
  let description = [{
    ```mlir
    tile.mbarrier_wait %bars[%stage], phase %parity : !tile.mbarriers<4, arrivals = 2>
    ```
    Waits until the phase of barrier `%stage` whose parity is `%parity`
    (0 or 1: the barrier's uses so far, modulo 2) has completed, so that the
    copies that arrived on it are visible; then synchronizes the program's
    threads, as `tile.async_wait` does, so that every earlier read of shared
    memory is done and a stage may be overwritten. With `nosync` each
    thread only waits for the phase, without the synchronization: the
    producer and the consumers of a warp-specialized loop hand stages over
    through barriers alone (see tile.warp_specialize).
  }];
  let arguments = (ins Tile_MBarriers:$barriers, I32:$index, I32:$parity,
      UnitAttr:$nosync);
  let assemblyFormat = [{
    $barriers `[` $index `]` `,` `phase` $parity (`nosync` $nosync^)?
    attr-dict `:` type($barriers)
  }];
}

def Tile_MBarrierArriveOp
    : Tile_Op<"mbarrier_arrive", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Arrive on a transaction barrier once the given values exist";
  let description = [{
    ```mlir
    tile.mbarrier_arrive %empty[%stage] after %s, %o
        : !tile.mbarriers<2, arrivals = 256>, tensor<64x64xf32>, tensor<64x128xf32>
    ```
    Every thread of the program arrives once on barrier `%stage` of
    `%bars` (so a barrier that the program's threads release expects
    `num_warps * 32` arrivals). The op is a use of the `after` values:
    everything that computes them, including a wgmma still reading a
    shared buffer, has finished before the thread arrives. A
    warp-specialized loop's consumers release a stage this way once the
    products that read it are done.

    With `stores`, each thread first waits until the copies it started
    with `tile.tma_store` have read their stages, so that the barrier's
    phase hands those stages back too.

    With `cluster`, each warp of the program arrives once, when all its
    threads have got here, on barrier `%stage` of every program of its
    cluster (`tile.cluster_size` N), so that such a barrier expects
    `num_warps * N` arrivals: the release of a stage that the cluster's
    programs fill together (`tile.tma_copy ... multicast`).
  }];
  let arguments = (ins Tile_MBarriers:$barriers, I32:$index,
      Variadic<AnyType>:$after, UnitAttr:$cluster, UnitAttr:$stores);
  let assemblyFormat = [{
    $barriers `[` $index `]` (`cluster` $cluster^)? (`stores` $stores^)?
    (`after` $after^)?
    attr-dict `:` type($barriers) (`,` type($after)^)?
  }];
  let hasVerifier = 1;
}

def Tile_WaitTurnOp
    : Tile_Op<"wait_turn", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Wait for this warpgroup's turn (ping-pong scheduling)";
  let description = [{
    ```mlir
    tile.wait_turn
    %s = tile.dot ...      // issued in turn
    %o = tile.dot ...
    tile.pass_turn
    ```
    The warpgroups of a warp-specialized kernel of 8 or 16 warps take
    turns in pairs (0 and 1; 2 and 3) between `tile.wait_turn` and
    `tile.pass_turn`: the even warpgroup of a pair first, then the odd
    one, then the even one again. Work outside the turns (a softmax)
    overlaps the other warpgroup's (its products on the tensor cores), as
    in FlashAttention-3's ping-pong schedule. Each warpgroup must pass the
    turn once after each wait. Named barriers 2 + warpgroup (128 threads
    arriving, 128 waiting).
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def Tile_PassTurnOp
    : Tile_Op<"pass_turn", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Give the turn to the other warpgroup of the pair (see "
                "tile.wait_turn)";
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

// Not removable when its region is empty: it adds the producer warps.
def Tile_WarpSpecializeOp
    : Tile_Op<"warp_specialize", [SingleBlock, NoTerminator,
                                  MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Run a region on a producer warpgroup of its own";
  let description = [{
    ```mlir
    tile.warp_specialize registers(24, 240) {
      scf.for %i = %c0 to %n step %c1 iter_args(%p = %p0) -> ... {
        tile.mbarrier_wait %empty[%s], phase %ph nosync : ...
        tile.tma_copy %p, %buf[%s] map %map, %full if %true : ...
        ...
      }
    }
    ```
    The kernel runs with four more warps than `tile.num_warps`: a producer
    warpgroup. Ops before this one run on every warp (the verifier allows
    only scalars, constants and shared allocations there); then the producer
    warpgroup lowers its register budget to the first count (setmaxnreg),
    its first warp runs the region and the warpgroup ends, while the
    program's `num_warps` warps raise theirs to the second count and run
    the ops after this one, synchronizing only among themselves. The
    region works on scalars, block pointers and barriers only (no tiles):
    the producer issues TMA copies and waits for stages to be released.
    setmaxnreg moves registers within the program's pool, what its launch
    allocates (ptxas' per-thread bound for its threads and
    `tile.min_programs_per_sm` programs per SM, times its threads): the
    warps at the two counts must fit in it. Inserted by
    tile-warp-specialize; Hopper (sm_90a) and later.
  }];
  let arguments =
      (ins ConfinedAttr<I32Attr, [IntMinValue<24>,
                                  IntMaxValue<256>]>:$producerRegisters,
          ConfinedAttr<I32Attr, [IntMinValue<24>,
                                 IntMaxValue<256>]>:$consumerRegisters);
  let regions = (region SizedRegion<1>:$producer);
  let assemblyFormat = [{
    `registers` `(` $producerRegisters `,` $consumerRegisters `)` $producer
    attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Warps the producer warpgroup adds to the program's.
    static constexpr int64_t kProducerWarps = kSpecializedProducerWarps;
  }];
}

def Tile_LocalLoadOp : Tile_Op<"local_load", [MemoryEffects<[MemRead]>]> {
  let summary = "Read a stage of a shared buffer as a tile";
  let description = [{
    ```mlir
    %x = tile.local_load %buf[%stage] : !tile.shared<tensor<64x32xf32>, stages = 2, pad = 8>
    ```
    A `tile.dot` whose `b` operand is such a read may take its fragments
    from the buffer directly instead of staging the tile again.
  }];
  let arguments = (ins Tile_SharedBuffer:$buffer, I32:$stage);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $buffer `[` $stage `]` attr-dict `:` type($buffer) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_LocalStoreOp : Tile_Op<"local_store", [MemoryEffects<[MemWrite]>]> {
  let summary = "Write a tile into a stage of a shared buffer";
  let description = [{
    ```mlir
    tile.local_store %p, %buf[%stage] : tensor<64x32xf32>, !tile.shared<tensor<64x32xf32>, stages = 2, pad = 8>
    ```
    Writes the tile (of the buffer's block type) into stage `%stage`. The
    store synchronizes the program's threads before (every earlier read of
    shared memory is done) and after (a following `tile.local_load` by any
    thread, or a dot reading the stage, sees the whole tile), so it needs no
    `tile.async_wait` of its own; it does not wait for `tile.async_copy`
    groups in flight, which must not target the same stage.
  }];
  let arguments = (ins Tile_Tensor:$value, Tile_SharedBuffer:$buffer,
                       I32:$stage);
  let assemblyFormat = [{
    $value `,` $buffer `[` $stage `]` attr-dict `:` type($value) `,` type($buffer)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Computation
//===----------------------------------------------------------------------===//

def Tile_ReduceOp : Tile_Op<"reduce", [Pure, IsolatedFromAbove]> {
  let summary = "Reduce a tile along one axis: max, min, sum, prod, argmax, "
                "argmin, or a combiner of one's own";
  let description = [{
    ```mlir
    %m = tile.reduce max %x axis = 1 : tensor<64x128xf32> -> tensor<64xf32>
    %s = tile.reduce sum %v axis = 0 : tensor<128xf32> -> f32
    %i = tile.reduce argmax %x axis = 1 : tensor<64x128xf32> -> tensor<64xi32>
    %a = tile.reduce custom %x axis = 1 : tensor<64x128xf32> -> tensor<64xf32> {
    ^bb0(%l: f32, %r: f32):
      %la = math.absf %l : f32
      %ra = math.absf %r : f32
      %m = arith.maximumf %la, %ra : f32
      tile.yield %m : f32
    }
    ```
    The result drops dimension `axis`; a 1-d tile reduces to a scalar.
    `max`/`min` on floats propagate NaN, as `arith.maximumf` does. `sum` and
    `prod` of integers wrap. The interpreter combines floats in float64 and
    rounds once; the GPU combines f16 and bf16 in f32.

    `argmax`/`argmin` give the i32 position along `axis` of the largest
    (smallest) element, the first one where several are equal, as
    `torch.argmax` does; a NaN counts as larger (and as smaller) than every
    number, so the position of the first NaN is the result where there is
    one.

    `custom` combines with the region (Triton's `tl.reduce`): it takes two
    elements and yields one, of the tile's element type, with `arith` and
    `math` ops on scalars and nothing from outside the region. It must be
    associative and commutative: the GPU combines in a tree whose shape
    depends on the layout. It computes in the element type itself (no
    widening), in the interpreter as on the GPU.
  }];
  let arguments = (ins Tile_ReduceKindAttr:$kind, Tile_Tensor:$src,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$axis);
  let results = (outs AnyTypeOf<[Tile_Float, Tile_Int, Tile_Tensor]>:$result);
  let regions = (region AnyRegion:$combiner);
  let assemblyFormat = [{
    `` $kind $src `axis` `=` $axis attr-dict `:` type($src) `->` type($result)
    ($combiner^)?
  }];
  let hasVerifier = 1;
}

def Tile_ScanOp : Tile_Op<"scan", [Pure, IsolatedFromAbove,
                                   AllTypesMatch<["src", "result"]>]> {
  let summary = "Inclusive prefix combination along one axis: cumulative "
                "sum, product, max, min, or a combiner of one's own";
  let description = [{
    ```mlir
    %c = tile.scan sum %x axis = 1 : tensor<64x128xf32>
    %p = tile.scan prod %x axis = 0 reverse : tensor<128xf32>
    %h = tile.scan custom %x axis = 0 : tensor<128xi32> {
    ^bb0(%l: i32, %r: i32):
      %c255 = arith.constant 255 : i32
      %s = arith.addi %l, %r : i32
      %m = arith.andi %s, %c255 : i32
      tile.yield %m : i32
    }
    ```
    Element `i` along `axis` of the result combines the elements `0..i` of
    the source (`torch.cumsum`, `torch.cummax`'s values); with `reverse`,
    the elements `i..n-1`. The result has the source's type. Floats: the
    interpreter combines in float64 and rounds each result once, the GPU
    combines f16 and bf16 in f32; `max`/`min` propagate NaN. Integers
    wrap.

    `custom` combines with the region (Triton's `tl.associative_scan`), as
    for `tile.reduce`: two elements in, one out, of the element type. It
    must be associative; it need not be commutative: its left operand is
    always the part nearer the start of the scan (the end of the axis with
    `reverse`).
  }];
  let arguments = (ins Tile_ReduceKindAttr:$kind, Tile_Tensor:$src,
      ConfinedAttr<I32Attr, [IntNonNegative]>:$axis, UnitAttr:$reverse);
  let results = (outs Tile_Tensor:$result);
  let regions = (region AnyRegion:$combiner);
  let assemblyFormat = [{
    `` $kind $src `axis` `=` $axis (`reverse` $reverse^)? attr-dict `:`
    type($src) ($combiner^)?
  }];
  let hasVerifier = 1;
}

def Tile_YieldOp : Tile_Op<"yield", [Pure, Terminator, ReturnLike,
                                     ParentOneOf<["ReduceOp", "ScanOp"]>]> {
  let summary = "The value a combiner region gives";
  let description = [{
    ```mlir
    tile.yield %m : f32
    ```
    Ends the combiner region of `tile.reduce custom` and `tile.scan custom`.
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

def Tile_ClusterReduceOp : Tile_Op<"cluster_reduce",
    [AllTypesMatch<["value", "result"]>]> {
  let summary = "Combine a scalar over the programs of a cluster";
  let description = [{
    ```mlir
    %rowMax = tile.cluster_reduce max %localMax : f32
    ```
    Every program of the cluster (see `tile.cluster_size`) contributes its
    `value`; each receives the reduction of all of them. It is a collective:
    every program of a cluster must reach the same cluster ops in the same
    order (on the GPU a program that skips one deadlocks its cluster; the
    interpreter reports it). Lowered to a cluster barrier and distributed
    shared memory reads (sm_90 and later). `max`/`min` on floats propagate
    NaN.
  }];
  let arguments = (ins Tile_ReduceKindAttr:$kind,
                       AnyTypeOf<[F32, I32]>:$value);
  let results = (outs AnyTypeOf<[F32, I32]>:$result);
  let assemblyFormat = [{
    `` $kind $value attr-dict `:` type($value)
  }];
  let hasVerifier = 1;
}

def Tile_ClusterGatherOp : Tile_Op<"cluster_gather"> {
  let summary = "Collect scalars from every program of a cluster";
  let description = [{
    ```mlir
    %maxes, %sums = tile.cluster_gather %max, %sum
        : f32, f32 -> tensor<4xf32>, tensor<4xf32>
    ```
    Every program of the cluster (see `tile.cluster_size`) contributes its
    values; each receives, per value, the 1-d tile of all contributions,
    element `r` from the program of rank `r` (its program id along axis 0
    modulo the cluster size). All values travel in one exchange (one
    cluster barrier). A collective, like `tile.cluster_reduce`. Softmax of
    rows split over a cluster gathers each program's (max, sum) pair and
    merges them as online softmax does, so every row is read once.
  }];
  let arguments = (ins Variadic<AnyTypeOf<[F32, I32]>>:$values);
  let results = (outs Variadic<Tile_Tensor>:$results);
  let assemblyFormat = [{
    $values attr-dict `:` type($values) `->` type($results)
  }];
  let hasVerifier = 1;
}

def Tile_DotOp : Tile_Op<"dot", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "Matrix product of two tiles added to an accumulator";
  let description = [{
    ```mlir
    %c = tile.dot %a, %b, %acc precision = tf32
           : tensor<64x32xf32>, tensor<32x128xf32> -> tensor<64x128xf32>
    ```
    `result = a @ b + acc`. `a` and `b` share an element type (f16, bf16 or
    f32); the accumulator is f32 (or f16 for f16 inputs). `precision` says
    how f32 products are formed: `ieee` (exact f32 FMA, the default), `tf32`
    (tensor-core TF32 inputs) or `tf32x3` (three TF32 products, f32-level
    error).
  }];
  let arguments = (ins Tile_Tensor:$a, Tile_Tensor:$b, Tile_Tensor:$acc,
                       DefaultValuedAttr<Tile_InputPrecisionAttr,
                           "::mlir::tile::InputPrecision::IEEE">:$precision);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc (`precision` `=` `` $precision^)? attr-dict `:`
    type($a) `,` type($b) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_ConvertLayoutOp : Tile_Op<"convert_layout", [Pure,
    SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "Redistribute a tile over threads with another layout";
  let description = [{
    ```mlir
    %y = tile.convert_layout %x : tensor<64xf32, #a> -> tensor<64xf32, #b>
    ```
    Inserted by layout assignment where two uses disagree; lowered to a
    round trip through shared memory. Chains, no-op conversions and
    conversions of values that are cheap to recompute (splats, constants,
    ranges) fold away.

    A kernel may also write one between tiles without layouts: layout
    assignment then lays out its operand and result independently, each
    for its own uses (e.g. a tile loaded once with coalesced accesses and
    used by every iteration of a loop as a dot's `a` operand, which then
    stays in the dot's registers).
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tile_WarpgroupMmaWaitOp : Tile_Op<"warpgroup_mma_wait", [
    MemoryEffects<[MemRead, MemWrite]>, AllTypesMatch<["src", "result"]>]> {
  let summary = "Wait for in-flight wgmma groups before using an accumulator";
  let description = [{
    ```mlir
    %acc = tile.warpgroup_mma_wait %sum pending = 0 : tensor<128x128xf32, #mma>
    ```
    On Hopper a dot lowered to wgmma may leave its group of tensor-core
    instructions running past the dot (the next iteration's dot waits for
    it). The accumulator it produces is only defined once at most `pending`
    groups are in flight: this op waits for that and returns `src`
    unchanged. Inserted by tile-convert-to-llvm after loops whose dots stay
    in flight; not meant to be written by hand.
  }];
  let arguments = (ins Tile_Tensor:$src,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$pending);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src `pending` `=` $pending attr-dict `:` type($src)";
}

//===----------------------------------------------------------------------===//
// Programs of a grid synchronizing through global memory
//===----------------------------------------------------------------------===//

def Tile_AtomicAddOp : Tile_Op<"atomic_add", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Add to an i32 in global memory, once per program";
  let description = [{
    ```mlir
    %old = tile.atomic_add %counter, %one : !tile.ptr<i32>
    ```
    One thread of the program adds `%value` to the i32 at `%ptr`
    atomically and every thread gets the value it replaced. The addition
    releases and acquires at GPU scope: whatever any thread of the program
    wrote before it is visible to a program that observes the new value
    (`tile.wait_at_least`, or a later `tile.atomic_add`), and what programs
    wrote before additions this one observes is visible after it. Programs
    that take tickets with it (`%old` as their work index) start work in the
    order the GPU runs them, which is what makes waiting for one another
    safe (see `tile.wait_at_least`).
  }];
  let arguments = (ins Tile_Ptr:$ptr, I32:$value);
  let results = (outs I32:$result);
  let assemblyFormat = "$ptr `,` $value attr-dict `:` qualified(type($ptr))";
  let hasVerifier = 1;
}

def Tile_AtomicRMWOp
    : Tile_Op<"atomic_rmw",
              [MemoryEffects<[MemRead, MemWrite]>,
               TypesMatchWith<
                   "value has the pointee type and shape of the pointers",
                   "ptr", "val", "::mlir::tile::getPointeeLikeType($_self)">,
               TypesMatchWith<
                   "result has the pointee type and shape of the pointers",
                   "ptr", "result", "::mlir::tile::getPointeeLikeType($_self)">,
               OptionalTypesMatchWith<
                   "mask is an i1 tile of the pointers' shape", "ptr", "mask",
                   "::mlir::tile::getMaskLikeType($_self)">]> {
  let summary = "Atomic read-modify-write of global memory through pointers";
  let description = [{
    ```mlir
    %old = tile.atomic_rmw add %ptrs, %v, %mask : tensor<128x!tile.ptr<f32>>
    %prev = tile.atomic_rmw max %p, %x sem = relaxed scope = cta : !tile.ptr<i32>
    ```
    For each element whose mask is true (all without a mask), atomically
    replaces `*ptr` by `*ptr op val` and gives the value it replaced; a
    masked-off element does nothing and gives 0. Elements that point to
    the same address are applied one after the other in some order, as
    separate atomic operations. A scalar pointer is updated once per
    program.

    | kind | element types |
    |---|---|
    | `add` | f32, f16, bf16 (sm_90), f64, i32, i64 |
    | `max`, `min` | i32, i64 (signed); f32, f64 (a NaN operand is ignored, as `fmax` does) |
    | `and`, `or`, `xor` | i32, i64 |
    | `xchg` | f32, f64, i32, i64 |

    `sem` orders the operation with the thread's other memory accesses:
    `relaxed`, `acquire`, `release` or `acq_rel` (the default), as seen by
    the threads of the program (`scope = cta`) or of the whole GPU
    (`scope = gpu`, the default). The pointers must be aligned to their
    element (the interpreter checks it).
  }];
  let arguments = (ins Tile_AtomicKindAttr:$kind, Tile_PtrLike:$ptr,
      Tile_Value:$val, Optional<AnyTypeOf<[I1, Tile_BoolTensor]>>:$mask,
      DefaultValuedAttr<Tile_MemorySemanticAttr,
                        "::mlir::tile::MemorySemantic::AcqRel">:$sem,
      DefaultValuedAttr<Tile_MemoryScopeAttr,
                        "::mlir::tile::MemoryScope::GPU">:$scope);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    $kind $ptr `,` $val (`,` $mask^)? (`sem` `=` $sem^)? (`scope` `=` $scope^)?
    attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_AtomicCASOp
    : Tile_Op<"atomic_cas",
              [MemoryEffects<[MemRead, MemWrite]>,
               TypesMatchWith<
                   "value has the pointee type and shape of the pointers",
                   "ptr", "val", "::mlir::tile::getPointeeLikeType($_self)">,
               TypesMatchWith<
                   "cmp has the pointee type and shape of the pointers", "ptr",
                   "cmp", "::mlir::tile::getPointeeLikeType($_self)">,
               TypesMatchWith<
                   "result has the pointee type and shape of the pointers",
                   "ptr", "result", "::mlir::tile::getPointeeLikeType($_self)">,
               OptionalTypesMatchWith<
                   "mask is an i1 tile of the pointers' shape", "ptr", "mask",
                   "::mlir::tile::getMaskLikeType($_self)">]> {
  let summary = "Atomic compare-and-swap of global memory through pointers";
  let description = [{
    ```mlir
    %old = tile.atomic_cas %locks, %zero, %one : tensor<64x!tile.ptr<i32>>
    ```
    For each element whose mask is true, atomically stores `val` at `ptr`
    if `*ptr` equals `cmp`, and gives the value that was there (equal to
    `cmp` where the swap happened); a masked-off element gives 0. i32 and
    i64 elements; `sem` and `scope` as for `tile.atomic_rmw` (a failed
    comparison orders as `relaxed`, or `acquire` for `acquire`/`acq_rel`).
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_Value:$cmp, Tile_Value:$val,
      Optional<AnyTypeOf<[I1, Tile_BoolTensor]>>:$mask,
      DefaultValuedAttr<Tile_MemorySemanticAttr,
                        "::mlir::tile::MemorySemantic::AcqRel">:$sem,
      DefaultValuedAttr<Tile_MemoryScopeAttr,
                        "::mlir::tile::MemoryScope::GPU">:$scope);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = [{
    $ptr `,` $cmp `,` $val (`,` $mask^)? (`sem` `=` $sem^)?
    (`scope` `=` $scope^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_WaitAtLeastOp : Tile_Op<"wait_at_least", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Wait until an i32 in global memory reaches a value";
  let description = [{
    ```mlir
    tile.wait_at_least %counter, %target : !tile.ptr<i32>
    ```
    Blocks the program until the i32 at `%ptr` is at least `%target`
    (signed), reading it with acquire semantics at GPU scope: what other
    programs wrote before the `tile.atomic_add`s that brought it there is
    then visible to every thread of this program. The programs it waits
    for must be able to run while it waits: on a GPU, at most as many
    programs as are resident at once may wait for one another, and they
    should have taken their work in ticket order (`tile.atomic_add`) so that
    the ones waited for are already running. The interpreter runs up to
    256 programs at once and reports a deadlock when all of them wait.
  }];
  let arguments = (ins Tile_Ptr:$ptr, I32:$target);
  let assemblyFormat = "$ptr `,` $target attr-dict `:` qualified(type($ptr))";
  let hasVerifier = 1;
}

def Tile_WaitPriorGridOp
    : Tile_Op<"wait_prior_grid", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Wait for the kernel launched before this one to finish";
  let description = [{
    ```mlir
    tile.wait_prior_grid
    ```
    Blocks the program until the kernel launched before this one on its
    stream has finished and its writes are visible. A kernel holding this
    op is launched so that it may start while its predecessor still runs
    (a programmatic dependent launch, sm_90 and newer): what runs before
    the op must neither read what the predecessor writes nor write what it
    reads. The launch's setup (shared memory, barriers, the first copies of
    independent data) then overlaps the predecessor's last programs. The
    op must be reached by every thread of the program. Kernels run one
    after another in the interpreter, where the op does nothing.
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_LaunchDependentsOp
    : Tile_Op<"launch_dependents", [MemoryEffects<[MemWrite]>]> {
  let summary = "Let the next kernel start before this one finishes";
  let description = [{
    ```mlir
    tile.launch_dependents
    ```
    Once every program of the grid has run this op (or exited), the kernel
    launched next on the stream may start, if it holds a
    `tile.wait_prior_grid`: its wait still sees every write of this
    kernel. Without the op that kernel starts as this one's programs exit.
    A scheduling hint with no effect on the results; the interpreter
    ignores it.
  }];
  let assemblyFormat = "attr-dict";
}

def Tile_PrintOp : Tile_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "Print values (debugging aid)";
  let description = [{
    ```mlir
    tile.print "row max" %m : f32
    ```
    The interpreter prints the program id, the prefix and the values, a
    tile on one line. On the GPU (CUDA's vprintf) a scalar is printed once
    per program and a tile one line per element with its index, in any
    order: `[pid (0, 0, 0)] row max 1.5`, `[pid (0, 0, 0)] x [3] 0.25`.
  }];
  let arguments = (ins StrAttr:$prefix, Variadic<Tile_Value>:$args);
  let assemblyFormat = "$prefix ($args^ `:` type($args))? attr-dict";
}

def Tile_AssertOp : Tile_Op<"assert", [MemoryEffects<[MemWrite]>]> {
  let summary = "Stop the kernel where a condition does not hold";
  let description = [{
    ```mlir
    tile.assert %in_range, "column index below n_cols" : tensor<128xi1>
    tile.assert %positive, "row sum is positive" : i1
    ```
    Every element of `condition` must be true. The interpreter stops at the
    first program where one is not, with an error at the op that names the
    program and the first false element. On the GPU a thread holding a
    false element calls CUDA's `__assertfail` with the message and the op's
    file and line: the driver prints them with the block and thread, the
    kernel stops, and the launch fails (CUDA's "device-side assert
    triggered"; the context cannot launch again).
  }];
  let arguments = (ins AnyTypeOf<[I1, Tile_Tensor]>:$condition,
      StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
  let hasVerifier = 1;
}

#endif // TILE_OPS_TD
