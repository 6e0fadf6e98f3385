// softmax_cluster.mlir - row-wise softmax of a 2-d f32 matrix, each row
// split over a thread block cluster of 4 programs (sm_90 and later).
//
// A row longer than one program can hold in registers is still read once:
// program `rank` of a cluster holds columns [rank * 1024, rank * 1024 +
// 1024) of the row, computes their max m and sum s of exp(x - m), and one
// tile.cluster_gather gives every program all four (m, s) pairs, which it
// merges as online softmax merges blocks:
//
//   M = max_r m_r,  S = sum_r s_r * exp(m_r - M),
//   out = exp(x - m) * exp(m - M) / S
//
// (the library's softmax_cluster kernels are this, with wider blocks).
//
// Kernel:
//   @softmax_cluster(%out: !tile.ptr<f32>, %in: !tile.ptr<f32>,
//                    %in_row_stride: i32, %out_row_stride: i32,
//                    %n_rows: i32, %n_cols: i32)
//     as examples/softmax.mlir; 1 <= n_cols <= 4096.
//
// Grid: (4 * n_rows, 1, 1); programs 4r .. 4r + 3 form the cluster of row r.
// A program whose columns all lie past n_cols contributes m = -inf, s = 0
// (its shift is taken as 0, so no -inf - -inf).

module {
  func.func @softmax_cluster(%out: !tile.ptr<f32>, %in: !tile.ptr<f32>,
                             %in_row_stride: i32, %out_row_stride: i32,
                             %n_rows: i32, %n_cols: i32)
      attributes {tile.kernel, tile.num_warps = 4 : i32,
                  tile.cluster_size = 4 : i32} {
    %pid = tile.program_id 0
    %c4 = arith.constant 4 : i32
    %c1024 = arith.constant 1024 : i32
    %row = arith.divui %pid, %c4 : i32
    %rank = arith.remui %pid, %c4 : i32
    %first = arith.muli %rank, %c1024 : i32

    // This program's columns and the mask of the valid ones.
    %range = tile.range 0, 1024 : tensor<1024xi32>
    %first_splat = tile.splat %first : tensor<1024xi32>
    %cols = arith.addi %first_splat, %range : tensor<1024xi32>
    %n_cols_splat = tile.splat %n_cols : tensor<1024xi32>
    %mask = arith.cmpi slt, %cols, %n_cols_splat : tensor<1024xi32>

    %in_off = arith.muli %row, %in_row_stride : i32
    %in_row = tile.addptr %in, %in_off : !tile.ptr<f32>, i32
    %in_row_splat = tile.splat %in_row : tensor<1024x!tile.ptr<f32>>
    %in_ptrs = tile.addptr %in_row_splat, %cols
        : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
    %ninf = arith.constant 0xFF800000 : f32
    %ninf_splat = tile.splat %ninf : tensor<1024xf32>
    %x = tile.load %in_ptrs, %mask, %ninf_splat : tensor<1024x!tile.ptr<f32>>

    // This program's max and sum of exp(x - max).
    %zero = arith.constant 0.0 : f32
    %m = tile.reduce max %x axis = 0 : tensor<1024xf32> -> f32
    %m_inf = arith.cmpf oeq, %m, %ninf : f32
    %shift = arith.select %m_inf, %zero, %m : f32
    %shift_splat = tile.splat %shift : tensor<1024xf32>
    %shifted = arith.subf %x, %shift_splat : tensor<1024xf32>
    %e = math.exp %shifted : tensor<1024xf32>
    %s = tile.reduce sum %e axis = 0 : tensor<1024xf32> -> f32

    // Every program's (max, sum), merged.
    %ms, %ss = tile.cluster_gather %m, %s
        : f32, f32 -> tensor<4xf32>, tensor<4xf32>
    %row_max = tile.reduce max %ms axis = 0 : tensor<4xf32> -> f32
    %all_inf = arith.cmpf oeq, %row_max, %ninf : f32
    %row_shift = arith.select %all_inf, %zero, %row_max : f32
    %row_shift_splat = tile.splat %row_shift : tensor<4xf32>
    %ms_shifted = arith.subf %ms, %row_shift_splat : tensor<4xf32>
    %scales = math.exp %ms_shifted : tensor<4xf32>
    %scaled = arith.mulf %ss, %scales : tensor<4xf32>
    %row_sum = tile.reduce sum %scaled axis = 0 : tensor<4xf32> -> f32

    // out = exp(x - m) * exp(m - M) / S.
    %own = arith.subf %shift, %row_shift : f32
    %own_scale = math.exp %own : f32
    %factor = arith.divf %own_scale, %row_sum : f32
    %factor_splat = tile.splat %factor : tensor<1024xf32>
    %y = arith.mulf %e, %factor_splat : tensor<1024xf32>

    %out_off = arith.muli %row, %out_row_stride : i32
    %out_row = tile.addptr %out, %out_off : !tile.ptr<f32>, i32
    %out_row_splat = tile.splat %out_row : tensor<1024x!tile.ptr<f32>>
    %out_ptrs = tile.addptr %out_row_splat, %cols
        : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
    tile.store %out_ptrs, %y, %mask : tensor<1024x!tile.ptr<f32>>
    return
  }
}
