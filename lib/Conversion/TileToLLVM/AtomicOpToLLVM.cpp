//===- AtomicOpToLLVM.cpp - Atomic read-modify-writes through pointers ----===//
//
// tile.atomic_rmw and tile.atomic_cas become one LLVM atomicrmw / cmpxchg
// per element, relaxed and at the op's scope, between fences: a release
// fence before the first (release, acq_rel) and an acquire fence after the
// last (acquire, acq_rel), as the PTX memory model maps those orderings.
//
// A layout may give one element to several threads (lanes or warps beyond
// the tile's extent repeat it) or to several slots of one thread: only the
// first holder applies the operation, or it would happen more than once.
// When the result is used and other threads hold the element too, the
// holder hands the old value over through shared memory.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include <map>

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Which copies of a tile's elements this thread applies.
struct Holders {
  /// Whether this thread holds the first copy of its elements (i1), null
  /// when every thread does.
  Value thread;
  /// Whether other threads hold copies of elements.
  bool sharedAcrossThreads = false;
  /// For each slot, the slot of this thread holding the same element first
  /// (itself when it is the first).
  SmallVector<int64_t> firstSlot;
};

Holders getHolders(OpBuilder &b, Location loc, Type ptrType) {
  Holders holders;
  auto tensor = dyn_cast<RankedTensorType>(ptrType);
  if (!tensor) {
    // A scalar: every thread holds it; thread 0 applies it.
    holders.thread =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                              NVVM::ThreadIdXOp::create(b, loc, b.getI32Type()),
                              i32Constant(b, loc, 0));
    holders.sharedAcrossThreads = true;
    holders.firstSlot = {0};
    return holders;
  }
  LayoutView view(tensor);
  ThreadIds ids = getThreadIds(b, loc);
  for (unsigned rd = 0; rd < view.getRootRank(); ++rd) {
    auto require = [&](Value along, int64_t distinct) {
      Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          along, i32Constant(b, loc, distinct));
      holders.thread =
          holders.thread ? arith::AndIOp::create(b, loc, holders.thread, first)
                         : first;
      holders.sharedAcrossThreads = true;
    };
    if (view.getDistinctLanes(rd) < view.getThreadsPerWarp(rd))
      require(emitLaneAlong(b, loc, view, rd, ids.lane),
              view.getDistinctLanes(rd));
    if (view.getDistinctWarps(rd) < view.getWarpsPerCTA(rd))
      require(emitWarpAlong(b, loc, view, rd, ids.warp),
              view.getDistinctWarps(rd));
  }
  // Slots whose static offsets agree modulo the extents hold one element.
  std::map<SmallVector<int64_t>, int64_t> seen;
  for (int64_t slot = 0; slot < view.getNumSlots(); ++slot) {
    SmallVector<int64_t> coords = view.getSlotCoords(slot), key;
    for (unsigned rd = 0; rd < view.getRootRank(); ++rd)
      key.push_back(view.getStaticOffset(rd, coords[rd]) %
                    view.getRootExtent(rd));
    holders.firstSlot.push_back(seen.try_emplace(key, slot).first->second);
  }
  return holders;
}

/// Whether the lowering of an atomic op with these pointers and result
/// hands the old values over through shared memory.
bool needsHandOver(Operation *op, Type ptrType) {
  if (op->getResult(0).use_empty())
    return false;
  auto tensor = dyn_cast<RankedTensorType>(ptrType);
  if (!tensor)
    return true;
  LayoutView view(tensor);
  for (unsigned rd = 0; rd < view.getRootRank(); ++rd)
    if (view.getDistinctLanes(rd) < view.getThreadsPerWarp(rd) ||
        view.getDistinctWarps(rd) < view.getWarpsPerCTA(rd))
      return true;
  return false;
}

StringRef getSyncScope(MemoryScope scope) {
  return scope == MemoryScope::CTA ? "block" : "device";
}

LLVM::AtomicBinOp getBinOp(AtomicKind kind, Type elem) {
  bool isFloat = isa<FloatType>(elem);
  switch (kind) {
  case AtomicKind::Add:
    return isFloat ? LLVM::AtomicBinOp::fadd : LLVM::AtomicBinOp::add;
  case AtomicKind::Max:
    return isFloat ? LLVM::AtomicBinOp::fmax : LLVM::AtomicBinOp::max;
  case AtomicKind::Min:
    return isFloat ? LLVM::AtomicBinOp::fmin : LLVM::AtomicBinOp::min;
  case AtomicKind::And:
    return LLVM::AtomicBinOp::_and;
  case AtomicKind::Or:
    return LLVM::AtomicBinOp::_or;
  case AtomicKind::Xor:
    return LLVM::AtomicBinOp::_xor;
  case AtomicKind::Xchg:
    return LLVM::AtomicBinOp::xchg;
  }
  llvm_unreachable("unknown atomic kind");
}

