// One case per verifier diagnostic of the tile dialect (TileOps.cpp,
// TileDialect.cpp) and per ODS constraint of its ops and types.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// expected-error @+1 {{pointee type must be f16, bf16, f32, f64 or a signless integer of 1 to 64 bits, got 'i7'}}
func.func @ptr_bad_int_width(%p: !tile.ptr<i7>)

// -----

// expected-error @+1 {{pointee type must be f16, bf16, f32, f64 or a signless integer of 1 to 64 bits, got 'ui32'}}
func.func @ptr_unsigned(%p: !tile.ptr<ui32>)

// -----

// expected-error @+1 {{pointee type must be f16, bf16, f32, f64 or a signless integer of 1 to 64 bits, got 'index'}}
func.func @ptr_index(%p: !tile.ptr<index>)

// -----

// expected-error @+1 {{pointee type must be f16, bf16, f32, f64 or a signless integer of 1 to 64 bits, got '!tile.ptr<f32>'}}
func.func @ptr_to_ptr(%p: !tile.ptr<!tile.ptr<f32>>)

// -----

// expected-error @+1 {{pointee type must be f16, bf16, f32, f64 or a signless integer of 1 to 64 bits, got 'tensor<4xf32>'}}
func.func @ptr_to_tensor(%p: !tile.ptr<tensor<4xf32>>)

// -----

// expected-error @+1 {{block element type must be f16, bf16, f32, f64 or a signless integer, got 'index'}}
func.func @block_ptr_bad_element(%p: !tile.block_ptr<tensor<16xindex>>)

// -----

// expected-error @+1 {{block element type must be f16, bf16, f32, f64 or a signless integer, got '!tile.ptr<f32>'}}
func.func @block_ptr_of_pointers(%p: !tile.block_ptr<tensor<16x!tile.ptr<f32>>>)

// -----

// expected-error @+1 {{block shape must be static with power-of-two dimensions, got 'tensor<3x4xf32>'}}
func.func @block_ptr_not_power_of_two(%p: !tile.block_ptr<tensor<3x4xf32>>)

// -----

// expected-error @+1 {{block shape must be static with power-of-two dimensions, got 'tensor<?x4xf32>'}}
func.func @block_ptr_dynamic(%p: !tile.block_ptr<tensor<?x4xf32>>)

// -----

// expected-error @+1 {{block shape must be static with power-of-two dimensions, got 'tensor<0xf32>'}}
func.func @block_ptr_empty(%p: !tile.block_ptr<tensor<0xf32>>)

//===----------------------------------------------------------------------===//
// Tiles are static with power-of-two dimensions (the PowerOfTwoTiles trait)
//===----------------------------------------------------------------------===//

// -----

func.func @result_not_power_of_two(%x: f32) {
  // expected-error @+1 {{'tile.splat' op result #0 must be a tile with static power-of-two dimensions, got 'tensor<3xf32>'}}
  %0 = tile.splat %x : tensor<3xf32>
  return
}

// -----

func.func @result_dynamic(%x: f32) {
  // expected-error @+1 {{'tile.splat' op result #0 must be a tile with static power-of-two dimensions, got 'tensor<?xf32>'}}
  %0 = tile.splat %x : tensor<?xf32>
  return
}

// -----

func.func @result_zero_size(%x: f32) {
  // expected-error @+1 {{'tile.splat' op result #0 must be a tile with static power-of-two dimensions, got 'tensor<4x0xf32>'}}
  %0 = tile.splat %x : tensor<4x0xf32>
  return
}

// -----

