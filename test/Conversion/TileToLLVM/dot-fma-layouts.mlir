// FMA-layout dots with their layouts given (no tile-assign-layouts): `a`
// in the accumulator's FMA layout, as the softmax kernels' exponentiated
// tile is, stores its runs of 4 rows as 16-byte vectors into a^T.
//
// RUN: tile-opt %s -tile-convert-to-llvm | FileCheck %s

// `b` read from a pipeline's buffer (row stride 64 + 4): nothing staged for
// it, its vectors come from the stage; only a^T is staged (shared memory:
// the buffer's 2 stages of 32 x 68 and a^T's 32 x 68 f32).
#fma = #tile.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
#bl = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @b_from_buffer
// CHECK-SAME:    tile.shared_bytes = 26112 : i64
// a (64 x 32 over a 32 x 64 layout tile: 2 runs of 4 rows x 4 columns per
// thread, the columns repeated by the 2 warps along N): 8 vectors.
// CHECK:         nvvm.barrier0
// CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK-NOT:     llvm.store
// CHECK:         nvvm.barrier0
// CHECK:         scf.for
// CHECK-COUNT-3: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-COUNT-32: math.fma
func.func @b_from_buffer(%x: f32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %buf = tile.alloc_shared : !tile.shared<tensor<32x64xf32>, stages = 2, pad = 4>
  %c1 = arith.constant 1 : i32
  %b = tile.local_load %buf[%c1] : !tile.shared<tensor<32x64xf32>, stages = 2, pad = 4> -> tensor<32x64xf32, #bl>
  %a = tile.splat %x : tensor<64x32xf32, #fma>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #fma>
  %c = tile.dot %a, %b, %zero : tensor<64x32xf32, #fma>, tensor<32x64xf32, #bl> -> tensor<64x64xf32, #fma>
  tile.print "c" %c : tensor<64x64xf32, #fma>
  return
}
