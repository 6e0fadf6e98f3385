// tile-kernel-gen embeds the kernels a tuning table ranks and the
// dispatcher's fallbacks (an online softmax kernel per dtype, an unpipelined
// softmax-matmul tile per dtype and precision), each once, with machine code
// when asked; --all adds the rest of the configuration space.
//
// RUN: tile-kernel-gen --list --tables %S/Inputs/table.json | FileCheck %s
// CHECK-DAG: softmax_online_f32_f32_b2048_w8_a1 sm_80 machine-code
// CHECK-DAG: softmax_online_f16_f16_b2048_w8_a1 sm_80 machine-code
// CHECK-DAG: softmax_online_bf16_bf16_b2048_w8_a1 sm_80 machine-code
// CHECK-DAG: softmax_matmul_f32_tf32x3_m32_k32_n64_w4 sm_80 machine-code
// CHECK-DAG: softmax_rows_f16_f16_r1_b1024_w4_a16 sm_80 machine-code
// CHECK-DAG: softmax_matmul_f16_ieee_m128_k64_n256_w8_s4_h_f_tma sm_90a machine-code
//
// The softmax and softmax-matmul kernels: eight fallbacks and the two
// kernels the table adds (its online kernel is a fallback).
// RUN: tile-kernel-gen --list --tables %S/Inputs/table.json \
// RUN:   | grep -E '^softmax_(rows|online|cluster|grid|matmul)_' | count 10
//
// The whole space: the table's kernels with machine code, the rest PTX.
// RUN: tile-kernel-gen --list --all --tables %S/Inputs/table.json \
// RUN:   | FileCheck %s --check-prefix=ALL
// ALL-DAG: softmax_rows_f16_f16_r1_b1024_w4_a16 sm_80 machine-code
// ALL-DAG: softmax_cluster_f32_f32_c4_b16384_w16_a16_o2 sm_90{{$}}
// ALL-DAG: softmax_rows_f32_f32_r32_b32_w4_a16 sm_80{{$}}
//
// The generated source: descriptions, images and the table's points as
// indices into the kernel table.
// RUN: tile-kernel-gen -o %t.cpp --tables %S/Inputs/table.json \
// RUN:   --only softmax_online_f16_f16_b2048_w8_a1,softmax_rows_f16_f16_r1_b1024_w4_a16
// RUN: FileCheck %s --check-prefix=SOURCE < %t.cpp
// SOURCE: const EmbeddedKernel kKernels[] = {
// SOURCE: {"softmax_rows_f16_f16_r1_b1024_w4_a16", {"softmax", {0, 1, 1, 1024, 0, 1, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}}, kImage0,
// SOURCE: {"softmax_online_f16_f16_b2048_w8_a1", {"softmax", {2, 1, 0, 2048, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}}, kImage1,
// SOURCE: const unsigned kNumKernels = 2;
// SOURCE: static const TablePoint kPoints0[] = {
// SOURCE-NEXT: {"softmax", {{[{][{]}}1, 1, 4096, 1000, 0, 0, 0, 0, 0}}, {0, 1, -1, -1, -1, -1, -1, -1}},
// SOURCE-NEXT: {"softmax_matmul", {{[{][{]}}1, 0, 16, 2048, 512, 512, 1, 0, 0}}, {-1, -1, -1, -1, -1, -1, -1, -1}},
// SOURCE: const TuningTable kTables[] = {
// SOURCE-NEXT: "Test GPU", 9, 0, 132}, kPoints0, 2},
// SOURCE: const unsigned kNumTables = 1;
