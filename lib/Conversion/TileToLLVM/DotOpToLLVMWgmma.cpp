//===- DotOpToLLVMWgmma.cpp - tile.dot on Hopper tensor cores (wgmma) -----===//
//
// wgmma.mma_async is issued by a warpgroup (four consecutive warps) and
// reads both operands from shared memory through 64-bit descriptors; its
// m64nNk16 accumulator gives warp i of the group rows 16i + g and
// 16i + g + 8 of a 64-row slice, in registers ordered as mma.sync's C
// fragments over the N / 8 column tiles. The dot's mma layout (all warps
// along M) holds exactly those registers once the `a` buffer stores its
// rows in wgmma order (SharedLayout::mmaRowWarps); `b` is read transposed
// (MN-major), as tile blocks are row-major.
//
// planWarpgroupMma chooses the dots that become wgmma (and the shared
// buffers they read); the helpers below are shared with the transposed
// tf32 path (DotOpToLLVMTransposedWgmma.cpp).
//
//===----------------------------------------------------------------------===//

#include "DotOpToLLVM.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::tile;

bool mlir::tile::isZeroTile(Value acc) {
  if (auto splat = acc.getDefiningOp<SplatOp>())
    return matchPattern(splat.getSrc(), m_AnyZeroFloat());
  return matchPattern(acc, m_AnyZeroFloat());
}

/// Of `first` (or none) and the op of `block` that is or holds `op`, the
/// earlier one.
static Operation *earlierInBlock(Block *block, Operation *first,
                                 Operation *op) {
  Operation *inBlock = block->findAncestorOpInBlock(*op);
  return !first || inBlock->isBeforeInBlock(first) ? inBlock : first;
}

/// Whether `a` and `b` are stages `(x + c1) mod n` and `(x + c2) mod n` of
/// one x and constant n with c1 != c2 (mod n): different stages whatever x
/// is.
static bool areDistinctStages(Value a, Value b) {
  auto split = [](Value v, Value &base, int64_t &n, int64_t &c) {
    auto rem = v.getDefiningOp<arith::RemUIOp>();
    IntegerAttr count;
    if (!rem || !matchPattern(rem.getRhs(), m_Constant(&count)))
      return false;
    n = count.getInt();
    base = rem.getLhs();
    c = 0;
    IntegerAttr offset;
    if (auto add = base.getDefiningOp<arith::AddIOp>();
        add && matchPattern(add.getRhs(), m_Constant(&offset))) {
      base = add.getLhs();
      c = offset.getInt();
    }
    return n > 0;
  };
  Value x, y;
  int64_t n, m, c1, c2;
  return split(a, x, n, c1) && split(b, y, m, c2) && x == y && n == m &&
         ((c1 - c2) % n + n) % n != 0;
}

/// Whether the wait of `dot`'s wgmma group may move past `op`: pure ops
/// (and scf.ifs of only such ops, e.g. a mask applied to some
/// iterations), tile.local_load, other waits and turns (named barriers),
/// and stores into a shared stage the dot does not read (another buffer,
/// or another stage of the same: areDistinctStages). The scratch space of
/// pure ops (a reduction's exchange between warps, say) lies below the
/// buffers while those are in use (the shared memory plan in
/// TileToLLVMPass.cpp, made after this one, counts the wait itself as a
/// use), and a wait stays in its dot's block. Anything else
/// may write shared memory the group still reads; dots are counted by the
/// caller.
static bool waitPasses(DotOp dot, Operation *op) {
  if (isa<LocalLoadOp, WarpgroupMmaWaitOp, WaitTurnOp, PassTurnOp>(op))
    return true;
  if (auto store = dyn_cast<LocalStoreOp>(op)) {
    for (Value operand : {dot.getA(), dot.getB()}) {
      auto read = operand.getDefiningOp<LocalLoadOp>();
      if (!read)
        read = operand == dot.getB() ? getKMajorBRead(dot) : LocalLoadOp();
      if (!read)
        continue;
      if (read.getBuffer() == store.getBuffer() &&
          !areDistinctStages(read.getStage(), store.getStage()))
        return false;
    }
    // The operands from registers (not read from a buffer) are not
    // written by a store either.
    return true;
  }
  if (isa<DotOp>(op) || !isMemoryEffectFree(op))
    return false;
  if (op->getNumRegions() == 0 || isa<ReduceOp, ScanOp>(op))
    return true;
  if (!isa<scf::IfOp>(op))
    return false;
  return !op->walk([&](Operation *nested) {
              if (nested == op || isa<scf::YieldOp>(nested) ||
                  waitPasses(dot, nested))
                return WalkResult::advance();
              return WalkResult::interrupt();
            }).wasInterrupted();
}