func.func @operand_not_power_of_two(%x: tensor<1x3xf32>) {
  // expected-error @+1 {{'tile.broadcast' op operand #0 must be a tile with static power-of-two dimensions, got 'tensor<1x3xf32>'}}
  %0 = tile.broadcast %x : tensor<1x3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @second_operand_not_power_of_two(%p: tensor<8x!tile.ptr<f32>>, %o: tensor<6xi32>) {
  // expected-error @+1 {{'tile.addptr' op operand #1 must be a tile with static power-of-two dimensions, got 'tensor<6xi32>'}}
  %0 = tile.addptr %p, %o : tensor<8x!tile.ptr<f32>>, tensor<6xi32>
  return
}

// -----

func.func @range_result_not_power_of_two() {
  // expected-error @+1 {{'tile.range' op result #0 must be a tile with static power-of-two dimensions, got 'tensor<3xi32>'}}
  %0 = tile.range 0, 3 : tensor<3xi32>
  return
}

//===----------------------------------------------------------------------===//
// tile.program_id, tile.num_programs
//===----------------------------------------------------------------------===//

// -----

func.func @program_id_axis_out_of_range() {
  // expected-error @+1 {{'tile.program_id' op grid axis 3 is out of range for rank 3}}
  %0 = tile.program_id 3
  return
}

// -----

func.func @program_id_negative_axis() {
  // expected-error @+1 {{'tile.program_id' op attribute 'axis' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative}}
  %0 = tile.program_id -1
  return
}

// -----

func.func @program_id_result_type() {
  // expected-error @+1 {{'tile.program_id' op result #0 must be 32-bit signless integer, but got 'i64'}}
  %0 = "tile.program_id"() <{axis = 0 : i32}> : () -> i64
  return
}

// -----

func.func @num_programs_axis_out_of_range() {
  // expected-error @+1 {{'tile.num_programs' op grid axis 7 is out of range for rank 3}}
  %0 = tile.num_programs 7
  return
}

// -----

func.func @num_programs_negative_axis() {
  // expected-error @+1 {{'tile.num_programs' op attribute 'axis' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative}}
  %0 = tile.num_programs -2
  return
}

//===----------------------------------------------------------------------===//
// tile.range
//===----------------------------------------------------------------------===//

// -----

func.func @range_rank2() {
  // expected-error @+1 {{'tile.range' op result must be a 1-d tile, got 'tensor<4x4xi32>'}}
  %0 = tile.range 0, 16 : tensor<4x4xi32>
  return
}

// -----

func.func @range_empty() {
  // expected-error @+1 {{'tile.range' op end (8) must be greater than start (8)}}
  %0 = tile.range 8, 8 : tensor<1xi32>
  return
}

// -----

func.func @range_reversed() {
  // expected-error @+1 {{'tile.range' op end (0) must be greater than start (16)}}
  %0 = tile.range 16, 0 : tensor<16xi32>
  return
}

// -----

func.func @range_length_not_power_of_two() {
  // expected-error @+1 {{'tile.range' op length end - start = 3 must be a power of two}}
  %0 = tile.range 0, 3 : tensor<4xi32>
  return
}

// -----

func.func @range_length_mismatch() {
  // expected-error @+1 {{'tile.range' op result has 64 elements but the range holds 128}}
  %0 = tile.range 0, 128 : tensor<64xi32>
  return
}

// -----

func.func @range_element_type() {
  // expected-error @+1 {{'tile.range' op result #0 must be ranked tensor of 32-bit signless integer values, but got 'tensor<16xi64>'}}
  %0 = tile.range 0, 16 : tensor<16xi64>
  return
}

//===----------------------------------------------------------------------===//
// tile.splat
//===----------------------------------------------------------------------===//

// -----

func.func @splat_element_type_mismatch(%x: i32) {
  // expected-error @+1 {{'tile.splat' op failed to verify that result element type is the scalar's type}}
  %0 = "tile.splat"(%x) : (i32) -> tensor<4xf32>
  return
}

// -----

func.func @splat_of_tensor(%x: tensor<4xf32>) {
  // expected-error @+1 {{'tile.splat' op operand #0 must be}}
  %0 = "tile.splat"(%x) : (tensor<4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @splat_index(%x: index) {
  // expected-error @+1 {{'tile.splat' op operand #0 must be}}
  %0 = tile.splat %x : tensor<4xindex>
  return
}

//===----------------------------------------------------------------------===//
// tile.broadcast
//===----------------------------------------------------------------------===//

// -----

func.func @broadcast_rank_mismatch(%x: tensor<128xf32>) {
  // expected-error @+1 {{'tile.broadcast' op source rank 1 differs from result rank 2; use tile.expand_dims first}}
  %0 = tile.broadcast %x : tensor<128xf32> -> tensor<64x128xf32>
  return
}

// -----

func.func @broadcast_non_unit_dim(%x: tensor<2x128xf32>) {
  // expected-error @+1 {{'tile.broadcast' op dimension 0 of size 2 cannot broadcast to 64 (only size-1 dimensions broadcast)}}
  %0 = tile.broadcast %x : tensor<2x128xf32> -> tensor<64x128xf32>
  return
}

// -----

func.func @broadcast_shrink(%x: tensor<1x128xf32>) {
  // expected-error @+1 {{'tile.broadcast' op dimension 1 of size 128 cannot broadcast to 64 (only size-1 dimensions broadcast)}}
  %0 = tile.broadcast %x : tensor<1x128xf32> -> tensor<4x64xf32>
  return
}

// -----

func.func @broadcast_element_type(%x: tensor<1x128xf32>) {
  // expected-error @+1 {{'tile.broadcast' op requires the same element type for all operands and results}}
  %0 = tile.broadcast %x : tensor<1x128xf32> -> tensor<4x128xf16>
  return
}

//===----------------------------------------------------------------------===//
// tile.expand_dims
//===----------------------------------------------------------------------===//

// -----

func.func @expand_dims_axis_out_of_range(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tile.expand_dims' op axis 3 is out of range for rank 3}}
  %0 = tile.expand_dims %x axis = 3 : tensor<4x8xf32> -> tensor<4x8x1xf32>
  return
}

// -----

func.func @expand_dims_wrong_result(%x: tensor<64xf32>) {
  // expected-error @+1 {{'tile.expand_dims' op result type 'tensor<1x64xf32>' must be 'tensor<64xf32>' with a size-1 dimension inserted at axis 1}}
  %0 = tile.expand_dims %x axis = 1 : tensor<64xf32> -> tensor<1x64xf32>
  return
}

// -----

func.func @expand_dims_non_unit(%x: tensor<64xf32>) {
  // expected-error @+1 {{'tile.expand_dims' op result type 'tensor<64x2xf32>' must be 'tensor<64xf32>' with a size-1 dimension inserted at axis 1}}
  %0 = tile.expand_dims %x axis = 1 : tensor<64xf32> -> tensor<64x2xf32>
  return
}

// -----

func.func @expand_dims_negative_axis(%x: tensor<64xf32>) {
  // expected-error @+1 {{'tile.expand_dims' op attribute 'axis' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative}}
  %0 = tile.expand_dims %x axis = -1 : tensor<64xf32> -> tensor<64x1xf32>
  return
}

// -----

func.func @expand_dims_element_type(%x: tensor<64xf32>) {
  // expected-error @+1 {{'tile.expand_dims' op requires the same element type for all operands and results}}
  %0 = tile.expand_dims %x axis = 0 : tensor<64xf32> -> tensor<1x64xi32>
  return
}

//===----------------------------------------------------------------------===//
// tile.reshape
//===----------------------------------------------------------------------===//

// -----

func.func @reshape_size_mismatch(%x: tensor<4x32xf32>) {
  // expected-error @+1 {{'tile.reshape' op source has 128 elements but result has 64}}
  %0 = tile.reshape %x : tensor<4x32xf32> -> tensor<64xf32>
  return
}

// -----

func.func @reshape_element_type(%x: tensor<4x32xf32>) {
  // expected-error @+1 {{'tile.reshape' op requires the same element type for all operands and results}}
  %0 = tile.reshape %x : tensor<4x32xf32> -> tensor<128xi32>
  return
}

//===----------------------------------------------------------------------===//
// tile.trans
//===----------------------------------------------------------------------===//

// -----

func.func @trans_order_size(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.trans' op order has 1 entries for a tile of rank 2}}
  %0 = tile.trans %x order = [0] : tensor<16x32xf32> -> tensor<16x32xf32>
  return
}

// -----

func.func @trans_order_repeated(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.trans' op order must be a permutation of 0..1}}
  %0 = tile.trans %x order = [1, 1] : tensor<16x32xf32> -> tensor<32x32xf32>
  return
}

// -----

func.func @trans_order_out_of_range(%x: tensor<2x4x8xf32>) {
  // expected-error @+1 {{'tile.trans' op order must be a permutation of 0..2}}
  %0 = tile.trans %x order = [0, 3, 1] : tensor<2x4x8xf32> -> tensor<2x8x4xf32>
  return
}

// -----

func.func @trans_order_negative(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.trans' op order must be a permutation of 0..1}}
  %0 = tile.trans %x order = [-1, 0] : tensor<16x32xf32> -> tensor<32x16xf32>
  return
}

// -----

func.func @trans_wrong_result(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.trans' op result dimension 0 is 16 but source dimension 1 is 32}}
  %0 = tile.trans %x order = [1, 0] : tensor<16x32xf32> -> tensor<16x32xf32>
  return
}

// -----

func.func @trans_element_type(%x: tensor<16x32xf32>) {
  // expected-error @+1 {{'tile.trans' op requires the same element type for all operands and results}}
  %0 = tile.trans %x order = [1, 0] : tensor<16x32xf32> -> tensor<32x16xf16>
  return
}

//===----------------------------------------------------------------------===//
// tile.addptr
//===----------------------------------------------------------------------===//

// -----

func.func @addptr_scalar_ptr_tensor_offset(%p: !tile.ptr<f32>, %o: tensor<4xi32>) {
  // expected-error @+1 {{'tile.addptr' op a scalar pointer takes a scalar offset, got 'tensor<4xi32>'}}
  %0 = tile.addptr %p, %o : !tile.ptr<f32>, tensor<4xi32>
  return
}

// -----

func.func @addptr_shape_mismatch(%p: tensor<128x!tile.ptr<f32>>, %o: tensor<64xi32>) {
  // expected-error @+1 {{'tile.addptr' op offset shape 'tensor<64xi32>' differs from pointer shape 'tensor<128x!tile.ptr<f32>>'}}
  %0 = tile.addptr %p, %o : tensor<128x!tile.ptr<f32>>, tensor<64xi32>
  return
}

// -----

func.func @addptr_tensor_ptr_scalar_offset(%p: tensor<128x!tile.ptr<f32>>, %o: i32) {
  // expected-error @+1 {{'tile.addptr' op a tile of pointers takes a tile of offsets of the same shape; splat 'i32' first}}
  %0 = tile.addptr %p, %o : tensor<128x!tile.ptr<f32>>, i32
  return
}

// -----

func.func @addptr_not_a_pointer(%x: f32, %o: i32) {
  // expected-error @+1 {{'tile.addptr' op operand #0 must be tile pointer or ranked tensor of tile pointer values, but got 'f32'}}
  %0 = "tile.addptr"(%x, %o) : (f32, i32) -> f32
  return
}

// -----

func.func @addptr_float_offset(%p: !tile.ptr<f32>, %o: f32) {
  // expected-error @+1 {{'tile.addptr' op operand #1 must be}}
  %0 = tile.addptr %p, %o : !tile.ptr<f32>, f32
  return
}

// -----

func.func @addptr_result_type(%p: !tile.ptr<f32>, %o: i32) {
  // expected-error @+1 {{'tile.addptr' op failed to verify that all of {ptr, result} have same type}}
  %0 = "tile.addptr"(%p, %o) : (!tile.ptr<f32>, i32) -> !tile.ptr<f16>
  return
}

//===----------------------------------------------------------------------===//
// tile.load, tile.store
//===----------------------------------------------------------------------===//

// -----

func.func @load_other_without_mask(%p: tensor<128x!tile.ptr<f32>>, %o: tensor<128xf32>) {
  // expected-error @+1 {{'tile.load' op `other` requires a mask}}
  %0 = "tile.load"(%p, %o) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>) -> tensor<128xf32>
  return
}

// -----

func.func @load_mask_shape(%p: tensor<128x!tile.ptr<f32>>, %m: tensor<64xi1>) {
  // expected-error @+1 {{'tile.load' op failed to verify that mask is an i1 tile of the pointers' shape}}
  %0 = "tile.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<128x!tile.ptr<f32>>, tensor<64xi1>) -> tensor<128xf32>
  return
}

// -----

func.func @load_scalar_ptr_tensor_mask(%p: !tile.ptr<f32>, %m: tensor<1xi1>) {
  // expected-error @+1 {{'tile.load' op failed to verify that mask is an i1 tile of the pointers' shape}}
  %0 = "tile.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (!tile.ptr<f32>, tensor<1xi1>) -> f32
  return
}

// -----

func.func @load_mask_not_i1(%p: tensor<128x!tile.ptr<f32>>, %m: tensor<128xi8>) {
  // expected-error @+1 {{'tile.load' op operand #1 must be}}
  %0 = "tile.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<128x!tile.ptr<f32>>, tensor<128xi8>) -> tensor<128xf32>
  return
}

// -----

// expected-note @+1 {{prior use here}}
func.func @load_mask_type_in_custom_form(%p: tensor<128x!tile.ptr<f32>>, %m: tensor<64xi1>) {
  // The custom form takes the mask's type from the pointers'.
  // expected-error @+2 {{use of value '%m' expects different type than prior uses: 'tensor<128xi1>' vs 'tensor<64xi1>'}}
  // expected-note @+1 {{'%m' has shape [64] where [128] is needed (tile.reshape keeps the element count; tile.broadcast repeats dimensions of size 1)}}
  %0 = tile.load %p, %m : tensor<128x!tile.ptr<f32>>
  return
}

// -----

func.func @load_other_type(%p: tensor<128x!tile.ptr<f32>>, %m: tensor<128xi1>, %o: tensor<128xf16>) {
  // expected-error @+1 {{'tile.load' op failed to verify that `other` has the type of the result}}
  %0 = "tile.load"(%p, %m, %o) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<128x!tile.ptr<f32>>, tensor<128xi1>, tensor<128xf16>) -> tensor<128xf32>
  return
}

// -----

func.func @load_result_type(%p: tensor<128x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.load' op failed to verify that result has the pointee type and shape of the pointers}}
  %0 = "tile.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128x!tile.ptr<f32>>) -> tensor<64xf32>
  return
}

// -----

func.func @load_not_a_pointer(%p: tensor<128xf32>) {
  // expected-error @+1 {{'tile.load' op operand #0 must be tile pointer or ranked tensor of tile pointer values, but got 'tensor<128xf32>'}}
  %0 = "tile.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<128xf32>) -> tensor<128xf32>
  return
}

// -----

func.func @store_value_type(%p: tensor<128x!tile.ptr<f32>>, %v: tensor<128xf16>) {
  // expected-error @+1 {{'tile.store' op failed to verify that value has the pointee type and shape of the pointers}}
  "tile.store"(%p, %v) : (tensor<128x!tile.ptr<f32>>, tensor<128xf16>) -> ()
  return
}

// -----

func.func @store_value_shape(%p: tensor<128x!tile.ptr<f32>>, %v: tensor<64xf32>) {
  // expected-error @+1 {{'tile.store' op failed to verify that value has the pointee type and shape of the pointers}}
  "tile.store"(%p, %v) : (tensor<128x!tile.ptr<f32>>, tensor<64xf32>) -> ()
  return
}

// -----

func.func @store_mask_shape(%p: tensor<128x!tile.ptr<f32>>, %v: tensor<128xf32>, %m: tensor<2x64xi1>) {
  // expected-error @+1 {{'tile.store' op failed to verify that mask is an i1 tile of the pointers' shape}}
  "tile.store"(%p, %v, %m) : (tensor<128x!tile.ptr<f32>>, tensor<128xf32>, tensor<2x64xi1>) -> ()
  return
}

//===----------------------------------------------------------------------===//
// tile.make_block_ptr, tile.advance
//===----------------------------------------------------------------------===//

// -----

func.func @make_block_ptr_shape(%p: !tile.ptr<f32>, %n: i64, %o: i32) {
  // expected-error @+1 {{'tile.make_block_ptr' op shape has 1 entries for a block of rank 2}}
  %0 = tile.make_block_ptr %p, [%n], [%n, %n], [%o, %o] order = [1, 0] : !tile.block_ptr<tensor<16x64xf32>>
  return
}

// -----

func.func @make_block_ptr_strides(%p: !tile.ptr<f32>, %n: i64, %o: i32) {
  // expected-error @+1 {{'tile.make_block_ptr' op strides has 3 entries for a block of rank 2}}
  %0 = tile.make_block_ptr %p, [%n, %n], [%n, %n, %n], [%o, %o] order = [1, 0] : !tile.block_ptr<tensor<16x64xf32>>
  return
}

// -----

func.func @make_block_ptr_offsets(%p: !tile.ptr<f32>, %n: i64, %o: i32) {
  // expected-error @+1 {{'tile.make_block_ptr' op offsets has 0 entries for a block of rank 2}}
  %0 = tile.make_block_ptr %p, [%n, %n], [%n, %n], [] order = [1, 0] : !tile.block_ptr<tensor<16x64xf32>>
  return
}

// -----

func.func @make_block_ptr_order_size(%p: !tile.ptr<f32>, %n: i64, %o: i32) {
  // expected-error @+1 {{'tile.make_block_ptr' op order has 1 entries for a block of rank 2}}
  %0 = tile.make_block_ptr %p, [%n, %n], [%n, %n], [%o, %o] order = [0] : !tile.block_ptr<tensor<16x64xf32>>
  return
}

// -----

func.func @make_block_ptr_order_repeated(%p: !tile.ptr<f32>, %n: i64, %o: i32) {
  // expected-error @+1 {{'tile.make_block_ptr' op order must be a permutation of 0..1}}
  %0 = tile.make_block_ptr %p, [%n, %n], [%n, %n], [%o, %o] order = [0, 0] : !tile.block_ptr<tensor<16x64xf32>>
  return
}

// -----

func.func @make_block_ptr_order_out_of_range(%p: !tile.ptr<f32>, %n: i64, %o: i32) {
  // expected-error @+1 {{'tile.make_block_ptr' op order must be a permutation of 0..1}}
  %0 = tile.make_block_ptr %p, [%n, %n], [%n, %n], [%o, %o] order = [2, 0] : !tile.block_ptr<tensor<16x64xf32>>
  return
}

// -----

func.func @make_block_ptr_base_type(%p: !tile.ptr<f16>, %n: i64, %o: i32) {
  // expected-error @+1 {{'tile.make_block_ptr' op failed to verify that base points to the block's element type}}
  %0 = "tile.make_block_ptr"(%p, %n, %o) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>, order = array<i32: 0>}> : (!tile.ptr<f16>, i64, i32) -> !tile.block_ptr<tensor<16xf32>>
  return
}

