// Exact register estimates of tile-kernel-check: per thread, the 32-bit
// registers of the floating-point tiles live at the op where the most are
// live (a tile takes ceil(elements / threads) x max(bits, 32) / 32
// registers). Index, mask and pointer tiles are not counted: the backend
// folds them into address arithmetic.
//
// Regression: the values an op defines are counted once (they are already in
// Liveness's live set), so a kernel exactly at the limit is accepted.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics \
// RUN:   -tile-kernel-check="report max-registers=64"

// 1024 x f32 over 128 threads: 8 registers.
// expected-remark @+1 {{kernel 'one_tile': 128 threads, about 8 registers per thread for tiles}}
func.func @one_tile(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  %c = arith.constant dense<1.0> : tensor<1024xf32>
  tile.print "c" %c : tensor<1024xf32>
  return
}

// -----

// Two 32 x f32 tiles live together over 32 threads: 2 registers.
// expected-remark @+1 {{kernel 'two_tiles': 32 threads, about 2 registers per thread for tiles}}
func.func @two_tiles(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %c = arith.constant dense<1.0> : tensor<32xf32>
  %d = arith.constant dense<2.0> : tensor<32xf32>
  tile.print "cd" %c, %d : tensor<32xf32>, tensor<32xf32>
  return
}

// -----

// A dead tile is live only at its definition: the peak is 1, not 2.
// expected-remark @+1 {{kernel 'dead_tiles': 32 threads, about 1 registers per thread for tiles}}
func.func @dead_tiles(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %c = arith.constant dense<1.0> : tensor<32xf32>
  %d = arith.constant dense<2.0> : tensor<32xf32>
  return
}

// -----

// Fewer elements than threads still take one register.
// expected-remark @+1 {{kernel 'small_tile': 128 threads, about 1 registers per thread for tiles}}
func.func @small_tile(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = arith.constant dense<1.0> : tensor<16xf32>
  tile.print "r" %r : tensor<16xf32>
  return
}

// -----

// f16 takes a whole register per element, f64 two; integer and i1 tiles
// are not counted: 8 + 16.
// expected-remark @+1 {{kernel 'widths': 32 threads, about 24 registers per thread for tiles}}
func.func @widths(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %a = arith.constant dense<1> : tensor<512xi8>
  %b = arith.constant dense<1.0> : tensor<256xf16>
  %c = arith.constant dense<true> : tensor<64xi1>
  %d = arith.constant dense<1.0> : tensor<256xf64>
  tile.print "abcd" %a, %b, %c, %d : tensor<512xi8>, tensor<256xf16>, tensor<64xi1>, tensor<256xf64>
  return
}

// -----

// 2048 f32 over 32 threads: 64 registers, exactly the limit; the pointer
// tile does not count.
// expected-remark @+1 {{kernel 'at_limit': 32 threads, about 64 registers per thread for tiles}}
func.func @at_limit(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %c = arith.constant dense<1.0> : tensor<2048xf32>
  %ps = tile.splat %p : tensor<1024x!tile.ptr<f32>>
  tile.print "c" %c, %ps : tensor<2048xf32>, tensor<1024x!tile.ptr<f32>>
  return
}

// -----

// One register more is too many.
// expected-remark @+2 {{kernel 'above_limit': 32 threads, about 65 registers per thread for tiles}}
// expected-error @+1 {{out of resources: kernel 'above_limit' needs about 65 registers per thread for its live tiles with 1 warps; the limit is 64 (use smaller tiles or more warps)}}
func.func @above_limit(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = arith.constant dense<1.0> : tensor<32xf32>
  // expected-note @+1 {{peak register use is here}}
  %c = arith.constant dense<2.0> : tensor<2048xf32>
  tile.print "c" %r, %c : tensor<32xf32>, tensor<2048xf32>
  return
}

// -----

// Operands a dot reads from shared memory (the block loads of a loop that
// tile.num_stages pipelines) take no registers, and the dot's result takes
// the accumulator's: 64 x 64 f32 over 128 threads, 32 registers (not 96).
// expected-remark @+1 {{kernel 'pipelined_dot': 128 threads, about 32 registers per thread for tiles}}
func.func @pipelined_dot(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %n: i64, %k: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %one = arith.constant 1 : i64
  %pa = tile.make_block_ptr %a, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x32xf16>>
  %pb = tile.make_block_ptr %b, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<32x64xf16>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %acc, %ea, %eb = scf.for %i = %c0 to %k step %c32 iter_args(%s = %zero, %qa = %pa, %qb = %pb)
      -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>) : i32 {
    %x = tile.block_load %qa check = [0, 1] : !tile.block_ptr<tensor<64x32xf16>>
    %y = tile.block_load %qb check = [0, 1] : !tile.block_ptr<tensor<32x64xf16>>
    %d = tile.dot %x, %y, %s : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
    %na = tile.advance %qa, [%c0, %c32] : !tile.block_ptr<tensor<64x32xf16>>
    %nb = tile.advance %qb, [%c32, %c0] : !tile.block_ptr<tensor<32x64xf16>>
    scf.yield %d, %na, %nb : tensor<64x64xf32>, !tile.block_ptr<tensor<64x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>
  }
  %pc = tile.make_block_ptr %c, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  tile.block_store %pc, %acc check = [0, 1] : !tile.block_ptr<tensor<64x64xf32>>
  return
}

// -----

// An elementwise chain is computed element by element: its intermediate
// (%sq), the splat it multiplies by and the input that dies in the chain
// take no registers of their own. 64 x 64 f32 over 128 threads: 32.
// expected-remark @+1 {{kernel 'chain': 128 threads, about 32 registers per thread for tiles}}
func.func @chain(%x: !tile.ptr<f32>, %n: i64)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %p = tile.make_block_ptr %x, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  %v = tile.block_load %p check = [0, 1] : !tile.block_ptr<tensor<64x64xf32>>
  %half = arith.constant dense<0.5> : tensor<64x64xf32>
  %sq = arith.mulf %v, %half : tensor<64x64xf32>
  %sum = arith.addf %sq, %v : tensor<64x64xf32>
  tile.block_store %p, %sum check = [0, 1] : !tile.block_ptr<tensor<64x64xf32>>
  return
}

// -----

// A tile consumed inside an scf.if's regions and dead after it lends its
// registers to the if's result (a rescaled copy or the tile itself): 32
// registers at the if, not 64.
// expected-remark @+1 {{kernel 'if_reuses': 32 threads, about 32 registers per thread for tiles}}
func.func @if_reuses(%p: !tile.ptr<f32>, %c: i1) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.range 0, 1024 : tensor<1024xi32>
  %ps = tile.splat %p : tensor<1024x!tile.ptr<f32>>
  %pp = tile.addptr %ps, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %x = tile.load %pp : tensor<1024x!tile.ptr<f32>>
  %y = scf.if %c -> (tensor<1024xf32>) {
    %m = arith.mulf %x, %x : tensor<1024xf32>
    scf.yield %m : tensor<1024xf32>
  } else {
    scf.yield %x : tensor<1024xf32>
  }
  tile.print "y" %y : tensor<1024xf32>
  return
}
