//===- OneShotCopies.cpp - Blocks the producer copies once ----------------===//
//
// See OneShotCopies.h.
//
//===----------------------------------------------------------------------===//

#include "OneShotCopies.h"

#include "ProducerSlices.h"
#include "StreamedLoads.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tile;

SmallVector<OneShotCopy> mlir::tile::findOneShotCopies(scf::ForOp loop,
                                                       func::FuncOp func,
                                                       scf::ForOp tiles) {
  SmallVector<OneShotCopy> out;
  for (Operation &op : *loop->getBlock()) {
    if (&op == loop.getOperation())
      break;
    auto store = dyn_cast<LocalStoreOp>(op);
    if (!store)
      continue;
    // Other stores into the buffer must come after this one in its block
    // (the copy has landed once the program's wait passes).
    auto alloc = store.getBuffer().getDefiningOp<AllocSharedOp>();
    if (!alloc || llvm::any_of(alloc->getUsers(), [&](Operation *user) {
          if (user == store.getOperation() || !isa<LocalStoreOp>(user))
            return false;
          Operation *at = store->getBlock()->findAncestorOpInBlock(*user);
          return !at || !store->isBeforeInBlock(at);
        }))
      continue;
    int64_t stages = cast<SharedBufferType>(alloc.getType()).getStages();
    if (stages != 1 &&
        (!tiles || llvm::any_of(alloc->getUsers(), [&](Operation *user) {
          Value stage;
          if (auto load = dyn_cast<LocalLoadOp>(user))
            stage = load.getStage();
          else if (auto other = dyn_cast<LocalStoreOp>(user))
            stage = other.getStage();
          Operation *at = store->getBlock()->findAncestorOpInBlock(*user);
          return !stage || !matchPattern(stage, m_Zero()) || !at ||
                 (user != store.getOperation() && !store->isBeforeInBlock(at));
        })))
      continue;
    OneShotCopy copy;
    copy.store = store;
    copy.stages = stages;
    Value value = store.getValue();
    if ((copy.reshape = value.getDefiningOp<ReshapeOp>())) {
      if (!copy.reshape->hasOneUse())
        continue;
      value = copy.reshape.getSrc();
    }
    copy.load = value.getDefiningOp<BlockLoadOp>();
    if (!copy.load || !copy.load->hasOneUse() ||
        !isCopyableBlock(copy.load.getType()) ||
        (copy.load.getType().getRank() > 2) != bool(copy.reshape))
      continue;
    copy.make = copy.load.getPtr().getDefiningOp<MakeBlockPtrOp>();
    if (!copy.make || !llvm::all_of(copy.make->getOperands(), [&](Value v) {
          return isScalarSlice(v, func, tiles);
        }))
      continue;
    std::string why;
    copy.array = describeArray(copy.make, why);
    if (copy.array)
      out.push_back(copy);
  }
  return out;
}

std::pair<Operation *, SmallVector<Value>>
mlir::tile::getLastUse(Value buffer, Block *block) {
  Operation *last = nullptr;
  SmallVector<Value> after;
  auto consider = [&](Operation *op) {
    if (!last || last->isBeforeInBlock(op))
      last = op;
  };
  for (Operation *user : buffer.getUsers()) {
    Operation *at = block->findAncestorOpInBlock(*user);
    if (!at)
      continue;
    consider(at);
    if (at != user) {
      llvm::append_range(after, at->getResults());
      continue;
    }
    if (auto load = dyn_cast<LocalLoadOp>(user))
      for (Value dot : readingDots(load.getResult(), block)) {
        consider(block->findAncestorOpInBlock(*dot.getDefiningOp()));
        after.push_back(dot);
      }
  }
  return {last, after};
}
