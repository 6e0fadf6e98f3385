// C = A @ B through block pointers, 32x64 tiles, a K loop of 32-wide steps,
// 3 pipeline stages requested (see test/tools/tile-run/pipeline-loops.mlir).
func.func @mm(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>,
              %M: i32, %N: i32, %K: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 3 : i32} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %one = arith.constant 1 : i64
  %M64 = arith.extsi %M : i32 to i64
  %N64 = arith.extsi %N : i32 to i64
  %K64 = arith.extsi %K : i32 to i64
  %pid = tile.program_id 0
  %row = arith.muli %pid, %c32 : i32
  %pa = tile.make_block_ptr %a, [%M64, %K64], [%K64, %one], [%row, %c0] order = [1, 0] : !tile.block_ptr<tensor<32x32xf16>>
  %pb = tile.make_block_ptr %b, [%K64, %N64], [%N64, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<32x64xf16>>
  %zero = arith.constant dense<0.0> : tensor<32x64xf32>
  %acc, %pa_end, %pb_end = scf.for %k = %c0 to %K step %c32
      iter_args(%sum = %zero, %pa_i = %pa, %pb_i = %pb)
      -> (tensor<32x64xf32>, !tile.block_ptr<tensor<32x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>) : i32 {
    %x = tile.block_load %pa_i check = [0, 1] : !tile.block_ptr<tensor<32x32xf16>>
    %y = tile.block_load %pb_i check = [0, 1] : !tile.block_ptr<tensor<32x64xf16>>
    %next = tile.dot %x, %y, %sum : tensor<32x32xf16>, tensor<32x64xf16> -> tensor<32x64xf32>
    %pa_n = tile.advance %pa_i, [%c0, %c32] : !tile.block_ptr<tensor<32x32xf16>>
    %pb_n = tile.advance %pb_i, [%c32, %c0] : !tile.block_ptr<tensor<32x64xf16>>
    scf.yield %next, %pa_n, %pb_n : tensor<32x64xf32>, !tile.block_ptr<tensor<32x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>
  }
  %pc = tile.make_block_ptr %c, [%M64, %N64], [%N64, %one], [%row, %c0] order = [1, 0] : !tile.block_ptr<tensor<32x64xf32>>
  tile.block_store %pc, %acc check = [0, 1] : !tile.block_ptr<tensor<32x64xf32>>
  return
}
