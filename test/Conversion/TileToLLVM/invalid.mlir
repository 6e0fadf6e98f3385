// Kernels the GPU lowering rejects give a located error instead of wrong
// code or a crash. (The patterns emit their error and fail, so the
// conversion driver adds its own "failed to legalize" error on the op.)
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics -tile-convert-to-llvm

#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

func.func @non_splat_constant() attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error @+2 {{the GPU backend supports only splat constant tiles; build others with tile.range and arithmetic}}
  // expected-error @+1 {{failed to legalize operation 'arith.constant' that was explicitly marked illegal}}
  %c = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32, #b>
  return
}

// -----

#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

func.func @reduce_i64(%v: i64) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %x = tile.splat %v : tensor<32xi64, #b>
  // expected-error @+2 {{the GPU backend reduces elements of at most 32 bits}}
  // expected-error @+1 {{failed to legalize operation 'tile.reduce' that was explicitly marked illegal}}
  %s = tile.reduce sum %x axis = 0 : tensor<32xi64, #b> -> i64
  return
}

// -----

// broadcast/expand_dims only pick slots: operand and result must share the
// root layout.
#a = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [0, 1]}>
#c = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>

func.func @broadcast_other_root(%v: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %x = tile.splat %v : tensor<32x1xf32, #a>
  // expected-error @+2 {{operand and result layouts do not share a root layout; run tile-assign-layouts}}
  // expected-error @+1 {{failed to legalize operation 'tile.broadcast' that was explicitly marked illegal}}
  %y = tile.broadcast %x : tensor<32x1xf32, #a> -> tensor<32x32xf32, #c>
  return
}

// -----

#a = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [0, 1]}>
#c = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

func.func @reduce_result_not_slice(%v: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %x = tile.splat %v : tensor<32x4xf32, #a>
  // expected-error @+2 {{reduce result layout is not a slice of the source layout; run tile-assign-layouts}}
  // expected-error @+1 {{failed to legalize operation 'tile.reduce' that was explicitly marked illegal}}
  %s = tile.reduce sum %x axis = 1 : tensor<32x4xf32, #a> -> tensor<32xf32, #c>
  return
}

// -----

// Math ops outside Tile's table are rejected with what to do instead.
func.func @fpowi(%d: f32, %n: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error @+1 {{'math.fpowi' is not supported by Tile: raise to a power with math.powf on floats, or multiply}}
  %e = math.fpowi %d, %n : f32, i32
  return
}

// -----

// tile-expand-math runs before the conversion in the GPU pipeline.
func.func @tanh(%d: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error @+1 {{'math.tanh' is rewritten by tile-expand-math, which the GPU pipeline runs before this pass}}
  %e = math.tanh %d : f32
  return
}

// -----

func.func @no_layout(%v: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // expected-error @+1 {{has no layout; run tile-assign-layouts first}}
  %x = tile.splat %v : tensor<32xf32>
  return
}

// -----

// Programs that share barriers meet at a cluster barrier around them,
// which the cluster exchanges' own protocol would interleave with.
// expected-error @+1 {{kernel 'shares_and_exchanges' both exchanges values between the programs of a cluster and shares barriers with them; not supported}}
func.func @shares_and_exchanges(%s: i32, %x: f32) attributes {tile.kernel, tile.num_warps = 4 : i32, tile.cluster_size = 2 : i32} {
  %bars = tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 8>
  tile.mbarrier_arrive %bars[%s] cluster : !tile.mbarriers<2, arrivals = 8>
  %m = tile.cluster_reduce max %x : f32
  return
}

// -----

// Every thread of the cluster must meet once the shared barriers exist.
// expected-error @+1 {{kernel 'nested_barriers' shares barriers across its cluster: they must be allocated in its entry block}}
func.func @nested_barriers(%s: i32, %c: i1) attributes {tile.kernel, tile.num_warps = 4 : i32, tile.cluster_size = 2 : i32} {
  scf.if %c {
    %bars = tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 8>
    tile.mbarrier_arrive %bars[%s] cluster : !tile.mbarriers<2, arrivals = 8>
  }
  return
}

// -----

// A prefetch takes its boxes from the copies through its map.
func.func @prefetch_without_copy(%a: !tile.ptr<f16>, %p: i1, %map: !tile.tensormap {tile.tma = {base = 0 : i64, shape = ["64", "64"], strides = ["64", "1"]}}) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %n = arith.constant 64 : i64
  %bp = tile.make_block_ptr %a, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  // expected-error @+2 {{'tile.tma_prefetch' op prefetches through a map that no tile.tma_copy copies through, which leaves its box unknown}}
  // expected-error @+1 {{failed to legalize operation 'tile.tma_prefetch'}}
  tile.tma_prefetch %bp map %map if %p : !tile.block_ptr<tensor<64x64xf16>>
  return
}

// -----

// 16-byte rows are not swizzled, and TMA reads swizzled rows only.
func.func @tma_store_unswizzled(%o: !tile.ptr<f16>, %map: !tile.tensormap {tile.tma = {base = 0 : i64, shape = ["64", "8"], strides = ["8", "1"]}})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %n = arith.constant 64 : i64
  %w = arith.constant 8 : i64
  %buf = tile.alloc_shared : !tile.shared<tensor<64x8xf16>, stages = 1, pad = 8>
  %bp = tile.make_block_ptr %o, [%n, %w], [%w, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x8xf16>>
  // expected-error @+2 {{'tile.tma_store' op copies a buffer whose rows are not swizzled (rows under 32 bytes, or transposed for a tf32 wgmma); TMA reads swizzled rows only}}
  // expected-error @+1 {{failed to legalize operation 'tile.tma_store'}}
  tile.tma_store %buf[%c0], %bp map %map : !tile.shared<tensor<64x8xf16>, stages = 1, pad = 8>, !tile.block_ptr<tensor<64x8xf16>>
  return
}
