// attention.mlir - the attention forward pass, O = softmax(Q K^T * scale +
// mask) V, in f16 with f32 accumulation, and the rows' log-sum-exp (what a
// backward pass needs). One program computes BLOCK_M query rows of one head
// of one batch entry: the key blocks stream through an online softmax, so
// the seq_q x seq_k scores are never stored.
//
//   s_ij = scale q_i . k_j, masked to -inf for keys at or past seq_k and,
//   with CAUSAL, for keys after the query's diagonal, aligned bottom-right
//   (key j is visible to query i when j <= i + seq_k - seq_q, as in
//   FlashAttention 2 and later);
//   o_i = sum_j p_ij v_j with p_ij = exp(s_ij - lse_i), lse_i = log sum_j
//   exp(s_ij). A row with every key masked gets o_i = 0 and lse_i = -inf.
//
// Kernel:
//   @attention(%q, %k, %v, %o: !tile.ptr<f16>, %lse: !tile.ptr<f32>,
//              %seq_q, %seq_k, %heads, %group: i32,
//              %q_sb, %q_sh, %q_sr, %k_sb, %k_sh, %k_sr,
//              %v_sb, %v_sh, %v_sr, %o_sb, %o_sh, %o_sr: i64,
//              %scale: f32)
//     q, o: [batch, heads, seq_q, HEAD_DIM]; k, v: [batch, heads / group,
//     seq_k, HEAD_DIM]; the strides (elements) of the batch, head and row
//     dimensions are arguments (BHSD and BSHD alike), the last dimension
//     is contiguous. Query head h reads key/value head h / group (GQA, MQA
//     with group = heads). lse: [batch, heads, seq_q] f32, contiguous.
//
// Parameters (--param NAME=VALUE): BLOCK_M, BLOCK_N (query and key rows per
// step, default 64 and 64), HEAD_DIM (default 64), CAUSAL (default false),
// NUM_WARPS (default 4), NUM_STAGES (the unmasked loop's K and V blocks
// copied NUM_STAGES - 1 steps ahead; default 2).
//
// Grid: (cdiv(seq_q, BLOCK_M), heads, batch).

tile.param BLOCK_M = 64
tile.param BLOCK_N = 64
tile.param HEAD_DIM = 64
tile.param CAUSAL = false
tile.param NUM_WARPS = 4
tile.param NUM_STAGES = 2

