// Exact register estimates of tile-kernel-check: per thread, the registers
// live at the op where the most are: 12 for the thread's scalars, plus its
// share of the data tiles live there (ceil(elements / threads) x
// max(bits, 32) / 32 registers, or its distinct elements in a layout that
// repeats them), plus what some values and ops hold (addresses, masks, dot
// operands; one case each below). Index tiles computed from ranges, splats
// and pointer tiles used where they are defined hold nothing.
//
// Regression: the values an op defines are counted once (they are already in
// Liveness's live set), so a kernel exactly at the limit is accepted.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics \
// RUN:   -tile-kernel-check="report max-registers=128"

// No tiles: the scalars' 12.
// expected-remark @+1 {{kernel 'scalars': 128 threads, about 12 registers per thread (limit 128)}}
func.func @scalars(%p: !tile.ptr<f32>, %x: f32) attributes {tile.kernel} {
  tile.store %p, %x : !tile.ptr<f32>
  return
}

// -----

// 1024 x f32 over 128 threads: 8 registers.
// expected-remark @+1 {{kernel 'one_tile': 128 threads, about 20 registers per thread}}
func.func @one_tile(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = tile.range 0, 1024 : tensor<1024xi32>
  %c = arith.sitofp %r : tensor<1024xi32> to tensor<1024xf32>
  tile.print "c" %c : tensor<1024xf32>
  return
}

// -----

// Two 32 x f32 tiles live together over 32 threads: 2 registers.
// expected-remark @+1 {{kernel 'two_tiles': 32 threads, about 14 registers per thread}}
func.func @two_tiles(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.range 0, 32 : tensor<32xi32>
  %c = arith.sitofp %r : tensor<32xi32> to tensor<32xf32>
  %d = arith.uitofp %r : tensor<32xi32> to tensor<32xf32>
  tile.print "cd" %c, %d : tensor<32xf32>, tensor<32xf32>
  return
}

// -----

// A dead tile is live only at its definition: the peak is 1, not 2.
// expected-remark @+1 {{kernel 'dead_tiles': 32 threads, about 13 registers per thread}}
func.func @dead_tiles(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.range 0, 32 : tensor<32xi32>
  %c = arith.sitofp %r : tensor<32xi32> to tensor<32xf32>
  %d = arith.uitofp %r : tensor<32xi32> to tensor<32xf32>
  return
}

// -----

// Fewer elements than threads still take one register; a splat takes none
// (the lowering repeats its scalar).
// expected-remark @+1 {{kernel 'small_tile': 128 threads, about 13 registers per thread}}
func.func @small_tile(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = tile.range 0, 16 : tensor<16xi32>
  %c = arith.sitofp %r : tensor<16xi32> to tensor<16xf32>
  %s = arith.constant dense<1.0> : tensor<4096xf32>
  tile.print "cs" %c, %s : tensor<16xf32>, tensor<4096xf32>
  return
}

// -----

// f16 takes a whole register per element, f64 two; the i32 tile is index
// arithmetic: 12 + 8 + 16.
// expected-remark @+1 {{kernel 'widths': 32 threads, about 36 registers per thread}}
func.func @widths(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.range 0, 256 : tensor<256xi32>
  %h = arith.sitofp %r : tensor<256xi32> to tensor<256xf16>
  %d = arith.sitofp %r : tensor<256xi32> to tensor<256xf64>
  tile.print "rhd" %r, %h, %d : tensor<256xi32>, tensor<256xf16>, tensor<256xf64>
  return
}

// -----

// 3712 f32 over 32 threads: 116 registers, 128 in all, exactly the limit
// (and within 10% of it); the pointer tile does not count.
// expected-remark @+2 {{kernel 'at_limit': 32 threads, about 128 registers per thread}}
// expected-warning @+1 {{kernel 'at_limit' needs about 128 registers per thread, within 10% of the 128 a thread may use with 32 threads: registers may spill to local memory}}
func.func @at_limit(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r0 = tile.range 0, 2048 : tensor<2048xi32>
  %r1 = tile.range 0, 1024 : tensor<1024xi32>
  %r2 = tile.range 0, 512 : tensor<512xi32>
  %r3 = tile.range 0, 128 : tensor<128xi32>
  %c0 = arith.sitofp %r0 : tensor<2048xi32> to tensor<2048xf32>
  %c1 = arith.sitofp %r1 : tensor<1024xi32> to tensor<1024xf32>
  %c2 = arith.sitofp %r2 : tensor<512xi32> to tensor<512xf32>
  // expected-note @+1 {{peak register use is here}}
  %c3 = arith.sitofp %r3 : tensor<128xi32> to tensor<128xf32>
  %ps = tile.splat %p : tensor<1024x!tile.ptr<f32>>
  tile.print "c" %c0, %c1, %c2, %c3, %ps : tensor<2048xf32>, tensor<1024xf32>, tensor<512xf32>, tensor<128xf32>, tensor<1024x!tile.ptr<f32>>
  return
}

