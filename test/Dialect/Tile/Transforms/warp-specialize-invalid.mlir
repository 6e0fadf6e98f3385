// What tile-warp-specialize rejects in a marked loop, at the loop.
//
// RUN: tile-opt %s -split-input-file -tile-warp-specialize=chip=sm_90a -verify-diagnostics

// A block pointer whose base is computed (not a kernel argument).
func.func @computed_base(%k: !tile.ptr<f16>, %n: i32, %off: i64)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %base = tile.addptr %k, %off : !tile.ptr<f16>, i64
  %ptr = tile.make_block_ptr %base, [%d, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  // expected-error @+1 {{tile.warp_specialize: the array of a streamed load cannot be copied with TMA: its base pointer is not a kernel argument}}
  %p2 = scf.for %i = %c0 to %n step %c64 iter_args(%p = %ptr) -> (!tile.block_ptr<tensor<64x64xf16>>) : i32 {
    %blk = tile.block_load %p : !tile.block_ptr<tensor<64x64xf16>>
    %next = tile.advance %p, [%c64, %c0] : !tile.block_ptr<tensor<64x64xf16>>
    scf.yield %next : !tile.block_ptr<tensor<64x64xf16>>
  } {tile.warp_specialize}
  return
}

// -----

// The loop inside two loops: the producer reproduces one loop over tiles.
func.func @nested(%k: !tile.ptr<f16>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %ptr = tile.make_block_ptr %k, [%d, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  scf.for %j = %c0 to %n step %c1 : i32 {
    scf.for %l = %c0 to %n step %c1 : i32 {
      // expected-error @+1 {{tile.warp_specialize: the loop is inside a 'scf.for'; the producer reproduces enclosing scf.if ops and one scf.for only}}
      %p2 = scf.for %i = %c0 to %n step %c64 iter_args(%p = %ptr) -> (!tile.block_ptr<tensor<64x64xf16>>) : i32 {
        %blk = tile.block_load %p : !tile.block_ptr<tensor<64x64xf16>>
        %next = tile.advance %p, [%c64, %c0] : !tile.block_ptr<tensor<64x64xf16>>
        scf.yield %next : !tile.block_ptr<tensor<64x64xf16>>
      } {tile.warp_specialize}
    }
  }
  return
}

// -----

// A loop over tiles that carries a value: the producer would need it.
func.func @carrying(%k: !tile.ptr<f16>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %ptr = tile.make_block_ptr %k, [%d, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%from = %c0) -> (i32) : i32 {
    // expected-error @+1 {{tile.warp_specialize: the scf.for that holds the loop carries values; the producer reproduces a loop over tiles without them}}
    %p2 = scf.for %i = %from to %n step %c64 iter_args(%p = %ptr) -> (!tile.block_ptr<tensor<64x64xf16>>) : i32 {
      %blk = tile.block_load %p : !tile.block_ptr<tensor<64x64xf16>>
      %next = tile.advance %p, [%c64, %c0] : !tile.block_ptr<tensor<64x64xf16>>
      scf.yield %next : !tile.block_ptr<tensor<64x64xf16>>
    } {tile.warp_specialize}
    %f = arith.addi %from, %c64 : i32
    scf.yield %f : i32
  }
  return
}

// -----

func.func @no_stages(%k: !tile.ptr<f16>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %ptr = tile.make_block_ptr %k, [%d, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  // expected-error @+1 {{tile.warp_specialize: the kernel needs tile.num_stages >= 2 (the ring's stages)}}
  %p2 = scf.for %i = %c0 to %n step %c64 iter_args(%p = %ptr) -> (!tile.block_ptr<tensor<64x64xf16>>) : i32 {
    %blk = tile.block_load %p : !tile.block_ptr<tensor<64x64xf16>>
    %next = tile.advance %p, [%c64, %c0] : !tile.block_ptr<tensor<64x64xf16>>
    scf.yield %next : !tile.block_ptr<tensor<64x64xf16>>
  } {tile.warp_specialize}
  return
}

// -----

// A loop bound the producer cannot compute from scalars: a loaded value.
func.func @loaded_bound(%k: !tile.ptr<f16>, %np: !tile.ptr<i32>)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  // expected-error @+1 {{tile.warp_specialize: the producer needs this value, which is not computed from scalars by pure ops}}
  %n = tile.load %np : !tile.ptr<i32>
  %ptr = tile.make_block_ptr %k, [%d, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  %p2 = scf.for %i = %c0 to %n step %c64 iter_args(%p = %ptr) -> (!tile.block_ptr<tensor<64x64xf16>>) : i32 {
    %blk = tile.block_load %p : !tile.block_ptr<tensor<64x64xf16>>
    %next = tile.advance %p, [%c64, %c0] : !tile.block_ptr<tensor<64x64xf16>>
    scf.yield %next : !tile.block_ptr<tensor<64x64xf16>>
  } {tile.warp_specialize}
  return
}

// -----

// A second marked loop that does not start where the first one ends.
func.func @unchained(%k: !tile.ptr<f16>, %n: i32, %mid: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %ptr = tile.make_block_ptr %k, [%d, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  %p1 = scf.for %i = %c0 to %mid step %c64 iter_args(%p = %ptr) -> (!tile.block_ptr<tensor<64x64xf16>>) : i32 {
    %blk = tile.block_load %p : !tile.block_ptr<tensor<64x64xf16>>
    %next = tile.advance %p, [%c64, %c0] : !tile.block_ptr<tensor<64x64xf16>>
    scf.yield %next : !tile.block_ptr<tensor<64x64xf16>>
  } {tile.warp_specialize}
  // expected-error @+1 {{tile.warp_specialize: a second marked loop does not continue the first one's streams: it does not start where the first ends, with the same step}}
  %p2 = scf.for %i = %c0 to %n step %c64 iter_args(%p = %p1) -> (!tile.block_ptr<tensor<64x64xf16>>) : i32 {
    %blk = tile.block_load %p : !tile.block_ptr<tensor<64x64xf16>>
    %next = tile.advance %p, [%c64, %c0] : !tile.block_ptr<tensor<64x64xf16>>
    scf.yield %next : !tile.block_ptr<tensor<64x64xf16>>
  } {tile.warp_specialize}
  return
}

// -----

// Eight programs per SM launch with 16 registers per thread (65536 over
// 8 x 384 threads, in multiples of 8): the producer's 24 leave the
// program's warps fewer than 24 of their pool.
func.func @too_many_programs(%k: !tile.ptr<f16>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 8 : i32, tile.num_stages = 2 : i32, tile.min_programs_per_sm = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %ptr = tile.make_block_ptr %k, [%d, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  // expected-error @+1 {{tile.warp_specialize: 8 programs per SM (tile.min_programs_per_sm) leave the program's warps fewer than 24 registers each}}
  %p2 = scf.for %i = %c0 to %n step %c64 iter_args(%p = %ptr) -> (!tile.block_ptr<tensor<64x64xf16>>) : i32 {
    %blk = tile.block_load %p : !tile.block_ptr<tensor<64x64xf16>>
    %next = tile.advance %p, [%c64, %c0] : !tile.block_ptr<tensor<64x64xf16>>
    scf.yield %next : !tile.block_ptr<tensor<64x64xf16>>
  } {tile.warp_specialize}
  return
}
