// The pipeline of a tile.tma kernel for sm_90a (tile-pipeline-loops, then
// tile-convert-to-llvm): the tensor maps become 64-byte aligned by-value
// parameters, 256 bytes for `a` (its buffer stores 8-row groups in wgmma's
// order, 16 x 4 warps = 64 rows: a second, interleaved 4-d map) and 128 for
// `b`; the metadata tells the runtime how to encode them. Thread 0
// initializes the four barriers (two arrivals each), fences and syncs; each
// copy, in thread 0 only (scf.if), announces its 4096 bytes and issues the
// interleaved map's two 4-d copies (blocks inside the array) or else eight
// 2-d copies of 8 rows (the array's last rows) for `a`, one 2-d copy for
// `b`; the loop waits with try_wait.parity, then syncs. No cp.async group
// remains.
//
// RUN: tile-opt %s --tile-to-llvm=chip=sm_90a | FileCheck %s

// CHECK-LABEL: func.func @tma(
// CHECK-SAME:    {llvm.align = 64 : i64, llvm.byval = !llvm.array<256 x i8>}
// CHECK-SAME:    {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>}
// CHECK-SAME:    tile.metadata = "{{.*}}arg i32 1\0Atma arg0 f16 shape arg3 arg4 strides arg4 1 box 8 32 swizzle 64 groups 4\0Atma arg1 f16 shape arg4 64 strides 64 1 box 32 64 swizzle 128 groups 0\0Aend\0A"
// CHECK:         scf.if
// CHECK-COUNT-4:   nvvm.mbarrier.init %{{.*}}, %c2_i32{{.*}} : !llvm.ptr<3>, i32
// CHECK:         nvvm.fence.mbarrier.init
// CHECK-NEXT:    nvvm.barrier0
// CHECK:         scf.if
// CHECK:           nvvm.mbarrier.arrive.expect_tx %[[BAR:.*]], %c4096_i32{{.*}} : !llvm.ptr<3>, i32
// CHECK:           scf.if
// CHECK-COUNT-2:     nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %[[BAR]], box[%{{.*}}, %c0_i32{{.*}}, %c0_i32{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK:           } else {
// CHECK-COUNT-8:     nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %[[BAR]], box[%{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK:         scf.if
// CHECK:           nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c4096_i32{{.*}} : !llvm.ptr<3>, i32
// CHECK-NOT:       box[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]
// CHECK:           nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}} box[%{{.*}}, %{{.*}}] :
// CHECK:         scf.while : () -> () {
// CHECK-NEXT:      %[[DONE:.*]] = nvvm.mbarrier.try_wait %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32 -> i1
// CHECK-NEXT:      %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT:      %[[PENDING:.*]] = arith.xori %[[DONE]], %[[TRUE]] : i1
// CHECK-NEXT:      scf.condition(%[[PENDING]])
// CHECK-NEXT:    } do {
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    nvvm.barrier0
// CHECK-NOT:     nvvm.cp.async.wait.group
// CHECK-NOT:     nvvm.cp.async.shared.global
// CHECK:         return
func.func @tma(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %m: i32, %k: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 4 : i32, tile.tma} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %one = arith.constant 1 : i64
  %c64 = arith.constant 64 : i64
  %m64 = arith.extsi %m : i32 to i64
  %k64 = arith.extsi %k : i32 to i64
  %pa = tile.make_block_ptr %a, [%m64, %k64], [%k64, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x32xf16>>
  %pb = tile.make_block_ptr %b, [%k64, %c64], [%c64, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<32x64xf16>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc, %ea, %eb = scf.for %i = %c0 to %k step %c32 iter_args(%s = %zero, %qa = %pa, %qb = %pb)
      -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>) : i32 {
    %x = tile.block_load %qa check = [0, 1] : !tile.block_ptr<tensor<64x32xf16>>
    %y = tile.block_load %qb check = [0, 1] : !tile.block_ptr<tensor<32x64xf16>>
    %d = tile.dot %x, %y, %s : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    %na = tile.advance %qa, [%c0, %c32] : !tile.block_ptr<tensor<64x32xf16>>
    %nb = tile.advance %qb, [%c32, %c0] : !tile.block_ptr<tensor<32x64xf16>>
    scf.yield %d, %na, %nb : tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>
  }
  %pc = tile.make_block_ptr %c, [%m64, %c64], [%c64, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  tile.block_store %pc, %acc check = [0, 1] : !tile.block_ptr<tensor<64x64xf32>>
  return
}
