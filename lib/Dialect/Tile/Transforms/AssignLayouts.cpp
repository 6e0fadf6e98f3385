//===- AssignLayouts.cpp - Give every tile a thread layout ----------------===//
//
// Layouts are chosen per group of values that must agree (union-find over
// the def-use constraints of each op), so a kernel gets as few distinct
// layouts as its data flow allows and conversions appear only where two
// slice constraints genuinely disagree.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/Tile/IR/Layout.h"
#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEASSIGNLAYOUTS
#define GEN_PASS_DEF_TILEREMOVELAYOUTCONVERSIONS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

/// The tile type a value's layout applies to: its own tensor type, or the
/// block type of a block pointer. Null for scalars.
static RankedTensorType getTileType(Value v) {
  if (auto t = dyn_cast<RankedTensorType>(v.getType()))
    return t;
  if (auto bp = dyn_cast<BlockPointerType>(v.getType()))
    return bp.getBlockType();
  return nullptr;
}

/// Bits of the memory element `v` addresses (a tile of pointers or a block
/// pointer), or 0 when `v` does not address memory. Vector widths follow
/// the loaded data, not the (64-bit) offsets computed on the way.
static unsigned getMemoryElementBits(Value v) {
  Type elem;
  if (auto bp = dyn_cast<BlockPointerType>(v.getType()))
    elem = bp.getElementType();
  else if (auto t = dyn_cast<RankedTensorType>(v.getType()))
    if (auto ptr = dyn_cast<PointerType>(t.getElementType()))
      elem = ptr.getPointeeType();
  if (!elem || !elem.isIntOrFloat())
    return 0;
  return std::max(8u, elem.getIntOrFloatBitWidth());
}

namespace {

/// `child` must have layout slice(axis, layout of `parent`).
struct SliceLink {
  Value child;
  unsigned axis;
  Value parent;
  Operation *op;
  bool broken = false;
};

class LayoutAssigner {
public:
  LayoutAssigner(func::FuncOp func, bool warpgroupMma)
      : func(func), ctx(func.getContext()),
        numWarps((unsigned)getNumWarps(func)), warpgroupMma(warpgroupMma) {}

  void run() {
    duplicateCheapProducers();
    // After the duplication: the analysis must know every value.
    axisInfo.emplace(func);
    collectConstraints();
    resolveSliceLinks();
    rewriteTypes();
  }

private:
  func::FuncOp func;
  MLIRContext *ctx;
  unsigned numWarps;
  /// The target has wgmma (see getMmaLayout).
  bool warpgroupMma;
  llvm::EquivalenceClasses<Value> classes;
  SmallVector<SliceLink> links;
  /// Order (fastest first) requested for a class by a block pointer.
  DenseMap<Value, SmallVector<unsigned>> requestedOrder;
  DenseMap<Value, Attribute> layoutOfLeader;
  /// Accumulator layouts wanted by dot results: tensor cores' (mma) or the
  /// FMA units' register tiles (getFmaLayout).
  SmallVector<std::pair<Value, Attribute>> mmaLayouts;
  /// `a` operands of tensor-core dots whose mma layout has all warps along
  /// M: in that layout their fragments come from registers.
  SmallVector<std::pair<Value, Attribute>> mmaOperands;
  /// Tiles of pointers that loads and stores access, and what the axis
  /// analysis proves about their addresses (see getProvenVectorWidth).
  llvm::DenseSet<Value> accessedPointers;
  std::optional<AxisInfoAnalysis> axisInfo;

  /// Splats, constants and ranges cost nothing to recompute; giving each
  /// use its own copy keeps them from tying unrelated groups together.
  void duplicateCheapProducers() {
    SmallVector<Operation *> cheap;
    func.walk([&](Operation *op) {
      if (op->getNumResults() != 1 || !getTileType(op->getResult(0)))
        return;
      if (isa<SplatOp, RangeOp, arith::ConstantOp>(op) &&
          !op->getResult(0).hasOneUse() && !op->getResult(0).use_empty())
        cheap.push_back(op);
    });
    for (Operation *op : cheap) {
      SmallVector<OpOperand *> uses;
      for (OpOperand &use : op->getResult(0).getUses())
        uses.push_back(&use);
      for (OpOperand *use : llvm::drop_begin(uses)) {
        OpBuilder b(op);
        Operation *copy = b.clone(*op);
        use->set(copy->getResult(0));
      }
    }
  }

  void add(Value v) {
    if (getTileType(v))
      classes.insert(v);
  }

  void join(Value a, Value b) {
    if (!a || !b || !getTileType(a) || !getTileType(b))
      return;
    classes.unionSets(a, b);
  }

