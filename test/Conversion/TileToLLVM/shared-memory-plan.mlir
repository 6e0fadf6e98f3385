// Shared memory plan: the scratch space of ops that run while software
// pipeline buffers are in use starts at 0 and the buffers follow it; ops
// after the last use of every buffer (here an epilogue's layout conversion)
// reuse the buffers' bytes, after a wait for all copies (which also ends
// every read with its barrier).
//
// RUN: tile-opt %s -split-input-file -tile-convert-to-llvm | FileCheck %s

#row = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>

// Buffer: 2 stages of 32 x (64 + 4) f32 = 17408 bytes at offset 0 (no
// scratch while it is in use); the conversion of a 32 x 64 f32 tile needs
// 32 x (64 + 4) x 4 = 8704 bytes, inside the buffer's.
// CHECK-LABEL: func.func @epilogue_reuses_buffers
// CHECK-SAME:    tile.shared_bytes = 17408 : i64
// CHECK:         scf.for
// CHECK:           nvvm.cp.async.wait.group 1
// CHECK:         nvvm.cp.async.wait.group 0
// CHECK-NEXT:    nvvm.barrier0
// The conversion's own barrier, stores, barrier, loads.
// CHECK:         nvvm.barrier0
// CHECK:         llvm.store
// CHECK:         nvvm.barrier0
// CHECK:         llvm.load
func.func @epilogue_reuses_buffers(%p: !tile.ptr<f32> {tile.divisibility = 16 : i64},
                                   %n: i32, %stride: i64 {tile.divisibility = 4 : i64})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %one = arith.constant 1 : i64
  %size = arith.constant 64 : i64
  %buf = tile.alloc_shared : !tile.shared<tensor<32x64xf32>, stages = 2, pad = 4>
  %bp = tile.make_block_ptr %p, [%size, %size], [%stride, %one], [%c0, %c0]
      order = [1, 0] : !tile.block_ptr<tensor<32x64xf32, #row>>
  %zero = arith.constant dense<0.0> : tensor<32x64xf32, #row>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32x64xf32, #row>) : i32 {
    tile.async_copy %bp, %buf[%c0] : !tile.block_ptr<tensor<32x64xf32, #row>>, !tile.shared<tensor<32x64xf32>, stages = 2, pad = 4>
    tile.async_commit
    tile.async_wait pending = 1
    %v = tile.local_load %buf[%c0] : !tile.shared<tensor<32x64xf32>, stages = 2, pad = 4> -> tensor<32x64xf32, #row>
    %next = arith.addf %acc, %v : tensor<32x64xf32, #row>
    scf.yield %next : tensor<32x64xf32, #row>
  }
  %t = tile.convert_layout %sum : tensor<32x64xf32, #row> -> tensor<32x64xf32, #col>
  tile.print "t" %t : tensor<32x64xf32, #col>
  return
}

// -----

#row = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>

// The same conversion inside the loop, while the buffer is in use: its
// 8704 bytes come first, the buffer after them (at 8704, 128-byte aligned:
// 8704), and no extra wait.
// CHECK-LABEL: func.func @conversion_while_buffers_live
// CHECK-SAME:    tile.shared_bytes = 26112 : i64
// CHECK-NOT:     nvvm.cp.async.wait.group 0
// CHECK:         return
func.func @conversion_while_buffers_live(%p: !tile.ptr<f32> {tile.divisibility = 16 : i64},
                                         %n: i32, %stride: i64 {tile.divisibility = 4 : i64})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %one = arith.constant 1 : i64
  %size = arith.constant 64 : i64
  %buf = tile.alloc_shared : !tile.shared<tensor<32x64xf32>, stages = 2, pad = 4>
  %bp = tile.make_block_ptr %p, [%size, %size], [%stride, %one], [%c0, %c0]
      order = [1, 0] : !tile.block_ptr<tensor<32x64xf32, #row>>
  %zero = arith.constant dense<0.0> : tensor<32x64xf32, #col>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<32x64xf32, #col>) : i32 {
    tile.async_copy %bp, %buf[%c0] : !tile.block_ptr<tensor<32x64xf32, #row>>, !tile.shared<tensor<32x64xf32>, stages = 2, pad = 4>
    tile.async_commit
    tile.async_wait pending = 1
    %v = tile.local_load %buf[%c0] : !tile.shared<tensor<32x64xf32>, stages = 2, pad = 4> -> tensor<32x64xf32, #row>
    %t = tile.convert_layout %v : tensor<32x64xf32, #row> -> tensor<32x64xf32, #col>
    %next = arith.addf %acc, %t : tensor<32x64xf32, #col>
    scf.yield %next : tensor<32x64xf32, #col>
  }
  tile.print "t" %sum : tensor<32x64xf32, #col>
  return
}
