// A cluster of 2 programs sharing a warp-specialized stream (V's blocks:
// tile.tma_copy multicast 2, tile.mbarrier_arrive cluster) lowered: the
// kernel runs in clusters of 2 (the metadata's cluster_size); V's
// tensor map moves half a block per box (32 of 64 rows). Once the barriers
// are initialized, every thread of the cluster meets at the cluster
// barrier before any peer may use them. The producer announces the whole
// block's bytes (64 x 128 x 2) on its own barrier and copies its rank's
// rows to both programs (mask 0b11); it arrives on the cluster barrier
// before it exits. Each consumer warp, once all its lanes are there,
// arrives from lane r on the barrier of the program of rank r (mapa, then
// the default release at CTA scope); the program's warps meet the producer's
// arrivals at the cluster barrier before they return, so no program exits
// while a peer may still arrive on its barriers.
//
// RUN: tile-opt %s -split-input-file --tile-to-llvm=chip=sm_90a | FileCheck %s

// CHECK-LABEL: func.func @shared_v(
// CHECK-SAME:    cluster_size 2
// CHECK-SAME:    tma arg1 f16 shape arg4 arg5 strides arg5 1 box 32 64 swizzle 128 groups 0
// CHECK:         nvvm.fence.mbarrier.init
// CHECK:         nvvm.cluster.arrive
// CHECK-NEXT:    nvvm.cluster.wait
// CHECK:         scf.if
// CHECK:           nvvm.setmaxregister  decrease 24
// CHECK:           nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c16384_i32
// CHECK:           %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK:           %[[FIRST:.*]] = arith.muli %[[RANK]], %c32_i32
// CHECK:           nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg7, %{{.*}}, box[%{{.*}}, %{{.*}}] multicast_mask = %{{.*}}
// CHECK:           nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg7, %{{.*}}, box[%{{.*}}, %{{.*}}] multicast_mask = %{{.*}}
// CHECK-NOT:       nvvm.cp.async.bulk.tensor
// CHECK:           nvvm.cluster.arrive
// CHECK-NEXT:      nvvm.exit
// CHECK:         scf.for
// CHECK:           nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK:           nvvm.bar.warp.sync %c-1_i32
// CHECK:           %[[LANE:.*]] = arith.andi %{{.*}}, %c31_i32
// CHECK:           %[[ARRIVES:.*]] = arith.cmpi ult, %[[LANE]], %c2_i32
// CHECK-NEXT:      scf.if %[[ARRIVES]] {
// CHECK:             %[[REMOTE:.*]] = nvvm.mapa %{{.*}}, %[[LANE]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT:        nvvm.mbarrier.arrive %[[REMOTE]] : !llvm.ptr<7>
// CHECK:         nvvm.cluster.arrive
// CHECK-NEXT:    nvvm.cluster.wait
// CHECK-NEXT:    return
func.func @shared_v(%x: !tile.ptr<f16>, %v: !tile.ptr<f16>, %o: !tile.ptr<f32>,
                    %m: i64, %n: i32, %d3: i64)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32,
                tile.cluster_size = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %one = arith.constant 1 : i64
  %row = tile.program_id 0
  %col = tile.program_id 1
  %r0 = arith.muli %row, %c64 : i32
  %c0v = arith.muli %col, %c128 : i32
  %n64 = arith.extsi %n : i32 to i64
  %xp = tile.make_block_ptr %x, [%m, %n64], [%n64, %one], [%r0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  %vp = tile.make_block_ptr %v, [%n64, %d3], [%d3, %one], [%c0, %c0v] order = [1, 0] : !tile.block_ptr<tensor<64x128xf16>>
  %zero = arith.constant dense<0.0> : tensor<64x128xf32>
  %res:3 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %p = %xp, %q = %vp) -> (tensor<64x128xf32>, !tile.block_ptr<tensor<64x64xf16>>, !tile.block_ptr<tensor<64x128xf16>>) : i32 {
    %a = tile.block_load %p : !tile.block_ptr<tensor<64x64xf16>>
    %b = tile.block_load %q : !tile.block_ptr<tensor<64x128xf16>>
    %s = tile.dot %a, %b, %acc : tensor<64x64xf16>, tensor<64x128xf16> -> tensor<64x128xf32>
    %pn = tile.advance %p, [%c0, %c64] : !tile.block_ptr<tensor<64x64xf16>>
    %qn = tile.advance %q, [%c64, %c0] : !tile.block_ptr<tensor<64x128xf16>>
    scf.yield %s, %pn, %qn : tensor<64x128xf32>, !tile.block_ptr<tensor<64x64xf16>>, !tile.block_ptr<tensor<64x128xf16>>
  } {tile.warp_specialize}
  %op = tile.make_block_ptr %o, [%m, %d3], [%d3, %one], [%r0, %c0v] order = [1, 0] : !tile.block_ptr<tensor<64x128xf32>>
  tile.block_store %op, %res#0 : !tile.block_ptr<tensor<64x128xf32>>
  return
}

