// softmax_matmul.mlir - fused out = softmax(X, dim=-1) @ V without
// materializing softmax(X), one block of 16 rows of one batch per program.
//
// Mirrors the fused softmax-matmul assignment (`fused_softmax_kernel`
// with block pointers, BLOCK_1 = BLOCK_2 = 16). X is streamed along d2 in
// 16x16 blocks together with the matching 16 rows of V; per row the kernel
// keeps the online-softmax running max m and running sum l, and an
// unnormalized output accumulator acc (all f32):
//
//   m_new = max(m, rowmax(X_j))
//   alpha = exp(m - m_new)
//   p     = exp(X_j - m_new)
//   l     = l * alpha + rowsum(p)
//   acc   = acc * alpha + p @ V_j
//   out   = acc / l                       (once, after the last block)
//
// This is the assignment's update
//   O_j = O_{j-1} * (l_{j-1}/l_j) * alpha + (p/l_j) @ V_j
// with the division by l deferred to the end (same result, fewer divisions).
//
// Kernel:
//   @softmax_matmul(%x: !tile.ptr<f32>, %v: !tile.ptr<f32>, %out: !tile.ptr<f32>,
//                   %d1: i32, %d2: i32, %d3: i32,
//                   %stride_xb: i32, %stride_xm: i32, %stride_xk: i32,
//                   %stride_vb: i32, %stride_vk: i32, %stride_vn: i32,
//                   %stride_ob: i32, %stride_om: i32, %stride_on: i32)
//     %x    X, shape (batch, d1, d2), strides (stride_xb, stride_xm, stride_xk)
//     %v    V, shape (batch, d2, d3), strides (stride_vb, stride_vk, stride_vn)
//     %out  output, shape (batch, d1, d3), strides (stride_ob, stride_om, stride_on)
//     strides are in elements.
//
// Grid: (cdiv(d1, 16), batch, 1); program (pid_m, b) computes
// out[b, pid_m*16 : pid_m*16+16, 0:d3].
//
// Constraints: 1 <= d3 <= 64 (the whole d3 is one 64-wide tile, D3B = 64;
// d3 need not be 64 or a power of two: V columns >= d3 load as zero and the
// store is boundary-checked on both dims). d1 and d2 are arbitrary (>= 1):
// X loads are checked on both dims with -inf padding, so columns >= d2 give
// p = 0, and V loads are checked with zero padding, so V rows >= d2 add 0
// (never 0 * NaN). Shapes and strides go to the block pointers as i64; the
// batch offset b * stride is computed in i64; block offsets are i32.
//
// -inf handling: a row's running max can be -inf (a padded row >= d1, whose
// X block is all -inf padding, or a valid row whose first blocks are all
// -inf in the data, e.g. masked attention scores). Then exp(m - m_new) =
// exp(-inf - -inf) = NaN. As in online_softmax.mlir, the reference
// m_ref = (m_new == -inf) ? 0 : m_new is subtracted instead of m_new, which
// makes alpha = 0 and p = 0 for such rows. A padded row ends with l = 0 and
// acc = 0, so its out = 0/0 = NaN, but padded rows are never stored and the
// dot keeps rows independent (row r of p @ V only reads row r of p), so no
// NaN reaches a valid row. A valid row that is -inf everywhere also gives
// NaN, like torch.softmax.

