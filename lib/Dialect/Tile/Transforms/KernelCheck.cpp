//===- KernelCheck.cpp - Check kernels against program limits -------------===//
//
// A GPU program instance has fixed resources: at most 1024 threads, and a
// register file of 64K 32-bit registers that its threads share: at most 255
// each, fewer when a CTA has many threads or several CTAs must fit on one
// SM. Beyond that the compiler spills registers to local memory. Rejecting
// kernels that cannot fit here, with the kernel's name and the numbers,
// beats an opaque launch failure; warning about kernels close to spilling
// beats a silent slowdown.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/Tile/IR/ElementwiseOps.h"
#include "tile/Dialect/Tile/IR/Layout.h"
#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Analysis/Liveness.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEKERNELCHECK
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

/// Registers every thread holds besides its tiles: its thread and program
/// ids, the kernel's pointers and sizes, loop counters and the
/// temporaries of address arithmetic.
static constexpr int64_t kBaseRegisters = 12;
/// Predicate registers of a thread (P0-P6): the first mask bits it holds
/// take no general registers.
static constexpr int64_t kPredicateRegisters = 7;
/// Scratch registers of an IEEE f32 division (div.rn.f32 has a slow path
/// for operands it cannot handle by its reciprocal iteration).
static constexpr int64_t kDivisionRegisters = 8;
/// Registers of each 16-byte chunk a thread copies per stage of a cp.async
/// pipeline: its 64-bit global address, its shared address and the size
/// that zero-fills what lies outside the array.
static constexpr int64_t kAsyncCopyChunkRegisters = 4;
/// The register file of an SM, in 32-bit registers.
static constexpr int64_t kRegisterFileSize = 65536;
/// Registers one thread may use at most, whatever the occupancy.
static constexpr int64_t kMaxThreadRegisters = 255;

/// Registers one thread may use when `programs` CTAs of `threads` threads
/// must fit on an SM at once: its share of the register file, allocated in
/// units of 8, and at most kMaxThreadRegisters.
static int64_t getThreadRegisterLimit(int64_t threads, int64_t programs) {
  int64_t share = kRegisterFileSize / (threads * programs);
  return std::min(kMaxThreadRegisters, share / 8 * 8);
}

/// 32-bit registers one thread needs to hold its share of `type` (a tile
/// spread evenly over `threads` threads); 0 for scalars and pointer tiles.
static int64_t registersPerThread(Type type, int64_t threads) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return 0;
  Type elem = tensor.getElementType();
  if (!elem.isIntOrIndexOrFloat())
    return 0;
  int64_t bits = elem.isIndex() ? 64 : elem.getIntOrFloatBitWidth();
  int64_t perThread = llvm::divideCeil(tensor.getNumElements(), threads);
  return llvm::divideCeil(perThread * std::max<int64_t>(bits, 32), 32);
}

/// Ops whose integer tiles are index arithmetic when their tile operands
/// are: ranges, splats of scalars, shape changes, integer arithmetic.
static bool propagatesIndexArithmetic(Operation *op) {
  return isa<arith::ArithDialect>(op->getDialect()) ||
         isa<RangeOp, SplatOp, BroadcastOp, ExpandDimsOp, ReshapeOp, TransOp,
             ConvertLayoutOp, ProgramIdOp, NumProgramsOp>(op);
}

/// The integer tiles of `func` that are index arithmetic (offsets, masks,
/// computed from ranges, program ids and scalar arguments): like pointer
/// tiles, the backend computes them from the thread id where they are used.
/// Integer tiles read from memory, reduced, or computed from floats are data
/// and hold registers like float tiles. A loop-carried tile is index
/// arithmetic when its initial value is.
static llvm::DenseSet<Value> findIndexArithmetic(func::FuncOp func) {
  llvm::DenseSet<Value> index;
  auto isIndexOperand = [&](Value v) {
    return !isa<RankedTensorType>(v.getType()) || index.contains(v);
  };
  // Pre-order: dominance puts every operand's definition first, and a
  // loop's region arguments are classified before its body.
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      for (auto [init, arg, result] : llvm::zip(
               loop.getInitArgs(), loop.getRegionIterArgs(), loop.getResults()))
        if (isIndexOperand(init) && isa<RankedTensorType>(init.getType())) {
          index.insert(arg);
          index.insert(result);
        }
      return;
    }
    if (!propagatesIndexArithmetic(op) ||
        !llvm::all_of(op->getOperands(), isIndexOperand))
      return;
    for (Value result : op->getResults())
      if (auto tensor = dyn_cast<RankedTensorType>(result.getType());
          tensor && !isa<FloatType>(tensor.getElementType()))
        index.insert(result);
  });
  return index;
}

/// Splats (a splat constant or tile.splat) hold no registers of their own:
/// the lowering repeats the scalar, an immediate or one register.
static bool isSplat(Value v) {
  if (v.getDefiningOp<SplatOp>())
    return true;
  auto constant = v.getDefiningOp<arith::ConstantOp>();
  return constant && isa<SplatElementsAttr>(constant.getValue());
}

