// tile.min_programs_per_sm asks the backend for an occupancy: the outlined
// kernel gets nvvm.minctasm, which is .minnctapersm in the PTX, next to the
// thread count from tile.num_warps; kernels without it get neither.
//
// RUN: tile-compile %s -o - | FileCheck %s

// CHECK:      .entry two_per_sm(
// CHECK:      .maxntid 128, 1, 1
// CHECK-NEXT: .minnctapersm 2
// CHECK:      .entry default(
// CHECK:      .maxntid 128, 1, 1
// CHECK-NOT:  .minnctapersm
func.func @two_per_sm(%p: !tile.ptr<f32>)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.min_programs_per_sm = 2 : i32} {
  %v = arith.constant 1.0 : f32
  tile.store %p, %v : !tile.ptr<f32>
  return
}

func.func @default(%p: !tile.ptr<f32>)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %v = arith.constant 2.0 : f32
  tile.store %p, %v : !tile.ptr<f32>
  return
}
