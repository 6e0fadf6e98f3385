// layernorm.mlir - layer normalization of the rows of an f32 matrix, one row
// per program:
//
//   y[r, c] = (x[r, c] - mean_r) / sqrt(var_r + eps) * w[c] + b[c]
//
// with mean_r and var_r (biased) over the n_cols columns of row r, as
// torch.nn.functional.layer_norm computes it.
//
// Kernel:
//   @layernorm(%y, %x, %w, %b: !tile.ptr<f32>, %row_stride: i32,
//              %n_cols: i32, %eps: f32)
//     %y, %x     row-major n_rows x n_cols matrices, rows %row_stride apart
//     %w, %b     n_cols weights and biases
//
// Parameters (--param NAME=VALUE): BLOCK, a power of two >= n_cols (default
// 1024), and NUM_WARPS (default 4).
//
// Grid: (n_rows, 1, 1).

tile.param BLOCK = 1024
tile.param NUM_WARPS = 4

module {
  func.func @layernorm(%y: !tile.ptr<f32>, %x: !tile.ptr<f32>,
                       %w: !tile.ptr<f32>, %b: !tile.ptr<f32>,
                       %row_stride: i32, %n_cols: i32, %eps: f32)
      attributes {tile.kernel, tile.num_warps = ${NUM_WARPS} : i32} {
    %row = tile.program_id 0
    %cols = tile.range 0, ${BLOCK} : tensor<${BLOCK}xi32>
    %n = tile.splat %n_cols : tensor<${BLOCK}xi32>
    %mask = arith.cmpi slt, %cols, %n : tensor<${BLOCK}xi32>
    %zero = arith.constant dense<0.0> : tensor<${BLOCK}xf32>

    // The row, zero past n_cols.
    %start = arith.muli %row, %row_stride : i32
    %x_row = tile.addptr %x, %start : !tile.ptr<f32>, i32
    %x_rows = tile.splat %x_row : tensor<${BLOCK}x!tile.ptr<f32>>
    %x_ptrs = tile.addptr %x_rows, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
    %v = tile.load %x_ptrs, %mask, %zero : tensor<${BLOCK}x!tile.ptr<f32>>

    // Mean, then the variance of the centred row (two passes over registers).
    %n_f = arith.sitofp %n_cols : i32 to f32
    %sum = tile.reduce sum %v axis = 0 : tensor<${BLOCK}xf32> -> f32
    %mean = arith.divf %sum, %n_f : f32
    %means = tile.splat %mean : tensor<${BLOCK}xf32>
    %centred = arith.subf %v, %means : tensor<${BLOCK}xf32>
    %d = arith.select %mask, %centred, %zero : tensor<${BLOCK}xi1>, tensor<${BLOCK}xf32>
    %sq = arith.mulf %d, %d : tensor<${BLOCK}xf32>
    %sq_sum = tile.reduce sum %sq axis = 0 : tensor<${BLOCK}xf32> -> f32
    %var = arith.divf %sq_sum, %n_f : f32
    %var_eps = arith.addf %var, %eps : f32
    %rstd = math.rsqrt %var_eps : f32
    %rstds = tile.splat %rstd : tensor<${BLOCK}xf32>
    %xhat = arith.mulf %d, %rstds : tensor<${BLOCK}xf32>

    // Scale and shift.
    %w_base = tile.splat %w : tensor<${BLOCK}x!tile.ptr<f32>>
    %w_ptrs = tile.addptr %w_base, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
    %wv = tile.load %w_ptrs, %mask, %zero : tensor<${BLOCK}x!tile.ptr<f32>>
    %b_base = tile.splat %b : tensor<${BLOCK}x!tile.ptr<f32>>
    %b_ptrs = tile.addptr %b_base, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
    %bv = tile.load %b_ptrs, %mask, %zero : tensor<${BLOCK}x!tile.ptr<f32>>
    %scaled = arith.mulf %xhat, %wv : tensor<${BLOCK}xf32>
    %out = arith.addf %scaled, %bv : tensor<${BLOCK}xf32>

    %y_row = tile.addptr %y, %start : !tile.ptr<f32>, i32
    %y_rows = tile.splat %y_row : tensor<${BLOCK}x!tile.ptr<f32>>
    %y_ptrs = tile.addptr %y_rows, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
    tile.store %y_ptrs, %out, %mask : tensor<${BLOCK}x!tile.ptr<f32>>
    return
  }
}
