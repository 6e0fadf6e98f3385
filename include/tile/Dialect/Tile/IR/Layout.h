//===- Layout.h - How tile layouts place elements on threads ----*- C++ -*-===//
//
// A layout (a blocked encoding, or slices of one) says which elements of a
// tile each thread of a CTA holds. Code generation needs three facts about
// it, computed here without building any IR:
//  - the "slots": the elements one thread holds, in a fixed order (the
//    fastest dimension of the root layout varies fastest), each with a
//    static offset per dimension;
//  - the thread's base position per dimension, a function of its lane and
//    warp ids;
//  - how many distinct lanes and warps share a dimension (for reductions:
//    threads beyond those hold copies).
// An element's index along root dimension d is
//   (staticOffset(d, slot) + base(d)) mod shape(d),
// where base(d) = lane(d) x sizePerThread(d) + warp(d) x warpOffset(d).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_LAYOUT_H
#define TILE_DIALECT_TILE_IR_LAYOUT_H

#include "tile/Dialect/Tile/IR/Tile.h"

#include <optional>
#include <string>

namespace mlir {
namespace tile {

/// A tile layout flattened onto the blocked layout at the root of its slice
/// chain. Root dimensions removed by slices have extent 1 and hold one slot.
class LayoutView {
public:
  /// `type` must carry a blocked or slice encoding.
  explicit LayoutView(RankedTensorType type);

  BlockedEncodingAttr getRoot() const { return root; }
  unsigned getRootRank() const { return rootShape.size(); }
  unsigned getRank() const { return tensorToRoot.size(); }
  /// Root dimension of tensor dimension `d`.
  unsigned getRootDim(unsigned d) const { return tensorToRoot[d]; }
  int64_t getRootExtent(unsigned rd) const { return rootShape[rd]; }
  bool isSliced(unsigned rd) const { return sliced[rd]; }

  unsigned getSizePerThread(unsigned rd) const;
  unsigned getThreadsPerWarp(unsigned rd) const;
  unsigned getWarpsPerCTA(unsigned rd) const;
  /// Elements along `rd` covered by one CTA-wide repetition of the layout.
  int64_t getCTATile(unsigned rd) const;
  /// Slots along root dimension `rd`.
  int64_t getSlotsAlong(unsigned rd) const { return slotsAlong[rd]; }
  /// Elements each thread holds.
  int64_t getNumSlots() const { return numSlots; }
  /// Per-root-dimension slot coordinates of slot `slot`.
  SmallVector<int64_t> getSlotCoords(int64_t slot) const;
  int64_t getSlot(ArrayRef<int64_t> coords) const;
  /// Static part of the index along `rd` of the slot coordinate `coord`.
  int64_t getStaticOffset(unsigned rd, int64_t coord) const;
  /// Whether warps hold contiguous slices along `rd`: the root lists it in
  /// warpSlices and the tile covers the footprint there (a smaller tile
  /// holds copies, its warps taking turns as in plain layouts).
  bool hasWarpSlices(unsigned rd) const;
  /// Elements along `rd` between the positions of consecutive warps: a
  /// warp's run (sizePerThread x threadsPerWarp), or its whole slice
  /// (hasWarpSlices).
  int64_t getWarpOffset(unsigned rd) const;

  /// The root layout's fastest dimension (consecutive lanes), and the
  /// tensor dimension it is, if it was not sliced away. Runs of slots
  /// along it are consecutive elements: the unit of vector accesses.
  unsigned getFastRootDim() const { return root.getOrder()[0]; }
  std::optional<unsigned> getFastTensorDim() const;

