// matmul.mlir - C = A @ B for f32 matrices of any shape, and the same kernel
// with a fused leaky-ReLU epilogue.
//
// Mirrors Triton's matmul tutorial (the `_matmul` kernel):
// each program computes one BLOCK_M x BLOCK_N = 32x32 tile of C, marching
// along K in steps of BLOCK_K = 32 with tile-of-pointer loads and a f32
// accumulator; programs are ordered in groups of GROUP_SIZE_M = 8 block-rows
// for L2 reuse. The tutorial's `ACTIVATION` meta-parameter becomes the second
// kernel, @matmul_leaky_relu.
//
// Kernels (same signature):
//   @matmul(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %c: !tile.ptr<f32>,
//           %M: i32, %N: i32, %K: i32,
//           %stride_am: i32, %stride_ak: i32, %stride_bk: i32, %stride_bn: i32,
//           %stride_cm: i32, %stride_cn: i32)
//   @matmul_leaky_relu(...same...)   C = leaky_relu(A @ B),
//                                    leaky_relu(x) = x > 0 ? x : 0.01 * x
//     %a  A, M x K, element (i, k) at a + i*stride_am + k*stride_ak
//     %b  B, K x N, element (k, j) at b + k*stride_bk + j*stride_bn
//     %c  C, M x N, element (i, j) at c + i*stride_cm + j*stride_cn
//     strides are in elements; any layout (row-major, column-major, views).
//
// Grid: (cdiv(M, 32) * cdiv(N, 32), 1, 1), a 1-d grid. Program `pid` maps to
// the C tile (pid_m, pid_n) by the grouped ordering:
//   num_pid_m = cdiv(M, 32), num_pid_n = cdiv(N, 32)
//   num_pid_in_group = GROUP_SIZE_M * num_pid_n
//   group_id = pid / num_pid_in_group, first_pid_m = group_id * GROUP_SIZE_M
//   group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
//   pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m
//   pid_n = (pid % num_pid_in_group) / group_size_m
// (the tutorial writes pid % group_size for the second term of pid_m; both give
// a bijection onto the tiles of the group.)
//
// Constraints: M, N, K >= 1 and arbitrary (no multiple-of-32 requirement):
// A loads are masked on rows < M and columns < K, B loads on rows < K and
// columns < N (masked lanes read 0, so they add nothing to the dot), and the
// C store on rows < M and columns < N. The tutorial's kernel has no load masks
// and needs K % BLOCK_K == 0; the masks on k here remove that requirement.
// Offsets are i32: every element offset must fit in i32. The dot uses the
// default `ieee` precision (exact f32 FMA); the tutorial feeds fp16
// inputs.

