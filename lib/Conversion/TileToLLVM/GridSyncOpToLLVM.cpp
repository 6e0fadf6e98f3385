//===- GridSyncOpToLLVM.cpp - Programs synchronizing through global memory ===//
//
// tile.atomic_add and tile.wait_at_least let the programs of a grid
// exchange values through global memory (a counter per group of programs,
// the values beside it). Both act once per program, in thread 0:
//
//   atomic_add:    barrier (every thread's earlier writes are ordered
//                  before thread 0's release); thread 0: atom.add.acq_rel
//                  at GPU scope, its old value into the scratch word;
//                  barrier; every thread reads the word
//   wait_at_least: thread 0 spins on ld.acquire at GPU scope until the
//                  value is large enough; barrier (every thread's later
//                  reads are ordered after the acquire)
//
// This is the shape of a grid-wide barrier (bar.sync around one thread's
// release and acquire); the acquire also keeps later loads from reading
// lines this SM's L1 cached before the releasing writes.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tile;

/// The address of a converted scalar pointer (global address space), as
/// an i64 for inline asm.
static Value emitAddress(OpBuilder &b, Location loc, Value ptr) {
  return LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), ptr);
}

namespace {

struct AtomicAddOpConversion : public OpConversionPattern<AtomicAddOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AtomicAddOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value word = getSharedMemory(rewriter, loc);
    Value wordAddress = LLVM::PtrToIntOp::create(rewriter, loc, i32, word);
    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, i32);
    emitBarrier(rewriter, loc);
    // Inline PTX: no NVVM op for a predicated atom and shared store.
    emitInlineAsm(rewriter, loc, {},
                  ValueRange{emitAddress(rewriter, loc, adaptor.getPtr()),
                             adaptor.getValue(), tid, wordAddress},
                  "{\n\t.reg .pred first;\n\t.reg .b32 old;\n\t"
                  "setp.eq.u32 first, $2, 0;\n\t"
                  "@first atom.acq_rel.gpu.global.add.u32 old, [$0], $1;\n\t"
                  "@first st.shared.b32 [$3], old;\n\t}",
                  "l,r,r,r,~{memory}", /*hasSideEffects=*/true);
    emitBarrier(rewriter, loc);
    Value old = LLVM::LoadOp::create(rewriter, loc, i32, word);
    rewriter.replaceOp(op, old);
    return success();
  }
};

struct WaitAtLeastOpConversion : public OpConversionPattern<WaitAtLeastOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(WaitAtLeastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, i32);
    // ${:uid} makes the labels unique per asm statement.
    // Inline PTX: no NVVM op for this ld.acquire polling loop.
    emitInlineAsm(rewriter, loc, {},
                  ValueRange{emitAddress(rewriter, loc, adaptor.getPtr()),
                             adaptor.getTarget(), tid},
                  "{\n\t.reg .pred p;\n\t.reg .b32 v;\n\t"
                  "setp.ne.u32 p, $2, 0;\n\t"
                  "@p bra tile_wait_done_${:uid};\n"
                  "tile_wait_poll_${:uid}:\n\t"
                  "ld.acquire.gpu.global.b32 v, [$0];\n\t"
                  "setp.lt.s32 p, v, $1;\n\t"
                  "@p bra tile_wait_poll_${:uid};\n"
                  "tile_wait_done_${:uid}:\n\t}",
                  "l,r,r,~{memory}", /*hasSideEffects=*/true);
    emitBarrier(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tile::populateGridSyncOpToLLVMPatterns(TileTypeConverter &converter,
                                                  RewritePatternSet &patterns) {
  patterns.add<AtomicAddOpConversion, WaitAtLeastOpConversion>(
      converter, patterns.getContext());
}