  void joinAll(ValueRange values) {
    Value first;
    for (Value v : values) {
      if (!v || !getTileType(v))
        continue;
      if (first)
        join(first, v);
      else
        first = v;
    }
  }

  void collectConstraints() {
    func.walk([&](Block *block) {
      for (BlockArgument arg : block->getArguments())
        add(arg);
    });
    func.walk([&](Operation *op) {
      for (Value r : op->getResults())
        add(r);
      llvm::TypeSwitch<Operation *>(op)
          .Case([&](BroadcastOp o) { join(o.getSrc(), o.getResult()); })
          .Case([&](AddPtrOp o) {
            joinAll({o.getPtr(), o.getOffset(), o.getResult()});
          })
          .Case([&](LoadOp o) {
            accessedPointers.insert(o.getPtr());
            join(o.getPtr(), o.getResult());
            join(o.getPtr(), o.getMask());
            join(o.getPtr(), o.getOther());
          })
          .Case([&](StoreOp o) {
            accessedPointers.insert(o.getPtr());
            join(o.getPtr(), o.getValue());
            join(o.getPtr(), o.getMask());
          })
          .Case(
              [&](OptimizationBarrierOp o) { join(o.getSrc(), o.getResult()); })
          .Case([&](TF32PartsOp o) {
            joinAll({o.getSrc(), o.getHi(), o.getLo()});
          })
          .Case([&](BlockLoadOp o) { join(o.getPtr(), o.getResult()); })
          .Case([&](BlockStoreOp o) { join(o.getPtr(), o.getValue()); })
          .Case([&](AdvanceOp o) { join(o.getPtr(), o.getResult()); })
          .Case([&](MakeBlockPtrOp o) {
            SmallVector<unsigned> order;
            for (int32_t d : o.getOrder())
              order.push_back((unsigned)d);
            requestedOrder[o.getResult()] = order;
          })
          .Case([&](ScanOp o) { join(o.getSrc(), o.getResult()); })
          .Case([&](AtomicRMWOp o) {
            joinAll({o.getPtr(), o.getVal(), o.getMask(), o.getResult()});
          })
          .Case([&](AtomicCASOp o) {
            joinAll({o.getPtr(), o.getCmp(), o.getVal(), o.getMask(),
                     o.getResult()});
          })
          .Case([&](ReduceOp o) {
            if (getTileType(o.getResult()))
              links.push_back(
                  {o.getResult(), (unsigned)o.getAxis(), o.getSrc(), o});
          })
          .Case([&](ExpandDimsOp o) {
            links.push_back(
                {o.getSrc(), (unsigned)o.getAxis(), o.getResult(), o});
          })
          .Case([&](DotOp o) {
            join(o.getAcc(), o.getResult());
            if (BlockedEncodingAttr transposed =
                    getTransposedWgmmaLayout(o, numWarps, warpgroupMma)) {
              mmaLayouts.push_back({o.getResult(), transposed});
            } else if (BlockedEncodingAttr mma =
                           getMmaLayout(o, numWarps, warpgroupMma)) {
              mmaLayouts.push_back({o.getResult(), mma});
              if (mma.getWarpsPerCTA()[1] == 1)
                mmaOperands.push_back({o.getA(), mma});
            } else if (BlockedEncodingAttr fma = getFmaLayout(o, numWarps)) {
              mmaLayouts.push_back({o.getResult(), fma});
            }
          })
          .Case([&](scf::ForOp o) {
            for (auto [init, arg, res, yielded] :
                 llvm::zip(o.getInitArgs(), o.getRegionIterArgs(),
                           o.getResults(),
                           o.getBody()->getTerminator()->getOperands()))
              joinAll({init, arg, res, yielded});
          })
          .Case([&](scf::IfOp o) {
            for (auto [i, res] : llvm::enumerate(o.getResults())) {
              join(res, o.thenYield().getOperand(i));
              if (!o.getElseRegion().empty())
                join(res, o.elseYield().getOperand(i));
            }
          })
          .Default([&](Operation *other) {
            // Elementwise arith/math ops: operands and results agree.
            Dialect *d = other->getDialect();
            if (d && isa<arith::ArithDialect, math::MathDialect>(d) &&
                !isa<arith::ConstantOp>(other)) {
              SmallVector<Value> all(other->getOperands());
              all.append(other->result_begin(), other->result_end());
              joinAll(all);
            }
          });
    });
  }

  Value leader(Value v) { return classes.getLeaderValue(v); }