module {
  func.func @matmul(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %c: !tile.ptr<f32>,
                    %M: i32, %N: i32, %K: i32,
                    %stride_am: i32, %stride_ak: i32,
                    %stride_bk: i32, %stride_bn: i32,
                    %stride_cm: i32, %stride_cn: i32)
      attributes {tile.kernel, tile.num_warps = 4 : i32} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %block_m = arith.constant 32 : i32
    %block_n = arith.constant 32 : i32
    %block_k = arith.constant 32 : i32
    %group_size = arith.constant 8 : i32   // GROUP_SIZE_M

    // ---- Grouped program order: pid -> (pid_m, pid_n).
    %pid = tile.program_id 0
    %block_m_minus_1 = arith.subi %block_m, %c1 : i32
    %block_n_minus_1 = arith.subi %block_n, %c1 : i32
    %M_round_up = arith.addi %M, %block_m_minus_1 : i32
    %N_round_up = arith.addi %N, %block_n_minus_1 : i32
    %num_pid_m = arith.divsi %M_round_up, %block_m : i32
    %num_pid_n = arith.divsi %N_round_up, %block_n : i32
    %num_pid_in_group = arith.muli %group_size, %num_pid_n : i32
    %group_id = arith.divsi %pid, %num_pid_in_group : i32
    %first_pid_m = arith.muli %group_id, %group_size : i32
    %rows_left = arith.subi %num_pid_m, %first_pid_m : i32
    %group_size_m = arith.minsi %rows_left, %group_size : i32
    %pid_in_group = arith.remsi %pid, %num_pid_in_group : i32
    %pid_m_in_group = arith.remsi %pid_in_group, %group_size_m : i32
    %pid_m = arith.addi %first_pid_m, %pid_m_in_group : i32
    %pid_n = arith.divsi %pid_in_group, %group_size_m : i32

    // ---- Row, column and k offsets of this program's tiles.
    %lanes = tile.range 0, 32 : tensor<32xi32>
    %row_start = arith.muli %pid_m, %block_m : i32
    %col_start = arith.muli %pid_n, %block_n : i32
    %row_starts = tile.splat %row_start : tensor<32xi32>
    %col_starts = tile.splat %col_start : tensor<32xi32>
    %offs_m = arith.addi %row_starts, %lanes : tensor<32xi32>   // rows of A and C
    %offs_n = arith.addi %col_starts, %lanes : tensor<32xi32>   // columns of B and C
    %offs_k = tile.range 0, 32 : tensor<32xi32>

    // offs_m[:, None], offs_n[None, :], offs_k[None, :], offs_k[:, None]
    %offs_m_col = tile.expand_dims %offs_m axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
    %offs_n_row = tile.expand_dims %offs_n axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
    %offs_k_row = tile.expand_dims %offs_k axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
    %offs_k_col = tile.expand_dims %offs_k axis = 1 : tensor<32xi32> -> tensor<32x1xi32>

    // a_ptrs = a + (offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak)
    %stride_am_col = tile.splat %stride_am : tensor<32x1xi32>
    %stride_ak_row = tile.splat %stride_ak : tensor<1x32xi32>
    %a_row_offs = arith.muli %offs_m_col, %stride_am_col : tensor<32x1xi32>
    %a_k_offs = arith.muli %offs_k_row, %stride_ak_row : tensor<1x32xi32>
    %a_row_offs_2d = tile.broadcast %a_row_offs : tensor<32x1xi32> -> tensor<32x32xi32>
    %a_k_offs_2d = tile.broadcast %a_k_offs : tensor<1x32xi32> -> tensor<32x32xi32>
    %a_offs = arith.addi %a_row_offs_2d, %a_k_offs_2d : tensor<32x32xi32>
    %a_base = tile.splat %a : tensor<32x32x!tile.ptr<f32>>
    %a_ptrs0 = tile.addptr %a_base, %a_offs : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>

    // b_ptrs = b + (offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn)
    %stride_bk_col = tile.splat %stride_bk : tensor<32x1xi32>
    %stride_bn_row = tile.splat %stride_bn : tensor<1x32xi32>
    %b_k_offs = arith.muli %offs_k_col, %stride_bk_col : tensor<32x1xi32>
    %b_col_offs = arith.muli %offs_n_row, %stride_bn_row : tensor<1x32xi32>
    %b_k_offs_2d = tile.broadcast %b_k_offs : tensor<32x1xi32> -> tensor<32x32xi32>
    %b_col_offs_2d = tile.broadcast %b_col_offs : tensor<1x32xi32> -> tensor<32x32xi32>
    %b_offs = arith.addi %b_k_offs_2d, %b_col_offs_2d : tensor<32x32xi32>
    %b_base = tile.splat %b : tensor<32x32x!tile.ptr<f32>>
    %b_ptrs0 = tile.addptr %b_base, %b_offs : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>

    // Loop-invariant masks: rows of A < M, columns of B < N.
    %M_col = tile.splat %M : tensor<32x1xi32>
    %N_row = tile.splat %N : tensor<1x32xi32>
    %a_row_in = arith.cmpi slt, %offs_m_col, %M_col : tensor<32x1xi32>
    %b_col_in = arith.cmpi slt, %offs_n_row, %N_row : tensor<1x32xi32>
    %a_row_mask = tile.broadcast %a_row_in : tensor<32x1xi1> -> tensor<32x32xi1>
    %b_col_mask = tile.broadcast %b_col_in : tensor<1x32xi1> -> tensor<32x32xi1>

    // Pointer increments per K step: BLOCK_K * stride_ak, BLOCK_K * stride_bk.
    %a_step = arith.muli %block_k, %stride_ak : i32
    %b_step = arith.muli %block_k, %stride_bk : i32
    %a_steps = tile.splat %a_step : tensor<32x32xi32>
    %b_steps = tile.splat %b_step : tensor<32x32xi32>

    // ---- K loop: acc += A[:, k:k+32] @ B[k:k+32, :], masked on k < K.
    %acc_init = arith.constant dense<0.0> : tensor<32x32xf32>
    %acc_final, %a_ptrs_end, %b_ptrs_end = scf.for %k = %c0 to %K step %block_k
        iter_args(%acc = %acc_init, %a_ptrs = %a_ptrs0, %b_ptrs = %b_ptrs0)
        -> (tensor<32x32xf32>, tensor<32x32x!tile.ptr<f32>>, tensor<32x32x!tile.ptr<f32>>)
        : i32 {
      // k-mask: offs_k < K - k (the last block may be partial).
      %k_left = arith.subi %K, %k : i32
      %k_left_row = tile.splat %k_left : tensor<1x32xi32>
      %k_left_col = tile.splat %k_left : tensor<32x1xi32>
      %a_k_in = arith.cmpi slt, %offs_k_row, %k_left_row : tensor<1x32xi32>
      %b_k_in = arith.cmpi slt, %offs_k_col, %k_left_col : tensor<32x1xi32>
      %a_k_mask = tile.broadcast %a_k_in : tensor<1x32xi1> -> tensor<32x32xi1>
      %b_k_mask = tile.broadcast %b_k_in : tensor<32x1xi1> -> tensor<32x32xi1>
      %a_mask = arith.andi %a_row_mask, %a_k_mask : tensor<32x32xi1>
      %b_mask = arith.andi %b_k_mask, %b_col_mask : tensor<32x32xi1>

      // Masked lanes read 0 and add nothing to the product.
      %a_tile = tile.load %a_ptrs, %a_mask : tensor<32x32x!tile.ptr<f32>>
      %b_tile = tile.load %b_ptrs, %b_mask : tensor<32x32x!tile.ptr<f32>>
      %acc_new = tile.dot %a_tile, %b_tile, %acc
          : tensor<32x32xf32>, tensor<32x32xf32> -> tensor<32x32xf32>

      // Advance to the next K block.
      %a_ptrs_next = tile.addptr %a_ptrs, %a_steps : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
      %b_ptrs_next = tile.addptr %b_ptrs, %b_steps : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
      scf.yield %acc_new, %a_ptrs_next, %b_ptrs_next
          : tensor<32x32xf32>, tensor<32x32x!tile.ptr<f32>>, tensor<32x32x!tile.ptr<f32>>
    }

    // ---- Store: c_ptrs = c + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn,
    // masked with (offs_m[:, None] < M) & (offs_n[None, :] < N).
    %stride_cm_col = tile.splat %stride_cm : tensor<32x1xi32>
    %stride_cn_row = tile.splat %stride_cn : tensor<1x32xi32>
    %c_row_offs = arith.muli %offs_m_col, %stride_cm_col : tensor<32x1xi32>
    %c_col_offs = arith.muli %offs_n_row, %stride_cn_row : tensor<1x32xi32>
    %c_row_offs_2d = tile.broadcast %c_row_offs : tensor<32x1xi32> -> tensor<32x32xi32>
    %c_col_offs_2d = tile.broadcast %c_col_offs : tensor<1x32xi32> -> tensor<32x32xi32>
    %c_offs = arith.addi %c_row_offs_2d, %c_col_offs_2d : tensor<32x32xi32>
    %c_base = tile.splat %c : tensor<32x32x!tile.ptr<f32>>
    %c_ptrs = tile.addptr %c_base, %c_offs : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
    %c_mask = arith.andi %a_row_mask, %b_col_mask : tensor<32x32xi1>
    tile.store %c_ptrs, %acc_final, %c_mask : tensor<32x32x!tile.ptr<f32>>
    return
  }

  func.func @matmul_leaky_relu(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %c: !tile.ptr<f32>,
                               %M: i32, %N: i32, %K: i32,
                               %stride_am: i32, %stride_ak: i32,
                               %stride_bk: i32, %stride_bn: i32,
                               %stride_cm: i32, %stride_cn: i32)
      attributes {tile.kernel, tile.num_warps = 4 : i32} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %block_m = arith.constant 32 : i32
    %block_n = arith.constant 32 : i32
    %block_k = arith.constant 32 : i32
    %group_size = arith.constant 8 : i32   // GROUP_SIZE_M

    // ---- Grouped program order: pid -> (pid_m, pid_n).
    %pid = tile.program_id 0
    %block_m_minus_1 = arith.subi %block_m, %c1 : i32
    %block_n_minus_1 = arith.subi %block_n, %c1 : i32
    %M_round_up = arith.addi %M, %block_m_minus_1 : i32
    %N_round_up = arith.addi %N, %block_n_minus_1 : i32
    %num_pid_m = arith.divsi %M_round_up, %block_m : i32
    %num_pid_n = arith.divsi %N_round_up, %block_n : i32
    %num_pid_in_group = arith.muli %group_size, %num_pid_n : i32
    %group_id = arith.divsi %pid, %num_pid_in_group : i32
    %first_pid_m = arith.muli %group_id, %group_size : i32
    %rows_left = arith.subi %num_pid_m, %first_pid_m : i32
    %group_size_m = arith.minsi %rows_left, %group_size : i32
    %pid_in_group = arith.remsi %pid, %num_pid_in_group : i32
    %pid_m_in_group = arith.remsi %pid_in_group, %group_size_m : i32
    %pid_m = arith.addi %first_pid_m, %pid_m_in_group : i32
    %pid_n = arith.divsi %pid_in_group, %group_size_m : i32

    // ---- Row, column and k offsets of this program's tiles.
    %lanes = tile.range 0, 32 : tensor<32xi32>
    %row_start = arith.muli %pid_m, %block_m : i32
    %col_start = arith.muli %pid_n, %block_n : i32
    %row_starts = tile.splat %row_start : tensor<32xi32>
    %col_starts = tile.splat %col_start : tensor<32xi32>
    %offs_m = arith.addi %row_starts, %lanes : tensor<32xi32>   // rows of A and C
    %offs_n = arith.addi %col_starts, %lanes : tensor<32xi32>   // columns of B and C
    %offs_k = tile.range 0, 32 : tensor<32xi32>

    // offs_m[:, None], offs_n[None, :], offs_k[None, :], offs_k[:, None]
    %offs_m_col = tile.expand_dims %offs_m axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
    %offs_n_row = tile.expand_dims %offs_n axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
    %offs_k_row = tile.expand_dims %offs_k axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
    %offs_k_col = tile.expand_dims %offs_k axis = 1 : tensor<32xi32> -> tensor<32x1xi32>

    // a_ptrs = a + (offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak)
    %stride_am_col = tile.splat %stride_am : tensor<32x1xi32>
    %stride_ak_row = tile.splat %stride_ak : tensor<1x32xi32>
    %a_row_offs = arith.muli %offs_m_col, %stride_am_col : tensor<32x1xi32>
    %a_k_offs = arith.muli %offs_k_row, %stride_ak_row : tensor<1x32xi32>
    %a_row_offs_2d = tile.broadcast %a_row_offs : tensor<32x1xi32> -> tensor<32x32xi32>
    %a_k_offs_2d = tile.broadcast %a_k_offs : tensor<1x32xi32> -> tensor<32x32xi32>
    %a_offs = arith.addi %a_row_offs_2d, %a_k_offs_2d : tensor<32x32xi32>
    %a_base = tile.splat %a : tensor<32x32x!tile.ptr<f32>>
    %a_ptrs0 = tile.addptr %a_base, %a_offs : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>

    // b_ptrs = b + (offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn)
    %stride_bk_col = tile.splat %stride_bk : tensor<32x1xi32>
    %stride_bn_row = tile.splat %stride_bn : tensor<1x32xi32>
    %b_k_offs = arith.muli %offs_k_col, %stride_bk_col : tensor<32x1xi32>
    %b_col_offs = arith.muli %offs_n_row, %stride_bn_row : tensor<1x32xi32>
    %b_k_offs_2d = tile.broadcast %b_k_offs : tensor<32x1xi32> -> tensor<32x32xi32>
    %b_col_offs_2d = tile.broadcast %b_col_offs : tensor<1x32xi32> -> tensor<32x32xi32>
    %b_offs = arith.addi %b_k_offs_2d, %b_col_offs_2d : tensor<32x32xi32>
    %b_base = tile.splat %b : tensor<32x32x!tile.ptr<f32>>
    %b_ptrs0 = tile.addptr %b_base, %b_offs : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>

    // Loop-invariant masks: rows of A < M, columns of B < N.
    %M_col = tile.splat %M : tensor<32x1xi32>
    %N_row = tile.splat %N : tensor<1x32xi32>
    %a_row_in = arith.cmpi slt, %offs_m_col, %M_col : tensor<32x1xi32>
    %b_col_in = arith.cmpi slt, %offs_n_row, %N_row : tensor<1x32xi32>
    %a_row_mask = tile.broadcast %a_row_in : tensor<32x1xi1> -> tensor<32x32xi1>
    %b_col_mask = tile.broadcast %b_col_in : tensor<1x32xi1> -> tensor<32x32xi1>

    // Pointer increments per K step: BLOCK_K * stride_ak, BLOCK_K * stride_bk.
    %a_step = arith.muli %block_k, %stride_ak : i32
    %b_step = arith.muli %block_k, %stride_bk : i32
    %a_steps = tile.splat %a_step : tensor<32x32xi32>
    %b_steps = tile.splat %b_step : tensor<32x32xi32>

    // ---- K loop: acc += A[:, k:k+32] @ B[k:k+32, :], masked on k < K.
    %acc_init = arith.constant dense<0.0> : tensor<32x32xf32>
    %acc_final, %a_ptrs_end, %b_ptrs_end = scf.for %k = %c0 to %K step %block_k
        iter_args(%acc = %acc_init, %a_ptrs = %a_ptrs0, %b_ptrs = %b_ptrs0)
        -> (tensor<32x32xf32>, tensor<32x32x!tile.ptr<f32>>, tensor<32x32x!tile.ptr<f32>>)
        : i32 {
      // k-mask: offs_k < K - k (the last block may be partial).
      %k_left = arith.subi %K, %k : i32
      %k_left_row = tile.splat %k_left : tensor<1x32xi32>
      %k_left_col = tile.splat %k_left : tensor<32x1xi32>
      %a_k_in = arith.cmpi slt, %offs_k_row, %k_left_row : tensor<1x32xi32>
      %b_k_in = arith.cmpi slt, %offs_k_col, %k_left_col : tensor<32x1xi32>
      %a_k_mask = tile.broadcast %a_k_in : tensor<1x32xi1> -> tensor<32x32xi1>
      %b_k_mask = tile.broadcast %b_k_in : tensor<32x1xi1> -> tensor<32x32xi1>
      %a_mask = arith.andi %a_row_mask, %a_k_mask : tensor<32x32xi1>
      %b_mask = arith.andi %b_k_mask, %b_col_mask : tensor<32x32xi1>

      // Masked lanes read 0 and add nothing to the product.
      %a_tile = tile.load %a_ptrs, %a_mask : tensor<32x32x!tile.ptr<f32>>
      %b_tile = tile.load %b_ptrs, %b_mask : tensor<32x32x!tile.ptr<f32>>
      %acc_new = tile.dot %a_tile, %b_tile, %acc
          : tensor<32x32xf32>, tensor<32x32xf32> -> tensor<32x32xf32>

      // Advance to the next K block.
      %a_ptrs_next = tile.addptr %a_ptrs, %a_steps : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
      %b_ptrs_next = tile.addptr %b_ptrs, %b_steps : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
      scf.yield %acc_new, %a_ptrs_next, %b_ptrs_next
          : tensor<32x32xf32>, tensor<32x32x!tile.ptr<f32>>, tensor<32x32x!tile.ptr<f32>>
    }

    // Fused epilogue: leaky_relu(acc) = acc > 0 ? acc : 0.01 * acc.
    %zero_tile = arith.constant dense<0.0> : tensor<32x32xf32>
    %slope = arith.constant dense<0.01> : tensor<32x32xf32>
    %is_positive = arith.cmpf ogt, %acc_final, %zero_tile : tensor<32x32xf32>
    %acc_leaky = arith.mulf %acc_final, %slope : tensor<32x32xf32>
    %c_tile = arith.select %is_positive, %acc_final, %acc_leaky : tensor<32x32xi1>, tensor<32x32xf32>

    // ---- Store: c_ptrs = c + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn,
    // masked with (offs_m[:, None] < M) & (offs_n[None, :] < N).
    %stride_cm_col = tile.splat %stride_cm : tensor<32x1xi32>
    %stride_cn_row = tile.splat %stride_cn : tensor<1x32xi32>
    %c_row_offs = arith.muli %offs_m_col, %stride_cm_col : tensor<32x1xi32>
    %c_col_offs = arith.muli %offs_n_row, %stride_cn_row : tensor<1x32xi32>
    %c_row_offs_2d = tile.broadcast %c_row_offs : tensor<32x1xi32> -> tensor<32x32xi32>
    %c_col_offs_2d = tile.broadcast %c_col_offs : tensor<1x32xi32> -> tensor<32x32xi32>
    %c_offs = arith.addi %c_row_offs_2d, %c_col_offs_2d : tensor<32x32xi32>
    %c_base = tile.splat %c : tensor<32x32x!tile.ptr<f32>>
    %c_ptrs = tile.addptr %c_base, %c_offs : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
    %c_mask = arith.andi %a_row_mask, %b_col_mask : tensor<32x32xi1>
    tile.store %c_ptrs, %c_tile, %c_mask : tensor<32x32x!tile.ptr<f32>>
    return
  }
}