  /// Multiplier of root dimension `rd`'s lane id in the lane number
  /// (lanes are numbered with the root's order, fastest first).
  unsigned getLaneStride(unsigned rd) const { return laneStride[rd]; }
  unsigned getWarpStride(unsigned rd) const { return warpStride[rd]; }
  /// Lanes (warps) along `rd` holding distinct elements; the others repeat
  /// them (lane l holds what lane l mod distinct holds, along rd).
  int64_t getDistinctLanes(unsigned rd) const;
  int64_t getDistinctWarps(unsigned rd) const;

private:
  BlockedEncodingAttr root;
  SmallVector<unsigned> tensorToRoot;
  SmallVector<int64_t> rootShape;
  SmallVector<bool> sliced;
  SmallVector<int64_t> slotsAlong;
  SmallVector<unsigned> laneStride, warpStride;
  int64_t numSlots = 1;
};

/// The blocked layout Tile picks for a tile of `shape` holding elements of
/// `elemBits` bits in a kernel of `numWarps` warps, with dimensions ordered
/// fastest first as `order` says and at most `maxVector` consecutive
/// elements per thread along the fastest dimension (16-byte accesses).
BlockedEncodingAttr getDefaultBlockedLayout(MLIRContext *ctx,
                                            ArrayRef<int64_t> shape,
                                            ArrayRef<unsigned> order,
                                            unsigned numWarps,
                                            unsigned maxVector);

/// Tensor cores (mma.sync m16n8k16 for f16/bf16, m16n8k8 for tf32) hold a
/// 16x8 accumulator tile as: lane 4g+t owns rows g and g+8, columns 2t and
/// 2t+1. That is a blocked layout: sizePerThread [1, 2], threadsPerWarp
/// [8, 4], warps over [M, N]; pairs of row repetitions form one 16-row
/// tile. Returns it for `dot` (with warps first along M), or null when the
/// dot cannot use tensor cores (types, precision, or shape).
///
/// With `warpgroupMma` (the target has Hopper's wgmma, see
/// targetHasWarpgroupMma), dots that can use wgmma (isWarpgroupMmaDot) get
/// all warps along M: each group of four consecutive warps then holds the
/// 64-row slices of the accumulator one wgmma instruction produces.
BlockedEncodingAttr getMmaLayout(DotOp dot, unsigned numWarps,
                                 bool warpgroupMma = false);
/// Whether `dot` has the shape, types and operand sources the wgmma
/// lowering handles: f16 or bf16 operands (or f32 with tf32 precision and
/// `a` computed: then `b` is stored transposed), `b` read from a shared
/// buffer (tile.local_load, or for f16/bf16 its transpose: see
/// getKMajorBRead) and `a` either read from one too or computed (then
/// held in registers in the accumulator's layout), an f32 accumulator of
/// 16 x numWarps x R rows (R >= 1) and at most 256 columns, four warps per
/// warpgroup, and rows of the shared operands whose bytes fill whole
/// swizzle rows (32, 64 or a multiple of 128).
bool isWarpgroupMmaDot(DotOp dot, unsigned numWarps);
/// The same given where `a` comes from and whether `b` is read K-major:
/// types and shapes only.
bool isWarpgroupMmaShape(DotOp dot, unsigned numWarps, bool aFromShared,
                         bool kMajorB = false);
/// Whether `dot` takes Hopper's wgmma with its columns split between the
/// warpgroups: f16/bf16 operands both read from shared buffers
/// (tile.local_load; `b` row-major), an f32 accumulator of 64 x R rows
/// and numWarps / 4 (at least 2) column ranges of at most 256, each a
/// multiple of 64 (whole 128-byte swizzled chunks of `b`), where the
/// plain layout (all warps along M) does not fit. A warpgroup then holds
/// all rows of its column range: the layout of
/// getColumnSplitWarpgroupMmaLayout.
bool isColumnSplitWarpgroupMmaDot(DotOp dot, unsigned numWarps);
/// The same from types and shapes only.
bool isColumnSplitWarpgroupMmaShape(DotOp dot, unsigned numWarps);
/// The accumulator layout of such dots: the mma layout with 4 warps along
/// M and the warpgroups along N, warps numbered along M first (a
/// warpgroup is four consecutive warps) and holding contiguous column
/// slices (warpOrder [0, 1], warpSlices [1]).
BlockedEncodingAttr getColumnSplitWarpgroupMmaLayout(MLIRContext *ctx,
                                                     unsigned numWarps);
/// Whether `layout` is that layout for `numWarps` warps.
bool isColumnSplitWarpgroupMmaLayout(Attribute layout, unsigned numWarps);
/// For a 16-bit or tf32 dot whose `b` is `tile.trans %read order = [1, 0]`
/// (read only as the `b` of dots) of a tile.local_load: that read. The
/// buffer's rows are then
/// b's columns with k contiguous, which wgmma reads as a K-major `b` (K^T
/// of Q K^T, K's block as copied).
LocalLoadOp getKMajorBRead(DotOp dot);
/// Whether code for `chip` may use wgmma (sm_90a: the arch-specific
/// feature set of Hopper).
bool targetHasWarpgroupMma(StringRef chip);
/// Whether Tile compiles for `chip`: sm_80 and newer, as LLVM's NVPTX
/// backend names them (sm_80, sm_86, ..., sm_90a, sm_100, ...). The empty
/// string is no chip.
bool isSupportedChip(StringRef chip);
/// The chips isSupportedChip accepts, for messages.
StringRef getSupportedChipList();
/// The lowest PTX ISA version, times ten (8.8 is 88), that knows a
/// supported `chip`; 0 for other chips.
unsigned getMinimumPtxVersion(StringRef chip);
/// The PTX ISA version (times ten) Tile emits for `chip` by default.
unsigned getDefaultPtxVersion(StringRef chip);
/// Why Tile cannot compile for `chip` with PTX `features` (empty: the
/// chip's default; otherwise "+ptxNN"), or "" when it can. LLVM's backend
/// aborts on chips and PTX versions it does not know, so targets are
/// checked before they reach it.
std::string verifyTarget(StringRef chip, StringRef features);
/// Whether `layout` is such a tensor-core accumulator layout.
bool isMmaLayout(Attribute layout);

/// The accumulator layout of a tf32 dot computed transposed by wgmma,
/// O^T = B^T A^T, with both operands read from shared buffers: `a` (K-major
/// as tile blocks are, so its buffer is wgmma's B operand as stored) and
/// `b` read into registers as wgmma's A operand, which tf32 cannot take
/// MN-major from shared memory. wgmma's M runs along the accumulator's
/// columns and N along its rows, so a thread holds 2 x 2 squares: rows
/// 8j + 2 (lane % 4) + {0, 1} and columns 16 w + 2 (lane / 4) + {0, 1}
/// (+ 16 x numWarps per repetition): sizePerThread [2, 2], threadsPerWarp
/// [4, 8], warps along the columns, rows fastest. A column pair is one
/// 8-byte read of `b`'s row-major stage (wgmma rows g and g + 8 of a warp
/// are columns 2g and 2g + 1). Null unless the target has wgmma and `dot`
/// fits (isTransposedWgmmaShape).
BlockedEncodingAttr getTransposedWgmmaLayout(DotOp dot, unsigned numWarps,
                                             bool warpgroupMma);
/// Whether `dot` can be computed transposed by wgmma: f32 operands with
/// tf32 precision, both read from shared buffers (tile.local_load), at
/// most 256 rows (wgmma's N) in groups of 8, columns in groups of
/// 16 x numWarps (a 64-column slice per warpgroup), K in steps of 8 whose
/// rows of `a` fill whole swizzle rows, four warps per warpgroup.
bool isTransposedWgmmaShape(DotOp dot, unsigned numWarps);
/// Whether `layout` is that transposed accumulator layout.
bool isTransposedWgmmaLayout(Attribute layout);

/// The accumulator layout of a dot on the FMA units (f32 accumulators of
/// dots that getMmaLayout leaves alone, such as f32 with IEEE precision):
/// sizePerThread [4, 4], threadsPerWarp [4, 8], so that a thread holds
/// runs of 4 consecutive rows and 4 consecutive columns, each run one
/// 16-byte shared load per k from a staged `a`^T and `b` (see
/// DotOpToLLVM.cpp), and the 8 lanes along N read 128 consecutive bytes.
/// Warps are split over [M, N] to minimize the loads per k (row runs plus
/// column runs per thread). Null when the accumulator's shape is not a
/// multiple of the warp grid's 16 x 32 tiles.
BlockedEncodingAttr getFmaLayout(DotOp dot, unsigned numWarps);
/// Whether `layout` is such an FMA accumulator layout.
bool isFmaLayout(Attribute layout);

/// `type` with its encoding replaced by `layout`.
RankedTensorType withLayout(RankedTensorType type, Attribute layout);

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_IR_LAYOUT_H