/// Lowers an atomic op element by element; `apply(slot)` emits the atomic
/// instruction of one slot and returns the old value.
template <typename OpT>
LogicalResult lowerAtomic(OpT op, ValueRange ptrs, ValueRange masks,
                          ConversionPatternRewriter &rewriter,
                          function_ref<Value(int64_t)> apply) {
  Location loc = op.getLoc();
  Type ptrType = op.getPtr().getType();
  Type elem = getElementTypeOrSelf(op.getType());
  Holders holders = getHolders(rewriter, loc, ptrType);
  MemorySemantic sem = op.getSem();
  StringRef scope = getSyncScope(op.getScope());
  if (sem == MemorySemantic::Release || sem == MemorySemantic::AcqRel)
    LLVM::FenceOp::create(rewriter, loc, LLVM::AtomicOrdering::release, scope);

  Value zero = isa<FloatType>(elem)
                   ? (Value)arith::ConstantOp::create(
                         rewriter, loc, rewriter.getFloatAttr(elem, 0.0))
                   : (Value)arith::ConstantOp::create(
                         rewriter, loc, rewriter.getIntegerAttr(elem, 0));
  SmallVector<Value> olds;
  for (int64_t slot = 0; slot < (int64_t)ptrs.size(); ++slot) {
    if (holders.firstSlot[slot] != slot) {
      olds.push_back(olds[holders.firstSlot[slot]]);
      continue;
    }
    Value enabled = holders.thread;
    if (!masks.empty())
      enabled = enabled
                    ? arith::AndIOp::create(rewriter, loc, enabled, masks[slot])
                    : masks[slot];
    if (!enabled) {
      olds.push_back(apply(slot));
      continue;
    }
    auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{elem}, enabled,
                                  /*withElse=*/true);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(rewriter, loc, apply(slot));
    rewriter.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(rewriter, loc, zero);
    olds.push_back(ifOp.getResult(0));
  }

  if (sem == MemorySemantic::Acquire || sem == MemorySemantic::AcqRel)
    LLVM::FenceOp::create(rewriter, loc, LLVM::AtomicOrdering::acquire, scope);

  if (needsHandOver(op, ptrType)) {
    // The first holder of each element stores what it read; every thread
    // reads its copies back.
    Value smem = getSharedMemory(rewriter, loc);
    SmallVector<Value> at;
    if (auto tensor = dyn_cast<RankedTensorType>(ptrType)) {
      for (SmallVector<Value> &index : emitSlotIndices(rewriter, loc, tensor))
        at.push_back(emitLinearIndex(rewriter, loc, index, tensor.getShape()));
    } else {
      at.push_back(i32Constant(rewriter, loc, 0));
    }
    Type storage = getStorageType(elem);
    emitBarrier(rewriter, loc);
    {
      auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange(), holders.thread,
                                    /*withElse=*/false);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      for (int64_t slot = 0; slot < (int64_t)olds.size(); ++slot)
        if (holders.firstSlot[slot] == slot)
          LLVM::StoreOp::create(rewriter, loc,
                                toStorage(rewriter, loc, olds[slot]),
                                gep(rewriter, loc, storage, smem, at[slot]));
    }
    emitBarrier(rewriter, loc);
    for (int64_t slot = 0; slot < (int64_t)olds.size(); ++slot)
      olds[slot] = fromStorage(
          rewriter, loc,
          LLVM::LoadOp::create(rewriter, loc, storage,
                               gep(rewriter, loc, storage, smem, at[slot])),
          elem);
  }
  rewriter.replaceOpWithMultiple(op, {olds});
  return success();
}

struct AtomicRMWOpConversion : public OpConversionPattern<AtomicRMWOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AtomicRMWOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type elem = getElementTypeOrSelf(op.getVal().getType());
    ValueRange ptrs = adaptor.getPtr(), vals = adaptor.getVal();
    LLVM::AtomicBinOp binOp = getBinOp(op.getKind(), elem);
    StringRef scope = getSyncScope(op.getScope());
    return lowerAtomic(op, ptrs, adaptor.getMask(), rewriter,
                       [&](int64_t slot) -> Value {
                         return LLVM::AtomicRMWOp::create(
                             rewriter, loc, binOp, ptrs[slot], vals[slot],
                             LLVM::AtomicOrdering::monotonic, scope);
                       });
  }
};

struct AtomicCASOpConversion : public OpConversionPattern<AtomicCASOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AtomicCASOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ValueRange ptrs = adaptor.getPtr(), cmps = adaptor.getCmp(),
               vals = adaptor.getVal();
    StringRef scope = getSyncScope(op.getScope());
    return lowerAtomic(
        op, ptrs, adaptor.getMask(), rewriter, [&](int64_t slot) -> Value {
          auto cas = LLVM::AtomicCmpXchgOp::create(
              rewriter, loc, ptrs[slot], cmps[slot], vals[slot],
              LLVM::AtomicOrdering::monotonic, LLVM::AtomicOrdering::monotonic,
              scope);
          return LLVM::ExtractValueOp::create(rewriter, loc, cas, 0);
        });
  }
};

} // namespace

int64_t mlir::tile::getAtomicSharedBytes(Operation *op) {
  Type ptrType = op->getOperand(0).getType();
  if (!needsHandOver(op, ptrType))
    return 0;
  Type elem = getElementTypeOrSelf(op->getResult(0).getType());
  int64_t elements = 1;
  if (auto tensor = dyn_cast<RankedTensorType>(ptrType))
    elements = tensor.getNumElements();
  return elements * std::max<int64_t>(1, elem.getIntOrFloatBitWidth() / 8);
}

void mlir::tile::populateAtomicOpToLLVMPatterns(TileTypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<AtomicRMWOpConversion, AtomicCASOpConversion>(
      converter, patterns.getContext());
}
