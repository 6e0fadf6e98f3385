func.func @unused_complex(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  %c = arith.constant dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>>
  return
}
