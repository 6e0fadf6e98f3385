//===- AsyncCopyOpToLLVM.cpp - Shared buffers and cp.async ----------------===//
//
// A software pipeline keeps the next blocks of a loop in flight while the
// current ones are computed on: tile.async_copy starts global-to-shared
// copies (`cp.async`, which bypass the registers, so a copy in flight costs
// no registers), tile.async_commit / tile.async_wait group and complete
// them, tile.local_load reads a stage back as a tile. Buffers live in the
// kernel's dynamic shared memory after the scratch space of the other ops;
// the pass records each one's byte offset on its tile.alloc_shared.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"

#include "tile/Dialect/Tile/IR/Tile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Whether the whole block at `offsets` lies inside `shape` (both i64
/// rank-2 lists; offsets i32), and-ed onto `init` when it is given.
Value emitBlockInside(OpBuilder &b, Location loc, RankedTensorType block,
                      Value shape[2], Value offsets[2], Value init) {
  Value result = init;
  for (int d = 0; d < 2; ++d) {
    Value start = arith::ExtSIOp::create(b, loc, b.getI64Type(), offsets[d]);
    Value end = arith::AddIOp::create(b, loc, start,
                                      i64Constant(b, loc, block.getDimSize(d)));
    Value inside = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, start,
                              i64Constant(b, loc, 0)),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, end,
                              shape[d]));
    result = result ? arith::AndIOp::create(b, loc, result, inside).getResult()
                    : inside;
  }
  return result;
}

/// fence.proxy.async.shared::cta: orders this thread's generic-proxy writes
/// of shared memory before later async-proxy (wgmma) reads of it.
void emitAsyncSharedFence(OpBuilder &b, Location loc) {
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
}

struct AllocSharedOpConversion : public OpConversionPattern<AllocSharedOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AllocSharedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IntegerAttr offset =
        TileDialect::SharedOffsetAttrHelper(op.getContext()).getAttr(op);
    if (!offset)
      return op.emitError("shared buffer has no offset: run it through "
                          "tile-convert-to-llvm, which places the buffers");
    Location loc = op.getLoc();
    rewriter.replaceOp(op,
                       byteOffset(rewriter, loc, getSharedMemory(rewriter, loc),
                                  i32Constant(rewriter, loc, offset.getInt())));
    return success();
  }
};