// -----

// One register more than the limit may spill: a warning (the estimate is
// within about 20% of ptxas' count).
// expected-remark @+2 {{kernel 'above_limit': 32 threads, about 129 registers per thread}}
// expected-warning @+1 {{kernel 'above_limit' needs about 129 registers per thread, more than the 128 a thread may use with 32 threads: registers may spill to local memory}}
func.func @above_limit(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r0 = tile.range 0, 2048 : tensor<2048xi32>
  %r1 = tile.range 0, 1024 : tensor<1024xi32>
  %r2 = tile.range 0, 512 : tensor<512xi32>
  %r3 = tile.range 0, 128 : tensor<128xi32>
  %r4 = tile.range 0, 32 : tensor<32xi32>
  %c0 = arith.sitofp %r0 : tensor<2048xi32> to tensor<2048xf32>
  %c1 = arith.sitofp %r1 : tensor<1024xi32> to tensor<1024xf32>
  %c2 = arith.sitofp %r2 : tensor<512xi32> to tensor<512xf32>
  %c3 = arith.sitofp %r3 : tensor<128xi32> to tensor<128xf32>
  // expected-note @+1 {{peak register use is here}}
  %c4 = arith.sitofp %r4 : tensor<32xi32> to tensor<32xf32>
  tile.print "c" %c0, %c1, %c2, %c3, %c4 : tensor<2048xf32>, tensor<1024xf32>, tensor<512xf32>, tensor<128xf32>, tensor<32xf32>
  return
}

// -----

// More than a quarter over the limit cannot fit: an error.
// expected-remark @+2 {{kernel 'far_above_limit': 32 threads, about 161 registers per thread}}
// expected-error @+1 {{out of resources: kernel 'far_above_limit' needs about 161 registers per thread with 1 warps; the limit is 128 (use smaller tiles or more warps)}}
func.func @far_above_limit(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r0 = tile.range 0, 2048 : tensor<2048xi32>
  %r1 = tile.range 0, 1024 : tensor<1024xi32>
  %r2 = tile.range 0, 1024 : tensor<1024xi32>
  %r3 = tile.range 0, 512 : tensor<512xi32>
  %r4 = tile.range 0, 128 : tensor<128xi32>
  %r5 = tile.range 0, 32 : tensor<32xi32>
  %c0 = arith.sitofp %r0 : tensor<2048xi32> to tensor<2048xf32>
  %c1 = arith.sitofp %r1 : tensor<1024xi32> to tensor<1024xf32>
  %c2 = arith.sitofp %r2 : tensor<1024xi32> to tensor<1024xf32>
  %c3 = arith.sitofp %r3 : tensor<512xi32> to tensor<512xf32>
  %c4 = arith.sitofp %r4 : tensor<128xi32> to tensor<128xf32>
  // expected-note @+1 {{peak register use is here}}
  %c5 = arith.sitofp %r5 : tensor<32xi32> to tensor<32xf32>
  tile.print "c" %c0, %c1, %c2, %c3, %c4, %c5 : tensor<2048xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<512xf32>, tensor<128xf32>, tensor<32xf32>
  return
}

// -----

// Operands a dot reads from shared memory (the block loads of a loop that
// tile.num_stages pipelines) take no registers, and the dot's result takes
// the accumulator's: 64 x 64 f32 over 128 threads, 32 registers (not 96).
// The block pointers the loop carries hold their base, offsets and strides
// (2 + 3 x 2 registers) and, copied asynchronously, 4 registers per 16-byte
// chunk a thread copies (2 chunks of A's block, 2 of B's): 12 + 32 + 2 x 16.
// expected-remark @+1 {{kernel 'pipelined_dot': 128 threads, about 76 registers per thread (limit 128)}}
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