/// Whether `op` is a block load that tile-pipeline-loops or
/// tile-warp-specialize turns into copies into shared memory: in a loop of
/// a kernel with tile.num_stages >= 2, or >= 1 in a loop marked
/// tile.warp_specialize.
static bool isPipelinedBlockLoad(Operation *op, func::FuncOp func) {
  auto stages =
      func->getAttrOfType<IntegerAttr>(TileDialect::getNumStagesAttrName());
  if (!stages || !isa_and_nonnull<BlockLoadOp>(op))
    return false;
  auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
  if (!loop)
    return false;
  return stages.getInt() >= 2 ||
         (stages.getInt() >= 1 &&
          loop->hasAttr(TileDialect::getWarpSpecializeAttrName()));
}

/// Whether every use of `v` is a dot's `a` or `b` operand, directly or
/// through tile.trans and tile.reshape (which a read from shared memory
/// takes as a different addressing of the buffer).
static bool isOnlyDotOperand(Value v) {
  return !v.use_empty() && llvm::all_of(v.getUsers(), [&](Operation *user) {
    if (auto dot = dyn_cast<DotOp>(user))
      return dot.getAcc() != v;
    return isa<TransOp, ReshapeOp>(user) &&
           isOnlyDotOperand(user->getResult(0));
  });
}

/// Whether `v` is an operand of tensor-core dots only that the lowering
/// reads from shared memory rather than holding in registers: a
/// tile.local_load of a software-pipeline buffer, or a block load in a loop
/// of a kernel the tile-pipeline-loops or tile-warp-specialize pass will
/// stream through shared memory (tile.num_stages >= 2), which they turn
/// into one; or such a tile transposed or reshaped. Such tiles would
/// otherwise dominate the estimate of a large matmul tile (a 128x64 and a
/// 64x256 f16 operand are 48 registers per thread over 8 warps) although
/// they cost none.
static bool isReadFromSharedByDots(Value v, func::FuncOp func) {
  if (!isOnlyDotOperand(v))
    return false;
  Operation *def = v.getDefiningOp();
  while (isa_and_nonnull<TransOp, ReshapeOp>(def))
    def = def->getOperand(0).getDefiningOp();
  return isa_and_nonnull<LocalLoadOp>(def) || isPipelinedBlockLoad(def, func);
}

/// Whether the CUDA backend computes `op` with a long sequence of
/// instructions: a libdevice function or a rewrite into several ops.
static bool isMathFunction(Operation *op) {
  const ElementwiseOpInfo *info =
      lookupElementwiseOp(op->getName().getStringRef());
  return info && info->gpu != GpuLowering::Native;
}

/// The layout tile-assign-layouts gives `dot`'s accumulator, or null where
/// it takes a default blocked layout: the tensor cores' (wgmma's, all warps
/// along M, where the dot's shapes allow it: of the targets' layouts it
/// gives a thread the most distinct columns), or the FMA units' register
/// tiles.
static BlockedEncodingAttr getAccumulatorLayout(DotOp dot, unsigned numWarps,
                                                func::FuncOp func) {
  bool aShared = isReadFromSharedByDots(dot.getA(), func);
  bool bShared = isReadFromSharedByDots(dot.getB(), func);
  if (bShared && isWarpgroupMmaShape(dot, numWarps, aShared))
    return BlockedEncodingAttr::get(dot.getContext(), {1, 2}, {8, 4},
                                    {numWarps, 1}, {1, 0});
  if (BlockedEncodingAttr mma = getMmaLayout(dot, numWarps))
    return mma;
  return getFmaLayout(dot, numWarps);
}

/// Distinct positions along dimension `d` of `type` that one thread holds
/// in `layout` (repetitions of a layout wider than the tile hold copies).
static int64_t getPositionsAlong(BlockedEncodingAttr layout,
                                 RankedTensorType type, unsigned d) {
  int64_t perThread = layout.getSizePerThread()[d];
  int64_t ctaTile =
      perThread * layout.getThreadsPerWarp()[d] * layout.getWarpsPerCTA()[d];
  int64_t size = type.getDimSize(d);
  return std::min(size, perThread * std::max<int64_t>(1, size / ctaTile));
}

/// Dimensions fastest first, as default layouts order them.
static SmallVector<unsigned> getDefaultOrder(unsigned rank) {
  SmallVector<unsigned> order;
  for (unsigned d = rank; d-- > 0;)
    order.push_back(d);
  return order;
}

