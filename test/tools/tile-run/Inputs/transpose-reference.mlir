// The reference of examples/transpose.mlir for tile-run --reference, in
// f64. It runs over the kernel's grid; program (0, 0) copies every row i of
// `in` into column i of `out`, one element per lane (rows of up to 4096
// columns), and the other programs do nothing.

func.func @transpose_f64(%out: !tile.ptr<f64>, %in: !tile.ptr<f64>, %M: i32,
                         %N: i32, %in_stride: i32, %out_stride: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %p0 = tile.program_id 0
  %p1 = tile.program_id 1
  %p = arith.addi %p0, %p1 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %first = arith.cmpi eq, %p, %c0 : i32
  scf.if %first {
  scf.for %i = %c0 to %M step %c1 : i32 {
    %j = tile.range 0, 4096 : tensor<4096xi32>
    %Ns = tile.splat %N : tensor<4096xi32>
    %mask = arith.cmpi slt, %j, %Ns : tensor<4096xi32>
    %start = arith.muli %i, %in_stride : i32
    %row = tile.addptr %in, %start : !tile.ptr<f64>, i32
    %rows = tile.splat %row : tensor<4096x!tile.ptr<f64>>
    %src = tile.addptr %rows, %j : tensor<4096x!tile.ptr<f64>>, tensor<4096xi32>
    %v = tile.load %src, %mask : tensor<4096x!tile.ptr<f64>>
    %strides = tile.splat %out_stride : tensor<4096xi32>
    %dst_rows = arith.muli %j, %strides : tensor<4096xi32>
    %is = tile.splat %i : tensor<4096xi32>
    %dst_offsets = arith.addi %dst_rows, %is : tensor<4096xi32>
    %outs = tile.splat %out : tensor<4096x!tile.ptr<f64>>
    %dst = tile.addptr %outs, %dst_offsets : tensor<4096x!tile.ptr<f64>>, tensor<4096xi32>
    tile.store %dst, %v, %mask : tensor<4096x!tile.ptr<f64>>
  }
  }
  return
}