void mlir::tile::planWarpgroupMma(func::FuncOp kernel) {
  auto numWarps = (unsigned)getNumWarps(kernel);
  MLIRContext *ctx = kernel.getContext();
  Type i64 = IntegerType::get(ctx, 64);
  TileDialect::SwizzleBytesAttrHelper swizzleBytes(ctx);
  TileDialect::MmaRowWarpsAttrHelper mmaRowWarps(ctx);
  TileDialect::KMajorAttrHelper kMajor(ctx);
  TileDialect::SplitTf32AttrHelper splitTF32(ctx);
  TileDialect::RoundTf32AttrHelper roundTF32(ctx);
  TileDialect::WgmmaAttrHelper warpgroupMmaAttr(ctx);
  TileDialect::WgmmaPendingAttrHelper wgmmaPending(ctx);
  TileDialect::MmaInFlightAttrHelper mmaInFlight(ctx);
  bool any = false;
  kernel.walk([&](DotOp dot) {
    auto layout =
        dyn_cast_or_null<BlockedEncodingAttr>(dot.getType().getEncoding());
    bool transposed = isTransposedWgmmaLayout(layout) &&
                      layout.getWarpsPerCTA()[1] == numWarps &&
                      isTransposedWgmmaShape(dot, numWarps);
    bool split = transposed && dot.getPrecision() == InputPrecision::TF32x3;
    // Warpgroups splitting the columns read `a` whole: 4 warps along M.
    bool columnSplit = isColumnSplitWarpgroupMmaLayout(layout, numWarps) &&
                       isColumnSplitWarpgroupMmaDot(dot, numWarps);
    unsigned warpsAlongM = columnSplit ? 4 : numWarps;
    if (!transposed && !columnSplit &&
        (!isMmaLayout(layout) ||
         layout.getWarpsPerCTA() != ArrayRef<unsigned>{numWarps, 1} ||
         !isWarpgroupMmaDot(dot, numWarps)))
      return;
    LocalLoadOp a = getStageRead(dot, dot.getA()),
                b = getStageRead(dot, dot.getB());
    // K^T read K-major from K's block (getKMajorBRead): the buffer keeps
    // its plain row-major, swizzled layout, the one an MN-major read of
    // the same block would give it.
    bool bThroughTranspose = false;
    if (!b && !transposed)
      if (LocalLoadOp read = getKMajorBRead(dot)) {
        b = getStageRead(dot, read.getResult());
        bThroughTranspose = true;
      }
    if (!b)
      return;
    auto aAlloc =
        a ? a.getBuffer().getDefiningOp<AllocSharedOp>() : AllocSharedOp();
    auto bAlloc = b.getBuffer().getDefiningOp<AllocSharedOp>();
    // Swizzled rows: the bytes of a block row (of the transposed block
    // for a K-major `b`), at most 128.
    auto swizzle = [&](LocalLoadOp read, bool transposed) {
      RankedTensorType t = read.getType();
      int64_t rowBytes = t.getDimSize(transposed ? 0 : 1) *
                         (t.getElementType().getIntOrFloatBitWidth() / 8);
      return IntegerAttr::get(i64, std::min<int64_t>(rowBytes, 128));
    };
    if (transposed) {
      // O^T = B^T A^T: `a`'s buffer, K-major as stored, is wgmma's B
      // operand (swizzled rows); `b`'s stays row-major and unswizzled, read
      // into registers two columns (8 bytes) at a time.
      if (!aAlloc || !bAlloc || aAlloc == bAlloc ||
          swizzleBytes.isAttrPresent(aAlloc) ||
          swizzleBytes.isAttrPresent(bAlloc) ||
          cast<SharedBufferType>(b.getBuffer().getType()).getRowStride() % 2)
        return;
      // Whether the buffer is written only by tile.local_store and read
      // only as the `a` of dots of this precision.
      auto readOnlyByDotsOf = [&](InputPrecision precision) {
        return llvm::all_of(aAlloc->getUsers(), [&](Operation *u) {
          if (isa<LocalStoreOp>(u))
            return true;
          auto read = dyn_cast<LocalLoadOp>(u);
          return read && llvm::all_of(read->getUsers(), [&](Operation *r) {
                   auto d = dyn_cast<DotOp>(r);
                   return d && d.getA() == read.getResult() &&
                          d.getPrecision() == precision;
                 });
        });
      };
      // tf32x3 needs `a`'s remainder after its tf32 part as well: the
      // buffer holds both (tile.split_tf32), which its stores write.
      if (split) {
        if (!readOnlyByDotsOf(InputPrecision::TF32x3))
          return;
        splitTF32.setAttr(aAlloc, UnitAttr::get(ctx));
      }
      swizzleBytes.setAttr(aAlloc, swizzle(a, false));
      // The tensor cores would truncate `a` (P of an online softmax: a bias
      // of half a tf32 ulp against its row sums); its stores round it to
      // tf32 instead when the buffer feeds nothing but such dots.
      if (!split && readOnlyByDotsOf(InputPrecision::TF32))
        for (Operation *u : aAlloc->getUsers())
          if (isa<LocalStoreOp>(u))
            roundTF32.setAttr(u, UnitAttr::get(ctx));
    }
    // `a` from a buffer (both operands in shared memory), or from
    // registers when it holds the accumulator's layout (the exponentiated
    // tile of an online softmax).
    bool aShared = aAlloc && aAlloc != bAlloc &&
                   (columnSplit ||
                    isWarpgroupMmaShape(dot, numWarps, /*aFromShared=*/true));
    if (!transposed &&
        (!bAlloc || (columnSplit && !aShared) ||
         (!aShared && (dot.getA().getType().getEncoding() != layout || a))))
      return;
    // A buffer keeps one layout: another dot may not have claimed it in
    // the other role (a's row order differs from b's).
    auto warpsOf = [&](AllocSharedOp alloc) -> int64_t {
      IntegerAttr w = mmaRowWarps.getAttr(alloc);
      return w ? w.getInt() : 0;
    };
    // tf32's `b` is stored transposed (K-major), unless the dot reads it
    // as the transpose of its block, which is K-major as it stands.
    bool kMajorB =
        dot.getA().getType().getElementType().isF32() && !bThroughTranspose;
    if (!transposed &&
        ((aShared && swizzleBytes.isAttrPresent(aAlloc) &&
          warpsOf(aAlloc) != (int64_t)warpsAlongM) ||
         (swizzleBytes.isAttrPresent(bAlloc) &&
          (warpsOf(bAlloc) != 0 || kMajor.isAttrPresent(bAlloc) != kMajorB))))
      return;
    if (aShared && !transposed) {
      swizzleBytes.setAttr(aAlloc, swizzle(a, false));
      mmaRowWarps.setAttr(aAlloc, IntegerAttr::get(i64, warpsAlongM));
    }
    if (!transposed) {
      swizzleBytes.setAttr(bAlloc, swizzle(b, kMajorB));
      if (kMajorB)
        kMajor.setAttr(bAlloc, UnitAttr::get(ctx));
    }
    warpgroupMmaAttr.setAttr(dot, UnitAttr::get(ctx));
    any = true;
    // A tf32x3 group is waited for where it is issued, its products added
    // to the accumulator with round-to-nearest f32 additions (see
    // lowerTransposedDotWithWgmma), unless they start from zero.
    if (split && !isZeroTile(dot.getAcc()))
      return;

    // In a loop whose stages outlive their iteration (tile.mma_in_flight),
    // a dot whose result is only carried around the loop leaves its wgmma
    // group running into the next iteration; the loop's result waits for
    // it (tile.warpgroup_mma_wait). A dot that takes the carried
    // accumulator itself chains onto the running group; otherwise (the
    // online softmax rescales it first) the iteration's first use of the
    // accumulator waits, and what comes before that use overlaps the
    // previous iteration's group.
    auto loop = dyn_cast<scf::ForOp>(dot->getParentOp());
    if (!loop || !mmaInFlight.isAttrPresent(loop) ||
        !dot.getResult().hasOneUse())
      return;
    OpOperand &carried = *dot.getResult().use_begin();
    if (carried.getOwner() != loop.getBody()->getTerminator())
      return;
    unsigned index = carried.getOperandNumber();
    BlockArgument acc = loop.getRegionIterArg(index);
    Location loc = dot.getLoc();
    OpBuilder builder(loop);
    Operation *first = nullptr;
    auto consider = [&](Operation *op) {
      first = earlierInBlock(loop.getBody(), first, op);
    };
    if (dot.getAcc() != acc || !acc.hasOneUse())
      for (Operation *user : acc.getUsers())
        consider(user);
    // A transposed dot's group reads `a`'s buffer: the iteration's stores
    // into that buffer wait for it too.
    if (transposed)
      loop.getBody()->walk([&](LocalStoreOp store) {
        if (store.getBuffer() == aAlloc.getResult())
          consider(store);
      });
    if (first) {
      builder.setInsertionPoint(first);
      auto wait = WarpgroupMmaWaitOp::create(builder, loc, acc, 0);
      acc.replaceAllUsesExcept(wait.getResult(), wait);
    }
    wgmmaPending.setAttr(dot, IntegerAttr::get(IntegerType::get(ctx, 32), 1));
    Value result = loop.getResult(index);
    builder.setInsertionPointAfter(loop);
    auto wait = WarpgroupMmaWaitOp::create(builder, loc, result, 0);
    result.replaceAllUsesExcept(wait.getResult(), wait);
    // The last iteration also waits, inside the loop: ptxas otherwise sees
    // the group pending where the loop's exit joins the path that skips
    // the loop, and serializes every wgmma of the kernel (C7514).
    builder.setInsertionPoint(loop.getBody()->getTerminator());
    Value next = arith::AddIOp::create(builder, loc, loop.getInductionVar(),
                                       loop.getStep());
    Value last = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge,
                                       next, loop.getUpperBound());
    auto ifLast = scf::IfOp::create(builder, loc, TypeRange(), last,
                                    /*withElse=*/false);
    builder.setInsertionPointToStart(ifLast.thenBlock());
    WarpgroupMmaWaitOp::create(builder, loc, dot.getResult(), 0);
  });
  if (any)
    warpgroupMmaAttr.setAttr(kernel, UnitAttr::get(ctx));

  // A dot whose result is the accumulator of the next wgmma dot of the
  // same operand types (tf32x3's three products) is not waited for:
  // wgmma instructions of one shape may chain through their accumulator
  // registers in flight, and the later dot's wait covers both groups (they
  // complete in order). Its other uses may only be stage releases after
  // the later dot (tile-warp-specialize's arrivals once the dots reading a
  // stage are done), which then wait for the later dot instead. (Dots
  // computed transposed wait for their own tf32x3 products: see
  // lowerTransposedDotWithWgmma.)
  kernel.walk([&](DotOp dot) {
    if (!warpgroupMmaAttr.isAttrPresent(dot) ||
        wgmmaPending.isAttrPresent(dot) ||
        isTransposedWgmmaLayout(dot.getType().getEncoding()))
      return;
    DotOp next;
    for (Operation *user : dot->getUsers())
      if (auto d = dyn_cast<DotOp>(user); d && d.getAcc() == dot.getResult())
        next = d;
    if (!next || !warpgroupMmaAttr.isAttrPresent(next) ||
        next->getBlock() != dot->getBlock() ||
        next.getA().getType() != dot.getA().getType() ||
        next.getB().getType() != dot.getB().getType())
      return;
    for (OpOperand &use : dot.getResult().getUses()) {
      Operation *user = use.getOwner();
      if (user != next &&
          (!isa<MBarrierArriveOp>(user) ||
           user->getBlock() != dot->getBlock() || user->isBeforeInBlock(next)))
        return;
      if (user == next && use.getOperandNumber() != 2)
        return;
    }
    dot.getResult().replaceUsesWithIf(next.getResult(), [&](OpOperand &use) {
      return use.getOwner() != next;
    });
    wgmmaPending.setAttr(dot, IntegerAttr::get(IntegerType::get(ctx, 32), 1));
  });

  // Every other f16/bf16 wgmma dot is waited for where its result is first
  // needed rather than where it is issued: work that does not depend on it
  // overlaps the tensor cores, and a wgmma dot issued in between stays in
  // flight (the wait leaves as many groups pending as were issued after
  // it). The wait moves past wgmma dots and the ops of waitPasses only.
  SmallVector<DotOp> deferred;
  llvm::MapVector<Operation *, Operation *> waits;
  kernel.walk([&](DotOp dot) {
    if (warpgroupMmaAttr.isAttrPresent(dot) &&
        !wgmmaPending.isAttrPresent(dot) &&
        dot.getA().getType().getElementType().getIntOrFloatBitWidth() == 16)
      deferred.push_back(dot);
  });
  for (DotOp dot : deferred) {
    Block *block = dot->getBlock();
    Operation *firstUse = nullptr;
    for (Operation *user : dot->getUsers())
      firstUse = earlierInBlock(block, firstUse, user);
    if (!firstUse)
      continue;
    Operation *waitAt = firstUse;
    int64_t issuedAfter = 0;
    for (Operation *op = dot->getNextNode(); op != firstUse;
         op = op->getNextNode()) {
      auto later = dyn_cast<DotOp>(op);
      if (later && warpgroupMmaAttr.isAttrPresent(later)) {
        ++issuedAfter;
        continue;
      }
      if (!waitPasses(dot, op)) {
        waitAt = op;
        break;
      }
    }
    if (waitAt == dot->getNextNode())
      continue;
    wgmmaPending.setAttr(dot, IntegerAttr::get(IntegerType::get(ctx, 32), 1));
    OpBuilder builder(waitAt);
    auto wait = WarpgroupMmaWaitOp::create(builder, dot.getLoc(),
                                           dot.getResult(), issuedAfter);
    dot.getResult().replaceAllUsesExcept(wait.getResult(), wait);
    waits[dot] = wait;
  }
  // A dot issued while earlier ones are still in flight leaves them in
  // flight too: its commit waits until at most its own group and theirs
  // are pending (Q K_j^T stays in flight past P_{j-1} V_{j-1}'s commit, so
  // that a turn passed after both products does not wait for the first).
  for (auto [dot, wait] : waits) {
    int64_t inFlight = 1;
    for (auto [earlier, earlierWait] : waits)
      // (A wait is in its dot's block.)
      if (earlier != dot && earlier->getBlock() == dot->getBlock() &&
          earlier->isBeforeInBlock(dot) && dot->isBeforeInBlock(earlierWait))
        ++inFlight;
    wgmmaPending.setAttr(dot,
                         IntegerAttr::get(IntegerType::get(ctx, 32), inFlight));
  }
}

