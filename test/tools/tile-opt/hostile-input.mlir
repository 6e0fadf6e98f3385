// Input the tools must reject with a message and a non-zero exit, never a
// crash or a hang.
//
// 3000 nested loops used to overflow the parser's stack: sources nest at
// most 256 brackets deep, and the error points at the first one too many.
// RUN: %python %S/../../Dialect/Tile/Transforms/Inputs/gen_large_kernel.py loops 3000 > %t.nested.mlir
// RUN: not tile-opt %t.nested.mlir 2>&1 | FileCheck %s --check-prefix=NESTED \
// RUN:   --implicit-check-not="Stack dump"
// NESTED: {{^}}{{.*}}nested.mlir:259:44: error: brackets nest more than 256 levels deep; Tile reads sources nested at most that deep
//
// MLIR's parser crashes on dense arrays of index elements: rejected before
// parsing, at the array.
// RUN: not tile-opt %S/Inputs/dense-array-index.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=INDEX-ARRAY --implicit-check-not="Stack dump"
// INDEX-ARRAY: dense-array-index.mlir:1:37: error: dense arrays of 'index' elements are not supported (use i64)
//
// Without -verify-diagnostics, expected-* comments are comments (MLIR 22's
// driver reported them as errors and still exited 0).
// RUN: tile-opt %S/Inputs/expectation.mlir -o /dev/null 2>&1 | count 0
// RUN: not tile-opt %S/Inputs/expectation.mlir -verify-diagnostics -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EXPECTATION
// EXPECTATION: expectation.mlir:2:6: error: expected error "never emitted" was not produced
//
// MLIR's inliner takes time cubic in the length of a call chain: before a
// pipeline with --inline, chains are bounded (2,000 helpers took minutes).
// RUN: %python %S/../../Dialect/Tile/Transforms/Inputs/gen_large_kernel.py calls 2000 > %t.calls.mlir
// RUN: not timeout 60 tile-opt %t.calls.mlir --inline -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CALLS
// CALLS: error: calls from 'h1935' nest deeper than 64 functions; every call is inlined
// RUN: tile-opt %t.calls.mlir -o /dev/null
//
// A device that never ends used to be read until memory ran out.
// RUN: not tile-opt /dev/zero 2>&1 | FileCheck %s --check-prefix=ZERO \
// RUN:   --implicit-check-not="LLVM ERROR"
// ZERO: tile-opt: error: /dev/zero: the input is larger than 64 MiB
// RUN: not tile-opt - < /dev/zero 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STDIN --implicit-check-not="LLVM ERROR"
// STDIN: tile-opt: error: <stdin>: the input is larger than 64 MiB
//
// A full disk used to end in "LLVM ERROR: IO failure on output stream".
// RUN: not tile-opt %s -o /dev/full 2>&1 | FileCheck %s --check-prefix=FULL \
// RUN:   --implicit-check-not="LLVM ERROR"
// FULL: tile-opt: error: cannot write '/dev/full': No space left on device
// RUN: not tile-opt %s > /dev/full 2> %t.stdout-full.txt
// RUN: FileCheck %s --check-prefix=STDOUT-FULL --implicit-check-not="LLVM ERROR" < %t.stdout-full.txt
// STDOUT-FULL: tile-opt: error: cannot write standard output: No space left on device
//
// Nothing is written when the run fails.
// RUN: rm -f %t.out.mlir
// RUN: not tile-opt %s --tile-kernel-check=max-registers=0 -o %t.out.mlir 2>/dev/null
// RUN: not test -e %t.out.mlir
//
// Pipeline options that name no target fail with a non-zero exit (an
// unknown format used to print an error and exit 0; an empty chip crashed
// in the NVVM target's verifier).
// RUN: not tile-opt %s --tile-to-ptx='format=bogus' -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FORMAT
// FORMAT: error: unknown output format 'bogus'; expected isa (PTX text) or bin (a cubin)
// RUN: not tile-opt %s --tile-to-ptx='chip=' -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CHIP --implicit-check-not="Stack dump"
// CHIP: error: unknown target chip ''; Tile compiles for sm_80, {{.*}}, sm_90a,
// RUN: not tile-opt %s --tile-to-llvm='chip=sm_75' -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OLD-CHIP
// OLD-CHIP: error: unknown target chip 'sm_75'; Tile compiles for sm_80,

func.func @store(%p: !tile.ptr<f32>, %x: f32) attributes {tile.kernel} {
  %r = tile.range 0, 128 : tensor<128xi32>
  %ps = tile.splat %p : tensor<128x!tile.ptr<f32>>
  %pp = tile.addptr %ps, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %v = tile.load %pp : tensor<128x!tile.ptr<f32>>
  tile.store %pp, %v : tensor<128x!tile.ptr<f32>>
  return
}
