//===- Layout.cpp - How tile layouts place elements on threads ------------===//

#include "tile/Dialect/Tile/IR/Layout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

LayoutView::LayoutView(RankedTensorType type) {
  ArrayRef<int64_t> shape = type.getShape();
  Attribute layout = type.getEncoding();
  // Walk down the slice chain, recording which root dimensions remain.
  SmallVector<unsigned> removed; // root-level dims removed, outermost last
  SmallVector<Attribute> chain;
  while (auto slice = dyn_cast_or_null<SliceEncodingAttr>(layout)) {
    chain.push_back(slice);
    layout = slice.getParent();
  }
  root = cast<BlockedEncodingAttr>(layout);
  unsigned rootRank = root.getRank();
  // Map tensor dims to root dims: start from the root's dims and remove the
  // sliced dims from the innermost slice (closest to the root) outwards.
  SmallVector<unsigned> dims;
  for (unsigned d = 0; d < rootRank; ++d)
    dims.push_back(d);
  sliced.assign(rootRank, false);
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    unsigned dim = cast<SliceEncodingAttr>(*it).getDim();
    sliced[dims[dim]] = true;
    dims.erase(dims.begin() + dim);
  }
  tensorToRoot = dims;
  rootShape.assign(rootRank, 1);
  for (auto [d, rd] : llvm::enumerate(tensorToRoot))
    rootShape[rd] = shape[d];

  slotsAlong.resize(rootRank);
  numSlots = 1;
  for (unsigned rd = 0; rd < rootRank; ++rd) {
    int64_t reps = std::max<int64_t>(1, rootShape[rd] / getCTATile(rd));
    slotsAlong[rd] = sliced[rd] ? 1 : getSizePerThread(rd) * reps;
    numSlots *= slotsAlong[rd];
  }
  laneStride.resize(rootRank);
  warpStride.resize(rootRank);
  unsigned lane = 1, warp = 1;
  for (unsigned rd : root.getOrder()) {
    laneStride[rd] = lane;
    lane *= getThreadsPerWarp(rd);
  }
  for (unsigned rd : root.getWarpOrderOrDefault()) {
    warpStride[rd] = warp;
    warp *= getWarpsPerCTA(rd);
  }
}

unsigned LayoutView::getSizePerThread(unsigned rd) const {
  return root.getSizePerThread()[rd];
}
unsigned LayoutView::getThreadsPerWarp(unsigned rd) const {
  return root.getThreadsPerWarp()[rd];
}
unsigned LayoutView::getWarpsPerCTA(unsigned rd) const {
  return root.getWarpsPerCTA()[rd];
}
int64_t LayoutView::getCTATile(unsigned rd) const {
  return (int64_t)getSizePerThread(rd) * getThreadsPerWarp(rd) *
         getWarpsPerCTA(rd);
}

SmallVector<int64_t> LayoutView::getSlotCoords(int64_t slot) const {
  SmallVector<int64_t> coords(getRootRank(), 0);
  for (unsigned rd : root.getOrder()) {
    coords[rd] = slot % slotsAlong[rd];
    slot /= slotsAlong[rd];
  }
  return coords;
}

int64_t LayoutView::getSlot(ArrayRef<int64_t> coords) const {
  int64_t slot = 0, stride = 1;
  for (unsigned rd : root.getOrder()) {
    slot += coords[rd] * stride;
    stride *= slotsAlong[rd];
  }
  return slot;
}

bool LayoutView::hasWarpSlices(unsigned rd) const {
  // (Power-of-two extents: at least the footprint is a multiple of it.)
  return root.hasWarpSlices(rd) && !sliced[rd] &&
         rootShape[rd] >= getCTATile(rd);
}

int64_t LayoutView::getStaticOffset(unsigned rd, int64_t coord) const {
  unsigned spt = getSizePerThread(rd);
  int64_t repetition =
      hasWarpSlices(rd) ? (int64_t)spt * getThreadsPerWarp(rd) : getCTATile(rd);
  return (coord / spt) * repetition + coord % spt;
}

int64_t LayoutView::getWarpOffset(unsigned rd) const {
  if (hasWarpSlices(rd))
    return rootShape[rd] / getWarpsPerCTA(rd);
  return (int64_t)getSizePerThread(rd) * getThreadsPerWarp(rd);
}

