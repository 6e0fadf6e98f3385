//===- TileToLLVM.h - Lower laid-out tile kernels to LLVM/NVVM --*- C++ -*-===//
//
// After layout assignment every tile has a thread layout, so each thread's
// share of a tile is a fixed list of scalars ("slots", see Layout.h). The
// conversion replaces each tile value by its slots (a 1:N type conversion),
// each tile op by per-thread scalar code (LLVM, NVVM, arith, math, scf),
// and data exchanges between threads by warp shuffles and shared memory.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETOLLVM_TILETOLLVM_H
#define TILE_CONVERSION_TILETOLLVM_TILETOLLVM_H

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir {
namespace tile {

/// Converts `!tile.ptr<T>` to `!llvm.ptr<1>`, a laid-out tile to one value
/// per slot, and a block pointer to (base, shape..., strides...,
/// offsets...). Other types are unchanged.
class TileTypeConverter : public TypeConverter {
public:
  explicit TileTypeConverter(MLIRContext *ctx);
};

/// How a load/store accesses memory, chosen before the conversion from the
/// axis analysis: `width` consecutive slots form one vector access; when
/// the mask is not provably uniform over a vector, each vector checks that
/// all its lanes are enabled and otherwise falls back to element accesses.
struct VectorAccess {
  unsigned width = 1;
  bool maskUniform = true;
};
using VectorWidthMap = llvm::DenseMap<Operation *, VectorAccess>;

void populateElementwiseOpToLLVMPatterns(TileTypeConverter &converter,
                                         RewritePatternSet &patterns);
void populateViewOpToLLVMPatterns(TileTypeConverter &converter,
                                  RewritePatternSet &patterns);
void populateMemoryOpToLLVMPatterns(TileTypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    const VectorWidthMap &vectorWidths);
void populateClusterOpToLLVMPatterns(TileTypeConverter &converter,
                                     RewritePatternSet &patterns);
/// Brackets a kernel that uses cluster ops with the exchange protocol's
/// first arrival (at entry) and last wait (before each return); see
/// ClusterOpToLLVM.cpp.
void addClusterExchangeBoundaries(func::FuncOp kernel);
/// tile.atomic_add and tile.wait_at_least (GridSyncOpToLLVM.cpp).
void populateGridSyncOpToLLVMPatterns(TileTypeConverter &converter,
                                      RewritePatternSet &patterns);
void populateReduceOpToLLVMPatterns(TileTypeConverter &converter,
                                    RewritePatternSet &patterns);
void populateDotOpToLLVMPatterns(TileTypeConverter &converter,
                                 RewritePatternSet &patterns);
void populateAsyncCopyOpToLLVMPatterns(TileTypeConverter &converter,
                                       RewritePatternSet &patterns);
void populateTmaOpToLLVMPatterns(TileTypeConverter &converter,
                                 RewritePatternSet &patterns);

/// Name of the dynamic shared-memory array every kernel addresses, and of
/// the kernel attribute recording how many bytes of it the kernel needs.
constexpr llvm::StringLiteral kSharedMemoryName = "tile_smem";
constexpr llvm::StringLiteral kSharedBytesAttr = "tile.shared_bytes";
/// Byte offset of a tile.alloc_shared buffer in that array (set by the pass
/// before the patterns run).
constexpr llvm::StringLiteral kSharedOffsetAttr = "tile.shared_offset";
/// Set by the pass on a tile.alloc_shared whose stages a wgmma reads: the
/// bytes of its swizzled rows (32, 64 or 128) and, for an `a` operand, the
/// warps along M of the dot, whose rows the buffer stores in wgmma order
/// (see SharedLayout in Utility.h).
constexpr llvm::StringLiteral kSwizzleBytesAttr = "tile.swizzle_bytes";
constexpr llvm::StringLiteral kMmaRowWarpsAttr = "tile.mma_row_warps";
/// On such a buffer: stored transposed (K-major, tf32 `b`).
constexpr llvm::StringLiteral kKMajorAttr = "tile.k_major";
/// Set by the pass on the tile.local_store ops that fill the `a` buffer of
/// a tf32 dot computed transposed (wgmma reads it as stored): they round
/// the values to tf32 as the dot's inputs are.
constexpr llvm::StringLiteral kRoundTF32Attr = "tile.round_tf32";
/// Set by the pass on the `a` buffer of tf32x3 dots computed transposed:
/// the buffer holds each value twice, as its tf32 part (hi, where it is
/// stored) and its rounded remainder (lo, SharedLayout::getLowPartOffset
/// bytes on), which the buffer's stores write and the dots read as two
/// wgmma B operands.
constexpr llvm::StringLiteral kSplitTF32Attr = "tile.split_tf32";
/// Set by the pass on dots it lowers to wgmma, and on kernels holding one.
constexpr llvm::StringLiteral kWarpgroupMmaAttr = "tile.wgmma";
/// On such a dot: how many wgmma groups (its own) it leaves in flight.
constexpr llvm::StringLiteral kWarpgroupMmaPendingAttr = "tile.wgmma_pending";
/// Set by tile-pipeline-loops on loops whose stages stay untouched for one
/// iteration after their dots read them.
constexpr llvm::StringLiteral kMmaInFlightAttr =
    TileDialect::getMmaInFlightAttrName();

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETOLLVM_TILETOLLVM_H
