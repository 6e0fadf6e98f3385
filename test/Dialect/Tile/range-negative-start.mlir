// tile.range with negative bounds.
//
// Regression: start and end are signed.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @negative_start()
// CHECK-NEXT:    tile.range -8, 8 : tensor<16xi32>
// CHECK-NEXT:    tile.range -16, -8 : tensor<8xi32>
func.func @negative_start() -> (tensor<16xi32>, tensor<8xi32>) {
  %0 = tile.range -8, 8 : tensor<16xi32>
  %1 = tile.range -16, -8 : tensor<8xi32>
  return %0, %1 : tensor<16xi32>, tensor<8xi32>
}

// -----

func.func @negative_end() {
  // expected-error @+1 {{'tile.range' op end (-8) must be greater than start (0)}}
  %0 = tile.range 0, -8 : tensor<8xi32>
  return
}
