// What tile.warp_specialize and TMA copies of higher-rank blocks reject.
//
// RUN: tile-opt %s -split-input-file -verify-diagnostics

func.func @not_in_kernel() {
  // expected-error @+1 {{'tile.warp_specialize' op must be directly in a kernel's body}}
  tile.warp_specialize registers(24, 240) {
  }
  return
}

// -----

func.func @register_file(%n: i32) attributes {tile.kernel, tile.num_warps = 16 : i32} {
  // expected-error @+1 {{'tile.warp_specialize' op needs 125952 registers at these counts (4 producer warps, 16 others); the program launches with 61440 (96 per thread, 1 program per SM)}}
  tile.warp_specialize registers(24, 240) {
  }
  return
}

// -----

// Two programs per SM launch with 80 registers per thread (65536 over 768
// threads, in multiples of 8): 240 for the program's warps would wait
// forever for registers its pool does not have.
func.func @shared_sm(%n: i32) attributes {tile.kernel, tile.num_warps = 8 : i32, tile.min_programs_per_sm = 2 : i32} {
  // expected-error @+1 {{'tile.warp_specialize' op needs 64512 registers at these counts (4 producer warps, 8 others); the program launches with 30720 (80 per thread, 2 programs per SM)}}
  tile.warp_specialize registers(24, 240) {
  }
  return
}

// -----

func.func @odd_registers() attributes {tile.kernel, tile.num_warps = 8 : i32} {
  // expected-error @+1 {{'tile.warp_specialize' op register counts must be multiples of 8, got 100}}
  tile.warp_specialize registers(24, 100) {
  }
  return
}

// -----

func.func @tile_before(%n: i32) attributes {tile.kernel, tile.num_warps = 8 : i32} {
  // expected-error @+1 {{'tile.range' op computes a tile before tile.warp_specialize, which every warp (the producer's too) runs}}
  %r = tile.range 0, 64 : tensor<64xi32>
  tile.warp_specialize registers(24, 240) {
  }
  return
}

// -----

func.func @tile_in_producer(%n: i32) attributes {tile.kernel, tile.num_warps = 8 : i32} {
  tile.warp_specialize registers(24, 240) {
    // expected-error @+1 {{'tile.splat' op works on a tile in a producer region, which has no layout for tiles}}
    %s = tile.splat %n : tensor<64xi32>
  }
  return
}

// -----

func.func @two_producers() attributes {tile.kernel, tile.num_warps = 8 : i32} {
  // expected-error @+1 {{'tile.warp_specialize' op appears 2 times in the kernel; one producer warpgroup at most}}
  tile.warp_specialize registers(24, 240) {
  }
  tile.warp_specialize registers(24, 240) {
  }
  return
}

// -----

func.func @leading_not_one(%bp: !tile.block_ptr<tensor<2x64x128xf16>>, %map: !tile.tensormap, %s: i32, %p: i1) {
  %buf = tile.alloc_shared : !tile.shared<tensor<64x128xf16>, stages = 2, pad = 8>
  %bars = tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 1>
  // expected-error @+1 {{'tile.tma_copy' op copies a block of type 'tensor<2x64x128xf16>', which is not 1 along its leading dimensions}}
  tile.tma_copy %bp, %buf[%s] map %map, %bars if %p : !tile.block_ptr<tensor<2x64x128xf16>>, !tile.shared<tensor<64x128xf16>, stages = 2, pad = 8>, !tile.mbarriers<2, arrivals = 1>
  return
}

// -----

func.func @batch_and_rank(%bp: !tile.block_ptr<tensor<1x64x128xf16>>, %map: !tile.tensormap, %s: i32, %p: i1) {
  %buf = tile.alloc_shared : !tile.shared<tensor<64x128xf16>, stages = 2, pad = 8>
  %bars = tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 1>
  // expected-error @+1 {{'tile.tma_copy' op takes no `batch` with a block pointer of rank 3: the pointer's leading offsets place the block}}
  tile.tma_copy %bp, %buf[%s] map %map, %bars if %p batch %s : !tile.block_ptr<tensor<1x64x128xf16>>, !tile.shared<tensor<64x128xf16>, stages = 2, pad = 8>, !tile.mbarriers<2, arrivals = 1>
  return
}

// -----

func.func @turn_without_producer() attributes {tile.kernel, tile.num_warps = 8 : i32} {
  // expected-error @+1 {{'tile.wait_turn' op takes turns between the warpgroups of a pair in a warp-specialized kernel of 8 or 16 warps}}
  tile.wait_turn
  return
}

// -----

func.func @turn_with_four_warps() attributes {tile.kernel, tile.num_warps = 4 : i32} {
  tile.warp_specialize registers(24, 240) {
  }
  // expected-error @+1 {{'tile.pass_turn' op takes turns between the warpgroups of a pair in a warp-specialized kernel of 8 or 16 warps}}
  tile.pass_turn
  return
}

// -----

func.func @turn_in_producer() attributes {tile.kernel, tile.num_warps = 8 : i32} {
  tile.warp_specialize registers(24, 240) {
    // expected-error @+1 {{'tile.wait_turn' op is in a producer region}}
    tile.wait_turn
  }
  return
}
