// matmul_f16_hopper.mlir - the f16 matmul of matmul_f16_auto.mlir with
// the tile shape Hopper's wgmma wants, and the same kernel with a fused
// leaky-ReLU epilogue. Compiled for sm_90a, each 128 x 256 tile of C is two
// warpgroups' m64n256k16 wgmma chains over 64-wide K steps, fed by a
// four-stage cp.async pipeline (the tile-pipeline-loops pass keeps one
// stage for the wgmma group still running, so copies run two steps ahead).
// For other chips the same kernels use mma.sync. C's tile is stored from a
// layout of 16-byte vectors along rows (tile.convert_layout, staged through
// the pipeline's shared memory once the loop is done) rather than from the
// accumulator's, whose lanes write 4 bytes in each of 8 rows: 0.214 ->
// 0.201 ms at 4096^3 with TMA on an H200. Programs walk C's tiles
// in groups of 8 tile rows (column by column inside a group), so that
// programs running together share their A and B tiles in L2.
// (Configuration from bench/scripts/tune_matmul.py on an H200; see
// docs/perf-notes.md.)
//
// Kernels (same signature):
//   @matmul_f16_hopper(%a, %b, %c: !tile.ptr<f16>, %M, %N, %K: i32,
//                      %stride_am, %stride_ak, %stride_bk, %stride_bn,
//                      %stride_cm, %stride_cn: i64)    C = A @ B
//   @matmul_f16_hopper_leaky_relu(...same...)          C = leaky_relu(A @ B),
//                                      leaky_relu(x) = x > 0 ? x : 0.01 * x
//   @matmul_f16_hopper_tma(...same...)               C = A @ B, TMA copies
//   @matmul_f16_hopper_tma_leaky_relu(...same...)    leaky_relu(A @ B), TMA
// f32 accumulation, C rounded to f16. Any M, N, K >= 1 (loads pad with
// zero, the store is bounds-checked).
//
// The _tma kernels (tile.tma) copy A's and B's blocks with the tensor
// memory accelerator on sm_90a: one thread per program issues each stage's
// copies, which complete on an mbarrier, instead of every thread issuing
// 16-byte cp.async. TMA needs A and B row-major (stride_ak = stride_bn =
// 1), 16-byte aligned, with rows of a multiple of 16 bytes (K and N
// multiples of 8 here); the launch reports any other layout. On other
// chips they are the plain kernels.
//
// Grid: (cdiv(M, 128) * cdiv(N, 256), 1, 1).