module {
  func.func @attention(%q: !tile.ptr<f16>, %k: !tile.ptr<f16>,
                       %v: !tile.ptr<f16>, %o: !tile.ptr<f16>,
                       %lse: !tile.ptr<f32>, %seq_q: i32, %seq_k: i32,
                       %heads: i32, %group: i32,
                       %q_sb: i64, %q_sh: i64, %q_sr: i64,
                       %k_sb: i64, %k_sh: i64, %k_sr: i64,
                       %v_sb: i64, %v_sh: i64, %v_sr: i64,
                       %o_sb: i64, %o_sh: i64, %o_sr: i64, %scale: f32)
      attributes {tile.kernel, tile.num_warps = ${NUM_WARPS} : i32,
                  tile.num_stages = ${NUM_STAGES} : i32} {
    %pm = tile.program_id 0
    %head = tile.program_id 1
    %batch = tile.program_id 2
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c1_64 = arith.constant 1 : i64
    %bm = arith.constant ${BLOCK_M} : i32
    %bn = arith.constant ${BLOCK_N} : i32
    %d64 = arith.constant ${HEAD_DIM} : i64
    %row0 = arith.muli %pm, %bm : i32

    // This program's head of Q and O, and the key/value head it reads.
    %b64 = arith.extsi %batch : i32 to i64
    %h64 = arith.extsi %head : i32 to i64
    %kv_head = arith.divsi %head, %group : i32
    %kvh64 = arith.extsi %kv_head : i32 to i64
    %q_b = arith.muli %b64, %q_sb : i64
    %q_hh = arith.muli %h64, %q_sh : i64
    %q_off = arith.addi %q_b, %q_hh : i64
    %q_h = tile.addptr %q, %q_off : !tile.ptr<f16>, i64
    %o_b = arith.muli %b64, %o_sb : i64
    %o_hh = arith.muli %h64, %o_sh : i64
    %o_off = arith.addi %o_b, %o_hh : i64
    %o_h = tile.addptr %o, %o_off : !tile.ptr<f16>, i64
    %k_b = arith.muli %b64, %k_sb : i64
    %k_hh = arith.muli %kvh64, %k_sh : i64
    %k_off = arith.addi %k_b, %k_hh : i64
    %k_h = tile.addptr %k, %k_off : !tile.ptr<f16>, i64
    %v_b = arith.muli %b64, %v_sb : i64
    %v_hh = arith.muli %kvh64, %v_sh : i64
    %v_off = arith.addi %v_b, %v_hh : i64
    %v_h = tile.addptr %v, %v_off : !tile.ptr<f16>, i64
    %seq_q64 = arith.extsi %seq_q : i32 to i64
    %seq_k64 = arith.extsi %seq_k : i32 to i64

    %q_blk = tile.make_block_ptr %q_h, [%seq_q64, %d64], [%q_sr, %c1_64],
        [%row0, %c0] order = [1, 0]
        : !tile.block_ptr<tensor<${BLOCK_M}x${HEAD_DIM}xf16>>
    %q_tile = tile.block_load %q_blk check = [0] padding = zero
        : !tile.block_ptr<tensor<${BLOCK_M}x${HEAD_DIM}xf16>>
    // Q goes into shared memory once: each step's Q K^T reads it there
    // (rows padded by 16 bytes), as it reads K from its pipeline stage.
    %q_buf = tile.alloc_shared
        : !tile.shared<tensor<${BLOCK_M}x${HEAD_DIM}xf16>, stages = 1, pad = 8>
    tile.local_store %q_tile, %q_buf[%c0] : tensor<${BLOCK_M}x${HEAD_DIM}xf16>,
        !tile.shared<tensor<${BLOCK_M}x${HEAD_DIM}xf16>, stages = 1, pad = 8>

    // Query positions, shifted by seq_k - seq_q: the last key each sees.
    %ri = tile.range 0, ${BLOCK_M} : tensor<${BLOCK_M}xi32>
    %row0s = tile.splat %row0 : tensor<${BLOCK_M}xi32>
    %rows = arith.addi %row0s, %ri : tensor<${BLOCK_M}xi32>
    %shift = arith.subi %seq_k, %seq_q : i32
    %shifts = tile.splat %shift : tensor<${BLOCK_M}xi32>
    %last_key = arith.addi %rows, %shifts : tensor<${BLOCK_M}xi32>
    %last2 = tile.expand_dims %last_key axis = 1 : tensor<${BLOCK_M}xi32> -> tensor<${BLOCK_M}x1xi32>
    %last_b = tile.broadcast %last2 : tensor<${BLOCK_M}x1xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %ci = tile.range 0, ${BLOCK_N} : tensor<${BLOCK_N}xi32>
    %seq_ks = tile.splat %seq_k : tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %neg_inf = arith.constant dense<0xFF800000> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %scales = tile.splat %scale : tensor<${BLOCK_M}x${BLOCK_N}xf32>

    // Key blocks in two loops. First those every row of the program sees
    // whole, [0, full_end): below seq_k's last whole block and (CAUSAL)
    // before the first row's diagonal; they need no mask, and their K and
    // V blocks come through loop-carried block pointers, which
    // tile.num_stages pipelines (copies two steps ahead). Then the masked
    // ones, [full_end, end): the partial last block and the diagonal ones
    // up to the last row's diagonal; blocks past it are not visited.
    %causal = arith.constant ${CAUSAL}
    %whole = arith.divsi %seq_k, %bn : i32
    %whole_end = arith.muli %whole, %bn : i32
    %first_seen0 = arith.addi %row0, %shift : i32
    %first_seen1 = arith.addi %first_seen0, %c1 : i32
    %first_seen = arith.maxsi %first_seen1, %c0 : i32
    %seen_blocks = arith.divsi %first_seen, %bn : i32
    %seen_end = arith.muli %seen_blocks, %bn : i32
    %causal_full = arith.minsi %whole_end, %seen_end : i32
    %full_end = arith.select %causal, %causal_full, %whole_end : i32
    %diag_end = arith.addi %row0, %bm : i32
    %diag_end2 = arith.addi %diag_end, %shift : i32
    %causal_end = arith.minsi %diag_end2, %seq_k : i32
    %end = arith.select %causal, %causal_end, %seq_k : i32
    %m0 = arith.constant dense<0xFF800000> : tensor<${BLOCK_M}xf32>
    %l0 = arith.constant dense<0.0> : tensor<${BLOCK_M}xf32>
    %acc0 = arith.constant dense<0.0> : tensor<${BLOCK_M}x${HEAD_DIM}xf32>
    %neg_inf_m = arith.constant dense<0xFF800000> : tensor<${BLOCK_M}xf32>
    %zero_m = arith.constant dense<0.0> : tensor<${BLOCK_M}xf32>
    %zero_s = arith.constant dense<0.0> : tensor<${BLOCK_M}x${BLOCK_N}xf32>
    %k_first = tile.make_block_ptr %k_h, [%seq_k64, %d64], [%k_sr, %c1_64],
        [%c0, %c0] order = [1, 0]
        : !tile.block_ptr<tensor<${BLOCK_N}x${HEAD_DIM}xf16>>
    %v_first = tile.make_block_ptr %v_h, [%seq_k64, %d64], [%v_sr, %c1_64],
        [%c0, %c0] order = [1, 0]
        : !tile.block_ptr<tensor<${BLOCK_N}x${HEAD_DIM}xf16>>
    %acc1, %l1, %m1, %k_end, %v_end = scf.for %n0 = %c0 to %full_end step %bn
        iter_args(%acc_i = %acc0, %l_i = %l0, %m_i = %m0, %k_blk = %k_first,
                  %v_blk = %v_first)
        -> (tensor<${BLOCK_M}x${HEAD_DIM}xf32>, tensor<${BLOCK_M}xf32>,
            tensor<${BLOCK_M}xf32>,
            !tile.block_ptr<tensor<${BLOCK_N}x${HEAD_DIM}xf16>>,
            !tile.block_ptr<tensor<${BLOCK_N}x${HEAD_DIM}xf16>>) : i32 {
      %k_tile = tile.block_load %k_blk
          : !tile.block_ptr<tensor<${BLOCK_N}x${HEAD_DIM}xf16>>
      %kt = tile.trans %k_tile order = [1, 0]
          : tensor<${BLOCK_N}x${HEAD_DIM}xf16> -> tensor<${HEAD_DIM}x${BLOCK_N}xf16>
      %q_s = tile.local_load %q_buf[%c0]
          : !tile.shared<tensor<${BLOCK_M}x${HEAD_DIM}xf16>, stages = 1, pad = 8>
            -> tensor<${BLOCK_M}x${HEAD_DIM}xf16>
      %qk = tile.dot %q_s, %kt, %zero_s
          : tensor<${BLOCK_M}x${HEAD_DIM}xf16>, tensor<${HEAD_DIM}x${BLOCK_N}xf16>
            -> tensor<${BLOCK_M}x${BLOCK_N}xf32>
      %s = arith.mulf %qk, %scales : tensor<${BLOCK_M}x${BLOCK_N}xf32>
      // Online softmax: every row sees a key here, so m stays finite.
      %bmax = tile.reduce max %s axis = 1 : tensor<${BLOCK_M}x${BLOCK_N}xf32> -> tensor<${BLOCK_M}xf32>
      %m_new = arith.maximumf %m_i, %bmax : tensor<${BLOCK_M}xf32>
      %dm = arith.subf %m_i, %m_new : tensor<${BLOCK_M}xf32>
      %alpha = math.exp %dm : tensor<${BLOCK_M}xf32>
      %m_new2 = tile.expand_dims %m_new axis = 1 : tensor<${BLOCK_M}xf32> -> tensor<${BLOCK_M}x1xf32>
      %m_new_b = tile.broadcast %m_new2 : tensor<${BLOCK_M}x1xf32> -> tensor<${BLOCK_M}x${BLOCK_N}xf32>
      %shifted = arith.subf %s, %m_new_b : tensor<${BLOCK_M}x${BLOCK_N}xf32>
      %p = math.exp %shifted : tensor<${BLOCK_M}x${BLOCK_N}xf32>
      %psum = tile.reduce sum %p axis = 1 : tensor<${BLOCK_M}x${BLOCK_N}xf32> -> tensor<${BLOCK_M}xf32>
      %l_scaled = arith.mulf %l_i, %alpha : tensor<${BLOCK_M}xf32>
      %l_new = arith.addf %l_scaled, %psum : tensor<${BLOCK_M}xf32>
      %alpha2 = tile.expand_dims %alpha axis = 1 : tensor<${BLOCK_M}xf32> -> tensor<${BLOCK_M}x1xf32>
      %alpha_b = tile.broadcast %alpha2 : tensor<${BLOCK_M}x1xf32> -> tensor<${BLOCK_M}x${HEAD_DIM}xf32>
      %acc_scaled = arith.mulf %acc_i, %alpha_b : tensor<${BLOCK_M}x${HEAD_DIM}xf32>
      %v_tile = tile.block_load %v_blk
          : !tile.block_ptr<tensor<${BLOCK_N}x${HEAD_DIM}xf16>>
      %p16 = arith.truncf %p : tensor<${BLOCK_M}x${BLOCK_N}xf32> to tensor<${BLOCK_M}x${BLOCK_N}xf16>
      %acc_new = tile.dot %p16, %v_tile, %acc_scaled
          : tensor<${BLOCK_M}x${BLOCK_N}xf16>, tensor<${BLOCK_N}x${HEAD_DIM}xf16>
            -> tensor<${BLOCK_M}x${HEAD_DIM}xf32>
      %k_next = tile.advance %k_blk, [%bn, %c0]
          : !tile.block_ptr<tensor<${BLOCK_N}x${HEAD_DIM}xf16>>
      %v_next = tile.advance %v_blk, [%bn, %c0]
          : !tile.block_ptr<tensor<${BLOCK_N}x${HEAD_DIM}xf16>>
      scf.yield %acc_new, %l_new, %m_new, %k_next, %v_next
          : tensor<${BLOCK_M}x${HEAD_DIM}xf32>, tensor<${BLOCK_M}xf32>,
            tensor<${BLOCK_M}xf32>,
            !tile.block_ptr<tensor<${BLOCK_N}x${HEAD_DIM}xf16>>,
            !tile.block_ptr<tensor<${BLOCK_N}x${HEAD_DIM}xf16>>
    }
    %acc, %l, %m = scf.for %n0 = %full_end to %end step %bn
        iter_args(%acc_i = %acc1, %l_i = %l1, %m_i = %m1)
        -> (tensor<${BLOCK_M}x${HEAD_DIM}xf32>, tensor<${BLOCK_M}xf32>, tensor<${BLOCK_M}xf32>) : i32 {
      %k_blk = tile.make_block_ptr %k_h, [%seq_k64, %d64], [%k_sr, %c1_64],
          [%n0, %c0] order = [1, 0]
          : !tile.block_ptr<tensor<${BLOCK_N}x${HEAD_DIM}xf16>>
      %k_tile = tile.block_load %k_blk check = [0] padding = zero
          : !tile.block_ptr<tensor<${BLOCK_N}x${HEAD_DIM}xf16>>
      %kt = tile.trans %k_tile order = [1, 0]
          : tensor<${BLOCK_N}x${HEAD_DIM}xf16> -> tensor<${HEAD_DIM}x${BLOCK_N}xf16>
      %q_s = tile.local_load %q_buf[%c0]
          : !tile.shared<tensor<${BLOCK_M}x${HEAD_DIM}xf16>, stages = 1, pad = 8>
            -> tensor<${BLOCK_M}x${HEAD_DIM}xf16>
      %qk = tile.dot %q_s, %kt, %zero_s
          : tensor<${BLOCK_M}x${HEAD_DIM}xf16>, tensor<${HEAD_DIM}x${BLOCK_N}xf16>
            -> tensor<${BLOCK_M}x${BLOCK_N}xf32>
      %s = arith.mulf %qk, %scales : tensor<${BLOCK_M}x${BLOCK_N}xf32>
      // Keys past seq_k and (CAUSAL) after the diagonal: -inf.
      %n0s = tile.splat %n0 : tensor<${BLOCK_N}xi32>
      %cols = arith.addi %n0s, %ci : tensor<${BLOCK_N}xi32>
      %cols2 = tile.expand_dims %cols axis = 0 : tensor<${BLOCK_N}xi32> -> tensor<1x${BLOCK_N}xi32>
      %cols_b = tile.broadcast %cols2 : tensor<1x${BLOCK_N}xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
      %inside = arith.cmpi slt, %cols_b, %seq_ks : tensor<${BLOCK_M}x${BLOCK_N}xi32>
      %seen = arith.cmpi sle, %cols_b, %last_b : tensor<${BLOCK_M}x${BLOCK_N}xi32>
      %causals = tile.splat %causal : tensor<${BLOCK_M}x${BLOCK_N}xi1>
      %not_causal = arith.constant dense<true> : tensor<${BLOCK_M}x${BLOCK_N}xi1>
      %hidden = arith.xori %causals, %not_causal : tensor<${BLOCK_M}x${BLOCK_N}xi1>
      %visible = arith.ori %seen, %hidden : tensor<${BLOCK_M}x${BLOCK_N}xi1>
      %keep = arith.andi %inside, %visible : tensor<${BLOCK_M}x${BLOCK_N}xi1>
      %s_m = arith.select %keep, %s, %neg_inf : tensor<${BLOCK_M}x${BLOCK_N}xi1>, tensor<${BLOCK_M}x${BLOCK_N}xf32>
      // Online softmax; a row with no visible key so far keeps m = -inf and
      // subtracts 0 instead, so that exp gives 0, not NaN.
      %bmax = tile.reduce max %s_m axis = 1 : tensor<${BLOCK_M}x${BLOCK_N}xf32> -> tensor<${BLOCK_M}xf32>
      %m_new = arith.maximumf %m_i, %bmax : tensor<${BLOCK_M}xf32>
      %none = arith.cmpf oeq, %m_new, %neg_inf_m : tensor<${BLOCK_M}xf32>
      %m_use = arith.select %none, %zero_m, %m_new : tensor<${BLOCK_M}xi1>, tensor<${BLOCK_M}xf32>
      %dm = arith.subf %m_i, %m_use : tensor<${BLOCK_M}xf32>
      %alpha = math.exp %dm : tensor<${BLOCK_M}xf32>
      %m_use2 = tile.expand_dims %m_use axis = 1 : tensor<${BLOCK_M}xf32> -> tensor<${BLOCK_M}x1xf32>
      %m_use_b = tile.broadcast %m_use2 : tensor<${BLOCK_M}x1xf32> -> tensor<${BLOCK_M}x${BLOCK_N}xf32>
      %shifted = arith.subf %s_m, %m_use_b : tensor<${BLOCK_M}x${BLOCK_N}xf32>
      %p = math.exp %shifted : tensor<${BLOCK_M}x${BLOCK_N}xf32>
      %psum = tile.reduce sum %p axis = 1 : tensor<${BLOCK_M}x${BLOCK_N}xf32> -> tensor<${BLOCK_M}xf32>
      %l_scaled = arith.mulf %l_i, %alpha : tensor<${BLOCK_M}xf32>
      %l_new = arith.addf %l_scaled, %psum : tensor<${BLOCK_M}xf32>
      %alpha2 = tile.expand_dims %alpha axis = 1 : tensor<${BLOCK_M}xf32> -> tensor<${BLOCK_M}x1xf32>
      %alpha_b = tile.broadcast %alpha2 : tensor<${BLOCK_M}x1xf32> -> tensor<${BLOCK_M}x${HEAD_DIM}xf32>
      %acc_scaled = arith.mulf %acc_i, %alpha_b : tensor<${BLOCK_M}x${HEAD_DIM}xf32>
      %v_blk = tile.make_block_ptr %v_h, [%seq_k64, %d64], [%v_sr, %c1_64],
          [%n0, %c0] order = [1, 0]
          : !tile.block_ptr<tensor<${BLOCK_N}x${HEAD_DIM}xf16>>
      %v_tile = tile.block_load %v_blk check = [0] padding = zero
          : !tile.block_ptr<tensor<${BLOCK_N}x${HEAD_DIM}xf16>>
      %p16 = arith.truncf %p : tensor<${BLOCK_M}x${BLOCK_N}xf32> to tensor<${BLOCK_M}x${BLOCK_N}xf16>
      %acc_new = tile.dot %p16, %v_tile, %acc_scaled
          : tensor<${BLOCK_M}x${BLOCK_N}xf16>, tensor<${BLOCK_N}x${HEAD_DIM}xf16>
            -> tensor<${BLOCK_M}x${HEAD_DIM}xf32>
      scf.yield %acc_new, %l_new, %m_new
          : tensor<${BLOCK_M}x${HEAD_DIM}xf32>, tensor<${BLOCK_M}xf32>, tensor<${BLOCK_M}xf32>
    }
    // o = acc / l (0 where no key was visible: l = 0, acc = 0).
    %empty = arith.cmpf oeq, %l, %zero_m : tensor<${BLOCK_M}xf32>
    %ones = arith.constant dense<1.0> : tensor<${BLOCK_M}xf32>
    %l_safe = arith.select %empty, %ones, %l : tensor<${BLOCK_M}xi1>, tensor<${BLOCK_M}xf32>
    %l2 = tile.expand_dims %l_safe axis = 1 : tensor<${BLOCK_M}xf32> -> tensor<${BLOCK_M}x1xf32>
    %l_b = tile.broadcast %l2 : tensor<${BLOCK_M}x1xf32> -> tensor<${BLOCK_M}x${HEAD_DIM}xf32>
    %o_f = arith.divf %acc, %l_b : tensor<${BLOCK_M}x${HEAD_DIM}xf32>
    %o16 = arith.truncf %o_f : tensor<${BLOCK_M}x${HEAD_DIM}xf32> to tensor<${BLOCK_M}x${HEAD_DIM}xf16>
    %o_blk = tile.make_block_ptr %o_h, [%seq_q64, %d64], [%o_sr, %c1_64],
        [%row0, %c0] order = [1, 0]
        : !tile.block_ptr<tensor<${BLOCK_M}x${HEAD_DIM}xf16>>
    tile.block_store %o_blk, %o16 check = [0]
        : !tile.block_ptr<tensor<${BLOCK_M}x${HEAD_DIM}xf16>>

    // lse = m + log(l): -inf where no key was visible (m = -inf, l = 0).
    %log_l = math.log %l : tensor<${BLOCK_M}xf32>
    %lse_v = arith.addf %m, %log_l : tensor<${BLOCK_M}xf32>
    %bh = arith.muli %batch, %heads : i32
    %bhh = arith.addi %bh, %head : i32
    %lse_row0 = arith.muli %bhh, %seq_q : i32
    %lse_h = tile.addptr %lse, %lse_row0 : !tile.ptr<f32>, i32
    %lse_b = tile.splat %lse_h : tensor<${BLOCK_M}x!tile.ptr<f32>>
    %lse_p = tile.addptr %lse_b, %rows : tensor<${BLOCK_M}x!tile.ptr<f32>>, tensor<${BLOCK_M}xi32>
    %seq_qs = tile.splat %seq_q : tensor<${BLOCK_M}xi32>
    %in_q = arith.cmpi slt, %rows, %seq_qs : tensor<${BLOCK_M}xi32>
    tile.store %lse_p, %lse_v, %in_q : tensor<${BLOCK_M}x!tile.ptr<f32>>
    return
  }
}
