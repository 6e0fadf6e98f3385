// The max-tile-elements and max-registers options of tile-kernel-check.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics \
// RUN:   -tile-kernel-check="max-tile-elements=4096 max-registers=32 report"

// A tile of exactly max-tile-elements elements is accepted.
// expected-remark @+1 {{kernel 'at_tile_limit': 1024 threads, about}}
func.func @at_tile_limit(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 32 : i32} {
  %r = tile.range 0, 4096 : tensor<4096xi32>
  tile.print "r" %r : tensor<4096xi32>
  return
}

// -----

func.func @above_tile_limit(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 32 : i32} {
  // expected-error @+1 {{tile 'tensor<64x128x!tile.ptr<f32>>' in kernel 'above_tile_limit' has 8192 elements; the limit is 4096}}
  %s = tile.splat %p : tensor<64x128x!tile.ptr<f32>>
  return
}

// -----

// Ops in nested regions count too; the first offending op is reported.
func.func @above_tile_limit_in_loop(%bp: !tile.ptr<f32>) attributes {tile.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    // expected-error @+1 {{tile 'tensor<8192xi32>' in kernel 'above_tile_limit_in_loop' has 8192 elements; the limit is 4096}}
    %r = tile.range 0, 8192 : tensor<8192xi32>
    %s = tile.range 0, 16384 : tensor<16384xi32>
  }
  return
}

// -----

// 4096 x f32 over 128 threads is 32 registers per thread; with a second
// float tile live it no longer fits in 32.
// expected-remark @+2 {{kernel 'above_register_limit': 128 threads, about}}
// expected-error-re @+1 {{out of resources: kernel 'above_register_limit' needs about {{[0-9]+}} registers per thread with 4 warps; the limit is 32 (use smaller tiles or more warps)}}
func.func @above_register_limit(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = tile.range 0, 4096 : tensor<4096xi32>
  %x = arith.sitofp %r : tensor<4096xi32> to tensor<4096xf32>
  // expected-note @+1 {{peak register use is here}}
  %y = arith.addf %x, %x : tensor<4096xf32>
  tile.print "x" %x, %y : tensor<4096xf32>, tensor<4096xf32>
  return
}

// -----

// Well below the limit.
// expected-remark @+1 {{kernel 'below_register_limit': 128 threads, about}}
func.func @below_register_limit(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = tile.range 0, 256 : tensor<256xi32>
  %x = arith.sitofp %r : tensor<256xi32> to tensor<256xf32>
  tile.print "x" %r, %x : tensor<256xi32>, tensor<256xf32>
  return
}
