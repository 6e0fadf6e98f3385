// Kernel parameters: `tile.param` declarations with defaults, `${...}`
// substituted before parsing, `--param` settings, and the errors of each.
//
// RUN: tile-opt %s | FileCheck %s --check-prefix=DEFAULT
// RUN: tile-opt %s --param BLOCK=256,EVEN=true | FileCheck %s --check-prefix=SET
// RUN: tile-opt %s --param BLOCK=256 --param EVEN=true \
// RUN:   | FileCheck %s --check-prefix=SET

tile.param BLOCK = 128
tile.param EVEN = false

// DEFAULT-LABEL: func.func @kernel
// DEFAULT: tile.range 0, 128 : tensor<128xi32>
// DEFAULT: arith.constant 64 : i32
// DEFAULT: arith.constant 7 : i32
// DEFAULT: arith.constant false
// SET-LABEL: func.func @kernel
// SET: tile.range 0, 256 : tensor<256xi32>
// SET: arith.constant 128 : i32
// SET: arith.constant 8 : i32
// SET: arith.constant true
func.func @kernel(%n: i32) attributes {tile.kernel} {
  %r = tile.range 0, ${BLOCK} : tensor<${BLOCK}xi32>
  %half = arith.constant ${BLOCK / 2} : i32
  %bits = arith.constant ${log2(BLOCK)} : i32
  %even = arith.constant ${EVEN}
  return
}

// A value that makes a needed power of two not one: the verifier's error at
// the op, with the specialization as a note.
// RUN: not tile-opt %S/Inputs/param-errors.mlir --param BLOCK=100 2>&1 \
// RUN:   | FileCheck %s --check-prefix=POW2 --implicit-check-not="Stack dump"
// POW2: param-errors.mlir:6:8: error: 'tile.range' op result must be a tile with static power-of-two dimensions, got 'tensor<100xi32>'
// POW2: tile-opt: note: with kernel parameters BLOCK=100 (set), DIVISOR=2
//
// An expression that cannot be evaluated for a value.
// RUN: not tile-opt %s --param BLOCK=96 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LOG2
// LOG2: kernel-params.mlir:25:28: error: 'log2' takes a power of two, not 96
//
// Settings the kernel does not take.
// RUN: not tile-opt %s --param WIDTH=4 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: kernel-params.mlir: error: unknown parameter 'WIDTH' (the kernel declares BLOCK, EVEN)
// RUN: not tile-opt %s --param EVEN=1 2>&1 | FileCheck %s --check-prefix=KIND
// KIND: kernel-params.mlir: error: parameter 'EVEN' takes true or false, not '1'
// RUN: not tile-opt %s --param BLOCK 2>&1 | FileCheck %s --check-prefix=FORM
// FORM: tile-opt: error: --param: 'BLOCK' is not a parameter setting NAME=VALUE
// RUN: not tile-opt %s --param BLOCK=64,BLOCK=32 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TWICE
// TWICE: tile-opt: error: --param: parameter 'BLOCK' is set twice
//
// An expression that fails: division by zero, located in the source.
// RUN: not tile-opt %S/Inputs/param-errors.mlir --param DIVISOR=0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIV0
// DIV0: param-errors.mlir:7:25: error: division by zero
//
// The same kernel source through tile-compile, with the note under the
// error.
// RUN: not tile-compile %S/Inputs/param-errors.mlir --param BLOCK=48 -o %t.ptx 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COMPILE
// RUN: not test -e %t.ptx
// COMPILE: param-errors.mlir:6:8: error: 'tile.range' op result must be a tile with static power-of-two dimensions, got 'tensor<48xi32>'
// COMPILE: param-errors.mlir:6:8: note: with kernel parameters BLOCK=48 (set), DIVISOR=2
