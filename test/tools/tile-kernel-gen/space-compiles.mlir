// Every kernel of every operation's configuration space compiles: the
// catalogue's rules (registers, shared memory per target) keep out what the
// compiler rejects, so that a build with the whole space embedded (for
// tile-tune) succeeds. A kernel the compiler rejects stops tile-kernel-gen
// with its diagnostic and a non-zero exit.
//
// RUN: tile-kernel-gen --all -o %t.cpp
// RUN: FileCheck %s < %t.cpp
// CHECK-DAG: "attention_f16_d128_m128_n128_w8_s2_a16_h"
// CHECK-DAG: "attention_bf16_d64_m128_n128_w8_s4_a16_h"
// CHECK-DAG: "attention_f16_d64_m64_n128_w4_s2_a16"
// CHECK-DAG: "softmax_matmul_f16_ieee_m128_k64_n256_w8_s4_h_f_tma"
// CHECK-DAG: "softmax_matmul_f16_ieee_m128_k64_n256_w8_s3_h_ws"
// CHECK-DAG: "softmax_matmul_bf16_ieee_m128_k64_n256_w8_s4_h_ws"
// CHECK-DAG: "softmax_matmul_f16_ieee_m128_k64_n256_w8_s4_h_f_ws"
// CHECK-DAG: "softmax_matmul_bf16_ieee_m128_k128_n256_w8_s2_h_ws"
