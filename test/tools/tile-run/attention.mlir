// examples/attention.mlir in the interpreter against its float64 reference
// (Inputs/attention-reference.mlir, given to tile-run with --reference):
// 2 batch entries, 4 query heads reading 2 key/value heads (GQA), seq_q and
// seq_k not multiples of the blocks; heads-major (BHSD) and sequence-major
// (BSHD) strides; causal with the diagonal aligned bottom-right, and with
// more queries than keys, where the first rows see no key (o = 0, lse =
// -inf).
//
// REQUIRES: tile-run
//
// DEFINE: %{run} = %python %S/Inputs/run.py tile-run --mode=interp --quiet \
// DEFINE:     %S/../../../examples/attention.mlir \
// DEFINE:     --reference %S/Inputs/attention-reference.mlir
// DEFINE: %{bhsd} = --arg q=f16[2x4x100x64]:randn --arg k=f16[2x2x150x64]:randn \
// DEFINE:     --arg v=f16[2x2x150x64]:randn --arg o=f16[2x4x100x64] \
// DEFINE:     --arg lse=f32[2x4x100] --arg i32:100 --arg i32:150 --arg i32:4 --arg i32:2 \
// DEFINE:     --arg i64:25600 --arg i64:6400 --arg i64:64 --arg i64:19200 --arg i64:9600 \
// DEFINE:     --arg i64:64 --arg i64:19200 --arg i64:9600 --arg i64:64 --arg i64:25600 \
// DEFINE:     --arg i64:6400 --arg i64:64 --arg f32:0.125
// DEFINE: %{bshd} = --arg q=f16[2x100x4x64]:randn --arg k=f16[2x150x2x64]:randn \
// DEFINE:     --arg v=f16[2x150x2x64]:randn --arg o=f16[2x100x4x64] \
// DEFINE:     --arg lse=f32[2x4x100] --arg i32:100 --arg i32:150 --arg i32:4 --arg i32:2 \
// DEFINE:     --arg i64:25600 --arg i64:64 --arg i64:256 --arg i64:19200 --arg i64:64 \
// DEFINE:     --arg i64:128 --arg i64:19200 --arg i64:64 --arg i64:128 --arg i64:25600 \
// DEFINE:     --arg i64:64 --arg i64:256 --arg f32:0.125
// DEFINE: %{more_q} = --arg q=f16[2x4x150x64]:randn --arg k=f16[2x2x100x64]:randn \
// DEFINE:     --arg v=f16[2x2x100x64]:randn --arg o=f16[2x4x150x64] \
// DEFINE:     --arg lse=f32[2x4x150] --arg i32:150 --arg i32:100 --arg i32:4 --arg i32:2 \
// DEFINE:     --arg i64:38400 --arg i64:9600 --arg i64:64 --arg i64:12800 --arg i64:6400 \
// DEFINE:     --arg i64:64 --arg i64:12800 --arg i64:6400 --arg i64:64 --arg i64:38400 \
// DEFINE:     --arg i64:9600 --arg i64:64 --arg f32:0.125

// RUN: %{run} --grid '${cdiv(100, BLOCK_M)},4,2' %{bhsd} | FileCheck %s
// RUN: %{run} --param BLOCK_M=32,BLOCK_N=32 --grid '${cdiv(100, BLOCK_M)},4,2' %{bshd} \
// RUN:   | FileCheck %s
// RUN: %{run} --param CAUSAL=true --reference-param CAUSAL=true \
// RUN:     --grid '${cdiv(100, BLOCK_M)},4,2' %{bhsd} | FileCheck %s
// CHECK:      reference o: max rel error {{.*}}, tolerance 1.0e-02: PASS
// CHECK-NEXT: reference lse: max rel error {{.*}}, tolerance 1.0e-05: PASS
// CHECK-NEXT: [exit 0]

// RUN: %{run} --param CAUSAL=true --reference-param CAUSAL=true \
// RUN:     --grid '${cdiv(150, BLOCK_M)},4,2' %{more_q} --print lse \
// RUN:   | FileCheck %s --check-prefix=MASKED
// MASKED:      reference o: max rel error {{.*}}: PASS
// MASKED-NEXT: reference lse: max rel error {{.*}}: PASS
// MASKED-NEXT: lse = [{{(-inf, )+}}{{-?[0-9.]+}}, {{.*}}]
// MASKED-NEXT: [exit 0]

// The kernel compiled without CAUSAL against the causal reference: caught.
// RUN: %{run} --reference-param CAUSAL=true --grid '${cdiv(100, BLOCK_M)},4,2' \
// RUN:     %{bhsd} | FileCheck %s --check-prefix=WRONG
// WRONG: reference o: max rel error {{.*}}: FAIL