namespace {
/// The register estimate of one kernel: the most registers a thread holds
/// at any op, a base for its scalars (kBaseRegisters) plus the values live
/// there. Live ranges are those of mlir::Liveness (a value is live from its
/// definition, or the block's start, to its last use in the block, or the
/// block's end when it is live-out or the block is a loop body it is used
/// in), computed per block as intervals over the ops' positions, so that
/// the estimate takes time linear in the kernel's size. What a value holds:
///  - a data tile (floats, and integers that are not index arithmetic):
///    the thread's share of its elements, 32 bits at least each. In a
///    layout that repeats elements over threads, the thread's distinct
///    elements: tiles joined to a dot's accumulator (through elementwise
///    ops, broadcasts and loops) take its layout, the result of a
///    reduction holds the rows its source's default layout gives each
///    thread, and a broadcast holds its source's values;
///  - splats, and operands of tensor-core dots read from shared memory:
///    nothing (see isSplat, isReadFromSharedByDots);
///  - intermediates of elementwise chains (fused, see isFusedElementwise):
///    nothing;
///  - a mask (an i1 tile of index arithmetic) used by several ops: one
///    register per element from its first use to its last, beyond the
///    predicate registers; masks used once are computed where used;
///  - a tile of pointers, or a block pointer, held across the iterations of
///    a loop: its 64-bit addresses (see getAddressBases), or a block
///    pointer's base, offsets and strides, and the chunk addresses of its
///    asynchronous copies; nothing for a block pointer a loop marked
///    tile.warp_specialize streams (the producer warpgroup holds it);
///  - other index arithmetic and scalars: nothing beyond the base.
/// Some ops need registers only while they run (getScratchRegisters):
/// an FMA dot's operands of its unrolled k steps, the addresses of a
/// load's or store's accesses, a division's slow path, and a math
/// function's intermediates.
class RegisterEstimate {
public:
  RegisterEstimate(func::FuncOp func, int64_t threads)
      : func(func), threads(threads), liveness(func),
        index(findIndexArithmetic(func)), axisInfo(func) {
    findValuesHeldAcrossLoops();
    findLayouts();
  }

  /// Estimates every block; returns the peak and the op where it occurs.
  std::pair<int64_t, Operation *> run() {
    func.walk([&](Block *block) { estimateBlock(block); });
    return {kBaseRegisters + peak, peakOp};
  }

private:
  unsigned getNumWarps() const { return (unsigned)(threads / 32); }

  /// The representative of `v`'s layout class (`v` when it has none).
  Value getLayoutClass(Value v) const {
    return classes.contains(v) ? classes.getLeaderValue(v) : v;
  }

  bool isMask(Value v) const {
    auto tensor = dyn_cast<RankedTensorType>(v.getType());
    return tensor && tensor.getElementType().isInteger(1) && index.contains(v);
  }

  static bool isPointerTile(Value v) {
    auto tensor = dyn_cast<RankedTensorType>(v.getType());
    return tensor && isa<PointerType>(tensor.getElementType());
  }

  /// Pointer tiles and block pointers a loop carries or uses from outside:
  /// the backend keeps their addresses across the iterations.
  void findValuesHeldAcrossLoops() {
    func.walk([&](scf::ForOp loop) {
      Operation *yield = loop.getBody()->getTerminator();
      for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
        held.insert(arg);
        held.insert(yield->getOperand(i));
      }
      llvm::SetVector<Value> above;
      getUsedValuesDefinedAbove(loop.getRegion(), above);
      held.insert(above.begin(), above.end());
    });
  }