// -----

// expected-note @+1 {{prior use here}}
func.func @make_block_ptr_i32_shape(%p: !tile.ptr<f32>, %n: i32, %o: i32) {
  // expected-error @+1 {{use of value '%n' expects different type than prior uses: 'i64' vs 'i32'}}
  %0 = tile.make_block_ptr %p, [%n], [%n], [%o] order = [0] : !tile.block_ptr<tensor<16xf32>>
  return
}

// -----

func.func @make_block_ptr_i64_offsets(%p: !tile.ptr<f32>, %n: i64) {
  // expected-error @+1 {{'tile.make_block_ptr' op operand #3 must be variadic of 32-bit signless integer, but got 'i64'}}
  %0 = "tile.make_block_ptr"(%p, %n, %n, %n) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>, order = array<i32: 0>}> : (!tile.ptr<f32>, i64, i64, i64) -> !tile.block_ptr<tensor<16xf32>>
  return
}

// -----

func.func @advance_offsets(%bp: !tile.block_ptr<tensor<16x64xf32>>, %o: i32) {
  // expected-error @+1 {{'tile.advance' op has 1 offsets for a block of rank 2}}
  %0 = tile.advance %bp, [%o] : !tile.block_ptr<tensor<16x64xf32>>
  return
}

// -----

