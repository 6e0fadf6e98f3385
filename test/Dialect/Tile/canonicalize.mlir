// Folders and canonicalization patterns of the tile ops (TileOps.cpp), each
// with cases that must fold and cases that must not.
//
// RUN: tile-opt %s -split-input-file -canonicalize | FileCheck %s

//===----------------------------------------------------------------------===//
// tile.splat
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @splat_of_constant()
// CHECK-DAG:     %[[F:.*]] = arith.constant dense<2.500000e+00> : tensor<4x8xf32>
// CHECK-DAG:     %[[I:.*]] = arith.constant dense<7> : tensor<16xi32>
// CHECK-DAG:     %[[B:.*]] = arith.constant dense<true> : tensor<16xi1>
// CHECK-NOT:     tile.splat
// CHECK:         return %[[F]], %[[I]], %[[B]]
func.func @splat_of_constant() -> (tensor<4x8xf32>, tensor<16xi32>, tensor<16xi1>) {
  %f = arith.constant 2.5 : f32
  %i = arith.constant 7 : i32
  %b = arith.constant true
  %0 = tile.splat %f : tensor<4x8xf32>
  %1 = tile.splat %i : tensor<16xi32>
  %2 = tile.splat %b : tensor<16xi1>
  return %0, %1, %2 : tensor<4x8xf32>, tensor<16xi32>, tensor<16xi1>
}

// -----

// CHECK-LABEL: func.func @splat_of_argument(
// CHECK-SAME:    %[[X:.*]]: f32
// CHECK-NEXT:    %[[S:.*]] = tile.splat %[[X]] : tensor<128xf32>
// CHECK-NEXT:    return %[[S]]
func.func @splat_of_argument(%x: f32) -> tensor<128xf32> {
  %0 = tile.splat %x : tensor<128xf32>
  return %0 : tensor<128xf32>
}

// -----

// A pointer has no constant form: splats of pointers stay.
// CHECK-LABEL: func.func @splat_of_pointer(
// CHECK-SAME:    %[[P:.*]]: !tile.ptr<f32>
// CHECK-NEXT:    %[[S:.*]] = tile.splat %[[P]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    return %[[S]]
func.func @splat_of_pointer(%p: !tile.ptr<f32>) -> tensor<128x!tile.ptr<f32>> {
  %0 = tile.splat %p : tensor<128x!tile.ptr<f32>>
  return %0 : tensor<128x!tile.ptr<f32>>
}

// -----

// Unused splats are dead.
// CHECK-LABEL: func.func @splat_dead(
// CHECK-NEXT:    return
func.func @splat_dead(%x: f32) {
  %0 = tile.splat %x : tensor<128xf32>
  return
}