std::optional<unsigned> LayoutView::getFastTensorDim() const {
  for (unsigned d = 0; d < getRank(); ++d)
    if (tensorToRoot[d] == getFastRootDim())
      return d;
  return std::nullopt;
}

int64_t LayoutView::getDistinctLanes(unsigned rd) const {
  int64_t spt = getSizePerThread(rd);
  if (rootShape[rd] < spt)
    return 1;
  return std::min<int64_t>(getThreadsPerWarp(rd), rootShape[rd] / spt);
}

int64_t LayoutView::getDistinctWarps(unsigned rd) const {
  int64_t perWarp = (int64_t)getSizePerThread(rd) * getThreadsPerWarp(rd);
  if (rootShape[rd] < perWarp)
    return 1;
  return std::min<int64_t>(getWarpsPerCTA(rd), rootShape[rd] / perWarp);
}

BlockedEncodingAttr mlir::tile::getDefaultBlockedLayout(
    MLIRContext *ctx, ArrayRef<int64_t> shape, ArrayRef<unsigned> order,
    unsigned numWarps, unsigned maxVector) {
  unsigned rank = shape.size();
  SmallVector<unsigned> spt(rank, 1), tpw(rank, 1), wpc(rank, 1);
  // Remaining extent of each dim still to be covered.
  SmallVector<int64_t> remaining(shape);
  unsigned fast = order[0];
  spt[fast] = (unsigned)std::max<int64_t>(
      1, std::min<int64_t>(maxVector, remaining[fast]));
  remaining[fast] /= spt[fast];
  // Lanes go to the fastest dimensions first so that a warp's accesses are
  // contiguous; leftover lanes (tiny tiles) replicate along the fastest.
  unsigned lanes = 32;
  for (unsigned d : order) {
    unsigned take = (unsigned)std::min<int64_t>(lanes, remaining[d]);
    take = std::max(take, 1u);
    tpw[d] = take;
    lanes /= take;
    remaining[d] /= take;
  }
  tpw[fast] *= lanes;
  // Warps go to the slowest dimensions first: rows of a tile are then
  // reduced within one warp (shuffles only), while each warp's accesses
  // stay contiguous along the fastest dimension. Leftover warps (tiny
  // tiles) replicate along the fastest dimension.
  unsigned warps = numWarps;
  for (unsigned d : llvm::reverse(order)) {
    unsigned take = (unsigned)std::min<int64_t>(warps, remaining[d]);
    take = std::max(take, 1u);
    wpc[d] = take;
    warps /= take;
    remaining[d] /= take;
  }
  wpc[fast] *= warps;
  return BlockedEncodingAttr::get(ctx, spt, tpw, wpc, order);
}

RankedTensorType mlir::tile::withLayout(RankedTensorType type,
                                        Attribute layout) {
  return RankedTensorType::get(type.getShape(), type.getElementType(),
                               layout);
}

bool mlir::tile::targetHasWarpgroupMma(StringRef chip) {
  return chip == "sm_90a";
}

namespace {
struct ChipInfo {
  llvm::StringLiteral name;
  /// The lowest PTX ISA version (x10) that knows the chip.
  unsigned minPtx;
  /// The ISA Tile emits for it by default (x10): 8.0 up to Hopper, the
  /// lowest that knows the chip beyond.
  unsigned defaultPtx;
};
} // namespace

/// Tile needs Ampere's instructions (cp.async, bf16 mma.sync) at least.
static constexpr ChipInfo kChips[] = {
    {"sm_80", 70, 80},   {"sm_86", 71, 80},   {"sm_87", 74, 80},
    {"sm_88", 90, 90},   {"sm_89", 78, 80},   {"sm_90", 78, 80},
    {"sm_90a", 80, 80},  {"sm_100", 86, 87},  {"sm_100a", 86, 87},
    {"sm_101", 86, 87},  {"sm_101a", 86, 87}, {"sm_103", 88, 88},
    {"sm_103a", 88, 88}, {"sm_120", 87, 87},  {"sm_120a", 87, 87},
    {"sm_121", 88, 88},  {"sm_121a", 88, 88}};

static const ChipInfo *lookupChip(StringRef chip) {
  for (const ChipInfo &info : kChips)
    if (info.name == chip)
      return &info;
  return nullptr;
}