func.func @advance_result_type(%bp: !tile.block_ptr<tensor<16x64xf32>>, %o: i32) {
  // expected-error @+1 {{'tile.advance' op failed to verify that all of {ptr, result} have same type}}
  %0 = "tile.advance"(%bp, %o, %o) : (!tile.block_ptr<tensor<16x64xf32>>, i32, i32) -> !tile.block_ptr<tensor<64x16xf32>>
  return
}

// -----

func.func @advance_not_block_ptr(%p: !tile.ptr<f32>, %o: i32) {
  // expected-error @+1 {{'tile.advance' op operand #0 must be tile block pointer, but got '!tile.ptr<f32>'}}
  %0 = "tile.advance"(%p, %o) : (!tile.ptr<f32>, i32) -> !tile.ptr<f32>
  return
}

//===----------------------------------------------------------------------===//
// tile.block_load, tile.block_store
//===----------------------------------------------------------------------===//

// -----

func.func @block_load_padding_int(%bp: !tile.block_ptr<tensor<16x64xi32>>) {
  // expected-error @+1 {{'tile.block_load' op padding 'nan' needs a floating-point block, got 'i32'}}
  %0 = tile.block_load %bp check = [0] padding = nan : !tile.block_ptr<tensor<16x64xi32>>
  return
}

// -----

func.func @block_load_neg_inf_int(%bp: !tile.block_ptr<tensor<16xi8>>) {
  // expected-error @+1 {{'tile.block_load' op padding 'neg_inf' needs a floating-point block, got 'i8'}}
  %0 = tile.block_load %bp padding = neg_inf : !tile.block_ptr<tensor<16xi8>>
  return
}

// -----

func.func @block_load_check_out_of_range(%bp: !tile.block_ptr<tensor<16x64xf32>>) {
  // expected-error @+1 {{'tile.block_load' op boundary-check dimension 2 is out of range for rank 2}}
  %0 = tile.block_load %bp check = [0, 2] : !tile.block_ptr<tensor<16x64xf32>>
  return
}

// -----

func.func @block_load_check_negative(%bp: !tile.block_ptr<tensor<16x64xf32>>) {
  // expected-error @+1 {{'tile.block_load' op boundary-check dimension -1 is out of range for rank 2}}
  %0 = tile.block_load %bp check = [-1] : !tile.block_ptr<tensor<16x64xf32>>
  return
}

// -----

func.func @block_load_check_twice(%bp: !tile.block_ptr<tensor<16x64xf32>>) {
  // expected-error @+1 {{'tile.block_load' op boundary-check dimension 1 is listed twice}}
  %0 = tile.block_load %bp check = [1, 0, 1] : !tile.block_ptr<tensor<16x64xf32>>
  return
}

// -----

func.func @block_load_result_type(%bp: !tile.block_ptr<tensor<16x64xf32>>) {
  // expected-error @+1 {{'tile.block_load' op failed to verify that result is the block's tensor type}}
  %0 = "tile.block_load"(%bp) : (!tile.block_ptr<tensor<16x64xf32>>) -> tensor<64x16xf32>
  return
}

// -----

func.func @block_store_check_out_of_range(%bp: !tile.block_ptr<tensor<16x64xf32>>, %v: tensor<16x64xf32>) {
  // expected-error @+1 {{'tile.block_store' op boundary-check dimension 5 is out of range for rank 2}}
  tile.block_store %bp, %v check = [5] : !tile.block_ptr<tensor<16x64xf32>>
  return
}

// -----

func.func @block_store_check_twice(%bp: !tile.block_ptr<tensor<16x64xf32>>, %v: tensor<16x64xf32>) {
  // expected-error @+1 {{'tile.block_store' op boundary-check dimension 0 is listed twice}}
  tile.block_store %bp, %v check = [0, 0] : !tile.block_ptr<tensor<16x64xf32>>
  return
}

// -----

func.func @block_store_value_type(%bp: !tile.block_ptr<tensor<16x64xf32>>, %v: tensor<16x64xf16>) {
  // expected-error @+1 {{'tile.block_store' op failed to verify that value is the block's tensor type}}
  "tile.block_store"(%bp, %v) : (!tile.block_ptr<tensor<16x64xf32>>, tensor<16x64xf16>) -> ()
  return
}

//===----------------------------------------------------------------------===//
// tile.reduce
//===----------------------------------------------------------------------===//

// -----

func.func @reduce_axis_out_of_range(%x: tensor<64x128xf32>) {
  // expected-error @+1 {{'tile.reduce' op axis 2 is out of range for rank 2}}
  %0 = tile.reduce sum %x axis = 2 : tensor<64x128xf32> -> tensor<64xf32>
  return
}

// -----

func.func @reduce_rank0(%x: tensor<f32>) {
  // expected-error @+1 {{'tile.reduce' op axis 0 is out of range for rank 0}}
  %0 = tile.reduce sum %x axis = 0 : tensor<f32> -> f32
  return
}

// -----

func.func @reduce_pointers(%x: tensor<4x4x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.reduce' op cannot reduce a tile of '!tile.ptr<f32>'}}
  %0 = tile.reduce max %x axis = 0 : tensor<4x4x!tile.ptr<f32>> -> tensor<4x!tile.ptr<f32>>
  return
}

// -----

func.func @reduce_wrong_axis_dropped(%x: tensor<64x128xf32>) {
  // expected-error @+1 {{'tile.reduce' op reducing 'tensor<64x128xf32>' along axis 1 gives 'tensor<64xf32>', not 'tensor<128xf32>'}}
  %0 = tile.reduce max %x axis = 1 : tensor<64x128xf32> -> tensor<128xf32>
  return
}

// -----

func.func @reduce_1d_to_tensor(%x: tensor<128xf32>) {
  // expected-error @+1 {{'tile.reduce' op reducing 'tensor<128xf32>' along axis 0 gives 'f32', not 'tensor<1xf32>'}}
  %0 = tile.reduce sum %x axis = 0 : tensor<128xf32> -> tensor<1xf32>
  return
}

// -----

func.func @reduce_element_type(%x: tensor<128xf32>) {
  // expected-error @+1 {{'tile.reduce' op reducing 'tensor<128xf32>' along axis 0 gives 'f32', not 'f16'}}
  %0 = tile.reduce sum %x axis = 0 : tensor<128xf32> -> f16
  return
}

// -----

// A combiner region comes with 'custom' only, and 'custom' needs one.
func.func @reduce_custom_without_region(%x: tensor<64x128xf32>) {
  // expected-error @+1 {{'tile.reduce' op 'custom' needs a combiner region: { ^bb0(%a: f32, %b: f32): ... tile.yield %c : f32 }}}
  %0 = tile.reduce custom %x axis = 1 : tensor<64x128xf32> -> tensor<64xf32>
  return
}

// -----

func.func @reduce_region_with_builtin_kind(%x: tensor<64x128xf32>) {
  // expected-error @+1 {{'tile.reduce' op has a combiner region, which only 'custom' takes; sum combines by itself}}
  %0 = tile.reduce sum %x axis = 1 : tensor<64x128xf32> -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    tile.yield %a : f32
  }
  return
}

// -----

func.func @combiner_argument_types(%x: tensor<64x128xf32>) {
  // expected-error @+1 {{'tile.reduce' op the combiner takes two arguments of the element type 'f32', got ('f16', 'f16')}}
  %0 = tile.reduce custom %x axis = 1 : tensor<64x128xf32> -> tensor<64xf32> {
  ^bb0(%a: f16, %b: f16):
    %c = arith.extf %a : f16 to f32
    tile.yield %c : f32
  }
  return
}

