// The float64 reference of examples/cross_entropy.mlir for tile-run
// --reference: the same computation on the logits converted to f64 (the
// targets stay i32). Rows of up to 32768 columns (over 32 warps, which the
// register estimate of the kernel checker needs for tiles that large).

tile.param BLOCK = 32768
tile.param NUM_WARPS = 32

module {
  func.func @cross_entropy_f64(%loss: !tile.ptr<f64>, %x: !tile.ptr<f64>,
                           %target: !tile.ptr<i32>, %row_stride: i32,
                           %n_cols: i32)
      attributes {tile.kernel, tile.num_warps = ${NUM_WARPS} : i32} {
    %row = tile.program_id 0
    %cols = tile.range 0, ${BLOCK} : tensor<${BLOCK}xi32>
    %n = tile.splat %n_cols : tensor<${BLOCK}xi32>
    %mask = arith.cmpi slt, %cols, %n : tensor<${BLOCK}xi32>

    // The row; padding lanes read -inf (no weight in the sum).
    %start = arith.muli %row, %row_stride : i32
    %x_row = tile.addptr %x, %start : !tile.ptr<f64>, i32
    %x_rows = tile.splat %x_row : tensor<${BLOCK}x!tile.ptr<f64>>
    %x_ptrs = tile.addptr %x_rows, %cols : tensor<${BLOCK}x!tile.ptr<f64>>, tensor<${BLOCK}xi32>
    %neg_inf = arith.constant dense<0xFFF0000000000000> : tensor<${BLOCK}xf64>
    %v = tile.load %x_ptrs, %mask, %neg_inf : tensor<${BLOCK}x!tile.ptr<f64>>

    // log-sum-exp.
    %m = tile.reduce max %v axis = 0 : tensor<${BLOCK}xf64> -> f64
    %ms = tile.splat %m : tensor<${BLOCK}xf64>
    %shifted = arith.subf %v, %ms : tensor<${BLOCK}xf64>
    %e = math.exp %shifted : tensor<${BLOCK}xf64>
    %s = tile.reduce sum %e axis = 0 : tensor<${BLOCK}xf64> -> f64
    %log_s = math.log %s : f64
    %lse = arith.addf %m, %log_s : f64

    // The target's logit, picked out of the row.
    %t_ptr = tile.addptr %target, %row : !tile.ptr<i32>, i32
    %t = tile.load %t_ptr : !tile.ptr<i32>
    %ts = tile.splat %t : tensor<${BLOCK}xi32>
    %hit = arith.cmpi eq, %cols, %ts : tensor<${BLOCK}xi32>
    %zero = arith.constant dense<0.0> : tensor<${BLOCK}xf64>
    %picked = arith.select %hit, %v, %zero : tensor<${BLOCK}xi1>, tensor<${BLOCK}xf64>
    %x_t = tile.reduce sum %picked axis = 0 : tensor<${BLOCK}xf64> -> f64

    %l = arith.subf %lse, %x_t : f64
    %l_ptr = tile.addptr %loss, %row : !tile.ptr<f64>, i32
    tile.store %l_ptr, %l : !tile.ptr<f64>
    return
  }
}