bool mlir::tile::isSupportedChip(StringRef chip) {
  return lookupChip(chip) != nullptr;
}

StringRef mlir::tile::getSupportedChipList() {
  return "sm_80, sm_86, sm_87, sm_88, sm_89, sm_90, sm_90a, sm_100, "
         "sm_100a, sm_101, sm_101a, sm_103, sm_103a, sm_120, sm_120a, "
         "sm_121, sm_121a";
}

unsigned mlir::tile::getMinimumPtxVersion(StringRef chip) {
  const ChipInfo *info = lookupChip(chip);
  return info ? info->minPtx : 0;
}

unsigned mlir::tile::getDefaultPtxVersion(StringRef chip) {
  const ChipInfo *info = lookupChip(chip);
  return info ? info->defaultPtx : 80;
}

/// Swizzled shared-memory rows hold 32, 64 or 128 bytes; longer block rows
/// are split into 128-byte column chunks.
static bool fillsSwizzleRows(int64_t bytes) {
  return bytes == 32 || bytes == 64 || bytes % 128 == 0;
}

LocalLoadOp mlir::tile::getKMajorBRead(DotOp dot) {
  auto trans = dot.getB().getDefiningOp<TransOp>();
  auto readAsB = [&](Operation *user) {
    auto d = dyn_cast<DotOp>(user);
    return d && d.getB() == trans.getResult() && d.getA() != trans.getResult();
  };
  if (!trans || !llvm::all_of(trans->getUsers(), readAsB) ||
      trans.getOrder() != ArrayRef<int32_t>{1, 0} ||
      !(trans.getType().getElementType().isF16() ||
        trans.getType().getElementType().isBF16() ||
        (trans.getType().getElementType().isF32() &&
         dot.getPrecision() == InputPrecision::TF32)))
    return nullptr;
  return trans.getSrc().getDefiningOp<LocalLoadOp>();
}

bool mlir::tile::isWarpgroupMmaDot(DotOp dot, unsigned numWarps) {
  bool kMajorB = (bool)getKMajorBRead(dot);
  return (kMajorB || dot.getB().getDefiningOp<LocalLoadOp>()) &&
         isWarpgroupMmaShape(dot, numWarps,
                             (bool)dot.getA().getDefiningOp<LocalLoadOp>(),
                             kMajorB);
}

bool mlir::tile::isWarpgroupMmaShape(DotOp dot, unsigned numWarps,
                                     bool aFromShared, bool kMajorB) {
  RankedTensorType a = dot.getA().getType(), c = dot.getType();
  Type elem = a.getElementType();
  if (!c.getElementType().isF32())
    return false;
  int64_t m = c.getDimSize(0), n = c.getDimSize(1), k = a.getDimSize(1);
  if (numWarps % 4 || m % (16 * numWarps) || n % 8 || n > 256)
    return false;
  if (elem.isF16() || elem.isBF16())
    return k % 16 == 0 && (!aFromShared || fillsSwizzleRows(k * 2)) &&
           fillsSwizzleRows((kMajorB ? k : n) * 2);
  // tf32 (one rounding, not tf32x3): `a` from registers only, `b` stored
  // K-major (transposed into its buffer: wgmma reads 32-bit operands from
  // shared memory only K-major) in rows of K x 4 bytes.
  return elem.isF32() && dot.getPrecision() == InputPrecision::TF32 &&
         !aFromShared && k % 8 == 0 && fillsSwizzleRows(k * 4);
}

bool mlir::tile::isColumnSplitWarpgroupMmaDot(DotOp dot, unsigned numWarps) {
  return dot.getA().getDefiningOp<LocalLoadOp>() &&
         dot.getB().getDefiningOp<LocalLoadOp>() &&
         isColumnSplitWarpgroupMmaShape(dot, numWarps);
}

bool mlir::tile::isColumnSplitWarpgroupMmaShape(DotOp dot, unsigned numWarps) {
  RankedTensorType a = dot.getA().getType(), c = dot.getType();
  Type elem = a.getElementType();
  if (!c.getElementType().isF32() || !(elem.isF16() || elem.isBF16()) ||
      numWarps % 4 || numWarps < 8)
    return false;
  int64_t m = c.getDimSize(0), n = c.getDimSize(1), k = a.getDimSize(1);
  int64_t groups = numWarps / 4, columns = n / groups;
  // Each warpgroup's range of `b` starts at a whole swizzled column chunk
  // (128 bytes), and the dot is not one the plain layout takes.
  return m % 64 == 0 && n % groups == 0 && columns <= 256 &&
         columns % 64 == 0 && k % 16 == 0 && fillsSwizzleRows(k * 2) &&
         !(m % (16 * numWarps) == 0 && n <= 256);
}

