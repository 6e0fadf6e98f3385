//===- KernelCheck.cpp - Check kernels against program limits -------------===//
//
// A GPU program instance has fixed resources: at most 1024 threads and 255
// registers per thread before the compiler spills. Tiles are spread over the
// CTA's threads, so the registers a thread needs are roughly the bytes of the
// tiles live at once divided by the thread count. Rejecting kernels that
// cannot fit here, with the kernel's name and the numbers, beats an opaque
// launch failure.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/ElementwiseOps.h"
#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Analysis/Liveness.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEKERNELCHECK
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

/// 32-bit registers one thread needs to hold its share of `type` (a tile
/// spread over `threads` threads); 0 for scalars and pointer tiles. Pointer
/// tiles are affine in the thread id and the backend folds them into
/// address arithmetic, so counting them would reject kernels that fit.
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

/// Splats (a splat constant or tile.splat) and broadcasts used only by
/// elementwise ops and as loop-carried values hold no registers of their
/// own: the lowering repeats the scalar (or the broadcast tile's values),
/// and a loop's copy is counted as the loop's own value.
static bool isSplat(Value v) {
  auto constant = v.getDefiningOp<arith::ConstantOp>();
  if (!v.getDefiningOp<SplatOp>() && !v.getDefiningOp<BroadcastOp>() &&
      !(constant && isa<SplatElementsAttr>(constant.getValue())))
    return false;
  return !v.use_empty() && llvm::all_of(v.getUsers(), [](Operation *user) {
    return user->hasTrait<OpTrait::Elementwise>() ||
           isa<scf::ForOp, scf::YieldOp>(user);
  });
}

/// Whether `v` is an operand of tensor-core dots only that the lowering
/// reads from shared memory rather than holding in registers: a
/// tile.local_load of a software-pipeline buffer, or a block load in a loop
/// of a kernel the tile-pipeline-loops pass will pipeline (tile.num_stages
/// >= 2), which it turns into one. Such tiles would otherwise dominate the
/// estimate of a large matmul tile (a 128x64 and a 64x256 f16 operand are
/// 48 registers per thread over 8 warps) although they cost none.
static bool isReadFromSharedByDots(Value v, func::FuncOp func) {
  if (v.use_empty() || !llvm::all_of(v.getUsers(), [&](Operation *user) {
        auto dot = dyn_cast<DotOp>(user);
        return dot && dot.getAcc() != v;
      }))
    return false;
  if (v.getDefiningOp<LocalLoadOp>())
    return true;
  auto stages =
      func->getAttrOfType<IntegerAttr>(TileDialect::getNumStagesAttrName());
  return stages && stages.getInt() >= 2 && v.getDefiningOp<BlockLoadOp>() &&
         isa<scf::ForOp>(v.getDefiningOp()->getParentOp());
}

namespace {
/// The register estimate of one kernel: the largest total of live tiles at
/// any op. Live ranges are those of mlir::Liveness (a value is live from
/// its definition, or the block's start, to its last use in the block, or
/// the block's end when it is live-out), computed per block as intervals
/// over the ops' positions, so that the estimate takes time linear in the
/// kernel's size.
class RegisterEstimate {
public:
  RegisterEstimate(func::FuncOp func, int64_t threads)
      : func(func), threads(threads), liveness(func),
        index(findIndexArithmetic(func)) {}

  /// Estimates every block; returns the peak and the op where it occurs.
  std::pair<int64_t, Operation *> run() {
    func.walk([&](Block *block) { estimateBlock(block); });
    return {peak, peakOp};
  }

private:
  /// Registers `v` holds on its own (0 for values the lowering does not
  /// materialize, see the predicates above).
  int64_t weight(Value v) {
    auto it = weights.find(v);
    if (it != weights.end())
      return it->second;
    int64_t w = 0;
    if (!index.contains(v) && !isReadFromSharedByDots(v, func) && !isSplat(v) &&
        !isFusedElementwise(v))
      w = registersPerThread(v.getType(), threads);
    weights[v] = w;
    return w;
  }

