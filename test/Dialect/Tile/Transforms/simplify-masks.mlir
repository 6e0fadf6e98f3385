// tile-simplify-masks drops load/store masks of the form `range <pred> bound`
// that hold for every lane, and keeps every other mask.
//
// RUN: tile-opt %s -split-input-file -tile-simplify-masks | FileCheck %s

// CHECK-LABEL: func.func @load_slt(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    %[[X:.*]] = tile.load %[[P]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    return %[[X]]
func.func @load_slt(%p: tensor<128x!tile.ptr<f32>>) -> tensor<128xf32> {
  %r = tile.range 0, 128 : tensor<128xi32>
  %c128 = arith.constant 128 : i32
  %n = tile.splat %c128 : tensor<128xi32>
  %m = arith.cmpi slt, %r, %n : tensor<128xi32>
  %x = tile.load %p, %m : tensor<128x!tile.ptr<f32>>
  return %x : tensor<128xf32>
}

// -----

// `other` goes with the mask.
// CHECK-LABEL: func.func @load_other(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    %[[X:.*]] = tile.load %[[P]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    return %[[X]]
func.func @load_other(%p: tensor<128x!tile.ptr<f32>>) -> tensor<128xf32> {
  %r = tile.range 0, 128 : tensor<128xi32>
  %c1000 = arith.constant 1000 : i32
  %n = tile.splat %c1000 : tensor<128xi32>
  %m = arith.cmpi slt, %r, %n : tensor<128xi32>
  %ninf = arith.constant dense<0xFF800000> : tensor<128xf32>
  %x = tile.load %p, %m, %ninf : tensor<128x!tile.ptr<f32>>
  return %x : tensor<128xf32>
}

// -----

// CHECK-LABEL: func.func @store_slt(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: tensor<64x!tile.ptr<f16>>, %[[V:[a-z0-9]+]]: tensor<64xf16>
// CHECK-NEXT:    tile.store %[[P]], %[[V]] : tensor<64x!tile.ptr<f16>>
// CHECK-NEXT:    return
func.func @store_slt(%p: tensor<64x!tile.ptr<f16>>, %v: tensor<64xf16>) {
  %r = tile.range 64, 128 : tensor<64xi32>
  %c128 = arith.constant 128 : i32
  %n = tile.splat %c128 : tensor<64xi32>
  %m = arith.cmpi slt, %r, %n : tensor<64xi32>
  tile.store %p, %v, %m : tensor<64x!tile.ptr<f16>>
  return
}

// -----

// The bound may be a splat constant.
// CHECK-LABEL: func.func @dense_bound(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: tensor<16x!tile.ptr<i8>>, %[[V:[a-z0-9]+]]: tensor<16xi8>
// CHECK-NEXT:    tile.store %[[P]], %[[V]] : tensor<16x!tile.ptr<i8>>
// CHECK-NEXT:    return
func.func @dense_bound(%p: tensor<16x!tile.ptr<i8>>, %v: tensor<16xi8>) {
  %r = tile.range 0, 16 : tensor<16xi32>
  %n = arith.constant dense<16> : tensor<16xi32>
  %m = arith.cmpi slt, %r, %n : tensor<16xi32>
  tile.store %p, %v, %m : tensor<16x!tile.ptr<i8>>
  return
}

// -----

// CHECK-LABEL: func.func @ult(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    %[[X:.*]] = tile.load %[[P]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    return %[[X]]
func.func @ult(%p: tensor<128x!tile.ptr<f32>>) -> tensor<128xf32> {
  %r = tile.range 0, 128 : tensor<128xi32>
  %c = arith.constant 128 : i32
  %n = tile.splat %c : tensor<128xi32>
  %m = arith.cmpi ult, %r, %n : tensor<128xi32>
  %x = tile.load %p, %m : tensor<128x!tile.ptr<f32>>
  return %x : tensor<128xf32>
}

// -----

