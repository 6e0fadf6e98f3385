//===- Utility.h - Helpers shared by the TileToLLVM patterns ----*- C++ -*-===//

#ifndef TILE_LIB_CONVERSION_TILETOLLVM_UTILITY_H
#define TILE_LIB_CONVERSION_TILETOLLVM_UTILITY_H

#include "tile/Conversion/TileToLLVM/TileToLLVM.h"
#include "tile/Dialect/Tile/IR/Layout.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace tile {

Value i32Constant(OpBuilder &b, Location loc, int64_t v);
Value i64Constant(OpBuilder &b, Location loc, int64_t v);

/// The number of `chip` ("sm_90a" -> 90), or 0 if it names none.
unsigned getSMVersion(StringRef chip);

/// This thread's lane (0..31) and warp ids, as i32.
struct ThreadIds {
  Value lane, warp;
};
ThreadIds getThreadIds(OpBuilder &b, Location loc);

/// The logical index (i32) of every slot of `type` held by this thread:
/// result[slot][tensor dim].
SmallVector<SmallVector<Value>> emitSlotIndices(OpBuilder &b, Location loc,
                                                RankedTensorType type);

/// Lane (warp) id of this thread along root dimension `rd` of `view`.
Value emitLaneAlong(OpBuilder &b, Location loc, const LayoutView &view,
                    unsigned rd, Value lane);
Value emitWarpAlong(OpBuilder &b, Location loc, const LayoutView &view,
                    unsigned rd, Value warp);

/// Row-major linear index of a tensor position; with `rowPad`, rows (of the
/// innermost dimension) are that many elements longer.
Value emitLinearIndex(OpBuilder &b, Location loc, ArrayRef<Value> index,
                      ArrayRef<int64_t> shape, int64_t rowPad = 0);
/// Elements each row of a tile.convert_layout's shared-memory copy is
/// padded by (see getSharedMemoryBytes): 16 bytes for tiles of two or more
/// dimensions, so that the rows of an mma layout's columns fall in distinct
/// banks; 0 for vectors.
int64_t getConversionRowPad(RankedTensorType type);

/// Base of the kernel's dynamic shared memory (`!llvm.ptr<3>`). The pass
/// declares the array and records each kernel's need (see
/// getSharedMemoryBytes) before the patterns run.
Value getSharedMemory(OpBuilder &b, Location loc);
/// Bytes of shared memory the lowering of `op` uses (0 for most ops).
int64_t getSharedMemoryBytes(Operation *op);
/// Whether a tensor-core dot reads its `b` operand straight from the shared
/// buffer of a tile.local_load, staging nothing (see DotOpToLLVM.cpp).
bool dotReadsBFromBuffer(DotOp op);
/// Whether `op` is only the `b` of tensor-core dots (mma.sync or wgmma)
/// that read it from the buffer the transposed tile was loaded from: the
/// transpose is not computed (its values are never read).
bool isTransReadByDot(TransOp op);
/// Shared memory bytes the FMA-layout lowering of `op` stages (see
/// DotOpToLLVM.cpp), or -1 when `op` does not take that lowering.
int64_t getFmaLayoutDotSharedBytes(DotOp op);
/// Marks the dots of `kernel` that will become wgmma (Hopper, sm_90a) and
/// the shared buffers they read, which get swizzled layouts (see
/// SharedLayout); to run before shared memory is placed.
void planWarpgroupMma(func::FuncOp kernel);
/// `ptr + index` elements of `elemType` (any address space).
Value gep(OpBuilder &b, Location loc, Type elemType, Value ptr, Value index);
/// A barrier across the program's threads: the CTA's, or in a
/// warp-specialized kernel those of its tile.num_warps warps.
void emitBarrier(OpBuilder &b, Location loc);
/// `bar.sync id, threads`: a named barrier over `threads` threads.
void emitNamedBarrier(OpBuilder &b, Location loc, Value id, int64_t threads);
/// `kernel`'s tile.warp_specialize (a producer warpgroup beside its
/// tile.num_warps warps), or null.
WarpSpecializeOp getWarpSpecialize(func::FuncOp kernel);
/// Splits the warps at `kernel`'s tile.warp_specialize once the ops around
/// it are lowered (WarpSpecializeOpToLLVM.cpp); `turns`: its warpgroups
/// take turns (tile.wait_turn); `clusterExit`: the producer arrives on the
/// cluster barrier that the program's warps wait for before they return
/// (see addClusterBarrierBoundaries).
void lowerWarpSpecialize(func::FuncOp kernel, bool turns, bool clusterExit);
/// One inline PTX instruction with `resultTypes.size()` results (none,
/// one, or several returned through a literal struct and extracted).
/// Only where NVVM has no op for it or the op cannot say what the code
/// needs (its call says which); otherwise use the NVVM op.
SmallVector<Value> emitInlineAsm(OpBuilder &b, Location loc,
                                 TypeRange resultTypes, ValueRange operands,
                                 StringRef text, StringRef constraints,
                                 bool hasSideEffects);
