//===- DotOpToLLVM.h - Shared by the tile.dot lowerings ---------*- C++ -*-===//
//
// Declarations shared by the files of the tile.dot lowering: one entry point
// per strategy (called by the pattern in DotOpToLLVM.cpp) and the helpers
// more than one strategy uses. Helpers private to one strategy stay static
// in its file.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_TILETOLLVM_DOTOPTOLLVM_H
#define TILE_LIB_CONVERSION_TILETOLLVM_DOTOPTOLLVM_H

#include "Utility.h"

#include <string>
#include <utility>

namespace mlir {
namespace tile {

//===----------------------------------------------------------------------===//
// Strategies
//===----------------------------------------------------------------------===//

/// FMA units, both operands staged in shared memory as f32: the generic
/// lowering, for any layout (DotOpToLLVMFMA.cpp).
LogicalResult lowerDotWithFma(DotOp op, ValueRange aSlots, ValueRange bSlots,
                              ValueRange accSlots,
                              ConversionPatternRewriter &rewriter);
/// Whether `op` is lowered by lowerDotWithFmaLayout.
bool isFmaLayoutDot(DotOp op);
/// FMA units with register tiles, for an accumulator with the FMA layout
/// (DotOpToLLVMFMA.cpp).
LogicalResult lowerDotWithFmaLayout(DotOp op, ValueRange aVals,
                                    ValueRange bVals, ValueRange accVals,
                                    ConversionPatternRewriter &rewriter);
/// Tensor cores with mma.sync, for an accumulator with the mma layout
/// (DotOpToLLVMMmaSync.cpp).
LogicalResult lowerDotWithMma(DotOp op, ValueRange aVals, ValueRange bVals,
                              ValueRange accVals,
                              ConversionPatternRewriter &rewriter);
/// The registers a tile.tf32_parts split (its source's), for one of its
/// results: the part (tf32 part or remainder) a dot reading that result
/// takes. The wgmma lowering moves the source's values between lanes and
/// splits them after the move, so that every dot reading a part of the
/// same source moves the same registers (one set of shuffles, which ptxas
/// merges) instead of each part's.
struct TF32PartSource {
  SmallVector<Value> values;
  bool remainder = false;
};
/// Hopper tensor cores with wgmma, for dots planWarpgroupMma marked
/// (DotOpToLLVMWgmma.cpp); `aSource` when `a` is a tile.tf32_parts result.
LogicalResult lowerDotWithWgmma(DotOp op, ValueRange aVals, ValueRange accVals,
                                const TF32PartSource *aSource,
                                ConversionPatternRewriter &rewriter);
/// tf32 and tf32x3 dots with the transposed wgmma layout, computed as
/// O^T = B^T A^T (DotOpToLLVMTransposedWgmma.cpp).
LogicalResult lowerTransposedDotWithWgmma(DotOp op, ValueRange accVals,
                                          ConversionPatternRewriter &rewriter);

//===----------------------------------------------------------------------===//
// Helpers of several strategies (DotOpToLLVM.cpp)
//===----------------------------------------------------------------------===//

/// Two 16-bit values as one 32-bit fragment register (`lo` in the low half).
Value packPair(OpBuilder &b, Location loc, Type elem, Value lo, Value hi);
/// The tile.local_load that `operand` of a dot is, when the dot may read
/// the stage directly: the read is in the dot's block, with no copy
/// between the two that could overwrite the stage.
LocalLoadOp getStageRead(DotOp op, Value operand);
/// tile.tf32_parts of one f32 value `x`: the bits of its tf32 part, and
/// of its remainder given the part's bits (cvt.rn.tf32.f32 each). The op's
/// lowering and the wgmma fragments formed from its source split alike
/// through these.
Value emitTF32Part(OpBuilder &b, Location loc, Value x);
Value emitTF32Remainder(OpBuilder &b, Location loc, Value x, Value partBits);
/// Whether every element of tile `v` is a tf32 value already (a result of
/// tile.tf32_parts, possibly through layout conversions): a tf32 dot
/// reading it from registers needs no rounding.
bool isTF32Value(Value v);

//===----------------------------------------------------------------------===//
// wgmma helpers (DotOpToLLVMWgmma.cpp)
//===----------------------------------------------------------------------===//

/// Whether a dot's accumulator is the constant zero tile: its products
/// then need no separate sum (tf32x3).
bool isZeroTile(Value acc);
/// A wgmma shared-memory descriptor: start address (bits 0-13, in 16-byte
/// units), leading and stride byte offsets (bits 16-29 and 32-45, same
/// units) and the swizzle mode (bits 62-63: 1 = 128-byte, 2 = 64-byte,
/// 3 = 32-byte rows).
Value emitMatrixDescriptor(OpBuilder &b, Location loc, Value address,
                           int64_t leadingBytes, int64_t strideBytes,
                           int64_t swizzleBytes);
/// wgmma.wait_group `pending`, with every accumulator register passing
/// through it (tied operands) so that no use is scheduled before it.
SmallVector<Value> emitWarpgroupMmaWait(OpBuilder &b, Location loc,
                                        ValueRange acc, int64_t pending);
/// The inline asm of one wgmma m64nNk(8|16) into `n` / 2 f32 registers
/// (operands $0..), with `a` from a descriptor or 4 fragment registers,
/// then `b`'s descriptor and the accumulate flag: its text and constraints.
/// `b` is MN-major unless `bKMajor` (16-bit types; tf32 is K-major).
std::pair<std::string, std::string>
getWarpgroupMmaAsm(int64_t n, Type elem, bool aShared, bool bKMajor = false);
/// Ends a dot's wgmma group: commits it and waits. The accumulator
/// registers are only defined once the group completes; waiting also ends
/// the group's reads of both stages. A dot marked tile.wgmma_pending leaves
/// its own group running (the previous iteration's is complete after the
/// wait): the next dot chains onto the same registers and
/// tile.warpgroup_mma_wait after the loop drains it.
LogicalResult commitWarpgroupMma(DotOp op, ValueRange acc,
                                 ConversionPatternRewriter &rewriter);
/// The first byte of the stage a dot's operand `read` reads (a pointer).
Value emitReadStageBase(ConversionPatternRewriter &rewriter, Location loc,
                        LocalLoadOp read, const SharedLayout &layout);
/// `desc` advanced by `bytes` (a multiple of 16; no op for 0).
Value advanceDescriptor(OpBuilder &b, Location loc, Value desc, int64_t bytes);
/// Bytes from a K-major swizzled operand's first k to the one `kBytes`
/// into its rows: within a swizzled row, or into a later column chunk.
int64_t getKMajorStepBytes(const SharedLayout &layout, int64_t kBytes);
/// One wgmma of a group: the accumulator registers at `slots` (in the
/// instruction's register order), then `aOperands`, `bDesc` and the
/// accumulate flag `one`; the results replace those registers in `acc`.
void emitWarpgroupMmaInstruction(ConversionPatternRewriter &rewriter,
                                 Location loc, MutableArrayRef<Value> acc,
                                 ArrayRef<int64_t> slots, ValueRange aOperands,
                                 Value bDesc, Value one, StringRef text,
                                 StringRef constraints);

} // namespace tile
} // namespace mlir

#endif // TILE_LIB_CONVERSION_TILETOLLVM_DOTOPTOLLVM_H