// range(0, 128) <= 127 holds for every lane.
// CHECK-LABEL: func.func @sle(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    %[[X:.*]] = tile.load %[[P]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    %[[Y:.*]] = tile.load %[[P]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    return %[[X]], %[[Y]]
func.func @sle(%p: tensor<128x!tile.ptr<f32>>) -> (tensor<128xf32>, tensor<128xf32>) {
  %r = tile.range 0, 128 : tensor<128xi32>
  %c = arith.constant 127 : i32
  %n = tile.splat %c : tensor<128xi32>
  %m = arith.cmpi sle, %r, %n : tensor<128xi32>
  %x = tile.load %p, %m : tensor<128x!tile.ptr<f32>>
  %m2 = arith.cmpi ule, %r, %n : tensor<128xi32>
  %y = tile.load %p, %m2 : tensor<128x!tile.ptr<f32>>
  return %x, %y : tensor<128xf32>, tensor<128xf32>
}

// -----

// range(0, 128) <= 126 is false in the last lane.
// CHECK-LABEL: func.func @sle_too_small(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: tensor<128x!tile.ptr<f32>>
// CHECK:         %[[M:.*]] = arith.cmpi sle
// CHECK-NEXT:    %[[X:.*]] = tile.load %[[P]], %[[M]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    return %[[X]]
func.func @sle_too_small(%p: tensor<128x!tile.ptr<f32>>) -> tensor<128xf32> {
  %r = tile.range 0, 128 : tensor<128xi32>
  %c = arith.constant 126 : i32
  %n = tile.splat %c : tensor<128xi32>
  %m = arith.cmpi sle, %r, %n : tensor<128xi32>
  %x = tile.load %p, %m : tensor<128x!tile.ptr<f32>>
  return %x : tensor<128xf32>
}

// -----

// A bound smaller than the range: lanes 100..127 are masked off.
// CHECK-LABEL: func.func @bound_smaller_than_range(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: tensor<128x!tile.ptr<f32>>, %[[V:[a-z0-9]+]]: tensor<128xf32>
// CHECK-DAG:     %[[R:.*]] = tile.range 0, 128 : tensor<128xi32>
// CHECK-DAG:     %[[N:.*]] = arith.constant dense<100> : tensor<128xi32>
// CHECK:         %[[M:.*]] = arith.cmpi slt, %[[R]], %[[N]] : tensor<128xi32>
// CHECK-NEXT:    %[[X:.*]] = tile.load %[[P]], %[[M]], %[[V]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    tile.store %[[P]], %[[X]], %[[M]] : tensor<128x!tile.ptr<f32>>
func.func @bound_smaller_than_range(%p: tensor<128x!tile.ptr<f32>>, %v: tensor<128xf32>) {
  %r = tile.range 0, 128 : tensor<128xi32>
  %c = arith.constant 100 : i32
  %n = tile.splat %c : tensor<128xi32>
  %m = arith.cmpi slt, %r, %n : tensor<128xi32>
  %x = tile.load %p, %m, %v : tensor<128x!tile.ptr<f32>>
  tile.store %p, %x, %m : tensor<128x!tile.ptr<f32>>
  return
}

// -----

// range(0, 128) < 127 is false in the last lane.
// CHECK-LABEL: func.func @slt_off_by_one(
// CHECK:         %[[M:.*]] = arith.cmpi slt
// CHECK-NEXT:    tile.store %{{.*}}, %{{.*}}, %[[M]]
func.func @slt_off_by_one(%p: tensor<128x!tile.ptr<f32>>, %v: tensor<128xf32>) {
  %r = tile.range 0, 128 : tensor<128xi32>
  %c = arith.constant 127 : i32
  %n = tile.splat %c : tensor<128xi32>
  %m = arith.cmpi slt, %r, %n : tensor<128xi32>
  tile.store %p, %v, %m : tensor<128x!tile.ptr<f32>>
  return
}

// -----

// A range that starts at the offset: range(64, 128) < 100 fails from lane 36.
// CHECK-LABEL: func.func @offset_range_too_long(
// CHECK:         %[[M:.*]] = arith.cmpi slt
// CHECK-NEXT:    tile.store %{{.*}}, %{{.*}}, %[[M]]
func.func @offset_range_too_long(%p: tensor<64x!tile.ptr<f32>>, %v: tensor<64xf32>) {
  %r = tile.range 64, 128 : tensor<64xi32>
  %c = arith.constant 100 : i32
  %n = tile.splat %c : tensor<64xi32>
  %m = arith.cmpi slt, %r, %n : tensor<64xi32>
  tile.store %p, %v, %m : tensor<64x!tile.ptr<f32>>
  return
}

