// FMA-unit lowering of tile.dot with register tiles: layout assignment
// gives the accumulator of an IEEE f32 dot the FMA layout (sizePerThread
// [4, 4], threadsPerWarp [4, 8], warps chosen for the fewest 16-byte loads
// per k), and the conversion stages `a` transposed ([K][M + 4]) and `b`
// row-major ([K][N + 4]), then reads one vector<4xf32> per run of 4 rows
// and of 4 columns per k, in a loop unrolled by 4.
//
// RUN: tile-opt %s -split-input-file -tile-assign-layouts | FileCheck %s --check-prefix=LAYOUT
// RUN: tile-opt %s -split-input-file -tile-assign-layouts -tile-convert-to-llvm | FileCheck %s

// 128 x 64 over 4 warps: 4 x 1 warps give 8 x 8 elements per thread (2 row
// runs + 2 column runs = 4 loads per k); 2 x 2 would need 4 + 1.
// LAYOUT: #[[FMA:.+]] = #tile.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// LAYOUT-LABEL: func.func @tall
// LAYOUT: tile.dot {{.*}} -> tensor<128x64xf32, #[[FMA]]>

// Shared memory: a^T 32 x (128 + 4) and b 32 x (64 + 4) f32.
// CHECK-LABEL: func.func @tall
// CHECK-SAME:    tile.shared_bytes = 25600 : i64
// CHECK:         nvvm.barrier0
// a^T: element (row, k) at k * 132 + row.
// CHECK:         %[[AS:.*]] = arith.constant 132 : i32
// CHECK-NEXT:    %[[AK:.*]] = arith.muli %{{.*}}, %[[AS]] : i32
// CHECK-NEXT:    %[[AL:.*]] = arith.addi %[[AK]], %{{.*}} : i32
// CHECK-NEXT:    llvm.getelementptr %{{.*}}[%[[AL]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    llvm.store %{{.*}} : f32, !llvm.ptr<3>
// b: element (k, col) at 32 * 132 + k * 68 + col.
// CHECK:         arith.constant 68 : i32
// CHECK:         arith.constant 4224 : i32
// CHECK:         nvvm.barrier0
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c4_i32{{.*}} iter_args({{.*}}) -> (f32, f32,
// CHECK-COUNT-4: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-COUNT-64: math.fma
// CHECK-COUNT-12: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK-NOT:     llvm.load
// CHECK:         scf.yield
// CHECK-NOT:     nvvm.barrier0
// CHECK:         return
func.func @tall(%x: f32, %y: f32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %a = tile.splat %x : tensor<128x32xf32>
  %b = tile.splat %y : tensor<32x64xf32>
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %c = tile.dot %a, %b, %zero : tensor<128x32xf32>, tensor<32x64xf32> -> tensor<128x64xf32>
  tile.print "c" %c : tensor<128x64xf32>
  return
}

// -----

// 64 x 64 over 4 warps: 2 x 2 and 4 x 1 tie (3 loads per k); the first
// found (fewest warps along M) is kept.
// LAYOUT: #[[FMA:.+]] = #tile.blocked<{sizePerThread = [4, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
// LAYOUT-LABEL: func.func @square
// LAYOUT: tile.dot {{.*}} -> tensor<64x64xf32, #[[FMA]]>
func.func @square(%x: f32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %a = tile.splat %x : tensor<64x32xf32>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %b = tile.splat %x : tensor<32x64xf32>
  %c = tile.dot %a, %b, %zero : tensor<64x32xf32>, tensor<32x64xf32> -> tensor<64x64xf32>
  tile.print "c" %c : tensor<64x64xf32>
  return
}

// -----

// Tiles smaller than a 16 x 32 warp tile per warp keep the generic FMA path
// (default layout, scalar loads).
// LAYOUT-LABEL: func.func @small
// LAYOUT-NOT:   sizePerThread = [4, 4]
// LAYOUT:       tile.dot
// CHECK-LABEL: func.func @small
// CHECK-NOT:     vector<4xf32>
// CHECK:         math.fma
func.func @small(%x: f32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %a = tile.splat %x : tensor<16x16xf32>
  %b = tile.splat %x : tensor<16x64xf32>
  %zero = arith.constant dense<0.0> : tensor<16x64xf32>
  %c = tile.dot %a, %b, %zero : tensor<16x16xf32>, tensor<16x64xf32> -> tensor<16x64xf32>
  tile.print "c" %c : tensor<16x64xf32>
  return
}
