// matmul_f16.mlir - C = A @ B for f16 matrices on tensor cores, with a
// software-pipelined K loop, and the same kernel with a fused leaky-ReLU
// epilogue (the fp16 matmul of Triton's matmul tutorial with
// ACTIVATION = "leaky_relu").
//
// Each program computes one 128 x 128 tile of C with 8 warps (each warp 16
// rows x 128 columns: mma.sync m16n8k16 with f32 accumulation), marching
// along K in steps of 32. The A and B blocks of step j are copied into
// stage j % 3 of two shared buffers two steps ahead with cp.async
// (tile.async_copy); A is read from its stage into registers in the
// accumulator's layout, B's fragments come from the stage with ldmatrix.
// Programs are ordered in groups of 8 block-rows for L2 reuse, as in
// matmul.mlir. Two programs per SM are requested (registers capped at 128
// per thread, a few bytes spilled): 16 warps hide more latency than 8.
//
// Kernels (same signature):
//   @matmul_f16(%a, %b, %c: !tile.ptr<f16>, %M, %N, %K: i32,
//               %stride_am, %stride_ak, %stride_bk, %stride_bn,
//               %stride_cm, %stride_cn: i64)
//   @matmul_f16_leaky_relu(...same...)  C = leaky_relu(A @ B),
//                                        leaky_relu(x) = x > 0 ? x : 0.01 * x
// The epilogue runs on the f32 accumulator, then C is rounded to f16.
// Strides are in elements. Any M, N, K >= 1: copies zero-fill outside A
// and B (so partial K steps add nothing) and the store is bounds-checked.
// cp.async needs rows with stride 1 and 16-byte aligned blocks; other
// layouts take a slower synchronous copy.
//
// Grid: (cdiv(M, 128) * cdiv(N, 128), 1, 1).