// -----

func.func @combiner_yield_type(%x: tensor<128xi32>) {
  %0 = tile.scan custom %x axis = 0 : tensor<128xi32> {
  ^bb0(%a: i32, %b: i32):
    %c = arith.cmpi slt, %a, %b : i32
    // expected-error @+1 {{'tile.yield' op must yield one value of the element type 'i32', got ('i1')}}
    tile.yield %c : i1
  }
  return
}

// -----

func.func @combiner_tile_op(%x: tensor<128xf32>) {
  %0 = tile.scan custom %x axis = 0 : tensor<128xf32> {
  ^bb0(%a: f32, %b: f32):
    // expected-error @+1 {{'tile.splat' op cannot be used in a combiner, which takes arith and math ops on scalars}}
    %t = tile.splat %a : tensor<4xf32>
    tile.yield %a : f32
  }
  return
}

// -----

func.func @combiner_tensor_value(%x: tensor<128xf32>) {
  %0 = tile.scan custom %x axis = 0 : tensor<128xf32> {
  ^bb0(%a: f32, %b: f32):
    // expected-error @+1 {{'arith.constant' op in a combiner works on scalars, not 'tensor<4xf32>'}}
    %t = arith.constant dense<1.0> : tensor<4xf32>
    tile.yield %a : f32
  }
  return
}

// -----

func.func @combiner_outside_value(%x: tensor<128xf32>, %y: f32) {
  // expected-note @+1 {{required by region isolation constraints}}
  %0 = tile.scan custom %x axis = 0 : tensor<128xf32> {
  ^bb0(%a: f32, %b: f32):
    // expected-error @+1 {{'arith.addf' op using value defined outside the region}}
    %s = arith.addf %a, %y : f32
    tile.yield %s : f32
  }
  return
}

// -----

func.func @scan_argmax(%x: tensor<128xf32>) {
  // expected-error @+1 {{'tile.scan' op combines with sum, prod, max, min or custom, not argmax}}
  %0 = tile.scan argmax %x axis = 0 : tensor<128xf32>
  return
}

// -----

func.func @scan_axis(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tile.scan' op axis 2 is out of range for rank 2}}
  %0 = tile.scan sum %x axis = 2 : tensor<4x8xf32>
  return
}

// -----

func.func @yield_outside_combiner(%x: f32) {
  // expected-error @+1 {{'tile.yield' op expects parent op to be one of 'tile.reduce, tile.scan'}}
  tile.yield %x : f32
}

// -----

func.func @atomic_and_on_floats(%p: tensor<128x!tile.ptr<f32>>, %v: tensor<128xf32>) {
  // expected-error @+1 {{'tile.atomic_rmw' op 'and' takes elements of type i32, i64; not 'f32'}}
  %0 = tile.atomic_rmw and %p, %v : tensor<128x!tile.ptr<f32>>
  return
}

// -----

func.func @atomic_add_on_i8(%p: !tile.ptr<i8>, %v: i8) {
  // expected-error @+1 {{'tile.atomic_rmw' op 'add' takes elements of type f32, f16, bf16, f64, i32, i64; not 'i8'}}
  %0 = tile.atomic_rmw add %p, %v : !tile.ptr<i8>
  return
}

// -----

func.func @atomic_cas_on_floats(%p: !tile.ptr<f32>, %v: f32) {
  // expected-error @+1 {{'tile.atomic_cas' op takes i32 or i64 elements, not 'f32'}}
  %0 = tile.atomic_cas %p, %v, %v : !tile.ptr<f32>
  return
}

// -----

func.func @atomic_unknown_scope(%p: !tile.ptr<i32>, %v: i32) {
  // expected-error @+2 {{expected ::mlir::tile::MemoryScope to be one of: cta, gpu}}
  // expected-error @+1 {{failed to parse Tile_MemoryScopeAttr parameter 'value'}}
  %0 = tile.atomic_rmw add %p, %v scope = sys : !tile.ptr<i32>
  return
}

// -----

// A tile.readonly pointer argument is only read, however the pointer is
// passed on.
func.func @readonly_atomic(%p: !tile.ptr<f32> {tile.readonly}, %v: f32) attributes {tile.kernel} {
  %r = tile.range 0, 128 : tensor<128xi32>
  %ps = tile.splat %p : tensor<128x!tile.ptr<f32>>
  %ptrs = tile.addptr %ps, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %vs = tile.splat %v : tensor<128xf32>
  // expected-error @+1 {{'tile.atomic_rmw' writes through argument #0 of 'readonly_atomic', which is marked 'tile.readonly'}}
  %0 = tile.atomic_rmw add %ptrs, %vs : tensor<128x!tile.ptr<f32>>
  return
}

// -----

func.func @readonly_store_in_loop(%p: !tile.ptr<f32> {tile.readonly}, %v: f32, %n: i32) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%q = %p) -> (!tile.ptr<f32>) : i32 {
    %next = tile.addptr %q, %c1 : !tile.ptr<f32>, i32
    scf.yield %next : !tile.ptr<f32>
  }
  // expected-error @+1 {{'tile.store' writes through argument #0 of 'readonly_store_in_loop', which is marked 'tile.readonly'}}
  tile.store %last, %v : !tile.ptr<f32>
  return
}

// -----

// expected-error @+1 {{'tile.readonly' on argument #0 of type 'i32'; it marks pointer arguments}}
func.func @readonly_scalar(%n: i32 {tile.readonly}) attributes {tile.kernel} {
  return
}

// -----

// expected-error @+1 {{'tile.specialization' must be {kernel = "NAME", parameters = {NAME = i64 or bool, ...}} on a function}}
func.func @specialization_value(%x: !tile.ptr<f32>) attributes {tile.kernel, tile.specialization = {kernel = "k", parameters = {BLOCK = 1.5 : f32}}} {
  return
}

// -----

// argmax/argmin give positions (i32), whatever the elements are.
func.func @argmax_result_type(%x: tensor<64x128xf32>) {
  // expected-error @+1 {{'tile.reduce' op reducing 'tensor<64x128xf32>' along axis 1 gives 'tensor<64xi32>', not 'tensor<64xf32>'}}
  %0 = tile.reduce argmax %x axis = 1 : tensor<64x128xf32> -> tensor<64xf32>
  return
}

// -----

func.func @reduce_unknown_kind(%x: tensor<128xf32>) {
  // expected-error @+2 {{expected ::mlir::tile::ReduceKind to be one of: max, min, sum, prod, argmax, argmin}}
  // expected-error @+1 {{failed to parse Tile_ReduceKindAttr parameter 'value'}}
  %0 = tile.reduce mean %x axis = 0 : tensor<128xf32> -> f32
  return
}

//===----------------------------------------------------------------------===//
// tile.dot
//===----------------------------------------------------------------------===//

// -----

func.func @dot_rank(%a: tensor<64xf32>, %b: tensor<64x16xf32>, %c: tensor<64x16xf32>) {
  // expected-error @+1 {{'tile.dot' op operands must be 2-d tiles, got 'tensor<64xf32>', 'tensor<64x16xf32>' and 'tensor<64x16xf32>'}}
  %0 = tile.dot %a, %b, %c : tensor<64xf32>, tensor<64x16xf32> -> tensor<64x16xf32>
  return
}

// -----

func.func @dot_inner_dims(%a: tensor<64x32xf32>, %b: tensor<16x128xf32>, %c: tensor<64x128xf32>) {
  // expected-error @+1 {{'tile.dot' op inner dimensions differ: a is 'tensor<64x32xf32>' and b is 'tensor<16x128xf32>'}}
  %0 = tile.dot %a, %b, %c : tensor<64x32xf32>, tensor<16x128xf32> -> tensor<64x128xf32>
  return
}

