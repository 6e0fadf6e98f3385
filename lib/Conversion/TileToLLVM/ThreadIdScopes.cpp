//===- ThreadIdScopes.cpp - Thread and program ids read again after loops -===//
//
// LLVM treats the thread and program ids as pure values: the addresses that
// the ops after a loop derive from them are merged with the identical ones
// computed before the loop, and ptxas then keeps them in registers across
// the loop (in attention's warp-specialized kernels, about 24 of the
// consumers' 240 registers held through the key loop for the epilogue's
// stores). Reading the ids again after each loop, in a way LLVM cannot
// merge, makes the code there recompute what it needs instead.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;

/// The special register an NVVM id read reads, or empty.
static StringRef getIdRegister(Operation *op) {
  return TypeSwitch<Operation *, StringRef>(op)
      .Case([](NVVM::ThreadIdXOp) { return "%tid.x"; })
      .Case([](NVVM::BlockIdXOp) { return "%ctaid.x"; })
      .Case([](NVVM::BlockIdYOp) { return "%ctaid.y"; })
      .Case([](NVVM::BlockIdZOp) { return "%ctaid.z"; })
      .Default([](Operation *) { return StringRef(); });
}

void mlir::tile::scopeThreadIdsAfterLoops(func::FuncOp kernel) {
  Block &body = kernel.getBody().front();
  bool afterLoop = false;
  llvm::StringMap<Value> scoped;
  for (Operation &top : llvm::make_early_inc_range(body)) {
    if (afterLoop) {
      SmallVector<Operation *> reads;
      top.walk([&](Operation *op) {
        if (!getIdRegister(op).empty())
          reads.push_back(op);
      });
      for (Operation *read : reads) {
        StringRef reg = getIdRegister(read);
        Value &id = scoped[reg];
        if (!id) {
          OpBuilder b(&top);
          // Inline PTX: NVVM's ops are pure by design, and the read here
          // must not be merged with the one before the loop.
          id = emitInlineAsm(b, top.getLoc(), b.getI32Type(), {},
                             ("mov.u32 $0, " + reg + ";").str(), "=r",
                             /*hasSideEffects=*/true)[0];
        }
        read->getResult(0).replaceAllUsesWith(id);
        read->erase();
      }
    }
    bool hasLoop = false;
    top.walk([&](scf::ForOp) {
      hasLoop = true;
      return WalkResult::interrupt();
    });
    if (hasLoop) {
      // The ops after this loop read the ids afresh.
      afterLoop = true;
      scoped.clear();
    }
  }
}