  /// Whether `v` is an intermediate of an elementwise chain: produced by an
  /// elementwise op and used only by elementwise ops of its block, with
  /// nothing but elementwise ops in between. The lowering computes such
  /// chains slot by slot (x, 0.01 * x, max(...) for one element, then the
  /// next), so the whole tile never needs its own registers.
  bool isFusedElementwise(Value v) {
    Operation *def = v.getDefiningOp();
    if (!def || !def->hasTrait<OpTrait::Elementwise>())
      return false;
    Operation *last = def;
    for (Operation *user : v.getUsers()) {
      if (user->getBlock() != def->getBlock() ||
          !user->hasTrait<OpTrait::Elementwise>())
        return false;
      if (last->isBeforeInBlock(user))
        last = user;
    }
    // No op with a tile result other than elementwise ones strictly
    // between `def` and `last`: a difference of prefix counts.
    const BlockInfo &info = blockInfo(def->getBlock());
    return info.tileBarriers[position.lookup(last)] ==
           info.tileBarriers[position.lookup(def) + 1];
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
    // Live range [start, end] (op positions) of every value of the block.
    llvm::DenseMap<Value, std::pair<int64_t, int64_t>> ranges;
    auto addRange = [&](Value v, int64_t start) {
      int64_t end = start;
      if (live->isLiveOut(v)) {
        end = n - 1;
      } else {
        for (Operation *user : v.getUsers())
          if (Operation *inBlock = block->findAncestorOpInBlock(*user))
            end = std::max(end, position.lookup(inBlock));
      }
      ranges[v] = {start, end};
    };
    for (Value arg : block->getArguments())
      addRange(arg, 0);
    for (Value in : live->in())
      addRange(in, 0);
    for (Operation &op : *block)
      for (Value result : op.getResults())
        addRange(result, position.lookup(&op));
    // Registers live at each op: a difference array over the ranges.
    SmallVector<int64_t> delta(n + 1, 0);
    for (auto &[v, range] : ranges) {
      int64_t w = weight(v);
      delta[range.first] += w;
      delta[range.second + 1] -= w;
    }
    int64_t regs = 0;
    for (Operation &op : *block) {
      int64_t i = position.lookup(&op);
      regs += delta[i];
      int64_t here = regs - reusedRegisters(&op, ranges, live);
      if (here > peak) {
        peak = here;
        peakOp = &op;
      }
    }
  }

  /// A result can take the registers of an operand of its shape that dies
  /// at `op` (a dot accumulates in place, an elementwise op or a conversion
  /// overwrites its input, an scf.if yields its input or a rescaled copy):
  /// the registers counted twice at `op`. Values that `op`'s regions use
  /// count as its operands.
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
      if (weight(operand) && range != ranges.end() &&
          !live->isLiveOut(operand) && range->second.second <= i &&
          !llvm::is_contained(dying, operand))
        dying.push_back(operand);
    }
    int64_t reused = 0;
    for (Value result : op->getResults()) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      auto reuse = llvm::find_if(dying, [&](Value operand) {
        auto t = cast<RankedTensorType>(operand.getType());
        return type && t.getShape() == type.getShape();
      });
      if (reuse == dying.end())
        continue;
      reused += std::min(registersPerThread(type, threads),
                         registersPerThread(reuse->getType(), threads));
      dying.erase(reuse);
    }
    return reused;
  }

  func::FuncOp func;
  int64_t threads;
  Liveness liveness;
  llvm::DenseSet<Value> index;
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
    if (report)
      func.emitRemark() << "kernel '" << func.getSymName() << "': " << threads
                        << " threads, about " << peak
                        << " registers per thread for tiles, " << ops
                        << " operations, " << elementOps
                        << " element operations per thread";
    if (peak > maxRegisters) {
      InFlightDiagnostic diag =
          func.emitError()
          << "out of resources: kernel '" << func.getSymName()
          << "' needs about " << peak
          << " registers per thread for its live tiles with " << warps
          << " warps; the limit is "
          << static_cast<int64_t>(maxRegisters)
          << " (use smaller tiles or more warps)";
      if (peakOp)
        diag.attachNote(peakOp->getLoc()) << "peak register use is here";
      return failure();
    }
    return success();
  }
};
} // namespace
