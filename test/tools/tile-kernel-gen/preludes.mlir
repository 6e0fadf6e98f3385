// A kernel whose launches run a prelude brings it along: the table ranks a
// tf32 kernel reading V transposed, and the V transposition it runs first
// is embedded too, with machine code, though no table ranks it.
//
// RUN: tile-kernel-gen --list --tables %S/Inputs/prelude-table.json | FileCheck %s
// CHECK-DAG: softmax_matmul_f32_tf32_m128_k64_n256_w8_s2_h_ws_vt sm_90a machine-code
// CHECK-DAG: softmax_matmul_transpose_v_f32_tf32_b64_w4 sm_80 machine-code
//
// Once, though two of the table's kernels need it.
// RUN: tile-kernel-gen --list --tables %S/Inputs/prelude-table.json \
// RUN:   | grep -c transpose_v | FileCheck %s --check-prefix=ONCE
// ONCE: {{^1$}}
