// Round trip of the ops through which programs of a grid synchronize
// (tile.atomic_add, tile.wait_at_least), and their verifiers.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics | tile-opt -split-input-file | FileCheck %s
// RUN: tile-opt %s -split-input-file -verify-diagnostics -mlir-print-op-generic | tile-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @ticket_then_wait(
// CHECK:         %[[T:.*]] = tile.atomic_add %{{.*}}, %{{.*}} : !tile.ptr<i32>
// CHECK:         tile.wait_at_least %{{.*}}, %[[T]] : !tile.ptr<i32>
func.func @ticket_then_wait(%counter: !tile.ptr<i32>) -> i32 {
  %one = arith.constant 1 : i32
  %t = tile.atomic_add %counter, %one : !tile.ptr<i32>
  tile.wait_at_least %counter, %t : !tile.ptr<i32>
  return %t : i32
}

// -----

func.func @atomic_add_f32(%p: !tile.ptr<f32>) {
  %one = arith.constant 1 : i32
  // expected-error @+1 {{'tile.atomic_add' op needs a pointer to i32, got '!tile.ptr<f32>'}}
  %t = tile.atomic_add %p, %one : !tile.ptr<f32>
  return
}

// -----

func.func @wait_i64(%p: !tile.ptr<i64>) {
  %one = arith.constant 1 : i32
  // expected-error @+1 {{'tile.wait_at_least' op needs a pointer to i32, got '!tile.ptr<i64>'}}
  tile.wait_at_least %p, %one : !tile.ptr<i64>
  return
}
