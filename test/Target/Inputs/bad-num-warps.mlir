// An invalid kernel attribute, caught by the verifier after parsing.
func.func @k(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 3 : i32} {
  return
}
