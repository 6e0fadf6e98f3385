//===- DotOpToLLVMTransposedWgmma.cpp - tf32 and tf32x3 dots as O^T -------===//
//
// A tf32 dot whose accumulator has the transposed wgmma layout
// (getTransposedWgmmaLayout) is computed as O^T = B^T A^T with wgmma:
// `a`'s buffer is wgmma's B operand, `b` is read into the A fragment
// registers. Its tf32x3 form is the split-tf32 path: `a`'s buffer holds
// the tf32 parts of its values and their rounded remainders, and each
// k step issues three wgmma. The wgmma helpers it shares with
// DotOpToLLVMWgmma.cpp are declared in DotOpToLLVM.h.
//
//===----------------------------------------------------------------------===//

#include "DotOpToLLVM.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::tile;

/// A tf32 dot with the transposed accumulator layout
/// (getTransposedWgmmaLayout): wgmma computes O^T = B^T A^T. Its B operand
/// is `a`'s buffer as stored (K-major rows, swizzled by planWarpgroupMma);
/// its A operand is `b` transposed, read from `b`'s row-major stage into
/// the fragment registers: thread (g = lane / 4, q = lane % 4) of warp w
/// holds wgmma rows g and g + 8 (the accumulator's columns c = 16 w + 2g
/// and c + 1) at k = q and q + 4, i.e. b[q][c..c+1] and b[q+4][c..c+1]:
/// two 8-byte loads per fragment, rounded to tf32 (cvt.rn, sm_90): the
/// tensor cores would ignore their low 13 bits, and that truncation took
/// the error of peaked softmax rows (inputs scaled by 4, one weight
/// dominating each output) to 1.13e-3, past tf32's 1e-3
/// (measured on an H200, 2026-11-24).
///
/// tf32x3: `b`'s fragments split into their tf32 parts and rounded
/// remainders in registers, `a`'s buffer holds both parts of its values
/// (tile.split_tf32), and each k step issues three wgmma (lo x hi, hi x lo,
/// hi x hi). As on the mma.sync path, the products accumulate from zero
/// for this dot only and are added to the accumulator with f32 additions
/// (the tensor cores do not round their accumulation to nearest); a dot
/// onto the zero tile needs no addition, and its group may stay in flight.
LogicalResult
mlir::tile::lowerTransposedDotWithWgmma(DotOp op, ValueRange accVals,
                                        ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  RankedTensorType aType = op.getA().getType(), cType = op.getType();
  int64_t m = cType.getDimSize(0), n = cType.getDimSize(1),
          k = aType.getDimSize(1);
  auto numWarps = getNumWarps(op->getParentOfType<func::FuncOp>());
  int64_t columnsPerRep = 16 * numWarps, reps = n / columnsPerRep;
  Type i32 = rewriter.getI32Type(), f32 = rewriter.getF32Type();
  auto aRead = op.getA().getDefiningOp<LocalLoadOp>();
  auto bRead = op.getB().getDefiningOp<LocalLoadOp>();
  SharedLayout aLayout = getSharedLayout(aRead.getBuffer());
  SharedLayout bLayout = getSharedLayout(bRead.getBuffer());
  auto c = [&](int64_t v) { return i32Constant(rewriter, loc, v); };
  int64_t aS = aLayout.swizzleBytes;
  bool split = op.getPrecision() == InputPrecision::TF32x3;
  if (split != aLayout.splitTF32)
    return rewriter.notifyMatchFailure(
        op, "tf32x3 reads both parts of a split buffer");
  Value aBase = emitReadStageBase(rewriter, loc, aRead, aLayout);
  auto descriptorAt = [&](Value base) {
    return emitMatrixDescriptor(
        rewriter, loc, LLVM::PtrToIntOp::create(rewriter, loc, i32, base), 16,
        8 * aS, aS);
  };
  Value desc = descriptorAt(aBase);
  Value lowDesc =
      split ? descriptorAt(byteOffset(
                  rewriter, loc, aBase,
                  i32Constant(rewriter, loc, aLayout.getLowPartOffset())))
            : Value();

  ThreadIds ids = getThreadIds(rewriter, loc);
  Value g = arith::DivUIOp::create(rewriter, loc, ids.lane, c(4));
  Value q = arith::RemUIOp::create(rewriter, loc, ids.lane, c(4));
  Value column0 = arith::AddIOp::create(
      rewriter, loc, arith::MulIOp::create(rewriter, loc, ids.warp, c(16)),
      arith::MulIOp::create(rewriter, loc, g, c(2)));
  Value bBase = emitReadStageBase(rewriter, loc, bRead, bLayout);
  auto vec2 = VectorType::get({2}, f32);
  // The pair (row, column..column + 1) of `b`, as f32 values.
  auto loadPair = [&](int64_t row, int64_t column) -> std::pair<Value, Value> {
    Value r = arith::AddIOp::create(rewriter, loc, q, c(row));
    Value col = arith::AddIOp::create(rewriter, loc, column0, c(column));
    auto address = [&](Value column) {
      return gep(rewriter, loc, rewriter.getI8Type(), bBase,
                 bLayout.emitOffset(rewriter, loc, r, column));
    };
    if (bLayout.transposed) {
      // Claimed K-major by another dot: the pair is not adjacent.
      auto element = [&](Value column) {
        return LLVM::LoadOp::create(rewriter, loc, f32, address(column));
      };
      return {element(col),
              element(arith::AddIOp::create(rewriter, loc, col, c(1)))};
    }
    Value v = LLVM::LoadOp::create(rewriter, loc, vec2, address(col),
                                   /*align=*/8);
    auto element = [&](int64_t i) {
      return LLVM::ExtractElementOp::create(rewriter, loc, v, c(i));
    };
    return {element(0), element(1)};
  };
  // tf32 bits of a value, and of the remainder of its rounding.
  auto bits = [&](Value f) -> Value {
    return roundToTF32Bits(rewriter, loc, f, /*tiesToEven=*/true);
  };
  auto remainderBits = [&](Value f, Value hiBits) -> Value {
    return bits(arith::SubFOp::create(
        rewriter, loc, f,
        arith::BitcastOp::create(rewriter, loc, f32, hiBits)));
  };
  // Fragments are all formed before the fence (see lowerDotWithWgmma);
  // with tf32x3 also the remainders' (`lowFragments`).
  SmallVector<SmallVector<Value>> fragments, lowFragments;
  for (int64_t kk = 0; kk < k; kk += 8)
    for (int64_t r = 0; r < reps; ++r) {
      auto [k0c0, k0c1] = loadPair(kk, r * columnsPerRep);
      auto [k4c0, k4c1] = loadPair(kk + 4, r * columnsPerRep);
      SmallVector<Value> values{k0c0, k0c1, k4c0, k4c1}, hi, lo;
      for (Value v : values) {
        hi.push_back(bits(v));
        if (split)
          lo.push_back(remainderBits(v, hi.back()));
      }
      fragments.push_back(hi);
      lowFragments.push_back(lo);
    }

  auto [text, constraints] = getWarpgroupMmaAsm(m, aType.getElementType(),
                                                /*aShared=*/false);
  LayoutView view(cType);
  SmallVector<Value> acc(accVals.begin(), accVals.end());
  // tf32x3 onto a running accumulator: the products from zero (`sum`),
  // added after the wait below.
  bool separateSum = split && !isZeroTile(op.getAcc());
  SmallVector<Value> sum;
  if (separateSum)
    sum.assign(acc.size(), arith::ConstantOp::create(
                               rewriter, loc, rewriter.getF32FloatAttr(0.0)));
  MutableArrayRef<Value> target = separateSum ? sum : acc;
  Value one = c(1);
  NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
  for (int64_t kk = 0; kk < k; kk += 8) {
    int64_t stepBytes = getKMajorStepBytes(aLayout, kk * 4);
    Value step = advanceDescriptor(rewriter, loc, desc, stepBytes);
    for (int64_t r = 0; r < reps; ++r) {
      // Register 4j + 2h + x: wgmma row g + 8h (column slot 2r + h), wgmma
      // column 8j + 2q + x (row slot 2j + x).
      SmallVector<int64_t> slots;
      for (int64_t j = 0; j < m / 8; ++j)
        for (int64_t h = 0; h < 2; ++h)
          for (int64_t x = 0; x < 2; ++x)
            slots.push_back(view.getSlot({2 * j + x, 2 * r + h}));
      int64_t f = (kk / 8) * reps + r;
      if (split) {
        // The small products first: b_lo x a_hi, then b_hi x a_lo.
        emitWarpgroupMmaInstruction(rewriter, loc, target, slots,
                                    lowFragments[f], step, one, text,
                                    constraints);
        emitWarpgroupMmaInstruction(
            rewriter, loc, target, slots, fragments[f],
            advanceDescriptor(rewriter, loc, lowDesc, stepBytes), one, text,
            constraints);
      }
      emitWarpgroupMmaInstruction(rewriter, loc, target, slots, fragments[f],
                                  step, one, text, constraints);
    }
  }
  if (!separateSum)
    return commitWarpgroupMma(op, acc, rewriter);
  // Waited for here (planWarpgroupMma leaves no tf32x3 group in flight),
  // then added with round-to-nearest f32 additions.
  NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
  SmallVector<Value> products = emitWarpgroupMmaWait(rewriter, loc, sum, 0);
  for (auto [a, p] : llvm::zip(acc, products))
    a = arith::AddFOp::create(rewriter, loc, a, p);
  rewriter.replaceOpWithMultiple(op, {acc});
  return success();
}