module {
  // This program's 128 x 256 tile of A @ B, and where it goes in C.
  func.func private @matmul_tile(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %M: i32,
                         %N: i32, %K: i32, %stride_am: i64, %stride_ak: i64,
                         %stride_bk: i64, %stride_bn: i64)
      -> (tensor<128x256xf32>, i32, i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %c127 = arith.constant 127 : i32
    %c128 = arith.constant 128 : i32
    %c255 = arith.constant 255 : i32
    %c256 = arith.constant 256 : i32
    %group_rows = arith.constant 8 : i32
    %pid = tile.program_id 0
    %M_up = arith.addi %M, %c127 : i32
    %tiles_m = arith.divsi %M_up, %c128 : i32
    %N_up = arith.addi %N, %c255 : i32
    %tiles_n = arith.divsi %N_up, %c256 : i32
    // Group g holds tile rows 8g .. 8g + 7 (fewer in the last group).
    %per_group = arith.muli %group_rows, %tiles_n : i32
    %group = arith.divsi %pid, %per_group : i32
    %first_m = arith.muli %group, %group_rows : i32
    %left = arith.subi %tiles_m, %first_m : i32
    %rows = arith.minsi %left, %group_rows : i32
    %in_group = arith.remsi %pid, %per_group : i32
    %dm = arith.remsi %in_group, %rows : i32
    %pid_m = arith.addi %first_m, %dm : i32
    %pid_n = arith.divsi %in_group, %rows : i32
    %row = arith.muli %pid_m, %c128 : i32
    %col = arith.muli %pid_n, %c256 : i32
    %M64 = arith.extsi %M : i32 to i64
    %N64 = arith.extsi %N : i32 to i64
    %K64 = arith.extsi %K : i32 to i64
    %pa = tile.make_block_ptr %a, [%M64, %K64], [%stride_am, %stride_ak],
        [%row, %c0] order = [1, 0] : !tile.block_ptr<tensor<128x64xf16>>
    %pb = tile.make_block_ptr %b, [%K64, %N64], [%stride_bk, %stride_bn],
        [%c0, %col] order = [1, 0] : !tile.block_ptr<tensor<64x256xf16>>
    %zero = arith.constant dense<0.0> : tensor<128x256xf32>
    %acc, %pa_end, %pb_end = scf.for %k = %c0 to %K step %c64
        iter_args(%sum = %zero, %pa_k = %pa, %pb_k = %pb)
        -> (tensor<128x256xf32>, !tile.block_ptr<tensor<128x64xf16>>,
            !tile.block_ptr<tensor<64x256xf16>>) : i32 {
      %x = tile.block_load %pa_k check = [0, 1]
          : !tile.block_ptr<tensor<128x64xf16>>
      %y = tile.block_load %pb_k check = [0, 1]
          : !tile.block_ptr<tensor<64x256xf16>>
      %next = tile.dot %x, %y, %sum
          : tensor<128x64xf16>, tensor<64x256xf16> -> tensor<128x256xf32>
      %pa_next = tile.advance %pa_k, [%c0, %c64]
          : !tile.block_ptr<tensor<128x64xf16>>
      %pb_next = tile.advance %pb_k, [%c64, %c0]
          : !tile.block_ptr<tensor<64x256xf16>>
      scf.yield %next, %pa_next, %pb_next
          : tensor<128x256xf32>, !tile.block_ptr<tensor<128x64xf16>>,
            !tile.block_ptr<tensor<64x256xf16>>
    }
    return %acc, %row, %col : tensor<128x256xf32>, i32, i32
  }

  func.func private @store_c(%c: !tile.ptr<f16>, %tile: tensor<128x256xf32>,
                     %row: i32, %col: i32, %M: i32, %N: i32,
                     %stride_cm: i64, %stride_cn: i64) {
    %M64 = arith.extsi %M : i32 to i64
    %N64 = arith.extsi %N : i32 to i64
    %pc = tile.make_block_ptr %c, [%M64, %N64], [%stride_cm, %stride_cn],
        [%row, %col] order = [1, 0] : !tile.block_ptr<tensor<128x256xf16>>
    %half = arith.truncf %tile : tensor<128x256xf32> to tensor<128x256xf16>
    // Without layouts here: layout assignment gives %half the accumulator's
    // layout and %rows the store's coalesced one.
    %rows = tile.convert_layout %half
        : tensor<128x256xf16> -> tensor<128x256xf16>
    tile.block_store %pc, %rows check = [0, 1]
        : !tile.block_ptr<tensor<128x256xf16>>
    return
  }

  func.func @matmul_f16_hopper(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>,
                               %c: !tile.ptr<f16>, %M: i32, %N: i32, %K: i32,
                               %stride_am: i64, %stride_ak: i64,
                               %stride_bk: i64, %stride_bn: i64,
                               %stride_cm: i64, %stride_cn: i64)
      attributes {tile.kernel, tile.num_warps = 8 : i32,
                  tile.num_stages = 4 : i32} {
    %acc, %row, %col = func.call @matmul_tile(%a, %b, %M, %N, %K,
        %stride_am, %stride_ak, %stride_bk, %stride_bn)
        : (!tile.ptr<f16>, !tile.ptr<f16>, i32, i32, i32, i64, i64, i64, i64)
        -> (tensor<128x256xf32>, i32, i32)
    func.call @store_c(%c, %acc, %row, %col, %M, %N, %stride_cm, %stride_cn)
        : (!tile.ptr<f16>, tensor<128x256xf32>, i32, i32, i32, i32, i64, i64)
        -> ()
    return
  }

  func.func @matmul_f16_hopper_leaky_relu(%a: !tile.ptr<f16>,
                                          %b: !tile.ptr<f16>,
                                          %c: !tile.ptr<f16>, %M: i32,
                                          %N: i32, %K: i32, %stride_am: i64,
                                          %stride_ak: i64, %stride_bk: i64,
                                          %stride_bn: i64, %stride_cm: i64,
                                          %stride_cn: i64)
      attributes {tile.kernel, tile.num_warps = 8 : i32,
                  tile.num_stages = 4 : i32} {
    %acc, %row, %col = func.call @matmul_tile(%a, %b, %M, %N, %K,
        %stride_am, %stride_ak, %stride_bk, %stride_bn)
        : (!tile.ptr<f16>, !tile.ptr<f16>, i32, i32, i32, i64, i64, i64, i64)
        -> (tensor<128x256xf32>, i32, i32)
    %zero = arith.constant dense<0.0> : tensor<128x256xf32>
    %slope = arith.constant dense<0.01> : tensor<128x256xf32>
    %positive = arith.cmpf ogt, %acc, %zero : tensor<128x256xf32>
    %scaled = arith.mulf %acc, %slope : tensor<128x256xf32>
    %act = arith.select %positive, %acc, %scaled : tensor<128x256xi1>,
        tensor<128x256xf32>
    func.call @store_c(%c, %act, %row, %col, %M, %N, %stride_cm, %stride_cn)
        : (!tile.ptr<f16>, tensor<128x256xf32>, i32, i32, i32, i32, i64, i64)
        -> ()
    return
  }

  func.func @matmul_f16_hopper_tma(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>,
                                   %c: !tile.ptr<f16>, %M: i32, %N: i32, %K: i32,
                                   %stride_am: i64, %stride_ak: i64,
                                   %stride_bk: i64, %stride_bn: i64,
                                   %stride_cm: i64, %stride_cn: i64)
      attributes {tile.kernel, tile.num_warps = 8 : i32,
                  tile.num_stages = 4 : i32, tile.tma} {
    %acc, %row, %col = func.call @matmul_tile(%a, %b, %M, %N, %K,
        %stride_am, %stride_ak, %stride_bk, %stride_bn)
        : (!tile.ptr<f16>, !tile.ptr<f16>, i32, i32, i32, i64, i64, i64, i64)
        -> (tensor<128x256xf32>, i32, i32)
    func.call @store_c(%c, %acc, %row, %col, %M, %N, %stride_cm, %stride_cn)
        : (!tile.ptr<f16>, tensor<128x256xf32>, i32, i32, i32, i32, i64, i64)
        -> ()
    return
  }

  func.func @matmul_f16_hopper_tma_leaky_relu(%a: !tile.ptr<f16>,
                                              %b: !tile.ptr<f16>,
                                              %c: !tile.ptr<f16>, %M: i32,
                                              %N: i32, %K: i32, %stride_am: i64,
                                              %stride_ak: i64, %stride_bk: i64,
                                              %stride_bn: i64, %stride_cm: i64,
                                              %stride_cn: i64)
      attributes {tile.kernel, tile.num_warps = 8 : i32,
                  tile.num_stages = 4 : i32, tile.tma} {
    %acc, %row, %col = func.call @matmul_tile(%a, %b, %M, %N, %K,
        %stride_am, %stride_ak, %stride_bk, %stride_bn)
        : (!tile.ptr<f16>, !tile.ptr<f16>, i32, i32, i32, i64, i64, i64, i64)
        -> (tensor<128x256xf32>, i32, i32)
    %zero = arith.constant dense<0.0> : tensor<128x256xf32>
    %slope = arith.constant dense<0.01> : tensor<128x256xf32>
    %positive = arith.cmpf ogt, %acc, %zero : tensor<128x256xf32>
    %scaled = arith.mulf %acc, %slope : tensor<128x256xf32>
    %act = arith.select %positive, %acc, %scaled : tensor<128x256xi1>,
        tensor<128x256xf32>
    func.call @store_c(%c, %act, %row, %col, %M, %N, %stride_cm, %stride_cn)
        : (!tile.ptr<f16>, tensor<128x256xf32>, i32, i32, i32, i32, i64, i64)
        -> ()
    return
  }
}