//===----------------------------------------------------------------------===//
// tile.broadcast
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @broadcast_identity(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf32>
// CHECK-NEXT:    return %[[X]]
func.func @broadcast_identity(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tile.broadcast %x : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_of_splat_constant()
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<3.000000e+00> : tensor<64x128xf32>
// CHECK-NEXT:    return %[[C]]
func.func @broadcast_of_splat_constant() -> tensor<64x128xf32> {
  %c = arith.constant dense<3.0> : tensor<1x128xf32>
  %0 = tile.broadcast %c : tensor<1x128xf32> -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// -----

// A non-splat constant is not folded.
// CHECK-LABEL: func.func @broadcast_of_dense_constant()
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<{{\[\[}}1, 2]]> : tensor<1x2xi32>
// CHECK-NEXT:    %[[B:.*]] = tile.broadcast %[[C]] : tensor<1x2xi32> -> tensor<4x2xi32>
// CHECK-NEXT:    return %[[B]]
func.func @broadcast_of_dense_constant() -> tensor<4x2xi32> {
  %c = arith.constant dense<[[1, 2]]> : tensor<1x2xi32>
  %0 = tile.broadcast %c : tensor<1x2xi32> -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// -----

// broadcast(splat(x)) -> splat(x)
// CHECK-LABEL: func.func @broadcast_of_splat(
// CHECK-SAME:    %[[X:.*]]: f32
// CHECK-NEXT:    %[[S:.*]] = tile.splat %[[X]] : tensor<64x128xf32>
// CHECK-NEXT:    return %[[S]]
func.func @broadcast_of_splat(%x: f32) -> tensor<64x128xf32> {
  %0 = tile.splat %x : tensor<1x128xf32>
  %1 = tile.broadcast %0 : tensor<1x128xf32> -> tensor<64x128xf32>
  return %1 : tensor<64x128xf32>
}

// -----

// The splat keeps its other uses.
// CHECK-LABEL: func.func @broadcast_of_splat_multi_use(
// CHECK-SAME:    %[[X:.*]]: f32
// CHECK-DAG:     %[[S1:.*]] = tile.splat %[[X]] : tensor<1x128xf32>
// CHECK-DAG:     %[[S2:.*]] = tile.splat %[[X]] : tensor<64x128xf32>
// CHECK-NOT:     tile.broadcast
// CHECK:         return %[[S1]], %[[S2]]
func.func @broadcast_of_splat_multi_use(%x: f32) -> (tensor<1x128xf32>, tensor<64x128xf32>) {
  %0 = tile.splat %x : tensor<1x128xf32>
  %1 = tile.broadcast %0 : tensor<1x128xf32> -> tensor<64x128xf32>
  return %0, %1 : tensor<1x128xf32>, tensor<64x128xf32>
}

// -----

// broadcast(broadcast(x)) -> broadcast(x)
// CHECK-LABEL: func.func @broadcast_of_broadcast(
// CHECK-SAME:    %[[X:.*]]: tensor<1x1xi32>
// CHECK-NEXT:    %[[B:.*]] = tile.broadcast %[[X]] : tensor<1x1xi32> -> tensor<64x128xi32>
// CHECK-NEXT:    return %[[B]]
func.func @broadcast_of_broadcast(%x: tensor<1x1xi32>) -> tensor<64x128xi32> {
  %0 = tile.broadcast %x : tensor<1x1xi32> -> tensor<1x128xi32>
  %1 = tile.broadcast %0 : tensor<1x128xi32> -> tensor<64x128xi32>
  return %1 : tensor<64x128xi32>
}

// -----

// CHECK-LABEL: func.func @broadcast_of_argument(
// CHECK-SAME:    %[[X:.*]]: tensor<1x128xf32>
// CHECK-NEXT:    %[[B:.*]] = tile.broadcast %[[X]] : tensor<1x128xf32> -> tensor<64x128xf32>
// CHECK-NEXT:    return %[[B]]
func.func @broadcast_of_argument(%x: tensor<1x128xf32>) -> tensor<64x128xf32> {
  %0 = tile.broadcast %x : tensor<1x128xf32> -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}

// -----

// Only tile ops are looked through.
// CHECK-LABEL: func.func @broadcast_of_expand_dims(
// CHECK-SAME:    %[[X:.*]]: tensor<128xf32>
// CHECK-NEXT:    %[[E:.*]] = tile.expand_dims %[[X]] axis = 0 : tensor<128xf32> -> tensor<1x128xf32>
// CHECK-NEXT:    %[[B:.*]] = tile.broadcast %[[E]] : tensor<1x128xf32> -> tensor<64x128xf32>
// CHECK-NEXT:    return %[[B]]
func.func @broadcast_of_expand_dims(%x: tensor<128xf32>) -> tensor<64x128xf32> {
  %0 = tile.expand_dims %x axis = 0 : tensor<128xf32> -> tensor<1x128xf32>
  %1 = tile.broadcast %0 : tensor<1x128xf32> -> tensor<64x128xf32>
  return %1 : tensor<64x128xf32>
}

//===----------------------------------------------------------------------===//
// tile.expand_dims
//===----------------------------------------------------------------------===//

// -----

// expand_dims(splat(x)) -> splat(x)
// CHECK-LABEL: func.func @expand_dims_of_splat(
// CHECK-SAME:    %[[X:.*]]: i32
// CHECK-NEXT:    %[[S:.*]] = tile.splat %[[X]] : tensor<64x1xi32>
// CHECK-NEXT:    return %[[S]]
func.func @expand_dims_of_splat(%x: i32) -> tensor<64x1xi32> {
  %0 = tile.splat %x : tensor<64xi32>
  %1 = tile.expand_dims %0 axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  return %1 : tensor<64x1xi32>
}

// -----

// expand_dims + broadcast of a splat is one splat.
// CHECK-LABEL: func.func @expand_dims_broadcast_of_splat(
// CHECK-SAME:    %[[P:.*]]: !tile.ptr<f16>
// CHECK-NEXT:    %[[S:.*]] = tile.splat %[[P]] : tensor<64x128x!tile.ptr<f16>>
// CHECK-NEXT:    return %[[S]]
func.func @expand_dims_broadcast_of_splat(%p: !tile.ptr<f16>) -> tensor<64x128x!tile.ptr<f16>> {
  %0 = tile.splat %p : tensor<128x!tile.ptr<f16>>
  %1 = tile.expand_dims %0 axis = 0 : tensor<128x!tile.ptr<f16>> -> tensor<1x128x!tile.ptr<f16>>
  %2 = tile.broadcast %1 : tensor<1x128x!tile.ptr<f16>> -> tensor<64x128x!tile.ptr<f16>>
  return %2 : tensor<64x128x!tile.ptr<f16>>
}

// -----

// CHECK-LABEL: func.func @expand_dims_of_argument(
// CHECK-SAME:    %[[X:.*]]: tensor<64xi32>
// CHECK-NEXT:    %[[E:.*]] = tile.expand_dims %[[X]] axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
// CHECK-NEXT:    return %[[E]]
func.func @expand_dims_of_argument(%x: tensor<64xi32>) -> tensor<64x1xi32> {
  %0 = tile.expand_dims %x axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  return %0 : tensor<64x1xi32>
}

// -----

// CHECK-LABEL: func.func @expand_dims_of_range()
// CHECK-NEXT:    %[[R:.*]] = tile.range 0, 64 : tensor<64xi32>
// CHECK-NEXT:    %[[E:.*]] = tile.expand_dims %[[R]] axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
// CHECK-NEXT:    return %[[E]]
func.func @expand_dims_of_range() -> tensor<1x64xi32> {
  %0 = tile.range 0, 64 : tensor<64xi32>
  %1 = tile.expand_dims %0 axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  return %1 : tensor<1x64xi32>
}

//===----------------------------------------------------------------------===//
// tile.reshape
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @reshape_identity(
// CHECK-SAME:    %[[X:.*]]: tensor<4x32xf32>
// CHECK-NEXT:    return %[[X]]
func.func @reshape_identity(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %0 = tile.reshape %x : tensor<4x32xf32> -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}

// -----

// reshape(reshape(x)) -> reshape(x)
// CHECK-LABEL: func.func @reshape_of_reshape(
// CHECK-SAME:    %[[X:.*]]: tensor<4x32xf32>
// CHECK-NEXT:    %[[R:.*]] = tile.reshape %[[X]] : tensor<4x32xf32> -> tensor<2x64xf32>
// CHECK-NEXT:    return %[[R]]
func.func @reshape_of_reshape(%x: tensor<4x32xf32>) -> tensor<2x64xf32> {
  %0 = tile.reshape %x : tensor<4x32xf32> -> tensor<128xf32>
  %1 = tile.reshape %0 : tensor<128xf32> -> tensor<2x64xf32>
  return %1 : tensor<2x64xf32>
}

// -----

// reshape(reshape(x)) back to the type of x -> x
// CHECK-LABEL: func.func @reshape_round_trip(
// CHECK-SAME:    %[[X:.*]]: tensor<4x32xf32>
// CHECK-NEXT:    return %[[X]]
func.func @reshape_round_trip(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %0 = tile.reshape %x : tensor<4x32xf32> -> tensor<128xf32>
  %1 = tile.reshape %0 : tensor<128xf32> -> tensor<4x32xf32>
  return %1 : tensor<4x32xf32>
}

// -----

// The inner reshape keeps its other uses.
// CHECK-LABEL: func.func @reshape_of_reshape_multi_use(
// CHECK-SAME:    %[[X:.*]]: tensor<4x32xf32>
// CHECK-DAG:     %[[R1:.*]] = tile.reshape %[[X]] : tensor<4x32xf32> -> tensor<128xf32>
// CHECK-DAG:     %[[R2:.*]] = tile.reshape %[[X]] : tensor<4x32xf32> -> tensor<8x16xf32>
// CHECK:         return %[[R1]], %[[R2]]
func.func @reshape_of_reshape_multi_use(%x: tensor<4x32xf32>) -> (tensor<128xf32>, tensor<8x16xf32>) {
  %0 = tile.reshape %x : tensor<4x32xf32> -> tensor<128xf32>
  %1 = tile.reshape %0 : tensor<128xf32> -> tensor<8x16xf32>
  return %0, %1 : tensor<128xf32>, tensor<8x16xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_of_splat_constant()
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<-1> : tensor<8x16xi16>
// CHECK-NEXT:    return %[[C]]
func.func @reshape_of_splat_constant() -> tensor<8x16xi16> {
  %c = arith.constant dense<-1> : tensor<128xi16>
  %0 = tile.reshape %c : tensor<128xi16> -> tensor<8x16xi16>
  return %0 : tensor<8x16xi16>
}

// -----

// CHECK-LABEL: func.func @reshape_of_argument(
// CHECK-SAME:    %[[X:.*]]: tensor<4x32xf32>
// CHECK-NEXT:    %[[R:.*]] = tile.reshape %[[X]] : tensor<4x32xf32> -> tensor<128xf32>
// CHECK-NEXT:    return %[[R]]
func.func @reshape_of_argument(%x: tensor<4x32xf32>) -> tensor<128xf32> {
  %0 = tile.reshape %x : tensor<4x32xf32> -> tensor<128xf32>
  return %0 : tensor<128xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_of_range()
// CHECK-NEXT:    %[[R:.*]] = tile.range 0, 8 : tensor<8xi32>
// CHECK-NEXT:    %[[S:.*]] = tile.reshape %[[R]] : tensor<8xi32> -> tensor<2x4xi32>
// CHECK-NEXT:    return %[[S]]
func.func @reshape_of_range() -> tensor<2x4xi32> {
  %0 = tile.range 0, 8 : tensor<8xi32>
  %1 = tile.reshape %0 : tensor<8xi32> -> tensor<2x4xi32>
  return %1 : tensor<2x4xi32>
}

//===----------------------------------------------------------------------===//
// tile.trans
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @trans_identity(
// CHECK-SAME:    %[[X:.*]]: tensor<2x4x8xf32>
// CHECK-NEXT:    return %[[X]]
func.func @trans_identity(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %0 = tile.trans %x order = [0, 1, 2] : tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  return %0 : tensor<2x4x8xf32>
}

// -----

// A permutation that keeps the shape (square tile) is not an identity.
// CHECK-LABEL: func.func @trans_square(
// CHECK-SAME:    %[[X:.*]]: tensor<16x16xf32>
// CHECK-NEXT:    %[[T:.*]] = tile.trans %[[X]] order = [1, 0] : tensor<16x16xf32> -> tensor<16x16xf32>
// CHECK-NEXT:    return %[[T]]
func.func @trans_square(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %0 = tile.trans %x order = [1, 0] : tensor<16x16xf32> -> tensor<16x16xf32>
  return %0 : tensor<16x16xf32>
}

// -----

// trans(trans(x, [1, 0]), [1, 0]) -> x
// CHECK-LABEL: func.func @trans_of_trans_2d(
// CHECK-SAME:    %[[X:.*]]: tensor<16x32xf32>
// CHECK-NEXT:    return %[[X]]
func.func @trans_of_trans_2d(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %0 = tile.trans %x order = [1, 0] : tensor<16x32xf32> -> tensor<32x16xf32>
  %1 = tile.trans %0 order = [1, 0] : tensor<32x16xf32> -> tensor<16x32xf32>
  return %1 : tensor<16x32xf32>
}

// -----

// [2, 0, 1] is undone by its inverse [1, 2, 0].
// CHECK-LABEL: func.func @trans_of_trans_inverse(
// CHECK-SAME:    %[[X:.*]]: tensor<2x4x8xf32>
// CHECK-NEXT:    return %[[X]]
func.func @trans_of_trans_inverse(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %0 = tile.trans %x order = [2, 0, 1] : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
  %1 = tile.trans %0 order = [1, 2, 0] : tensor<8x2x4xf32> -> tensor<2x4x8xf32>
  return %1 : tensor<2x4x8xf32>
}

// -----

// [2, 0, 1] twice is [1, 2, 0], not the identity: both stay.
// CHECK-LABEL: func.func @trans_of_trans_not_inverse(
// CHECK-SAME:    %[[X:.*]]: tensor<2x4x8xf32>
// CHECK-NEXT:    %[[T0:.*]] = tile.trans %[[X]] order = [2, 0, 1] : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
// CHECK-NEXT:    %[[T1:.*]] = tile.trans %[[T0]] order = [2, 0, 1] : tensor<8x2x4xf32> -> tensor<4x8x2xf32>
// CHECK-NEXT:    return %[[T1]]
func.func @trans_of_trans_not_inverse(%x: tensor<2x4x8xf32>) -> tensor<4x8x2xf32> {
  %0 = tile.trans %x order = [2, 0, 1] : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
  %1 = tile.trans %0 order = [2, 0, 1] : tensor<8x2x4xf32> -> tensor<4x8x2xf32>
  return %1 : tensor<4x8x2xf32>
}

// -----

// Same shapes, different permutations: on a 4x4x4 tile, [1, 0, 2] then
// [0, 2, 1] is [1, 2, 0] and must not fold although all types are equal.
// CHECK-LABEL: func.func @trans_of_trans_same_shape(
// CHECK-SAME:    %[[X:.*]]: tensor<4x4x4xf32>
// CHECK-NEXT:    %[[T0:.*]] = tile.trans %[[X]] order = [1, 0, 2]
// CHECK-NEXT:    %[[T1:.*]] = tile.trans %[[T0]] order = [0, 2, 1]
// CHECK-NEXT:    return %[[T1]]
func.func @trans_of_trans_same_shape(%x: tensor<4x4x4xf32>) -> tensor<4x4x4xf32> {
  %0 = tile.trans %x order = [1, 0, 2] : tensor<4x4x4xf32> -> tensor<4x4x4xf32>
  %1 = tile.trans %0 order = [0, 2, 1] : tensor<4x4x4xf32> -> tensor<4x4x4xf32>
  return %1 : tensor<4x4x4xf32>
}

// -----

// CHECK-LABEL: func.func @trans_of_splat_constant()
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<0.000000e+00> : tensor<32x16xf16>
// CHECK-NEXT:    return %[[C]]
func.func @trans_of_splat_constant() -> tensor<32x16xf16> {
  %c = arith.constant dense<0.0> : tensor<16x32xf16>
  %0 = tile.trans %c order = [1, 0] : tensor<16x32xf16> -> tensor<32x16xf16>
  return %0 : tensor<32x16xf16>
}

// -----

// CHECK-LABEL: func.func @trans_of_argument(
// CHECK-SAME:    %[[X:.*]]: tensor<16x32xf32>
// CHECK-NEXT:    %[[T:.*]] = tile.trans %[[X]] order = [1, 0] : tensor<16x32xf32> -> tensor<32x16xf32>
// CHECK-NEXT:    return %[[T]]
func.func @trans_of_argument(%x: tensor<16x32xf32>) -> tensor<32x16xf32> {
  %0 = tile.trans %x order = [1, 0] : tensor<16x32xf32> -> tensor<32x16xf32>
  return %0 : tensor<32x16xf32>
}

//===----------------------------------------------------------------------===//
// tile.addptr
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @addptr_zero_scalar(
// CHECK-SAME:    %[[P:.*]]: !tile.ptr<f32>
// CHECK-NEXT:    return %[[P]], %[[P]]
func.func @addptr_zero_scalar(%p: !tile.ptr<f32>) -> (!tile.ptr<f32>, !tile.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c0_i64 = arith.constant 0 : i64
  %0 = tile.addptr %p, %c0 : !tile.ptr<f32>, i32
  %1 = tile.addptr %p, %c0_i64 : !tile.ptr<f32>, i64
  return %0, %1 : !tile.ptr<f32>, !tile.ptr<f32>
}

// -----

// CHECK-LABEL: func.func @addptr_zero_tile(
// CHECK-SAME:    %[[P:.*]]: tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    return %[[P]], %[[P]]
func.func @addptr_zero_tile(%p: tensor<128x!tile.ptr<f32>>) -> (tensor<128x!tile.ptr<f32>>, tensor<128x!tile.ptr<f32>>) {
  %z = arith.constant dense<0> : tensor<128xi32>
  %0 = tile.addptr %p, %z : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  // A splat of zero folds to a zero constant first.
  %c0 = arith.constant 0 : i64
  %s = tile.splat %c0 : tensor<128xi64>
  %1 = tile.addptr %p, %s : tensor<128x!tile.ptr<f32>>, tensor<128xi64>
  return %0, %1 : tensor<128x!tile.ptr<f32>>, tensor<128x!tile.ptr<f32>>
}

// -----

// CHECK-LABEL: func.func @addptr_nonzero(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: !tile.ptr<f32>, %[[PS:[a-z0-9]+]]: tensor<4x!tile.ptr<f32>>, %[[O:[a-z0-9]+]]: i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[D:.*]] = arith.constant dense<[0, 1, 0, 0]> : tensor<4xi32>
// CHECK-DAG:     %[[A0:.*]] = tile.addptr %[[P]], %[[C1]] : !tile.ptr<f32>, i32
// CHECK-DAG:     %[[A1:.*]] = tile.addptr %[[PS]], %[[D]] : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
// CHECK-DAG:     %[[A2:.*]] = tile.addptr %[[P]], %[[O]] : !tile.ptr<f32>, i32
// CHECK:         return %[[A0]], %[[A1]], %[[A2]]
func.func @addptr_nonzero(%p: !tile.ptr<f32>, %ps: tensor<4x!tile.ptr<f32>>, %o: i32)
    -> (!tile.ptr<f32>, tensor<4x!tile.ptr<f32>>, !tile.ptr<f32>) {
  %c1 = arith.constant 1 : i32
  %0 = tile.addptr %p, %c1 : !tile.ptr<f32>, i32
  %d = arith.constant dense<[0, 1, 0, 0]> : tensor<4xi32>
  %1 = tile.addptr %ps, %d : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  %2 = tile.addptr %p, %o : !tile.ptr<f32>, i32
  return %0, %1, %2 : !tile.ptr<f32>, tensor<4x!tile.ptr<f32>>, !tile.ptr<f32>
}

//===----------------------------------------------------------------------===//
// tile.advance
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @advance_zero(
// CHECK-SAME:    %[[BP:.*]]: !tile.block_ptr<tensor<16x64xf32>>
// CHECK-NEXT:    return %[[BP]]
func.func @advance_zero(%bp: !tile.block_ptr<tensor<16x64xf32>>) -> !tile.block_ptr<tensor<16x64xf32>> {
  %c0 = arith.constant 0 : i32
  %0 = tile.advance %bp, [%c0, %c0] : !tile.block_ptr<tensor<16x64xf32>>
  return %0 : !tile.block_ptr<tensor<16x64xf32>>
}

// -----

// CHECK-LABEL: func.func @advance_partly_zero(
// CHECK-SAME:    %[[BP:.*]]: !tile.block_ptr<tensor<16x64xf32>>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : i32
// CHECK:         %[[A:.*]] = tile.advance %[[BP]], [%[[C0]], %[[C64]]] : !tile.block_ptr<tensor<16x64xf32>>
// CHECK-NEXT:    return %[[A]]
func.func @advance_partly_zero(%bp: !tile.block_ptr<tensor<16x64xf32>>) -> !tile.block_ptr<tensor<16x64xf32>> {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %0 = tile.advance %bp, [%c0, %c64] : !tile.block_ptr<tensor<16x64xf32>>
  return %0 : !tile.block_ptr<tensor<16x64xf32>>
}

// -----

// CHECK-LABEL: func.func @advance_unknown(
// CHECK-SAME:    %[[BP:[a-z0-9]+]]: !tile.block_ptr<tensor<16x64xf32>>, %[[O:[a-z0-9]+]]: i32
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[A:.*]] = tile.advance %[[BP]], [%[[O]], %[[C0]]] : !tile.block_ptr<tensor<16x64xf32>>
// CHECK-NEXT:    return %[[A]]
func.func @advance_unknown(%bp: !tile.block_ptr<tensor<16x64xf32>>, %o: i32) -> !tile.block_ptr<tensor<16x64xf32>> {
  %c0 = arith.constant 0 : i32
  %0 = tile.advance %bp, [%o, %c0] : !tile.block_ptr<tensor<16x64xf32>>
  return %0 : !tile.block_ptr<tensor<16x64xf32>>
}

//===----------------------------------------------------------------------===//
// tile.load
//===----------------------------------------------------------------------===//

// -----

// An all-true mask is dropped, with `other`.
// CHECK-LABEL: func.func @load_true_mask(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: tensor<128x!tile.ptr<f32>>, %[[O:[a-z0-9]+]]: tensor<128xf32>
// CHECK-NEXT:    %[[L0:.*]] = tile.load %[[P]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    %[[L1:.*]] = tile.load %[[P]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    return %[[L0]], %[[L1]]
func.func @load_true_mask(%p: tensor<128x!tile.ptr<f32>>, %o: tensor<128xf32>) -> (tensor<128xf32>, tensor<128xf32>) {
  %t = arith.constant dense<true> : tensor<128xi1>
  %0 = tile.load %p, %t : tensor<128x!tile.ptr<f32>>
  %1 = tile.load %p, %t, %o : tensor<128x!tile.ptr<f32>>
  return %0, %1 : tensor<128xf32>, tensor<128xf32>
}

// -----

// CHECK-LABEL: func.func @load_true_mask_splat(
// CHECK-SAME:    %[[P:.*]]: tensor<4x8x!tile.ptr<i8>>
// CHECK-NEXT:    %[[L:.*]] = tile.load %[[P]] : tensor<4x8x!tile.ptr<i8>>
// CHECK-NEXT:    return %[[L]]
func.func @load_true_mask_splat(%p: tensor<4x8x!tile.ptr<i8>>) -> tensor<4x8xi8> {
  %true = arith.constant true
  %m = tile.splat %true : tensor<4x8xi1>
  %0 = tile.load %p, %m : tensor<4x8x!tile.ptr<i8>>
  return %0 : tensor<4x8xi8>
}

// -----

// CHECK-LABEL: func.func @load_true_mask_scalar(
// CHECK-SAME:    %[[P:.*]]: !tile.ptr<f64>
// CHECK-NEXT:    %[[L:.*]] = tile.load %[[P]] : !tile.ptr<f64>
// CHECK-NEXT:    return %[[L]]
func.func @load_true_mask_scalar(%p: !tile.ptr<f64>) -> f64 {
  %true = arith.constant true
  %0 = tile.load %p, %true : !tile.ptr<f64>
  return %0 : f64
}

// -----

// An all-false mask reads `other` without accessing memory.
// CHECK-LABEL: func.func @load_false_mask_other(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: tensor<128x!tile.ptr<f32>>, %[[O:[a-z0-9]+]]: tensor<128xf32>
// CHECK-NEXT:    return %[[O]]
func.func @load_false_mask_other(%p: tensor<128x!tile.ptr<f32>>, %o: tensor<128xf32>) -> tensor<128xf32> {
  %f = arith.constant dense<false> : tensor<128xi1>
  %0 = tile.load %p, %f, %o : tensor<128x!tile.ptr<f32>>
  return %0 : tensor<128xf32>
}

// -----

// ... and zero without `other`.
// CHECK-LABEL: func.func @load_false_mask_zero(
// CHECK-DAG:     %[[ZF:.*]] = arith.constant dense<0.000000e+00> : tensor<128xf32>
// CHECK-DAG:     %[[ZI:.*]] = arith.constant dense<0> : tensor<4x8xi16>
// CHECK-DAG:     %[[ZS:.*]] = arith.constant 0.000000e+00 : bf16
// CHECK-DAG:     %[[ZB:.*]] = arith.constant false
// CHECK-NOT:     tile.load
// CHECK:         return %[[ZF]], %[[ZI]], %[[ZS]], %[[ZB]]
func.func @load_false_mask_zero(%p: tensor<128x!tile.ptr<f32>>, %q: tensor<4x8x!tile.ptr<i16>>,
                                %r: !tile.ptr<bf16>, %s: !tile.ptr<i1>)
    -> (tensor<128xf32>, tensor<4x8xi16>, bf16, i1) {
  %f = arith.constant dense<false> : tensor<128xi1>
  %0 = tile.load %p, %f : tensor<128x!tile.ptr<f32>>
  %false = arith.constant false
  %m = tile.splat %false : tensor<4x8xi1>
  %1 = tile.load %q, %m : tensor<4x8x!tile.ptr<i16>>
  %2 = tile.load %r, %false : !tile.ptr<bf16>
  %3 = tile.load %s, %false : !tile.ptr<i1>
  return %0, %1, %2, %3 : tensor<128xf32>, tensor<4x8xi16>, bf16, i1
}

// -----

// Masks that are not constant, or not uniform, stay.
// CHECK-LABEL: func.func @load_mask_kept(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: tensor<4x!tile.ptr<f32>>, %[[M:[a-z0-9]+]]: tensor<4xi1>, %[[O:[a-z0-9]+]]: tensor<4xf32>
// CHECK-DAG:     %[[D:.*]] = arith.constant dense<[true, false, true, true]> : tensor<4xi1>
// CHECK-DAG:     %[[L0:.*]] = tile.load %[[P]], %[[M]] : tensor<4x!tile.ptr<f32>>
// CHECK-DAG:     %[[L1:.*]] = tile.load %[[P]], %[[M]], %[[O]] : tensor<4x!tile.ptr<f32>>
// CHECK-DAG:     %[[L2:.*]] = tile.load %[[P]], %[[D]], %[[O]] : tensor<4x!tile.ptr<f32>>
// CHECK:         return %[[L0]], %[[L1]], %[[L2]]
func.func @load_mask_kept(%p: tensor<4x!tile.ptr<f32>>, %m: tensor<4xi1>, %o: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = tile.load %p, %m : tensor<4x!tile.ptr<f32>>
  %1 = tile.load %p, %m, %o : tensor<4x!tile.ptr<f32>>
  %d = arith.constant dense<[true, false, true, true]> : tensor<4xi1>
  %2 = tile.load %p, %d, %o : tensor<4x!tile.ptr<f32>>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// A load without uses only reads memory: it is dead.
// CHECK-LABEL: func.func @load_dead(
// CHECK-NEXT:    return
func.func @load_dead(%p: tensor<4x!tile.ptr<f32>>) {
  %0 = tile.load %p : tensor<4x!tile.ptr<f32>>
  return
}

//===----------------------------------------------------------------------===//
// tile.store
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @store_true_mask(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: tensor<128x!tile.ptr<f32>>, %[[V:[a-z0-9]+]]: tensor<128xf32>, %[[Q:[a-z0-9]+]]: !tile.ptr<i32>, %[[S:[a-z0-9]+]]: i32
// CHECK-NEXT:    tile.store %[[P]], %[[V]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    tile.store %[[P]], %[[V]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT:    tile.store %[[Q]], %[[S]] : !tile.ptr<i32>
// CHECK-NEXT:    return
func.func @store_true_mask(%p: tensor<128x!tile.ptr<f32>>, %v: tensor<128xf32>, %q: !tile.ptr<i32>, %s: i32) {
  %t = arith.constant dense<true> : tensor<128xi1>
  tile.store %p, %v, %t : tensor<128x!tile.ptr<f32>>
  %true = arith.constant true
  %m = tile.splat %true : tensor<128xi1>
  tile.store %p, %v, %m : tensor<128x!tile.ptr<f32>>
  tile.store %q, %s, %true : !tile.ptr<i32>
  return
}

// -----

// CHECK-LABEL: func.func @store_false_mask(
// CHECK-NEXT:    return
func.func @store_false_mask(%p: tensor<128x!tile.ptr<f32>>, %v: tensor<128xf32>, %q: !tile.ptr<i32>, %s: i32) {
  %f = arith.constant dense<false> : tensor<128xi1>
  tile.store %p, %v, %f : tensor<128x!tile.ptr<f32>>
  %false = arith.constant false
  tile.store %q, %s, %false : !tile.ptr<i32>
  return
}

// -----

// CHECK-LABEL: func.func @store_mask_kept(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: tensor<4x!tile.ptr<f32>>, %[[V:[a-z0-9]+]]: tensor<4xf32>, %[[M:[a-z0-9]+]]: tensor<4xi1>
// CHECK-DAG:     %[[D:.*]] = arith.constant dense<[false, false, true, false]> : tensor<4xi1>
// CHECK-DAG:     tile.store %[[P]], %[[V]], %[[M]] : tensor<4x!tile.ptr<f32>>
// CHECK-DAG:     tile.store %[[P]], %[[V]], %[[D]] : tensor<4x!tile.ptr<f32>>
// CHECK-DAG:     tile.store %[[P]], %[[V]] : tensor<4x!tile.ptr<f32>>
// CHECK:         return
func.func @store_mask_kept(%p: tensor<4x!tile.ptr<f32>>, %v: tensor<4xf32>, %m: tensor<4xi1>) {
  tile.store %p, %v, %m : tensor<4x!tile.ptr<f32>>
  %d = arith.constant dense<[false, false, true, false]> : tensor<4xi1>
  tile.store %p, %v, %d : tensor<4x!tile.ptr<f32>>
  tile.store %p, %v : tensor<4x!tile.ptr<f32>>
  return
}

//===----------------------------------------------------------------------===//
// Ops that must not fold
//===----------------------------------------------------------------------===//

// -----

// Block loads and stores touch memory; program ids and ranges are not
// constants.
// CHECK-LABEL: func.func @no_folding(
// CHECK:         tile.program_id 0
// CHECK:         tile.range 0, 16
// CHECK:         tile.block_load
// CHECK:         tile.block_store
// CHECK:         tile.print "x"
func.func @no_folding(%bp: !tile.block_ptr<tensor<16xf32>>) -> (i32, tensor<16xi32>) {
  %pid = tile.program_id 0
  %r = tile.range 0, 16 : tensor<16xi32>
  %x = tile.block_load %bp : !tile.block_ptr<tensor<16xf32>>
  tile.block_store %bp, %x : !tile.block_ptr<tensor<16xf32>>
  tile.print "x" %x : tensor<16xf32>
  return %pid, %r : i32, tensor<16xi32>
}
