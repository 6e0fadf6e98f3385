//===- PipelineLoops.cpp - Software pipelining of block loads -------------===//
//
// Rewrites loops that stream blocks through loop-carried block pointers so
// that the blocks of the next S - 1 iterations are being copied into shared
// memory (tile.async_copy) while the current one is computed on, as the
// library kernels and examples/matmul_f16.mlir do by hand. See the pass
// description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Layout.h"
#include "tile/Dialect/Tile/IR/Tile.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "StreamedLoads.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEPIPELINELOOPS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

using Candidate = StreamedLoad;

/// Whether a block of `type` can live in a shared buffer (see
/// SharedBufferType::verify), with rows padded by 16 bytes.
static bool fitsSharedBuffer(RankedTensorType type) {
  Type elem = type.getElementType();
  if (type.getRank() != 2 ||
      !(elem.isF16() || elem.isBF16() || elem.isF32() || elem.isInteger(32)))
    return false;
  int64_t bytes = elem.getIntOrFloatBitWidth() / 8;
  return (type.getDimSize(1) * bytes) % 16 == 0;
}

static SmallVector<Candidate> findCandidates(scf::ForOp loop) {
  return findStreamedLoads(loop, fitsSharedBuffer);
}

/// Whether the loop's dots could become wgmma left in flight (see the
/// pass description): an f16/bf16 dot of the wgmma shapes whose operands
/// are both pipelined loads (the case measured; a computed `a` would work
/// too).
static bool hasWarpgroupMmaCandidate(scf::ForOp loop,
                                     ArrayRef<Candidate> candidates,
                                     unsigned numWarps) {
  auto pipelined = [&](Value v) {
    return llvm::any_of(candidates,
                        [&](Candidate c) { return c.load.getResult() == v; });
  };
  for (Operation &op : loop.getBody()->without_terminator())
    if (auto dot = dyn_cast<DotOp>(op))
      if (pipelined(dot.getA()) && pipelined(dot.getB()) &&
          isWarpgroupMmaShape(dot, numWarps, /*aFromShared=*/true))
        return true;
  return false;
}

/// The `tile.tma` dictionary of the tensor map through which `c`'s blocks
/// can be copied, or null: an f16/bf16 block of a row-major 2-d array
/// whose base, shape and strides the runtime knows at launch (kernel
/// arguments or constants), read by a wgmma dot (whose buffer layouts TMA
/// can write, see tile-convert-to-llvm).
static DictionaryAttr getTmaArray(scf::ForOp loop, Candidate c,
                                  unsigned numWarps) {
  RankedTensorType block = c.load.getType();
  if (!block.getElementType().isF16() && !block.getElementType().isBF16())
    return {};
  bool readByWgmma = llvm::any_of(c.load->getUsers(), [&](Operation *u) {
    auto dot = dyn_cast<DotOp>(u);
    return dot && isWarpgroupMmaShape(dot, numWarps, /*aFromShared=*/true);
  });
  if (!readByWgmma)
    return {};
  auto make = loop.getInitArgs()[c.iterArg].getDefiningOp<MakeBlockPtrOp>();
  if (!make || make.getOrder() != ArrayRef<int32_t>{1, 0})
    return {};
  auto base = dyn_cast<BlockArgument>(make.getBase());
  if (!base || !isa<func::FuncOp>(base.getOwner()->getParentOp()))
    return {};
  Builder b(loop.getContext());
  SmallVector<Attribute> shape, strides;
  for (Value v : make.getShape())
    shape.push_back(b.getStringAttr(describeHostInteger(v)));
  for (Value v : make.getStrides())
    strides.push_back(b.getStringAttr(describeHostInteger(v)));
  auto known = [](Attribute a) { return !cast<StringAttr>(a).empty(); };
  if (!llvm::all_of(shape, known) || !llvm::all_of(strides, known))
    return {};
  // A constant inner stride other than 1 can never be mapped.
  if (cast<StringAttr>(strides[1]).getValue() != "1" &&
      !cast<StringAttr>(strides[1]).getValue().starts_with("arg"))
    return {};
  return b.getDictionaryAttr(
      {b.getNamedAttr("base", b.getI64IntegerAttr(base.getArgNumber())),
       b.getNamedAttr("shape", b.getArrayAttr(shape)),
       b.getNamedAttr("strides", b.getArrayAttr(strides))});
}

