// tile-kernel-check warns about a kernel whose register estimate is within
// 10% of what a thread may use, or above it: then the backend may spill
// registers to local memory. A thread may use 64K registers shared by the
// threads of tile.min_programs_per_sm programs (one without it), in units
// of 8, and at most 255, or max-registers when that is lower.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics -tile-kernel-check

// Two programs of 256 threads: 128 registers each. 12 + 64 + 32 + 8 = 116
// is within 10% of them.
// expected-warning @+1 {{kernel 'near' needs about 116 registers per thread, within 10% of the 128 a thread may use with 256 threads and 2 programs per SM: registers may spill to local memory}}
func.func @near(%p: !tile.ptr<f32>)
    attributes {tile.kernel, tile.num_warps = 8 : i32, tile.min_programs_per_sm = 2 : i32} {
  %r0 = tile.range 0, 16384 : tensor<16384xi32>
  %r1 = tile.range 0, 8192 : tensor<8192xi32>
  %r2 = tile.range 0, 2048 : tensor<2048xi32>
  %c0 = arith.sitofp %r0 : tensor<16384xi32> to tensor<16384xf32>
  %c1 = arith.sitofp %r1 : tensor<8192xi32> to tensor<8192xf32>
  // expected-note @+1 {{peak register use is here}}
  %c2 = arith.sitofp %r2 : tensor<2048xi32> to tensor<2048xf32>
  tile.print "c" %c0, %c1, %c2 : tensor<16384xf32>, tensor<8192xf32>, tensor<2048xf32>
  return
}

// -----

// One register less, 115, is not within 10% of 128.
func.func @not_near(%p: !tile.ptr<f32>)
    attributes {tile.kernel, tile.num_warps = 8 : i32, tile.min_programs_per_sm = 2 : i32} {
  %r0 = tile.range 0, 16384 : tensor<16384xi32>
  %r1 = tile.range 0, 8192 : tensor<8192xi32>
  %r2 = tile.range 0, 1024 : tensor<1024xi32>
  %r3 = tile.range 0, 512 : tensor<512xi32>
  %r4 = tile.range 0, 256 : tensor<256xi32>
  %c0 = arith.sitofp %r0 : tensor<16384xi32> to tensor<16384xf32>
  %c1 = arith.sitofp %r1 : tensor<8192xi32> to tensor<8192xf32>
  %c2 = arith.sitofp %r2 : tensor<1024xi32> to tensor<1024xf32>
  %c3 = arith.sitofp %r3 : tensor<512xi32> to tensor<512xf32>
  %c4 = arith.sitofp %r4 : tensor<256xi32> to tensor<256xf32>
  tile.print "c" %c0, %c1, %c2, %c3, %c4 : tensor<16384xf32>, tensor<8192xf32>, tensor<1024xf32>, tensor<512xf32>, tensor<256xf32>
  return
}

// -----

// One program of 256 threads (no tile.min_programs_per_sm, or 0) may use
// 255 registers: 116 is far from them.
func.func @one_program(%p: !tile.ptr<f32>)
    attributes {tile.kernel, tile.num_warps = 8 : i32, tile.min_programs_per_sm = 0 : i32} {
  %r0 = tile.range 0, 16384 : tensor<16384xi32>
  %r1 = tile.range 0, 8192 : tensor<8192xi32>
  %r2 = tile.range 0, 2048 : tensor<2048xi32>
  %c0 = arith.sitofp %r0 : tensor<16384xi32> to tensor<16384xf32>
  %c1 = arith.sitofp %r1 : tensor<8192xi32> to tensor<8192xf32>
  %c2 = arith.sitofp %r2 : tensor<2048xi32> to tensor<2048xf32>
  tile.print "c" %c0, %c1, %c2 : tensor<16384xf32>, tensor<8192xf32>, tensor<2048xf32>
  return
}

// -----

// 1024 threads may use 64 registers each: 12 + 64 is more.
// expected-warning @+1 {{kernel 'over' needs about 76 registers per thread, more than the 64 a thread may use with 1024 threads: registers may spill to local memory}}
func.func @over(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 32 : i32} {
  %r = tile.range 0, 65536 : tensor<65536xi32>
  // expected-note @+1 {{peak register use is here}}
  %c = arith.sitofp %r : tensor<65536xi32> to tensor<65536xf32>
  tile.print "c" %c : tensor<65536xf32>
  return
}

// -----

// Close to 255 with few threads: 12 + 224 = 236 of 255.
// expected-warning @+1 {{kernel 'near_max' needs about 236 registers per thread, within 10% of the 255 a thread may use with 128 threads: registers may spill to local memory}}
func.func @near_max(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r0 = tile.range 0, 16384 : tensor<16384xi32>
  %r1 = tile.range 0, 8192 : tensor<8192xi32>
  %r2 = tile.range 0, 4096 : tensor<4096xi32>
  %c0 = arith.sitofp %r0 : tensor<16384xi32> to tensor<16384xf32>
  %c1 = arith.sitofp %r1 : tensor<8192xi32> to tensor<8192xf32>
  // expected-note @+1 {{peak register use is here}}
  %c2 = arith.sitofp %r2 : tensor<4096xi32> to tensor<4096xf32>
  tile.print "c" %c0, %c1, %c2 : tensor<16384xf32>, tensor<8192xf32>, tensor<4096xf32>
  return
}