  /// Groups the tiles that tile-assign-layouts gives one layout (joined by
  /// elementwise ops, broadcasts, loops and dots' accumulators) and records
  /// the layouts that repeat elements over threads: dot accumulators', and
  /// the slices reductions produce.
  void findLayouts() {
    auto isTile = [](Value v) { return isa<RankedTensorType>(v.getType()); };
    auto join = [&](Value a, Value b) {
      if (isTile(a) && isTile(b))
        classes.unionSets(a, b);
    };
    SmallVector<std::pair<Value, BlockedEncodingAttr>> accumulators;
    func.walk([&](Operation *op) {
      for (Value result : op->getResults())
        if (isTile(result))
          classes.insert(result);
      if (auto dot = dyn_cast<DotOp>(op)) {
        join(dot.getAcc(), dot.getResult());
        if (BlockedEncodingAttr layout =
                getAccumulatorLayout(dot, getNumWarps(), func))
          accumulators.push_back({dot.getResult(), layout});
      } else if (auto broadcast = dyn_cast<BroadcastOp>(op)) {
        join(broadcast.getSrc(), broadcast.getResult());
      } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
        Operation *yield = loop.getBody()->getTerminator();
        for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
          join(loop.getInitArgs()[i], arg);
          join(arg, loop.getResult(i));
          join(arg, yield->getOperand(i));
        }
      } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
        for (auto [i, result] : llvm::enumerate(branch.getResults())) {
          join(result, branch.thenYield().getOperand(i));
          if (!branch.getElseRegion().empty())
            join(result, branch.elseYield().getOperand(i));
        }
      } else if (isa_and_nonnull<arith::ArithDialect, math::MathDialect>(
                     op->getDialect()) &&
                 !isa<arith::ConstantOp>(op)) {
        Value first;
        for (Value v :
             llvm::concat<Value>(op->getOperands(), op->getResults())) {
          if (!isTile(v))
            continue;
          if (first)
            join(first, v);
          else
            first = v;
        }
      }
    });
    for (auto [result, layout] : accumulators)
      accumulatorLayouts[classes.getLeaderValue(result)] = layout;
    func.walk([&](ReduceOp reduce) {
      if (!isTile(reduce.getResult()))
        return;
      RankedTensorType source = reduce.getSrc().getType();
      BlockedEncodingAttr layout = getLayout(reduce.getSrc());
      int64_t positions = 1;
      for (unsigned d = 0; d < source.getRank(); ++d)
        if (d != (unsigned)reduce.getAxis())
          positions *= getPositionsAlong(layout, source, d);
      sliceElements.try_emplace(classes.getLeaderValue(reduce.getResult()),
                                positions);
    });
  }

  /// The layout of tile `v`: its dot accumulator's, or the default blocked
  /// layout of 16-byte vectors.
  BlockedEncodingAttr getLayout(Value v) {
    auto tensor = cast<RankedTensorType>(v.getType());
    auto it = accumulatorLayouts.find(getLayoutClass(v));
    if (it != accumulatorLayouts.end() &&
        it->second.getRank() == tensor.getRank())
      return it->second;
    Type elem = tensor.getElementType();
    int64_t bits = elem.isIntOrFloat() ? elem.getIntOrFloatBitWidth() : 32;
    return getDefaultBlockedLayout(
        func.getContext(), tensor.getShape(), getDefaultOrder(tensor.getRank()),
        getNumWarps(), (unsigned)(128 / std::max<int64_t>(bits, 32)));
  }

  /// 32-bit registers one thread needs for the elements of tile `v` (see
  /// the class comment).
  int64_t getTileRegisters(Value v) {
    if (auto broadcast = v.getDefiningOp<BroadcastOp>())
      return getTileRegisters(broadcast.getSrc());
    auto tensor = dyn_cast<RankedTensorType>(v.getType());
    if (!tensor || !tensor.hasStaticShape() ||
        !tensor.getElementType().isIntOrIndexOrFloat())
      return 0;
    Type elem = tensor.getElementType();
    int64_t bits = std::max<int64_t>(
        elem.isIndex() ? 64 : elem.getIntOrFloatBitWidth(), 32);
    Value leader = getLayoutClass(v);
    auto accumulator = accumulatorLayouts.find(leader);
    if (accumulator != accumulatorLayouts.end() &&
        accumulator->second.getRank() == tensor.getRank()) {
      int64_t positions = 1;
      for (unsigned d = 0; d < tensor.getRank(); ++d)
        positions *= getPositionsAlong(accumulator->second, tensor, d);
      return llvm::divideCeil(positions * bits, 32);
    }
    auto slice = sliceElements.find(leader);
    if (slice != sliceElements.end())
      return llvm::divideCeil(slice->second * bits, 32);
    return registersPerThread(tensor, threads);
  }

  /// 64-bit addresses one thread needs for its accesses through the tile of
  /// pointers `v`, in the layout its loads and stores get (vectors as wide
  /// as the axis analysis proves): one per run of its elements at
  /// compile-time offsets from each other, i.e. per distinct run of
  /// consecutive (or equal) addresses along every dimension.
  int64_t getAddressBases(Value v) {
    auto [it, inserted] = addressBases.try_emplace(v, 1);
    if (!inserted)
      return it->second;
    auto tensor = cast<RankedTensorType>(v.getType());
    int64_t bytes = AxisInfoAnalysis::getElementBytes(
        cast<PointerType>(tensor.getElementType()).getPointeeType());
    unsigned rank = tensor.getRank();
    int64_t vector = std::clamp<int64_t>(
        axisInfo.getVectorWidth(v, Value(), rank - 1, bytes), 1,
        std::max<int64_t>(1, 16 / bytes));
    BlockedEncodingAttr layout = getDefaultBlockedLayout(
        func.getContext(), tensor.getShape(), getDefaultOrder(rank),
        getNumWarps(), (unsigned)vector);
    const AxisInfo *info = axisInfo.lookup(v);
    int64_t bases = 1;
    for (unsigned d = 0; d < rank; ++d) {
      int64_t perThread = layout.getSizePerThread()[d];
      int64_t ctaTile = perThread * layout.getThreadsPerWarp()[d] *
                        layout.getWarpsPerCTA()[d];
      int64_t size = tensor.getDimSize(d);
      int64_t run =
          info ? std::max(info->getContiguity(d), info->getConstancy(d)) : 1;
      // Thread 0's positions along d: runs of perThread, a CTA tile apart.
      llvm::SmallDenseSet<int64_t> runs;
      for (int64_t start = 0; start == 0 || start < size; start += ctaTile)
        for (int64_t i = 0; i < perThread && start + i < size; ++i)
          runs.insert((start + i) / run);
      bases *= runs.size();
    }
    it = addressBases.find(v);
    it->second = bases;
    return bases;
  }

  /// 16-byte chunks of `block` each thread copies.
  int64_t getChunksPerThread(RankedTensorType block) const {
    int64_t bytes =
        block.getNumElements() * block.getElementType().getIntOrFloatBitWidth();
    return llvm::divideCeil(llvm::divideCeil(bytes, 8 * 16), threads);
  }

  /// Whether the block pointer `v` is one a loop marked
  /// tile.warp_specialize streams (its iteration argument, the value it
  /// starts from, or its advance): the producer warpgroup holds it, not the
  /// program's threads.
  static bool isStreamedByProducer(Value v) {
    auto streams = [](Value p) {
      return llvm::any_of(p.getUsers(), [](Operation *user) {
        auto loop = isa<BlockLoadOp>(user)
                        ? dyn_cast<scf::ForOp>(user->getParentOp())
                        : scf::ForOp();
        return loop && loop->hasAttr(TileDialect::getWarpSpecializeAttrName());
      });
    };
    if (streams(v))
      return true;
    if (auto advance = v.getDefiningOp<AdvanceOp>())
      return streams(advance.getPtr());
    for (OpOperand &use : v.getUses())
      if (auto loop = dyn_cast<scf::ForOp>(use.getOwner()))
        if (BlockArgument arg = loop.getTiedLoopRegionIterArg(&use);
            arg && streams(arg))
          return true;
    return false;
  }

  /// Registers of a block pointer held across a loop: with TMA, its offsets
  /// (the tensor map holds the rest); otherwise its 64-bit base and, per
  /// dimension, its offset and 64-bit stride, and for blocks copied
  /// asynchronously (tile.async_copy, or pipelined block loads) the
  /// registers of each chunk in flight.
  int64_t getBlockPointerRegisters(Value v, BlockPointerType type) {
    if (isStreamedByProducer(v))
      return 0;
    RankedTensorType block = type.getBlockType();
    int64_t rank = block.getRank();
    if (TileDialect::TmaAttrHelper(func.getContext()).isAttrPresent(func))
      return rank;
    int64_t registers = 2 + 3 * rank;
    if (llvm::any_of(v.getUsers(), [&](Operation *user) {
          return isa<AsyncCopyOp>(user) || isPipelinedBlockLoad(user, func);
        }))
      registers += kAsyncCopyChunkRegisters * getChunksPerThread(block);
    return registers;
  }

  /// Registers `v` holds on its own (see the class comment).
  int64_t weight(Value v) {
    auto it = weights.find(v);
    if (it != weights.end())
      return it->second;
    int64_t w = 0;
    if (isMask(v)) {
      llvm::SmallPtrSet<Operation *, 4> users(v.getUsers().begin(),
                                              v.getUsers().end());
      if (users.size() > 1)
        w = getTileRegisters(v);
    } else if (auto blockPointer = dyn_cast<BlockPointerType>(v.getType())) {
      if (held.contains(v))
        w = getBlockPointerRegisters(v, blockPointer);
    } else if (isPointerTile(v)) {
      if (held.contains(v))
        w = 2 * getAddressBases(v);
    } else if (!index.contains(v) && !isReadFromSharedByDots(v, func) &&
               !isSplat(v) && !isFusedElementwise(v)) {
      w = getTileRegisters(v);
    }
    weights[v] = w;
    return w;
  }

  /// Whether `v` is an intermediate of an elementwise chain: produced by a
  /// short elementwise op (no math function) and used by one elementwise op
  /// of its block, with nothing but elementwise ops in between. The backend
  /// computes such chains element by element (x, 0.01 * x, max(...) for
  /// one element, then the next), so the whole tile never needs its own
  /// registers. A value the chain reads twice is held for every element
  /// between the two reads, and math functions (erf, tanh through exp, ...)
  /// are long sequences the backend runs for many elements at once, so
  /// their results are held too.
  bool isFusedElementwise(Value v) {
    Operation *def = v.getDefiningOp();
    if (!def || !def->hasTrait<OpTrait::Elementwise>() || isMathFunction(def) ||
        v.use_empty())
      return false;
    Operation *user = *v.getUsers().begin();
    if (llvm::any_of(v.getUsers(), [&](Operation *u) { return u != user; }) ||
        user->getBlock() != def->getBlock() ||
        !user->hasTrait<OpTrait::Elementwise>())
      return false;
    // No op with a tile result other than elementwise ones strictly
    // between `def` and `user`: a difference of prefix counts.
    const BlockInfo &info = blockInfo(def->getBlock());
    return info.tileBarriers[position.lookup(user)] ==
           info.tileBarriers[position.lookup(def) + 1];
  }

  /// Registers `op` needs only while it runs.
  int64_t getScratchRegisters(Operation *op) {
    if (auto dot = dyn_cast<DotOp>(op))
      return getFmaOperandRegisters(dot);
    if (isa<LoadOp, StoreOp>(op)) {
      // The addresses of its accesses, computed ahead of them.
      Value ptr = op->getOperand(0);
      if (isPointerTile(ptr) && !held.contains(ptr))
        return 2 * getAddressBases(ptr);
      return 0;
    }
    if (auto div = dyn_cast<arith::DivFOp>(op))
      return arith::bitEnumContainsAll(div.getFastmath(),
                                       arith::FastMathFlags::afn)
                 ? 0
                 : kDivisionRegisters;
    // A libdevice function keeps an intermediate per element: the backend
    // interleaves its long sequence over the thread's elements.
    const ElementwiseOpInfo *info =
        lookupElementwiseOp(op->getName().getStringRef());
    if (info && info->gpu == GpuLowering::LibDevice && op->getNumResults() == 1)
      if (auto tensor = dyn_cast<RankedTensorType>(op->getResult(0).getType()))
        return llvm::divideCeil(tensor.getNumElements(), threads);
    return 0;
  }

  /// The `a` and `b` values an FMA dot's k loop holds: per unrolled k step,
  /// those of the thread's accumulator rows and columns (0 for dots on
  /// tensor cores, whose fragments come from shared memory a k step at a
  /// time). With the FMA layout a thread's rows and columns come in runs of
  /// 4 and the lowering unrolls 4 k steps; otherwise LLVM unrolls 2 and a
  /// thread's elements may all lie in one row or column.
  int64_t getFmaOperandRegisters(DotOp dot) {
    RankedTensorType acc = dot.getType();
    if (getMmaLayout(dot, getNumWarps()) ||
        isTransposedWgmmaShape(dot, getNumWarps()))
      return 0;
    int64_t k = dot.getA().getType().getDimSize(1);
    if (BlockedEncodingAttr fma = getFmaLayout(dot, getNumWarps())) {
      int64_t unroll = k % 4 == 0 ? 4 : k % 2 == 0 ? 2 : 1;
      return unroll *
             (getPositionsAlong(fma, acc, 0) + getPositionsAlong(fma, acc, 1));
    }
    return 2 * (llvm::divideCeil(acc.getNumElements(), threads) + 1);
  }

  struct BlockInfo {
    /// tileBarriers[i]: ops before position i that are not elementwise and
    /// have a tile result.
    SmallVector<int64_t> tileBarriers;
  };

  const BlockInfo &blockInfo(Block *block) {
    auto [it, inserted] = blocks.try_emplace(block);
    if (!inserted)
      return it->second;
    int64_t i = 0, barriers = 0;
    it->second.tileBarriers.push_back(0);
    for (Operation &op : *block) {
      position[&op] = i++;
      if (!op.hasTrait<OpTrait::Elementwise>() &&
          llvm::any_of(op.getResultTypes(), llvm::IsaPred<RankedTensorType>))
        ++barriers;
      it->second.tileBarriers.push_back(barriers);
    }
    return it->second;
  }

  void estimateBlock(Block *block) {
    const LivenessBlockInfo *live = liveness.getLiveness(block);
    if (!live || block->empty())
      return;
    blockInfo(block);
    int64_t n = std::distance(block->begin(), block->end());
    bool loopBody = isa<LoopLikeOpInterface>(block->getParentOp());
    // Live range [start, end] (op positions) of every value of the block.
    llvm::DenseMap<Value, std::pair<int64_t, int64_t>> ranges;
    auto addRange = [&](Value v, int64_t start) {
      int64_t end = start, first = n;
      for (Operation *user : v.getUsers())
        if (Operation *inBlock = block->findAncestorOpInBlock(*user)) {
          end = std::max(end, position.lookup(inBlock));
          first = std::min(first, position.lookup(inBlock));
        }
      // A value defined outside a loop and used in it is needed by the
      // next iteration too.
      bool fromOutside = !isa<BlockArgument>(v)
                             ? v.getParentBlock() != block
                             : cast<BlockArgument>(v).getOwner() != block;
      if (live->isLiveOut(v) || (loopBody && fromOutside))
        end = n - 1;
      // Masks are computed where first used.
      if (isMask(v) && !fromOutside && first < n && first > start)
        start = first;
      ranges[v] = {start, end};
    };
    for (Value arg : block->getArguments())
      addRange(arg, 0);
    for (Value in : live->in())
      addRange(in, 0);
    for (Operation &op : *block)
      for (Value result : op.getResults())
        addRange(result, position.lookup(&op));
    // Registers live at each op: difference arrays over the ranges, the
    // masks' apart (predicate registers hold the first few).
    SmallVector<int64_t> delta(n + 1, 0), maskDelta(n + 1, 0);
    for (auto &[v, range] : ranges) {
      int64_t w = weight(v);
      SmallVector<int64_t> &d = isMask(v) ? maskDelta : delta;
      d[range.first] += w;
      d[range.second + 1] -= w;
    }
    int64_t regs = 0, masks = 0;
    for (Operation &op : *block) {
      int64_t i = position.lookup(&op);
      regs += delta[i];
      masks += maskDelta[i];
      int64_t here = regs - reusedRegisters(&op, ranges, live) +
                     getScratchRegisters(&op) +
                     std::max<int64_t>(0, masks - kPredicateRegisters);
      if (here > peak) {
        peak = here;
        peakOp = &op;
      }
    }
  }

  /// A result can take the registers of an operand of its shape that dies
  /// at `op` (a dot accumulates in place, an elementwise op or a conversion
  /// overwrites its input, an scf.if yields its input or a rescaled copy,
  /// tile.advance moves a block pointer, an expand_dims or a broadcast
  /// spreads its source's values): the registers counted twice at `op`. Values
  /// that `op`'s regions use count as its operands.
  int64_t reusedRegisters(
      Operation *op,
      const llvm::DenseMap<Value, std::pair<int64_t, int64_t>> &ranges,
      const LivenessBlockInfo *live) {
    if (op->getNumResults() == 0)
      return 0;
    int64_t i = position.lookup(op);
    SmallVector<Value> operands(op->getOperands());
    if (op->getNumRegions() && !isa<scf::ForOp>(op)) {
      llvm::SetVector<Value> above;
      getUsedValuesDefinedAbove(op->getRegions(), above);
      operands.append(above.begin(), above.end());
    }
    SmallVector<Value> dying;
    for (Value operand : operands) {
      auto range = ranges.find(operand);
      if (weight(operand) && !isMask(operand) && range != ranges.end() &&
          range->second.second <= i && !llvm::is_contained(dying, operand))
        dying.push_back(operand);
    }
    int64_t reused = 0;
    for (Value result : op->getResults()) {
      auto reuse = llvm::find_if(dying, [&](Value operand) {
        if (isa<BroadcastOp, ExpandDimsOp>(op))
          return true;
        if (isa<BlockPointerType>(result.getType()))
          return operand.getType() == result.getType();
        auto type = dyn_cast<RankedTensorType>(result.getType());
        auto t = dyn_cast<RankedTensorType>(operand.getType());
        return type && t && t.getShape() == type.getShape();
      });
      if (reuse == dying.end())
        continue;
      reused += std::min(weight(result), weight(*reuse));
      dying.erase(reuse);
    }
    return reused;
  }

  func::FuncOp func;
  int64_t threads;
  Liveness liveness;
  llvm::DenseSet<Value> index;
  AxisInfoAnalysis axisInfo;
  /// Values a loop carries or uses from outside it.
  llvm::DenseSet<Value> held;
  /// Tiles that share a layout, and the layouts of those that hold a dot's
  /// accumulator or a reduction's result (its distinct elements per thread).
  llvm::EquivalenceClasses<Value> classes;
  llvm::DenseMap<Value, BlockedEncodingAttr> accumulatorLayouts;
  llvm::DenseMap<Value, int64_t> sliceElements;
  llvm::DenseMap<Value, int64_t> addressBases;
  llvm::DenseMap<Value, int64_t> weights;
  llvm::DenseMap<Block *, BlockInfo> blocks;
  llvm::DenseMap<Operation *, int64_t> position;
  int64_t peak = 0;
  Operation *peakOp = nullptr;
};
} // namespace