/// The interior copy into a transposed buffer with 128-byte swizzled rows
/// (see lowerTransposedCopy): warp w's lane (l8 = lane % 8, l4 = lane / 8)
/// copies column n = 8 (w + W i) + l8 of rows k = 4 r + l4, for every i
/// and r. Its bytes in the stage are
///   i 8 W 128 + (r / 8) chunk + n0 128 + ((piece ^ (n % 8)) << 4)
///     + 8 (r % 2) + 4 (l4 >> 1),   piece = 2 ((r / 2) % 4) + (l4 & 1)
/// (k permuted as in SharedLayout), and with n % 8 = l8 fixed per thread
/// the swizzle is one XOR of a per-thread base with 32 ((r / 2) % 4): the
/// rest are immediates. The source is a per-thread pointer plus multiples
/// of 4 rows and 8 W columns.
static void lowerTransposedInteriorCopy(ConversionPatternRewriter &rewriter,
                                        Location loc,
                                        const SharedLayout &layout, Value base,
                                        Value strides[2], Value offsets[2],
                                        Value dst, const ThreadIds &ids,
                                        int64_t warps) {
  RankedTensorType block = layout.type.getBlockType();
  Type elem = block.getElementType(), i32 = rewriter.getI32Type(),
       i64 = rewriter.getI64Type();
  int64_t rows = block.getDimSize(0), cols = block.getDimSize(1);
  auto c32 = [&](int64_t v) { return i32Constant(rewriter, loc, v); };
  auto c64 = [&](int64_t v) { return i64Constant(rewriter, loc, v); };
  auto ext = [&](Value v) {
    return arith::ExtSIOp::create(rewriter, loc, i64, v).getResult();
  };
  Value l8 = arith::AndIOp::create(rewriter, loc, ids.lane, c32(7));
  Value l4 = arith::ShRUIOp::create(rewriter, loc, ids.lane, c32(3));
  Value n0 = arith::AddIOp::create(
      rewriter, loc, arith::MulIOp::create(rewriter, loc, ids.warp, c32(8)),
      l8);
  // Source: element (offsets[0] + l4, offsets[1] + n0).
  Value first = arith::AddIOp::create(
      rewriter, loc,
      arith::MulIOp::create(
          rewriter, loc,
          ext(arith::AddIOp::create(rewriter, loc, offsets[0], l4)),
          strides[0]),
      arith::MulIOp::create(
          rewriter, loc,
          ext(arith::AddIOp::create(rewriter, loc, offsets[1], n0)),
          strides[1]));
  Value src0 = gep(rewriter, loc, elem, base, first);
  Value rowStep = arith::MulIOp::create(rewriter, loc, strides[0], c64(4));
  Value colStep =
      arith::MulIOp::create(rewriter, loc, strides[1], c64(8 * warps));
  // Destination base: the stage, row n0, (l4 & 1) ^ l8 as the 16-byte
  // piece, 4 (l4 >> 1) within it.
  Value stage = LLVM::PtrToIntOp::create(rewriter, loc, i32, dst);
  Value piece = arith::XOrIOp::create(
      rewriter, loc, arith::AndIOp::create(rewriter, loc, l4, c32(1)), l8);
  Value dstBase = arith::AddIOp::create(
      rewriter, loc,
      arith::AddIOp::create(rewriter, loc, stage,
                            arith::MulIOp::create(rewriter, loc, n0, c32(128))),
      arith::AddIOp::create(
          rewriter, loc, arith::ShLIOp::create(rewriter, loc, piece, c32(4)),
          arith::MulIOp::create(
              rewriter, loc, arith::ShRUIOp::create(rewriter, loc, l4, c32(1)),
              c32(4))));
  for (int64_t r = 0; r < rows / 4; ++r) {
    Value rowSrc = gep(rewriter, loc, elem, src0,
                       arith::MulIOp::create(rewriter, loc, rowStep, c64(r)));
    Value rowDst =
        arith::XOrIOp::create(rewriter, loc, dstBase, c32(((r / 2) % 4) << 5));
    for (int64_t i = 0; i < cols / (8 * warps); ++i) {
      Value src = gep(rewriter, loc, elem, rowSrc,
                      arith::MulIOp::create(rewriter, loc, colStep, c64(i)));
      Value addr = arith::AddIOp::create(rewriter, loc, rowDst,
                                         c32(i * 8 * warps * 128 +
                                             (r / 8) * layout.getChunkBytes() +
                                             8 * (r % 2)));
      NVVM::CpAsyncOp::create(rewriter, loc,
                              toSharedPointer(rewriter, loc, addr), src, 4,
                              NVVM::LoadCacheModifierKind::CA,
                              /*cpSize=*/Value());
    }
  }
}