  /// Elements of the tile of pointers `ptr` that one access can move along
  /// `dim` (consecutive, aligned addresses; masks are checked at run time).
  /// A thread holding more consecutive elements than that would access them
  /// one by one, each access of a warp then touching a sector per lane:
  /// with one element per lane per access, a warp's scalar accesses stay
  /// coalesced (rows whose starts are not 16-byte aligned).
  unsigned getProvenVectorWidth(Value ptr, unsigned dim) {
    auto type = cast<RankedTensorType>(ptr.getType());
    Type pointee = cast<PointerType>(type.getElementType()).getPointeeType();
    int64_t bytes = AxisInfoAnalysis::getElementBytes(pointee);
    return (unsigned)std::max<int64_t>(
        1, axisInfo->getVectorWidth(ptr, Value(), dim, bytes));
  }

  /// Each child class may be the slice of one parent class per axis:
  /// parents reached through the same axis are unified; a second axis is a
  /// real conflict that a conversion resolves.
  void resolveSliceLinks() {
    bool changed = true;
    while (changed) {
      changed = false;
      DenseMap<Value, SliceLink *> first;
      for (SliceLink &link : links) {
        if (link.broken)
          continue;
        Value child = leader(link.child);
        auto it = first.find(child);
        if (it == first.end()) {
          first[child] = &link;
          continue;
        }
        SliceLink &other = *it->second;
        if (other.axis == link.axis) {
          if (leader(other.parent) == leader(link.parent))
            continue;
          // A transposed wgmma accumulator's layout spreads warps along
          // its columns: a tile sharing its row statistics (the online
          // softmax's scores) would be replicated on every warp, so the
          // statistics are converted instead.
          if (holdsTransposedAccumulator(other.parent) !=
              holdsTransposedAccumulator(link.parent))
            link.broken = true;
          else
            classes.unionSets(other.parent, link.parent);
          changed = true;
        } else {
          link.broken = true;
          changed = true;
        }
      }
    }
    // A class that is a slice of itself through a chain would recurse
    // forever; ranks strictly decrease along links, so that cannot happen.
  }

  /// Whether `v`'s class holds the accumulator of a dot computed
  /// transposed (getTransposedWgmmaLayout).
  bool holdsTransposedAccumulator(Value v) {
    return llvm::any_of(mmaLayouts, [&](auto &entry) {
      return isTransposedWgmmaLayout(entry.second) &&
             leader(entry.first) == leader(v);
    });
  }

  Attribute layoutFor(Value member) {
    Value lead = leader(member);
    auto it = layoutOfLeader.find(lead);
    if (it != layoutOfLeader.end())
      return it->second;
    for (SliceLink &link : links)
      if (!link.broken && leader(link.child) == lead) {
        Attribute parent = layoutFor(link.parent);
        Attribute layout = SliceEncodingAttr::get(ctx, link.axis, parent);
        layoutOfLeader[lead] = layout;
        return layout;
      }
    // A class holding a tensor-core dot's accumulator takes the mma layout,
    // so that the accumulator never leaves the registers mma.sync uses; an
    // FMA dot's takes the layout its vectorized shared reads need.
    for (auto [result, mma] : mmaLayouts)
      if (leader(result) == lead) {
        layoutOfLeader[lead] = mma;
        return mma;
      }
    // A class holding a dot's `a` operand read from a shared buffer (or
    // produced by a layout conversion) takes the accumulator's mma layout
    // when that keeps `a` in registers: any layout reads shared memory
    // equally well, and the dot then stages nothing for `a` (global loads
    // keep their coalesced layouts).
    for (auto [operand, mma] : mmaOperands) {
      if (leader(operand) != lead)
        continue;
      for (auto mit = classes.findLeader(lead); mit != classes.member_end();
           ++mit)
        if (isa_and_nonnull<LocalLoadOp, ConvertLayoutOp>(
                (*mit).getDefiningOp())) {
          layoutOfLeader[lead] = mma;
          return mma;
        }
    }
    // A root class: the blocked layout of its largest member.
    SmallVector<int64_t> shape;
    unsigned bits = 0;
    SmallVector<unsigned> order;
    for (auto mit = classes.findLeader(lead); mit != classes.member_end();
         ++mit) {
      Value v = *mit;
      RankedTensorType t = getTileType(v);
      if (shape.empty())
        shape.assign(t.getShape().begin(), t.getShape().end());
      for (auto [i, d] : llvm::enumerate(t.getShape()))
        shape[i] = std::max(shape[i], d);
      bits = std::max(bits, getMemoryElementBits(v));
      auto req = requestedOrder.find(v);
      if (req != requestedOrder.end() && order.empty())
        order = req->second;
    }
    if (order.empty())
      for (int64_t d = (int64_t)shape.size() - 1; d >= 0; --d)
        order.push_back((unsigned)d);
    // 16 bytes per thread along the fastest dimension (4 x 32-bit values
    // for groups that touch no memory), fewer where loads or stores of the
    // class cannot be proven to move that many elements as one access.
    unsigned maxVector = std::max(1u, 128u / (bits ? bits : 32u));
    for (auto mit = classes.findLeader(lead); mit != classes.member_end();
         ++mit)
      if (accessedPointers.contains(*mit))
        maxVector = std::min(maxVector, getProvenVectorWidth(*mit, order[0]));
    Attribute layout =
        getDefaultBlockedLayout(ctx, shape, order, numWarps, maxVector);
    layoutOfLeader[lead] = layout;
    return layout;
  }

