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

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Analysis/Liveness.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEKERNELCHECK
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

/// 32-bit registers one thread needs to hold its share of `type`. Only
/// floating-point tiles (the data) count: index, mask and pointer tiles are
/// affine in the thread id and the backend folds them into address
/// arithmetic and immediate offsets, so counting them would reject kernels
/// that fit comfortably.
static int64_t registersPerThread(Type type, int64_t threads) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return 0;
  Type elem = tensor.getElementType();
  if (!isa<FloatType>(elem))
    return 0;
  int64_t bits = elem.getIntOrFloatBitWidth();
  int64_t perThread = llvm::divideCeil(tensor.getNumElements(), threads);
  return llvm::divideCeil(perThread * std::max<int64_t>(bits, 32), 32);
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

/// Whether `v` is an intermediate of an elementwise chain: produced by an
/// elementwise op and used only by elementwise ops of its block, with
/// nothing but elementwise ops in between. The lowering computes such
/// chains slot by slot (x, 0.01 * x, max(...) for one element, then the
/// next), so the whole tile never needs its own registers.
static bool isFusedElementwise(Value v) {
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
  for (Operation *op = def->getNextNode(); op && op != last;
       op = op->getNextNode())
    if (!op->hasTrait<OpTrait::Elementwise>() &&
        llvm::any_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>))
      return false;
  return true;
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
struct TileKernelCheckPass
    : public tile::impl::TileKernelCheckBase<TileKernelCheckPass> {
  using TileKernelCheckBase::TileKernelCheckBase;

  void runOnOperation() override {
    bool failedAny = false;
    getOperation().walk([&](func::FuncOp func) {
      if (!isKernel(func))
        return;
      if (failed(checkKernel(func)))
        failedAny = true;
    });
    if (failedAny)
      signalPassFailure();
  }

  LogicalResult checkKernel(func::FuncOp func) {
    int64_t warps = getNumWarps(func);
    int64_t threads = warps * 32;
    if (!llvm::isPowerOf2_64(warps) || threads > 1024)
      return func.emitError() << "kernel '" << func.getSymName() << "' has "
                              << warps
                              << " warps; a program instance holds at most "
                                 "32 warps (1024 threads)";
    // Tile sizes.
    WalkResult walk = func.walk([&](Operation *op) {
      for (Type t : op->getResultTypes())
        if (auto tensor = dyn_cast<RankedTensorType>(t))
          if (tensor.hasStaticShape() &&
              tensor.getNumElements() > maxTileElements) {
            op->emitError() << "tile " << t << " in kernel '"
                            << func.getSymName() << "' has "
                            << tensor.getNumElements()
                            << " elements; the limit is "
                            << static_cast<int64_t>(maxTileElements);
            return WalkResult::interrupt();
          }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();

    // Register estimate: the largest total of live tiles at any op.
    Liveness liveness(func);
    int64_t peak = 0;
    Operation *peakOp = nullptr;
    func.walk([&](Operation *op) {
      if (op == func.getOperation())
        return;
      const LivenessBlockInfo *info = liveness.getLiveness(op->getBlock());
      if (!info)
        return;
      int64_t regs = 0;
      // The live set at `op` includes the values it defines.
      for (Value v : info->currentlyLiveValues(op))
        if (!isReadFromSharedByDots(v, func) && !isSplat(v) &&
            !isFusedElementwise(v))
          regs += registersPerThread(v.getType(), threads);
      // A result can take the registers of an operand of its shape that
      // dies at `op` (a dot accumulates in place, an elementwise op or a
      // conversion overwrites its input, an scf.if yields its input or a
      // rescaled copy): count only what it adds. Values that `op`'s regions
      // use count as its operands.
      SmallVector<Value> operands(op->getOperands());
      if (op->getNumRegions() && !isa<scf::ForOp>(op)) {
        llvm::SetVector<Value> above;
        getUsedValuesDefinedAbove(op->getRegions(), above);
        operands.append(above.begin(), above.end());
      }
      SmallVector<Value> dying;
      for (Value operand : operands)
        if (registersPerThread(operand.getType(), threads) &&
            !isReadFromSharedByDots(operand, func) && !isSplat(operand) &&
            !isFusedElementwise(operand) && liveness.isDeadAfter(operand, op) &&
            !llvm::is_contained(dying, operand))
          dying.push_back(operand);
      for (Value result : op->getResults()) {
        auto type = dyn_cast<RankedTensorType>(result.getType());
        auto reuse = llvm::find_if(dying, [&](Value operand) {
          auto t = cast<RankedTensorType>(operand.getType());
          return type && t.getShape() == type.getShape();
        });
        if (reuse == dying.end())
          continue;
        regs -= std::min(registersPerThread(type, threads),
                         registersPerThread(reuse->getType(), threads));
        dying.erase(reuse);
      }
      if (regs > peak) {
        peak = regs;
        peakOp = op;
      }
    });
    if (report)
      func.emitRemark() << "kernel '" << func.getSymName() << "': " << threads
                        << " threads, about " << peak
                        << " registers per thread for tiles";
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
