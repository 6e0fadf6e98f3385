// tile-pipeline-loops with chip=sm_90a in a kernel marked tile.tma: the
// wgmma candidate's two f16 block loads, whose arrays the runtime knows
// (base, shape and strides are kernel arguments or constants), are copied
// by TMA. The kernel gains one trailing !tile.tensormap argument per array,
// naming it; one mbarrier per stage takes both copies' arrivals; each copy
// is issued only for iterations the loop runs (the trip count is computed
// before the prologue); the loop waits for barrier i mod 4 at parity
// (i / 4) mod 2 instead of a cp.async group, and nothing is waited for
// after it. Loads whose array the runtime cannot describe, and kernels
// without tile.tma, keep cp.async.
//
// RUN: tile-opt %s -split-input-file -tile-pipeline-loops=chip=sm_90a | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-pipeline-loops | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @tma(
// CHECK-SAME:    %[[MA:[a-z0-9]+]]: !tile.tensormap {tile.tma = {base = 0 : i64, shape = ["arg3", "arg4"], strides = ["arg4", "1"]}},
// CHECK-SAME:    %[[MB:[a-z0-9]+]]: !tile.tensormap {tile.tma = {base = 1 : i64, shape = ["arg4", "64"], strides = ["64", "1"]}})
// CHECK:         %[[BA:.*]] = tile.alloc_shared : !tile.shared<tensor<64x32xf16>, stages = 4, pad = 8>
// CHECK:         %[[BB:.*]] = tile.alloc_shared : !tile.shared<tensor<32x64xf16>, stages = 4, pad = 8>
// CHECK:         %[[BARS:.*]] = tile.alloc_mbarriers : !tile.mbarriers<4, arrivals = 2>
// CHECK:         %[[TRIP:.*]] = arith.ceildivsi
// CHECK:         %[[RUNS0:.*]] = arith.cmpi slt, %{{.*}}, %[[TRIP]]
// CHECK:         tile.tma_copy %{{.*}}, %[[BA]][%{{.*}}] map %[[MA]], %[[BARS]] if %[[RUNS0]]
// CHECK:         tile.tma_copy %{{.*}}, %[[BB]][%{{.*}}] map %[[MB]], %[[BARS]] if
// CHECK-COUNT-2: tile.tma_copy
// CHECK-NOT:     tile.tma_copy
// CHECK:         scf.for
// CHECK:           %[[STAGE:.*]] = arith.remui %[[I:.*]], %c4
// CHECK:           %[[ROUND:.*]] = arith.divui %[[I]], %c4
// CHECK:           %[[PARITY:.*]] = arith.remui %[[ROUND]], %c2
// CHECK:           tile.mbarrier_wait %[[BARS]][%[[STAGE]]], phase %[[PARITY]]
// CHECK:           %[[AHEAD:.*]] = arith.addi %[[I]], %c2
// CHECK:           %[[ASTAGE:.*]] = arith.remui %[[AHEAD]], %c4
// CHECK:           %[[RUNS:.*]] = arith.cmpi slt, %[[AHEAD]], %[[TRIP]]
// CHECK:           tile.tma_copy %{{.*}}, %[[BA]][%[[ASTAGE]]] map %[[MA]], %[[BARS]] if %[[RUNS]]
// CHECK:           tile.tma_copy %{{.*}}, %[[BB]][%[[ASTAGE]]] map %[[MB]], %[[BARS]] if
// CHECK:           tile.local_load %[[BA]][%[[STAGE]]]
// CHECK:           tile.local_load %[[BB]][%[[STAGE]]]
// CHECK-NOT:       tile.async
// CHECK:         } {tile.mma_in_flight}
// CHECK-NOT:     tile.async_wait
// CHECK:         return
// GENERIC-LABEL: func.func @tma(
// GENERIC-NOT:     tile.tensormap
// GENERIC:         tile.async_copy
// GENERIC-NOT:     tile.tma_copy
// GENERIC:         return
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

// -----

// B's base is computed in the kernel (the runtime cannot encode its map):
// both loads keep cp.async, and the kernel's signature is unchanged.
// CHECK-LABEL: func.func @computed_base(
// CHECK-NOT:     tile.tensormap
// CHECK:         tile.async_copy
// CHECK-NOT:     tile.tma_copy
// CHECK:         return
func.func @computed_base(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %n: i64, %k: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 4 : i32, tile.tma} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %one = arith.constant 1 : i64
  %pid = tile.program_id 0
  %bb = tile.addptr %b, %pid : !tile.ptr<f16>, i32
  %pa = tile.make_block_ptr %a, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x32xf16>>
  %pb = tile.make_block_ptr %bb, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<32x64xf16>>
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