// -----

func.func @dot_acc_shape(%a: tensor<64x32xf32>, %b: tensor<32x128xf32>, %c: tensor<128x64xf32>) {
  // expected-error @+1 {{'tile.dot' op accumulator 'tensor<128x64xf32>' must be 64x128}}
  %0 = tile.dot %a, %b, %c : tensor<64x32xf32>, tensor<32x128xf32> -> tensor<128x64xf32>
  return
}

// -----

func.func @dot_mixed_inputs(%a: tensor<16x16xf16>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op a and b element types differ: 'f16' vs 'f32'}}
  %0 = tile.dot %a, %b, %c : tensor<16x16xf16>, tensor<16x16xf32> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_int_inputs(%a: tensor<16x16xi8>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op operands must be f16, bf16 or f32, got 'i8'}}
  %0 = tile.dot %a, %a, %c : tensor<16x16xi8>, tensor<16x16xi8> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_f64_inputs(%a: tensor<16x16xf64>) {
  // expected-error @+1 {{'tile.dot' op operands must be f16, bf16 or f32, got 'f64'}}
  %0 = tile.dot %a, %a, %a : tensor<16x16xf64>, tensor<16x16xf64> -> tensor<16x16xf64>
  return
}

// -----

func.func @dot_bf16_acc(%a: tensor<16x16xbf16>) {
  // expected-error @+1 {{'tile.dot' op accumulator must be f32 (or f16 for f16 operands), got 'bf16'}}
  %0 = tile.dot %a, %a, %a : tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xbf16>
  return
}

// -----

func.func @dot_f16_acc_for_f32(%a: tensor<16x16xf32>, %c: tensor<16x16xf16>) {
  // expected-error @+1 {{'tile.dot' op accumulator must be f32 (or f16 for f16 operands), got 'f16'}}
  %0 = tile.dot %a, %a, %c : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf16>
  return
}

// -----

func.func @dot_tf32_on_f16(%a: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op precision 'tf32' applies to f32 operands only}}
  %0 = tile.dot %a, %a, %c precision = tf32 : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_tf32x3_on_bf16(%a: tensor<16x16xbf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op precision 'tf32x3' applies to f32 operands only}}
  %0 = tile.dot %a, %a, %c precision = tf32x3 : tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_result_type(%a: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op failed to verify that all of {acc, result} have same type}}
  %0 = "tile.dot"(%a, %a, %c) : (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x32xf32>
  return
}

// -----

func.func @dot_unknown_precision(%a: tensor<16x16xf32>) {
  // expected-error @+2 {{expected ::mlir::tile::InputPrecision to be one of: ieee, tf32, tf32x3}}
  // expected-error @+1 {{failed to parse Tile_InputPrecisionAttr parameter 'value'}}
  %0 = tile.dot %a, %a, %a precision = fp8 : tensor<16x16xf32>, tensor<16x16xf32> -> tensor<16x16xf32>
  return
}

//===----------------------------------------------------------------------===//
// tile.print
//===----------------------------------------------------------------------===//

// -----

func.func @print_index(%i: index) {
  // expected-error @+1 {{'tile.print' op operand #0 must be variadic of}}
  tile.print "i" %i : index
  return
}

// -----

func.func @print_prefix_not_string(%x: f32) {
  // expected-error @+1 {{invalid properties {prefix = 1 : i32} for op tile.print: Invalid attribute `prefix` in property conversion: 1 : i32}}
  "tile.print"(%x) <{prefix = 1 : i32}> : (f32) -> ()
  return
}

//===----------------------------------------------------------------------===//
// Kernel attributes (TileDialect::verifyOperationAttribute)
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{'tile.kernel' may only be attached to a func.func}}
module attributes {tile.kernel} {
}

// -----

// expected-error @+1 {{'tile.kernel' must be a unit attribute}}
func.func @kernel_not_unit() attributes {tile.kernel = true} {
  return
}

// -----

// expected-error @+1 {{tile kernel 'external' must have a body}}
func.func private @external(%p: !tile.ptr<f32>) attributes {tile.kernel}

// -----

// expected-error @+1 {{tile kernel 'returns' must not return values (write results through pointers)}}
func.func @returns(%x: i32) -> i32 attributes {tile.kernel} {
  return %x : i32
}

// -----

// expected-error @+1 {{tile kernel 'f16_arg' argument #1 has type 'f16'; kernel arguments are !tile.ptr<T>, i1, i32, i64, f32 or f64}}
func.func @f16_arg(%p: !tile.ptr<f16>, %x: f16) attributes {tile.kernel} {
  return
}

// -----

// expected-error @+1 {{tile kernel 'tensor_arg' argument #0 has type 'tensor<128xf32>'; kernel arguments are !tile.ptr<T>, i1, i32, i64, f32 or f64}}
func.func @tensor_arg(%x: tensor<128xf32>) attributes {tile.kernel} {
  return
}

// -----

// expected-error @+1 {{tile kernel 'i8_arg' argument #2 has type 'i8'}}
func.func @i8_arg(%a: i32, %b: i64, %c: i8) attributes {tile.kernel} {
  return
}

// -----

// expected-error @+1 {{tile kernel 'index_arg' argument #0 has type 'index'}}
func.func @index_arg(%a: index) attributes {tile.kernel} {
  return
}

// -----

// Tensors of other dialects' ops in a kernel are tiles too.
func.func @kernel_non_tile_constant() attributes {tile.kernel} {
  // expected-error @+1 {{'arith.constant' op result must be a tile with static power-of-two dimensions, got 'tensor<3xf32>'}}
  %0 = arith.constant dense<0.0> : tensor<3xf32>
  return
}

// -----

func.func @kernel_non_tile_in_loop(%n: i32) attributes {tile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    // expected-error @+1 {{'arith.constant' op result must be a tile with static power-of-two dimensions, got 'tensor<5xi32>'}}
    %0 = arith.constant dense<1> : tensor<5xi32>
  }
  return
}

// -----

// expected-error @+1 {{'func.func' op region argument must be a tile with static power-of-two dimensions, got 'tensor<3xf32>'}}
func.func @kernel_non_tile_block_argument() attributes {tile.kernel} {
  return
^bb1(%x: tensor<3xf32>):
  return
}

// -----

// expected-error @+1 {{'tile.num_warps' must be an integer}}
func.func @num_warps_string() attributes {tile.kernel, tile.num_warps = "four"} {
  return
}

// -----

// expected-error @+1 {{'tile.num_warps' must be a power of two from 1 to 32, got 3}}
func.func @num_warps_not_power_of_two() attributes {tile.kernel, tile.num_warps = 3 : i32} {
  return
}

// -----

// expected-error @+1 {{'tile.num_warps' must be a power of two from 1 to 32, got 64}}
func.func @num_warps_too_many() attributes {tile.kernel, tile.num_warps = 64 : i32} {
  return
}

// -----

// expected-error @+1 {{'tile.num_warps' must be a power of two from 1 to 32, got 0}}
func.func @num_warps_zero() attributes {tile.kernel, tile.num_warps = 0 : i32} {
  return
}

// -----

// expected-error @+1 {{'tile.num_warps' must be a power of two from 1 to 32, got -4}}
func.func @num_warps_negative() attributes {tile.kernel, tile.num_warps = -4 : i32} {
  return
}

// -----

// expected-error @+1 {{'tile.num_stages' must be an integer}}
func.func @num_stages_float() attributes {tile.kernel, tile.num_stages = 2.0 : f32} {
  return
}

// -----

// expected-error @+1 {{'tile.num_stages' must be from 1 to 8, got 0}}
func.func @num_stages_zero() attributes {tile.kernel, tile.num_stages = 0 : i32} {
  return
}

// -----

// expected-error @+1 {{'tile.num_stages' must be from 1 to 8, got 9}}
func.func @num_stages_too_many() attributes {tile.kernel, tile.num_stages = 9 : i32} {
  return
}

// -----

