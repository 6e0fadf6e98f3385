// Round trip of the ops by which a kernel overlaps the one before it in
// its stream (tile.wait_prior_grid, tile.launch_dependents).
//
// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s -mlir-print-op-generic | tile-opt | FileCheck %s

// CHECK-LABEL: func.func @release_then_wait(
// CHECK:         tile.launch_dependents
// CHECK-NEXT:    tile.wait_prior_grid
// CHECK-NEXT:    tile.store
func.func @release_then_wait(%out: !tile.ptr<f32>, %x: f32)
    attributes {tile.kernel} {
  tile.launch_dependents
  tile.wait_prior_grid
  tile.store %out, %x : !tile.ptr<f32>
  return
}
