//===- WarpSpecializeOpToLLVM.cpp - Producer warpgroups and turns ---------===//
//
// A warp-specialized kernel (tile.warp_specialize) runs a producer
// warpgroup beside the program's warps: after the ops before the split,
// the producer lowers its register budget (setmaxnreg), runs its region on
// one warp and exits, and the program's warps raise theirs. Its consumer
// warpgroups (8 or 16 warps) may take turns issuing their products in
// pairs (tile.wait_turn, tile.pass_turn) on named barriers 2 + warpgroup,
// as FlashAttention-3's ping-pong schedule does; named barrier 1 is the
// program's own (see emitBarrier).
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Named barrier of warpgroup `wg`'s turn; each takes the 128 threads that
/// wait on it and the 128 of the other warpgroup of its pair (wg ^ 1) that
/// arrive.
constexpr int32_t kFirstTurnBarrier = 2;
constexpr int32_t kTurnThreads = 256;

/// This thread's warpgroup (0 to 3).
Value emitWarpgroup(OpBuilder &b, Location loc) {
  return arith::ShRUIOp::create(b, loc, getThreadIds(b, loc).warp,
                                i32Constant(b, loc, 2));
}

/// The named barrier of warpgroup `wg`'s turn.
Value emitTurnBarrier(OpBuilder &b, Location loc, Value wg) {
  return arith::AddIOp::create(b, loc, wg,
                               i32Constant(b, loc, kFirstTurnBarrier));
}

/// Arrives on the turn barrier of warpgroup `wg`. Inline PTX: NVVM's
/// barrier.arrive has no intrinsic (it lowers only through
/// convert-nvvm-to-llvm).
void emitPassTo(OpBuilder &b, Location loc, Value wg) {
  emitInlineAsm(
      b, loc, TypeRange(),
      {emitTurnBarrier(b, loc, wg), i32Constant(b, loc, kTurnThreads)},
      "bar.arrive $0, $1;", "r,r", /*hasSideEffects=*/true);
}

struct WaitTurnOpConversion : public OpConversionPattern<WaitTurnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WaitTurnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    emitNamedBarrier(
        rewriter, loc,
        emitTurnBarrier(rewriter, loc, emitWarpgroup(rewriter, loc)),
        kTurnThreads);
    rewriter.eraseOp(op);
    return success();
  }
};

struct PassTurnOpConversion : public OpConversionPattern<PassTurnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PassTurnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value other =
        arith::XOrIOp::create(rewriter, loc, emitWarpgroup(rewriter, loc),
                              i32Constant(rewriter, loc, 1));
    emitPassTo(rewriter, loc, other);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tile::lowerWarpSpecialize(func::FuncOp kernel, bool turns,
                                     bool clusterExit) {
  WarpSpecializeOp op = getWarpSpecialize(kernel);
  if (!op)
    return;
  OpBuilder b(op);
  Location loc = op.getLoc();
  int64_t warps = getNumWarps(kernel);
  Value warp = getThreadIds(b, loc).warp;
  Value producer = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                         warp, i32Constant(b, loc, warps));
  auto ifProducer = scf::IfOp::create(b, loc, producer, /*withElse=*/false);
  b.setInsertionPoint(ifProducer.thenBlock()->getTerminator());
  NVVM::SetMaxRegisterOp::create(b, loc, op.getProducerRegisters(),
                                 NVVM::SetMaxRegisterAction::decrease);
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, warp,
                                      i32Constant(b, loc, warps));
  auto ifFirst = scf::IfOp::create(b, loc, first, /*withElse=*/false);
  Block *region = &op.getProducer().front();
  ifFirst.thenBlock()->getOperations().splice(ifFirst.thenBlock()->begin(),
                                              region->getOperations());
  // Its arrival on the cluster barrier of the kernel's end, which exited
  // threads would not hold up either.
  if (clusterExit)
    NVVM::ClusterArriveOp::create(b, loc, /*aligned=*/UnitAttr());
  NVVM::Exit::create(b, loc);
  b.setInsertionPointAfter(ifProducer);
  NVVM::SetMaxRegisterOp::create(b, loc, op.getConsumerRegisters(),
                                 NVVM::SetMaxRegisterAction::increase);
  // The even warpgroup of each pair takes the first turn: the odd one
  // passes it once first.
  if (turns) {
    Value wg = emitWarpgroup(b, loc);
    Value one = i32Constant(b, loc, 1);
    Value second = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                         arith::AndIOp::create(b, loc, wg, one),
                                         i32Constant(b, loc, 0));
    auto ifSecond = scf::IfOp::create(b, loc, second, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifSecond.thenBlock()->getTerminator());
    emitPassTo(b, loc, arith::XOrIOp::create(b, loc, wg, one));
  }
  op.erase();
  kernel->setAttr(
      NVVM::NVVMDialect::getMaxntidAttrName(),
      DenseI32ArrayAttr::get(
          kernel.getContext(),
          {int32_t(32 * (warps + WarpSpecializeOp::kProducerWarps)), 1, 1}));
}

void mlir::tile::populateWarpSpecializeOpToLLVMPatterns(
    TileTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<WaitTurnOpConversion, PassTurnOpConversion>(
      converter, patterns.getContext());
}