// The same loop marked tile.warp_specialize (one stage suffices there): a
// producer warpgroup holds the block pointers and copies the blocks, so the
// program's threads hold the scalars and the accumulator only: 12 + 32.
// expected-remark @+1 {{kernel 'specialized_dot': 128 threads, about 44 registers per thread (limit 128)}}
func.func @specialized_dot(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %n: i64, %k: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 1 : i32} {
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
  } {tile.warp_specialize}
  %pc = tile.make_block_ptr %c, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  tile.block_store %pc, %acc check = [0, 1] : !tile.block_ptr<tensor<64x64xf32>>
  return
}

// -----

// A row broadcast onto a tensor-core accumulator is held in its layout: the
// wgmma layout (all 8 warps along M) gives each thread 32 of the 128
// columns, so the bias takes 32 registers, not 1. The accumulator (128 x
// 128 f32 over 256 threads) takes 64: 12 + 64 + 32 at the add.
// expected-remark @+1 {{kernel 'bias': 256 threads, about 108 registers per thread}}
func.func @bias(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %bias: !tile.ptr<f32>, %n: i64)
    attributes {tile.kernel, tile.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %bufa = tile.alloc_shared : !tile.shared<tensor<128x32xf16>, stages = 1, pad = 0>
  %bufb = tile.alloc_shared : !tile.shared<tensor<32x128xf16>, stages = 1, pad = 0>
  %x = tile.local_load %bufa[%c0] : !tile.shared<tensor<128x32xf16>, stages = 1, pad = 0> -> tensor<128x32xf16>
  %y = tile.local_load %bufb[%c0] : !tile.shared<tensor<32x128xf16>, stages = 1, pad = 0> -> tensor<32x128xf16>
  %zero = arith.constant dense<0.0> : tensor<128x128xf32>
  %acc = tile.dot %x, %y, %zero : tensor<128x32xf16>, tensor<32x128xf16> -> tensor<128x128xf32>
  %r = tile.range 0, 128 : tensor<128xi32>
  %ps = tile.splat %bias : tensor<128x!tile.ptr<f32>>
  %pp = tile.addptr %ps, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %v = tile.load %pp : tensor<128x!tile.ptr<f32>>
  %row = tile.expand_dims %v axis = 0 : tensor<128xf32> -> tensor<1x128xf32>
  %rows = tile.broadcast %row : tensor<1x128xf32> -> tensor<128x128xf32>
  %sum = arith.addf %acc, %rows : tensor<128x128xf32>
  tile.print "sum" %sum : tensor<128x128xf32>
  return
}

// -----

// An elementwise chain is computed element by element: its intermediate
// (%sq) and the splat it multiplies by take no registers of their own.
// 64 x 64 f32 over 128 threads: 12 + 32.
// expected-remark @+1 {{kernel 'chain': 128 threads, about 44 registers per thread}}
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

// A value the chain reads twice (%h) is held between its two reads, and so
// is a math function's result (%e; erf is a libdevice call the backend
// evaluates for all of a thread's elements at once, with an intermediate
// each): 12 + 8 x 4 at the erf (%h, %e, its intermediates, and %v, which
// the last op reads).
// expected-remark @+1 {{kernel 'math_chain': 128 threads, about 44 registers per thread}}
func.func @math_chain(%x: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = tile.range 0, 1024 : tensor<1024xi32>
  %v = arith.sitofp %r : tensor<1024xi32> to tensor<1024xf32>
  %half = arith.constant dense<0.5> : tensor<1024xf32>
  %h = arith.mulf %v, %half : tensor<1024xf32>
  %e = math.erf %h : tensor<1024xf32>
  %s = arith.addf %e, %h : tensor<1024xf32>
  %t = arith.mulf %s, %v : tensor<1024xf32>
  tile.print "t" %t : tensor<1024xf32>
  return
}

// -----

