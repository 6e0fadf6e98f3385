// The float64 reference of examples/layernorm.mlir for tile-run --reference:
// the same arguments (the buffers converted to f64, eps still an f32), the
// mean and the biased variance computed in f64, 1 / sqrt instead of rsqrt.
// Rows of up to 4096 columns.

tile.param BLOCK = 4096
tile.param NUM_WARPS = 4

module {
  func.func @layernorm_f64(%y: !tile.ptr<f64>, %x: !tile.ptr<f64>,
                       %w: !tile.ptr<f64>, %b: !tile.ptr<f64>,
                       %row_stride: i32, %n_cols: i32, %eps: f32)
      attributes {tile.kernel, tile.num_warps = ${NUM_WARPS} : i32} {
    %row = tile.program_id 0
    %cols = tile.range 0, ${BLOCK} : tensor<${BLOCK}xi32>
    %n = tile.splat %n_cols : tensor<${BLOCK}xi32>
    %mask = arith.cmpi slt, %cols, %n : tensor<${BLOCK}xi32>
    %zero = arith.constant dense<0.0> : tensor<${BLOCK}xf64>

    // The row, zero past n_cols.
    %start = arith.muli %row, %row_stride : i32
    %x_row = tile.addptr %x, %start : !tile.ptr<f64>, i32
    %x_rows = tile.splat %x_row : tensor<${BLOCK}x!tile.ptr<f64>>
    %x_ptrs = tile.addptr %x_rows, %cols : tensor<${BLOCK}x!tile.ptr<f64>>, tensor<${BLOCK}xi32>
    %v = tile.load %x_ptrs, %mask, %zero : tensor<${BLOCK}x!tile.ptr<f64>>

    // Mean, then the variance of the centred row (two passes over registers).
    %n_f = arith.sitofp %n_cols : i32 to f64
    %sum = tile.reduce sum %v axis = 0 : tensor<${BLOCK}xf64> -> f64
    %mean = arith.divf %sum, %n_f : f64
    %means = tile.splat %mean : tensor<${BLOCK}xf64>
    %centred = arith.subf %v, %means : tensor<${BLOCK}xf64>
    %d = arith.select %mask, %centred, %zero : tensor<${BLOCK}xi1>, tensor<${BLOCK}xf64>
    %sq = arith.mulf %d, %d : tensor<${BLOCK}xf64>
    %sq_sum = tile.reduce sum %sq axis = 0 : tensor<${BLOCK}xf64> -> f64
    %var = arith.divf %sq_sum, %n_f : f64
    %eps64 = arith.extf %eps : f32 to f64
    %var_eps = arith.addf %var, %eps64 : f64
    %root = math.sqrt %var_eps : f64
    %one = arith.constant 1.0 : f64
    %rstd = arith.divf %one, %root : f64
    %rstds = tile.splat %rstd : tensor<${BLOCK}xf64>
    %xhat = arith.mulf %d, %rstds : tensor<${BLOCK}xf64>

    // Scale and shift.
    %w_base = tile.splat %w : tensor<${BLOCK}x!tile.ptr<f64>>
    %w_ptrs = tile.addptr %w_base, %cols : tensor<${BLOCK}x!tile.ptr<f64>>, tensor<${BLOCK}xi32>
    %wv = tile.load %w_ptrs, %mask, %zero : tensor<${BLOCK}x!tile.ptr<f64>>
    %b_base = tile.splat %b : tensor<${BLOCK}x!tile.ptr<f64>>
    %b_ptrs = tile.addptr %b_base, %cols : tensor<${BLOCK}x!tile.ptr<f64>>, tensor<${BLOCK}xi32>
    %bv = tile.load %b_ptrs, %mask, %zero : tensor<${BLOCK}x!tile.ptr<f64>>
    %scaled = arith.mulf %xhat, %wv : tensor<${BLOCK}xf64>
    %out = arith.addf %scaled, %bv : tensor<${BLOCK}xf64>

    %y_row = tile.addptr %y, %start : !tile.ptr<f64>, i32
    %y_rows = tile.splat %y_row : tensor<${BLOCK}x!tile.ptr<f64>>
    %y_ptrs = tile.addptr %y_rows, %cols : tensor<${BLOCK}x!tile.ptr<f64>>, tensor<${BLOCK}xi32>
    tile.store %y_ptrs, %out, %mask : tensor<${BLOCK}x!tile.ptr<f64>>
    return
  }
}
