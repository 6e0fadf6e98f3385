// A kernel whose launches run a prelude brings it along: the table ranks a
// tf32 kernel reading V transposed, and the V transpositions it runs first
// (blocks of 64 or 32, by V's size) are embedded too, with machine code,
// though no table ranks them.
//
// RUN: tile-kernel-gen --list --tables %S/Inputs/prelude-table.json | FileCheck %s
// CHECK-DAG: softmax_matmul_f32_tf32_m128_k64_n256_w8_s2_h_ws_vt sm_90a machine-code
// CHECK-DAG: softmax_matmul_transpose_v_f32_tf32_b64_w4 sm_90a machine-code
// CHECK-DAG: softmax_matmul_transpose_v_f32_tf32_b32_w1 sm_90a machine-code
//
// Each once, though two of the table's kernels need them.
// RUN: tile-kernel-gen --list --tables %S/Inputs/prelude-table.json \
// RUN:   | grep -c transpose_v | FileCheck %s --check-prefix=ONCE
// ONCE: {{^2$}}