Value mlir::tile::emitMatrixDescriptor(OpBuilder &b, Location loc,
                                       Value address, int64_t leadingBytes,
                                       int64_t strideBytes,
                                       int64_t swizzleBytes) {
  Type i64 = b.getI64Type();
  int64_t mode = swizzleBytes == 128 ? 1 : swizzleBytes == 64 ? 2 : 3;
  uint64_t fields = ((uint64_t)(leadingBytes >> 4) << 16) |
                    ((uint64_t)(strideBytes >> 4) << 32) |
                    ((uint64_t)mode << 62);
  Value start = arith::ShRUIOp::create(
      b, loc,
      arith::AndIOp::create(b, loc, address, i32Constant(b, loc, 0x3FFFF)),
      i32Constant(b, loc, 4));
  return arith::OrIOp::create(b, loc,
                              arith::ExtUIOp::create(b, loc, i64, start),
                              i64Constant(b, loc, (int64_t)fields));
}

/// Inline-asm constraints for `n` f32 results tied to the first `n`
/// operands: "=f,...,=f,0,...,n-1".
static std::string tiedF32Constraints(int64_t n) {
  std::string text;
  llvm::raw_string_ostream os(text);
  for (int64_t i = 0; i < n; ++i)
    os << "=f,";
  for (int64_t i = 0; i < n; ++i)
    os << (i ? "," : "") << i;
  return text;
}