// -----

// The same with X's rows chosen by program_id 2: X's stream is shared too.
// Its stage is in wgmma's order of 8-row groups: a multicast part is
// copied group by group (4 of the 64 rows' 8 groups per program, boxes of
// 8 rows, no interleaved map).

// CHECK-LABEL: func.func @shared_a(
// CHECK-SAME:    tma arg0 f16 shape arg3 arg4 strides arg4 1 box 8 64 swizzle 128 groups 0
// CHECK:         nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c8192_i32
// CHECK-COUNT-4: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg6, %{{.*}}, box[%{{.*}}, %{{.*}}] multicast_mask
// CHECK-NOT:     nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %arg6
// CHECK:         nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c16384_i32
func.func @shared_a(%x: !tile.ptr<f16>, %v: !tile.ptr<f16>, %o: !tile.ptr<f32>,
                    %m: i64, %n: i32, %d3: i64)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32,
                tile.cluster_size = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %one = arith.constant 1 : i64
  %row = tile.program_id 2
  %col = tile.program_id 1
  %r0 = arith.muli %row, %c64 : i32
  %c0v = arith.muli %col, %c128 : i32
  %n64 = arith.extsi %n : i32 to i64
  %xp = tile.make_block_ptr %x, [%m, %n64], [%n64, %one], [%r0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  %vp = tile.make_block_ptr %v, [%n64, %d3], [%d3, %one], [%c0, %c0v] order = [1, 0] : !tile.block_ptr<tensor<64x128xf16>>
  %zero = arith.constant dense<0.0> : tensor<64x128xf32>
  %res:3 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %p = %xp, %q = %vp) -> (tensor<64x128xf32>, !tile.block_ptr<tensor<64x64xf16>>, !tile.block_ptr<tensor<64x128xf16>>) : i32 {
    %a = tile.block_load %p : !tile.block_ptr<tensor<64x64xf16>>
    %b = tile.block_load %q : !tile.block_ptr<tensor<64x128xf16>>
    %s = tile.dot %a, %b, %acc : tensor<64x64xf16>, tensor<64x128xf16> -> tensor<64x128xf32>
    %pn = tile.advance %p, [%c0, %c64] : !tile.block_ptr<tensor<64x64xf16>>
    %qn = tile.advance %q, [%c64, %c0] : !tile.block_ptr<tensor<64x128xf16>>
    scf.yield %s, %pn, %qn : tensor<64x128xf32>, !tile.block_ptr<tensor<64x64xf16>>, !tile.block_ptr<tensor<64x128xf16>>
  } {tile.warp_specialize}
  %op = tile.make_block_ptr %o, [%m, %d3], [%d3, %one], [%r0, %c0v] order = [1, 0] : !tile.block_ptr<tensor<64x128xf32>>
  tile.block_store %op, %res#0 : !tile.block_ptr<tensor<64x128xf32>>
  return
}
