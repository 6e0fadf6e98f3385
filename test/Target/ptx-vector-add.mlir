// vector_add compiled to PTX: one kernel entry with 4 parameters and 128
// threads, global loads and stores, no shared memory, no warp shuffles and
// no local memory (no register spills).
//
// RUN: tile-compile %S/../../examples/vector_add.mlir -o - \
// RUN:   | FileCheck %s --implicit-check-not=.local --implicit-check-not=local_depot
// RUN: tile-compile %S/../../examples/vector_add.mlir --chip sm_80 -o - \
// RUN:   | FileCheck %s --check-prefix=SM80

// CHECK:      .version 8.0
// CHECK-NEXT: .target sm_90
// CHECK-NEXT: .address_size 64
// CHECK-NOT:  .shared
// CHECK:      .visible .entry vector_add(
// CHECK-NEXT:   .param .u64 {{.*}}vector_add_param_0,
// CHECK-NEXT:   .param .u64 {{.*}}vector_add_param_1,
// CHECK-NEXT:   .param .u64 {{.*}}vector_add_param_2,
// CHECK-NEXT:   .param .u32 vector_add_param_3
// CHECK-NEXT: )
// CHECK-NEXT: .maxntid 128, 1, 1
// The program id and the thread id.
// CHECK-DAG:  %ctaid.x
// CHECK-DAG:  %tid.x
// CHECK:      ld.global
// CHECK:      add.rn.f32
// CHECK:      st.global
// CHECK-NOT:  shfl.sync
// CHECK-NOT:  bar.sync
// CHECK-NOT:  .shared
// CHECK:      ret;

// SM80:       .target sm_80
// SM80:       .visible .entry vector_add(