module {
  func.func @softmax_matmul(%x: !tile.ptr<f32>, %v: !tile.ptr<f32>,
                            %out: !tile.ptr<f32>,
                            %d1: i32, %d2: i32, %d3: i32,
                            %stride_xb: i32, %stride_xm: i32, %stride_xk: i32,
                            %stride_vb: i32, %stride_vk: i32, %stride_vn: i32,
                            %stride_ob: i32, %stride_om: i32, %stride_on: i32)
      attributes {tile.kernel, tile.num_warps = 4 : i32} {
    %c0 = arith.constant 0 : i32
    %block_1 = arith.constant 16 : i32   // rows of X per program
    %block_2 = arith.constant 16 : i32   // step along d2

    %pid_m = tile.program_id 0
    %batch = tile.program_id 1
    %row_start = arith.muli %pid_m, %block_1 : i32

    // Array shapes and strides as i64, as tile.make_block_ptr takes them.
    %d1_i64 = arith.extsi %d1 : i32 to i64
    %d2_i64 = arith.extsi %d2 : i32 to i64
    %d3_i64 = arith.extsi %d3 : i32 to i64
    %stride_xm_i64 = arith.extsi %stride_xm : i32 to i64
    %stride_xk_i64 = arith.extsi %stride_xk : i32 to i64
    %stride_vk_i64 = arith.extsi %stride_vk : i32 to i64
    %stride_vn_i64 = arith.extsi %stride_vn : i32 to i64
    %stride_om_i64 = arith.extsi %stride_om : i32 to i64
    %stride_on_i64 = arith.extsi %stride_on : i32 to i64

    // Start of this batch's matrix in X, V and out (64-bit offsets).
    %batch_i64 = arith.extsi %batch : i32 to i64
    %stride_xb_i64 = arith.extsi %stride_xb : i32 to i64
    %stride_vb_i64 = arith.extsi %stride_vb : i32 to i64
    %stride_ob_i64 = arith.extsi %stride_ob : i32 to i64
    %x_batch_offset = arith.muli %batch_i64, %stride_xb_i64 : i64
    %v_batch_offset = arith.muli %batch_i64, %stride_vb_i64 : i64
    %out_batch_offset = arith.muli %batch_i64, %stride_ob_i64 : i64
    %x_batch = tile.addptr %x, %x_batch_offset : !tile.ptr<f32>, i64
    %v_batch = tile.addptr %v, %v_batch_offset : !tile.ptr<f32>, i64
    %out_batch = tile.addptr %out, %out_batch_offset : !tile.ptr<f32>, i64

    // x_block: X[b, row_start : row_start+16, 0:16], advanced along d2.
    %x_block0 = tile.make_block_ptr %x_batch, [%d1_i64, %d2_i64],
        [%stride_xm_i64, %stride_xk_i64], [%row_start, %c0] order = [1, 0]
        : !tile.block_ptr<tensor<16x16xf32>>
    // v_block: V[b, 0:16, 0:64], advanced along d2.
    %v_block0 = tile.make_block_ptr %v_batch, [%d2_i64, %d3_i64],
        [%stride_vk_i64, %stride_vn_i64], [%c0, %c0] order = [1, 0]
        : !tile.block_ptr<tensor<16x64xf32>>

    // f32 accumulators: running max, running sum, unnormalized output.
    %m_init = arith.constant dense<0xFF800000> : tensor<16xf32>
    %l_init = arith.constant dense<0.0> : tensor<16xf32>
    %acc_init = arith.constant dense<0.0> : tensor<16x64xf32>
    %neg_inf = arith.constant dense<0xFF800000> : tensor<16xf32>
    %zeros = arith.constant dense<0.0> : tensor<16xf32>

    %m_final, %l_final, %acc_final, %x_block_end, %v_block_end =
        scf.for %k = %c0 to %d2 step %block_2
        iter_args(%m = %m_init, %l = %l_init, %acc = %acc_init,
                  %x_block = %x_block0, %v_block = %v_block0)
        -> (tensor<16xf32>, tensor<16xf32>, tensor<16x64xf32>,
            !tile.block_ptr<tensor<16x16xf32>>, !tile.block_ptr<tensor<16x64xf32>>)
        : i32 {
      // X_j (out-of-range rows/columns read -inf), V_j (out of range read 0).
      %x_tile = tile.block_load %x_block check = [0, 1] padding = neg_inf
          : !tile.block_ptr<tensor<16x16xf32>>
      %v_tile = tile.block_load %v_block check = [0, 1] padding = zero
          : !tile.block_ptr<tensor<16x64xf32>>

      // m_new = max(m, rowmax(X_j)); m_ref = m_new with -inf replaced by 0.
      %block_max = tile.reduce max %x_tile axis = 1 : tensor<16x16xf32> -> tensor<16xf32>
      %m_new = arith.maximumf %m, %block_max : tensor<16xf32>
      %m_new_is_neg_inf = arith.cmpf oeq, %m_new, %neg_inf : tensor<16xf32>
      %m_ref = arith.select %m_new_is_neg_inf, %zeros, %m_new : tensor<16xi1>, tensor<16xf32>

      // alpha = exp(m - m_ref): rescales what was accumulated so far.
      %m_diff = arith.subf %m, %m_ref : tensor<16xf32>
      %alpha = math.exp %m_diff fastmath<afn> : tensor<16xf32>

      // p = exp(X_j - m_ref[:, None])
      %m_ref_col = tile.expand_dims %m_ref axis = 1 : tensor<16xf32> -> tensor<16x1xf32>
      %m_ref_bcast = tile.broadcast %m_ref_col : tensor<16x1xf32> -> tensor<16x16xf32>
      %x_minus_m = arith.subf %x_tile, %m_ref_bcast : tensor<16x16xf32>
      %p = math.exp %x_minus_m fastmath<afn> : tensor<16x16xf32>

      // l_new = l * alpha + rowsum(p)
      %p_row_sum = tile.reduce sum %p axis = 1 : tensor<16x16xf32> -> tensor<16xf32>
      %l_scaled = arith.mulf %l, %alpha : tensor<16xf32>
      %l_new = arith.addf %l_scaled, %p_row_sum : tensor<16xf32>

      // acc_new = acc * alpha[:, None] + p @ V_j
      %alpha_col = tile.expand_dims %alpha axis = 1 : tensor<16xf32> -> tensor<16x1xf32>
      %alpha_bcast = tile.broadcast %alpha_col : tensor<16x1xf32> -> tensor<16x64xf32>
      %acc_scaled = arith.mulf %acc, %alpha_bcast : tensor<16x64xf32>
      %acc_new = tile.dot %p, %v_tile, %acc_scaled
          : tensor<16x16xf32>, tensor<16x64xf32> -> tensor<16x64xf32>

      // Move both blocks 16 steps along d2.
      %x_block_next = tile.advance %x_block, [%c0, %block_2] : !tile.block_ptr<tensor<16x16xf32>>
      %v_block_next = tile.advance %v_block, [%block_2, %c0] : !tile.block_ptr<tensor<16x64xf32>>
      scf.yield %m_new, %l_new, %acc_new, %x_block_next, %v_block_next
          : tensor<16xf32>, tensor<16xf32>, tensor<16x64xf32>,
            !tile.block_ptr<tensor<16x16xf32>>, !tile.block_ptr<tensor<16x64xf32>>
    }

    // out = acc / l[:, None]; rows >= d1 and columns >= d3 are not written.
    %l_col = tile.expand_dims %l_final axis = 1 : tensor<16xf32> -> tensor<16x1xf32>
    %l_bcast = tile.broadcast %l_col : tensor<16x1xf32> -> tensor<16x64xf32>
    %out_tile = arith.divf %acc_final, %l_bcast : tensor<16x64xf32>
    %out_block = tile.make_block_ptr %out_batch, [%d1_i64, %d3_i64],
        [%stride_om_i64, %stride_on_i64], [%row_start, %c0] order = [1, 0]
        : !tile.block_ptr<tensor<16x64xf32>>
    tile.block_store %out_block, %out_tile check = [0, 1] : !tile.block_ptr<tensor<16x64xf32>>
    return
  }
}