BlockedEncodingAttr
mlir::tile::getColumnSplitWarpgroupMmaLayout(MLIRContext *ctx,
                                             unsigned numWarps) {
  return BlockedEncodingAttr::get(ctx, {1, 2}, {8, 4}, {4, numWarps / 4},
                                  {1, 0}, {0, 1}, {1});
}

bool mlir::tile::isColumnSplitWarpgroupMmaLayout(Attribute layout,
                                                 unsigned numWarps) {
  auto b = dyn_cast_or_null<BlockedEncodingAttr>(layout);
  return b && b == getColumnSplitWarpgroupMmaLayout(b.getContext(), numWarps);
}

BlockedEncodingAttr mlir::tile::getMmaLayout(DotOp dot, unsigned numWarps,
                                             bool warpgroupMma) {
  RankedTensorType a = dot.getA().getType(), c = dot.getType();
  Type elem = a.getElementType();
  int64_t kStep;
  if (elem.isF16() || elem.isBF16())
    kStep = 16;
  else if (elem.isF32() && dot.getPrecision() != InputPrecision::IEEE)
    kStep = 8;
  else
    return nullptr; // f32 IEEE products stay on the FMA units
  if (!c.getElementType().isF32())
    return nullptr;
  int64_t m = c.getDimSize(0), n = c.getDimSize(1), k = a.getDimSize(1);
  if (m % 16 || n % 8 || k % kStep)
    return nullptr;
  unsigned wm = (unsigned)std::min<int64_t>(numWarps, m / 16);
  MLIRContext *ctx = dot.getContext();
  if (warpgroupMma && isWarpgroupMmaDot(dot, numWarps))
    return BlockedEncodingAttr::get(ctx, {1, 2}, {8, 4}, {numWarps, 1}, {1, 0});
  if (warpgroupMma && isColumnSplitWarpgroupMmaDot(dot, numWarps))
    return getColumnSplitWarpgroupMmaLayout(ctx, numWarps);
  // When both operands are read from shared buffers (a software-pipelined
  // matmul), every warp reads its rows of `a` and its columns of `b` from
  // shared memory: the warp grid whose warp tile has the smallest
  // perimeter (rows + columns) reads the least. Otherwise all warps go
  // along M, which keeps `a` in registers where it has the accumulator's
  // layout (see DotOpToLLVM.cpp).
  if (dot.getA().getDefiningOp<LocalLoadOp>() &&
      dot.getB().getDefiningOp<LocalLoadOp>()) {
    int64_t best = -1;
    for (unsigned cand = 1; cand <= numWarps; cand *= 2) {
      unsigned candN = numWarps / cand;
      if (m / 16 < (int64_t)cand || n / 8 < (int64_t)candN)
        continue;
      int64_t perimeter = m / cand + n / candN;
      if (best < 0 || perimeter < best) {
        best = perimeter;
        wm = cand;
      }
    }
  }
  unsigned wn = numWarps / wm;
  if (n < 8 * (int64_t)wn)
    return nullptr;
  return BlockedEncodingAttr::get(ctx, {1, 2}, {8, 4}, {wm, wn}, {1, 0});
}

bool mlir::tile::isTransposedWgmmaShape(DotOp dot, unsigned numWarps) {
  RankedTensorType a = dot.getA().getType(), b = dot.getB().getType(),
                   c = dot.getType();
  if (!a.getElementType().isF32() || !b.getElementType().isF32() ||
      !c.getElementType().isF32() ||
      (dot.getPrecision() != InputPrecision::TF32 &&
       dot.getPrecision() != InputPrecision::TF32x3) ||
      !dot.getA().getDefiningOp<LocalLoadOp>() ||
      !dot.getB().getDefiningOp<LocalLoadOp>())
    return false;
  int64_t m = c.getDimSize(0), n = c.getDimSize(1), k = a.getDimSize(1);
  return numWarps % 4 == 0 && m % 8 == 0 && m <= 256 &&
         n % (16 * numWarps) == 0 && k % 8 == 0 && fillsSwizzleRows(k * 4);
}