// An IEEE division holds 8 scratch registers for its slow path; with `afn`
// it is an approximation without one. 12 + 8 + 8 and 12 + 8.
// expected-remark @+1 {{kernel 'division': 128 threads, about 28 registers per thread}}
func.func @division(%x: !tile.ptr<f32>, %d: f32) attributes {tile.kernel} {
  %r = tile.range 0, 1024 : tensor<1024xi32>
  %v = arith.sitofp %r : tensor<1024xi32> to tensor<1024xf32>
  %ds = tile.splat %d : tensor<1024xf32>
  %q = arith.divf %v, %ds : tensor<1024xf32>
  tile.print "q" %q : tensor<1024xf32>
  return
}

// expected-remark @+1 {{kernel 'fast_division': 128 threads, about 20 registers per thread}}
func.func @fast_division(%x: !tile.ptr<f32>, %d: f32) attributes {tile.kernel} {
  %r = tile.range 0, 1024 : tensor<1024xi32>
  %v = arith.sitofp %r : tensor<1024xi32> to tensor<1024xf32>
  %ds = tile.splat %d : tensor<1024xf32>
  %q = arith.divf %v, %ds fastmath<afn> : tensor<1024xf32>
  tile.print "q" %q : tensor<1024xf32>
  return
}

// -----

// A mask used by a load and a store is held between them: one register per
// element (32 per thread for 4096 over 128 threads) beyond the 7 predicate
// registers. The accesses of either op need one 64-bit address (one run of
// consecutive addresses): 12 + 32 (data) + 25 (mask) + 2.
// expected-remark @+1 {{kernel 'held_mask': 128 threads, about 71 registers per thread}}
func.func @held_mask(%x: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %r = tile.range 0, 4096 : tensor<4096xi32>
  %ns = tile.splat %n : tensor<4096xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<4096xi32>
  %ps = tile.splat %x : tensor<4096x!tile.ptr<f32>>
  %pp = tile.addptr %ps, %r : tensor<4096x!tile.ptr<f32>>, tensor<4096xi32>
  %v = tile.load %pp, %m : tensor<4096x!tile.ptr<f32>>
  %w = arith.addf %v, %v : tensor<4096xf32>
  tile.store %pp, %w, %m : tensor<4096x!tile.ptr<f32>>
  return
}

// The same mask used once is computed where it is used: 12 + 32 + 2.
// expected-remark @+1 {{kernel 'mask_once': 128 threads, about 46 registers per thread}}
func.func @mask_once(%x: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %r = tile.range 0, 4096 : tensor<4096xi32>
  %ns = tile.splat %n : tensor<4096xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<4096xi32>
  %ps = tile.splat %x : tensor<4096x!tile.ptr<f32>>
  %pp = tile.addptr %ps, %r : tensor<4096x!tile.ptr<f32>>, tensor<4096xi32>
  %v = tile.load %pp, %m : tensor<4096x!tile.ptr<f32>>
  %w = arith.addf %v, %v : tensor<4096xf32>
  tile.store %pp, %w : tensor<4096x!tile.ptr<f32>>
  return
}

// -----

// Rows %s apart (a run-time stride) start at addresses computed at run
// time: a store of 64 x 64 elements from 128 threads (16 rows of 2 each;
// a row's elements are consecutive) needs 16 64-bit addresses while it is
// issued: 12 + 32 + 32.
// expected-remark @+1 {{kernel 'strided_store': 128 threads, about 76 registers per thread}}
func.func @strided_store(%x: !tile.ptr<f32>, %s: i32) attributes {tile.kernel} {
  %r = tile.range 0, 64 : tensor<64xi32>
  %r2 = tile.expand_dims %r axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %c2 = tile.expand_dims %r axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
  %rb = tile.broadcast %r2 : tensor<64x1xi32> -> tensor<64x64xi32>
  %cb = tile.broadcast %c2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %ss = tile.splat %s : tensor<64x64xi32>
  %rows = arith.muli %rb, %ss : tensor<64x64xi32>
  %o = arith.addi %rows, %cb : tensor<64x64xi32>
  %v = arith.sitofp %o : tensor<64x64xi32> to tensor<64x64xf32>
  %ps = tile.splat %x : tensor<64x64x!tile.ptr<f32>>
  %pp = tile.addptr %ps, %o : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %pp, %v : tensor<64x64x!tile.ptr<f32>>
  return
}

// -----

