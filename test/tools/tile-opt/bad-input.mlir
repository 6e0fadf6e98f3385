// Bad input gives a diagnostic with file:line:col and a non-zero exit, never
// a crash. Each split below is one mistake and must give exactly one error
// (at most with notes).
//
// RUN: not tile-opt %s -split-input-file -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error: \
// RUN:       --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"

// Malformed IR: a missing operand.
func.func @missing_axis() {
  // CHECK: bad-input.mlir:[[@LINE+1]]:23: error: expected attribute value
  %0 = tile.program_id
  return
}

// -----

// Malformed IR: a missing comma.
func.func @missing_comma() {
  // CHECK: bad-input.mlir:[[@LINE+1]]:20: error: expected ','
  %0 = tile.range 0 128 : tensor<128xi32>
  return
}

// -----

// Malformed IR: a missing type.
func.func @missing_type(%p: !tile.ptr<f32>) {
  // CHECK: bad-input.mlir:[[@LINE+1]]:20: error: expected ':'
  %0 = tile.load %p
  return
}

// -----

// Unknown op of the tile dialect, custom form.
func.func @unknown_op(%x: tensor<4xf32>) {
  // CHECK: bad-input.mlir:[[@LINE+1]]:8: error: custom op 'tile.exp' is unknown
  %0 = tile.exp %x : tensor<4xf32>
  return
}

// -----

// Unknown op of the tile dialect, generic form.
func.func @unknown_generic_op(%x: tensor<4xf32>) {
  // CHECK: bad-input.mlir:[[@LINE+1]]:8: error: unregistered operation 'tile.exp' found in dialect ('tile') that does not allow unknown operations
  %0 = "tile.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// Op of a dialect tile-opt does not know.
func.func @unknown_dialect(%x: tensor<4xf32>) {
  // CHECK: bad-input.mlir:[[@LINE+2]]:8: error: Dialect `triton' not found for custom op 'triton.exp'
  // CHECK: note: Available dialects: {{.*}}tile
  %0 = triton.exp %x : tensor<4xf32>
  return
}

// -----

// Unknown tile type.
// CHECK: bad-input.mlir:[[@LINE+1]]:35: error: unknown {{ *}}type `tensor` in dialect `tile`
func.func @unknown_type(%x: !tile.tensor<4xf32>) {
  return
}

// -----

// Unknown tile attribute.
// CHECK: bad-input.mlir:[[@LINE+1]]:54: error: unknown attribute `layout` in dialect `tile`
func.func @unknown_attribute() attributes {a = #tile.layout<blocked>} {
  return
}

// -----

// Invalid parameter of a tile type.
// CHECK: bad-input.mlir:[[@LINE+1]]:37: error: pointee type must be f16, bf16, f32, f64 or a signless integer of 1 to 64 bits, got 'i7'
func.func @bad_pointee(%p: !tile.ptr<i7>) {
  return
}

// -----

// Unknown enum keyword. (The ODS-generated enum parser reports the keyword,
// then the attribute: two errors on the same line.)
func.func @unknown_reduce_kind(%x: tensor<128xf32>) {
  // CHECK: bad-input.mlir:[[@LINE+2]]:20: error: custom op 'tile.reduce' expected ::mlir::tile::ReduceKind to be one of: max, min, sum, prod, argmax, argmin
  // CHECK: bad-input.mlir:[[@LINE+1]]:25: error: custom op 'tile.reduce' failed to parse Tile_ReduceKindAttr parameter 'value'
  %0 = tile.reduce mean %x axis = 0 : tensor<128xf32> -> f32
  return
}

// -----

// Type error: an SSA value used with another type.
// CHECK: bad-input.mlir:[[@LINE+3]]:23: error: use of value '%y' expects different type than prior uses: 'tensor<128xf32>' vs 'tensor<64xf32>'
// CHECK: bad-input.mlir:[[@LINE+1]]:47: note: prior use here
func.func @type_mismatch(%x: tensor<128xf32>, %y: tensor<64xf32>) -> tensor<128xf32> {
  %0 = arith.addf %x, %y : tensor<128xf32>
  return %0 : tensor<128xf32>
}

// -----

// Type error: loading through something that is not a pointer.
func.func @load_non_pointer(%x: tensor<128xf32>) {
  // CHECK: bad-input.mlir:[[@LINE+1]]:8: error: custom op 'tile.load' 'ptr' must be tile pointer or ranked tensor of tile pointer values, but got 'tensor<128xf32>'
  %0 = tile.load %x : tensor<128xf32>
  return
}

// -----

// Type error caught by a verifier.
func.func @dot_shapes(%a: tensor<64x32xf32>, %b: tensor<16x128xf32>, %c: tensor<64x128xf32>) {
  // CHECK: bad-input.mlir:[[@LINE+2]]:8: error: 'tile.dot' op inner dimensions differ: a is 'tensor<64x32xf32>' and b is 'tensor<16x128xf32>'
  // CHECK: note: see current operation
  %0 = tile.dot %a, %b, %c : tensor<64x32xf32>, tensor<16x128xf32> -> tensor<64x128xf32>
  return
}

// -----

// Tiles are powers of two.
func.func @not_power_of_two(%x: f32) {
  // CHECK: bad-input.mlir:[[@LINE+2]]:8: error: 'tile.splat' op result #0 must be a tile with static power-of-two dimensions, got 'tensor<100xf32>'
  // CHECK: note: see current operation
  %0 = tile.splat %x : tensor<100xf32>
  return
}

// -----

// Undefined value.
func.func @undefined() -> i32 {
  // CHECK: bad-input.mlir:[[@LINE+1]]:10: error: use of undeclared SSA value name
  return %undefined : i32
}

// -----

// Bad kernel attribute.
// CHECK: bad-input.mlir:[[@LINE+2]]:1: error: 'tile.num_warps' must be a power of two from 1 to 32, got 6
// CHECK: note: see current operation
func.func @kernel(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 6 : i32} {
  return
}