/// A copy into a transposed (K-major) buffer: one 4-byte cp.async per
/// element, which may land anywhere in shared memory. Each warp's 32
/// copies cover 8 consecutive columns of 4 consecutive rows: 32-byte
/// pieces of 4 rows in global memory, and in the buffer (row n of the
/// transposed block holds column n) two lanes per bank at most.
static void lowerTransposedCopy(AsyncCopyOp op, const SharedLayout &layout,
                                ValueRange parts, Value dst,
                                ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  RankedTensorType block = layout.type.getBlockType();
  Type elem = block.getElementType(), i64 = rewriter.getI64Type();
  int64_t threads = 32 * getNumWarps(op->getParentOfType<func::FuncOp>());
  int64_t rows = block.getDimSize(0), cols = block.getDimSize(1);
  Value base = parts[0];
  Value shape[2] = {parts[1], parts[2]}, strides[2] = {parts[3], parts[4]},
        offsets[2] = {parts[5], parts[6]};
  auto c32 = [&](int64_t v) { return i32Constant(rewriter, loc, v); };
  auto c64 = [&](int64_t v) { return i64Constant(rewriter, loc, v); };
  auto ext = [&](Value v) {
    return arith::ExtSIOp::create(rewriter, loc, i64, v).getResult();
  };
  ThreadIds ids = getThreadIds(rewriter, loc);
  Value tid = emitThreadIndex(rewriter, loc, ids);
  Value interior =
      emitBlockInside(rewriter, loc, block, shape, offsets, Value());
  auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange(), interior,
                                /*withElse=*/true);
  OpBuilder::InsertionGuard guard(rewriter);
  int64_t groupsPerRow = cols / 8;
  int64_t warps = threads / 32;
  // Interior blocks with 128-byte swizzled rows and whole column groups per
  // warp take the short path: addresses from a few per-thread bases.
  bool short128 =
      layout.swizzleBytes == 128 && groupsPerRow % warps == 0 && rows % 4 == 0;
  if (short128) {
    rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    lowerTransposedInteriorCopy(rewriter, loc, layout, base, strides, offsets,
                                dst, ids, warps);
  }
  for (bool checked : {false, true}) {
    if (!checked && short128)
      continue;
    rewriter.setInsertionPoint(checked ? ifOp.elseBlock()->getTerminator()
                                       : ifOp.thenBlock()->getTerminator());
    for (int64_t j = 0; j * threads < rows * cols; ++j) {
      // Item i = tid + j * threads: column 8 (g % groupsPerRow) + i % 8 and
      // row 4 (g / groupsPerRow) + (i / 8) % 4 with g = i / 32.
      Value item = arith::AddIOp::create(rewriter, loc, tid, c32(j * threads));
      Value group = arith::DivUIOp::create(rewriter, loc, item, c32(32));
      Value col = arith::AddIOp::create(
          rewriter, loc,
          arith::MulIOp::create(
              rewriter, loc,
              arith::RemUIOp::create(rewriter, loc, group, c32(groupsPerRow)),
              c32(8)),
          arith::RemUIOp::create(rewriter, loc, item, c32(8)));
      Value row = arith::AddIOp::create(
          rewriter, loc,
          arith::MulIOp::create(
              rewriter, loc,
              arith::DivUIOp::create(rewriter, loc, group, c32(groupsPerRow)),
              c32(4)),
          arith::RemUIOp::create(
              rewriter, loc,
              arith::DivUIOp::create(rewriter, loc, item, c32(8)), c32(4)));
      Value gRow = ext(arith::AddIOp::create(rewriter, loc, offsets[0], row));
      Value gCol = ext(arith::AddIOp::create(rewriter, loc, offsets[1], col));
      Value offset = arith::AddIOp::create(
          rewriter, loc, arith::MulIOp::create(rewriter, loc, gRow, strides[0]),
          arith::MulIOp::create(rewriter, loc, gCol, strides[1]));
      Value srcBytes = c32(4);
      if (checked) {
        // Outside the array: read nothing (valid address), zero-fill.
        Value inside = arith::AndIOp::create(
            rewriter, loc,
            arith::AndIOp::create(
                rewriter, loc,
                arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge,
                                      gRow, c64(0)),
                arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                      gRow, shape[0])),
            arith::AndIOp::create(
                rewriter, loc,
                arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge,
                                      gCol, c64(0)),
                arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                      gCol, shape[1])));
        srcBytes =
            arith::SelectOp::create(rewriter, loc, inside, c32(4), c32(0));
        offset = arith::SelectOp::create(rewriter, loc, inside, offset, c64(0));
      }
      Value src = gep(rewriter, loc, elem, base, offset);
      Value dstPtr = byteOffset(rewriter, loc, dst,
                                layout.emitOffset(rewriter, loc, row, col));
      auto copy = [&] {
        NVVM::CpAsyncOp::create(rewriter, loc, dstPtr, src, 4,
                                NVVM::LoadCacheModifierKind::CA, srcBytes);
      };
      if ((j + 1) * threads <= rows * cols) {
        copy();
        continue;
      }
      auto inRange = scf::IfOp::create(
          rewriter, loc, TypeRange(),
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, item,
                                c32(rows * cols)),
          /*withElse=*/false);
      OpBuilder::InsertionGuard g(rewriter);
      rewriter.setInsertionPoint(inRange.thenBlock()->getTerminator());
      copy();
    }
  }
}