// expected-error @+1 {{unknown tile dialect attribute 'tile.kernal'}}
func.func @misspelled() attributes {tile.kernal} {
  return
}

//===----------------------------------------------------------------------===//
// Shared buffers and asynchronous copies
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{shared buffer rows must be multiples of 16 bytes with and without the pad, got 32 + 2 elements of 4 bytes}}
func.func @shared_bad_pad(%b: !tile.shared<tensor<64x32xf32>, stages = 2, pad = 2>)

// -----

// expected-error @+1 {{shared buffer stages must be 1 to 8, got 0}}
func.func @shared_no_stages(%b: !tile.shared<tensor<64x32xf32>, stages = 0, pad = 4>)

// -----

// expected-error @+1 {{shared buffer blocks must be 2-d with static power-of-two dimensions, got 'tensor<64xf32>'}}
func.func @shared_1d(%b: !tile.shared<tensor<64xf32>, stages = 2, pad = 4>)

// -----

// expected-error @+1 {{shared buffer element type must be f16, bf16, f32 or i32, got 'f64'}}
func.func @shared_f64(%b: !tile.shared<tensor<64x32xf64>, stages = 2, pad = 2>)

// -----

func.func @async_copy_wrong_block(%bp: !tile.block_ptr<tensor<64x32xf32>>, %s: i32) {
  %buf = tile.alloc_shared : !tile.shared<tensor<32x32xf32>, stages = 2, pad = 4>
  // expected-error @+1 {{'tile.async_copy' op copies a block of type 'tensor<64x32xf32>' into a buffer of blocks of type 'tensor<32x32xf32>'}}
  tile.async_copy %bp, %buf[%s] : !tile.block_ptr<tensor<64x32xf32>>, !tile.shared<tensor<32x32xf32>, stages = 2, pad = 4>
  return
}

// -----

func.func @local_load_wrong_type(%s: i32) {
  %buf = tile.alloc_shared : !tile.shared<tensor<32x32xf32>, stages = 2, pad = 4>
  // expected-error @+1 {{'tile.local_load' op reads a tile of type 'tensor<32x32xf16>' from a buffer of blocks of type 'tensor<32x32xf32>'}}
  %t = tile.local_load %buf[%s] : !tile.shared<tensor<32x32xf32>, stages = 2, pad = 4> -> tensor<32x32xf16>
  return
}

// -----

func.func @local_store_wrong_type(%s: i32, %t: tensor<32x32xf16>) {
  %buf = tile.alloc_shared : !tile.shared<tensor<32x32xf32>, stages = 2, pad = 4>
  // expected-error @+1 {{'tile.local_store' op writes a tile of type 'tensor<32x32xf16>' into a buffer of blocks of type 'tensor<32x32xf32>'}}
  tile.local_store %t, %buf[%s] : tensor<32x32xf16>, !tile.shared<tensor<32x32xf32>, stages = 2, pad = 4>
  return
}

// -----

// expected-error @+1 {{'tile.async_wait' op attribute 'pending' failed to satisfy constraint}}
"tile.async_wait"() {pending = -1 : i32} : () -> ()

// -----

// expected-error @+1 {{'tile.min_programs_per_sm' must be from 0 to 32, got -1}}
func.func @min_programs_negative() attributes {tile.kernel, tile.min_programs_per_sm = -1 : i32} {
  return
}

// -----

// expected-error @+1 {{'tile.min_programs_per_sm' may only be attached to a function}}
"tile.async_commit"() {tile.min_programs_per_sm = 2 : i32} : () -> ()

//===----------------------------------------------------------------------===//
// Clusters
//===----------------------------------------------------------------------===//

// -----

func.func @cluster_reduce_prod(%x: f32) attributes {tile.kernel, tile.cluster_size = 2 : i32} {
  // expected-error @+1 {{'tile.cluster_reduce' op combines with max, min or sum, not prod}}
  %r = tile.cluster_reduce prod %x : f32
  return
}

// -----

func.func @cluster_reduce_without_clusters(%x: f32) -> f32 {
  // expected-error @+1 {{'tile.cluster_reduce' op needs a kernel with 'tile.cluster_size' (the programs it combines over)}}
  %r = tile.cluster_reduce max %x : f32
  return %r : f32
}

// -----

func.func @cluster_reduce_f16(%x: f16) -> f16 attributes {tile.cluster_size = 2 : i32} {
  // expected-error @+1 {{'tile.cluster_reduce' op operand #0 must be 32-bit float or 32-bit signless integer, but got 'f16'}}
  %r = tile.cluster_reduce max %x : f16
  return %r : f16
}

// -----

