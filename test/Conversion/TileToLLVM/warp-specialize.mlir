// A warp-specialized loop lowered (tile-warp-specialize runs within
// --tile-to-llvm): the kernel launches a producer warpgroup beside its 4
// warps (maxntid 256, the metadata's num_warps 8); warps 4 and up lower
// their registers to 24, warp 4 alone runs the producer region (its first
// lane issues the 4-d TMA copies: column, row, head, batch coordinates)
// and the warpgroup exits; the program's warps raise theirs to 240 and
// synchronize on named barrier 1 over their 128 threads, never barrier 0
// after the split. The metadata's map has the heads' and the batch's
// (stride, count) pairs. Each thread arrives on the stage's `empty`
// barrier after the loop's dot.
//
// RUN: tile-opt %s --tile-to-llvm=chip=sm_90a | FileCheck %s

// CHECK-LABEL: func.func @stream(
// CHECK-SAME:    nvvm.maxntid = array<i32: 256, 1, 1>
// CHECK-SAME:    num_warps 8
// CHECK-SAME:    tma arg0 f16 shape arg2 64 strides arg5 1 box 64 64 swizzle 128 groups 0 batch arg4 arg3 arg6 grid2
// CHECK:         nvvm.barrier0
// CHECK:         %[[PRODUCER:.*]] = arith.cmpi uge, %[[WARP:.*]], %c4_i32
// CHECK-NEXT:    scf.if %[[PRODUCER]] {
// CHECK-NEXT:      nvvm.setmaxregister  decrease 24
// CHECK:           %[[FIRST:.*]] = arith.cmpi eq, %[[WARP]], %{{.*}}
// CHECK-NEXT:      scf.if %[[FIRST]] {
// CHECK:             nvvm.mbarrier.try_wait
// CHECK:             nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c8192_i32
// CHECK:             nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}]
// CHECK:           nvvm.exit
// CHECK-NEXT:    }
// CHECK-NEXT:    nvvm.setmaxregister  increase 240
// CHECK-NOT:     nvvm.barrier0
// CHECK:         scf.for
// CHECK:           nvvm.mbarrier.try_wait
// CHECK:           nvvm.barrier id = %{{.*}} number_of_threads = %c128_i32
// CHECK:           nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK-NOT:     nvvm.barrier0
// CHECK:         return
func.func @stream(%k: !tile.ptr<f16>, %o: !tile.ptr<f32>, %n: i32, %heads: i32,
                  %sh: i64, %sr: i64, %sb: i64)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %h = tile.program_id 1
  %b = tile.program_id 2
  %nb = tile.num_programs 2
  %nb64 = arith.extsi %nb : i32 to i64
  %heads64 = arith.extsi %heads : i32 to i64
  %n64 = arith.extsi %n : i32 to i64
  %ptr = tile.make_block_ptr %k, [%nb64, %heads64, %n64, %d], [%sb, %sh, %sr, %one], [%b, %h, %c0, %c0] order = [3, 2, 1, 0] : !tile.block_ptr<tensor<1x1x64x64xf16>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %q = arith.constant dense<1.0> : tensor<64x64xf16>
  %any = arith.cmpi slt, %c0, %n : i32
  %r = scf.if %any -> tensor<64x64xf32> {
    %res:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %p = %ptr) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<1x1x64x64xf16>>) : i32 {
      %blk = tile.block_load %p : !tile.block_ptr<tensor<1x1x64x64xf16>>
      %t = tile.reshape %blk : tensor<1x1x64x64xf16> -> tensor<64x64xf16>
      %tt = tile.trans %t order = [1, 0] : tensor<64x64xf16> -> tensor<64x64xf16>
      %s = tile.dot %q, %tt, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      %next = tile.advance %p, [%c0, %c0, %c64, %c0] : !tile.block_ptr<tensor<1x1x64x64xf16>>
      scf.yield %s, %next : tensor<64x64xf32>, !tile.block_ptr<tensor<1x1x64x64xf16>>
    } {tile.warp_specialize}
    scf.yield %res#0 : tensor<64x64xf32>
  } else {
    scf.yield %zero : tensor<64x64xf32>
  }
  %op = tile.make_block_ptr %o, [%d, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  tile.block_store %op, %r : !tile.block_ptr<tensor<64x64xf32>>
  return
}
