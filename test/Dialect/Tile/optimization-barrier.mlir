// Round trip of tile.optimization_barrier, and its verifier (elements of
// 16, 32 or 64 bits only).
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics | tile-opt -split-input-file | FileCheck %s
// RUN: tile-opt %s -split-input-file -verify-diagnostics -mlir-print-op-generic | tile-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @barrier(
// CHECK:         %[[H:.*]] = tile.optimization_barrier %{{.*}} : tensor<128xf16>
// CHECK:         tile.optimization_barrier %{{.*}} : tensor<4x8xi32>
// CHECK:         return %[[H]]
func.func @barrier(%x: tensor<128xf16>, %i: tensor<4x8xi32>) -> tensor<128xf16> {
  %h = tile.optimization_barrier %x : tensor<128xf16>
  %j = tile.optimization_barrier %i : tensor<4x8xi32>
  return %h : tensor<128xf16>
}

// -----

// Not erased when unused: it is never treated as free of effects.
// CHECK-LABEL: func.func @unused_barrier_stays(
// CHECK:         tile.optimization_barrier
func.func @unused_barrier_stays(%x: tensor<64xbf16>) {
  %h = tile.optimization_barrier %x : tensor<64xbf16>
  return
}

// -----

func.func @barrier_i1(%m: tensor<64xi1>) {
  // expected-error @+1 {{'tile.optimization_barrier' op element type 'i1' is not an integer or float of 16, 32 or 64 bits}}
  %h = tile.optimization_barrier %m : tensor<64xi1>
  return
}

// -----

func.func @barrier_i8(%m: tensor<64xi8>) {
  // expected-error @+1 {{'tile.optimization_barrier' op element type 'i8' is not an integer or float of 16, 32 or 64 bits}}
  %h = tile.optimization_barrier %m : tensor<64xi8>
  return
}
