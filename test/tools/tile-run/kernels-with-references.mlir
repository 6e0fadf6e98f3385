// examples/layernorm.mlir, transpose.mlir, cross_entropy.mlir,
// matmul_bias_gelu.mlir and causal_attention.mlir, specialized with --param, against float64
// references of the user's (--reference), in the interpreter; irregular
// sizes leave partial blocks.
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
// DEFINE: %{ce} = --grid 37 --arg loss=f32[37] --arg x=f32[37x781]:randn \
// DEFINE:     '--arg=t=i32[37]:rand(0,780)' --arg i32:781 --arg i32:781 \
// DEFINE:     --reference %S/Inputs/cross-entropy-reference.mlir
// DEFINE: %{mm} = --arg a=f16[200x70] --arg b=f16[70x150] --arg c=f16[200x150] \
// DEFINE:     --arg bias=f32[150]:randn --arg i32:200 --arg i32:150 --arg i32:70 \
// DEFINE:     --arg i64:70 --arg i64:1 --arg i64:150 --arg i64:1 --arg i64:150 \
// DEFINE:     --arg i64:1 --reference %S/Inputs/matmul-bias-gelu-reference.mlir
// DEFINE: %{at} = --arg q=f32[3x200x64]:randn --arg k=f32[3x200x64]:randn \
// DEFINE:     --arg v=f32[3x200x64]:randn --arg o=f32[3x200x64] --arg i32:200 \
// DEFINE:     --arg f32:0.125 --reference %S/Inputs/causal-attention-reference.mlir

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

// RUN: %{run} %S/../../../examples/cross_entropy.mlir %{ce} | FileCheck %s --check-prefix=CE
// RUN: %{run} %S/../../../examples/cross_entropy.mlir --param BLOCK=4096,NUM_WARPS=16 %{ce} \
// RUN:   | FileCheck %s --check-prefix=CE
// CE:      reference loss: max rel error {{.*}}, tolerance 1.0e-05: PASS
// CE-NEXT: [exit 0]

// RUN: %{run} %S/../../../examples/matmul_bias_gelu.mlir --grid 4 %{mm} \
// RUN:   | FileCheck %s --check-prefix=MM
// RUN: %{run} %S/../../../examples/matmul_bias_gelu.mlir \
// RUN:     --param BLOCK_M=64,BLOCK_N=32,BLOCK_K=16,GROUP_M=2,NUM_WARPS=4 \
// RUN:     --grid '${cdiv(200, BLOCK_M) * cdiv(150, BLOCK_N)}' %{mm} \
// RUN:   | FileCheck %s --check-prefix=MM
// MM:      reference c: max rel error {{.*}}, tolerance 1.0e-02: PASS
// MM-NEXT: [exit 0]

// RUN: %{run} %S/../../../examples/causal_attention.mlir \
// RUN:     --grid '${cdiv(200, BLOCK_M)},3' %{at} | FileCheck %s --check-prefix=AT
// RUN: %{run} %S/../../../examples/causal_attention.mlir --param BLOCK_M=32,BLOCK_N=64 \
// RUN:     --grid '${cdiv(200, BLOCK_M)},3' %{at} | FileCheck %s --check-prefix=AT
// AT:      reference o: max rel error {{.*}}, tolerance 1.0e-05: PASS
// AT-NEXT: [exit 0]

// Too few programs leave rows unwritten: the reference catches it.
// RUN: %{run} %S/../../../examples/causal_attention.mlir --grid 1,3 %{at} \
// RUN:   | FileCheck %s --check-prefix=AT-SHORT
// AT-SHORT:      reference o: max rel error {{.*}}: FAIL
// AT-SHORT-NEXT: [exit 1]
