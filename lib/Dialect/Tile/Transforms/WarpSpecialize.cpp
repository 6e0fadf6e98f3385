//===- WarpSpecialize.cpp - A producer warpgroup for streamed loads -------===//
//
// Rewrites loops marked tile.warp_specialize so that a producer warpgroup
// copies their blocks with TMA into rings of shared stages, handing each
// stage to the program's warps through a `full` barrier and getting it
// back through an `empty` one. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Layout.h"
#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Support/SpecializedRegisters.h"

#include "OneShotCopies.h"
#include "ProducerSlices.h"
#include "RingCounts.h"
#include "StreamedLoads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEWARPSPECIALIZE
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// A streamed load of the first loop, the 2-d block the loop body reads of
/// it and the array it reads.
struct Stream {
  StreamedLoad load;
  RankedTensorType block;
  DictionaryAttr array;
  /// Copied once per cluster (the same blocks for all its programs).
  bool shared = false;
};

/// The one tile.reshape through which the body reads the block of rank 3
/// or more that `load` loads, as the 2-d `block`; null if there is none.
ReshapeOp getReadingReshape(BlockLoadOp load, RankedTensorType block) {
  auto reshape = dyn_cast<ReshapeOp>(
      load->hasOneUse() ? *load->getUsers().begin() : nullptr);
  return reshape && reshape.getType().getShape() == block.getShape()
             ? reshape
             : ReshapeOp();
}

/// The stage of `copy`'s buffer that the tile after `uses` copying tiles
/// uses, and the parity of that use's barrier phase: the buffer is a ring
/// of one use per copying tile (stage 0 and parity uses mod 2 for one
/// stage).
std::tuple<Value, Value> emitOneShotStageAndParity(OpBuilder &b, Location loc,
                                                   Value uses,
                                                   const OneShotCopy &copy) {
  if (copy.stages != 1)
    return emitStageAndParityOfUse(b, loc, uses, copy.stages);
  auto c = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  return {c(0), arith::AndIOp::create(b, loc, uses, c(1))};
}

/// Whether an op of `body` (a loop over tiles' body) may write `buffer`
/// after `op` within the same tile: a write after it in a block that holds
/// both (not in another branch of an scf.if), or any write where `op`
/// sits in a loop within the tile.
bool mayWriteAfter(Value buffer, Operation *op, Block *body) {
  for (Operation *at = op; at->getBlock() != body; at = at->getParentOp())
    if (isa<LoopLikeOpInterface>(at->getParentOp()))
      return true;
  for (Operation *user : buffer.getUsers()) {
    if (!isa<LocalStoreOp, AsyncCopyOp, TmaCopyOp>(user) ||
        !body->findAncestorOpInBlock(*user))
      continue;
    // The closest block holding both, and their ancestors in it.
    Operation *mine = op;
    Operation *theirs = nullptr;
    while (!(theirs = mine->getBlock()->findAncestorOpInBlock(*user)))
      mine = mine->getParentOp();
    if (mine == theirs) {
      if (!isa<scf::IfOp>(mine))
        return true;
      continue;
    }
    if (mine->isBeforeInBlock(theirs))
      return true;
  }
  return false;
}

/// Replaces each tile.block_store of a tile.local_load of `buffer` (the
/// load's only use, through a tile.reshape for a block pointer of rank 3
/// or more) by a tile.tma_store of the loaded stage, through a tensor map
/// of the stored array appended to `func`: the tensor memory accelerator
/// copies the stage out while the program goes on. Not where the program
/// may write the buffer after the store within the tile (`body`, a loop
/// over tiles' body, whose end releases the buffer). Returns whether any
/// was replaced.
FailureOr<bool> storeThroughTma(Value buffer, func::FuncOp func, Block *body) {
  bool replaced = false;
  for (Operation *user : llvm::make_early_inc_range(buffer.getUsers())) {
    auto load = dyn_cast<LocalLoadOp>(user);
    if (!load || !load->hasOneUse())
      continue;
    Operation *use = *load->getUsers().begin();
    auto reshape = dyn_cast<ReshapeOp>(use);
    if (reshape) {
      if (!reshape->hasOneUse())
        continue;
      use = *reshape->getUsers().begin();
    }
    auto store = dyn_cast<BlockStoreOp>(use);
    if (!store || !body->findAncestorOpInBlock(*store) ||
        mayWriteAfter(buffer, store, body))
      continue;
    RankedTensorType block =
        cast<BlockPointerType>(store.getPtr().getType()).getBlockType();
    auto make = store.getPtr().getDefiningOp<MakeBlockPtrOp>();
    if (!make || !isCopyableBlock(block) ||
        (block.getRank() > 2) != bool(reshape))
      continue;
    std::string why;
    DictionaryAttr array = describeArray(make, why);
    if (!array)
      continue;
    FailureOr<Value> map = appendTensorMapArgument(func, array);
    if (failed(map))
      return failure();
    OpBuilder b(store);
    TmaStoreOp::create(b, store.getLoc(), buffer, load.getStage(),
                       store.getPtr(), *map);
    store->erase();
    if (reshape)
      reshape->erase();
    load->erase();
    replaced = true;
  }
  return replaced;
}

