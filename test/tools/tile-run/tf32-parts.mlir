// tile.tf32_parts in the interpreter: each program writes hi + lo + y for
// its 1024 elements of x; hi + lo is x to within 2^-22, so the check
// against x + y passes at f32's tolerance (hi alone is 2^-12 off).
//
// REQUIRES: tile-run
//
// RUN: %python %S/Inputs/run.py tile-run --mode=interp --quiet %s --grid 3 \
// RUN:     --arg x=f32[2500]:randn --arg y=f32[2500] --arg out=f32[2500] \
// RUN:     --arg n=i32:2500 --check 'out=add(x,y)' \
// RUN:   | FileCheck %s
// CHECK:      $ tile-run
// CHECK-NEXT: check out = add(x, y): max rel error {{.*}}, tolerance 1.0e-05: PASS
// CHECK-NEXT: [exit 0]

func.func @split_sum(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>,
                     %out: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pid = tile.program_id 0
  %c1024 = arith.constant 1024 : i32
  %start = arith.muli %pid, %c1024 : i32
  %base = tile.splat %start : tensor<1024xi32>
  %range = tile.range 0, 1024 : tensor<1024xi32>
  %offs = arith.addi %base, %range : tensor<1024xi32>
  %ns = tile.splat %n : tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  %zero = arith.constant dense<0.0> : tensor<1024xf32>
  %xs = tile.splat %x : tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %xv = tile.load %xp, %mask, %zero : tensor<1024x!tile.ptr<f32>>
  %ys = tile.splat %y : tensor<1024x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %yv = tile.load %yp, %mask, %zero : tensor<1024x!tile.ptr<f32>>
  %hi, %lo = tile.tf32_parts %xv : tensor<1024xf32>
  %sum = arith.addf %hi, %lo : tensor<1024xf32>
  %r = arith.addf %sum, %yv : tensor<1024xf32>
  %os = tile.splat %out : tensor<1024x!tile.ptr<f32>>
  %op = tile.addptr %os, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %op, %r, %mask : tensor<1024x!tile.ptr<f32>>
  return
}