/// One PTX instruction (or braced block) with side effects and no results.
void emitAsmStatement(OpBuilder &b, Location loc, ValueRange operands,
                      StringRef text, StringRef constraints);
/// `ptr + bytes` for a pointer in any address space.
Value byteOffset(OpBuilder &b, Location loc, Value ptr, Value bytes);
/// The attribute through which scf-to-cf passes an scf.for's LLVM loop
/// annotation on to the loop's latch branch.
constexpr llvm::StringLiteral kLoopAnnotationAttrName = "llvm.loop_annotation";
/// Asks LLVM not to unroll `loop`: scf-to-cf carries the annotation to the
/// loop's latch branch, and tile-outline-kernels makes it the branch's own
/// (the translation to LLVM IR reads only that).
void setNoUnroll(scf::ForOp loop);

/// The shared-memory pointer (`!llvm.ptr<3>`) at a 32-bit shared address,
/// for addresses computed as integers (swizzles XOR the address bits).
/// Shared pointers are 32 bits wide in the code Tile emits (see
/// buildTileToBinaryPipeline), so this costs no instruction.
Value toSharedPointer(OpBuilder &b, Location loc, Value address);
/// The shared::cluster pointer (`!llvm.ptr<7>`) of a location in this
/// program's own shared memory: the PTX ISA makes a shared::cta address
/// a valid shared::cluster address of the same location, so the bits are
/// reused (an addrspacecast would go through a generic address).
Value toOwnClusterPointer(OpBuilder &b, Location loc, Value sharedPtr);
/// warp * 32 + lane: the thread's index in the program (i32).
Value emitThreadIndex(OpBuilder &b, Location loc, const ThreadIds &ids);
/// Where a shared buffer's blocks lie within a stage. By default rows are
/// stored in order, `pad` elements apart (the type's row stride). A buffer
/// a wgmma reads is swizzled the way wgmma's shared-memory descriptors
/// expect: the block is cut into column chunks of `swizzleBytes` (32, 64
/// or 128) bytes stored one after the other, each as rows of that many
/// bytes in which the 16-byte pieces of row r are permuted by XOR with a
/// phase of r (rows 8 apart share it), so that eight consecutive rows read
/// at one column hit distinct banks. Stages are 1024-byte aligned, as the
/// swizzle pattern repeats every 1024 bytes of address.
///
/// An `a` operand's buffer (mmaRowWarps = W, the dot's warps along M) also
/// reorders groups of 8 rows so that each 64-row slice one warpgroup's
/// wgmma reads holds exactly the rows its warps own in the accumulator's
/// mma layout (warp w owns rows 8w + g and 8w + g + 8W of each 16W rows):
/// slice row 16i + 8h + g is tile row (2j + h) 8W + 8(4q + i) + g for
/// warpgroup q and m-tile j.
///
/// A transposed (K-major) buffer, for the `b` operand of a tf32 wgmma,
/// stores the block's element (k, n) at row n, column pi(k) of the
/// swizzled layout, where pi permutes each group of 8 k as 0 4 1 5 2 6 3 7
/// -> 0..7 (k = 2t goes to t, 2t + 1 to t + 4): the order in which the
/// registers of the tf32 `a` fragments hold k (see DotOpToLLVM.cpp).
struct SharedLayout {
  SharedBufferType type;
  int64_t swizzleBytes = 0;
  int64_t mmaRowWarps = 0;
  bool transposed = false;
  bool splitTF32 = false; // tile.split_tf32