/// Pipelines `candidates` over `stages` stages; with `reserve`, copies run
/// S - 2 iterations ahead instead of S - 1 (see the pass description).
///
/// With `maps` (one tensor-map argument per candidate), the copies are
/// TMA copies completing on one mbarrier per stage instead of cp.async
/// groups, each issued only for iterations the loop runs (nothing may be
/// in flight when the loop ends).
static void pipeline(scf::ForOp loop, MutableArrayRef<Candidate> candidates,
                     int64_t stages, bool reserve, ArrayRef<Value> maps) {
  int64_t ahead = reserve ? stages - 2 : stages - 1;
  MLIRContext *ctx = loop.getContext();
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Type i32 = b.getI32Type();
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  auto advance = [&](Value ptr, Candidate c) -> Value {
    return AdvanceOp::create(b, loc, ptr.getType(), ptr,
                             c.advance.getOffsets());
  };

  // cp.async prologues start as early as their pointers allow: above the
  // ops before the loop that neither define what the copies take nor
  // write memory other than shared buffers (the copies read global memory
  // and write buffers of their own), so that their latency overlaps that
  // work.
  if (maps.empty()) {
    llvm::SmallPtrSet<Value, 8> taken;
    for (Candidate c : candidates) {
      taken.insert(loop.getInitArgs()[c.iterArg]);
      for (Value v : c.advance.getOffsets())
        taken.insert(v);
    }
    Operation *start = loop;
    while (Operation *prev = start->getPrevNode()) {
      bool defines = llvm::any_of(prev->getResults(),
                                  [&](Value v) { return taken.contains(v); });
      if (defines ||
          !(isMemoryEffectFree(prev) ||
            isa<LocalStoreOp, LocalLoadOp, BlockLoadOp, LoadOp>(prev)))
        break;
      start = prev;
    }
    b.setInsertionPoint(start);
  }

  // Buffers and the prologue: iterations 0 .. ahead - 1 in flight.
  SmallVector<Value> buffers, aheadPtrs;
  for (Candidate c : candidates) {
    RankedTensorType block = c.load.getType();
    int64_t bytes = block.getElementType().getIntOrFloatBitWidth() / 8;
    RankedTensorType plain =
        RankedTensorType::get(block.getShape(), block.getElementType());
    buffers.push_back(AllocSharedOp::create(
        b, loc, SharedBufferType::get(ctx, plain, stages, 16 / bytes)));
    aheadPtrs.push_back(loop.getInitArgs()[c.iterArg]);
  }
  // TMA: the loop's trip count bounds the copies.
  Value barriers, tripCount;
  if (!maps.empty()) {
    barriers = AllocMBarriersOp::create(
        b, loc, MBarriersType::get(ctx, stages, candidates.size()));
    Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
          step = loop.getStep();
    if (!lb.getType().isInteger(32)) {
      lb = arith::IndexCastOp::create(b, loc, i32, lb);
      ub = arith::IndexCastOp::create(b, loc, i32, ub);
      step = arith::IndexCastOp::create(b, loc, i32, step);
    }
    tripCount = arith::CeilDivSIOp::create(
        b, loc, arith::SubIOp::create(b, loc, ub, lb), step);
  }
  auto copy = [&](Value ptr, Value buffer, Value stage, unsigned i,
                  Value iteration) {
    if (maps.empty()) {
      AsyncCopyOp::create(b, loc, ptr, buffer, stage);
      return;
    }
    Value runs = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                       iteration, tripCount);
    TmaCopyOp::create(b, loc, ptr, buffer, stage, maps[i], barriers, runs,
                      /*batch=*/Value(), /*multicast=*/IntegerAttr());
  };
  for (int64_t s = 0; s < ahead; ++s) {
    for (auto [i, buffer, ptr] : llvm::enumerate(buffers, aheadPtrs)) {
      Value first = constant(s); // stage s holds iteration s
      copy(ptr, buffer, first, i, first);
    }
    if (maps.empty())
      AsyncCommitOp::create(b, loc);
    for (auto [c, ptr] : llvm::zip(candidates, aheadPtrs))
      ptr = advance(ptr, c);
  }

  // The new loop carries, after the old iter_args, the block pointers of
  // the iteration `ahead` ahead.
  b.setInsertionPoint(loop);
  SmallVector<Value> inits(loop.getInitArgs());
  inits.append(aheadPtrs);
  auto newLoop =
      scf::ForOp::create(b, loc, loop.getLowerBound(), loop.getUpperBound(),
                         loop.getStep(), inits);
  Block *body = newLoop.getBody();
  if (reserve)
    TileDialect::MmaInFlightAttrHelper(ctx).setAttr(newLoop,
                                                    UnitAttr::get(ctx));
  if (!body->empty() && body->back().hasTrait<OpTrait::IsTerminator>())
    body->back().erase();
  b.setInsertionPointToStart(body);
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), newLoop.getInductionVar());
  unsigned numOld = loop.getNumRegionIterArgs();
  for (unsigned i = 0; i < numOld; ++i)
    mapping.map(loop.getRegionIterArgs()[i], newLoop.getRegionIterArgs()[i]);

  // Iteration i = (iv - lb) / step, its stage and the stage `ahead` on.
  Value iv = newLoop.getInductionVar();
  Value first = loop.getLowerBound(), step = loop.getStep();
  if (!iv.getType().isInteger(32)) {
    iv = arith::IndexCastOp::create(b, loc, i32, iv);
    first = arith::IndexCastOp::create(b, loc, i32, first);
    step = arith::IndexCastOp::create(b, loc, i32, step);
  }
  Value iteration = arith::DivSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, iv, first), step);
  if (maps.empty())
    AsyncWaitOp::create(b, loc, ahead - 1);
  Value stage = arith::RemUIOp::create(b, loc, iteration, constant(stages));
  if (!maps.empty()) {
    // Iteration i's copies are barrier i mod S's (i / S)-th phase.
    Value parity = arith::RemUIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, iteration, constant(stages)),
        constant(2));
    MBarrierWaitOp::create(b, loc, barriers, stage, parity);
  }
  Value aheadIteration =
      arith::AddIOp::create(b, loc, iteration, constant(ahead));
  Value aheadStage =
      arith::RemUIOp::create(b, loc, aheadIteration, constant(stages));
  for (auto [i, buffer] : llvm::enumerate(buffers))
    copy(newLoop.getRegionIterArgs()[numOld + i], buffer, aheadStage, i,
         aheadIteration);
  if (maps.empty())
    AsyncCommitOp::create(b, loc);

  // The body, each pipelined load read from its stage instead.
  DenseMap<Operation *, Value> bufferOf;
  for (auto [c, buffer] : llvm::zip(candidates, buffers))
    bufferOf[c.load] = buffer;
  for (Operation &op : loop.getBody()->without_terminator()) {
    auto it = bufferOf.find(&op);
    if (it == bufferOf.end()) {
      b.clone(op, mapping);
      continue;
    }
    auto load = cast<BlockLoadOp>(op);
    Value read = LocalLoadOp::create(b, loc, load.getType(), it->second, stage);
    mapping.map(load.getResult(), read);
  }
  auto oldYield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  SmallVector<Value> yields;
  for (Value v : oldYield.getOperands())
    yields.push_back(mapping.lookupOrDefault(v));
  for (auto [i, c] : llvm::enumerate(candidates))
    yields.push_back(advance(newLoop.getRegionIterArgs()[numOld + i], c));
  scf::YieldOp::create(b, loc, yields);

  // Copies issued past the last iteration must finish before the kernel
  // does (TMA copies are issued for the loop's iterations only).
  b.setInsertionPointAfter(newLoop);
  if (maps.empty())
    AsyncWaitOp::create(b, loc, 0);
  for (unsigned i = 0; i < numOld; ++i)
    loop.getResult(i).replaceAllUsesWith(newLoop.getResult(i));
  loop.erase();
}

