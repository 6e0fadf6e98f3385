// activations.mlir - hyperbolic and reciprocal-square-root activations:
// out[i] = tanh(x[i]) + rsqrt(1 + |x[i]|) + sinh(x[i] / 8) / cosh(x[i] / 8).
//
// Kernel:
//   @activations(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32)
//     %x    input, %n contiguous f32 elements
//     %out  output, %n contiguous f32 elements
//     %n    number of elements (n >= 0)
//
// Grid: (cdiv(n, 1024), 1, 1); program `pid` covers [pid*1024, pid*1024+1024),
// the tail masked with `offsets < n`. The GPU backend has no instruction for
// math.tanh, math.sinh, math.cosh or math.rsqrt: tile-expand-math rewrites
// them into exp, sqrt and arithmetic.

module {
  func.func @activations(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32)
      attributes {tile.kernel, tile.num_warps = 4 : i32} {
    %pid = tile.program_id 0
    %block = arith.constant 1024 : i32
    %block_start = arith.muli %pid, %block : i32
    %lanes = tile.range 0, 1024 : tensor<1024xi32>
    %block_starts = tile.splat %block_start : tensor<1024xi32>
    %offsets = arith.addi %block_starts, %lanes : tensor<1024xi32>
    %n_splat = tile.splat %n : tensor<1024xi32>
    %mask = arith.cmpi slt, %offsets, %n_splat : tensor<1024xi32>

    %x_base = tile.splat %x : tensor<1024x!tile.ptr<f32>>
    %x_ptrs = tile.addptr %x_base, %offsets : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
    %v = tile.load %x_ptrs, %mask : tensor<1024x!tile.ptr<f32>>

    %t = math.tanh %v : tensor<1024xf32>
    %a = math.absf %v : tensor<1024xf32>
    %one = arith.constant 1.0 : f32
    %ones = tile.splat %one : tensor<1024xf32>
    %a1 = arith.addf %a, %ones : tensor<1024xf32>
    %r = math.rsqrt %a1 : tensor<1024xf32>
    %eighth = arith.constant 0.125 : f32
    %eighths = tile.splat %eighth : tensor<1024xf32>
    %v8 = arith.mulf %v, %eighths : tensor<1024xf32>
    %sh = math.sinh %v8 : tensor<1024xf32>
    %ch = math.cosh %v8 : tensor<1024xf32>
    %q = arith.divf %sh, %ch : tensor<1024xf32>
    %s0 = arith.addf %t, %r : tensor<1024xf32>
    %s = arith.addf %s0, %q : tensor<1024xf32>

    %out_base = tile.splat %out : tensor<1024x!tile.ptr<f32>>
    %out_ptrs = tile.addptr %out_base, %offsets : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
    tile.store %out_ptrs, %s, %mask : tensor<1024x!tile.ptr<f32>>
    return
  }
}