SmallVector<Value> mlir::tile::emitWarpgroupMmaWait(OpBuilder &b, Location loc,
                                                    ValueRange acc,
                                                    int64_t pending) {
  // Inline PTX: WgmmaWaitGroupSyncOp cannot tie the accumulators ("+f"), so
  // LLVM could move their reads above the wait.
  return emitInlineAsm(
      b, loc, SmallVector<Type>(acc.size(), b.getF32Type()), acc,
      ("wgmma.wait_group.sync.aligned " + Twine(pending) + ";").str(),
      tiedF32Constraints(acc.size()), /*hasSideEffects=*/true);
}

std::pair<std::string, std::string>
mlir::tile::getWarpgroupMmaAsm(int64_t n, Type elem, bool aShared,
                               bool bKMajor) {
  bool tf32 = elem.isF32();
  int64_t regs = n / 2, kStep = tf32 ? 8 : 16;
  int64_t aOperands = aShared ? 1 : 4;
  int64_t bIndex = 2 * regs + aOperands, flagIndex = bIndex + 1;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "{\n.reg .pred p;\nsetp.ne.b32 p, $" << flagIndex
     << ", 0;\nwgmma.mma_async.sync.aligned.m64n" << n << "k" << kStep << ".f32"
     << (tf32            ? ".tf32.tf32"
         : elem.isBF16() ? ".bf16.bf16"
                         : ".f16.f16")
     << " {";
  for (int64_t i = 0; i < regs; ++i)
    os << (i ? "," : "") << "$" << i;
  os << "}, ";
  if (aShared)
    os << "$" << 2 * regs;
  else
    os << "{$" << 2 * regs << ",$" << 2 * regs + 1 << ",$" << 2 * regs + 2
       << ",$" << 2 * regs + 3 << "}";
  // scale-d = p (accumulate), scale-a = scale-b = 1, a K-major (0; no such
  // immediate with a in registers), b MN-major (1) or K-major (0; tf32
  // takes no transpose immediates: both K-major).
  os << ", $" << bIndex << ", p, 1, 1";
  if (!tf32)
    os << ", " << (aShared ? "0, " : "") << (bKMajor ? "0" : "1");
  os << ";\n}";
  return {text,
          tiedF32Constraints(regs) + (aShared ? ",l,l,r" : ",r,r,r,r,l,r")};
}

