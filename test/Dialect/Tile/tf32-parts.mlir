// Round trip of tile.tf32_parts, and its verifier (f32 elements only).
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics | tile-opt -split-input-file | FileCheck %s
// RUN: tile-opt %s -split-input-file -verify-diagnostics -mlir-print-op-generic | tile-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @split(
// CHECK:         %[[HI:.*]], %[[LO:.*]] = tile.tf32_parts %{{.*}} : tensor<64x32xf32>
// CHECK:         return %[[HI]], %[[LO]]
func.func @split(%x: tensor<64x32xf32>) -> (tensor<64x32xf32>, tensor<64x32xf32>) {
  %hi, %lo = tile.tf32_parts %x : tensor<64x32xf32>
  return %hi, %lo : tensor<64x32xf32>, tensor<64x32xf32>
}

// -----

func.func @split_f16(%x: tensor<64xf16>) {
  // expected-error @+1 {{'tile.tf32_parts' op splits f32 elements, not 'f16'}}
  %hi, %lo = tile.tf32_parts %x : tensor<64xf16>
  return
}
