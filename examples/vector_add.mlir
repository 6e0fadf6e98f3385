// vector_add.mlir - element-wise sum of two f32 vectors: out[i] = x[i] + y[i].
//
// Mirrors Triton's vector-add tutorial (the `_add` kernel):
// each program instance handles BLOCK consecutive elements.
//
// Kernel:
//   @vector_add(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %out: !tile.ptr<f32>,
//               %n: i32)
//     %x, %y  inputs, %n contiguous f32 elements each
//     %out    output, %n contiguous f32 elements
//     %n      number of elements (n >= 0)
//
// Parameters (--param NAME=VALUE): BLOCK, a power of two (default 1024), and
// NUM_WARPS (default 4).
//
// Grid: (cdiv(n, BLOCK), 1, 1); program `pid` covers
// [pid*BLOCK, pid*BLOCK+BLOCK). The tail block is masked with `offsets < n`,
// so n need not be a multiple of BLOCK. Unlike the tutorial, the store is
// masked too (its unmasked `tl.store(Z + offsets, z)` writes past the end of
// z for the last block). Offsets are i32, so n must be < 2^31.

tile.param BLOCK = 1024
tile.param NUM_WARPS = 4

module {
  func.func @vector_add(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>,
                        %out: !tile.ptr<f32>, %n: i32)
      attributes {tile.kernel, tile.num_warps = ${NUM_WARPS} : i32} {
    // offsets = pid * BLOCK + arange(0, BLOCK)
    %pid = tile.program_id 0
    %block = arith.constant ${BLOCK} : i32
    %block_start = arith.muli %pid, %block : i32
    %lanes = tile.range 0, ${BLOCK} : tensor<${BLOCK}xi32>
    %block_starts = tile.splat %block_start : tensor<${BLOCK}xi32>
    %offsets = arith.addi %block_starts, %lanes : tensor<${BLOCK}xi32>

    // mask = offsets < n guards the tail block.
    %n_splat = tile.splat %n : tensor<${BLOCK}xi32>
    %mask = arith.cmpi slt, %offsets, %n_splat : tensor<${BLOCK}xi32>

    // x_ptrs = x + offsets, y_ptrs = y + offsets
    %x_base = tile.splat %x : tensor<${BLOCK}x!tile.ptr<f32>>
    %x_ptrs = tile.addptr %x_base, %offsets : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
    %y_base = tile.splat %y : tensor<${BLOCK}x!tile.ptr<f32>>
    %y_ptrs = tile.addptr %y_base, %offsets : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>

    // Masked-off lanes read 0 and are never stored.
    %x_vals = tile.load %x_ptrs, %mask : tensor<${BLOCK}x!tile.ptr<f32>>
    %y_vals = tile.load %y_ptrs, %mask : tensor<${BLOCK}x!tile.ptr<f32>>
    %sum = arith.addf %x_vals, %y_vals : tensor<${BLOCK}xf32>

    %out_base = tile.splat %out : tensor<${BLOCK}x!tile.ptr<f32>>
    %out_ptrs = tile.addptr %out_base, %offsets : tensor<${BLOCK}x!tile.ptr<f32>>, tensor<${BLOCK}xi32>
    tile.store %out_ptrs, %sum, %mask : tensor<${BLOCK}x!tile.ptr<f32>>
    return
  }
}