// -----

// Swapped operands: 128 > range(0, 128) and 127 >= range(0, 128).
// CHECK-LABEL: func.func @swapped(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: tensor<128x!tile.ptr<f32>>, %[[V:[a-z0-9]+]]: tensor<128xf32>
// CHECK-NEXT:    tile.store %[[P]], %[[V]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    tile.store %[[P]], %[[V]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    tile.store %[[P]], %[[V]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    return
func.func @swapped(%p: tensor<128x!tile.ptr<f32>>, %v: tensor<128xf32>) {
  %r = tile.range 0, 128 : tensor<128xi32>
  %c128 = arith.constant 128 : i32
  %n128 = tile.splat %c128 : tensor<128xi32>
  %m1 = arith.cmpi sgt, %n128, %r : tensor<128xi32>
  tile.store %p, %v, %m1 : tensor<128x!tile.ptr<f32>>
  %c127 = arith.constant 127 : i32
  %n127 = tile.splat %c127 : tensor<128xi32>
  %m2 = arith.cmpi sge, %n127, %r : tensor<128xi32>
  tile.store %p, %v, %m2 : tensor<128x!tile.ptr<f32>>
  %m3 = arith.cmpi ugt, %n128, %r : tensor<128xi32>
  tile.store %p, %v, %m3 : tensor<128x!tile.ptr<f32>>
  return
}

// -----

// Swapped operands the wrong way round: 128 < range(0, 128) never holds.
// (Folding arith.cmpi moves the constant to the right.)
// CHECK-LABEL: func.func @swapped_wrong_direction(
// CHECK:         %[[M1:.*]] = arith.cmpi sgt, %{{.*}}, %{{.*}} : tensor<128xi32>
// CHECK-NEXT:    tile.store %{{.*}}, %{{.*}}, %[[M1]]
// CHECK:         %[[M2:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<128xi32>
// CHECK-NEXT:    tile.store %{{.*}}, %{{.*}}, %[[M2]]
func.func @swapped_wrong_direction(%p: tensor<128x!tile.ptr<f32>>, %v: tensor<128xf32>) {
  %r = tile.range 0, 128 : tensor<128xi32>
  %c128 = arith.constant 128 : i32
  %n128 = tile.splat %c128 : tensor<128xi32>
  %m1 = arith.cmpi slt, %n128, %r : tensor<128xi32>
  tile.store %p, %v, %m1 : tensor<128x!tile.ptr<f32>>
  // 100 > range(0, 128) fails from lane 100.
  %c100 = arith.constant 100 : i32
  %n100 = tile.splat %c100 : tensor<128xi32>
  %m2 = arith.cmpi sgt, %n100, %r : tensor<128xi32>
  tile.store %p, %v, %m2 : tensor<128x!tile.ptr<f32>>
  return
}

// -----

// Lower bounds: range(0, 128) >= 0 and range(1, 129) > 0 hold; swapped,
// 0 <= range(0, 128) too.
// CHECK-LABEL: func.func @lower_bound(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: tensor<128x!tile.ptr<f32>>, %[[V:[a-z0-9]+]]: tensor<128xf32>
// CHECK-NEXT:    tile.store %[[P]], %[[V]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    tile.store %[[P]], %[[V]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    tile.store %[[P]], %[[V]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    return
func.func @lower_bound(%p: tensor<128x!tile.ptr<f32>>, %v: tensor<128xf32>) {
  %r = tile.range 0, 128 : tensor<128xi32>
  %c0 = arith.constant 0 : i32
  %z = tile.splat %c0 : tensor<128xi32>
  %m1 = arith.cmpi sge, %r, %z : tensor<128xi32>
  tile.store %p, %v, %m1 : tensor<128x!tile.ptr<f32>>
  %r1 = tile.range 1, 129 : tensor<128xi32>
  %m2 = arith.cmpi sgt, %r1, %z : tensor<128xi32>
  tile.store %p, %v, %m2 : tensor<128x!tile.ptr<f32>>
  %m3 = arith.cmpi sle, %z, %r : tensor<128xi32>
  tile.store %p, %v, %m3 : tensor<128x!tile.ptr<f32>>
  return
}