struct AsyncCopyOpConversion : public OpConversionPattern<AsyncCopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AsyncCopyOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<SharedBufferType>(op.getBuffer().getType());
    RankedTensorType block = type.getBlockType();
    auto func = op->getParentOfType<func::FuncOp>();
    int64_t threads = 32 * getNumWarps(func);
    int64_t rows = block.getDimSize(0), cols = block.getDimSize(1);
    int64_t bytes = type.getElementBytes();
    SharedLayout layout = getSharedLayout(op.getBuffer());
    if (layout.transposed) {
      lowerTransposedCopy(op, layout, adaptor.getPtr(),
                          emitStageBase(rewriter, loc, layout,
                                        adaptor.getBuffer()[0],
                                        adaptor.getStage()[0]),
                          rewriter);
      rewriter.eraseOp(op);
      return success();
    }
    Type elem = block.getElementType(), i32 = rewriter.getI32Type(),
         i64 = rewriter.getI64Type();

    ValueRange parts = adaptor.getPtr();
    Value base = parts[0];
    Value shape[2] = {parts[1], parts[2]}, strides[2] = {parts[3], parts[4]},
          offsets[2] = {parts[5], parts[6]};
    Value dst = emitStageBase(rewriter, loc, layout, adaptor.getBuffer()[0],
                              adaptor.getStage()[0]);
    ThreadIds ids = getThreadIds(rewriter, loc);
    Value tid = emitThreadIndex(rewriter, loc, ids);
    auto ext = [&](Value v) {
      return arith::ExtSIOp::create(rewriter, loc, i64, v).getResult();
    };
    auto c64 = [&](int64_t v) { return i64Constant(rewriter, loc, v); };

    // cp.async moves 16 bytes per instruction when the rows have stride 1
    // and every chunk is 16-byte aligned in global memory (the base, the
    // row stride and the column offset): one uniform test for the block.
    Value contiguous = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, strides[1], c64(1));
    Value first = LLVM::PtrToIntOp::create(rewriter, loc, i64, base);
    first = arith::AddIOp::create(
        rewriter, loc, first,
        arith::MulIOp::create(rewriter, loc, ext(offsets[1]), c64(bytes)));
    Value rowBytes =
        arith::MulIOp::create(rewriter, loc, strides[0], c64(bytes));
    Value low = arith::AndIOp::create(
        rewriter, loc, arith::OrIOp::create(rewriter, loc, first, rowBytes),
        c64(15));
    Value aligned = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, low, c64(0));
    Value fast = arith::AndIOp::create(rewriter, loc, contiguous, aligned);
    // Interior blocks (the common case) copy whole chunks with no bounds
    // arithmetic; blocks on the array's edge clamp each chunk.
    Value interior =
        emitBlockInside(rewriter, loc, block, shape, offsets, fast);
    auto interiorIf = scf::IfOp::create(rewriter, loc, TypeRange(), interior,
                                        /*withElse=*/true);
    OpBuilder::InsertionGuard outerGuard(rewriter);
    rewriter.setInsertionPoint(interiorIf.elseBlock()->getTerminator());
    auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange(), fast,
                                  /*withElse=*/true);

    // Work item `j` of this thread: tid + j * threads, guarded when the
    // items do not divide evenly.
    auto forEachItem = [&](int64_t items, function_ref<void(Value item)> body) {
      for (int64_t j = 0; j * threads < items; ++j) {
        Value item = arith::AddIOp::create(
            rewriter, loc, tid, i32Constant(rewriter, loc, j * threads));
        if ((j + 1) * threads <= items) {
          body(item);
          continue;
        }
        Value inRange =
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                  item, i32Constant(rewriter, loc, items));
        auto guard = scf::IfOp::create(rewriter, loc, TypeRange(), inRange,
                                       /*withElse=*/false);
        OpBuilder::InsertionGuard g(rewriter);
        rewriter.setInsertionPoint(guard.thenBlock()->getTerminator());
        body(item);
      }
    };
    // (row, column) of linear position `item` in units of `width` elements.
    auto split = [&](Value item, int64_t perRow) -> std::pair<Value, Value> {
      Value row = arith::DivUIOp::create(rewriter, loc, item,
                                         i32Constant(rewriter, loc, perRow));
      Value col = arith::RemUIOp::create(rewriter, loc, item,
                                         i32Constant(rewriter, loc, perRow));
      return {row, col};
    };
    auto shared = [&](Value row, Value col) {
      return byteOffset(rewriter, loc, dst,
                        layout.emitOffset(rewriter, loc, row, col));
    };
    auto rowInside = [&](Value gRow) {
      return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                   ext(gRow), shape[0]);
    };

    int64_t width = 16 / bytes, perRow = cols / width;
    {
      // Interior: this thread's chunks are rows apart by a fixed step when
      // the threads cover whole rows, so one address per copy plus
      // loop-invariant steps (global) and immediates (shared) serve all.
      OpBuilder::InsertionGuard g(rewriter);
      rewriter.setInsertionPoint(interiorIf.thenBlock()->getTerminator());
      bool rowsPerPass = threads % perRow == 0;
      Value firstRow, firstCol, gFirst;
      if (rowsPerPass) {
        std::tie(firstRow, firstCol) = split(tid, perRow);
        firstCol = arith::MulIOp::create(rewriter, loc, firstCol,
                                         i32Constant(rewriter, loc, width));
        Value gRow = arith::AddIOp::create(rewriter, loc, offsets[0], firstRow);
        Value gCol = arith::AddIOp::create(rewriter, loc, offsets[1], firstCol);
        gFirst =
            gep(rewriter, loc, elem, base,
                arith::AddIOp::create(
                    rewriter, loc,
                    arith::MulIOp::create(rewriter, loc, ext(gRow), strides[0]),
                    ext(gCol)));
      }
      forEachItem(rows * perRow, [&](Value item) {
        Value src, dstRow, dstCol;
        if (rowsPerPass) {
          // Item tid + j * threads is j * (threads / perRow) rows below
          // the first.
          Value j = arith::DivUIOp::create(
              rewriter, loc, arith::SubIOp::create(rewriter, loc, item, tid),
              i32Constant(rewriter, loc, threads));
          Value rowStep = arith::MulIOp::create(
              rewriter, loc, j, i32Constant(rewriter, loc, threads / perRow));
          src = gep(
              rewriter, loc, elem, gFirst,
              arith::MulIOp::create(rewriter, loc, ext(rowStep), strides[0]));
          dstRow = arith::AddIOp::create(rewriter, loc, firstRow, rowStep);
          dstCol = firstCol;
        } else {
          auto [row, chunk] = split(item, perRow);
          Value col = arith::MulIOp::create(rewriter, loc, chunk,
                                            i32Constant(rewriter, loc, width));
          Value gRow = arith::AddIOp::create(rewriter, loc, offsets[0], row);
          Value gCol = arith::AddIOp::create(rewriter, loc, offsets[1], col);
          src = gep(
              rewriter, loc, elem, base,
              arith::AddIOp::create(
                  rewriter, loc,
                  arith::MulIOp::create(rewriter, loc, ext(gRow), strides[0]),
                  ext(gCol)));
          dstRow = row;
          dstCol = col;
        }
        NVVM::CpAsyncOp::create(rewriter, loc, shared(dstRow, dstCol), src, 16,
                                NVVM::LoadCacheModifierKind::CG,
                                /*cpSize=*/Value());
      });
    }
    {
      OpBuilder::InsertionGuard g(rewriter);
      rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      forEachItem(rows * perRow, [&](Value item) {
        auto [row, chunk] = split(item, perRow);
        Value col = arith::MulIOp::create(rewriter, loc, chunk,
                                          i32Constant(rewriter, loc, width));
        Value gRow = arith::AddIOp::create(rewriter, loc, offsets[0], row);
        Value gCol = arith::AddIOp::create(rewriter, loc, offsets[1], col);
        // Elements of the chunk inside the array: clamp(shape1 - gCol, 0,
        // width), none when the row is outside; cp.async zero-fills the
        // rest of the 16 bytes.
        Value left = arith::SubIOp::create(rewriter, loc, shape[1], ext(gCol));
        left = arith::MaxSIOp::create(rewriter, loc, left, c64(0));
        left = arith::MinSIOp::create(rewriter, loc, left, c64(width));
        Value inside = rowInside(gRow);
        Value srcBytes = arith::SelectOp::create(
            rewriter, loc, inside,
            arith::MulIOp::create(rewriter, loc, left, c64(bytes)), c64(0));
        srcBytes = arith::TruncIOp::create(rewriter, loc, i32, srcBytes);
        // A chunk with no bytes to read keeps a valid source address.
        Value offset = arith::AddIOp::create(
            rewriter, loc,
            arith::MulIOp::create(rewriter, loc, ext(gRow), strides[0]),
            ext(gCol));
        offset = arith::SelectOp::create(
            rewriter, loc,
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                  srcBytes, i32Constant(rewriter, loc, 0)),
            c64(0), offset);
        Value src = gep(rewriter, loc, elem, base, offset);
        NVVM::CpAsyncOp::create(rewriter, loc, shared(row, col), src, 16,
                                NVVM::LoadCacheModifierKind::CG, srcBytes);
      });
    }
    {
      // Any other block: element by element, synchronously (ordinary
      // stores, made visible by the barrier of tile.async_wait), in a loop
      // that LLVM must not unroll: unrolled, its loop-invariant address
      // parts would be hoisted out of the kernel's loop and held in
      // registers there.
      OpBuilder::InsertionGuard g(rewriter);
      rewriter.setInsertionPoint(ifOp.elseBlock()->getTerminator());
      int64_t items = rows * cols;
      auto loop =
          scf::ForOp::create(rewriter, loc, i32Constant(rewriter, loc, 0),
                             i32Constant(rewriter, loc, items),
                             i32Constant(rewriter, loc, threads));
      setNoUnroll(loop);
      rewriter.setInsertionPoint(loop.getBody()->getTerminator());
      Value item =
          arith::AddIOp::create(rewriter, loc, tid, loop.getInductionVar());
      Value inRange =
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult, item,
                                i32Constant(rewriter, loc, items));
      auto guard = scf::IfOp::create(rewriter, loc, TypeRange(), inRange,
                                     /*withElse=*/false);
      rewriter.setInsertionPoint(guard.thenBlock()->getTerminator());
      [&] {
        auto [row, col] = split(item, cols);
        Value gRow = arith::AddIOp::create(rewriter, loc, offsets[0], row);
        Value gCol = arith::AddIOp::create(rewriter, loc, offsets[1], col);
        Value inside = arith::AndIOp::create(
            rewriter, loc, rowInside(gRow),
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                  ext(gCol), shape[1]));
        auto load = scf::IfOp::create(rewriter, loc, TypeRange{elem}, inside,
                                      /*withElse=*/true);
        {
          OpBuilder::InsertionGuard g2(rewriter);
          rewriter.setInsertionPointToStart(load.thenBlock());
          Value offset = arith::AddIOp::create(
              rewriter, loc,
              arith::MulIOp::create(rewriter, loc, ext(gRow), strides[0]),
              arith::MulIOp::create(rewriter, loc, ext(gCol), strides[1]));
          Value v = LLVM::LoadOp::create(
              rewriter, loc, elem, gep(rewriter, loc, elem, base, offset));
          scf::YieldOp::create(rewriter, loc, v);
          rewriter.setInsertionPointToStart(load.elseBlock());
          Value zero = arith::ConstantOp::create(rewriter, loc,
                                                 rewriter.getZeroAttr(elem));
          scf::YieldOp::create(rewriter, loc, zero);
        }
        LLVM::StoreOp::create(rewriter, loc, load.getResult(0),
                              shared(row, col));
      }();
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncCommitOpConversion : public OpConversionPattern<AsyncCommitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AsyncCommitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::CpAsyncCommitGroupOp::create(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncWaitOpConversion : public OpConversionPattern<AsyncWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AsyncWaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NVVM::CpAsyncWaitGroupOp::create(rewriter, loc, op.getPending());
    // wgmma reads shared memory through the async proxy: copies written
    // through the generic one must be fenced before the barrier that
    // hands them over.
    if (TileDialect::WgmmaAttrHelper(op.getContext())
            .isAttrPresent(op->getParentOfType<func::FuncOp>()))
      emitAsyncSharedFence(rewriter, loc);
    // Each thread waited for its own copies; the barrier publishes them
    // (and ends every read of the stage the next copy will overwrite).
    emitBarrier(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

/// Elements a thread reads or writes of a stage as one vector for `tile`:
/// its runs of consecutive columns, up to 16 bytes (rows are 16-byte
/// aligned; a swizzle moves whole 16-byte pieces).
static int64_t getStageAccessRun(RankedTensorType tile, int64_t bytes) {
  LayoutView view(tile);
  if (view.getFastTensorDim() != 1u)
    return 1;
  return std::min<int64_t>(view.getSizePerThread(view.getFastRootDim()),
                           16 / bytes);
}

/// The address of element (row, col) of the stage starting at `base`.
/// Unswizzled rows: an element-typed index, whose constant parts the
/// backend folds into the accesses' immediate offsets.
static Value emitStageElementAddress(OpBuilder &b, Location loc,
                                     const SharedLayout &layout, Type elem,
                                     Value base, Value row, Value col) {
  if (layout.isSwizzled())
    return byteOffset(b, loc, base, layout.emitOffset(b, loc, row, col));
  return gep(
      b, loc, elem, base,
      arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(
              b, loc, row, i32Constant(b, loc, layout.type.getRowStride())),
          col));
}

struct LocalLoadOpConversion : public OpConversionPattern<LocalLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LocalLoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<SharedBufferType>(op.getBuffer().getType());
    RankedTensorType tile = op.getType();
    if (!tile.getEncoding())
      return rewriter.notifyMatchFailure(op, "tile has no layout");
    Type elem = tile.getElementType();
    int64_t bytes = type.getElementBytes();
    SharedLayout layout = getSharedLayout(op.getBuffer());
    Value base = emitStageBase(rewriter, loc, layout, adaptor.getBuffer()[0],
                               adaptor.getStage()[0]);
    int64_t run = getStageAccessRun(tile, bytes);
    auto indices = emitSlotIndices(rewriter, loc, tile);
    SmallVector<Value> results;
    for (size_t first = 0; first < indices.size(); first += run) {
      Value addr =
          emitStageElementAddress(rewriter, loc, layout, elem, base,
                                  indices[first][0], indices[first][1]);
      if (run == 1) {
        results.push_back(LLVM::LoadOp::create(rewriter, loc, elem, addr));
        continue;
      }
      auto vecType = VectorType::get({run}, elem);
      Value v = LLVM::LoadOp::create(rewriter, loc, vecType, addr, run * bytes);
      for (int64_t i = 0; i < run; ++i)
        results.push_back(LLVM::ExtractElementOp::create(
            rewriter, loc, v, i32Constant(rewriter, loc, i)));
    }
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }
};

