// Malformed IR: a missing comma.
func.func @k(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = tile.range 0 128 : tensor<128xi32>
  return
}
