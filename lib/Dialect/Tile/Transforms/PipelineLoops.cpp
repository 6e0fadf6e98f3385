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

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEPIPELINELOOPS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// A block load the pass pipelines: the load, the index of its block
/// pointer among the loop's iter_args, and the advance that moves it.
struct Candidate {
  BlockLoadOp load;
  unsigned iterArg;
  AdvanceOp advance;
};

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
  SmallVector<Candidate> out;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  for (Operation &op : loop.getBody()->without_terminator()) {
    auto load = dyn_cast<BlockLoadOp>(op);
    if (!load || !fitsSharedBuffer(load.getType()))
      continue;
    // Copies fill what lies outside the array with zeros.
    if (!load.getCheck().empty() && load.getPadding() != PaddingKind::Zero)
      continue;
    auto arg = dyn_cast<BlockArgument>(load.getPtr());
    if (!arg || arg.getOwner() != loop.getBody() || arg.getArgNumber() == 0)
      continue;
    unsigned index = arg.getArgNumber() - 1;
    auto advance = yield.getOperand(index).getDefiningOp<AdvanceOp>();
    if (!advance || advance.getPtr() != arg ||
        !llvm::all_of(advance.getOffsets(),
                      [&](Value v) { return loop.isDefinedOutsideOfLoop(v); }))
      continue;
    out.push_back({load, index, advance});
  }
  return out;
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

/// Pipelines `candidates` over `stages` stages; with `reserve`, copies run
/// S - 2 iterations ahead instead of S - 1 (see the pass description).
static void pipeline(scf::ForOp loop, MutableArrayRef<Candidate> candidates,
                     int64_t stages, bool reserve) {
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
  for (int64_t s = 0; s < ahead; ++s) {
    for (auto [c, buffer, ptr] : llvm::zip(candidates, buffers, aheadPtrs))
      AsyncCopyOp::create(b, loc, ptr, buffer, constant(s));
    AsyncCommitOp::create(b, loc);
    for (auto [c, ptr] : llvm::zip(candidates, aheadPtrs))
      ptr = advance(ptr, c);
  }

  // The new loop carries, after the old iter_args, the block pointers of
  // the iteration `ahead` ahead.
  SmallVector<Value> inits(loop.getInitArgs());
  inits.append(aheadPtrs);
  auto newLoop =
      scf::ForOp::create(b, loc, loop.getLowerBound(), loop.getUpperBound(),
                         loop.getStep(), inits);
  Block *body = newLoop.getBody();
  if (reserve)
    newLoop->setAttr(TileDialect::getMmaInFlightAttrName(), UnitAttr::get(ctx));
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
  AsyncWaitOp::create(b, loc, ahead - 1);
  Value stage = arith::RemUIOp::create(b, loc, iteration, constant(stages));
  Value aheadStage = arith::RemUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, iteration, constant(ahead)),
      constant(stages));
  for (auto [i, buffer] : llvm::enumerate(buffers))
    AsyncCopyOp::create(b, loc, newLoop.getRegionIterArgs()[numOld + i], buffer,
                        aheadStage);
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
  // does.
  b.setInsertionPointAfter(newLoop);
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
        pipeline(loop, candidates, attr.getInt(), reserve);
      }
    });
  }
};

} // namespace
