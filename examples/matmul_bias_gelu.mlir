// matmul_bias_gelu.mlir - C = GELU(A @ B + bias) in f16, with f32
// accumulation and an f32 epilogue: the loop of matmul_f16_auto.mlir
// (compiler-pipelined block loads), then the bias of each column and the
// exact GELU, x/2 (1 + erf(x / sqrt 2)) (torch.nn.functional.gelu), before
// the one rounding to f16.
//
// Kernel:
//   @matmul_bias_gelu(%a, %b, %c: !tile.ptr<f16>, %bias: !tile.ptr<f32>,
//                     %M, %N, %K: i32, %stride_am, %stride_ak, %stride_bk,
//                     %stride_bn, %stride_cm, %stride_cn: i64)
//     A is M x K, B is K x N, C is M x N (any strides); bias has N elements.
//
// Parameters: those of matmul_f16_auto.mlir (BLOCK_M, BLOCK_N, BLOCK_K,
// GROUP_M, NUM_WARPS, NUM_STAGES, MIN_PROGRAMS_PER_SM), with no bound on
// programs per SM by default: two would cap the registers at 128 per
// thread, and the epilogue's GELU would spill.
//
// Grid: (cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N), 1, 1).

tile.param BLOCK_M = 128
tile.param BLOCK_N = 128
tile.param BLOCK_K = 32
tile.param GROUP_M = 1
tile.param NUM_WARPS = 8
tile.param NUM_STAGES = 3
tile.param MIN_PROGRAMS_PER_SM = 0