struct TileWarpSpecializePass
    : public tile::impl::TileWarpSpecializeBase<TileWarpSpecializePass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    TileDialect::WarpSpecializeAttrHelper marked(ctx);
    bool ok = true;
    getOperation().walk([&](func::FuncOp func) {
      SmallVector<scf::ForOp> loops;
      func.walk([&](scf::ForOp loop) {
        if (marked.isAttrPresent(loop))
          loops.push_back(loop);
      });
      if (loops.empty())
        return;
      if (!targetHasWarpgroupMma(chip)) {
        for (scf::ForOp loop : loops)
          marked.removeAttr(loop);
        return;
      }
      if (failed(specialize(func, loops)))
        ok = false;
    });
    if (!ok)
      signalPassFailure();
  }

  /// Specializes `loops`, the marked loops of `func` in program order: one
  /// loop, or a chain whose loops continue each other's streams (see
  /// findChainedLoads), served by one producer loop over all their
  /// iterations.
  LogicalResult specialize(func::FuncOp func,
                           MutableArrayRef<scf::ForOp> loops) {
    MLIRContext *ctx = func.getContext();
    for (scf::ForOp loop : loops)
      TileDialect::WarpSpecializeAttrHelper(ctx).removeAttr(loop);
    scf::ForOp loop = loops.front();
    auto fail = [&](const Twine &why) {
      return loop.emitError("tile.warp_specialize: ") << why;
    };
    if (!func->hasAttr(TileDialect::getKernelAttrName()))
      return fail("the loop is not in a kernel");
    auto stagesAttr =
        func->getAttrOfType<IntegerAttr>(TileDialect::getNumStagesAttrName());
    if (!stagesAttr || stagesAttr.getInt() < 2)
      return fail("the kernel needs tile.num_stages >= 2 (the ring's stages)");
    int64_t stages = stagesAttr.getInt();
    int64_t numWarps = getNumWarps(func);

    // The loads: every streamed one must be copyable.
    SmallVector<Stream> streams;
    for (StreamedLoad load : findStreamedLoads(loop, isCopyableBlock)) {
      Stream s;
      s.load = load;
      RankedTensorType type = load.load.getType();
      s.block = RankedTensorType::get(type.getShape().take_back(2),
                                      type.getElementType());
      if (type.getRank() > 2 && !getReadingReshape(load.load, s.block))
        return fail("a block of rank ")
               << type.getRank()
               << " is read other than through one tile.reshape to its "
                  "last two dimensions";
      auto make =
          loop.getInitArgs()[load.iterArg].getDefiningOp<MakeBlockPtrOp>();
      if (!make)
        return fail("a streamed block pointer is not made by "
                    "tile.make_block_ptr before the loop");
      std::string why;
      s.array = describeArray(make, why);
      if (!s.array)
        return fail("the array of a streamed load cannot be copied with TMA: ")
               << why;
      streams.push_back(s);
    }
    if (streams.empty())
      return fail("the loop streams no f16/bf16 blocks through loop-carried "
                  "block pointers");
    // The streams' loads in each later loop of the chain.
    SmallVector<SmallVector<StreamedLoad>> chained{{}};
    for (Stream &s : streams)
      chained.front().push_back(s.load);
    for (scf::ForOp next : loops.drop_front()) {
      scf::ForOp prev = loops[chained.size() - 1];
      std::string why;
      std::optional<SmallVector<StreamedLoad>> loads =
          findChainedLoads(prev, next, streams, why);
      if (!loads)
        return next.emitError("tile.warp_specialize: a second marked loop ")
               << "does not continue the first one's streams: " << why;
      chained.push_back(std::move(*loads));
    }

    // The scf.ifs that hold the loop, outermost first, and whether the loop
    // is in their then-region; and at most one scf.for among them, a
    // persistent program's loop over its tiles, after which the ring goes
    // on counting iterations (`insideTiles`: the ifs inside it).
    SmallVector<std::pair<scf::IfOp, bool>> ifs;
    scf::ForOp tiles;
    size_t insideTiles = 0;
    for (Operation *op = loop; op->getParentOp() != func;
         op = op->getParentOp()) {
      Operation *parent = op->getParentOp();
      if (auto ifOp = dyn_cast<scf::IfOp>(parent)) {
        ifs.push_back({ifOp, op->getParentRegion() == &ifOp.getThenRegion()});
        continue;
      }
      auto forOp = dyn_cast<scf::ForOp>(parent);
      if (!forOp || tiles)
        return fail("the loop is inside a '")
               << parent->getName()
               << "'; the producer reproduces enclosing scf.if ops and one "
                  "scf.for only";
      if (forOp.getNumRegionIterArgs())
        return fail("the scf.for that holds the loop carries values; the "
                    "producer reproduces a loop over tiles without them");
      tiles = forOp;
      insideTiles = ifs.size();
    }
    std::reverse(ifs.begin(), ifs.end());
    // Index in `ifs` of the first if inside the loop over tiles.
    size_t firstInsideTiles = ifs.size() - insideTiles;

    // Streams the cluster's programs share: only if they all run the same
    // iterations.
    auto clusterAttr =
        func->getAttrOfType<IntegerAttr>(TileDialect::getClusterSizeAttrName());
    int64_t clusterSize = clusterAttr ? clusterAttr.getInt() : 1;
    if (clusterSize > 1 && tiles)
      return fail("a loop over tiles in a kernel of clusters is not "
                  "supported (the cluster's programs would have to take the "
                  "same tiles)");
    if (clusterSize > 1) {
      SmallVector<Value> control;
      for (scf::ForOp l : loops)
        llvm::append_range(control, ValueRange{l.getLowerBound(),
                                               l.getUpperBound(), l.getStep()});
      for (auto [ifOp, inThen] : ifs)
        control.push_back(ifOp.getCondition());
      bool sameSteps = llvm::none_of(
          control, [&](Value v) { return variesInCluster(v, func); });
      for (Stream &s : streams) {
        SmallVector<Value> values{loop.getInitArgs()[s.load.iterArg]};
        llvm::append_range(values, s.load.advance.getOffsets());
        s.shared = sameSteps && llvm::none_of(values, [&](Value v) {
                     return variesInCluster(v, func);
                   });
        if (s.shared && s.block.getDimSize(0) % clusterSize)
          s.shared = false;
      }
    }

    // Buffers, barriers, tensor maps and the producer region at the
    // kernel's start.
    Location loc = loop.getLoc();
    Block &entry = func.getBody().front();
    OpBuilder b(ctx);
    b.setInsertionPointToStart(&entry);
    SmallVector<Value> buffers, full, empty, maps;
    for (Stream &s : streams) {
      int64_t bytes = s.block.getElementType().getIntOrFloatBitWidth() / 8;
      buffers.push_back(AllocSharedOp::create(
          b, loc, SharedBufferType::get(ctx, s.block, stages, 16 / bytes)));
      full.push_back(
          AllocMBarriersOp::create(b, loc, MBarriersType::get(ctx, stages, 1)));
      // A shared stage is released by each warp of the cluster's programs.
      int64_t releases = s.shared ? numWarps * clusterSize : numWarps * 32;
      empty.push_back(AllocMBarriersOp::create(
          b, loc, MBarriersType::get(ctx, stages, releases)));
      FailureOr<Value> map = appendTensorMapArgument(func, s.array);
      if (failed(map))
        return failure();
      maps.push_back(*map);
    }
    // One-shot copies: a tensor map and a barrier per stage each (`ready`);
    // in a loop over tiles also a barrier per stage the program releases
    // the stage on (`emptied`), which the producer waits for before copying
    // a later tile's block into it. The program waits for a copy right
    // before the buffer's first use after the store (`firstUse`; the
    // store's place if none). The producer copies a block that the program
    // first uses after the marked loops, in a loop over tiles, once it has
    // issued the loops' copies (`afterLoops`): the tile's ring copies then
    // do not wait for the previous tile to release that buffer, near its
    // end.
    SmallVector<OneShotCopy> oneShots = findOneShotCopies(loop, func, tiles);
    SmallVector<Value> oneShotMaps, oneShotReady, oneShotEmptied;
    SmallVector<Operation *> oneShotFirstUse;
    SmallVector<bool> afterLoops;
    for (OneShotCopy &copy : oneShots) {
      Operation *first = copy.store.getOperation();
      for (Operation *user : copy.store.getBuffer().getUsers()) {
        Operation *at = first->getBlock()->findAncestorOpInBlock(*user);
        if (at && copy.store->isBeforeInBlock(at) &&
            (first == copy.store.getOperation() || at->isBeforeInBlock(first)))
          first = at;
      }
      oneShotFirstUse.push_back(first);
      Operation *lastLoop = loops.back().getOperation();
      afterLoops.push_back(tiles && lastLoop->getBlock() == first->getBlock() &&
                           lastLoop->isBeforeInBlock(first));
      oneShotReady.push_back(AllocMBarriersOp::create(
          b, loc, MBarriersType::get(ctx, copy.stages, 1)));
      if (tiles)
        oneShotEmptied.push_back(AllocMBarriersOp::create(
            b, loc, MBarriersType::get(ctx, copy.stages, numWarps * 32)));
      FailureOr<Value> map = appendTensorMapArgument(func, copy.array);
      if (failed(map))
        return failure();
      oneShotMaps.push_back(*map);
    }
    // setmaxnreg moves registers within the program's own pool: what its
    // launch allocates per thread (ptxas' bound for the program's threads
    // and `tile.min_programs_per_sm` programs per SM, in multiples of 8)
    // times its threads. The producer's warps keep 24 of theirs; the
    // program's warps take the rest (an increase the pool cannot cover
    // would wait forever).
    int64_t programs = 1;
    if (auto attr = func->getAttrOfType<IntegerAttr>(
            TileDialect::getMinProgramsPerSMAttrName()))
      programs = std::max<int64_t>(1, attr.getInt());
    int32_t consumerRegisters =
        getSpecializedConsumerRegisters(numWarps, programs);
    if (consumerRegisters < kSpecializedProducerRegisters)
      return fail(Twine(programs) +
                  " programs per SM (tile.min_programs_per_sm) leave the "
                  "program's warps fewer than 24 registers each");
    auto specialize = WarpSpecializeOp::create(
        b, loc, kSpecializedProducerRegisters, consumerRegisters);
    // The one-shot copies' buffers come before the producer that fills
    // them.
    for (OneShotCopy &copy : oneShots)
      copy.store.getBuffer().getDefiningOp()->moveBefore(specialize);
    Block *region = &specialize.getProducer().emplaceBlock();
    OpBuilder pb = OpBuilder::atBlockBegin(region);
    // A kernel that waits for the kernel before it (tile.wait_prior_grid)
    // may read that kernel's writes through any copy: its producer waits
    // first too.
    if (func.walk([](WaitPriorGridOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      WaitPriorGridOp::create(pb, loc);

    // The producer's copies of the scalars it needs.
    IRMapping mapping;
    std::function<LogicalResult(Value)> require =
        [&](Value v) -> LogicalResult {
      if (mapping.contains(v))
        return success();
      if (auto arg = dyn_cast<BlockArgument>(v)) {
        if (arg.getOwner()->getParentOp() == func)
          return success();
        return fail("the producer needs a value of an enclosing loop or "
                    "region (block argument #")
               << arg.getArgNumber() << ")";
      }
      Operation *def = v.getDefiningOp();
      if (!isClonableScalarOp(def))
        return def->emitError("tile.warp_specialize: the producer needs this "
                              "value, which is not computed from scalars by "
                              "pure ops");
      for (Value operand : def->getOperands())
        if (failed(require(operand)))
          return failure();
      pb.clone(*def, mapping);
      return success();
    };
    // The loop over tiles carries the iterations the ring served before
    // (`base`) and, with one-shot copies, the tiles that copied them
    // (`uses`); the ifs inside it yield how many they ran.
    scf::ForOp producerTiles;
    SmallVector<std::pair<scf::IfOp, bool>> producerIfs;
    Value base, uses;
    int64_t counters = oneShots.empty() ? 1 : 2;
    auto openTiles = [&]() -> LogicalResult {
      for (Value v :
           {tiles.getLowerBound(), tiles.getUpperBound(), tiles.getStep()})
        if (failed(require(v)))
          return failure();
      Value zero = arith::ConstantOp::create(pb, loc, pb.getI32IntegerAttr(0));
      producerTiles = scf::ForOp::create(
          pb, loc, mapping.lookupOrDefault(tiles.getLowerBound()),
          mapping.lookupOrDefault(tiles.getUpperBound()),
          mapping.lookupOrDefault(tiles.getStep()),
          SmallVector<Value>(counters, zero),
          [&](OpBuilder &tb, Location l, Value, ValueRange carried) {
            scf::YieldOp::create(tb, l, carried);
          });
      mapping.map(tiles.getInductionVar(), producerTiles.getInductionVar());
      base = producerTiles.getRegionIterArgs()[0];
      if (counters > 1)
        uses = producerTiles.getRegionIterArgs()[1];
      pb.setInsertionPoint(producerTiles.getBody()->getTerminator());
      return success();
    };
    for (auto [index, entry] : llvm::enumerate(ifs)) {
      auto [ifOp, inThen] = entry;
      if (tiles && index == firstInsideTiles && failed(openTiles()))
        return failure();
      if (failed(require(ifOp.getCondition())))
        return failure();
      auto copy = scf::IfOp::create(
          pb, loc, mapping.lookupOrDefault(ifOp.getCondition()),
          /*withElseRegion=*/!inThen);
      if (tiles && index >= firstInsideTiles)
        producerIfs.push_back({copy, inThen});
      pb.setInsertionPoint(inThen ? copy.thenBlock()->getTerminator()
                                  : copy.elseBlock()->getTerminator());
    }
    if (tiles && firstInsideTiles == ifs.size() && failed(openTiles()))
      return failure();
    SmallVector<Value> needed{loop.getLowerBound(),
                              loops.back().getUpperBound(), loop.getStep()};
    for (Stream &s : streams) {
      needed.push_back(loop.getInitArgs()[s.load.iterArg]);
      llvm::append_range(needed, s.load.advance.getOffsets());
    }
    for (Value v : needed)
      if (failed(require(v)))
        return failure();
    // A one-shot copy; in a loop over tiles into the stage of the tiles
    // that copied before, once the program released that stage's previous
    // contents (the phase before this use's, which a fresh barrier
    // passes).
    auto emitOneShots = [&](bool afterTheLoops) -> LogicalResult {
      for (auto [index, copy] : llvm::enumerate(oneShots)) {
        if (afterLoops[index] != afterTheLoops)
          continue;
        if (failed(require(copy.make.getResult())))
          return failure();
        Location at = copy.store.getLoc();
        Value stage =
            arith::ConstantOp::create(pb, at, pb.getI32IntegerAttr(0));
        if (tiles) {
          Value one =
              arith::ConstantOp::create(pb, at, pb.getI32IntegerAttr(1));
          auto [inTurn, parity] = emitOneShotStageAndParity(pb, at, uses, copy);
          stage = inTurn;
          Value released = arith::XOrIOp::create(pb, at, parity, one);
          MBarrierWaitOp::create(pb, at, oneShotEmptied[index], stage, released,
                                 /*nosync=*/true);
        }
        Value always = arith::ConstantOp::create(pb, at, pb.getBoolAttr(true));
        TmaCopyOp::create(pb, at,
                          mapping.lookupOrDefault(copy.make.getResult()),
                          copy.store.getBuffer(), stage, oneShotMaps[index],
                          oneShotReady[index], always,
                          /*batch=*/Value(), /*multicast=*/IntegerAttr());
      }
      return success();
    };
    if (failed(emitOneShots(/*afterTheLoops=*/false)))
      return failure();
    SmallVector<Value> inits;
    for (Stream &s : streams)
      inits.push_back(
          mapping.lookupOrDefault(loop.getInitArgs()[s.load.iterArg]));
    Value lb = mapping.lookupOrDefault(loop.getLowerBound());
    Value ub = mapping.lookupOrDefault(loops.back().getUpperBound());
    Value step = mapping.lookupOrDefault(loop.getStep());
    auto producerLoop = scf::ForOp::create(
        pb, loc, lb, ub, step, inits,
        [&](OpBuilder &lb2, Location l, Value iv, ValueRange ptrs) {
          auto [stage, parity] =
              emitStageAndParity(lb2, l, iv, lb, step, stages, base);
          // A stage is free once the threads released its previous use:
          // the phase before this use's, which a fresh barrier passes.
          Value released = arith::XOrIOp::create(
              lb2, l, parity,
              arith::ConstantOp::create(lb2, l, lb2.getI32IntegerAttr(1)));
          Value always =
              arith::ConstantOp::create(lb2, l, lb2.getBoolAttr(true));
          SmallVector<Value> next;
          for (auto [k, s] : llvm::enumerate(streams)) {
            MBarrierWaitOp::create(lb2, l, empty[k], stage, released,
                                   /*nosync=*/true);
            auto copy = TmaCopyOp::create(
                lb2, l, ptrs[k], buffers[k], stage, maps[k], full[k], always,
                /*batch=*/Value(), /*multicast=*/IntegerAttr());
            if (s.shared)
              copy.setMulticast(clusterSize);
            SmallVector<Value> offsets;
            for (Value o : s.load.advance.getOffsets())
              offsets.push_back(mapping.lookupOrDefault(o));
            next.push_back(
                AdvanceOp::create(lb2, l, ptrs[k].getType(), ptrs[k], offsets));
          }
          scf::YieldOp::create(lb2, l, next);
        });
    if (failed(emitOneShots(/*afterTheLoops=*/true)))
      return failure();

    // In a loop over tiles the producer copies a tile's one-shot blocks
    // into a buffer of one stage once the previous tile released it, and
    // the program waits for them: where that is near the previous tile's
    // end (a block used up to the loops' end, say), their latency from
    // device memory would delay each tile's start. So the producer brings
    // the next tile's blocks of one-stage buffers into L2
    // (tile.tma_prefetch), where their copies then find them, once it has
    // issued all of this tile's copies: issued first, the prefetches would
    // delay this tile's stream copies. (Blocks with a stage per tile, or
    // copied after the loops' copies, are copied early enough.) The next
    // tile's scalars are recomputed from its index (pure ops; past the last
    // tile they are computed and not used).
    auto prefetched = [&](size_t index) {
      return oneShots[index].stages == 1 && !afterLoops[index];
    };
    if (tiles &&
        llvm::any_of(llvm::seq<size_t>(0, oneShots.size()), prefetched)) {
      Value iv = producerTiles.getInductionVar();
      Value nextTile =
          arith::AddIOp::create(pb, loc, iv, producerTiles.getStep());
      Value hasNext =
          arith::CmpIOp::create(pb, loc, arith::CmpIPredicate::slt, nextTile,
                                producerTiles.getUpperBound());
      IRMapping next;
      next.map(tiles.getInductionVar(), nextTile);
      std::function<LogicalResult(Value)> requireNext =
          [&](Value v) -> LogicalResult {
        if (next.contains(v))
          return success();
        Operation *def = v.getDefiningOp();
        Operation *owner =
            def ? def : cast<BlockArgument>(v).getOwner()->getParentOp();
        if (!tiles->isAncestor(owner)) {
          if (failed(require(v)))
            return failure();
          next.map(v, mapping.lookupOrDefault(v));
          return success();
        }
        if (!def || !isClonableScalarOp(def))
          return (def ? def : tiles.getOperation())
              ->emitError("tile.warp_specialize: the producer "
                          "recomputes this value for the next tile, "
                          "but it is not computed from scalars by "
                          "pure ops");
        for (Value operand : def->getOperands())
          if (failed(requireNext(operand)))
            return failure();
        pb.clone(*def, next);
        return success();
      };
      for (auto [index, copy] : llvm::enumerate(oneShots)) {
        if (!prefetched(index))
          continue;
        if (failed(requireNext(copy.make.getResult())))
          return failure();
        TmaPrefetchOp::create(pb, copy.store.getLoc(),
                              next.lookup(copy.make.getResult()),
                              oneShotMaps[index], hasNext);
      }
    }

    // In a loop over tiles, both sides add each tile's iterations to
    // `base`, passing them out of the ifs inside it.
    // The counts of a tile at the end of the innermost block of `counted`
    // (the iterations, and 1 for the one-shot copies), passed out of the
    // ifs (innermost first).
    auto countOut = [&](Operation *counted, Value from, Value to, Value by,
                        ArrayRef<std::pair<scf::IfOp, bool>> nest) {
      OpBuilder after(counted);
      after.setInsertionPointAfter(counted);
      SmallVector<Value> counts{emitTripCount(after, loc, from, to, by)};
      if (counters > 1)
        counts.push_back(
            arith::ConstantOp::create(after, loc, after.getI32IntegerAttr(1)));
      for (auto [ifOp, inThen] : llvm::reverse(nest)) {
        scf::IfOp grown = appendCountResults(ifOp, inThen, counts);
        counts.assign(grown.getResults().take_back(counters).begin(),
                      grown.getResults().take_back(counters).end());
      }
      return counts;
    };
    Value consumerBase, consumerUses;
    if (tiles) {
      SmallVector<Value> counts =
          countOut(producerLoop, lb, ub, step, producerIfs);
      auto yield = cast<scf::YieldOp>(producerTiles.getBody()->getTerminator());
      OpBuilder after(yield);
      for (int64_t i = 0; i < counters; ++i)
        yield->setOperand(
            i, arith::AddIOp::create(after, loc,
                                     producerTiles.getRegionIterArgs()[i],
                                     counts[i]));

      counts = countOut(loops.back(), loop.getLowerBound(),
                        loops.back().getUpperBound(), loop.getStep(),
                        ArrayRef(ifs).drop_front(firstInsideTiles));
      IRRewriter rewriter(ctx);
      after.setInsertionPoint(tiles);
      Value zero =
          arith::ConstantOp::create(after, loc, after.getI32IntegerAttr(0));
      FailureOr<LoopLikeOpInterface> counted =
          tiles.replaceWithAdditionalYields(
              rewriter, SmallVector<Value>(counters, zero),
              /*replaceInitOperandUsesInLoop=*/false,
              [&](OpBuilder &yb, Location l, ArrayRef<BlockArgument> args) {
                SmallVector<Value> next;
                for (int64_t i = 0; i < counters; ++i)
                  next.push_back(
                      arith::AddIOp::create(yb, l, args[i], counts[i]));
                return next;
              });
      if (failed(counted))
        return fail("the loop over tiles could not carry the ring's count");
      auto args = cast<scf::ForOp>(counted->getOperation()).getRegionIterArgs();
      consumerBase = args[args.size() - counters];
      if (counters > 1)
        consumerUses = args.back();
    }

    // The program's side of a one-shot copy: a wait for its barrier before
    // the buffer's first use (stage and phase: the tiles that copied
    // before) and, in a loop over tiles, the stage's release after its last
    // use. The program's reads and writes of a buffer of several stages
    // move to the tile's stage.
    for (auto [index, copy] : llvm::enumerate(oneShots)) {
      Location at = copy.store.getLoc();
      OpBuilder cb(copy.store);
      Value stage, parity;
      if (tiles)
        std::tie(stage, parity) =
            emitOneShotStageAndParity(cb, at, consumerUses, copy);
      Value buffer = copy.store.getBuffer();
      // (The producer's copies into it are the buffer's only other users.)
      if (copy.stages != 1)
        for (Operation *user : buffer.getUsers()) {
          if (user == copy.store.getOperation())
            continue;
          if (auto load = dyn_cast<LocalLoadOp>(user))
            load.getStageMutable().assign(stage);
          else if (auto store = dyn_cast<LocalStoreOp>(user))
            store.getStageMutable().assign(stage);
        }
      cb.setInsertionPoint(oneShotFirstUse[index]);
      if (!tiles)
        stage = parity =
            arith::ConstantOp::create(cb, at, cb.getI32IntegerAttr(0));
      auto wait = MBarrierWaitOp::create(cb, at, oneShotReady[index], stage,
                                         parity, /*nosync=*/true);
      Block *block = copy.store->getBlock();
      copy.store->erase();
      if (copy.reshape)
        copy.reshape->erase();
      copy.load->erase();
      if (!tiles)
        continue;
      // In a loop over tiles, a block stored from the buffer goes out by
      // TMA. The stage's release then waits for the copy to have read it,
      // at the tile's end, so that the copy has the rest of the tile to.
      FailureOr<bool> stored = storeThroughTma(buffer, func, block);
      if (failed(stored))
        return fail("a tensor map could not be added for a block stored "
                    "from a one-shot buffer");
      auto [last, after] = getLastUse(buffer, block);
      cb.setInsertionPointAfter(last ? last : wait.getOperation());
      if (*stored)
        cb.setInsertionPoint(block->getTerminator());
      auto release =
          MBarrierArriveOp::create(cb, at, oneShotEmptied[index], stage, after);
      release.setStores(*stored);
    }

    // The program's side, in each loop: wait for each stage, read it,
    // release it. Iterations count from the first loop's lower bound.
    for (auto [consumer, loads] : llvm::zip(loops, chained)) {
      Block *body = consumer.getBody();
      OpBuilder cb = OpBuilder::atBlockBegin(body);
      auto [stage, parity] = emitStageAndParity(
          cb, loc, consumer.getInductionVar(), loop.getLowerBound(),
          loop.getStep(), stages, consumerBase);
      for (Value barriers : full)
        MBarrierWaitOp::create(cb, loc, barriers, stage, parity,
                               /*nosync=*/true);
      SmallVector<Value> reads;
      for (auto [k, load] : llvm::enumerate(loads)) {
        Operation *reshape = nullptr;
        if (load.load.getType().getRank() > 2)
          reshape = getReadingReshape(load.load, streams[k].block);
        Operation *at = reshape ? reshape : load.load.getOperation();
        cb.setInsertionPoint(at);
        Value read = LocalLoadOp::create(cb, at->getLoc(), streams[k].block,
                                         buffers[k], stage);
        at->getResult(0).replaceAllUsesWith(read);
        if (reshape)
          reshape->erase();
        load.load->erase();
        reads.push_back(read);
      }
      cb.setInsertionPoint(body->getTerminator());
      for (auto [k, tile] : llvm::enumerate(reads)) {
        auto release = MBarrierArriveOp::create(cb, loc, empty[k], stage,
                                                readingDots(tile, body));
        release.setCluster(streams[k].shared);
      }
    }
    return success();
  }

  /// The loads of `next` that continue `streams` from `prev`: `next`
  /// follows `prev` in its block, starts where `prev` ends with the same
  /// step, and streams a block pointer of the same iteration argument from
  /// `prev`'s result, of the same type, read the same way and advanced by
  /// the same offsets; nothing else is streamed.
  static std::optional<SmallVector<StreamedLoad>>
  findChainedLoads(scf::ForOp prev, scf::ForOp next, ArrayRef<Stream> streams,
                   std::string &why) {
    if (next->getBlock() != prev->getBlock() || !prev->isBeforeInBlock(next)) {
      why = "it is not after it in the same block";
      return std::nullopt;
    }
    if (next.getLowerBound() != prev.getUpperBound() ||
        next.getStep() != prev.getStep()) {
      why = "it does not start where the first ends, with the same step";
      return std::nullopt;
    }
    SmallVector<StreamedLoad> found = findStreamedLoads(next, isCopyableBlock),
                              out;
    if (found.size() != streams.size()) {
      why = "it streams a different number of blocks";
      return std::nullopt;
    }
    for (const Stream &stream : streams) {
      StreamedLoad load = stream.load;
      auto match = llvm::find_if(found, [&](const StreamedLoad &l) {
        return l.iterArg == load.iterArg;
      });
      if (match == found.end() ||
          next.getInitArgs()[match->iterArg] != prev.getResult(load.iterArg) ||
          match->load.getType() != load.load.getType() ||
          !llvm::equal(match->advance.getOffsets(),
                       load.advance.getOffsets())) {
        why = "a streamed block pointer is not the first loop's result, "
              "or is read or advanced differently";
        return std::nullopt;
      }
      // Blocks of higher rank are read through one reshape, as in the
      // first loop.
      if (load.load.getType().getRank() > 2 &&
          !getReadingReshape(match->load, stream.block)) {
        why = "a block of higher rank is read other than through one "
              "tile.reshape to its last two dimensions";
        return std::nullopt;
      }
      out.push_back(*match);
    }
    return out;
  }
};

} // namespace
