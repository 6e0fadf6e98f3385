// tile.scan of every kind and tile.reduce with a combiner region on a
// 2 x 4 iota block (Inputs/scan-kinds.mlir says what each output holds), in
// the interpreter; on a machine with a GPU the same kernel also runs there
// at sizes and warp counts that take every path of the lowering, compared
// with the interpreter by tile-run.
//
// REQUIRES: tile-run
//
// RUN: %python %S/Inputs/run.py tile-run --mode=interp %S/Inputs/scan-kinds.mlir \
// RUN:     --param ROWS=2,COLS=4,NUM_WARPS=1 --quiet \
// RUN:     --arg x=f32[2x4]:iota --arg o=f32[7x2x4] --arg h=f16[2x4] \
// RUN:     --arg n=i32[5x4] --arg r=f32[2] \
// RUN:     --print o --print h --print n --print r \
// RUN:   | FileCheck %s
//
// cumsum, cumprod(1 + x/10), cummax along the rows; cummin down the
// columns; cumsum from the end of the rows; keep-left along the rows (the
// first element) and up the columns from the end (the last row).
// CHECK:      o = [0, 1, 3, 6, 4, 9, 15, 22, 1, 1.1, 1.32, 1.716, 1.4, 2.1, 3.36, 5.712, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 0, 1, 2, 3, 6, 6, 5, 3, 22, 18, 13, 7, 0, 0, 0, 0, 4, 4, 4, 4, 4, 5, 6, 7, 4, 5, 6, 7]
// CHECK-NEXT: h = [0, 1, 3, 6, 4, 9, 15, 22]
// Integers [-3, -2, -1, 0; -3, -1, 1, 3]: cumsum along the rows, a + b + 1
// down the columns, and reduced down the columns.
// CHECK-NEXT: n = [-3, -5, -6, -6, -3, -4, -3, 0, -3, -2, -1, 0, -5, -2, 1, 4, -5, -2, 1, 4]
// CHECK-NEXT: r = [3, 7]
// CHECK-NEXT: [exit 0]
//
// RUN: %python %S/Inputs/run.py tile-run --mode=interp %S/Inputs/scan-kinds.mlir \
// RUN:     --param ROWS=32,COLS=64,NUM_WARPS=4 --quiet --arg x=f32[32x64]:randn \
// RUN:     --arg o=f32[7x32x64] --arg h=f16[32x64] --arg n=i32[65x64] --arg r=f32[32] \
// RUN:   | FileCheck %s --check-prefix=LARGER
// LARGER: [exit 0]
//
// RUN: %if gpu %{ %python %S/Inputs/run.py tile-run %S/Inputs/scan-kinds.mlir \
// RUN:     --param ROWS=2,COLS=1024,NUM_WARPS=4 --quiet --arg x=f32[2x1024]:randn \
// RUN:     --arg o=f32[7x2x1024] --arg h=f16[2x1024] --arg n=i32[5x1024] --arg r=f32[2] \
// RUN:   | FileCheck %s --check-prefix=LARGER %}
// RUN: %if gpu %{ %python %S/Inputs/run.py tile-run %S/Inputs/scan-kinds.mlir \
// RUN:     --param ROWS=128,COLS=8,NUM_WARPS=4 --quiet --arg x=f32[128x8]:randn \
// RUN:     --arg o=f32[7x128x8] --arg h=f16[128x8] --arg n=i32[257x8] --arg r=f32[128] \
// RUN:   | FileCheck %s --check-prefix=LARGER %}
// RUN: %if gpu %{ %python %S/Inputs/run.py tile-run %S/Inputs/scan-kinds.mlir \
// RUN:     --param ROWS=2,COLS=16,NUM_WARPS=4 --quiet --arg x=f32[2x16]:randn \
// RUN:     --arg o=f32[7x2x16] --arg h=f16[2x16] --arg n=i32[5x16] --arg r=f32[2] \
// RUN:   | FileCheck %s --check-prefix=LARGER %}
