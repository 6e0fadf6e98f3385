// transpose.mlir - out = in^T for an M x N f32 matrix, in BLOCK_M x BLOCK_N
// tiles: each program loads a tile of `in` along its rows (coalesced),
// transposes it in registers (tile.trans, through shared memory on the
// GPU) and stores it along the rows of `out` (coalesced too).
//
// Kernel:
//   @transpose(%out, %in: !tile.ptr<f32>, %M, %N: i32, %in_stride: i32,
//              %out_stride: i32)
//     %in   M x N, rows %in_stride elements apart
//     %out  N x M, rows %out_stride elements apart
//
// Parameters (--param NAME=VALUE): BLOCK_M, BLOCK_N (powers of two, default
// 64 x 64), NUM_WARPS (default 4).
//
// Grid: (cdiv(M, BLOCK_M), cdiv(N, BLOCK_N), 1).

tile.param BLOCK_M = 64
tile.param BLOCK_N = 64
tile.param NUM_WARPS = 4

module {
  func.func @transpose(%out: !tile.ptr<f32>, %in: !tile.ptr<f32>, %M: i32,
                       %N: i32, %in_stride: i32, %out_stride: i32)
      attributes {tile.kernel, tile.num_warps = ${NUM_WARPS} : i32} {
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %bm = arith.constant ${BLOCK_M} : i32
    %bn = arith.constant ${BLOCK_N} : i32
    %row0 = arith.muli %pm, %bm : i32
    %col0 = arith.muli %pn, %bn : i32

    // Rows and columns of `in` this program covers.
    %ri = tile.range 0, ${BLOCK_M} : tensor<${BLOCK_M}xi32>
    %ci = tile.range 0, ${BLOCK_N} : tensor<${BLOCK_N}xi32>
    %row0s = tile.splat %row0 : tensor<${BLOCK_M}xi32>
    %col0s = tile.splat %col0 : tensor<${BLOCK_N}xi32>
    %rows = arith.addi %row0s, %ri : tensor<${BLOCK_M}xi32>
    %cols = arith.addi %col0s, %ci : tensor<${BLOCK_N}xi32>

    // in[rows, cols], masked to M x N.
    %r2 = tile.expand_dims %rows axis = 1 : tensor<${BLOCK_M}xi32> -> tensor<${BLOCK_M}x1xi32>
    %c2 = tile.expand_dims %cols axis = 0 : tensor<${BLOCK_N}xi32> -> tensor<1x${BLOCK_N}xi32>
    %rb = tile.broadcast %r2 : tensor<${BLOCK_M}x1xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %cb = tile.broadcast %c2 : tensor<1x${BLOCK_N}xi32> -> tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %in_strides = tile.splat %in_stride : tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %in_rows = arith.muli %rb, %in_strides : tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %in_offsets = arith.addi %in_rows, %cb : tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %Ms = tile.splat %M : tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %Ns = tile.splat %N : tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %row_ok = arith.cmpi slt, %rb, %Ms : tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %col_ok = arith.cmpi slt, %cb, %Ns : tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %mask = arith.andi %row_ok, %col_ok : tensor<${BLOCK_M}x${BLOCK_N}xi1>
    %in_base = tile.splat %in : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<f32>>
    %in_ptrs = tile.addptr %in_base, %in_offsets : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<f32>>, tensor<${BLOCK_M}x${BLOCK_N}xi32>
    %tile = tile.load %in_ptrs, %mask : tensor<${BLOCK_M}x${BLOCK_N}x!tile.ptr<f32>>

    // out[cols, rows] = tile^T, masked to N x M.
    %t = tile.trans %tile order = [1, 0] : tensor<${BLOCK_M}x${BLOCK_N}xf32> -> tensor<${BLOCK_N}x${BLOCK_M}xf32>
    %c2t = tile.expand_dims %cols axis = 1 : tensor<${BLOCK_N}xi32> -> tensor<${BLOCK_N}x1xi32>
    %r2t = tile.expand_dims %rows axis = 0 : tensor<${BLOCK_M}xi32> -> tensor<1x${BLOCK_M}xi32>
    %cbt = tile.broadcast %c2t : tensor<${BLOCK_N}x1xi32> -> tensor<${BLOCK_N}x${BLOCK_M}xi32>
    %rbt = tile.broadcast %r2t : tensor<1x${BLOCK_M}xi32> -> tensor<${BLOCK_N}x${BLOCK_M}xi32>
    %out_strides = tile.splat %out_stride : tensor<${BLOCK_N}x${BLOCK_M}xi32>
    %out_rows = arith.muli %cbt, %out_strides : tensor<${BLOCK_N}x${BLOCK_M}xi32>
    %out_offsets = arith.addi %out_rows, %rbt : tensor<${BLOCK_N}x${BLOCK_M}xi32>
    %Mt = tile.splat %M : tensor<${BLOCK_N}x${BLOCK_M}xi32>
    %Nt = tile.splat %N : tensor<${BLOCK_N}x${BLOCK_M}xi32>
    %col_ok_t = arith.cmpi slt, %cbt, %Nt : tensor<${BLOCK_N}x${BLOCK_M}xi32>
    %row_ok_t = arith.cmpi slt, %rbt, %Mt : tensor<${BLOCK_N}x${BLOCK_M}xi32>
    %mask_t = arith.andi %col_ok_t, %row_ok_t : tensor<${BLOCK_N}x${BLOCK_M}xi1>
    %out_base = tile.splat %out : tensor<${BLOCK_N}x${BLOCK_M}x!tile.ptr<f32>>
    %out_ptrs = tile.addptr %out_base, %out_offsets : tensor<${BLOCK_N}x${BLOCK_M}x!tile.ptr<f32>>, tensor<${BLOCK_N}x${BLOCK_M}xi32>
    tile.store %out_ptrs, %t, %mask_t : tensor<${BLOCK_N}x${BLOCK_M}x!tile.ptr<f32>>
    return
  }
}
