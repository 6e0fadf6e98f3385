// The float64 reference of examples/matmul_bias_gelu.mlir for tile-run
// --reference. It runs over the kernel's grid; program 0 computes every
// row r of C as sum_k A[r, k] * B[k, :] (a scalar times a row of B per k),
// adds the bias and applies GELU with erf, all in f64; the other programs
// do nothing. N of at most 1024.

func.func @matmul_bias_gelu_f64(%a: !tile.ptr<f64>, %b: !tile.ptr<f64>,
                                %c: !tile.ptr<f64>, %bias: !tile.ptr<f64>,
                                %M: i32, %N: i32, %K: i32,
                                %stride_am: i64, %stride_ak: i64,
                                %stride_bk: i64, %stride_bn: i64,
                                %stride_cm: i64, %stride_cn: i64)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pid = tile.program_id 0
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %first = arith.cmpi eq, %pid, %c0 : i32
  scf.if %first {
    %cols = tile.range 0, 1024 : tensor<1024xi32>
    %cols64 = arith.extsi %cols : tensor<1024xi32> to tensor<1024xi64>
    %Ns = tile.splat %N : tensor<1024xi32>
    %mask = arith.cmpi slt, %cols, %Ns : tensor<1024xi32>
    %sbn = tile.splat %stride_bn : tensor<1024xi64>
    %b_cols = arith.muli %cols64, %sbn : tensor<1024xi64>
    %scn = tile.splat %stride_cn : tensor<1024xi64>
    %c_cols = arith.muli %cols64, %scn : tensor<1024xi64>
    %bias_base = tile.splat %bias : tensor<1024x!tile.ptr<f64>>
    %bias_ptrs = tile.addptr %bias_base, %cols : tensor<1024x!tile.ptr<f64>>, tensor<1024xi32>
    %bias_v = tile.load %bias_ptrs, %mask : tensor<1024x!tile.ptr<f64>>
    %zero = arith.constant dense<0.0> : tensor<1024xf64>
    scf.for %r = %c0 to %M step %c1 : i32 {
      %r64 = arith.extsi %r : i32 to i64
      %a_row = arith.muli %r64, %stride_am : i64
      %acc = scf.for %k = %c0 to %K step %c1 iter_args(%sum = %zero) -> (tensor<1024xf64>) : i32 {
        %k64 = arith.extsi %k : i32 to i64
        %a_col = arith.muli %k64, %stride_ak : i64
        %a_off = arith.addi %a_row, %a_col : i64
        %a_ptr = tile.addptr %a, %a_off : !tile.ptr<f64>, i64
        %a_rk = tile.load %a_ptr : !tile.ptr<f64>
        %b_row = arith.muli %k64, %stride_bk : i64
        %b_row_s = tile.splat %b_row : tensor<1024xi64>
        %b_offs = arith.addi %b_row_s, %b_cols : tensor<1024xi64>
        %b_base = tile.splat %b : tensor<1024x!tile.ptr<f64>>
        %b_ptrs = tile.addptr %b_base, %b_offs : tensor<1024x!tile.ptr<f64>>, tensor<1024xi64>
        %b_v = tile.load %b_ptrs, %mask : tensor<1024x!tile.ptr<f64>>
        %a_s = tile.splat %a_rk : tensor<1024xf64>
        %prod = arith.mulf %a_s, %b_v : tensor<1024xf64>
        %next = arith.addf %sum, %prod : tensor<1024xf64>
        scf.yield %next : tensor<1024xf64>
      }
      %pre = arith.addf %acc, %bias_v : tensor<1024xf64>
      %inv_sqrt2 = arith.constant dense<0.70710678118654752> : tensor<1024xf64>
      %half_c = arith.constant dense<0.5> : tensor<1024xf64>
      %one = arith.constant dense<1.0> : tensor<1024xf64>
      %scaled = arith.mulf %pre, %inv_sqrt2 : tensor<1024xf64>
      %erf = math.erf %scaled : tensor<1024xf64>
      %one_erf = arith.addf %one, %erf : tensor<1024xf64>
      %half_x = arith.mulf %pre, %half_c : tensor<1024xf64>
      %gelu = arith.mulf %half_x, %one_erf : tensor<1024xf64>
      %c_row = arith.muli %r64, %stride_cm : i64
      %c_row_s = tile.splat %c_row : tensor<1024xi64>
      %c_offs = arith.addi %c_row_s, %c_cols : tensor<1024xi64>
      %c_base = tile.splat %c : tensor<1024x!tile.ptr<f64>>
      %c_ptrs = tile.addptr %c_base, %c_offs : tensor<1024x!tile.ptr<f64>>, tensor<1024xi64>
      tile.store %c_ptrs, %gelu, %mask : tensor<1024x!tile.ptr<f64>>
    }
  }
  return
}