namespace {
struct TileKernelCheckPass
    : public tile::impl::TileKernelCheckBase<TileKernelCheckPass> {
  using TileKernelCheckBase::TileKernelCheckBase;

  void runOnOperation() override {
    bool failedAny = false;
    getOperation().walk([&](func::FuncOp func) {
      if (isKernel(func) &&
          (failed(checkElementwiseOps(func)) || failed(checkTileSizes(func)) ||
           failed(checkCallees(func)) || failed(checkKernel(func))))
        failedAny = true;
    });
    if (failedAny)
      signalPassFailure();
  }

  /// The helpers a kernel reaches are checked for tile sizes as the kernel
  /// is (before inlining, and the interpreter may run them as they are).
  /// Calls that cannot be inlined are tile-check-calls' to report.
  LogicalResult checkCallees(func::FuncOp kernel) {
    llvm::DenseSet<Operation *> seen{kernel};
    SmallVector<func::FuncOp> worklist{kernel};
    while (!worklist.empty()) {
      func::FuncOp f = worklist.pop_back_val();
      WalkResult walk = f.walk([&](func::CallOp call) {
        auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
            call, call.getCalleeAttr());
        if (!callee || callee.isExternal() || !seen.insert(callee).second)
          return WalkResult::advance();
        if (failed(checkTileSizes(callee)))
          return WalkResult::interrupt();
        worklist.push_back(callee);
        return WalkResult::advance();
      });
      if (walk.wasInterrupted())
        return failure();
    }
    return success();
  }