module {
  func.func @matmul_bias_gelu(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>,
                             %c: !tile.ptr<f16>, %bias: !tile.ptr<f32>,
                             %M: i32, %N: i32, %K: i32,
                             %stride_am: i64, %stride_ak: i64,
                             %stride_bk: i64, %stride_bn: i64,
                             %stride_cm: i64, %stride_cn: i64)
      attributes {tile.kernel, tile.num_warps = ${NUM_WARPS} : i32,
                  tile.num_stages = ${NUM_STAGES} : i32,
                  tile.min_programs_per_sm = ${MIN_PROGRAMS_PER_SM} : i32} {
    %c0 = arith.constant 0 : i32
    %cBK = arith.constant ${BLOCK_K} : i32
    %cBM = arith.constant ${BLOCK_M} : i32
    %cBN = arith.constant ${BLOCK_N} : i32
    %cBM1 = arith.constant ${BLOCK_M - 1} : i32
    %cBN1 = arith.constant ${BLOCK_N - 1} : i32
    %cG = arith.constant ${GROUP_M} : i32
    %pid = tile.program_id 0
    // Tile (pid_m, pid_n) of C: groups of GROUP_M tile rows, column-major
    // inside a group; the last group may have fewer rows.
    %M_up = arith.addi %M, %cBM1 : i32
    %tiles_m = arith.divsi %M_up, %cBM : i32
    %N_up = arith.addi %N, %cBN1 : i32
    %tiles_n = arith.divsi %N_up, %cBN : i32
    %width = arith.muli %cG, %tiles_n : i32
    %group = arith.divsi %pid, %width : i32
    %first_m = arith.muli %group, %cG : i32
    %left = arith.subi %tiles_m, %first_m : i32
    %rows = arith.minsi %left, %cG : i32
    %in_group = arith.remsi %pid, %width : i32
    %dm = arith.remsi %in_group, %rows : i32
    %pid_m = arith.addi %first_m, %dm : i32
    %pid_n = arith.divsi %in_group, %rows : i32
    %row = arith.muli %pid_m, %cBM : i32
    %col = arith.muli %pid_n, %cBN : i32
    %M64 = arith.extsi %M : i32 to i64
    %N64 = arith.extsi %N : i32 to i64
    %K64 = arith.extsi %K : i32 to i64
    %pa = tile.make_block_ptr %a, [%M64, %K64], [%stride_am, %stride_ak],
        [%row, %c0] order = [1, 0]
        : !tile.block_ptr<tensor<${BLOCK_M}x${BLOCK_K}xf16>>
    %pb = tile.make_block_ptr %b, [%K64, %N64], [%stride_bk, %stride_bn],
        [%c0, %col] order = [1, 0]
        : !tile.block_ptr<tensor<${BLOCK_K}x${BLOCK_N}xf16>>
    %zero = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %acc, %pa_end, %pb_end = scf.for %k = %c0 to %K step %cBK
        iter_args(%sum = %zero, %pa_k = %pa, %pb_k = %pb)
        -> (tensor<${BLOCK_M}x${BLOCK_N}xf32>,
            !tile.block_ptr<tensor<${BLOCK_M}x${BLOCK_K}xf16>>,
            !tile.block_ptr<tensor<${BLOCK_K}x${BLOCK_N}xf16>>) : i32 {
      %x = tile.block_load %pa_k check = [0, 1]
          : !tile.block_ptr<tensor<${BLOCK_M}x${BLOCK_K}xf16>>
      %y = tile.block_load %pb_k check = [0, 1]
          : !tile.block_ptr<tensor<${BLOCK_K}x${BLOCK_N}xf16>>
      %next = tile.dot %x, %y, %sum
          : tensor<${BLOCK_M}x${BLOCK_K}xf16>,
            tensor<${BLOCK_K}x${BLOCK_N}xf16>
            -> tensor<${BLOCK_M}x${BLOCK_N}xf32>
      %pa_next = tile.advance %pa_k, [%c0, %cBK]
          : !tile.block_ptr<tensor<${BLOCK_M}x${BLOCK_K}xf16>>
      %pb_next = tile.advance %pb_k, [%cBK, %c0]
          : !tile.block_ptr<tensor<${BLOCK_K}x${BLOCK_N}xf16>>
      scf.yield %next, %pa_next, %pb_next
          : tensor<${BLOCK_M}x${BLOCK_N}xf32>,
            !tile.block_ptr<tensor<${BLOCK_M}x${BLOCK_K}xf16>>,
            !tile.block_ptr<tensor<${BLOCK_K}x${BLOCK_N}xf16>>
    }
    %pc = tile.make_block_ptr %c, [%M64, %N64], [%stride_cm, %stride_cn],
        [%row, %col] order = [1, 0]
        : !tile.block_ptr<tensor<${BLOCK_M}x${BLOCK_N}xf16>>
    // Epilogue in f32: + bias[col], then GELU(x) = x/2 (1 + erf(x/sqrt 2)).
    %ci = tile.range 0, ${BLOCK_N} : tensor<${BLOCK_N}xi32>
    %col_s = tile.splat %col : tensor<${BLOCK_N}xi32>
    %bias_cols = arith.addi %col_s, %ci : tensor<${BLOCK_N}xi32>
    %N_s = tile.splat %N : tensor<${BLOCK_N}xi32>
    %bias_mask = arith.cmpi slt, %bias_cols, %N_s : tensor<${BLOCK_N}xi32>
    %bias_base = tile.splat %bias : tensor<${BLOCK_N}x!tile.ptr<f32>>
    %bias_ptrs = tile.addptr %bias_base, %bias_cols
        : tensor<${BLOCK_N}x!tile.ptr<f32>>, tensor<${BLOCK_N}xi32>
    %bias_v = tile.load %bias_ptrs, %bias_mask : tensor<${BLOCK_N}x!tile.ptr<f32>>
    %bias_row = tile.expand_dims %bias_v axis = 0
        : tensor<${BLOCK_N}xf32> -> tensor<1x${BLOCK_N}xf32>
    %bias_tile = tile.broadcast %bias_row
        : tensor<1x${BLOCK_N}xf32> -> tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %pre = arith.addf %acc, %bias_tile : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %inv_sqrt2 = arith.constant dense<0.70710678118654752> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %half_c = arith.constant dense<0.5> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %one = arith.constant dense<1.0> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %scaled = arith.mulf %pre, %inv_sqrt2 : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %erf = math.erf %scaled : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %one_erf = arith.addf %one, %erf : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %half_x = arith.mulf %pre, %half_c : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %gelu = arith.mulf %half_x, %one_erf : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %half = arith.truncf %gelu
        : tensor<${BLOCK_M}x${BLOCK_N}xf32> to tensor<${BLOCK_M}x${BLOCK_N}xf16>
    tile.block_store %pc, %half check = [0, 1]
        : !tile.block_ptr<tensor<${BLOCK_M}x${BLOCK_N}xf16>>
    return
  }
}