// -----

// range(0, 128) > 0 is false in lane 0.
// CHECK-LABEL: func.func @lower_bound_fails(
// CHECK:         %[[M:.*]] = arith.cmpi sgt
// CHECK-NEXT:    tile.store %{{.*}}, %{{.*}}, %[[M]]
func.func @lower_bound_fails(%p: tensor<128x!tile.ptr<f32>>, %v: tensor<128xf32>) {
  %r = tile.range 0, 128 : tensor<128xi32>
  %c0 = arith.constant 0 : i32
  %z = tile.splat %c0 : tensor<128xi32>
  %m = arith.cmpi sgt, %r, %z : tensor<128xi32>
  tile.store %p, %v, %m : tensor<128x!tile.ptr<f32>>
  return
}

// -----

// 2-d masks: the range is seen through expand_dims and broadcast, on either
// side of the comparison.
// CHECK-LABEL: func.func @broadcast_chain(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: tensor<64x128x!tile.ptr<f32>>
// CHECK-NEXT:    %[[X:.*]] = tile.load %[[P]] : tensor<64x128x!tile.ptr<f32>>
// CHECK-NEXT:    %[[Y:.*]] = tile.load %[[P]] : tensor<64x128x!tile.ptr<f32>>
// CHECK-NEXT:    return %[[X]], %[[Y]]
func.func @broadcast_chain(%p: tensor<64x128x!tile.ptr<f32>>) -> (tensor<64x128xf32>, tensor<64x128xf32>) {
  %rows = tile.range 0, 64 : tensor<64xi32>
  %rows2 = tile.expand_dims %rows axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %rowsb = tile.broadcast %rows2 : tensor<64x1xi32> -> tensor<64x128xi32>
  %c64 = arith.constant 64 : i32
  %n64 = tile.splat %c64 : tensor<64x128xi32>
  %m1 = arith.cmpi slt, %rowsb, %n64 : tensor<64x128xi32>
  %x = tile.load %p, %m1 : tensor<64x128x!tile.ptr<f32>>
  %cols = tile.range 0, 128 : tensor<128xi32>
  %cols2 = tile.expand_dims %cols axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %colsb = tile.broadcast %cols2 : tensor<1x128xi32> -> tensor<64x128xi32>
  %c200 = arith.constant 200 : i32
  %n200 = tile.splat %c200 : tensor<64x128xi32>
  %m2 = arith.cmpi sgt, %n200, %colsb : tensor<64x128xi32>
  %y = tile.load %p, %m2 : tensor<64x128x!tile.ptr<f32>>
  return %x, %y : tensor<64x128xf32>, tensor<64x128xf32>
}

// -----

// A longer chain: expand_dims, broadcast, expand_dims, broadcast.
// CHECK-LABEL: func.func @broadcast_chain_3d(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: tensor<2x4x128x!tile.ptr<f32>>, %[[V:[a-z0-9]+]]: tensor<2x4x128xf32>
// CHECK-NEXT:    tile.store %[[P]], %[[V]] : tensor<2x4x128x!tile.ptr<f32>>
// CHECK-NEXT:    return
func.func @broadcast_chain_3d(%p: tensor<2x4x128x!tile.ptr<f32>>, %v: tensor<2x4x128xf32>) {
  %cols = tile.range 0, 128 : tensor<128xi32>
  %a = tile.expand_dims %cols axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %b = tile.broadcast %a : tensor<1x128xi32> -> tensor<4x128xi32>
  %c = tile.expand_dims %b axis = 0 : tensor<4x128xi32> -> tensor<1x4x128xi32>
  %d = tile.broadcast %c : tensor<1x4x128xi32> -> tensor<2x4x128xi32>
  %c128 = arith.constant 128 : i32
  %n = tile.splat %c128 : tensor<2x4x128xi32>
  %m = arith.cmpi sle, %d, %n : tensor<2x4x128xi32>
  tile.store %p, %v, %m : tensor<2x4x128x!tile.ptr<f32>>
  return
}

