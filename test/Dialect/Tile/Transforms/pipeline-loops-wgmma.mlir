// tile-pipeline-loops with chip=sm_90a: a 4-stage loop whose f16 dot could
// become wgmma (4 warps, 64 rows) keeps one stage for the wgmma group still
// running: the prologue copies two iterations (not three), the loop waits
// until at most one group is in flight and copies iteration i + 2 into
// stage (i + 2) mod 4; the loop is marked tile.mma_in_flight. With three
// stages (or without the chip option) nothing is reserved.
//
// RUN: tile-opt %s -split-input-file -tile-pipeline-loops=chip=sm_90a | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-pipeline-loops | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @four_stages(
// CHECK-COUNT-2: tile.async_commit
// CHECK-NOT:     tile.async_commit
// CHECK:         scf.for
// CHECK:           tile.async_wait pending = 1
// CHECK:           %[[I2:.*]] = arith.addi %{{.*}}, %c2{{.*}}
// CHECK:           %[[AHEAD:.*]] = arith.remui %[[I2]], %c4{{.*}}
// CHECK-NEXT:      tile.async_copy %{{.*}}[%[[AHEAD]]]
// CHECK:           tile.dot
// CHECK:         } {tile.mma_in_flight}
// CHECK-NEXT:    tile.async_wait pending = 0
// GENERIC-LABEL: func.func @four_stages(
// GENERIC-COUNT-3: tile.async_commit
// GENERIC:         scf.for
// GENERIC:           tile.async_wait pending = 2
// GENERIC-NOT:     tile.mma_in_flight
// GENERIC:         return
func.func @four_stages(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %n: i64, %k: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %one = arith.constant 1 : i64
  %pa = tile.make_block_ptr %a, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x32xf16>>
  %pb = tile.make_block_ptr %b, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<32x64xf16>>
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
  %pc = tile.make_block_ptr %c, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  tile.block_store %pc, %acc check = [0, 1] : !tile.block_ptr<tensor<64x64xf32>>
  return
}

// -----

// CHECK-LABEL: func.func @three_stages(
// CHECK-COUNT-2: tile.async_commit
// CHECK:         scf.for
// CHECK:           tile.async_wait pending = 1
// CHECK-NOT:     tile.mma_in_flight
// CHECK:         return
func.func @three_stages(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %n: i64, %k: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 3 : i32} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %one = arith.constant 1 : i64
  %pa = tile.make_block_ptr %a, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x32xf16>>
  %pb = tile.make_block_ptr %b, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<32x64xf16>>
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
  %pc = tile.make_block_ptr %c, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  tile.block_store %pc, %acc check = [0, 1] : !tile.block_ptr<tensor<64x64xf32>>
  return
}
