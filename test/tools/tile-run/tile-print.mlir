// tile.print in the interpreter: one line per op and program,
// `[pid (x, y, z)] PREFIX VALUES`, programs one after another with axis 0
// fastest; tiles in brackets (row-major, 2-d tiles flattened), the first 64
// elements of tiles longer than 72; floats with 7 significant digits,
// integers exactly, pointers as &BUFFER+BYTE_OFFSET. tile.print writes to
// stdout even with --quiet.
//
// REQUIRES: tile-run
//
// RUN: %python %S/Inputs/run.py tile-run --mode=interp %s --quiet --grid 2,2 \
// RUN:     --arg 'out=i32[64]:zeros' --arg s=f32:0.1 --arg n=i32:-2147483648 \
// RUN:   | FileCheck %s --match-full-lines
//
// CHECK:      $ tile-run
// CHECK-NEXT: [pid (0, 0, 0)] scalars 0 0 0.1 -2147483648
// CHECK-NEXT: [pid (0, 0, 0)] range [0, 1, 2, 3, 4, 5, 6, 7]
// CHECK-NEXT: [pid (0, 0, 0)] 64 [{{([0-9]+, ){63}63}}]
// CHECK-NEXT: [pid (0, 0, 0)] 128 [{{([0-9]+, ){63}63}}, ... (64 more)]
// CHECK-NEXT: [pid (0, 0, 0)] ptrs [&out+0, &out+4, &out+8, &out+12]
// CHECK-NEXT: [pid (0, 0, 0)] 2d [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]
// CHECK-NEXT: [pid (0, 0, 0)] third 0.3333333
// CHECK-NEXT: [pid (0, 0, 0)] bare
// CHECK-NEXT: [pid (1, 0, 0)] scalars 1 0 0.1 -2147483648
// CHECK:      [pid (1, 0, 0)] bare
// CHECK-NEXT: [pid (0, 1, 0)] scalars 0 1 0.1 -2147483648
// CHECK:      [pid (0, 1, 0)] bare
// CHECK-NEXT: [pid (1, 1, 0)] scalars 1 1 0.1 -2147483648
// CHECK:      [pid (1, 1, 0)] bare
// CHECK-NEXT: [exit 0]

// The progress lines are flushed before the kernel runs, so tile.print
// output comes between them.
// RUN: %python %S/Inputs/run.py tile-run --mode=interp %s \
// RUN:     --arg 'out=i32[64]:zeros' --arg s=f32:0.1 --arg n=i32:1 \
// RUN:   | FileCheck %s --check-prefix=LOUD --match-full-lines
// LOUD:      $ tile-run
// LOUD-NEXT: tile-run: kernel @printer, grid (1, 1, 1), in the interpreter
// LOUD-NEXT: [pid (0, 0, 0)] scalars 0 0 0.1 1
// LOUD:      [pid (0, 0, 0)] bare
// LOUD-NEXT: tile-run: interpreter done in {{.*}} s
// LOUD-NEXT: [exit 0]

func.func @printer(%out: !tile.ptr<i32>, %s: f32, %n: i32)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %x = tile.program_id 0
  %y = tile.program_id 1
  tile.print "scalars" %x, %y, %s, %n : i32, i32, f32, i32
  %r = tile.range 0, 8 : tensor<8xi32>
  tile.print "range" %r : tensor<8xi32>
  %r64 = tile.range 0, 64 : tensor<64xi32>
  tile.print "64" %r64 : tensor<64xi32>
  %r128 = tile.range 0, 128 : tensor<128xi32>
  tile.print "128" %r128 : tensor<128xi32>
  %base = tile.splat %out : tensor<4x!tile.ptr<i32>>
  %r4 = tile.range 0, 4 : tensor<4xi32>
  %ptrs = tile.addptr %base, %r4 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  tile.print "ptrs" %ptrs : tensor<4x!tile.ptr<i32>>
  %t = tile.splat %s : tensor<2x4xf32>
  tile.print "2d" %t : tensor<2x4xf32>
  %one = arith.constant 1.0 : f32
  %three = arith.constant 3.0 : f32
  %third = arith.divf %one, %three : f32
  tile.print "third" %third : f32
  tile.print "bare"
  return
}