  bool isSwizzled() const { return swizzleBytes != 0; }
  int64_t getStageBytes() const;
  /// Bytes from a value's tf32 part to its remainder (splitTF32 buffers).
  int64_t getLowPartOffset() const {
    return type.getStages() * getStageBytes();
  }
  /// The buffer's bytes (both parts of a splitTF32 buffer).
  int64_t getBufferBytes() const {
    return (splitTF32 ? 2 : 1) * getLowPartOffset();
  }
  /// Bytes from one column chunk of a stage to the next (swizzled only).
  int64_t getChunkBytes() const;
  /// The byte offset of element (row, col) within a stage (i32 values).
  Value emitOffset(OpBuilder &b, Location loc, Value row, Value col) const;
};
/// The box (elements) one TMA copy writes into a stage laid out as
/// `layout` (swizzled, not transposed): a column chunk's width by all the
/// block's rows, or by 8 rows where the buffer reorders row groups for
/// wgmma (SharedLayout::mmaRowWarps). The runtime encodes the tensor map
/// with this box (see TmaOpToLLVM.cpp).
///
/// `groups` (W) is set when the reordered block is 16W rows, 8-row groups
/// p = w + W h stored at slot 2w + h: then the parameter holds a second,
/// 4-d map, [column, g < 8, h < 2, 8-row group] with the h stride W groups,
/// whose box [chunk, 8, 2, W / 2] writes half a chunk of the block in that
/// order in one copy (used for blocks wholly inside the array; W even).
/// A copy multicast over `parts` programs moves 1/parts of the rows.
struct TmaBox {
  int64_t rows = 0, cols = 0, groups = 0;
};
TmaBox getTmaBox(const SharedLayout &layout, int64_t parts = 1);
/// The box of `copy`'s buffer, of its part of the block when it multicasts.
TmaBox getTmaBox(TmaCopyOp copy);
/// The box of `store`'s buffer.
TmaBox getTmaBox(TmaStoreOp store);
/// The layout of `buffer` (the result of a tile.alloc_shared), from the
/// attributes the pass set on it.
SharedLayout getSharedLayout(Value buffer);
/// The first byte of stage `stage` (i32) of a shared buffer laid out as
/// `layout`, given the buffer's converted base pointer (`!llvm.ptr<3>`).
Value emitStageBase(OpBuilder &b, Location loc, const SharedLayout &layout,
                    Value buffer, Value stage);
/// The value of lane `lane ^ mask` (i32 or f32 values; narrower ones are
/// extended around the shuffle).
Value shuffleXor(OpBuilder &b, Location loc, Value v, unsigned mask);
/// The value of lane `lane - delta` (lanes below `delta`: their own).
Value shuffleUp(OpBuilder &b, Location loc, Value v, unsigned delta);
/// The type tile.reduce and tile.scan combine `elem` in: f16/bf16 in f32
/// and narrower integers in i32, except for a `custom` combiner, which
/// computes in the element type its region declares.
Type getCombineType(Type elem, ReduceKind kind);
/// `v` (of the element type `elem`) in the combine type `acc`, and back.
/// i1 widens to 0 or 1, as the interpreter holds it.
Value widenToCombineType(OpBuilder &b, Location loc, Value v, Type elem,
                         Type acc);
Value narrowFromCombineType(OpBuilder &b, Location loc, Value v, Type elem);
/// The value a `custom` combiner region yields for (x, y): its ops cloned
/// at the insertion point.
Value emitCombiner(OpBuilder &b, Region &combiner, Value x, Value y);
/// Shared memory bytes the lowering of `op` uses (see ScanOpToLLVM.cpp).
int64_t getScanSharedBytes(ScanOp op);
/// The same for tile.atomic_rmw / tile.atomic_cas (see AtomicOpToLLVM.cpp).
int64_t getAtomicSharedBytes(Operation *op);

/// `x` combined with `y` by a reduction of `kind` (max/min propagate NaN).
Value combine(OpBuilder &b, Location loc, ReduceKind kind, Value x, Value y);

/// Rounds an f32 value (or its i32 bits) to tf32 (10 explicit mantissa
/// bits), to nearest with ties away from zero, as i32 bits: one
/// cvt.rna.tf32.f32 (sm_80+). Infinities and NaNs keep their class. With
/// `tiesToEven` (sm_90+ only), cvt.rn.tf32.f32: ties to even, and about
/// half the instructions in SASS (ptxas emulates the rna form; measured on
/// an H200, 2026-11-24).
Value roundToTF32Bits(OpBuilder &b, Location loc, Value f,
                      bool tiesToEven = false);

/// Memory (storage) type used for elements of `elemType` in shared memory:
/// i1 is stored as i8.
Type getStorageType(Type elemType);
Value toStorage(OpBuilder &b, Location loc, Value v);
Value fromStorage(OpBuilder &b, Location loc, Value v, Type elemType);

/// Writes every slot of `values` (a tile of `srcType`) to shared memory at
/// the linear index `dstLinear(srcIndex)`, then reads back the slots of
/// `dstType` at their own linear index. Barriers guard both ends.
SmallVector<Value> exchangeThroughSharedMemory(
    OpBuilder &b, Location loc, RankedTensorType srcType, ValueRange values,
    RankedTensorType dstType,
    function_ref<Value(OpBuilder &, Location, ArrayRef<Value>)> srcToDstLinear,
    int64_t rowPad = 0);

} // namespace tile
} // namespace mlir

#endif // TILE_LIB_CONVERSION_TILETOLLVM_UTILITY_H
