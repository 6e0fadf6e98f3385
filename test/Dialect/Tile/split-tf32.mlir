// Round trip of tile.split_tf32, and its verifier (f32 elements only).
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics | tile-opt -split-input-file | FileCheck %s
// RUN: tile-opt %s -split-input-file -verify-diagnostics -mlir-print-op-generic | tile-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @split(
// CHECK:         %[[HI:.*]], %[[LO:.*]] = tile.split_tf32 %{{.*}} : tensor<64x32xf32>
// CHECK:         return %[[HI]], %[[LO]]
func.func @split(%x: tensor<64x32xf32>) -> (tensor<64x32xf32>, tensor<64x32xf32>) {
  %hi, %lo = tile.split_tf32 %x : tensor<64x32xf32>
  return %hi, %lo : tensor<64x32xf32>, tensor<64x32xf32>
}

// -----

func.func @split_f16(%x: tensor<64xf16>) {
  // expected-error @+1 {{'tile.split_tf32' op splits f32 elements, not 'f16'}}
  %hi, %lo = tile.split_tf32 %x : tensor<64xf16>
  return
}