// -----

// The row bound is too small here: 60 < 64.
// CHECK-LABEL: func.func @broadcast_chain_too_small(
// CHECK:         %[[M:.*]] = arith.cmpi slt
// CHECK-NEXT:    tile.load %{{.*}}, %[[M]] : tensor<64x128x!tile.ptr<f32>>
func.func @broadcast_chain_too_small(%p: tensor<64x128x!tile.ptr<f32>>) -> tensor<64x128xf32> {
  %rows = tile.range 0, 64 : tensor<64xi32>
  %rows2 = tile.expand_dims %rows axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %rowsb = tile.broadcast %rows2 : tensor<64x1xi32> -> tensor<64x128xi32>
  %c60 = arith.constant 60 : i32
  %n60 = tile.splat %c60 : tensor<64x128xi32>
  %m = arith.cmpi slt, %rowsb, %n60 : tensor<64x128xi32>
  %x = tile.load %p, %m : tensor<64x128x!tile.ptr<f32>>
  return %x : tensor<64x128xf32>
}

// -----

// Ops other than expand_dims and broadcast hide the range: kept.
// CHECK-LABEL: func.func @through_other_ops(
// CHECK:         %[[M1:.*]] = arith.cmpi slt
// CHECK-NEXT:    tile.store %{{.*}}, %{{.*}}, %[[M1]]
// CHECK:         %[[M2:.*]] = arith.cmpi slt
// CHECK-NEXT:    tile.store %{{.*}}, %{{.*}}, %[[M2]]
func.func @through_other_ops(%p: tensor<128x!tile.ptr<f32>>, %v: tensor<128xf32>, %off: tensor<128xi32>) {
  %r = tile.range 0, 128 : tensor<128xi32>
  %c = arith.constant 128 : i32
  %n = tile.splat %c : tensor<128xi32>
  %ro = arith.addi %r, %off : tensor<128xi32>
  %m1 = arith.cmpi slt, %ro, %n : tensor<128xi32>
  tile.store %p, %v, %m1 : tensor<128x!tile.ptr<f32>>
  %r2 = tile.range 0, 128 : tensor<128xi32>
  %rr = tile.reshape %r2 : tensor<128xi32> -> tensor<2x64xi32>
  %rt = tile.trans %rr order = [1, 0] : tensor<2x64xi32> -> tensor<64x2xi32>
  %rts = tile.reshape %rt : tensor<64x2xi32> -> tensor<128xi32>
  %m2 = arith.cmpi slt, %rts, %n : tensor<128xi32>
  tile.store %p, %v, %m2 : tensor<128x!tile.ptr<f32>>
  return
}

// -----

// Bounds that are not constants, and masks that are not comparisons, stay.
// CHECK-LABEL: func.func @unknown(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: tensor<128x!tile.ptr<f32>>, %[[V:[a-z0-9]+]]: tensor<128xf32>, %[[N:[a-z0-9]+]]: i32, %[[MASK:[a-z0-9]+]]: tensor<128xi1>
// CHECK:         %[[S:.*]] = tile.splat %[[N]] : tensor<128xi32>
// CHECK:         %[[M1:.*]] = arith.cmpi slt, %{{.*}}, %[[S]]
// CHECK-NEXT:    tile.store %[[P]], %[[V]], %[[M1]]
// CHECK-NEXT:    tile.store %[[P]], %[[V]], %[[MASK]]
// CHECK:         %[[A:.*]] = arith.andi
// CHECK-NEXT:    tile.store %[[P]], %[[V]], %[[A]]
// CHECK:         %[[M2:.*]] = arith.cmpi slt
// CHECK-NEXT:    tile.store %[[P]], %[[V]], %[[M2]]
func.func @unknown(%p: tensor<128x!tile.ptr<f32>>, %v: tensor<128xf32>, %n: i32, %mask: tensor<128xi1>) {
  %r = tile.range 0, 128 : tensor<128xi32>
  %ns = tile.splat %n : tensor<128xi32>
  %m1 = arith.cmpi slt, %r, %ns : tensor<128xi32>
  tile.store %p, %v, %m1 : tensor<128x!tile.ptr<f32>>
  tile.store %p, %v, %mask : tensor<128x!tile.ptr<f32>>
  // An `and` of two true masks is not looked into.
  %c = arith.constant 128 : i32
  %cs = tile.splat %c : tensor<128xi32>
  %t1 = arith.cmpi slt, %r, %cs : tensor<128xi32>
  %a = arith.andi %t1, %mask : tensor<128xi1>
  tile.store %p, %v, %a : tensor<128x!tile.ptr<f32>>
  // Two ranges.
  %r2 = tile.range 1, 129 : tensor<128xi32>
  %m2 = arith.cmpi slt, %r, %r2 : tensor<128xi32>
  tile.store %p, %v, %m2 : tensor<128x!tile.ptr<f32>>
  return
}

