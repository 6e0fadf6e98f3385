// tile.assert in the interpreter: the first false element stops the run
// with an error at the op naming the program and the element (exit 1); a
// condition that holds everywhere lets the run finish.
//
// REQUIRES: tile-run
//
// RUN: %python %S/Inputs/run.py tile-run --mode=interp %S/Inputs/assert.mlir \
// RUN:     --arg x=i32[64]:iota --arg n=i32:40 --quiet | FileCheck %s --check-prefix=FAIL
// FAIL:      assert.mlir:10:3: error: in program (0, 0, 0): assertion failed: x is below n (element [40] is false)
// FAIL:      [exit 1]
//
// RUN: %python %S/Inputs/run.py tile-run --mode=interp %S/Inputs/assert.mlir \
// RUN:     --arg x=i32[64]:iota --arg n=i32:64 --quiet | FileCheck %s --check-prefix=PASS
// PASS:      $ tile-run
// PASS-NEXT: [exit 0]
