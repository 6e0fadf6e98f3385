// The tensor-core lowering when `a` already has the accumulator's mma
// layout (all warps along M), as the softmax tile of softmax_matmul does:
// its fragments come from registers (no staging of `a`), and `b` is staged
// row-major with vector stores.
//
// RUN: tile-opt %s -tile-convert-to-llvm | FileCheck %s

// 16x16 @ 16x8 with one warp: one k-step of 16, one mma; b (16x8, 4 per
// thread along n) takes one 4-wide store per run.
#mma = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#bl = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @a_in_registers
// CHECK:     nvvm.barrier0
// CHECK-NOT: llvm.store {{.*}} : f16, !llvm.ptr<3>
// CHECK:     llvm.store {{.*}} {alignment = 8 : i64} : vector<4xf16>, !llvm.ptr<3>
// CHECK:     nvvm.barrier0
// CHECK-COUNT-1: nvvm.mma.sync {{.*}} {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: mma.sync
// CHECK:     return
func.func @a_in_registers(%x: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %s = arith.truncf %x : f32 to f16
  %a = tile.splat %s : tensor<16x16xf16, #mma>
  %b = tile.splat %s : tensor<16x8xf16, #bl>
  %zero = arith.constant dense<0.0> : tensor<16x8xf32, #mma>
  %c = tile.dot %a, %b, %zero : tensor<16x16xf16, #mma>, tensor<16x8xf16, #bl> -> tensor<16x8xf32, #mma>
  tile.print "c" %c : tensor<16x8xf32, #mma>
  return
}


// tf32 with `b` read from a pipeline buffer (no staging): each fragment
// read is rounded (cvt.rna), as staged operands are; the buffer holds the
// f32 values as copied, whose low bits the tensor cores would truncate.
#mma1 = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#bl1 = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @tf32_b_from_buffer
// CHECK-NOT:     nvvm.barrier0
// CHECK:         llvm.load {{.*}} : !llvm.ptr<3> -> i32
// CHECK-NEXT:    arith.bitcast {{.*}} : i32 to f32
// CHECK-NEXT:    llvm.inline_asm "cvt.rna.tf32.f32 $0, $1;"
// CHECK:         llvm.load {{.*}} : !llvm.ptr<3> -> i32
// CHECK-NEXT:    arith.bitcast {{.*}} : i32 to f32
// CHECK-NEXT:    llvm.inline_asm "cvt.rna.tf32.f32 $0, $1;"
// CHECK:         nvvm.mma.sync {{.*}} {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
func.func @tf32_b_from_buffer(%x: f32)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %buf = tile.alloc_shared : !tile.shared<tensor<16x8xf32>, stages = 2, pad = 4>
  %c0 = arith.constant 0 : i32
  %b = tile.local_load %buf[%c0] : !tile.shared<tensor<16x8xf32>, stages = 2, pad = 4> -> tensor<16x8xf32, #bl1>
  %a = tile.splat %x : tensor<16x16xf32, #mma1>
  %zero = arith.constant dense<0.0> : tensor<16x8xf32, #mma1>
  %c = tile.dot %a, %b, %zero precision = tf32 : tensor<16x16xf32, #mma1>, tensor<16x8xf32, #bl1> -> tensor<16x8xf32, #mma1>
  tile.print "c" %c : tensor<16x8xf32, #mma1>
  return
}

// `b` as the transpose of a buffer's block (K^T for Q K^T, the block of K
// as the pipeline copied it): the fragments are 32-bit reads along the
// buffer's rows (two consecutive k of one n) and the transpose moves
// nothing: no staging, no barrier.
#mma2 = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#bl2 = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @b_transposed_from_buffer
// CHECK-NOT:     nvvm.barrier0
// CHECK-NOT:     llvm.store {{.*}} !llvm.ptr<3>
// CHECK-COUNT-2: llvm.load {{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK:         nvvm.mma.sync {{.*}} shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK-NOT:     nvvm.barrier0
// CHECK:         return
func.func @b_transposed_from_buffer(%x: f32)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %buf = tile.alloc_shared : !tile.shared<tensor<8x16xf16>, stages = 2, pad = 8>
  %c1 = arith.constant 1 : i32
  %kt = tile.local_load %buf[%c1] : !tile.shared<tensor<8x16xf16>, stages = 2, pad = 8> -> tensor<8x16xf16, #bl2>
  %b = tile.trans %kt order = [1, 0] : tensor<8x16xf16, #bl2> -> tensor<16x8xf16, #bl2>
  %s = arith.truncf %x : f32 to f16
  %a = tile.splat %s : tensor<16x16xf16, #mma2>
  %zero = arith.constant dense<0.0> : tensor<16x8xf32, #mma2>
  %c = tile.dot %a, %b, %zero : tensor<16x16xf16, #mma2>, tensor<16x8xf16, #bl2> -> tensor<16x8xf32, #mma2>
  tile.print "c" %c : tensor<16x8xf32, #mma2>
  return
}
