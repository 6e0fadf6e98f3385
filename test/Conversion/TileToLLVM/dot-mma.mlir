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
// CHECK-COUNT-4: nvvm.mma.sync {{.*}} {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
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
// CHECK: nvvm.mma.sync {{.*}} {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
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
// CHECK-COUNT-2: nvvm.mma.sync {{.*}} {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
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
// CHECK-COUNT-6: nvvm.mma.sync {{.*}} {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
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

// -----

// A loop-invariant `a` loaded from global memory: the load keeps its
// coalesced layout and the conversion the kernel wrote before the loop
// gives the dot `a` in the accumulator's mma layout (all warps along M), so
// each iteration's dot takes `a` from registers.
// LAYOUT-DAG:   #[[ACC:.+]] = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// LAYOUT-DAG:   #[[LOAD:.+]] = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// LAYOUT-LABEL: func.func @invariant_a_converted
// LAYOUT:       tile.block_load {{.*}} : !tile.block_ptr<tensor<64x64xf16, #[[LOAD]]>>
// LAYOUT:       tile.convert_layout {{.*}} : tensor<64x64xf16, #[[LOAD]]> -> tensor<64x64xf16, #[[ACC]]>
// LAYOUT:       scf.for
// LAYOUT:         tile.dot {{.*}} : tensor<64x64xf16, #[[ACC]]>, tensor<64x64xf16, #{{.*}}> -> tensor<64x64xf32, #[[ACC]]>
// Without the conversion `a` keeps the load's layout (the dot stages it).
// LAYOUT-LABEL: func.func @invariant_a_loaded
// LAYOUT:       scf.for
// LAYOUT:         tile.dot {{.*}} : tensor<64x64xf16, #[[LOAD]]>, tensor<64x64xf16, #{{.*}}> -> tensor<64x64xf32, #[[ACC]]>
func.func @invariant_a_converted(%p: !tile.ptr<f16> {tile.divisibility = 16 : i64},
                                 %n: i32, %stride: i64 {tile.divisibility = 8 : i64})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %one = arith.constant 1 : i64
  %rows = arith.constant 64 : i64
  %bp = tile.make_block_ptr %p, [%rows, %rows], [%stride, %one], [%c0, %c0]
      order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  %x = tile.block_load %bp : !tile.block_ptr<tensor<64x64xf16>>
  %a = tile.convert_layout %x : tensor<64x64xf16> -> tensor<64x64xf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %b = tile.block_load %bp : !tile.block_ptr<tensor<64x64xf16>>
    %d = tile.dot %a, %b, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.print "sum" %sum : tensor<64x64xf32>
  return
}
func.func @invariant_a_loaded(%p: !tile.ptr<f16> {tile.divisibility = 16 : i64},
                              %n: i32, %stride: i64 {tile.divisibility = 8 : i64})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %one = arith.constant 1 : i64
  %rows = arith.constant 64 : i64
  %bp = tile.make_block_ptr %p, [%rows, %rows], [%stride, %one], [%c0, %c0]
      order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  %a = tile.block_load %bp : !tile.block_ptr<tensor<64x64xf16>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) : i32 {
    %b = tile.block_load %bp : !tile.block_ptr<tensor<64x64xf16>>
    %d = tile.dot %a, %b, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  tile.print "sum" %sum : tensor<64x64xf32>
  return
}
