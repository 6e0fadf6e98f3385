// The float64 reference of user-reference.mlir's @gelu: the same formula
// with f64 pointers, so the interpreter computes and stores it in float64.
func.func @gelu_f64(%y: !tile.ptr<f64>, %x: !tile.ptr<f64>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %offs = tile.range 0, 64 : tensor<64xi32>
  %ns = tile.splat %n : tensor<64xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<64xi32>
  %xb = tile.splat %x : tensor<64x!tile.ptr<f64>>
  %xp = tile.addptr %xb, %offs : tensor<64x!tile.ptr<f64>>, tensor<64xi32>
  %v = tile.load %xp, %mask : tensor<64x!tile.ptr<f64>>
  %c = arith.constant 0.7071067811865476 : f64
  %cs = tile.splat %c : tensor<64xf64>
  %s = arith.mulf %v, %cs : tensor<64xf64>
  %e = math.erf %s : tensor<64xf64>
  %one = arith.constant 1.0 : f64
  %ones = tile.splat %one : tensor<64xf64>
  %e1 = arith.addf %e, %ones : tensor<64xf64>
  %half = arith.constant 0.5 : f64
  %halves = tile.splat %half : tensor<64xf64>
  %hx = arith.mulf %v, %halves : tensor<64xf64>
  %g = arith.mulf %hx, %e1 : tensor<64xf64>
  %yb = tile.splat %y : tensor<64x!tile.ptr<f64>>
  %yp = tile.addptr %yb, %offs : tensor<64x!tile.ptr<f64>>, tensor<64xi32>
  tile.store %yp, %g, %mask : tensor<64x!tile.ptr<f64>>
  return
}

// Takes one argument fewer than @gelu.
func.func @too_few(%y: !tile.ptr<f64>, %x: !tile.ptr<f64>)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  return
}
