// examples/layernorm.mlir and examples/transpose.mlir, specialized with
// --param, against float64 references of the user's (--reference), in the
// interpreter; irregular sizes leave partial blocks.
//
// REQUIRES: tile-run
//
// DEFINE: %{run} = %python %S/Inputs/run.py tile-run --mode=interp --quiet
// DEFINE: %{ln} = --grid 37 --arg y=f32[37x781] --arg x=f32[37x781]:randn \
// DEFINE:     --arg w=f32[781]:randn --arg b=f32[781]:randn --arg i32:781 \
// DEFINE:     --arg i32:781 --arg f32:1e-5 \
// DEFINE:     --reference %S/Inputs/layernorm-reference.mlir
// DEFINE: %{tr} = --grid '${cdiv(200, BLOCK_M)},${cdiv(150, BLOCK_N)}' \
// DEFINE:     --arg out=f32[150x200] --arg in=f32[200x150]:randn \
// DEFINE:     --arg i32:200 --arg i32:150 --arg i32:150 --arg i32:200 \
// DEFINE:     --reference %S/Inputs/transpose-reference.mlir

// RUN: %{run} %S/../../../examples/layernorm.mlir %{ln} | FileCheck %s --check-prefix=LN
// RUN: %{run} %S/../../../examples/layernorm.mlir --param BLOCK=2048,NUM_WARPS=8 %{ln} \
// RUN:   | FileCheck %s --check-prefix=LN
// LN:      reference y: max rel error {{.*}}, tolerance 1.0e-05: PASS
// LN-NEXT: [exit 0]

// A block smaller than the row: the reference catches it.
// RUN: %{run} %S/../../../examples/layernorm.mlir --param BLOCK=512 %{ln} \
// RUN:   | FileCheck %s --check-prefix=LN-SHORT
// LN-SHORT:      reference y: max rel error {{.*}}, tolerance 1.0e-05: FAIL
// LN-SHORT-NEXT: [exit 1]

// RUN: %{run} %S/../../../examples/transpose.mlir %{tr} | FileCheck %s --check-prefix=TR
// RUN: %{run} %S/../../../examples/transpose.mlir --param BLOCK_M=32,BLOCK_N=128 %{tr} \
// RUN:   | FileCheck %s --check-prefix=TR
// TR:      reference out: max rel error 0.00e+00 (max abs 0.00e+00), tolerance 1.0e-05: PASS
// TR-NEXT: [exit 0]
