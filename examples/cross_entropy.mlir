// cross_entropy.mlir - the cross-entropy loss of each row of logits against
// its target class, one row per program:
//
//   loss[r] = log(sum_c exp(x[r, c])) - x[r, target[r]]
//
// computed stably as max + log(sum exp(x - max)), as
// torch.nn.functional.cross_entropy(x, target, reduction="none") does.
//
// Kernel:
//   @cross_entropy(%loss: !tile.ptr<f32>, %x: !tile.ptr<f32>,
//                  %target: !tile.ptr<i32>, %row_stride: i32, %n_cols: i32)
//     %loss    n_rows losses
//     %x       n_rows x n_cols logits, rows %row_stride elements apart
//     %target  n_rows class indices in [0, n_cols)
//
// Parameters (--param NAME=VALUE): BLOCK, a power of two >= n_cols (default
// 1024), and NUM_WARPS (default 4).
//
// Grid: (n_rows, 1, 1).

tile.param BLOCK = 1024
tile.param NUM_WARPS = 4

module {
  func.func @cross_entropy(%loss: !tile.ptr<f32>, %x: !tile.ptr<f32>,
                           %target: !tile.ptr<i32>, %row_stride: i32,
                           %n_cols: i32)
      attributes {tile.kernel, tile.num_warps = ${NUM_WARPS} : i32} {
    %row = tile.program_id 0
    %cols = tile.range 0, ${BLOCK} : tensor<${BLOCK}xi32>
    %n = tile.splat %n_cols : tensor<${BLOCK}xi32>
    %mask = arith.cmpi slt, %cols, %n : tensor<${BLOCK}xi32>

    // The row; padding lanes read -inf (no weight in the sum).
    %start = arith.muli %row, %row_stride : i32
    %x_row = tile.addptr %x, %start : !tile.ptr<f32>, i32
    %x_rows = tile.splat %x_row : tensor<${BLOCK}x!tile.ptr<f32>>
    %x_ptrs = tile.addptr %x_rows, %cols : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
    %neg_inf = arith.constant dense<0xFF800000> : tensor<${BLOCK}xf32>
    %v = tile.load %x_ptrs, %mask, %neg_inf : tensor<${BLOCK}x!tile.ptr<f32>>

    // log-sum-exp.
    %m = tile.reduce max %v axis = 0 : tensor<${BLOCK}xf32> -> f32
    %ms = tile.splat %m : tensor<${BLOCK}xf32>
    %shifted = arith.subf %v, %ms : tensor<${BLOCK}xf32>
    %e = math.exp %shifted : tensor<${BLOCK}xf32>
    %s = tile.reduce sum %e axis = 0 : tensor<${BLOCK}xf32> -> f32
    %log_s = math.log %s : f32
    %lse = arith.addf %m, %log_s : f32

    // The target's logit, picked out of the row.
    %t_ptr = tile.addptr %target, %row : !tile.ptr<i32>, i32
    %t = tile.load %t_ptr : !tile.ptr<i32>
    %ts = tile.splat %t : tensor<${BLOCK}xi32>
    %hit = arith.cmpi eq, %cols, %ts : tensor<${BLOCK}xi32>
    %zero = arith.constant dense<0.0> : tensor<${BLOCK}xf32>
    %picked = arith.select %hit, %v, %zero : tensor<${BLOCK}xi1>, tensor<${BLOCK}xf32>
    %x_t = tile.reduce sum %picked axis = 0 : tensor<${BLOCK}xf32> -> f32

    %l = arith.subf %lse, %x_t : f32
    %l_ptr = tile.addptr %loss, %row : !tile.ptr<f32>, i32
    tile.store %l_ptr, %l : !tile.ptr<f32>
    return
  }
}
