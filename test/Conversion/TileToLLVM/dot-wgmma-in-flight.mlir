// The whole tile half of the compiler for sm_90a on a 4-stage f16 matmul
// loop: tile-pipeline-loops reserves a stage (tile.mma_in_flight), so the
// dot's wgmma group stays in flight into the next iteration (wait_group 1
// after the commit); the last iteration waits for everything inside the
// loop (an scf.if on iv + step >= ub; ptxas would otherwise serialize the
// wgmma, C7514), and tile.warpgroup_mma_wait drains again after the loop,
// before the accumulator is stored.
//
// RUN: tile-opt %s -split-input-file --tile-to-llvm=chip=sm_90a | FileCheck %s

// CHECK-LABEL: func.func @four_stages
// CHECK:         scf.for
// CHECK:           nvvm.wgmma.fence.aligned
// CHECK-COUNT-2:   wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CHECK:           nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:      "wgmma.wait_group.sync.aligned 1;"
// CHECK:           arith.cmpi sge
// CHECK-NEXT:      scf.if
// CHECK-NEXT:        "wgmma.wait_group.sync.aligned 0;"
// CHECK:         "wgmma.wait_group.sync.aligned 0;"
// CHECK:         nvvm.cp.async.wait.group 0
// CHECK:         return
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

// The library's softmax-matmul loop shape (marked tile.mma_in_flight by its
// builder): the accumulator is rescaled before each dot, so the dot cannot
// chain onto the running group; the iteration's first use of the carried
// accumulator waits for it (wait_group 0 right before the multiplication),
// and what comes before that use (the exponentials of the next X block)
// overlaps the previous iteration's wgmma.
// CHECK-LABEL: func.func @rescaled_accumulator
// CHECK:         scf.for
// CHECK:           llvm.nvvm.ex2.approx
// CHECK-NOT:       wgmma.
// CHECK:           "wgmma.wait_group.sync.aligned 0;"
// CHECK-NOT:       wgmma.
// CHECK:           arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK:           nvvm.wgmma.fence.aligned
// CHECK:           wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CHECK:           nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:      "wgmma.wait_group.sync.aligned 1;"
// CHECK:           scf.if
// CHECK-NEXT:        "wgmma.wait_group.sync.aligned 0;"
// CHECK:         "wgmma.wait_group.sync.aligned 0;"
// CHECK:         return
func.func @rescaled_accumulator(%o: !tile.ptr<f32>, %n: i64, %k: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %c32 = arith.constant 32 : i32
  %one = arith.constant 1 : i64
  %half = arith.constant dense<0.5> : tensor<64x64xf32>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %bx = tile.alloc_shared : !tile.shared<tensor<64x32xf16>, stages = 3, pad = 8>
  %bv = tile.alloc_shared : !tile.shared<tensor<32x64xf16>, stages = 3, pad = 8>
  %acc = scf.for %i = %c0 to %k step %c32 iter_args(%s = %zero) -> (tensor<64x64xf32>) : i32 {
    tile.async_wait pending = 0
    %step = arith.divui %i, %c32 : i32
    %stage = arith.remui %step, %c3 : i32
    %x = tile.local_load %bx[%stage] : !tile.shared<tensor<64x32xf16>, stages = 3, pad = 8> -> tensor<64x32xf16>
    %p = math.exp %x fastmath<afn> : tensor<64x32xf16>
    %scaled = arith.mulf %s, %half : tensor<64x64xf32>
    %v = tile.local_load %bv[%stage] : !tile.shared<tensor<32x64xf16>, stages = 3, pad = 8> -> tensor<32x64xf16>
    %d = tile.dot %p, %v, %scaled : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  } {tile.mma_in_flight}
  %pc = tile.make_block_ptr %o, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  tile.block_store %pc, %acc check = [0, 1] : !tile.block_ptr<tensor<64x64xf32>>
  return
}