  /// Every arith and math op is one of the table's (ElementwiseOps.h),
  /// which the interpreter and the GPU both compute.
  LogicalResult checkElementwiseOps(func::FuncOp func) {
    bool ok = true;
    func.walk([&](Operation *op) {
      if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
        return;
      StringRef name = op->getName().getStringRef();
      if (lookupElementwiseOp(name))
        return;
      op->emitError() << "'" << name << "' is not supported by Tile: "
                      << getUnsupportedReason(name);
      ok = false;
    });
    return success(ok);
  }

  LogicalResult checkTileSizes(func::FuncOp func) {
    WalkResult walk = func.walk([&](Operation *op) {
      for (Type t : op->getResultTypes())
        if (auto tensor = dyn_cast<RankedTensorType>(t))
          if (tensor.hasStaticShape() &&
              tensor.getNumElements() > maxTileElements) {
            op->emitError()
                << "tile " << t << " in "
                << (isKernel(func) ? "kernel" : "function") << " '"
                << func.getSymName() << "' has " << tensor.getNumElements()
                << " elements; the limit is "
                << static_cast<int64_t>(maxTileElements);
            return WalkResult::interrupt();
          }
      return WalkResult::advance();
    });
    return failure(walk.wasInterrupted());
  }

  LogicalResult checkKernel(func::FuncOp func) {
    int64_t warps = getNumWarps(func);
    int64_t threads = warps * 32;
    if (!llvm::isPowerOf2_64(warps) || threads > 1024)
      return func.emitError()
             << "kernel '" << func.getSymName() << "' has " << warps
             << " warps; a program instance holds at most "
                "32 warps (1024 threads)";

    // Code size: ops, and elements per thread over the ops with tile
    // results (what the lowering unrolls).
    int64_t ops = 0, elementOps = 0;
    WalkResult walk = func.walk([&](Operation *op) {
      if (op == func.getOperation())
        return WalkResult::advance();
      ++ops;
      for (Type t : op->getResultTypes()) {
        auto tensor = dyn_cast<RankedTensorType>(t);
        if (!tensor || !tensor.hasStaticShape())
          continue;
        int64_t perThread = llvm::divideCeil(tensor.getNumElements(), threads);
        if (perThread > maxThreadElements) {
          op->emitError() << "tile " << t << " gives each of the " << threads
                          << " threads of kernel '" << func.getSymName() << "' "
                          << perThread << " elements; the limit is "
                          << static_cast<int64_t>(maxThreadElements)
                          << " (the lowering unrolls tiles per element)";
          return WalkResult::interrupt();
        }
        elementOps += perThread;
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
    if (ops > maxOps || elementOps > maxElementOps)
      return func.emitError()
             << "kernel '" << func.getSymName()
             << "' is too large to compile: " << ops
             << " operations (the limit is " << static_cast<int64_t>(maxOps)
             << ") and " << elementOps
             << " element operations per thread (the limit is "
             << static_cast<int64_t>(maxElementOps)
             << "); use loops or smaller tiles";

    auto [peak, peakOp] = RegisterEstimate(func, threads).run();
    int64_t programs = 1;
    if (auto attr = func->getAttrOfType<IntegerAttr>(
            TileDialect::getMinProgramsPerSMAttrName()))
      programs = std::max<int64_t>(1, attr.getInt());
    int64_t limit = std::min(static_cast<int64_t>(maxRegisters),
                             getThreadRegisterLimit(threads, programs));
    if (report)
      func.emitRemark() << "kernel '" << func.getSymName() << "': " << threads
                        << " threads, about " << peak
                        << " registers per thread (limit " << limit << "), "
                        << ops << " operations, " << elementOps
                        << " element operations per thread";
    // The estimate is within about 20% of ptxas's count: only an estimate
    // beyond the limit by more than that is sure not to fit (below, the
    // warning says the kernel may spill).
    if (peak * 4 > maxRegisters * 5) {
      InFlightDiagnostic diag = func.emitError()
                                << "out of resources: kernel '"
                                << func.getSymName() << "' needs about " << peak
                                << " registers per thread with " << warps
                                << " warps; the limit is "
                                << static_cast<int64_t>(maxRegisters)
                                << " (use smaller tiles or more warps)";
      if (peakOp)
        diag.attachNote(peakOp->getLoc()) << "peak register use is here";
      return failure();
    }
    // An estimate within 10% of what a thread may use, or above it, cannot
    // rule out that the backend spills: say so.
    if (peak * 10 >= limit * 9) {
      InFlightDiagnostic diag = func.emitWarning();
      diag << "kernel '" << func.getSymName() << "' needs about " << peak
           << " registers per thread, "
           << (peak > limit ? "more than" : "within 10% of") << " the " << limit
           << " a thread may use with " << threads << " threads";
      if (programs > 1)
        diag << " and " << programs << " programs per SM";
      diag << ": registers may spill to local memory";
      if (peakOp)
        diag.attachNote(peakOp->getLoc()) << "peak register use is here";
    }
    return success();
  }
};
} // namespace
