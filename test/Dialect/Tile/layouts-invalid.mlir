// One case per diagnostic of the layout encodings (BlockedEncodingAttr::verify
// and SliceEncodingAttr::verify in TileDialect.cpp), of the encoding checks
// of verifyTileType (on tile op operands and results, and through the
// tile.kernel attribute on every result and region argument of a kernel),
// and of tile.convert_layout's type constraints.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect

//===----------------------------------------------------------------------===//
// #tile.blocked
//===----------------------------------------------------------------------===//

// expected-error @+1 {{blocked layout fields must all have the same, non-zero length}}
func.func @blocked_size_per_thread_length(%x: tensor<16xf32, #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>)

// -----

// expected-error @+1 {{blocked layout fields must all have the same, non-zero length}}
func.func @blocked_threads_length(%x: tensor<16x16xf32, #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32], warpsPerCTA = [4, 1], order = [1, 0]}>>)

// -----

// expected-error @+1 {{blocked layout fields must all have the same, non-zero length}}
func.func @blocked_warps_length(%x: tensor<16x16xf32, #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1, 1], order = [1, 0]}>>)

// -----

// expected-error @+1 {{blocked layout fields must all have the same, non-zero length}}
func.func @blocked_order_length(%x: tensor<16x16xf32, #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1]}>>)

// -----

// (The empty list, rank 0, does not parse: an attribute of rank 0 cannot be
// written.)
// expected-error @+2 {{expected integer value}}
// expected-error @+1 {{failed to parse Tile_BlockedEncodingAttr parameter 'sizePerThread'}}
func.func @blocked_rank_zero(%x: tensor<f32, #tile.blocked<{sizePerThread = [], threadsPerWarp = [], warpsPerCTA = [], order = []}>>)

// -----

// expected-error @+1 {{blocked layout sizes must be powers of two}}
func.func @blocked_size_per_thread_3(%x: tensor<16xf32, #tile.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>)

// -----

// expected-error @+1 {{blocked layout sizes must be powers of two}}
func.func @blocked_size_per_thread_0(%x: tensor<16xf32, #tile.blocked<{sizePerThread = [0], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>)

// -----

// threadsPerWarp = [6, 16] would not multiply to 32 either; the power-of-two
// check comes first.
// expected-error @+1 {{blocked layout sizes must be powers of two}}
func.func @blocked_threads_6(%x: tensor<16x16xf32, #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [6, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>)

// -----

// expected-error @+1 {{blocked layout sizes must be powers of two}}
func.func @blocked_warps_0(%x: tensor<16x16xf32, #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 0], order = [1, 0]}>>)

// -----

// expected-error @+1 {{blocked layout order must be a permutation of 0..1}}
func.func @blocked_order_repeated(%x: tensor<16x16xf32, #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 1]}>>)

// -----

// expected-error @+1 {{blocked layout order must be a permutation of 0..2}}
func.func @blocked_order_out_of_range(%x: tensor<2x4x4xf32, #tile.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [2, 4, 4], warpsPerCTA = [4, 1, 1], order = [0, 3, 1]}>>)

// -----

// expected-error @+1 {{blocked layout order must be a permutation of 0..0}}
func.func @blocked_order_1d(%x: tensor<16xf32, #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [1]}>>)

// -----

// expected-error @+1 {{threadsPerWarp must multiply to 32, got 16}}
func.func @blocked_threads_16(%x: tensor<16xf32, #tile.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>>)

// -----

// expected-error @+1 {{threadsPerWarp must multiply to 32, got 64}}
func.func @blocked_threads_64(%x: tensor<16x16xf32, #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>)

// -----

// expected-error @+1 {{warpsPerCTA multiplies to 64; at most 32 warps}}
func.func @blocked_warps_64(%x: tensor<16x16xf32, #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [8, 8], order = [1, 0]}>>)

// -----

// The diagnostic also appears where the attribute is defined as an alias.
// expected-error @+1 {{warpsPerCTA multiplies to 64; at most 32 warps}}
#bad = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [64], order = [0]}>

// -----

//===----------------------------------------------------------------------===//
// #tile.slice
//===----------------------------------------------------------------------===//

// expected-error @+1 {{slice parent must be a blocked or slice layout}}
func.func @slice_parent_integer(%x: tensor<16xf32, #tile.slice<{dim = 0, parent = 1 : i32}>>)

// -----

// expected-error @+1 {{slice parent must be a blocked or slice layout}}
func.func @slice_parent_string(%x: tensor<16xf32, #tile.slice<{dim = 0, parent = "blocked"}>>)

// -----

// expected-error @+1 {{slice parent must have rank at least 2}}
func.func @slice_of_1d(%x: tensor<16xf32, #tile.slice<{dim = 0, parent = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>}>>)

// -----

// A slice of a slice of a 2-d layout has rank 0.
// expected-error @+1 {{slice parent must have rank at least 2}}
func.func @slice_of_1d_slice(%x: tensor<16xf32, #tile.slice<{dim = 0, parent = #tile.slice<{dim = 0, parent = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>}>>)

// -----

// expected-error @+1 {{slice dim 2 out of range for a parent of rank 2}}
func.func @slice_dim_2(%x: tensor<16xf32, #tile.slice<{dim = 2, parent = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>>)

// -----

// The rank of a slice parent is its own rank: 3 - 1 = 2.
// expected-error @+1 {{slice dim 2 out of range for a parent of rank 2}}
func.func @slice_dim_of_slice(%x: tensor<16xf32, #tile.slice<{dim = 2, parent = #tile.slice<{dim = 0, parent = #tile.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [2, 4, 4], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>}>}>>)

// -----

// An invalid parent is reported, then the slice that holds it.
// expected-error @+2 {{threadsPerWarp must multiply to 32, got 16}}
// expected-error @+1 {{failed to parse Tile_SliceEncodingAttr parameter 'parent'}}
func.func @slice_of_invalid(%x: tensor<16xf32, #tile.slice<{dim = 0, parent = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>>)

// -----

//===----------------------------------------------------------------------===//
// Encodings of tiles (verifyTileType)
//===----------------------------------------------------------------------===//

// Outside kernels: through the PowerOfTwoTiles trait of tile ops, which
// names the operand or result.
func.func @operand_not_a_layout(%x: tensor<16xf32, "rows">) -> f32 {
  // expected-error @+1 {{'tile.reduce' op operand #0 has an encoding that is not a tile layout: "rows"}}
  %0 = tile.reduce sum %x axis = 0 : tensor<16xf32, "rows"> -> f32
  return %0 : f32
}

// -----

#b2 = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @operand_rank_mismatch(%x: tensor<16xf32, #b2>) -> f32 {
  // expected-error @+1 {{'tile.reduce' op operand #0 has a layout of rank 2 for a tile of rank 1}}
  %0 = tile.reduce sum %x axis = 0 : tensor<16xf32, #b2> -> f32
  return %0 : f32
}

// -----

#b1 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @operand_1_rank_mismatch(%p: tensor<16x!tile.ptr<f32>, #b1>, %o: tensor<16x16xi32, #b1>) {
  // expected-error @+1 {{'tile.addptr' op operand #1 has a layout of rank 1 for a tile of rank 2}}
  %0 = "tile.addptr"(%p, %o) : (tensor<16x!tile.ptr<f32>, #b1>, tensor<16x16xi32, #b1>) -> tensor<16x!tile.ptr<f32>, #b1>
  return
}

// -----

func.func @result_not_a_layout(%x: i32) {
  // expected-error @+1 {{'tile.splat' op result #0 has an encoding that is not a tile layout: 1 : i32}}
  %0 = tile.splat %x : tensor<16xi32, 1 : i32>
  return
}

// -----

#b1 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @result_rank_mismatch(%x: i32) {
  // expected-error @+1 {{'tile.splat' op result #0 has a layout of rank 1 for a tile of rank 2}}
  %0 = tile.splat %x : tensor<16x16xi32, #b1>
  return
}

// -----

// A slice's rank is its parent's minus one.
#b2 = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @result_slice_rank_mismatch(%x: tensor<16x16xf32, #b2>) {
  // expected-error @+1 {{'tile.reduce' op result #0 has a layout of rank 1 for a tile of rank 2}}
  %0 = "tile.reduce"(%x) <{axis = 0 : i32, kind = #tile<reduce_kind sum>}> ({
  }) : (tensor<16x16xf32, #b2>) -> tensor<1x16xf32, #tile.slice<{dim = 0, parent = #b2}>>
  return
}

// -----

// Inside a kernel the tile.kernel attribute checks every result, of any
// dialect ("result", without a number) ...
#b2 = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @kernel_constant_rank(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  // expected-error @+1 {{'arith.constant' op result has a layout of rank 2 for a tile of rank 1}}
  %c = arith.constant dense<1.0> : tensor<16xf32, #b2>
  return
}

// -----

func.func @kernel_constant_not_a_layout(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  // expected-error @+1 {{'arith.constant' op result has an encoding that is not a tile layout: "x"}}
  %c = arith.constant dense<1.0> : tensor<16xf32, "x">
  return
}

// -----

// ... and every region argument: here of a block that no op defines a value
// for (the kernel's own blocks) ...
// expected-error @+1 {{'func.func' op region argument has an encoding that is not a tile layout: "x"}}
func.func @kernel_block_argument(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  return
^bb1(%a: tensor<16xf32, "x">):
  cf.br ^bb1(%a : tensor<16xf32, "x">)
}

// -----

#b2 = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @+1 {{'func.func' op region argument has a layout of rank 2 for a tile of rank 1}}
func.func @kernel_block_argument_rank(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  return
^bb1(%a: tensor<16xf32, #b2>):
  cf.br ^bb1(%a : tensor<16xf32, #b2>)
}

// -----

// ... and of a nested op's region.
func.func @kernel_nested_region_argument(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  // expected-error @+1 {{'test.region' op region argument has an encoding that is not a tile layout: "x"}}
  "test.region"() ({
  ^bb0(%a: tensor<16xf32, "x">):
    "test.terminator"() : () -> ()
  }) : () -> ()
  return
}

// -----

//===----------------------------------------------------------------------===//
// Layouts for the kernel's warps (the tile.kernel attribute): warpsPerCTA
// of a blocked layout, or of the root of a slice chain, multiplies to
// tile.num_warps (4 when absent).
//===----------------------------------------------------------------------===//

#w2 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
func.func @kernel_warps_default(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  // expected-error @+1 {{'arith.constant' op result has a layout whose warpsPerCTA multiply to 2, but tile kernel 'kernel_warps_default' has tile.num_warps = 4: 'tensor<16xf32, #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>>'}}
  %c = arith.constant dense<1.0> : tensor<16xf32, #w2>
  return
}

// -----

#w4 = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [2, 2], order = [1, 0]}>
func.func @kernel_warps_attribute(%x: i32) attributes {tile.kernel, tile.num_warps = 8 : i32} {
  // expected-error @+1 {{'tile.splat' op result has a layout whose warpsPerCTA multiply to 4, but tile kernel 'kernel_warps_attribute' has tile.num_warps = 8}}
  %0 = tile.splat %x : tensor<16x16xi32, #w4>
  return
}

// -----

// The same layout is fine in a kernel of 4 warps, and outside kernels.
#w4 = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [2, 2], order = [1, 0]}>
func.func @kernel_warps_match(%x: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %0 = tile.splat %x : tensor<16x16xi32, #w4>
  return
}
func.func @not_a_kernel_warps(%x: i32) attributes {tile.num_warps = 8 : i32} {
  %0 = tile.splat %x : tensor<16x16xi32, #w4>
  return
}

// -----

// A slice counts the warps of the blocked layout at the root of its chain.
#w8 = #tile.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 2, 16], warpsPerCTA = [2, 2, 2], order = [2, 1, 0]}>
func.func @kernel_warps_slice_chain(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 2 : i32} {
  // expected-error @+1 {{'arith.constant' op result has a layout whose warpsPerCTA multiply to 8, but tile kernel 'kernel_warps_slice_chain' has tile.num_warps = 2}}
  %c = arith.constant dense<1.0> : tensor<16xf32, #tile.slice<{dim = 0, parent = #tile.slice<{dim = 0, parent = #w8}>}>>
  return
}

// -----

// The block a block pointer addresses is laid out too.
#w1 = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]}>
func.func @kernel_warps_block_ptr(%p: !tile.ptr<f32>, %n: i64) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  // expected-error @+1 {{'tile.make_block_ptr' op result has a layout whose warpsPerCTA multiply to 1, but tile kernel 'kernel_warps_block_ptr' has tile.num_warps = 4}}
  %b = tile.make_block_ptr %p, [%n, %n], [%n, %c1], [%c0, %c0]
         order = [1, 0] : !tile.block_ptr<tensor<16x16xf32, #w1>>
  return
}

// -----

// ... and so are region arguments (here a loop's iteration argument).
#w2 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
func.func @kernel_warps_region_argument(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error @+1 {{'test.region' op region argument has a layout whose warpsPerCTA multiply to 2, but tile kernel 'kernel_warps_region_argument' has tile.num_warps = 1}}
  "test.region"() ({
  ^bb0(%a: tensor<16xf32, #w2>):
    "test.terminator"() : () -> ()
  }) : () -> ()
  return
}

// -----

// An invalid tile.num_warps is reported by its own check (invalid.mlir), not
// compared with layouts.
#w4 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @+1 {{'tile.num_warps' must be a power of two from 1 to 32, got 3}}
func.func @kernel_warps_invalid_num_warps(%x: i32) attributes {tile.kernel, tile.num_warps = 3 : i32} {
  %0 = tile.splat %x : tensor<16xi32, #w4>
  return
}

// -----

// Outside kernels, ops of other dialects are not checked.
func.func @not_a_kernel(%p: !tile.ptr<f32>) -> tensor<16xf32, "x"> {
  %c = arith.constant dense<1.0> : tensor<16xf32, "x">
  return %c : tensor<16xf32, "x">
}

// -----

//===----------------------------------------------------------------------===//
// tile.convert_layout
//===----------------------------------------------------------------------===//

#b1 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @convert_shape(%x: tensor<16xi32, #b1>) {
  // expected-error @+1 {{'tile.convert_layout' op requires the same shape for all operands and results}}
  %0 = tile.convert_layout %x : tensor<16xi32, #b1> -> tensor<32xi32, #b1>
  return
}

// -----

#b1 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @convert_element_type(%x: tensor<16xi32, #b1>) {
  // expected-error @+1 {{'tile.convert_layout' op requires the same element type for all operands and results}}
  %0 = tile.convert_layout %x : tensor<16xi32, #b1> -> tensor<16xf32, #b1>
  return
}

// -----

#b1 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @convert_result_rank(%x: tensor<16xi32, #b1>) {
  // expected-error @+1 {{'tile.convert_layout' op result #0 has a layout of rank 2 for a tile of rank 1}}
  %0 = tile.convert_layout %x : tensor<16xi32, #b1> -> tensor<16xi32, #b2>
  return
}

// -----

func.func @convert_scalar(%x: f32) {
  // expected-error @+1 {{'tile.convert_layout' op operand #0 must be}}
  %0 = "tile.convert_layout"(%x) : (f32) -> f32
  return
}

// -----

#b1 = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @convert_not_power_of_two(%x: tensor<12xi32>) {
  // expected-error @+1 {{'tile.convert_layout' op operand #0 must be a tile with static power-of-two dimensions, got 'tensor<12xi32>'}}
  %0 = tile.convert_layout %x : tensor<12xi32> -> tensor<12xi32, #b1>
  return
}

// -----

// expected-error @+1 {{blocked layout warpOrder must have the rank's length}}
#bad = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 2], order = [1, 0], warpOrder = [0]}>
func.func private @warp_order_length(tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{blocked layout warpOrder must be a permutation of 0..1}}
#bad = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 2], order = [1, 0], warpOrder = [1, 1]}>
func.func private @warp_order_repeats(tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{blocked layout warpSlices must list dimensions below 2 in increasing order}}
#bad = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 2], order = [1, 0], warpSlices = [2]}>
func.func private @warp_slices_out_of_range(tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{blocked layout warpSlices must list dimensions below 2 in increasing order}}
#bad = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 2], order = [1, 0], warpSlices = [1, 0]}>
func.func private @warp_slices_unordered(tensor<64x64xf32, #bad>)

// -----

// expected-error @+1 {{expected 'warpOrder' or 'warpSlices' (in that order), got 'warpOrder'}}
#bad = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 2], order = [1, 0], warpSlices = [1], warpOrder = [0, 1]}>
func.func private @warp_placement_out_of_order(tensor<64x64xf32, #bad>)