struct TilePipelineLoopsPass
    : public tile::impl::TilePipelineLoopsBase<TilePipelineLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp func) {
      if (!func->hasAttr(TileDialect::getKernelAttrName()))
        return;
      auto attr =
          func->getAttrOfType<IntegerAttr>(TileDialect::getNumStagesAttrName());
      if (!attr || attr.getInt() < 2)
        return;
      // Innermost loops first (a post-order walk); each is rewritten once.
      SmallVector<scf::ForOp> loops;
      func.walk([&](scf::ForOp loop) { loops.push_back(loop); });
      bool warpgroupMma = targetHasWarpgroupMma(chip);
      auto numWarps = (unsigned)getNumWarps(func);
      for (scf::ForOp loop : loops) {
        SmallVector<Candidate> candidates = findCandidates(loop);
        if (candidates.empty())
          continue;
        // With three stages a reserved one leaves a single copy in flight,
        // which measured slower than waiting for each wgmma group (see
        // docs/perf-notes.md): four stages or more.
        bool reserve = warpgroupMma && attr.getInt() >= 4 &&
                       hasWarpgroupMmaCandidate(loop, candidates, numWarps);
        // TMA where the kernel asks for it and every pipelined array of
        // the loop can be mapped (one wait protocol per loop).
        SmallVector<DictionaryAttr> arrays;
        if (warpgroupMma &&
            TileDialect::TmaAttrHelper(func.getContext()).isAttrPresent(func))
          for (Candidate c : candidates)
            if (DictionaryAttr array = getTmaArray(loop, c, numWarps))
              arrays.push_back(array);
        SmallVector<Value> maps;
        if (!arrays.empty() && arrays.size() == candidates.size()) {
          for (DictionaryAttr array : arrays) {
            FailureOr<Value> map = appendTensorMapArgument(func, array);
            if (failed(map))
              return signalPassFailure();
            maps.push_back(*map);
          }
        }
        pipeline(loop, candidates, attr.getInt(), reserve, maps);
      }
    });
  }
};

} // namespace
