module {
  func.func @nested(%p: !tile.ptr<f32>) attributes {tile.kernel} {
    return
  }
}
%0 = arith.constant 1.0 : f32
