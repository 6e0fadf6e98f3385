// Round-trip of the layout encodings #tile.blocked and #tile.slice (as tensor
// encodings, also inside block pointer types and nested in slices of
// slices) and of tile.convert_layout: the custom form prints back to itself
// with the #blocked/#slice aliases, and the generic form and the bytecode
// read back to the same custom form.
//
// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s -mlir-print-op-generic | tile-opt | FileCheck %s
// RUN: tile-opt %s -emit-bytecode | tile-opt | FileCheck %s
// RUN: tile-opt %s --verify-roundtrip -o /dev/null
// RUN: tile-opt %s -mlir-print-local-scope | FileCheck %s --check-prefix=LOCAL

// Aliases are numbered in order of first use; one per distinct attribute
// (#b2 and #b2_again are the same attribute).
// CHECK:      #blocked = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: #blocked1 = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: #blocked2 = #tile.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 32], order = [0, 1]}>
// CHECK-NEXT: #blocked3 = #tile.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [2, 4, 4], warpsPerCTA = [1, 2, 1], order = [0, 2, 1]}>
// CHECK-NEXT: #slice = #tile.slice<{dim = 1, parent = #blocked1}>
// CHECK-NEXT: #slice1 = #tile.slice<{dim = 0, parent = #blocked1}>
// CHECK-NEXT: #slice2 = #tile.slice<{dim = 2, parent = #blocked3}>
// CHECK-NEXT: #slice3 = #tile.slice<{dim = 0, parent = #slice2}>
// CHECK-NOT:  #blocked4
// CHECK-NOT:  #slice4

// LOCAL-NOT:   #blocked
// LOCAL-LABEL: func.func @convert
// LOCAL-SAME:  tensor<64xf32, #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>

#b1 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#b2_again = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#b3 = #tile.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [2, 4, 4], warpsPerCTA = [1, 2, 1], order = [0, 2, 1]}>
// 32 warps, a column-fastest order.
#b4 = #tile.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 32], order = [0, 1]}>
#s_b2_1 = #tile.slice<{dim = 1, parent = #b2}>
#s_b3_2 = #tile.slice<{dim = 2, parent = #b3}>
#s_s = #tile.slice<{dim = 0, parent = #s_b3_2}>

// CHECK-LABEL: func.func @convert(
// CHECK-SAME:      %[[X:.*]]: tensor<64xf32, #blocked>
// CHECK-NEXT:    %[[S:.*]] = tile.convert_layout %[[X]] : tensor<64xf32, #blocked> -> tensor<64xf32, #slice>
// CHECK-NEXT:    %[[B:.*]] = tile.convert_layout %[[S]] : tensor<64xf32, #slice> -> tensor<64xf32, #blocked>
// CHECK-NEXT:    %[[P:.*]] = tile.convert_layout %[[B]] : tensor<64xf32, #blocked> -> tensor<64xf32>
// CHECK-NEXT:    %{{.*}} = tile.convert_layout %[[P]] : tensor<64xf32> -> tensor<64xf32, #blocked>
func.func @convert(%x: tensor<64xf32, #b1>) -> tensor<64xf32, #b1> {
  %0 = tile.convert_layout %x : tensor<64xf32, #b1> -> tensor<64xf32, #s_b2_1>
  %1 = tile.convert_layout %0 : tensor<64xf32, #s_b2_1> -> tensor<64xf32, #b1>
  // To and from a tile without a layout.
  %2 = tile.convert_layout %1 : tensor<64xf32, #b1> -> tensor<64xf32>
  %3 = tile.convert_layout %2 : tensor<64xf32> -> tensor<64xf32, #b1>
  return %3 : tensor<64xf32, #b1>
}