func.func @cluster_gather_wrong_size(%x: f32) -> tensor<8xf32>
    attributes {tile.cluster_size = 4 : i32} {
  // expected-error @+1 {{'tile.cluster_gather' op result #0 must be 'tensor<4xf32>' (one element per program of the cluster), got 'tensor<8xf32>'}}
  %r = tile.cluster_gather %x : f32 -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

func.func @cluster_gather_wrong_type(%x: f32, %n: i32) -> (tensor<2xf32>, tensor<2xf32>)
    attributes {tile.cluster_size = 2 : i32} {
  // expected-error @+1 {{'tile.cluster_gather' op result #1 must be 'tensor<2xi32>' (one element per program of the cluster), got 'tensor<2xf32>'}}
  %r:2 = tile.cluster_gather %x, %n : f32, i32 -> tensor<2xf32>, tensor<2xf32>
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xf32>
}

// -----

func.func @cluster_gather_count(%x: f32) -> (tensor<2xf32>, tensor<2xf32>)
    attributes {tile.cluster_size = 2 : i32} {
  // expected-error @+1 {{'tile.cluster_gather' op has 1 values but 2 results}}
  %r:2 = tile.cluster_gather %x : f32 -> tensor<2xf32>, tensor<2xf32>
  return %r#0, %r#1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// expected-error @+1 {{'tile.cluster_size' must be 1, 2, 4, 8 or 16, got 3}}
func.func @cluster_size_three() attributes {tile.cluster_size = 3 : i32} {
  return
}

// -----

// expected-error @+1 {{'tile.cluster_size' must be 1, 2, 4, 8 or 16, got 32}}
func.func @cluster_size_thirty_two() attributes {tile.cluster_size = 32 : i32} {
  return
}

// -----

func.func @tma_copy_i32(%bp: !tile.block_ptr<tensor<64x32xi32>>, %map: !tile.tensormap, %s: i32, %p: i1) {
  %buf = tile.alloc_shared : !tile.shared<tensor<64x32xi32>, stages = 2, pad = 4>
  %bars = tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 1>
  // expected-error @+1 {{'tile.tma_copy' op copies f16, bf16 or f32 blocks only, got 'i32'}}
  tile.tma_copy %bp, %buf[%s] map %map, %bars if %p : !tile.block_ptr<tensor<64x32xi32>>, !tile.shared<tensor<64x32xi32>, stages = 2, pad = 4>, !tile.mbarriers<2, arrivals = 1>
  return
}

// -----

func.func @tma_copy_barrier_count(%bp: !tile.block_ptr<tensor<64x32xf16>>, %map: !tile.tensormap, %s: i32, %p: i1) {
  %buf = tile.alloc_shared : !tile.shared<tensor<64x32xf16>, stages = 3, pad = 8>
  %bars = tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 1>
  // expected-error @+1 {{'tile.tma_copy' op needs one barrier per stage: 3 stages, 2 barriers}}
  tile.tma_copy %bp, %buf[%s] map %map, %bars if %p : !tile.block_ptr<tensor<64x32xf16>>, !tile.shared<tensor<64x32xf16>, stages = 3, pad = 8>, !tile.mbarriers<2, arrivals = 1>
  return
}

// -----

func.func @tma_multicast_no_cluster(%bp: !tile.block_ptr<tensor<64x32xf16>>, %map: !tile.tensormap, %s: i32, %p: i1)
{
  %buf = tile.alloc_shared : !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8>
  %bars = tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 1>
  // expected-error @+1 {{'tile.tma_copy' op needs a kernel with 'tile.cluster_size' (the programs it combines over)}}
  tile.tma_copy %bp, %buf[%s] map %map, %bars if %p multicast 2 : !tile.block_ptr<tensor<64x32xf16>>, !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8>, !tile.mbarriers<2, arrivals = 1>
  return
}

// -----

func.func @tma_multicast_other_cluster(%bp: !tile.block_ptr<tensor<64x32xf16>>, %map: !tile.tensormap, %s: i32, %p: i1)
    attributes {tile.cluster_size = 4 : i32} {
  %buf = tile.alloc_shared : !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8>
  %bars = tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 1>
  // expected-error @+1 {{'tile.tma_copy' op multicasts to 2 programs, but the kernel's clusters have 4}}
  tile.tma_copy %bp, %buf[%s] map %map, %bars if %p multicast 2 : !tile.block_ptr<tensor<64x32xf16>>, !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8>, !tile.mbarriers<2, arrivals = 1>
  return
}

// -----

func.func @tma_multicast_rows(%bp: !tile.block_ptr<tensor<8x32xf16>>, %map: !tile.tensormap, %s: i32, %p: i1)
    attributes {tile.cluster_size = 16 : i32} {
  %buf = tile.alloc_shared : !tile.shared<tensor<8x32xf16>, stages = 2, pad = 8>
  %bars = tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 1>
  // expected-error @+1 {{'tile.tma_copy' op splits a block of 8 rows into 16 parts, which does not divide it}}
  tile.tma_copy %bp, %buf[%s] map %map, %bars if %p multicast 16 : !tile.block_ptr<tensor<8x32xf16>>, !tile.shared<tensor<8x32xf16>, stages = 2, pad = 8>, !tile.mbarriers<2, arrivals = 1>
  return
}

// -----

func.func @mbarrier_arrive_cluster_no_cluster(%s: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %bars = tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 4>
  // expected-error @+1 {{'tile.mbarrier_arrive' op needs a kernel with 'tile.cluster_size' (the programs it combines over)}}
  tile.mbarrier_arrive %bars[%s] cluster : !tile.mbarriers<2, arrivals = 4>
  return
}

// -----

func.func @tma_copy_wrong_block(%bp: !tile.block_ptr<tensor<64x32xf16>>, %map: !tile.tensormap, %s: i32, %p: i1) {
  %buf = tile.alloc_shared : !tile.shared<tensor<32x32xf16>, stages = 2, pad = 8>
  %bars = tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 1>
  // expected-error @+1 {{'tile.tma_copy' op copies a block of type 'tensor<64x32xf16>' into a buffer of blocks of type 'tensor<32x32xf16>'}}
  tile.tma_copy %bp, %buf[%s] map %map, %bars if %p : !tile.block_ptr<tensor<64x32xf16>>, !tile.shared<tensor<32x32xf16>, stages = 2, pad = 8>, !tile.mbarriers<2, arrivals = 1>
  return
}

// -----

func.func @tma_prefetch_leading(%bp: !tile.block_ptr<tensor<2x64x32xf16>>, %map: !tile.tensormap, %p: i1) {
  // expected-error @+1 {{'tile.tma_prefetch' op copies a block of type 'tensor<2x64x32xf16>', which is not 1 along its leading dimensions}}
  tile.tma_prefetch %bp map %map if %p : !tile.block_ptr<tensor<2x64x32xf16>>
  return
}

// -----

func.func @tma_prefetch_i8(%bp: !tile.block_ptr<tensor<64x32xi8>>, %map: !tile.tensormap, %p: i1) {
  // expected-error @+1 {{'tile.tma_prefetch' op copies f16, bf16 or f32 blocks only, got 'i8'}}
  tile.tma_prefetch %bp map %map if %p : !tile.block_ptr<tensor<64x32xi8>>
  return
}

// -----

func.func @tma_store_shape(%bp: !tile.block_ptr<tensor<1x1x64x64xf16>>, %map: !tile.tensormap, %s: i32) {
  %buf = tile.alloc_shared : !tile.shared<tensor<128x64xf16>, stages = 2, pad = 8>
  // expected-error @+1 {{'tile.tma_store' op copies a buffer of blocks of type 'tensor<128x64xf16>' to a block of type 'tensor<1x1x64x64xf16>'}}
  tile.tma_store %buf[%s], %bp map %map : !tile.shared<tensor<128x64xf16>, stages = 2, pad = 8>, !tile.block_ptr<tensor<1x1x64x64xf16>>
  return
}

// -----

func.func @tma_store_leading(%bp: !tile.block_ptr<tensor<2x64x32xf16>>, %map: !tile.tensormap, %s: i32) {
  %buf = tile.alloc_shared : !tile.shared<tensor<64x32xf16>, stages = 1, pad = 8>
  // expected-error @+1 {{'tile.tma_store' op copies a block of type 'tensor<2x64x32xf16>', which is not 1 along its leading dimensions}}
  tile.tma_store %buf[%s], %bp map %map : !tile.shared<tensor<64x32xf16>, stages = 1, pad = 8>, !tile.block_ptr<tensor<2x64x32xf16>>
  return
}

// -----

func.func @mbarriers_zero() {
  // expected-error @+1 {{mbarriers count must be 1 to 8, got 0}}
  %bars = tile.alloc_mbarriers : !tile.mbarriers<0, arrivals = 1>
  return
}

// -----

func.func @mbarriers_no_arrivals() {
  // expected-error @+1 {{mbarriers arrivals must be 1 to 2^20 - 1, got 0}}
  %bars = tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 0>
  return
}

// -----

// expected-error @+1 {{tile kernel 'map_without_array' argument #1 (!tile.tensormap) needs a 'tile.tma' dictionary naming its array}}
func.func @map_without_array(%a: !tile.ptr<f16>, %map: !tile.tensormap)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  return
}

// -----

// expected-error @+1 {{tile kernel 'map_base_not_pointer' argument #1 (!tile.tensormap) must name an earlier pointer argument as its base}}
func.func @map_base_not_pointer(%n: i32, %map: !tile.tensormap {tile.tma = {base = 0 : i64, shape = ["arg0", "64"], strides = ["64", "1"]}})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  return
}

// -----

// expected-error @+1 {{tile kernel 'map_bad_shape' argument #1 (!tile.tensormap) needs 'shape' as two strings ("argN" or a constant)}}
func.func @map_bad_shape(%a: !tile.ptr<f16>, %map: !tile.tensormap {tile.tma = {base = 0 : i64, shape = ["64"], strides = ["64", "1"]}})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  return
}

// -----

// expected-error @+1 {{tile kernel 'arg_after_map' argument #2 follows a !tile.tensormap; tensor maps come last}}
func.func @arg_after_map(%a: !tile.ptr<f16>, %map: !tile.tensormap {tile.tma = {base = 0 : i64, shape = ["64", "64"], strides = ["64", "1"]}}, %n: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  return
}

// -----

// expected-error @+1 {{'tile.tma' must be a unit attribute of a function}}
func.func @tma_not_unit() attributes {tile.tma = 1 : i32} {
  return
}

// -----

// expected-error @+1 {{tile kernel 'map_bad_batch' argument #1 (!tile.tensormap) needs 'batch' as one to three pairs of strings ("argN" or a constant)}}
func.func @map_bad_batch(%a: !tile.ptr<f16>, %map: !tile.tensormap {tile.tma = {base = 0 : i64, shape = ["64", "64"], strides = ["64", "1"], batch = ["4096"]}})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  return
}

// -----

func.func @assert_not_i1(%x: tensor<64xi32>) {
  // expected-error @+1 {{'tile.assert' op takes an i1 condition or a tile of i1, not 'tensor<64xi32>'}}
  tile.assert %x, "nonzero" : tensor<64xi32>
  return
}