LogicalResult
mlir::tile::commitWarpgroupMma(DotOp op, ValueRange acc,
                               ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
  int64_t pending = 0;
  if (IntegerAttr attr =
          TileDialect::WgmmaPendingAttrHelper(op.getContext()).getAttr(op))
    pending = attr.getInt();
  rewriter.replaceOpWithMultiple(
      op, {emitWarpgroupMmaWait(rewriter, loc, acc, pending)});
  return success();
}

Value mlir::tile::emitReadStageBase(ConversionPatternRewriter &rewriter,
                                    Location loc, LocalLoadOp read,
                                    const SharedLayout &layout) {
  return emitStageBase(rewriter, loc, layout,
                       rewriter.getRemappedValue(read.getBuffer()),
                       rewriter.getRemappedValue(read.getStage()));
}

Value mlir::tile::advanceDescriptor(OpBuilder &b, Location loc, Value desc,
                                    int64_t bytes) {
  if (!bytes)
    return desc;
  return arith::AddIOp::create(b, loc, desc, i64Constant(b, loc, bytes >> 4));
}

int64_t mlir::tile::getKMajorStepBytes(const SharedLayout &layout,
                                       int64_t kBytes) {
  int64_t rowBytes = layout.swizzleBytes;
  return kBytes / rowBytes * layout.getChunkBytes() + kBytes % rowBytes;
}

