// matmul_f16_auto.mlir - the f16 matmul of matmul_f16.mlir written plainly:
// block loads in the K loop, and `tile.num_stages = 3` on the kernel. The
// compiler's tile-pipeline-loops pass turns the two loads into the same
// three-stage cp.async pipeline that matmul_f16.mlir spells out by hand
// (buffers, prologue, wait / copy ahead / local_load), so the two kernels
// should compile to the same kind of code.
//
// Kernel (same signature and grid as @matmul_f16):
//   @matmul_f16_auto(%a, %b, %c: !tile.ptr<f16>, %M, %N, %K: i32,
//                    %stride_am, %stride_ak, %stride_bk, %stride_bn,
//                    %stride_cm, %stride_cn: i64)
// C = A @ B, f32 accumulation, C rounded to f16. Any M, N, K >= 1 (loads
// pad with zero, the store is bounds-checked). Programs are laid out
// row-major over the 128 x 128 tiles of C (no grouping).
//
// Grid: (cdiv(M, 128) * cdiv(N, 128), 1, 1).

module {
  func.func @matmul_f16_auto(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>,
                             %c: !tile.ptr<f16>, %M: i32, %N: i32, %K: i32,
                             %stride_am: i64, %stride_ak: i64,
                             %stride_bk: i64, %stride_bn: i64,
                             %stride_cm: i64, %stride_cn: i64)
      attributes {tile.kernel, tile.num_warps = 8 : i32,
                  tile.num_stages = 3 : i32,
                  tile.min_programs_per_sm = 2 : i32} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %c127 = arith.constant 127 : i32
    %c128 = arith.constant 128 : i32
    %pid = tile.program_id 0
    %N_up = arith.addi %N, %c127 : i32
    %tiles_n = arith.divsi %N_up, %c128 : i32
    %pid_m = arith.divsi %pid, %tiles_n : i32
    %pid_n = arith.remsi %pid, %tiles_n : i32
    %row = arith.muli %pid_m, %c128 : i32
    %col = arith.muli %pid_n, %c128 : i32
    %M64 = arith.extsi %M : i32 to i64
    %N64 = arith.extsi %N : i32 to i64
    %K64 = arith.extsi %K : i32 to i64
    %pa = tile.make_block_ptr %a, [%M64, %K64], [%stride_am, %stride_ak],
        [%row, %c0] order = [1, 0] : !tile.block_ptr<tensor<128x32xf16>>
    %pb = tile.make_block_ptr %b, [%K64, %N64], [%stride_bk, %stride_bn],
        [%c0, %col] order = [1, 0] : !tile.block_ptr<tensor<32x128xf16>>
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %acc, %pa_end, %pb_end = scf.for %k = %c0 to %K step %c32
        iter_args(%sum = %zero, %pa_k = %pa, %pb_k = %pb)
        -> (tensor<128x128xf32>, !tile.block_ptr<tensor<128x32xf16>>,
            !tile.block_ptr<tensor<32x128xf16>>) : i32 {
      %x = tile.block_load %pa_k check = [0, 1]
          : !tile.block_ptr<tensor<128x32xf16>>
      %y = tile.block_load %pb_k check = [0, 1]
          : !tile.block_ptr<tensor<32x128xf16>>
      %next = tile.dot %x, %y, %sum
          : tensor<128x32xf16>, tensor<32x128xf16> -> tensor<128x128xf32>
      %pa_next = tile.advance %pa_k, [%c0, %c32]
          : !tile.block_ptr<tensor<128x32xf16>>
      %pb_next = tile.advance %pb_k, [%c32, %c0]
          : !tile.block_ptr<tensor<32x128xf16>>
      scf.yield %next, %pa_next, %pb_next
          : tensor<128x128xf32>, !tile.block_ptr<tensor<128x32xf16>>,
            !tile.block_ptr<tensor<32x128xf16>>
    }
    %pc = tile.make_block_ptr %c, [%M64, %N64], [%stride_cm, %stride_cn],
        [%row, %col] order = [1, 0] : !tile.block_ptr<tensor<128x128xf16>>
    %half = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
    tile.block_store %pc, %half check = [0, 1]
        : !tile.block_ptr<tensor<128x128xf16>>
    return
  }
}
