// A constant tile the GPU backend cannot materialize.
func.func @k(%p: !tile.ptr<i32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %c = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi32>
  %base = tile.splat %p : tensor<4x!tile.ptr<i32>>
  %r = tile.range 0, 4 : tensor<4xi32>
  %ptrs = tile.addptr %base, %r : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  tile.store %ptrs, %c : tensor<4x!tile.ptr<i32>>
  return
}
