//===- Rematerialize.cpp - Recompute wide tiles from narrow ones ----------===//
//
// A kernel reading f16 rows converts them to f32, reduces, and uses the f32
// values (or their exponentials) again after the reduction. Held across the
// reduction's barrier, those values take 4 bytes of registers per element
// where the loaded tile took 2; in a softmax holding a whole row that
// decides how many programs fit on an SM, and so how many bytes are in
// flight. Recomputing them from the loaded tile after the barrier costs a
// conversion (and, for exponentials, a second MUFU operation) per element.
//
// The recomputation starts from a tile.optimization_barrier of the narrow
// tile: CSE in MLIR and GVN in LLVM would otherwise merge it back into the
// first computation, which is what made the wide value live in the first
// place.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

#include <map>

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEREMATERIALIZE
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

/// Ops where the program's threads wait for one another (or for other
/// programs): values computed before them and used after are held across
/// the wait.
static bool isSyncOp(Operation *op) {
  return isa<ReduceOp, ClusterReduceOp, ClusterGatherOp, ConvertLayoutOp,
             TransOp, ReshapeOp, AtomicAddOp, WaitAtLeastOp>(op);
}

/// A sync op, or an op whose regions hold one (a loop of reductions).
static bool isSyncPoint(Operation *op) {
  if (isSyncOp(op))
    return true;
  return op->getNumRegions() != 0 && op->walk([](Operation *inner) {
                                         return isSyncOp(inner)
                                                    ? WalkResult::interrupt()
                                                    : WalkResult::advance();
                                       }).wasInterrupted();
}

namespace {

/// How to recompute a tile: `ops` in order, from `leaves` (the narrow
/// tiles, each possibly behind an earlier optimization barrier).
struct Recomputation {
  SmallVector<Operation *> ops;
  SetVector<Value> leaves;
  int transcendentals = 0;
};

constexpr size_t kMaxOps = 8;

/// Operands that cost next to nothing to hold: splats and constants (one
/// value), and broadcasts of at most an eighth as many elements (per-row
/// statistics spread over the row: one value per row a thread holds).
bool isFreeOperand(Value v) {
  Operation *def = v.getDefiningOp();
  if (isa_and_nonnull<SplatOp, arith::ConstantOp>(def))
    return true;
  auto broadcast = dyn_cast_or_null<BroadcastOp>(def);
  return broadcast && broadcast.getSrc().getType().getNumElements() * 8 <=
                          broadcast.getType().getNumElements();
}

/// The narrow tile behind `v`, seen through an optimization barrier.
Value throughBarrier(Value v) {
  if (auto barrier = v.getDefiningOp<OptimizationBarrierOp>())
    return barrier.getSrc();
  return v;
}

bool collect(Value v, Recomputation &r) {
  Operation *def = v.getDefiningOp();
  if (!def || def->getNumResults() != 1 || !isa<RankedTensorType>(v.getType()))
    return false;
  if (llvm::is_contained(r.ops, def))
    return true;
  if (auto ext = dyn_cast<arith::ExtFOp>(def)) {
    Value src = throughBarrier(ext.getIn());
    auto srcType = cast<RankedTensorType>(src.getType());
    if (srcType.getElementTypeBitWidth() >=
        cast<RankedTensorType>(v.getType()).getElementTypeBitWidth())
      return false;
    r.leaves.insert(src);
    r.ops.push_back(def);
    return r.ops.size() <= kMaxOps;
  }
  if (!isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::MaximumFOp,
           arith::MinimumFOp, arith::NegFOp, math::ExpOp, math::Exp2Op>(def))
    return false;
  if (isa<math::ExpOp, math::Exp2Op>(def) && ++r.transcendentals > 1)
    return false;
  bool anyNarrow = false;
  for (Value operand : def->getOperands()) {
    if (isFreeOperand(operand))
      continue;
    if (!collect(operand, r))
      return false;
    anyNarrow = true;
  }
  if (!anyNarrow)
    return false;
  r.ops.push_back(def);
  return r.ops.size() <= kMaxOps;
}

/// Whether recomputing from the leaves holds fewer bits per element than
/// holding `v`.
bool saves(const Recomputation &r, Value v) {
  unsigned held = 0;
  for (Value leaf : r.leaves)
    held += cast<RankedTensorType>(leaf.getType()).getElementTypeBitWidth();
  return held < cast<RankedTensorType>(v.getType()).getElementTypeBitWidth();
}

struct TileRematerializePass
    : public tile::impl::TileRematerializeBase<TileRematerializePass> {
  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp func) {
      if (!func->hasAttr(TileDialect::getRematerializeAttrName()))
        return;
      SmallVector<Block *> blocks;
      func.walk([&](Block *block) { blocks.push_back(block); });
      for (Block *block : blocks)
        runOnBlock(*block);
    });
  }

  void runOnBlock(Block &block) {
    // segment[op]: how many sync points precede op in the block.
    DenseMap<Operation *, unsigned> segment;
    unsigned syncs = 0;
    SmallVector<Operation *> ops;
    for (Operation &op : block) {
      segment[&op] = syncs;
      ops.push_back(&op);
      if (isSyncPoint(&op))
        ++syncs;
    }
    if (syncs == 0)
      return;
    for (Operation *op : ops) {
      if (op->getNumResults() != 1)
        continue;
      Value v = op->getResult(0);
      // Uses after a sync point, by segment, each with the op of this
      // block that holds it.
      std::map<unsigned, SmallVector<OpOperand *>> late;
      for (OpOperand &use : v.getUses()) {
        Operation *user = block.findAncestorOpInBlock(*use.getOwner());
        if (user && segment.lookup(user) > segment.lookup(op))
          late[segment.lookup(user)].push_back(&use);
      }
      if (late.empty())
        continue;
      Recomputation r;
      if (!collect(v, r) || !saves(r, v))
        continue;
      for (auto &[seg, uses] : late) {
        Operation *first = nullptr;
        for (OpOperand *use : uses) {
          Operation *user = block.findAncestorOpInBlock(*use->getOwner());
          if (!first || user->isBeforeInBlock(first))
            first = user;
        }
        OpBuilder b(first);
        IRMapping map;
        for (Value leaf : r.leaves) {
          auto barrier = OptimizationBarrierOp::create(b, leaf.getLoc(),
                                                       leaf.getType(), leaf);
          segment[barrier] = seg;
          map.map(leaf, barrier.getResult());
        }
        for (Operation *recomputed : r.ops) {
          // An extf may read its leaf through an earlier barrier.
          Operation *clone = b.clone(*recomputed, map);
          segment[clone] = seg;
          for (OpOperand &operand : clone->getOpOperands())
            if (Value leaf = throughBarrier(operand.get());
                r.leaves.contains(leaf))
              operand.set(map.lookup(leaf));
          map.map(recomputed->getResult(0), clone->getResult(0));
        }
        Value again = map.lookup(v);
        for (OpOperand *use : uses)
          use->set(again);
      }
    }
    // What the recomputations replaced entirely.
    for (Operation *op : llvm::reverse(ops))
      if (isOpTriviallyDead(op))
        op->erase();
  }
};

} // namespace
