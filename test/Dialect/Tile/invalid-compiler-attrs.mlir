// The attributes the compiler's passes record for later ones (the bytes of
// shared memory a kernel needs, where its buffers lie, their swizzled
// layouts, the dots lowered to wgmma) are dialect attributes whose values
// the dialect verifies: the lowering trusts them.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'tile.shared_bytes' must be a non-negative integer}}
func.func @shared_bytes_negative() attributes {tile.shared_bytes = -16 : i64} {
  return
}

// -----

// expected-error @+1 {{'tile.shared_bytes' must be a non-negative integer}}
func.func @shared_bytes_not_integer() attributes {tile.shared_bytes = "1024"} {
  return
}

// -----

func.func @shared_offset_negative() {
  // expected-error @+1 {{'tile.shared_offset' must be a non-negative integer}}
  %buf = "tile.alloc_shared"() {tile.shared_offset = -128 : i64} : () -> !tile.shared<tensor<16x8xf16>, stages = 1, pad = 8>
  return
}

// -----

func.func @shared_offset_not_integer() {
  // expected-error @+1 {{'tile.shared_offset' must be a non-negative integer}}
  %buf = "tile.alloc_shared"() {tile.shared_offset = 1.0 : f32} : () -> !tile.shared<tensor<16x8xf16>, stages = 1, pad = 8>
  return
}

// -----

func.func @swizzle_bytes_not_a_mode() {
  // expected-error @+1 {{'tile.swizzle_bytes' must be 0, 32, 64 or 128, got 16}}
  %buf = "tile.alloc_shared"() {tile.swizzle_bytes = 16 : i64} : () -> !tile.shared<tensor<64x64xf16>, stages = 2, pad = 0>
  return
}

// -----

func.func @swizzle_bytes_negative() {
  // expected-error @+1 {{'tile.swizzle_bytes' must be 0, 32, 64 or 128, got -128}}
  %buf = "tile.alloc_shared"() {tile.swizzle_bytes = -128 : i64} : () -> !tile.shared<tensor<64x64xf16>, stages = 2, pad = 0>
  return
}

// -----

func.func @swizzle_bytes_not_integer() {
  // expected-error @+1 {{'tile.swizzle_bytes' must be an integer}}
  %buf = "tile.alloc_shared"() {tile.swizzle_bytes} : () -> !tile.shared<tensor<64x64xf16>, stages = 2, pad = 0>
  return
}

// -----

func.func @mma_row_warps_zero() {
  // expected-error @+1 {{'tile.mma_row_warps' must be a power of two from 1 to 32, got 0}}
  %buf = "tile.alloc_shared"() {tile.swizzle_bytes = 128 : i64, tile.mma_row_warps = 0 : i64} : () -> !tile.shared<tensor<64x64xf16>, stages = 2, pad = 0>
  return
}

// -----

func.func @mma_row_warps_not_power_of_two() {
  // expected-error @+1 {{'tile.mma_row_warps' must be a power of two from 1 to 32, got 6}}
  %buf = "tile.alloc_shared"() {tile.swizzle_bytes = 128 : i64, tile.mma_row_warps = 6 : i64} : () -> !tile.shared<tensor<64x64xf16>, stages = 2, pad = 0>
  return
}

// -----

func.func @mma_row_warps_too_many() {
  // expected-error @+1 {{'tile.mma_row_warps' must be a power of two from 1 to 32, got 64}}
  %buf = "tile.alloc_shared"() {tile.swizzle_bytes = 128 : i64, tile.mma_row_warps = 64 : i64} : () -> !tile.shared<tensor<64x64xf16>, stages = 2, pad = 0>
  return
}

// -----

func.func @mma_row_warps_not_integer() {
  // expected-error @+1 {{'tile.mma_row_warps' must be an integer}}
  %buf = "tile.alloc_shared"() {tile.swizzle_bytes = 128 : i64, tile.mma_row_warps = [4]} : () -> !tile.shared<tensor<64x64xf16>, stages = 2, pad = 0>
  return
}

// -----

func.func @k_major_not_unit() {
  // expected-error @+1 {{'tile.k_major' must be a unit attribute}}
  %buf = "tile.alloc_shared"() {tile.swizzle_bytes = 128 : i64, tile.k_major = true} : () -> !tile.shared<tensor<32x64xf32>, stages = 2, pad = 0>
  return
}

// -----

func.func @split_tf32_not_unit() {
  // expected-error @+1 {{'tile.split_tf32' must be a unit attribute}}
  %buf = "tile.alloc_shared"() {tile.swizzle_bytes = 128 : i64, tile.split_tf32 = 1 : i64} : () -> !tile.shared<tensor<64x32xf32>, stages = 2, pad = 0>
  return
}

// -----

func.func @round_tf32_not_unit(%t: tensor<64x32xf32>, %s: i32) {
  %buf = tile.alloc_shared : !tile.shared<tensor<64x32xf32>, stages = 2, pad = 0>
  // expected-error @+1 {{'tile.round_tf32' must be a unit attribute}}
  "tile.local_store"(%t, %buf, %s) {tile.round_tf32 = "nearest"} : (tensor<64x32xf32>, !tile.shared<tensor<64x32xf32>, stages = 2, pad = 0>, i32) -> ()
  return
}

// -----

// expected-error @+1 {{'tile.wgmma' must be a unit attribute}}
func.func @wgmma_not_unit() attributes {tile.wgmma = false} {
  return
}

// -----

// expected-error @+1 {{'tile.wgmma_pending' must be a non-negative integer}}
func.func @wgmma_pending_negative() attributes {tile.wgmma_pending = -1 : i32} {
  return
}

// -----

// expected-error @+1 {{'tile.wgmma_pending' must be a non-negative integer}}
func.func @wgmma_pending_not_integer() attributes {tile.wgmma_pending} {
  return
}

// -----

func.func @mma_in_flight_not_unit(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'tile.mma_in_flight' must be a unit attribute}}
  scf.for %i = %c0 to %n step %c1 {
  } {tile.mma_in_flight = 1 : i64}
  return
}

// -----

// expected-error @+1 {{'tile.tma' must be a unit attribute of a function}}
func.func @tma_not_unit() attributes {tile.tma = 1 : i64} {
  return
}