// Same layout on both sides: parses (the fold removes it, see
// remove-layout-conversions.mlir). A tile of pointers and of i1.
// CHECK-LABEL: func.func @convert_same_and_element_types(
// CHECK:         tile.convert_layout %{{.*}} : tensor<16x16xf32, #blocked1> -> tensor<16x16xf32, #blocked1>
// CHECK:         tile.convert_layout %{{.*}} : tensor<16x16x!tile.ptr<f16>, #blocked1> -> tensor<16x16x!tile.ptr<f16>, #blocked2>
// CHECK:         tile.convert_layout %{{.*}} : tensor<16x16xi1, #blocked2> -> tensor<16x16xi1, #blocked1>
func.func @convert_same_and_element_types(%x: tensor<16x16xf32, #b2>,
    %p: tensor<16x16x!tile.ptr<f16>, #b2_again>, %m: tensor<16x16xi1, #b4>)
    -> (tensor<16x16xf32, #b2>, tensor<16x16x!tile.ptr<f16>, #b4>, tensor<16x16xi1, #b2>) {
  %0 = tile.convert_layout %x : tensor<16x16xf32, #b2> -> tensor<16x16xf32, #b2>
  %1 = tile.convert_layout %p : tensor<16x16x!tile.ptr<f16>, #b2> -> tensor<16x16x!tile.ptr<f16>, #b4>
  %2 = tile.convert_layout %m : tensor<16x16xi1, #b4> -> tensor<16x16xi1, #b2>
  return %0, %1, %2 : tensor<16x16xf32, #b2>, tensor<16x16x!tile.ptr<f16>, #b4>, tensor<16x16xi1, #b2>
}

// Encodings on the results of reduce and the operands of expand_dims, and a
// slice of a slice (rank 3 -> 2 -> 1).
// CHECK-LABEL: func.func @slices(
// CHECK:         tile.reduce sum %{{.*}} axis = 0 : tensor<16x16xf32, #blocked1> -> tensor<16xf32, #slice1>
// CHECK:         tile.expand_dims %{{.*}} axis = 1 : tensor<16xf32, #slice> -> tensor<16x1xf32, #blocked1>
// CHECK:         tile.reduce max %{{.*}} axis = 2 : tensor<2x8x8xi32, #blocked3> -> tensor<2x8xi32, #slice2>
// CHECK:         tile.reduce max %{{.*}} axis = 0 : tensor<2x8xi32, #slice2> -> tensor<8xi32, #slice3>
// CHECK:         return {{.*}} : tensor<16xf32, #slice1>, tensor<16x1xf32, #blocked1>, tensor<8xi32, #slice3>
func.func @slices(%y: tensor<16x16xf32, #b2>, %r: tensor<16xf32, #s_b2_1>, %z: tensor<2x8x8xi32, #b3>)
    -> (tensor<16xf32, #tile.slice<{dim = 0, parent = #b2}>>, tensor<16x1xf32, #b2>, tensor<8xi32, #s_s>) {
  %0 = tile.reduce sum %y axis = 0 : tensor<16x16xf32, #b2> -> tensor<16xf32, #tile.slice<{dim = 0, parent = #b2}>>
  %1 = tile.expand_dims %r axis = 1 : tensor<16xf32, #s_b2_1> -> tensor<16x1xf32, #b2>
  %2 = tile.reduce max %z axis = 2 : tensor<2x8x8xi32, #b3> -> tensor<2x8xi32, #s_b3_2>
  %3 = tile.reduce max %2 axis = 0 : tensor<2x8xi32, #s_b3_2> -> tensor<8xi32, #s_s>
  return %0, %1, %3 : tensor<16xf32, #tile.slice<{dim = 0, parent = #b2}>>, tensor<16x1xf32, #b2>, tensor<8xi32, #s_s>
}

// Block pointers carry the layout of their block.
// CHECK-LABEL: func.func @block_pointer(
// CHECK-SAME:      !tile.block_ptr<tensor<16x16xf32, #blocked1>>
// CHECK:         tile.block_load %{{.*}} : !tile.block_ptr<tensor<16x16xf32, #blocked1>>
// CHECK:         tile.advance %{{.*}}, [%{{.*}}, %{{.*}}] : !tile.block_ptr<tensor<16x16xf32, #blocked1>>
// CHECK:         tile.block_store %{{.*}}, %{{.*}} : !tile.block_ptr<tensor<16x16xf32, #blocked1>>
func.func @block_pointer(%p: !tile.block_ptr<tensor<16x16xf32, #b2>>, %i: i32) {
  %0 = tile.block_load %p : !tile.block_ptr<tensor<16x16xf32, #b2>>
  %1 = tile.advance %p, [%i, %i] : !tile.block_ptr<tensor<16x16xf32, #b2>>
  tile.block_store %1, %0 : !tile.block_ptr<tensor<16x16xf32, #b2>>
  return
}

// Layouts in a kernel: on every tile, including constants, splats, ranges,
// loads and stores.
// CHECK-LABEL: func.func @kernel(
// CHECK:         arith.constant dense<1.000000e+00> : tensor<128xf32, #blocked>
// CHECK:         tile.range 0, 128 : tensor<128xi32, #blocked>
// CHECK:         tile.splat %{{.*}} : tensor<128x!tile.ptr<f32>, #blocked>
// CHECK:         tile.addptr %{{.*}}, %{{.*}} : tensor<128x!tile.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
// CHECK:         tile.load %{{.*}} : tensor<128x!tile.ptr<f32>, #blocked>
// CHECK:         arith.addf %{{.*}}, %{{.*}} : tensor<128xf32, #blocked>
// CHECK:         tile.store %{{.*}}, %{{.*}} : tensor<128x!tile.ptr<f32>, #blocked>
func.func @kernel(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  %one = arith.constant dense<1.0> : tensor<128xf32, #b1>
  %r = tile.range 0, 128 : tensor<128xi32, #b1>
  %b = tile.splat %p : tensor<128x!tile.ptr<f32>, #b1>
  %ptrs = tile.addptr %b, %r : tensor<128x!tile.ptr<f32>, #b1>, tensor<128xi32, #b1>
  %x = tile.load %ptrs : tensor<128x!tile.ptr<f32>, #b1>
  %y = arith.addf %x, %one : tensor<128xf32, #b1>
  tile.store %ptrs, %y : tensor<128x!tile.ptr<f32>, #b1>
  return
}
