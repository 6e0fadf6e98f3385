// Every kind of tile.reduce on a 4 x 8 iota block (Inputs/reduce-kinds.mlir
// says what each output holds), in the interpreter; on a GPU machine the
// same kernel at 64 x 128 runs on the GPU and is compared with it.
//
// REQUIRES: tile-run
//
// RUN: %python %S/Inputs/run.py tile-run --mode=interp %S/Inputs/reduce-kinds.mlir \
// RUN:     --param ROWS=4,COLS=8,NUM_WARPS=1 --quiet \
// RUN:     --arg x=f32[4x8]:iota --arg o=f32[5x4] --arg a=i32[5x4] --arg c=i32[2x8] \
// RUN:     --print o --print a --print c \
// RUN:   | FileCheck %s
//
// Rows: max, min, sum, prod(1 + x/10), max with the NaNs.
// CHECK:      o = [7, 15, 23, 31, 0, 8, 16, 24, 28, 92, 156, 220, 9.801792, 436.0911, 5598.092, 38525.06, nan, 15, 23, nan]
// Rows: argmax, argmin, argmax with a NaN in rows 0 (column 0) and 3
// (column 1), argmax and argmin of (row + 1) * column mod 7 (first of ties).
// CHECK-NEXT: a = [7, 7, 7, 7, 0, 0, 0, 0, 0, 7, 7, 1, 6, 3, 2, 5, 0, 0, 0, 0]
// Columns: argmax of x, argmin of the integers.
// CHECK-NEXT: c = [3, 3, 3, 3, 3, 3, 3, 3, 0, 0, 3, 2, 1, 2, 3, 0]
// CHECK-NEXT: [exit 0]
//
// RUN: %python %S/Inputs/run.py tile-run --mode=interp %S/Inputs/reduce-kinds.mlir \
// RUN:     --quiet --arg x=f32[64x128]:randn --arg o=f32[5x64] --arg a=i32[5x64] \
// RUN:     --arg c=i32[2x128] | FileCheck %s --check-prefix=FULL
// FULL: [exit 0]
