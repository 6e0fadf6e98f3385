// A softmax over f16 rows after tile-assign-layouts and
// tile-rematerialize (the recomputed exponentials behind
// tile.optimization_barrier) still computes the softmax: the interpreter
// runs the rewritten kernel against a float64 reference.
//
// REQUIRES: tile-run
//
// RUN: tile-opt %s -tile-assign-layouts -tile-rematerialize -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// IR-COUNT-2: tile.optimization_barrier
// RUN: %python %S/Inputs/run.py tile-run --mode=interp --quiet %t.mlir \
// RUN:     --grid 37 --arg y=f16[37x1000] --arg x=f16[37x1000]:randn \
// RUN:     --arg i32:1000 --arg i32:1000 --arg i32:1000 \
// RUN:     --check 'y=softmax(x)' \
// RUN:   | FileCheck %s
// CHECK:      $ tile-run
// CHECK-NEXT: check y = softmax(x): max rel error {{.*}}, tolerance 1.0e-02: PASS
// CHECK-NEXT: [exit 0]

func.func @softmax_f16(%y: !tile.ptr<f16>, %x: !tile.ptr<f16>, %x_stride: i32,
                       %y_stride: i32, %n_cols: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.rematerialize} {
  %row = tile.program_id 0
  %one = arith.constant 1.0 : f32
  %cols = tile.range 0, 1024 : tensor<1024xi32>
  %n = tile.splat %n_cols : tensor<1024xi32>
  %mask = arith.cmpi slt, %cols, %n : tensor<1024xi32>
  %x_off = arith.muli %row, %x_stride : i32
  %x_row = tile.addptr %x, %x_off : !tile.ptr<f16>, i32
  %x_rows = tile.splat %x_row : tensor<1024x!tile.ptr<f16>>
  %x_ptrs = tile.addptr %x_rows, %cols : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  %neg_inf = arith.constant dense<0xFC00> : tensor<1024xf16>
  %v = tile.load %x_ptrs, %mask, %neg_inf : tensor<1024x!tile.ptr<f16>>
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
  %y_off = arith.muli %row, %y_stride : i32
  %y_row = tile.addptr %y, %y_off : !tile.ptr<f16>, i32
  %y_rows = tile.splat %y_row : tensor<1024x!tile.ptr<f16>>
  %y_ptrs = tile.addptr %y_rows, %cols : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  tile.store %y_ptrs, %ph, %mask : tensor<1024x!tile.ptr<f16>>
  return
}