void mlir::tile::emitWarpgroupMmaInstruction(
    ConversionPatternRewriter &rewriter, Location loc,
    MutableArrayRef<Value> acc, ArrayRef<int64_t> slots, ValueRange aOperands,
    Value bDesc, Value one, StringRef text, StringRef constraints) {
  SmallVector<Value> operands;
  for (int64_t slot : slots)
    operands.push_back(acc[slot]);
  operands.append(aOperands.begin(), aOperands.end());
  operands.append({bDesc, one});
  // Inline PTX: WgmmaMmaAsyncOp has no register A or runtime scale-d, and no
  // intrinsic (it lowers only through convert-nvvm-to-llvm).
  SmallVector<Value> out = emitInlineAsm(
      rewriter, loc, SmallVector<Type>(slots.size(), rewriter.getF32Type()),
      operands, text, constraints, /*hasSideEffects=*/true);
  for (auto [slot, v] : llvm::zip(slots, out))
    acc[slot] = v;
}

LogicalResult
mlir::tile::lowerDotWithWgmma(DotOp op, ValueRange aVals, ValueRange accVals,
                              const TF32PartSource *aSource,
                              ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  RankedTensorType aType = op.getA().getType(), cType = op.getType();
  int64_t m = cType.getDimSize(0), n = cType.getDimSize(1),
          k = aType.getDimSize(1);
  auto numWarps = getNumWarps(op->getParentOfType<func::FuncOp>());
  // Warpgroups split the columns (isColumnSplitWarpgroupMmaLayout: all
  // four warps of each along M, warpgroup g holding columns [g n', (g + 1)
  // n')) or all warps go along M.
  bool columnSplit =
      isColumnSplitWarpgroupMmaLayout(cType.getEncoding(), numWarps);
  int64_t warpsAlongM = columnSplit ? 4 : numWarps;
  int64_t columnGroups = numWarps / warpsAlongM;
  n /= columnGroups; // the columns of one warpgroup's wgmma
  int64_t mTiles = m / (16 * warpsAlongM); // 64-row slices per warpgroup
  Type i32 = rewriter.getI32Type();
  // `a` is read from its buffer when planWarpgroupMma swizzled it for the
  // dot (wgmma row order); otherwise it is in registers, in the
  // accumulator's layout.
  auto aRead = op.getA().getDefiningOp<LocalLoadOp>();
  SharedLayout aLayout;
  if (aRead)
    aLayout = getSharedLayout(aRead.getBuffer());
  bool aShared = aRead && aLayout.mmaRowWarps;
  // b from its buffer as is (MN-major: tile blocks are row-major), or K^T
  // from K's block (K-major, getKMajorBRead).
  auto bRead = op.getB().getDefiningOp<LocalLoadOp>();
  bool bThroughTranspose = !bRead;
  if (bThroughTranspose)
    bRead = getKMajorBRead(op);
  SharedLayout bLayout = getSharedLayout(bRead.getBuffer());
  bool bKMajor = bLayout.transposed || bThroughTranspose;
  auto stageAddress = [&](LocalLoadOp read, const SharedLayout &layout) {
    return LLVM::PtrToIntOp::create(
        rewriter, loc, i32, emitReadStageBase(rewriter, loc, read, layout));
  };
  auto advance = [&](Value desc, int64_t bytes) {
    return advanceDescriptor(rewriter, loc, desc, bytes);
  };
  // b is MN-major: 8-row (k) groups SBO apart, 64-column (swizzle-row)
  // chunks LBO apart; transposed (tf32), it is K-major like a shared `a`:
  // 8-row (n) groups SBO apart, k along the swizzled rows.
  int64_t bS = bLayout.swizzleBytes;
  bool tf32 = aType.getElementType().isF32();
  Value bAddress = stageAddress(bRead, bLayout);
  Value warpgroup;
  if (columnSplit || aShared)
    warpgroup =
        arith::ShRUIOp::create(rewriter, loc, getThreadIds(rewriter, loc).warp,
                               i32Constant(rewriter, loc, 2));
  if (columnSplit) {
    // Warpgroup g's columns start n x g elements into `b`'s rows: whole
    // column chunks of the MN-major buffer (isColumnSplitWarpgroupMmaShape).
    int64_t chunkOffset = n * 2 / bS * bLayout.getChunkBytes();
    bAddress = arith::AddIOp::create(
        rewriter, loc, bAddress,
        arith::MulIOp::create(rewriter, loc, warpgroup,
                              i32Constant(rewriter, loc, chunkOffset)));
  }
  Value bDesc =
      emitMatrixDescriptor(rewriter, loc, bAddress,
                           bKMajor ? 16 : bLayout.getChunkBytes(), 8 * bS, bS);
  int64_t kStep = tf32 ? 8 : 16, elemBytes = tf32 ? 4 : 2;
  // a is K-major: 8-row groups SBO = 8 rows apart, k within a row (the
  // leading offset is unused: a k16 step never leaves a swizzled row).
  // This warpgroup's first slice: 64 rows of swizzleBytes each.
  int64_t aS = aLayout.swizzleBytes;
  Value aDesc;
  if (aShared) {
    // Warpgroups along M read their own 64-row slices; those splitting the
    // columns all read `a` from its start.
    Value aBase = stageAddress(aRead, aLayout);
    if (!columnSplit)
      aBase = arith::AddIOp::create(
          rewriter, loc, aBase,
          arith::MulIOp::create(rewriter, loc, warpgroup,
                                i32Constant(rewriter, loc, mTiles * 64 * aS)));
    aDesc = emitMatrixDescriptor(rewriter, loc, aBase, 16, 8 * aS, aS);
  }

  LayoutView view(cType);
  auto slotOf = [&](int64_t r, int64_t c) { return view.getSlot({r, c}); };
  int64_t nTiles = n / 8;
  Type elem = aType.getElementType();
  // Operands after the accumulator's: a's descriptor (or its 4 fragment
  // registers), b's descriptor, the scale-d flag.
  auto [text, constraints] = getWarpgroupMmaAsm(n, elem, aShared, bKMajor);
  Value one = i32Constant(rewriter, loc, 1);
  // A fragments from registers, as for mma.sync m16n8k16: (lo, k..k+1),
  // (hi, k..k+1), (lo, k+8..k+9), (hi, k+8..k+9), where lo/hi are this
  // warp's rows of m-tile j (slot rows 2j, 2j+1) and the k pairs are
  // column slots 2q, 2q+1 of the 8-column group q.
  LayoutView aView(aType);
  auto pack = [&](int64_t row, int64_t col) -> Value {
    return packPair(rewriter, loc, elem, aVals[aView.getSlot({row, col})],
                    aVals[aView.getSlot({row, col + 1})]);
  };
  // Fragments of `a` in registers are all formed before the fence: a
  // register written between two wgmma of a group makes ptxas insert
  // another fence (warpgroup.arrive, C7519).
  //
  // tf32: registers a0..a3 hold k = t, t (row + 8), t + 4, t + 4 (row + 8)
  // of the k8 step; this thread holds columns 2t and 2t + 1 of each group
  // of 8, so they carry those (a0/a1: 2t, a2/a3: 2t + 1) and the
  // transposed `b` buffer stores k in the same order (SharedLayout). Each
  // value is rounded to tf32 once, here; `b` is used as stored (the tensor
  // cores ignore the low 13 bits), as by mma.sync reading B from a buffer.
  // A part of a tile.tf32_parts source (aSource) is formed from the
  // source's register after any move between lanes (`tf32Part`), so that
  // the dots reading its two parts move the same registers.
  bool aRounded = isTF32Value(op.getA());
  Type f32 = rewriter.getF32Type();
  auto tf32Reg = [&](int64_t row, int64_t col) -> Value {
    int64_t slot = aView.getSlot({row, col});
    if (aSource)
      return LLVM::BitcastOp::create(rewriter, loc, i32, aSource->values[slot]);
    Value v = aVals[slot];
    return aRounded ? LLVM::BitcastOp::create(rewriter, loc, i32, v)
                    : roundToTF32Bits(rewriter, loc, v);
  };
  auto tf32Part = [&](Value bits) -> Value {
    if (!aSource)
      return bits;
    Value x = LLVM::BitcastOp::create(rewriter, loc, f32, bits);
    Value hi = emitTF32Part(rewriter, loc, x);
    return aSource->remainder ? emitTF32Remainder(rewriter, loc, x, hi) : hi;
  };
  //
  // A K-major `b` read as the transpose of its block keeps k in its
  // natural order (a TMA copy lays it out): the fragments then take
  // columns t and t + 4 of each group of 8 (lanes t / 2 and t / 2 + 2 of
  // the quad hold them, as their element t % 2). Two shuffles move them:
  // in the first, lane s of the quad sends its element s / 2 and lane t
  // reads lane (t % 2) * 2 + t / 2; in the second, lane s sends the
  // other element and lane t reads lane (1 - t % 2) * 2 + t / 2. An even
  // lane receives column t in the first and t + 4 in the second, an odd
  // lane the reverse.
  Value sourceA, sourceB, upperLane, oddLane;
  if (tf32 && bThroughTranspose && !aShared) {
    auto c = [&](int64_t v) { return i32Constant(rewriter, loc, v); };
    Value lane = getThreadIds(rewriter, loc).lane;
    Value t = arith::AndIOp::create(rewriter, loc, lane, c(3));
    Value quad = arith::AndIOp::create(rewriter, loc, lane, c(~3));
    Value half = arith::ShRUIOp::create(rewriter, loc, t, c(1));
    Value parity = arith::AndIOp::create(rewriter, loc, t, c(1));
    Value base = arith::OrIOp::create(rewriter, loc, quad, half);
    sourceA = arith::OrIOp::create(
        rewriter, loc, base,
        arith::ShLIOp::create(rewriter, loc, parity, c(1)));
    sourceB = arith::XOrIOp::create(rewriter, loc, sourceA, c(2));
    upperLane = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                      half, c(0));
    oddLane = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                    parity, c(0));
  }
  // This thread's columns t and t + 4 from its elements 2t and 2t + 1.
  auto naturalColumns = [&](Value even, Value odd) -> std::pair<Value, Value> {
    auto shfl = [&](Value v, Value from) -> Value {
      return NVVM::ShflOp::create(
          rewriter, loc, i32, i32Constant(rewriter, loc, -1), v, from,
          i32Constant(rewriter, loc, 0x1f), NVVM::ShflKind::idx, UnitAttr());
    };
    auto select = [&](Value cond, Value a, Value b) -> Value {
      return arith::SelectOp::create(rewriter, loc, cond, a, b);
    };
    Value a = shfl(select(upperLane, odd, even), sourceA);
    Value b = shfl(select(upperLane, even, odd), sourceB);
    return {select(oddLane, b, a), select(oddLane, a, b)};
  };
  SmallVector<SmallVector<Value>> aFragments;
  if (!aShared)
    for (int64_t kk = 0; kk < k; kk += kStep)
      for (int64_t j = 0; j < mTiles; ++j) {
        int64_t c = 2 * (kk / 8);
        if (tf32 && sourceA) {
          // Rows g and g + 8: columns t, then t + 4.
          auto [top, topShifted] =
              naturalColumns(tf32Reg(2 * j, c), tf32Reg(2 * j, c + 1));
          auto [bottom, bottomShifted] =
              naturalColumns(tf32Reg(2 * j + 1, c), tf32Reg(2 * j + 1, c + 1));
          aFragments.push_back({tf32Part(top), tf32Part(bottom),
                                tf32Part(topShifted), tf32Part(bottomShifted)});
        } else if (tf32)
          aFragments.push_back({tf32Part(tf32Reg(2 * j, c)),
                                tf32Part(tf32Reg(2 * j + 1, c)),
                                tf32Part(tf32Reg(2 * j, c + 1)),
                                tf32Part(tf32Reg(2 * j + 1, c + 1))});
        else
          aFragments.push_back({pack(2 * j, c), pack(2 * j + 1, c),
                                pack(2 * j, c + 2), pack(2 * j + 1, c + 2)});
      }
  SmallVector<Value> acc(accVals.begin(), accVals.end());
  NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
  for (int64_t kk = 0; kk < k; kk += kStep) {
    // k step: 32 bytes into a's rows (possibly the next column chunk),
    // kStep rows down b (MN-major) or 32 bytes into its rows (K-major).
    int64_t kBytes = kk * elemBytes;
    int64_t aBytes = aShared ? getKMajorStepBytes(aLayout, kBytes) : 0;
    Value bStep =
        advance(bDesc, bKMajor ? getKMajorStepBytes(bLayout, kBytes) : kk * bS);
    for (int64_t j = 0; j < mTiles; ++j) {
      SmallVector<Value> aOps =
          aShared ? SmallVector<Value>{advance(aDesc, aBytes + j * 64 * aS)}
                  : aFragments[(kk / kStep) * mTiles + j];
      SmallVector<int64_t> slots;
      for (int64_t t = 0; t < nTiles; ++t)
        for (int64_t h = 0; h < 2; ++h)
          for (int64_t c = 0; c < 2; ++c)
            slots.push_back(slotOf(2 * j + h, 2 * t + c));
      emitWarpgroupMmaInstruction(rewriter, loc, acc, slots, aOps, bStep, one,
                                  text, constraints);
    }
  }
  return commitWarpgroupMma(op, acc, rewriter);
}