BlockedEncodingAttr mlir::tile::getTransposedWgmmaLayout(DotOp dot,
                                                         unsigned numWarps,
                                                         bool warpgroupMma) {
  if (!warpgroupMma || !isTransposedWgmmaShape(dot, numWarps))
    return nullptr;
  return BlockedEncodingAttr::get(dot.getContext(), {2, 2}, {4, 8},
                                  {1, numWarps}, {0, 1});
}

bool mlir::tile::isTransposedWgmmaLayout(Attribute layout) {
  auto b = dyn_cast_or_null<BlockedEncodingAttr>(layout);
  return b && b.hasDefaultWarpPlacement() && b.getRank() == 2 &&
         b.getSizePerThread() == ArrayRef<unsigned>{2, 2} &&
         b.getThreadsPerWarp() == ArrayRef<unsigned>{4, 8} &&
         b.getWarpsPerCTA()[0] == 1 && b.getOrder() == ArrayRef<unsigned>{0, 1};
}

bool mlir::tile::isMmaLayout(Attribute layout) {
  auto b = dyn_cast_or_null<BlockedEncodingAttr>(layout);
  return b && b.hasDefaultWarpPlacement() && b.getRank() == 2 &&
         b.getSizePerThread() == ArrayRef<unsigned>{1, 2} &&
         b.getThreadsPerWarp() == ArrayRef<unsigned>{8, 4} &&
         b.getOrder() == ArrayRef<unsigned>{1, 0};
}

BlockedEncodingAttr mlir::tile::getFmaLayout(DotOp dot, unsigned numWarps) {
  RankedTensorType c = dot.getType();
  if (c.getRank() != 2 || !c.getElementType().isF32())
    return nullptr;
  int64_t m = c.getDimSize(0), n = c.getDimSize(1);
  int64_t best = -1;
  unsigned bestWm = 0;
  for (unsigned wm = 1; wm <= numWarps; wm *= 2) {
    unsigned wn = numWarps / wm;
    if (m % (16 * wm) || n % (32 * wn))
      continue;
    // 16-byte loads per k: one per run of 4 rows and of 4 columns.
    int64_t loads = m / (16 * wm) + n / (32 * wn);
    if (best < 0 || loads < best) {
      best = loads;
      bestWm = wm;
    }
  }
  if (best < 0)
    return nullptr;
  return BlockedEncodingAttr::get(dot.getContext(), {4, 4}, {4, 8},
                                  {bestWm, numWarps / bestWm}, {1, 0});
}

bool mlir::tile::isFmaLayout(Attribute layout) {
  auto b = dyn_cast_or_null<BlockedEncodingAttr>(layout);
  return b && b.hasDefaultWarpPlacement() && b.getRank() == 2 &&
         b.getSizePerThread() == ArrayRef<unsigned>{4, 4} &&
         b.getThreadsPerWarp() == ArrayRef<unsigned>{4, 8} &&
         b.getOrder() == ArrayRef<unsigned>{1, 0};
}

std::string mlir::tile::verifyTarget(StringRef chip, StringRef features) {
  if (!isSupportedChip(chip))
    return ("unknown target chip '" + chip + "'; Tile compiles for " +
            getSupportedChipList())
        .str();
  if (features.empty())
    return "";
  // One "+ptxNN" of an ISA version LLVM knows, new enough for the chip.
  static constexpr unsigned kKnownPtx[] = {60, 61, 62, 63, 64, 65, 70, 71, 72,
                                           73, 74, 75, 76, 77, 78, 80, 81, 82,
                                           83, 84, 85, 86, 87, 88, 90};
  StringRef text = features;
  unsigned version = 0;
  if (!text.consume_front("+ptx") || text.getAsInteger(10, version) ||
      !llvm::is_contained(kKnownPtx, version))
    return ("unknown PTX features '" + features +
            "'; expected +ptxNN, a PTX ISA version from +ptx60 to +ptx90")
        .str();
  unsigned minimum = getMinimumPtxVersion(chip);
  if (version < minimum)
    return ("PTX features '" + features + "' are too old for " + chip +
            ", which needs +ptx" + llvm::Twine(minimum) + " or later")
        .str();
  return "";
}
