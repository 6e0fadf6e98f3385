// A softmax over one f16 row marked tile.rematerialize, down to PTX: the
// halves are what each thread holds across both reductions; the
// exponentials are computed twice (for the sum, then for the output) from
// two register moves of the loaded halves, which neither MLIR's CSE nor
// LLVM merged. 1024 columns over 4 warps: 8 halves per thread. ptxas
// accepts the result.
//
// RUN: tile-compile %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: FileCheck %s --check-prefix=COUNT < %t.ptx
// RUN: %if ptxas %{ tile-compile %s --format=bin -o %t.cubin %}
//
// CHECK:       .entry softmax_f16_row(
// CHECK:       ld.global.v4
// CHECK:       bar.sync 0;
// CHECK:       mov.b16
// CHECK:       ex2.approx.ftz.f32
// CHECK:       bar.sync 0;
// CHECK:       mov.b16
// CHECK:       ex2.approx.ftz.f32
// CHECK:       st.global.v2.b32
//
// COUNT-COUNT-16: ex2.approx.ftz.f32
// COUNT-NOT:      ex2.approx
// COUNT-NOT:      .local
func.func @softmax_f16_row(%y: !tile.ptr<f16> {tile.divisibility = 8 : i64},
                           %x: !tile.ptr<f16> {tile.divisibility = 8 : i64})
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.rematerialize} {
  %one = arith.constant 1.0 : f32
  %cols = tile.range 0, 1024 : tensor<1024xi32>
  %xs = tile.splat %x : tensor<1024x!tile.ptr<f16>>
  %xp = tile.addptr %xs, %cols : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  %v = tile.load %xp : tensor<1024x!tile.ptr<f16>>
  %vf = arith.extf %v : tensor<1024xf16> to tensor<1024xf32>
  %m = tile.reduce max %vf axis = 0 : tensor<1024xf32> -> f32
  %ms = tile.splat %m : tensor<1024xf32>
  %d = arith.subf %vf, %ms : tensor<1024xf32>
  %e = math.exp %d fastmath<afn> : tensor<1024xf32>
  %s = tile.reduce sum %e axis = 0 : tensor<1024xf32> -> f32
  %inv = arith.divf %one, %s : f32
  %is = tile.splat %inv : tensor<1024xf32>
  %p = arith.mulf %e, %is : tensor<1024xf32>
  %ph = arith.truncf %p : tensor<1024xf32> to tensor<1024xf16>
  %ys = tile.splat %y : tensor<1024x!tile.ptr<f16>>
  %yp = tile.addptr %ys, %cols : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  tile.store %yp, %ph : tensor<1024x!tile.ptr<f16>>
  return
}
