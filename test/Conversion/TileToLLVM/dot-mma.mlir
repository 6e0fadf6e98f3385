// Tensor-core lowering of tile.dot: layout assignment gives an eligible
// dot's accumulator the mma layout (sizePerThread [1, 2], threadsPerWarp
// [8, 4]), and the conversion issues mma.sync on fragments read from the
// operands staged in shared memory.
//
// RUN: tile-opt %s -split-input-file -tile-assign-layouts | FileCheck %s --check-prefix=LAYOUT
// RUN: tile-opt %s -split-input-file -tile-assign-layouts -tile-convert-to-llvm | FileCheck %s

// LAYOUT: #[[MMA:.+]] = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
// LAYOUT-LABEL: func.func @f16
// LAYOUT: tile.dot {{.*}} -> tensor<32x32xf32, #[[MMA]]>

// 32x32x32 f16 with 4 warps (2 x 2): each warp holds a 16x16 tile = 2
// n-tiles, over 2 k-steps of 16: 4 mma per thread.
// CHECK-LABEL: func.func @f16
// CHECK-COUNT-2: nvvm.barrier0
// CHECK-COUNT-4: llvm.inline_asm "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11,$12,$13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f"
// CHECK-NOT: mma.sync
// CHECK: return
func.func @f16(%p: !tile.ptr<f32>)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %a = arith.constant dense<1.0> : tensor<32x32xf16>
  %b = arith.constant dense<2.0> : tensor<32x32xf16>
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %c = tile.dot %a, %b, %zero : tensor<32x32xf16>, tensor<32x32xf16> -> tensor<32x32xf32>
  tile.print "c" %c : tensor<32x32xf32>
  return
}

// -----

// bf16 uses the bf16 instruction.
// CHECK-LABEL: func.func @bf16
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
func.func @bf16() attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %a = arith.constant dense<1.0> : tensor<16x16xbf16>
  %b = arith.constant dense<2.0> : tensor<16x8xbf16>
  %zero = arith.constant dense<0.0> : tensor<16x8xf32>
  %c = tile.dot %a, %b, %zero : tensor<16x16xbf16>, tensor<16x8xbf16> -> tensor<16x8xf32>
  tile.print "c" %c : tensor<16x8xf32>
  return
}

// -----

// tf32: k-steps of 8; operands are rounded to tf32 (cvt.rna) once, as they
// are staged, so the fragment reads after the barrier need no rounding.
// CHECK-LABEL: func.func @tf32
// CHECK: nvvm.barrier0
// CHECK: %[[R:.+]] = llvm.inline_asm "cvt.rna.tf32.f32 $0, $1;", "=r,f"
// CHECK: llvm.store %[[R]], {{.*}} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK-NOT: cvt.rna
// CHECK-COUNT-2: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// CHECK-NOT: mma.sync
// CHECK: return
func.func @tf32() attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %a = arith.constant dense<1.0> : tensor<16x16xf32>
  %b = arith.constant dense<2.0> : tensor<16x8xf32>
  %zero = arith.constant dense<0.0> : tensor<16x8xf32>
  %c = tile.dot %a, %b, %zero precision = tf32 : tensor<16x16xf32>, tensor<16x8xf32> -> tensor<16x8xf32>
  tile.print "c" %c : tensor<16x8xf32>
  return
}

// -----

// tf32x3: three products per step, summed apart from the accumulator.
// CHECK-LABEL: func.func @tf32x3
// CHECK-COUNT-6: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// CHECK-NOT: mma.sync
// CHECK-COUNT-4: arith.addf
// CHECK: return
func.func @tf32x3(%acc: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %a = arith.constant dense<1.0> : tensor<16x16xf32>
  %b = arith.constant dense<2.0> : tensor<16x8xf32>
  %init = tile.splat %acc : tensor<16x8xf32>
  %c = tile.dot %a, %b, %init precision = tf32x3 : tensor<16x16xf32>, tensor<16x8xf32> -> tensor<16x8xf32>
  tile.print "c" %c : tensor<16x8xf32>
  return
}

// -----

// IEEE f32 stays on the FMA units; shapes that do not tile into 16x8 too.
// LAYOUT-LABEL: func.func @not_eligible
// LAYOUT-NOT: threadsPerWarp = [8, 4]
// CHECK-LABEL: func.func @not_eligible
// CHECK-NOT: mma.sync
// CHECK: math.fma
func.func @not_eligible() attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %a = arith.constant dense<1.0> : tensor<16x16xf32>
  %b = arith.constant dense<2.0> : tensor<16x8xf32>
  %c = arith.constant dense<1.0> : tensor<8x8xf16>
  %zero = arith.constant dense<0.0> : tensor<16x8xf32>
  %d = tile.dot %a, %b, %zero : tensor<16x16xf32>, tensor<16x8xf32> -> tensor<16x8xf32>
  %zero8 = arith.constant dense<0.0> : tensor<8x8xf32>
  %e = tile.dot %c, %c, %zero8 : tensor<8x8xf16>, tensor<8x8xf16> -> tensor<8x8xf32>
  tile.print "de" %d, %e : tensor<16x8xf32>, tensor<8x8xf32>
  return
}
