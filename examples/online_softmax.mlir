// online_softmax.mlir - row-wise softmax for rows of any length, one row per
// program, streaming the row in column blocks of 256.
//
// Mirrors the online softmax of the fused softmax-matmul assignment (the
// `online_softmax` course kernel that the assignment's fused softmax-matmul
// extends). Pass 1 reads the row once, keeping a running max m and a
// running sum l of exp(x - m):
//
//   m_new = max(m, max(x_j))
//   l_new = l * exp(m - m_new) + sum(exp(x_j - m_new))
//
// pass 2 reads the row again and writes exp(x - m) / l. The row never has to
// fit in one tile, unlike softmax.mlir (BLOCK >= n_cols).
//
// Kernel:
//   @online_softmax(%out: !tile.ptr<f32>, %in: !tile.ptr<f32>,
//                   %in_row_stride: i32, %out_row_stride: i32, %n_cols: i32)
//     %out, %in        row-major f32 matrices, columns contiguous (stride 1)
//     %in_row_stride   elements between consecutive rows of in
//     %out_row_stride  elements between consecutive rows of out
//     %n_cols          row length; any value >= 0 (need not be a multiple
//                      of 256; n_cols = 0 runs no iteration, stores nothing)
//
// Grid: (n_rows, 1, 1); program `pid` handles row `pid`.
//
// -inf handling: masked lanes (col >= n_cols) load -inf, which leaves the max
// unchanged and adds exp(-inf - m) = 0 to the sum. m starts at -inf; when the
// running max is still -inf after a block (the block's valid elements are all
// -inf, e.g. a leading fully masked-out attention block), the scalar
// `m_ref = (m_new == -inf) ? 0 : m_new` is used as the subtraction reference,
// so exp(m - m_ref) = exp(-inf) = 0 and exp(x - m_ref) = 0 instead of
// exp(-inf - -inf) = NaN, which would poison l for the rest of the row.
// A row whose elements are all -inf ends with m = -inf, l = 0 and writes NaN
// (0/0), as torch.softmax does. With n_cols >= 1 and at least one finite
// element, the output is exact softmax. Offsets are i32.

module {
  func.func @online_softmax(%out: !tile.ptr<f32>, %in: !tile.ptr<f32>,
                            %in_row_stride: i32, %out_row_stride: i32,
                            %n_cols: i32)
      attributes {tile.kernel, tile.num_warps = 4 : i32} {
    %row = tile.program_id 0
    %c0 = arith.constant 0 : i32
    %block = arith.constant 256 : i32
    %neg_inf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %neg_inf_tile = arith.constant dense<0xFF800000> : tensor<256xf32>

    // Row starts of this program's input and output rows.
    %in_row_offset = arith.muli %row, %in_row_stride : i32
    %in_row_start = tile.addptr %in, %in_row_offset : !tile.ptr<f32>, i32
    %out_row_offset = arith.muli %row, %out_row_stride : i32
    %out_row_start = tile.addptr %out, %out_row_offset : !tile.ptr<f32>, i32

    %lanes = tile.range 0, 256 : tensor<256xi32>
    %n_cols_splat = tile.splat %n_cols : tensor<256xi32>

    // ---- Pass 1: running max m and running sum l over the column blocks.
    %row_max, %row_sum = scf.for %block_start = %c0 to %n_cols step %block
        iter_args(%m = %neg_inf, %l = %zero) -> (f32, f32) : i32 {
      // cols = block_start + arange(0, 256); mask = cols < n_cols
      %block_starts = tile.splat %block_start : tensor<256xi32>
      %cols = arith.addi %block_starts, %lanes : tensor<256xi32>
      %col_mask = arith.cmpi slt, %cols, %n_cols_splat : tensor<256xi32>
      %in_row_starts = tile.splat %in_row_start : tensor<256x!tile.ptr<f32>>
      %in_ptrs = tile.addptr %in_row_starts, %cols : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
      %x = tile.load %in_ptrs, %col_mask, %neg_inf_tile : tensor<256x!tile.ptr<f32>>

      // m_new = max(m, max(x)); m_ref guards the all -inf case (see header).
      %block_max = tile.reduce max %x axis = 0 : tensor<256xf32> -> f32
      %m_new = arith.maximumf %m, %block_max : f32
      %m_new_is_neg_inf = arith.cmpf oeq, %m_new, %neg_inf : f32
      %m_ref = arith.select %m_new_is_neg_inf, %zero, %m_new : f32

      // l_new = l * exp(m - m_ref) + sum(exp(x - m_ref))
      %m_diff = arith.subf %m, %m_ref : f32
      %alpha = math.exp %m_diff fastmath<afn> : f32
      %l_scaled = arith.mulf %l, %alpha : f32
      %m_ref_splat = tile.splat %m_ref : tensor<256xf32>
      %x_minus_m = arith.subf %x, %m_ref_splat : tensor<256xf32>
      %p = math.exp %x_minus_m fastmath<afn> : tensor<256xf32>
      %block_sum = tile.reduce sum %p axis = 0 : tensor<256xf32> -> f32
      %l_new = arith.addf %l_scaled, %block_sum : f32
      scf.yield %m_new, %l_new : f32, f32
    }

    // ---- Pass 2: out = exp(x - m) / l, block by block.
    %row_max_splat = tile.splat %row_max : tensor<256xf32>
    %row_sum_splat = tile.splat %row_sum : tensor<256xf32>
    scf.for %block_start = %c0 to %n_cols step %block : i32 {
      %block_starts = tile.splat %block_start : tensor<256xi32>
      %cols = arith.addi %block_starts, %lanes : tensor<256xi32>
      %col_mask = arith.cmpi slt, %cols, %n_cols_splat : tensor<256xi32>
      %in_row_starts = tile.splat %in_row_start : tensor<256x!tile.ptr<f32>>
      %in_ptrs = tile.addptr %in_row_starts, %cols : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
      %x = tile.load %in_ptrs, %col_mask, %neg_inf_tile : tensor<256x!tile.ptr<f32>>

      %x_minus_max = arith.subf %x, %row_max_splat : tensor<256xf32>
      %numerator = math.exp %x_minus_max fastmath<afn> : tensor<256xf32>
      %softmax_out = arith.divf %numerator, %row_sum_splat : tensor<256xf32>

      %out_row_starts = tile.splat %out_row_start : tensor<256x!tile.ptr<f32>>
      %out_ptrs = tile.addptr %out_row_starts, %cols : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
      tile.store %out_ptrs, %softmax_out, %col_mask : tensor<256x!tile.ptr<f32>>
    }
    return
  }
}
