// tile.scan goes through shared memory as [other positions][axis]: each
// thread scans a chunk of max(1, N / threads) consecutive elements, the
// threads of a line combine their chunk totals by shuffles up the lanes
// (and through shared memory when a line spans warps), and every thread
// reads its slots back.
//
// RUN: tile-opt %s -split-input-file -tile-convert-to-llvm | FileCheck %s

// 128 elements over one warp: chunks of 4, one line of 32 threads: five
// shuffle steps up the lanes, then the total of the lane before.
#b = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: func.func @one_warp(
// CHECK-SAME:    tile.shared_bytes = 512 : i64
// CHECK:         nvvm.barrier0
// CHECK:         nvvm.barrier0
// CHECK-COUNT-3: arith.addf
// CHECK:         nvvm.shfl.sync up {{.*}} : f32 -> f32
// CHECK:         nvvm.shfl.sync up {{.*}} : f32 -> f32
// CHECK:         nvvm.shfl.sync up {{.*}} : f32 -> f32
// CHECK:         nvvm.shfl.sync up {{.*}} : f32 -> f32
// CHECK:         nvvm.shfl.sync up {{.*}} : f32 -> f32
// CHECK:         nvvm.shfl.sync up {{.*}} : f32 -> f32
// CHECK-NOT:     nvvm.shfl.sync
// CHECK:         nvvm.barrier0
// CHECK-NOT:     nvvm.barrier0
// CHECK:         return
func.func @one_warp(%a: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %x = tile.splat %a : tensor<128xf32, #b>
  %s = tile.scan sum %x axis = 0 : tensor<128xf32, #b>
  return
}

// -----

// 64 x 4 over one warp: chunks of 8 hold two whole lines each, scanned in
// order in the thread: no shuffles.
#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>

// CHECK-LABEL: func.func @whole_lines(
// CHECK-SAME:    tile.shared_bytes = 1024 : i64
// CHECK-NOT:     nvvm.shfl.sync
// CHECK:         return
func.func @whole_lines(%a: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %x = tile.splat %a : tensor<64x4xf32, #b>
  %s = tile.scan max %x axis = 1 : tensor<64x4xf32, #b>
  return
}

// -----

// 1024 elements over 4 warps: chunks of 8, a line of 128 threads spans the
// 4 warps, whose totals go through shared memory after the tile's copy
// (4096 bytes, then 4 x 4).
#b = #tile.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// CHECK-LABEL: func.func @line_over_warps(
// CHECK-SAME:    tile.shared_bytes = 4112 : i64
// CHECK-COUNT-6: nvvm.shfl.sync up
// CHECK:         scf.if
// CHECK:           llvm.store
// CHECK:         nvvm.barrier0
// CHECK:         return
func.func @line_over_warps(%a: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %x = tile.splat %a : tensor<1024xi32, #b>
  %s = tile.scan sum %x axis = 0 reverse : tensor<1024xi32, #b>
  return
}

// -----

// f16 is combined in f32 (4 bytes an element in shared memory); a custom
// combiner computes in the element type, its region inlined at each step.
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: func.func @f16_sum(
// CHECK-SAME:    tile.shared_bytes = 128 : i64
// CHECK:         arith.extf %{{.*}} : f16 to f32
// CHECK:         arith.truncf %{{.*}} : f32 to f16
func.func @f16_sum(%a: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %h = arith.truncf %a : f32 to f16
  %x = tile.splat %h : tensor<32xf16, #b>
  %s = tile.scan sum %x axis = 0 : tensor<32xf16, #b>
  return
}

// CHECK-LABEL: func.func @f16_custom(
// CHECK-SAME:    tile.shared_bytes = 64 : i64
// CHECK:         nvvm.shfl.sync up
// CHECK:         math.absf %{{.*}} : f16
// CHECK:         arith.maximumf %{{.*}} : f16
func.func @f16_custom(%a: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %h = arith.truncf %a : f32 to f16
  %x = tile.splat %h : tensor<32xf16, #b>
  %s = tile.scan custom %x axis = 0 : tensor<32xf16, #b> {
  ^bb0(%l: f16, %r: f16):
    %la = math.absf %l : f16
    %m = arith.maximumf %la, %r : f16
    tile.yield %m : f16
  }
  return
}
