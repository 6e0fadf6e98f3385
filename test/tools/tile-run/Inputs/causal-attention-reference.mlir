// The float64 reference of examples/causal_attention.mlir for tile-run
// --reference, computed row by row without an online softmax. It runs over
// the kernel's grid; program (0, h) computes head h, the other programs
// nothing. Sequences of up to MAX_SEQ positions, heads of HEAD_DIM.

tile.param MAX_SEQ = 512
tile.param HEAD_DIM = 64

func.func @causal_attention_f64(%q: !tile.ptr<f64>, %k: !tile.ptr<f64>,
                                %v: !tile.ptr<f64>, %out: !tile.ptr<f64>,
                                %seq: i32, %scale: f32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pm = tile.program_id 0
  %head = tile.program_id 1
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %d = arith.constant ${HEAD_DIM} : i32
  %first = arith.cmpi eq, %pm, %c0 : i32
  scf.if %first {
    %scale64 = arith.extf %scale : f32 to f64
    %head_elems = arith.muli %seq, %d : i32
    %base = arith.muli %head, %head_elems : i32
    %q_h = tile.addptr %q, %base : !tile.ptr<f64>, i32
    %k_h = tile.addptr %k, %base : !tile.ptr<f64>, i32
    %v_h = tile.addptr %v, %base : !tile.ptr<f64>, i32
    %o_h = tile.addptr %out, %base : !tile.ptr<f64>, i32
    %keys = tile.range 0, ${MAX_SEQ} : tensor<${MAX_SEQ}xi32>
    %seqs = tile.splat %seq : tensor<${MAX_SEQ}xi32>
    %valid = arith.cmpi slt, %keys, %seqs : tensor<${MAX_SEQ}xi32>
    %ds = tile.splat %d : tensor<${MAX_SEQ}xi32>
    %key_rows = arith.muli %keys, %ds : tensor<${MAX_SEQ}xi32>
    %zero = arith.constant dense<0.0> : tensor<${MAX_SEQ}xf64>
    %neg_inf = arith.constant dense<0xFFF0000000000000> : tensor<${MAX_SEQ}xf64>
    %k_base = tile.splat %k_h : tensor<${MAX_SEQ}x!tile.ptr<f64>>
    %v_base = tile.splat %v_h : tensor<${MAX_SEQ}x!tile.ptr<f64>>
    scf.for %r = %c0 to %seq step %c1 : i32 {
      %q_row = arith.muli %r, %d : i32
      // s_c = scale * sum_d q[r, d] k[c, d]
      %dot = scf.for %j = %c0 to %d step %c1 iter_args(%acc = %zero) -> (tensor<${MAX_SEQ}xf64>) : i32 {
        %q_off = arith.addi %q_row, %j : i32
        %q_ptr = tile.addptr %q_h, %q_off : !tile.ptr<f64>, i32
        %q_rj = tile.load %q_ptr : !tile.ptr<f64>
        %js = tile.splat %j : tensor<${MAX_SEQ}xi32>
        %k_offs = arith.addi %key_rows, %js : tensor<${MAX_SEQ}xi32>
        %k_ptrs = tile.addptr %k_base, %k_offs : tensor<${MAX_SEQ}x!tile.ptr<f64>>, tensor<${MAX_SEQ}xi32>
        %k_col = tile.load %k_ptrs, %valid, %zero : tensor<${MAX_SEQ}x!tile.ptr<f64>>
        %q_s = tile.splat %q_rj : tensor<${MAX_SEQ}xf64>
        %prod = arith.mulf %q_s, %k_col : tensor<${MAX_SEQ}xf64>
        %next = arith.addf %acc, %prod : tensor<${MAX_SEQ}xf64>
        scf.yield %next : tensor<${MAX_SEQ}xf64>
      }
      %scales = tile.splat %scale64 : tensor<${MAX_SEQ}xf64>
      %s = arith.mulf %dot, %scales : tensor<${MAX_SEQ}xf64>
      %rs = tile.splat %r : tensor<${MAX_SEQ}xi32>
      %causal = arith.cmpi sle, %keys, %rs : tensor<${MAX_SEQ}xi32>
      %keep = arith.andi %causal, %valid : tensor<${MAX_SEQ}xi1>
      %s_m = arith.select %keep, %s, %neg_inf : tensor<${MAX_SEQ}xi1>, tensor<${MAX_SEQ}xf64>
      %m = tile.reduce max %s_m axis = 0 : tensor<${MAX_SEQ}xf64> -> f64
      %ms = tile.splat %m : tensor<${MAX_SEQ}xf64>
      %shifted = arith.subf %s_m, %ms : tensor<${MAX_SEQ}xf64>
      %e = math.exp %shifted : tensor<${MAX_SEQ}xf64>
      %l = tile.reduce sum %e axis = 0 : tensor<${MAX_SEQ}xf64> -> f64
      %ls = tile.splat %l : tensor<${MAX_SEQ}xf64>
      %p = arith.divf %e, %ls : tensor<${MAX_SEQ}xf64>
      // out[r, j] = sum_c p_c v[c, j]
      scf.for %j = %c0 to %d step %c1 : i32 {
        %js = tile.splat %j : tensor<${MAX_SEQ}xi32>
        %v_offs = arith.addi %key_rows, %js : tensor<${MAX_SEQ}xi32>
        %v_ptrs = tile.addptr %v_base, %v_offs : tensor<${MAX_SEQ}x!tile.ptr<f64>>, tensor<${MAX_SEQ}xi32>
        %v_col = tile.load %v_ptrs, %valid, %zero : tensor<${MAX_SEQ}x!tile.ptr<f64>>
        %pv = arith.mulf %p, %v_col : tensor<${MAX_SEQ}xf64>
        %o_rj = tile.reduce sum %pv axis = 0 : tensor<${MAX_SEQ}xf64> -> f64
        %o_off = arith.addi %q_row, %j : i32
        %o_ptr = tile.addptr %o_h, %o_off : !tile.ptr<f64>, i32
        tile.store %o_ptr, %o_rj : !tile.ptr<f64>
      }
    }
  }
  return
}
