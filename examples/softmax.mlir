// softmax.mlir - row-wise softmax of a 2-d f32 matrix, one row per program.
//
// Mirrors Triton's fused-softmax tutorial (`softmax_kernel`; the same
// computation as the one-row-per-block softmax of OneFlow's softmax dispatch
// by row length):
// the whole row is loaded into one tile, so the input is read once and the
// output written once.
//
//   out[r, c] = exp(in[r, c] - max_c in[r, :]) / sum_c exp(in[r, :] - max)
//
// Kernel:
//   @softmax(%out: !tile.ptr<f32>, %in: !tile.ptr<f32>, %in_row_stride: i32,
//            %out_row_stride: i32, %n_rows: i32, %n_cols: i32)
//     %out, %in        row-major matrices of n_rows x n_cols f32 elements;
//                      columns are contiguous (column stride 1)
//     %in_row_stride   elements between the starts of consecutive rows of in
//     %out_row_stride  elements between the starts of consecutive rows of out
//     %n_rows          number of rows (the grid size; not read by the kernel,
//                      kept for parity with the tutorial's signature)
//     %n_cols          number of columns
//
// Grid: (n_rows, 1, 1); program `pid` handles row `pid`.
//
// Parameters (set with --param NAME=VALUE in tile-opt, tile-compile and
// tile-run):
//   BLOCK      columns one program holds: a power of two >= n_cols, as the
//              tutorial's BLOCK_SIZE = next_power_of_2(n_cols)
//   NUM_WARPS  warps per program (the tutorial's num_warps)
//
// Constraints: 1 <= n_cols <= BLOCK (wider rows: a larger BLOCK, or
// online_softmax.mlir). Lanes with col >= n_cols load -inf, so they do not
// change the max and contribute exp(-inf) = 0 to the sum; they are not
// stored. n_cols >= 1 keeps the row max finite (for finite inputs). Offsets
// are i32: row * stride + col must fit in i32.

tile.param BLOCK = 1024
tile.param NUM_WARPS = 4

module {
  func.func @softmax(%out: !tile.ptr<f32>, %in: !tile.ptr<f32>,
                     %in_row_stride: i32, %out_row_stride: i32,
                     %n_rows: i32, %n_cols: i32)
      attributes {tile.kernel, tile.num_warps = ${NUM_WARPS} : i32} {
    %row = tile.program_id 0

    // Column offsets 0..BLOCK-1 and the mask of the valid ones.
    %cols = tile.range 0, ${BLOCK} : tensor<${BLOCK}xi32>
    %n_cols_splat = tile.splat %n_cols : tensor<${BLOCK}xi32>
    %col_mask = arith.cmpi slt, %cols, %n_cols_splat : tensor<${BLOCK}xi32>

    // in_ptrs = in + row * in_row_stride + cols
    %in_row_offset = arith.muli %row, %in_row_stride : i32
    %in_row_start = tile.addptr %in, %in_row_offset : !tile.ptr<f32>, i32
    %in_row_starts = tile.splat %in_row_start : tensor<${BLOCK}x!tile.ptr<f32>>
    %in_ptrs = tile.addptr %in_row_starts, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>

    // Load the row; padding lanes read -inf.
    %neg_inf = arith.constant dense<0xFF800000> : tensor<${BLOCK}xf32>
    %x = tile.load %in_ptrs, %col_mask, %neg_inf : tensor<${BLOCK}x!tile.ptr<f32>>

    // Subtract the row max for numerical stability.
    %row_max = tile.reduce max %x axis = 0 : tensor<${BLOCK}xf32> -> f32
    %row_max_splat = tile.splat %row_max : tensor<${BLOCK}xf32>
    %x_minus_max = arith.subf %x, %row_max_splat : tensor<${BLOCK}xf32>

    // numerator = exp(x - max); denominator = sum(numerator). `afn` lets the
    // GPU flush weights below 2^-126 to zero (one ex2.approx.ftz).
    %numerator = math.exp %x_minus_max fastmath<afn> : tensor<${BLOCK}xf32>
    %denominator = tile.reduce sum %numerator axis = 0 : tensor<${BLOCK}xf32> -> f32
    %denominator_splat = tile.splat %denominator : tensor<${BLOCK}xf32>
    %softmax_out = arith.divf %numerator, %denominator_splat : tensor<${BLOCK}xf32>

    // out_ptrs = out + row * out_row_stride + cols; store the valid lanes.
    %out_row_offset = arith.muli %row, %out_row_stride : i32
    %out_row_start = tile.addptr %out, %out_row_offset : !tile.ptr<f32>, i32
    %out_row_starts = tile.splat %out_row_start : tensor<${BLOCK}x!tile.ptr<f32>>
    %out_ptrs = tile.addptr %out_row_starts, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
    tile.store %out_ptrs, %softmax_out, %col_mask : tensor<${BLOCK}x!tile.ptr<f32>>
    return
  }
}