module {
  func.func @matmul_f16(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>,
                        %c: !tile.ptr<f16>, %M: i32, %N: i32, %K: i32,
                        %stride_am: i64, %stride_ak: i64,
                        %stride_bk: i64, %stride_bn: i64,
                        %stride_cm: i64, %stride_cn: i64)
      attributes {tile.kernel, tile.num_warps = 8 : i32,
                  tile.min_programs_per_sm = 2 : i32} {
    %acc = func.call @matmul_f16_tile(%a, %b, %M, %N, %K, %stride_am,
                                      %stride_ak, %stride_bk, %stride_bn)
        : (!tile.ptr<f16>, !tile.ptr<f16>, i32, i32, i32, i64, i64, i64, i64)
        -> tensor<128x128xf32>
    func.call @store_c(%c, %acc, %M, %N, %stride_cm, %stride_cn)
        : (!tile.ptr<f16>, tensor<128x128xf32>, i32, i32, i64, i64) -> ()
    return
  }

  func.func @matmul_f16_leaky_relu(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>,
                                   %c: !tile.ptr<f16>, %M: i32, %N: i32,
                                   %K: i32, %stride_am: i64, %stride_ak: i64,
                                   %stride_bk: i64, %stride_bn: i64,
                                   %stride_cm: i64, %stride_cn: i64)
      attributes {tile.kernel, tile.num_warps = 8 : i32,
                  tile.min_programs_per_sm = 2 : i32} {
    %acc = func.call @matmul_f16_tile(%a, %b, %M, %N, %K, %stride_am,
                                      %stride_ak, %stride_bk, %stride_bn)
        : (!tile.ptr<f16>, !tile.ptr<f16>, i32, i32, i32, i64, i64, i64, i64)
        -> tensor<128x128xf32>
    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %slope = arith.constant dense<0.01> : tensor<128x128xf32>
    %positive = arith.cmpf ogt, %acc, %zero : tensor<128x128xf32>
    %scaled = arith.mulf %acc, %slope : tensor<128x128xf32>
    %act = arith.select %positive, %acc, %scaled
        : tensor<128x128xi1>, tensor<128x128xf32>
    func.call @store_c(%c, %act, %M, %N, %stride_cm, %stride_cn)
        : (!tile.ptr<f16>, tensor<128x128xf32>, i32, i32, i64, i64) -> ()
    return
  }

  // The grouped program order: pid -> (first row, first column) of C.
  func.func private @tile_origin(%M: i32, %N: i32) -> (i32, i32) {
    %c1 = arith.constant 1 : i32
    %block = arith.constant 128 : i32
    %group_size = arith.constant 8 : i32
    %pid = tile.program_id 0
    %block_minus_1 = arith.subi %block, %c1 : i32
    %M_up = arith.addi %M, %block_minus_1 : i32
    %N_up = arith.addi %N, %block_minus_1 : i32
    %num_pid_m = arith.divsi %M_up, %block : i32
    %num_pid_n = arith.divsi %N_up, %block : i32
    %num_pid_in_group = arith.muli %group_size, %num_pid_n : i32
    %group_id = arith.divsi %pid, %num_pid_in_group : i32
    %first_pid_m = arith.muli %group_id, %group_size : i32
    %rows_left = arith.subi %num_pid_m, %first_pid_m : i32
    %group_size_m = arith.minsi %rows_left, %group_size : i32
    %pid_in_group = arith.remsi %pid, %num_pid_in_group : i32
    %pid_m_in_group = arith.remsi %pid_in_group, %group_size_m : i32
    %pid_m = arith.addi %first_pid_m, %pid_m_in_group : i32
    %pid_n = arith.divsi %pid_in_group, %group_size_m : i32
    %row = arith.muli %pid_m, %block : i32
    %col = arith.muli %pid_n, %block : i32
    return %row, %col : i32, i32
  }

  // A @ B for this program's 128 x 128 tile of C, in f32.
  func.func private @matmul_f16_tile(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>,
                                     %M: i32, %N: i32, %K: i32,
                                     %stride_am: i64, %stride_ak: i64,
                                     %stride_bk: i64, %stride_bn: i64)
      -> tensor<128x128xf32> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c32 = arith.constant 32 : i32
    %row, %col = func.call @tile_origin(%M, %N) : (i32, i32) -> (i32, i32)
    %M64 = arith.extsi %M : i32 to i64
    %N64 = arith.extsi %N : i32 to i64
    %K64 = arith.extsi %K : i32 to i64
    %pa = tile.make_block_ptr %a, [%M64, %K64], [%stride_am, %stride_ak],
        [%row, %c0] order = [1, 0] : !tile.block_ptr<tensor<128x32xf16>>
    %pb = tile.make_block_ptr %b, [%K64, %N64], [%stride_bk, %stride_bn],
        [%c0, %col] order = [1, 0] : !tile.block_ptr<tensor<32x128xf16>>
    // Rows padded by 16 bytes: A's reads (4 bytes at rows g, columns 2t)
    // and B's ldmatrix rows then fall in distinct banks.
    %bufa = tile.alloc_shared
        : !tile.shared<tensor<128x32xf16>, stages = 3, pad = 8>
    %bufb = tile.alloc_shared
        : !tile.shared<tensor<32x128xf16>, stages = 3, pad = 8>

    // Prologue: steps 0 and 1 in flight.
    tile.async_copy %pa, %bufa[%c0]
        : !tile.block_ptr<tensor<128x32xf16>>,
          !tile.shared<tensor<128x32xf16>, stages = 3, pad = 8>
    tile.async_copy %pb, %bufb[%c0]
        : !tile.block_ptr<tensor<32x128xf16>>,
          !tile.shared<tensor<32x128xf16>, stages = 3, pad = 8>
    tile.async_commit
    %pa1 = tile.advance %pa, [%c0, %c32] : !tile.block_ptr<tensor<128x32xf16>>
    %pb1 = tile.advance %pb, [%c32, %c0] : !tile.block_ptr<tensor<32x128xf16>>
    tile.async_copy %pa1, %bufa[%c1]
        : !tile.block_ptr<tensor<128x32xf16>>,
          !tile.shared<tensor<128x32xf16>, stages = 3, pad = 8>
    tile.async_copy %pb1, %bufb[%c1]
        : !tile.block_ptr<tensor<32x128xf16>>,
          !tile.shared<tensor<32x128xf16>, stages = 3, pad = 8>
    tile.async_commit
    %pa2 = tile.advance %pa1, [%c0, %c32] : !tile.block_ptr<tensor<128x32xf16>>
    %pb2 = tile.advance %pb1, [%c32, %c0] : !tile.block_ptr<tensor<32x128xf16>>

    %zero = arith.constant dense<0.0> : tensor<128x128xf32>
    %acc, %pa_end, %pb_end = scf.for %k = %c0 to %K step %c32
        iter_args(%sum = %zero, %pa_next = %pa2, %pb_next = %pb2)
        -> (tensor<128x128xf32>, !tile.block_ptr<tensor<128x32xf16>>,
            !tile.block_ptr<tensor<32x128xf16>>) : i32 {
      // Step j's blocks have landed when at most one newer group is in
      // flight; the wait's barrier also ends step j - 1's reads of the
      // stage the next copy overwrites.
      tile.async_wait pending = 1
      %step = arith.divui %k, %c32 : i32
      %stage = arith.remui %step, %c3 : i32
      %step2 = arith.addi %step, %c2 : i32
      %ahead = arith.remui %step2, %c3 : i32
      tile.async_copy %pa_next, %bufa[%ahead]
          : !tile.block_ptr<tensor<128x32xf16>>,
            !tile.shared<tensor<128x32xf16>, stages = 3, pad = 8>
      tile.async_copy %pb_next, %bufb[%ahead]
          : !tile.block_ptr<tensor<32x128xf16>>,
            !tile.shared<tensor<32x128xf16>, stages = 3, pad = 8>
      tile.async_commit
      %x = tile.local_load %bufa[%stage]
          : !tile.shared<tensor<128x32xf16>, stages = 3, pad = 8>
          -> tensor<128x32xf16>
      %y = tile.local_load %bufb[%stage]
          : !tile.shared<tensor<32x128xf16>, stages = 3, pad = 8>
          -> tensor<32x128xf16>
      %next = tile.dot %x, %y, %sum
          : tensor<128x32xf16>, tensor<32x128xf16> -> tensor<128x128xf32>
      %pa_after = tile.advance %pa_next, [%c0, %c32]
          : !tile.block_ptr<tensor<128x32xf16>>
      %pb_after = tile.advance %pb_next, [%c32, %c0]
          : !tile.block_ptr<tensor<32x128xf16>>
      scf.yield %next, %pa_after, %pb_after
          : tensor<128x128xf32>, !tile.block_ptr<tensor<128x32xf16>>,
            !tile.block_ptr<tensor<32x128xf16>>
    }
    return %acc : tensor<128x128xf32>
  }

  // C[tile] = f16(acc), inside M x N only.
  func.func private @store_c(%c: !tile.ptr<f16>, %acc: tensor<128x128xf32>,
                             %M: i32, %N: i32, %stride_cm: i64,
                             %stride_cn: i64) {
    %row, %col = func.call @tile_origin(%M, %N) : (i32, i32) -> (i32, i32)
    %M64 = arith.extsi %M : i32 to i64
    %N64 = arith.extsi %N : i32 to i64
    %pc = tile.make_block_ptr %c, [%M64, %N64], [%stride_cm, %stride_cn],
        [%row, %col] order = [1, 0] : !tile.block_ptr<tensor<128x128xf16>>
    %half = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
    tile.block_store %pc, %half check = [0, 1]
        : !tile.block_ptr<tensor<128x128xf16>>
    return
  }
}
