// The attributes the compiler's passes record for later ones read back
// unchanged at every value the passes give them.
//
// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s -mlir-print-op-generic | tile-opt | FileCheck %s

// CHECK-LABEL: func.func @buffers(
// CHECK-SAME:    tile.shared_bytes = 0 : i64
// CHECK:         tile.alloc_shared {tile.shared_offset = 0 : i64, tile.swizzle_bytes = 0 : i64}
// CHECK:         tile.alloc_shared {tile.mma_row_warps = 1 : i64, tile.shared_offset = 1024 : i64, tile.swizzle_bytes = 32 : i64}
// CHECK:         tile.alloc_shared {tile.k_major, tile.shared_offset = 9216 : i64, tile.swizzle_bytes = 64 : i64}
// CHECK:         tile.alloc_shared {tile.shared_offset = 25600 : i64, tile.split_tf32, tile.swizzle_bytes = 128 : i64}
// CHECK:         tile.local_store {{.*}} {tile.round_tf32}
func.func @buffers(%t: tensor<64x32xf32>, %s: i32) attributes {tile.shared_bytes = 0 : i64} {
  %a = "tile.alloc_shared"() {tile.shared_offset = 0 : i64, tile.swizzle_bytes = 0 : i64} : () -> !tile.shared<tensor<16x8xf16>, stages = 1, pad = 8>
  %b = "tile.alloc_shared"() {tile.shared_offset = 1024 : i64, tile.swizzle_bytes = 32 : i64, tile.mma_row_warps = 1 : i64} : () -> !tile.shared<tensor<64x16xf16>, stages = 2, pad = 0>
  %c = "tile.alloc_shared"() {tile.shared_offset = 9216 : i64, tile.swizzle_bytes = 64 : i64, tile.k_major} : () -> !tile.shared<tensor<16x64xf32>, stages = 2, pad = 0>
  %d = "tile.alloc_shared"() {tile.shared_offset = 25600 : i64, tile.swizzle_bytes = 128 : i64, tile.split_tf32} : () -> !tile.shared<tensor<64x32xf32>, stages = 2, pad = 0>
  "tile.local_store"(%t, %d, %s) {tile.round_tf32} : (tensor<64x32xf32>, !tile.shared<tensor<64x32xf32>, stages = 2, pad = 0>, i32) -> ()
  return
}

// CHECK-LABEL: func.func @warpgroup_mma(
// CHECK-SAME:    tile.wgmma
// CHECK:         scf.for
// CHECK:           tile.dot {{.*}} {tile.wgmma, tile.wgmma_pending = 1 : i32}
// CHECK:         } {tile.mma_in_flight}
// CHECK:         tile.dot {{.*}} {tile.wgmma, tile.wgmma_pending = 0 : i32}
func.func @warpgroup_mma(%a: tensor<64x32xf16>, %b: tensor<32x128xf16>, %c: tensor<64x128xf32>, %n: index) -> tensor<64x128xf32> attributes {tile.wgmma} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x128xf32>) {
    %d = tile.dot %a, %b, %acc {tile.wgmma, tile.wgmma_pending = 1 : i32} : tensor<64x32xf16>, tensor<32x128xf16> -> tensor<64x128xf32>
    scf.yield %d : tensor<64x128xf32>
  } {tile.mma_in_flight}
  %e = tile.dot %a, %b, %r {tile.wgmma, tile.wgmma_pending = 0 : i32} : tensor<64x32xf16>, tensor<32x128xf16> -> tensor<64x128xf32>
  return %e : tensor<64x128xf32>
}