// Tiles of pointers a loop carries keep their addresses across iterations:
// 32 x 32 pointers with run-time strides along both dimensions are 8
// addresses per thread, 16 registers each tile. The dot runs on the FMA
// units (f32, ieee): its k loop holds per step the `a` and `b` values of
// the thread's accumulator elements, at most 8 + 1, unrolled twice.
// At the dot: 12 + 2 x 16 + 8 (acc) + 8 + 8 (operands) + 18.
// expected-remark @+1 {{kernel 'fma_loop': 128 threads, about 86 registers per thread}}
func.func @fma_loop(%a: !tile.ptr<f32>, %sa: i32, %sb: i32, %k: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %r = tile.range 0, 32 : tensor<32xi32>
  %r2 = tile.expand_dims %r axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %c2 = tile.expand_dims %r axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %rb = tile.broadcast %r2 : tensor<32x1xi32> -> tensor<32x32xi32>
  %cb = tile.broadcast %c2 : tensor<1x32xi32> -> tensor<32x32xi32>
  %sas = tile.splat %sa : tensor<32x32xi32>
  %sbs = tile.splat %sb : tensor<32x32xi32>
  %ra = arith.muli %rb, %sas : tensor<32x32xi32>
  %ca = arith.muli %cb, %sbs : tensor<32x32xi32>
  %o = arith.addi %ra, %ca : tensor<32x32xi32>
  %ps = tile.splat %a : tensor<32x32x!tile.ptr<f32>>
  %pa = tile.addptr %ps, %o : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
  %pb = tile.addptr %ps, %o : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
  %zero = arith.constant dense<0.0> : tensor<32x32xf32>
  %step = tile.splat %c32 : tensor<32x32xi32>
  %acc, %ea, %eb = scf.for %i = %c0 to %k step %c32 iter_args(%s = %zero, %qa = %pa, %qb = %pb)
      -> (tensor<32x32xf32>, tensor<32x32x!tile.ptr<f32>>, tensor<32x32x!tile.ptr<f32>>) : i32 {
    %x = tile.load %qa : tensor<32x32x!tile.ptr<f32>>
    %y = tile.load %qb : tensor<32x32x!tile.ptr<f32>>
    %d = tile.dot %x, %y, %s : tensor<32x32xf32>, tensor<32x32xf32> -> tensor<32x32xf32>
    %na = tile.addptr %qa, %step : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
    %nb = tile.addptr %qb, %step : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
    scf.yield %d, %na, %nb : tensor<32x32xf32>, tensor<32x32x!tile.ptr<f32>>, tensor<32x32x!tile.ptr<f32>>
  }
  tile.print "acc" %acc : tensor<32x32xf32>
  return
}

// -----

// A row reduction's result is held by every thread holding part of a row:
// 32 x 128 f32 over 128 threads in 16-byte vectors puts 8 rows of 4
// elements on a thread, so each of the three results takes 8 registers,
// not 1: 12 + 32 + 3 x 8 at the last reduction.
// expected-remark @+1 {{kernel 'row_stats': 128 threads, about 68 registers per thread}}
func.func @row_stats(%x: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = tile.range 0, 32 : tensor<32xi32>
  %c = tile.range 0, 128 : tensor<128xi32>
  %r2 = tile.expand_dims %r axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %c2 = tile.expand_dims %c axis = 0 : tensor<128xi32> -> tensor<1x128xi32>
  %rb = tile.broadcast %r2 : tensor<32x1xi32> -> tensor<32x128xi32>
  %cb = tile.broadcast %c2 : tensor<1x128xi32> -> tensor<32x128xi32>
  %o = arith.addi %rb, %cb : tensor<32x128xi32>
  %v = arith.sitofp %o : tensor<32x128xi32> to tensor<32x128xf32>
  %max = tile.reduce max %v axis = 1 : tensor<32x128xf32> -> tensor<32xf32>
  %min = tile.reduce min %v axis = 1 : tensor<32x128xf32> -> tensor<32xf32>
  %sum = tile.reduce sum %v axis = 1 : tensor<32x128xf32> -> tensor<32xf32>
  tile.print "stats" %max, %min, %sum : tensor<32xf32>, tensor<32xf32>, tensor<32xf32>
  return
}

// -----

// A tile consumed inside an scf.if's regions and dead after it lends its
// registers to the if's result (a rescaled copy or the tile itself): 32
// registers at the if, not 64 (and 2 for the load's address).
// expected-remark @+1 {{kernel 'if_reuses': 32 threads, about 46 registers per thread}}
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
