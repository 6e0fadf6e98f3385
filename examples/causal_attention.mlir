// causal_attention.mlir - softmax(Q K^T * scale, causal) V for each head, in
// f32, one block of BLOCK_M query rows of one head per program: the key
// blocks at or left of the diagonal stream through an online softmax (the
// softmax_matmul.mlir update), so the S x S scores are never stored.
//
//   out[h, i, :] = sum_{j <= i} p_ij v[h, j, :],
//   p_ij = exp(s_ij - max_j s_ij) / sum_j exp(...),  s_ij = scale q_i . k_j
//
// Kernel:
//   @causal_attention(%q, %k, %v, %out: !tile.ptr<f32>, %seq: i32,
//                     %scale: f32)
//     q, k, v, out: heads x seq x HEAD_DIM, contiguous.
//
// Parameters (--param NAME=VALUE): BLOCK_M, BLOCK_N (query and key rows
// per step, default 64 and 32), HEAD_DIM (default 64), NUM_WARPS
// (default 4).
//
// Grid: (cdiv(seq, BLOCK_M), heads, 1).

tile.param BLOCK_M = 64
tile.param BLOCK_N = 32
tile.param HEAD_DIM = 64
tile.param NUM_WARPS = 4

module {
  func.func @causal_attention(%q: !tile.ptr<f32>, %k: !tile.ptr<f32>,
                              %v: !tile.ptr<f32>, %out: !tile.ptr<f32>,
                              %seq: i32, %scale: f32)
      attributes {tile.kernel, tile.num_warps = ${NUM_WARPS} : i32} {
    %pm = tile.program_id 0
    %head = tile.program_id 1
    %c0 = arith.constant 0 : i32
    %c0_64 = arith.constant 0 : i64
    %c1_64 = arith.constant 1 : i64
    %bm = arith.constant ${BLOCK_M} : i32
    %bn = arith.constant ${BLOCK_N} : i32
    %d64 = arith.constant ${HEAD_DIM} : i64
    %row0 = arith.muli %pm, %bm : i32

    // This head's matrices: seq x HEAD_DIM.
    %seq64 = arith.extsi %seq : i32 to i64
    %head64 = arith.extsi %head : i32 to i64
    %head_elems = arith.muli %seq64, %d64 : i64
    %head_off = arith.muli %head64, %head_elems : i64
    %q_h = tile.addptr %q, %head_off : !tile.ptr<f32>, i64
    %k_h = tile.addptr %k, %head_off : !tile.ptr<f32>, i64
    %v_h = tile.addptr %v, %head_off : !tile.ptr<f32>, i64
    %o_h = tile.addptr %out, %head_off : !tile.ptr<f32>, i64

    %q_blk = tile.make_block_ptr %q_h, [%seq64, %d64], [%d64, %c1_64],
        [%row0, %c0] order = [1, 0]
        : !tile.block_ptr<tensor<${BLOCK_M}x${HEAD_DIM}xf32>>
    %q_tile = tile.block_load %q_blk check = [0] padding = zero
        : !tile.block_ptr<tensor<${BLOCK_M}x${HEAD_DIM}xf32>>
    %scales = tile.splat %scale : tensor<${BLOCK_M}x${HEAD_DIM}xf32>
    %qs = arith.mulf %q_tile, %scales : tensor<${BLOCK_M}x${HEAD_DIM}xf32>

    // Query positions (rows) for the causal mask.
    %ri = tile.range 0, ${BLOCK_M} : tensor<${BLOCK_M}xi32>
    %row0s = tile.splat %row0 : tensor<${BLOCK_M}xi32>
    %rows = arith.addi %row0s, %ri : tensor<${BLOCK_M}xi32>
    %rows2 = tile.expand_dims %rows axis = 1 : tensor<${BLOCK_M}xi32> -> tensor<${BLOCK_M}x1xi32>
    %rows_b = tile.broadcast %rows2 : tensor<${BLOCK_M}x1xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %ci = tile.range 0, ${BLOCK_N} : tensor<${BLOCK_N}xi32>
    %seqs = tile.splat %seq : tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %neg_inf = arith.constant dense<0xFF800000> : tensor<${BLOCK_M}x${BLOCK_N}xf32>

    // Key blocks up to the diagonal: [0, min(seq, row0 + BLOCK_M)).
    %row_end = arith.addi %row0, %bm : i32
    %end = arith.minsi %row_end, %seq : i32
    %m0 = arith.constant dense<0xFF800000> : tensor<${BLOCK_M}xf32>
    %l0 = arith.constant dense<0.0> : tensor<${BLOCK_M}xf32>
    %acc0 = arith.constant dense<0.0> : tensor<${BLOCK_M}x${HEAD_DIM}xf32>
    %acc, %l, %m = scf.for %n0 = %c0 to %end step %bn
        iter_args(%acc_i = %acc0, %l_i = %l0, %m_i = %m0)
        -> (tensor<${BLOCK_M}x${HEAD_DIM}xf32>, tensor<${BLOCK_M}xf32>, tensor<${BLOCK_M}xf32>) : i32 {
      %k_blk = tile.make_block_ptr %k_h, [%seq64, %d64], [%d64, %c1_64],
          [%n0, %c0] order = [1, 0]
          : !tile.block_ptr<tensor<${BLOCK_N}x${HEAD_DIM}xf32>>
      %k_tile = tile.block_load %k_blk check = [0] padding = zero
          : !tile.block_ptr<tensor<${BLOCK_N}x${HEAD_DIM}xf32>>
      %kt = tile.trans %k_tile order = [1, 0]
          : tensor<${BLOCK_N}x${HEAD_DIM}xf32> -> tensor<${HEAD_DIM}x${BLOCK_N}xf32>
      %zero_s = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
      %s = tile.dot %qs, %kt, %zero_s precision = ieee
          : tensor<${BLOCK_M}x${HEAD_DIM}xf32>, tensor<${HEAD_DIM}x${BLOCK_N}xf32>
            -> tensor<${BLOCK_M}x${BLOCK_N}xf32>
      // Keys after the query, or past seq: -inf.
      %n0s = tile.splat %n0 : tensor<${BLOCK_N}xi32>
      %cols = arith.addi %n0s, %ci : tensor<${BLOCK_N}xi32>
      %cols2 = tile.expand_dims %cols axis = 0 : tensor<${BLOCK_N}xi32> -> tensor<1x${BLOCK_N}xi32>
      %cols_b = tile.broadcast %cols2 : tensor<1x${BLOCK_N}xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
      %causal = arith.cmpi sle, %cols_b, %rows_b : tensor<${BLOCK_M}x${BLOCK_N}xi32>
      %inside = arith.cmpi slt, %cols_b, %seqs : tensor<${BLOCK_M}x${BLOCK_N}xi32>
      %keep = arith.andi %causal, %inside : tensor<${BLOCK_M}x${BLOCK_N}xi1>
      %s_m = arith.select %keep, %s, %neg_inf : tensor<${BLOCK_M}x${BLOCK_N}xi1>, tensor<${BLOCK_M}x${BLOCK_N}xf32>
      // Online softmax update.
      %bmax = tile.reduce max %s_m axis = 1 : tensor<${BLOCK_M}x${BLOCK_N}xf32> -> tensor<${BLOCK_M}xf32>
      %m_new = arith.maximumf %m_i, %bmax : tensor<${BLOCK_M}xf32>
      %dm = arith.subf %m_i, %m_new : tensor<${BLOCK_M}xf32>
      %alpha = math.exp %dm : tensor<${BLOCK_M}xf32>
      %m_new2 = tile.expand_dims %m_new axis = 1 : tensor<${BLOCK_M}xf32> -> tensor<${BLOCK_M}x1xf32>
      %m_new_b = tile.broadcast %m_new2 : tensor<${BLOCK_M}x1xf32> -> tensor<${BLOCK_M}x${BLOCK_N}xf32>
      %shifted = arith.subf %s_m, %m_new_b : tensor<${BLOCK_M}x${BLOCK_N}xf32>
      %p = math.exp %shifted : tensor<${BLOCK_M}x${BLOCK_N}xf32>
      %psum = tile.reduce sum %p axis = 1 : tensor<${BLOCK_M}x${BLOCK_N}xf32> -> tensor<${BLOCK_M}xf32>
      %l_scaled = arith.mulf %l_i, %alpha : tensor<${BLOCK_M}xf32>
      %l_new = arith.addf %l_scaled, %psum : tensor<${BLOCK_M}xf32>
      %alpha2 = tile.expand_dims %alpha axis = 1 : tensor<${BLOCK_M}xf32> -> tensor<${BLOCK_M}x1xf32>
      %alpha_b = tile.broadcast %alpha2 : tensor<${BLOCK_M}x1xf32> -> tensor<${BLOCK_M}x${HEAD_DIM}xf32>
      %acc_scaled = arith.mulf %acc_i, %alpha_b : tensor<${BLOCK_M}x${HEAD_DIM}xf32>
      %v_blk = tile.make_block_ptr %v_h, [%seq64, %d64], [%d64, %c1_64],
          [%n0, %c0] order = [1, 0]
          : !tile.block_ptr<tensor<${BLOCK_N}x${HEAD_DIM}xf32>>
      %v_tile = tile.block_load %v_blk check = [0] padding = zero
          : !tile.block_ptr<tensor<${BLOCK_N}x${HEAD_DIM}xf32>>
      %acc_new = tile.dot %p, %v_tile, %acc_scaled precision = ieee
          : tensor<${BLOCK_M}x${BLOCK_N}xf32>, tensor<${BLOCK_N}x${HEAD_DIM}xf32>
            -> tensor<${BLOCK_M}x${HEAD_DIM}xf32>
      scf.yield %acc_new, %l_new, %m_new
          : tensor<${BLOCK_M}x${HEAD_DIM}xf32>, tensor<${BLOCK_M}xf32>, tensor<${BLOCK_M}xf32>
    }
    %l2 = tile.expand_dims %l axis = 1 : tensor<${BLOCK_M}xf32> -> tensor<${BLOCK_M}x1xf32>
    %l_b = tile.broadcast %l2 : tensor<${BLOCK_M}x1xf32> -> tensor<${BLOCK_M}x${HEAD_DIM}xf32>
    %o = arith.divf %acc, %l_b : tensor<${BLOCK_M}x${HEAD_DIM}xf32>
    %o_blk = tile.make_block_ptr %o_h, [%seq64, %d64], [%d64, %c1_64],
        [%row0, %c0] order = [1, 0]
        : !tile.block_ptr<tensor<${BLOCK_M}x${HEAD_DIM}xf32>>
    tile.block_store %o_blk, %o check = [0]
        : !tile.block_ptr<tensor<${BLOCK_M}x${HEAD_DIM}xf32>>
    return
  }
}