  static Type withTileLayout(Type type, Attribute layout) {
    if (auto t = dyn_cast<RankedTensorType>(type))
      return withLayout(t, layout);
    auto bp = cast<BlockPointerType>(type);
    return BlockPointerType::get(type.getContext(),
                                 withLayout(bp.getBlockType(), layout));
  }

  void rewriteTypes() {
    // Decide every class's layout before mutating types.
    DenseMap<Value, Attribute> assigned;
    for (auto it = classes.begin(); it != classes.end(); ++it) {
      if (!(*it)->isLeader())
        continue;
      Value lead = (*it)->getData();
      assigned[lead] = layoutFor(lead);
    }
    for (auto it = classes.begin(); it != classes.end(); ++it) {
      if (!(*it)->isLeader())
        continue;
      Attribute layout = assigned[(*it)->getData()];
      for (auto mit = classes.member_begin(**it); mit != classes.member_end();
           ++mit) {
        Value v = *mit;
        v.setType(withTileLayout(v.getType(), layout));
      }
    }
    // Dense constants carry their type in their value attribute too.
    func.walk([&](arith::ConstantOp op) {
      auto type = dyn_cast<RankedTensorType>(op.getType());
      auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
      if (type && dense && dense.getType() != type)
        op.setValueAttr(dense.reshape(type));
    });
    // Broken slice links: route through a conversion.
    for (SliceLink &link : links) {
      if (!link.broken)
        continue;
      auto parentType = cast<RankedTensorType>(getTileType(link.parent));
      Attribute slice =
          SliceEncodingAttr::get(ctx, link.axis, parentType.getEncoding());
      auto childType = cast<RankedTensorType>(link.child.getType());
      auto sliceType = withLayout(childType, slice);
      OpBuilder b(link.op);
      if (auto reduce = dyn_cast<ReduceOp>(link.op)) {
        // reduce produces the slice; convert it to the group's layout.
        b.setInsertionPointAfter(reduce);
        reduce.getResult().setType(sliceType);
        auto convert = ConvertLayoutOp::create(b, reduce.getLoc(), childType,
                                               reduce.getResult());
        reduce.getResult().replaceAllUsesExcept(convert.getResult(),
                                                convert);
      } else {
        auto expand = cast<ExpandDimsOp>(link.op);
        auto convert = ConvertLayoutOp::create(b, expand.getLoc(), sliceType,
                                               expand.getSrc());
        expand.getSrcMutable().assign(convert.getResult());
      }
    }
    // Function results never carry tiles (kernels return nothing), so the
    // signature is unchanged.
  }
};

/// Layouts are assigned inside a kernel only: a call passing tiles to a
/// helper function would get layouts on its operands and results while the
/// callee's signature keeps none, which the verifier rejects. The compile
/// pipeline inlines helpers first; when it has not been done, say so at the
/// call rather than leave invalid IR behind.
static LogicalResult checkNoTileCalls(func::FuncOp kernel) {
  WalkResult result = kernel.walk([](func::CallOp call) {
    auto isTile = [](Type t) {
      return isa<RankedTensorType, BlockPointerType>(t);
    };
    if (llvm::any_of(call.getOperandTypes(), isTile) ||
        llvm::any_of(call.getResultTypes(), isTile)) {
      call.emitError("tile-assign-layouts needs helper functions inlined "
                     "first (run -inline)");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

struct TileAssignLayoutsPass
    : public tile::impl::TileAssignLayoutsBase<TileAssignLayoutsPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp func) {
      if (!isKernel(func))
        return;
      if (failed(checkNoTileCalls(func))) {
        signalPassFailure();
        return;
      }
      LayoutAssigner(func, targetHasWarpgroupMma(chip)).run();
    });
  }
};

struct TileRemoveLayoutConversionsPass
    : public tile::impl::TileRemoveLayoutConversionsBase<
          TileRemoveLayoutConversionsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    ConvertLayoutOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
