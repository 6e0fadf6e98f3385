// A TMA copy of one matrix of a batch (as the library's softmax-matmul
// `_tma` builds issue them): the map is 3-d, the matrix index the outer
// coordinate of a cp.async.bulk.tensor.3d, and the metadata's `batch`
// names the stride argument and the launch grid's z as the count. The
// buffer, read only by tile.local_load, gets a 128-byte swizzle (TMA writes
// no padding), through which the read addresses it.
//
// RUN: tile-opt %s --split-input-file --tile-to-llvm=chip=sm_90a | FileCheck %s

// CHECK-LABEL: func.func @batched(
// CHECK-SAME:    {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>}
// CHECK-SAME:    tile.metadata = "{{.*}}arg i64 1\0Atma arg0 f16 shape arg2 arg3 strides arg5 1 box 64 64 swizzle 128 groups 0 batch arg4 grid2\0Aend\0A"
// CHECK:         scf.if
// CHECK:           nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c8192_i32{{.*}} : !llvm.ptr<3>, i32
// CHECK:           nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK-NOT:       nvvm.cp.async.bulk.tensor
// CHECK:         nvvm.mbarrier.try_wait
// CHECK:         arith.xori
// CHECK:         return
func.func @batched(%x: !tile.ptr<f16>, %y: !tile.ptr<f16>, %rows: i32, %cols: i32,
                   %bs: i64, %rs: i64,
                   %map: !tile.tensormap {tile.tma = {base = 0 : i64, shape = ["arg2", "arg3"], strides = ["arg5", "1"], batch = ["arg4", "grid2"]}})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %true = arith.constant true
  %one = arith.constant 1 : i64
  %b = tile.program_id 2
  %r64 = arith.extsi %rows : i32 to i64
  %c64 = arith.extsi %cols : i32 to i64
  %bp = tile.make_block_ptr %x, [%r64, %c64], [%rs, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  %buf = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
  %bars = tile.alloc_mbarriers : !tile.mbarriers<1, arrivals = 1>
  tile.tma_copy %bp, %buf[%c0] map %map, %bars if %true batch %b : !tile.block_ptr<tensor<64x64xf16>>, !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>, !tile.mbarriers<1, arrivals = 1>
  tile.mbarrier_wait %bars[%c0], phase %c0 : !tile.mbarriers<1, arrivals = 1>
  %t = tile.local_load %buf[%c0] : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8> -> tensor<64x64xf16>
  %yp = tile.make_block_ptr %y, [%r64, %c64], [%rs, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  tile.block_store %yp, %t check = [0, 1] : !tile.block_ptr<tensor<64x64xf16>>
  return
}

// -----

// A copy through a 4-d block pointer (rows of one head of a [batch, heads,
// rows, 64] array) into a buffer that a wgmma reads as its `a` operand,
// which stores 8-row groups in wgmma's order: the map's box is 8 rows (no
// interleaved map, which would need dimensions of its own for the leading
// coordinates), and the 64 rows take eight 4-d copies, each naming the
// head and the batch entry.
// CHECK-LABEL: func.func @rows_of_a_head(
// CHECK-SAME:    tile.metadata = "{{.*}}tma arg0 f16 shape arg3 64 strides arg7 1 box 8 64 swizzle 128 groups 0 batch arg6 arg4 arg5 grid2\0Aend\0A"
// CHECK:         nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c8192_i32{{.*}} : !llvm.ptr<3>, i32
// CHECK-COUNT-8:   nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK-NOT:     nvvm.cp.async.bulk.tensor
// CHECK:         wgmma.mma_async
func.func @rows_of_a_head(%x: !tile.ptr<f16>, %w: !tile.ptr<f16>, %y: !tile.ptr<f32>, %rows: i32, %heads: i32,
                   %sb: i64, %sh: i64, %rs: i64,
                   %map: !tile.tensormap {tile.tma = {base = 0 : i64, shape = ["arg3", "64"], strides = ["arg7", "1"], batch = ["arg6", "arg4", "arg5", "grid2"]}})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %true = arith.constant true
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %h = tile.program_id 1
  %b = tile.program_id 2
  %nb = tile.num_programs 2
  %nb64 = arith.extsi %nb : i32 to i64
  %heads64 = arith.extsi %heads : i32 to i64
  %r64 = arith.extsi %rows : i32 to i64
  %bp = tile.make_block_ptr %x, [%nb64, %heads64, %r64, %d], [%sb, %sh, %rs, %one], [%b, %h, %c0, %c0] order = [3, 2, 1, 0] : !tile.block_ptr<tensor<1x1x64x64xf16>>
  %buf = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
  %bars = tile.alloc_mbarriers : !tile.mbarriers<1, arrivals = 1>
  tile.tma_copy %bp, %buf[%c0] map %map, %bars if %true : !tile.block_ptr<tensor<1x1x64x64xf16>>, !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>, !tile.mbarriers<1, arrivals = 1>
  tile.mbarrier_wait %bars[%c0], phase %c0 : !tile.mbarriers<1, arrivals = 1>
  %a = tile.local_load %buf[%c0] : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8> -> tensor<64x64xf16>
  %wp = tile.make_block_ptr %w, [%d, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  %wt = tile.block_load %wp : !tile.block_ptr<tensor<64x64xf16>>
  %wbuf = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
  tile.local_store %wt, %wbuf[%c0] : tensor<64x64xf16>, !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
  %wl = tile.local_load %wbuf[%c0] : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8> -> tensor<64x64xf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %r = tile.dot %a, %wl, %zero : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
  %yp = tile.make_block_ptr %y, [%d, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  tile.block_store %yp, %r : !tile.block_ptr<tensor<64x64xf32>>
  return
}
