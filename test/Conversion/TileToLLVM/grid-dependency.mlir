// Kernels that overlap their neighbours in a stream: on sm_90 and newer
// tile.wait_prior_grid and tile.launch_dependents become griddepcontrol,
// and a kernel that waits says so in its metadata (the runtime may then
// launch it before its predecessor ends); before sm_90 both are dropped
// and the metadata says nothing.
//
// RUN: tile-opt %s -split-input-file -tile-assign-layouts -tile-convert-to-llvm=chip=sm_90 | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-assign-layouts -tile-convert-to-llvm=chip=sm_80 | FileCheck %s --check-prefix=SM80

// CHECK-LABEL: func.func @waits(
// CHECK-SAME:    tile.metadata = "tile-kernel v1\0Aname waits\0Anum_warps 4\0Ashared_bytes 0\0Awaits_for_prior_grid\0A
// CHECK:         nvvm.griddepcontrol wait
// CHECK:         llvm.store
// SM80-LABEL:  func.func @waits(
// SM80-NOT:      waits_for_prior_grid
// SM80-NOT:      griddepcontrol
// SM80:          llvm.store
func.func @waits(%out: !tile.ptr<f32>, %x: f32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  tile.wait_prior_grid
  tile.store %out, %x : !tile.ptr<f32>
  return
}

// -----

// CHECK-LABEL: func.func @releases(
// CHECK-NOT:     waits_for_prior_grid
// CHECK:         nvvm.griddepcontrol launch_dependents
// CHECK:         llvm.store
// SM80-LABEL:  func.func @releases(
// SM80-NOT:      griddepcontrol
// SM80:          llvm.store
func.func @releases(%out: !tile.ptr<f32>, %x: f32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  tile.launch_dependents
  tile.store %out, %x : !tile.ptr<f32>
  return
}