struct LocalStoreOpConversion : public OpConversionPattern<LocalStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LocalStoreOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<SharedBufferType>(op.getBuffer().getType());
    RankedTensorType tile = op.getValue().getType();
    if (!tile.getEncoding())
      return rewriter.notifyMatchFailure(op, "tile has no layout");
    Type elem = tile.getElementType();
    int64_t bytes = type.getElementBytes();
    SharedLayout layout = getSharedLayout(op.getBuffer());
    // Earlier reads of the stage (by any thread) end first.
    emitBarrier(rewriter, loc);
    Value base = emitStageBase(rewriter, loc, layout, adaptor.getBuffer()[0],
                               adaptor.getStage()[0]);
    // As tile.local_load reads. Threads holding copies of an element
    // (layouts wider than the tile) write the same value.
    int64_t run = getStageAccessRun(tile, bytes);
    SmallVector<Value> values(adaptor.getValue()), lowParts;
    bool split = layout.splitTF32 && elem.isF32();
    auto roundToTF32 = [&](Value v, bool tiesToEven) -> Value {
      return arith::BitcastOp::create(
          rewriter, loc, elem, roundToTF32Bits(rewriter, loc, v, tiesToEven));
    };
    if (split)
      // v = hi + lo up to lo's rounding (2^-22 |v|): hi where the value
      // goes, lo getLowPartOffset() bytes on (ties to even: split buffers
      // are sm_90a's, where that is the cheaper conversion).
      for (Value &v : values) {
        Value hi = roundToTF32(v, true);
        lowParts.push_back(
            roundToTF32(arith::SubFOp::create(rewriter, loc, v, hi), true));
        v = hi;
      }
    else if (TileDialect::RoundTf32AttrHelper(op.getContext())
                 .isAttrPresent(op) &&
             elem.isF32())
      for (Value &v : values)
        v = roundToTF32(v, false);
    auto indices = emitSlotIndices(rewriter, loc, tile);
    auto storeAll = [&](ArrayRef<Value> parts, Value partBase) {
      for (size_t first = 0; first < indices.size(); first += run) {
        Value addr =
            emitStageElementAddress(rewriter, loc, layout, elem, partBase,
                                    indices[first][0], indices[first][1]);
        if (run == 1) {
          LLVM::StoreOp::create(rewriter, loc, parts[first], addr);
          continue;
        }
        auto vecType = VectorType::get({run}, elem);
        Value v = LLVM::UndefOp::create(rewriter, loc, vecType);
        for (int64_t i = 0; i < run; ++i)
          v = LLVM::InsertElementOp::create(rewriter, loc, v, parts[first + i],
                                            i32Constant(rewriter, loc, i));
        LLVM::StoreOp::create(rewriter, loc, v, addr, run * bytes);
      }
    };
    storeAll(values, base);
    if (split)
      storeAll(lowParts,
               byteOffset(rewriter, loc, base,
                          i32Constant(rewriter, loc,
                                      layout.getLowPartOffset())));
    // wgmma reads shared memory through the async proxy: the generic
    // proxy's stores are fenced before the barrier that hands them over.
    if (TileDialect::WgmmaAttrHelper(op.getContext())
            .isAttrPresent(op->getParentOfType<func::FuncOp>()))
      emitAsyncSharedFence(rewriter, loc);
    emitBarrier(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tile::populateAsyncCopyOpToLLVMPatterns(
    TileTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<AllocSharedOpConversion, AsyncCopyOpConversion,
               AsyncCommitOpConversion, AsyncWaitOpConversion,
               LocalLoadOpConversion, LocalStoreOpConversion>(
      converter, patterns.getContext());
}
