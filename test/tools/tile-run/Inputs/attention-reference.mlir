// The float64 reference of examples/attention.mlir for tile-run
// --reference, computed row by row without an online softmax. It runs over
// the kernel's grid; program (0, h, b) computes head h of batch entry b, the
// other programs nothing. Keys of up to MAX_SEQ positions, heads of
// HEAD_DIM; CAUSAL as in the kernel (the diagonal aligned bottom-right).

tile.param MAX_SEQ = 512
tile.param HEAD_DIM = 64
tile.param CAUSAL = false

func.func @attention_f64(%q: !tile.ptr<f64>, %k: !tile.ptr<f64>,
                         %v: !tile.ptr<f64>, %o: !tile.ptr<f64>,
                         %lse: !tile.ptr<f64>, %seq_q: i32, %seq_k: i32,
                         %heads: i32, %group: i32,
                         %q_sb: i64, %q_sh: i64, %q_sr: i64,
                         %k_sb: i64, %k_sh: i64, %k_sr: i64,
                         %v_sb: i64, %v_sh: i64, %v_sr: i64,
                         %o_sb: i64, %o_sh: i64, %o_sr: i64, %scale: f32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pm = tile.program_id 0
  %head = tile.program_id 1
  %batch = tile.program_id 2
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %d = arith.constant ${HEAD_DIM} : i32
  %first = arith.cmpi eq, %pm, %c0 : i32
  scf.if %first {
    %scale64 = arith.extf %scale : f32 to f64
    %b64 = arith.extsi %batch : i32 to i64
    %h64 = arith.extsi %head : i32 to i64
    %kv_head = arith.divsi %head, %group : i32
    %kvh64 = arith.extsi %kv_head : i32 to i64
    %q_b = arith.muli %b64, %q_sb : i64
    %q_hh = arith.muli %h64, %q_sh : i64
    %q_off = arith.addi %q_b, %q_hh : i64
    %q_h = tile.addptr %q, %q_off : !tile.ptr<f64>, i64
    %o_b = arith.muli %b64, %o_sb : i64
    %o_hh = arith.muli %h64, %o_sh : i64
    %o_off = arith.addi %o_b, %o_hh : i64
    %o_h = tile.addptr %o, %o_off : !tile.ptr<f64>, i64
    %k_b = arith.muli %b64, %k_sb : i64
    %k_hh = arith.muli %kvh64, %k_sh : i64
    %k_off = arith.addi %k_b, %k_hh : i64
    %k_h = tile.addptr %k, %k_off : !tile.ptr<f64>, i64
    %v_b = arith.muli %b64, %v_sb : i64
    %v_hh = arith.muli %kvh64, %v_sh : i64
    %v_off = arith.addi %v_b, %v_hh : i64
    %v_h = tile.addptr %v, %v_off : !tile.ptr<f64>, i64
    %bh = arith.muli %batch, %heads : i32
    %bhh = arith.addi %bh, %head : i32
    %lse_row0 = arith.muli %bhh, %seq_q : i32
    %lse_h = tile.addptr %lse, %lse_row0 : !tile.ptr<f64>, i32

    %keys = tile.range 0, ${MAX_SEQ} : tensor<${MAX_SEQ}xi32>
    %seq_ks = tile.splat %seq_k : tensor<${MAX_SEQ}xi32>
    %valid = arith.cmpi slt, %keys, %seq_ks : tensor<${MAX_SEQ}xi32>
    %keys64 = arith.extsi %keys : tensor<${MAX_SEQ}xi32> to tensor<${MAX_SEQ}xi64>
    %k_srs = tile.splat %k_sr : tensor<${MAX_SEQ}xi64>
    %k_rows = arith.muli %keys64, %k_srs : tensor<${MAX_SEQ}xi64>
    %v_srs = tile.splat %v_sr : tensor<${MAX_SEQ}xi64>
    %v_rows = arith.muli %keys64, %v_srs : tensor<${MAX_SEQ}xi64>
    %zero = arith.constant dense<0.0> : tensor<${MAX_SEQ}xf64>
    %neg_inf = arith.constant dense<0xFFF0000000000000> : tensor<${MAX_SEQ}xf64>
    %k_base = tile.splat %k_h : tensor<${MAX_SEQ}x!tile.ptr<f64>>
    %v_base = tile.splat %v_h : tensor<${MAX_SEQ}x!tile.ptr<f64>>
    %shift = arith.subi %seq_k, %seq_q : i32
    %causal = arith.constant ${CAUSAL}
    %neg_inf_s = arith.constant 0xFFF0000000000000 : f64
    %zero_s = arith.constant 0.0 : f64
    %one_s = arith.constant 1.0 : f64
    scf.for %r = %c0 to %seq_q step %c1 : i32 {
      %r64 = arith.extsi %r : i32 to i64
      %q_row_off = arith.muli %r64, %q_sr : i64
      %q_row = tile.addptr %q_h, %q_row_off : !tile.ptr<f64>, i64
      %o_row_off = arith.muli %r64, %o_sr : i64
      %o_row = tile.addptr %o_h, %o_row_off : !tile.ptr<f64>, i64
      // s_c = scale * sum_j q[r, j] k[c, j]
      %dot = scf.for %j = %c0 to %d step %c1 iter_args(%acc = %zero) -> (tensor<${MAX_SEQ}xf64>) : i32 {
        %q_ptr = tile.addptr %q_row, %j : !tile.ptr<f64>, i32
        %q_rj = tile.load %q_ptr : !tile.ptr<f64>
        %j64 = arith.extsi %j : i32 to i64
        %js = tile.splat %j64 : tensor<${MAX_SEQ}xi64>
        %k_offs = arith.addi %k_rows, %js : tensor<${MAX_SEQ}xi64>
        %k_ptrs = tile.addptr %k_base, %k_offs : tensor<${MAX_SEQ}x!tile.ptr<f64>>, tensor<${MAX_SEQ}xi64>
        %k_col = tile.load %k_ptrs, %valid, %zero : tensor<${MAX_SEQ}x!tile.ptr<f64>>
        %q_s = tile.splat %q_rj : tensor<${MAX_SEQ}xf64>
        %prod = arith.mulf %q_s, %k_col : tensor<${MAX_SEQ}xf64>
        %next = arith.addf %acc, %prod : tensor<${MAX_SEQ}xf64>
        scf.yield %next : tensor<${MAX_SEQ}xf64>
      }
      %scales = tile.splat %scale64 : tensor<${MAX_SEQ}xf64>
      %s = arith.mulf %dot, %scales : tensor<${MAX_SEQ}xf64>
      %last = arith.addi %r, %shift : i32
      %lasts = tile.splat %last : tensor<${MAX_SEQ}xi32>
      %seen = arith.cmpi sle, %keys, %lasts : tensor<${MAX_SEQ}xi32>
      %causals = tile.splat %causal : tensor<${MAX_SEQ}xi1>
      %trues = arith.constant dense<true> : tensor<${MAX_SEQ}xi1>
      %hidden = arith.xori %causals, %trues : tensor<${MAX_SEQ}xi1>
      %visible = arith.ori %seen, %hidden : tensor<${MAX_SEQ}xi1>
      %keep = arith.andi %visible, %valid : tensor<${MAX_SEQ}xi1>
      %s_m = arith.select %keep, %s, %neg_inf : tensor<${MAX_SEQ}xi1>, tensor<${MAX_SEQ}xf64>
      %m = tile.reduce max %s_m axis = 0 : tensor<${MAX_SEQ}xf64> -> f64
      %none = arith.cmpf oeq, %m, %neg_inf_s : f64
      %m_use = arith.select %none, %zero_s, %m : f64
      %ms = tile.splat %m_use : tensor<${MAX_SEQ}xf64>
      %shifted = arith.subf %s_m, %ms : tensor<${MAX_SEQ}xf64>
      %e = math.exp %shifted : tensor<${MAX_SEQ}xf64>
      %l = tile.reduce sum %e axis = 0 : tensor<${MAX_SEQ}xf64> -> f64
      %l_safe = arith.select %none, %one_s, %l : f64
      %ls = tile.splat %l_safe : tensor<${MAX_SEQ}xf64>
      %p = arith.divf %e, %ls : tensor<${MAX_SEQ}xf64>
      // o[r, j] = sum_c p_c v[c, j]
      scf.for %j = %c0 to %d step %c1 : i32 {
        %j64 = arith.extsi %j : i32 to i64
        %js = tile.splat %j64 : tensor<${MAX_SEQ}xi64>
        %v_offs = arith.addi %v_rows, %js : tensor<${MAX_SEQ}xi64>
        %v_ptrs = tile.addptr %v_base, %v_offs : tensor<${MAX_SEQ}x!tile.ptr<f64>>, tensor<${MAX_SEQ}xi64>
        %v_col = tile.load %v_ptrs, %valid, %zero : tensor<${MAX_SEQ}x!tile.ptr<f64>>
        %pv = arith.mulf %p, %v_col : tensor<${MAX_SEQ}xf64>
        %o_rj = tile.reduce sum %pv axis = 0 : tensor<${MAX_SEQ}xf64> -> f64
        %o_ptr = tile.addptr %o_row, %j : !tile.ptr<f64>, i32
        tile.store %o_ptr, %o_rj : !tile.ptr<f64>
      }
      %log_l = math.log %l : f64
      %lse_r = arith.addf %m, %log_l : f64
      %lse_ptr = tile.addptr %lse_h, %r : !tile.ptr<f64>, i32
      tile.store %lse_ptr, %lse_r : !tile.ptr<f64>
    }
  }
  return
}