// -----

// eq and ne never drop a mask (neither do uge/ugt, conservatively).
// CHECK-LABEL: func.func @other_predicates(
// CHECK:         %[[M1:.*]] = arith.cmpi ne
// CHECK-NEXT:    tile.store %{{.*}}, %{{.*}}, %[[M1]]
// CHECK-NEXT:    %[[M2:.*]] = arith.cmpi eq
// CHECK-NEXT:    tile.store %{{.*}}, %{{.*}}, %[[M2]]
func.func @other_predicates(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>) {
  %r = tile.range 0, 16 : tensor<16xi32>
  %c = arith.constant 100 : i32
  %n = tile.splat %c : tensor<16xi32>
  %m1 = arith.cmpi ne, %r, %n : tensor<16xi32>
  tile.store %p, %v, %m1 : tensor<16x!tile.ptr<f32>>
  %m2 = arith.cmpi eq, %r, %n : tensor<16xi32>
  tile.store %p, %v, %m2 : tensor<16x!tile.ptr<f32>>
  return
}

// -----

// Only masks are touched: the comparison keeps its other uses.
// CHECK-LABEL: func.func @mask_with_other_uses(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: tensor<16x!tile.ptr<f32>>, %[[V:[a-z0-9]+]]: tensor<16xf32>
// CHECK:         %[[M:.*]] = arith.cmpi slt
// CHECK-NEXT:    tile.store %[[P]], %[[V]] : tensor<16x!tile.ptr<f32>>
// CHECK-NEXT:    return %[[M]]
func.func @mask_with_other_uses(%p: tensor<16x!tile.ptr<f32>>, %v: tensor<16xf32>) -> tensor<16xi1> {
  %r = tile.range 0, 16 : tensor<16xi32>
  %c = arith.constant 16 : i32
  %n = tile.splat %c : tensor<16xi32>
  %m = arith.cmpi slt, %r, %n : tensor<16xi32>
  tile.store %p, %v, %m : tensor<16x!tile.ptr<f32>>
  return %m : tensor<16xi1>
}

// -----

// Masks inside loops and kernels are simplified too.
// CHECK-LABEL: func.func @kernel(
// CHECK-SAME:    attributes {tile.kernel, tile.num_warps = 4 : i32}
// CHECK:         scf.for
// CHECK:           %[[X:.*]] = tile.load %{{.*}} : tensor<256x!tile.ptr<f32>>
// CHECK-NEXT:      tile.store %{{.*}}, %[[X]] : tensor<256x!tile.ptr<f32>>
func.func @kernel(%in: !tile.ptr<f32>, %out: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = tile.range 0, 256 : tensor<256xi32>
  %c256 = arith.constant 256 : i32
  %n = tile.splat %c256 : tensor<256xi32>
  %m = arith.cmpi slt, %r, %n : tensor<256xi32>
  %ins = tile.splat %in : tensor<256x!tile.ptr<f32>>
  %inp = tile.addptr %ins, %r : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %outs = tile.splat %out : tensor<256x!tile.ptr<f32>>
  %outp = tile.addptr %outs, %r : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %x = tile.load %inp, %m : tensor<256x!tile.ptr<f32>>
    tile.store %outp, %x, %m : tensor<256x!tile.ptr<f32>>
  }
  return
}
