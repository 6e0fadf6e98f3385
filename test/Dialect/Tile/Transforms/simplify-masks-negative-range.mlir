// tile-simplify-masks on ranges of negative values.
//
// Regression: range bounds are read as signed, so `range(-16, -8) >= 0` (false
// in every lane) keeps its mask.
//
// RUN: tile-opt %s -split-input-file -tile-simplify-masks | FileCheck %s

// CHECK-LABEL: func.func @all_false_sge(
// CHECK:         %[[M:.*]] = arith.cmpi sge
// CHECK-NEXT:    %[[X:.*]] = tile.load %{{.*}}, %[[M]] : tensor<8x!tile.ptr<f32>>
// CHECK-NEXT:    return %[[X]]
func.func @all_false_sge(%p: tensor<8x!tile.ptr<f32>>) -> tensor<8xf32> {
  %r = tile.range -16, -8 : tensor<8xi32>
  %c0 = arith.constant 0 : i32
  %z = tile.splat %c0 : tensor<8xi32>
  %m = arith.cmpi sge, %r, %z : tensor<8xi32>
  %x = tile.load %p, %m : tensor<8x!tile.ptr<f32>>
  return %x : tensor<8xf32>
}

// -----

// CHECK-LABEL: func.func @all_false_sgt(
// CHECK:         %[[M:.*]] = arith.cmpi sgt
// CHECK-NEXT:    tile.store %{{.*}}, %{{.*}}, %[[M]] : tensor<8x!tile.ptr<f32>>
func.func @all_false_sgt(%p: tensor<8x!tile.ptr<f32>>, %v: tensor<8xf32>) {
  %r = tile.range -16, -8 : tensor<8xi32>
  %c = arith.constant -1 : i32
  %n = tile.splat %c : tensor<8xi32>
  %m = arith.cmpi sgt, %r, %n : tensor<8xi32>
  tile.store %p, %v, %m : tensor<8x!tile.ptr<f32>>
  return
}
