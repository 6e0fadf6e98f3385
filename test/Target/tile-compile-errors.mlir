// tile-compile on bad input: a diagnostic located in the input file (or a
// tool error for bad options and files), a non-zero exit status, never a
// crash, and no output file.
//
// Malformed IR.
// RUN: rm -f %t.ptx
// RUN: not tile-compile %S/Inputs/syntax-error.mlir -o %t.ptx 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SYNTAX --implicit-check-not="Stack dump"
// RUN: not test -e %t.ptx
// SYNTAX: syntax-error.mlir:3:20: error: expected ','
//
// A verifier error (kernel attribute).
// RUN: not tile-compile %S/Inputs/bad-num-warps.mlir -o %t.ptx 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WARPS
// WARPS: bad-num-warps.mlir:2:1: error: 'tile.num_warps' must be a power of two from 1 to 32, got 3
//
// An op the GPU lowering rejects.
// RUN: not tile-compile %S/Inputs/non-splat-constant.mlir -o %t.ptx 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LOWERING --implicit-check-not="Stack dump"
// RUN: not test -e %t.ptx
// LOWERING: non-splat-constant.mlir:3:8: error: the GPU backend supports only splat constant tiles
//
// Nothing to compile.
// RUN: not tile-compile %S/Inputs/no-kernel.mlir -o %t.ptx 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOKERNEL
// RUN: not test -e %t.ptx
// NOKERNEL: no-kernel.mlir:{{[0-9]+}}:{{[0-9]+}}: error: no tile kernel in this module to compile
//
// Tool errors: exit status 2.
// RUN: not tile-compile %S/../../examples/softmax.mlir --format=elf -o %t.ptx 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FORMAT
// RUN: not test -e %t.ptx
// RUN: tile-compile %S/../../examples/softmax.mlir --format=elf -o %t.ptx \
// RUN:   || test $? -eq 2
// FORMAT: tile-compile: error: --format must be isa or bin
//
// RUN: not tile-compile %t.does-not-exist.mlir -o %t.ptx 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING
// RUN: tile-compile %t.does-not-exist.mlir -o %t.ptx || test $? -eq 2
// MISSING: tile-compile: error: cannot open input file '{{.*}}does-not-exist.mlir'
//
// RUN: not tile-compile %S/../../examples/vector_add.mlir -o %t.no-such-dir/out.ptx 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OUTPUT
// OUTPUT: tile-compile: error: cannot open output file '{{.*}}no-such-dir{{/|\\}}out.ptx'
