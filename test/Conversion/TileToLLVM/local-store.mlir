// tile.local_store: a barrier (earlier reads of the stage end), the tile's
// runs of consecutive columns as vector stores at the stage's element
// offsets (row * row stride + column), then a barrier (the tile is visible
// to every thread). (In kernels whose dots use wgmma, a proxy fence
// precedes that barrier, as after tile.async_wait.)
//
// RUN: tile-opt %s -split-input-file -tile-convert-to-llvm | FileCheck %s

#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// 16 x 32 f32 over 4 warps: each thread holds one run of 4 columns; the
// buffer's rows are 32 + 4 elements apart.
// CHECK-LABEL: func.func @store_f32
// CHECK:         nvvm.barrier0
// CHECK:         arith.constant 36 : i32
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK-NOT:     llvm.store
// CHECK-NOT:     fence.proxy.async
// CHECK:         nvvm.barrier0
// CHECK:         return
func.func @store_f32(%x: f32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %buf = tile.alloc_shared : !tile.shared<tensor<16x32xf32>, stages = 2, pad = 4>
  %c1 = arith.constant 1 : i32
  %t = tile.splat %x : tensor<16x32xf32, #b>
  tile.local_store %t, %buf[%c1] : tensor<16x32xf32, #b>, !tile.shared<tensor<16x32xf32>, stages = 2, pad = 4>
  return
}
