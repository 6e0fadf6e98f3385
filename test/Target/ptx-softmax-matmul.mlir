// softmax_matmul compiled to PTX: block pointers with boundary checks
// (-inf padding for X), row reductions of 16x16 blocks within a warp (4
// lanes per row: xor 2 and 1 only; no cross-warp step), ex2.approx for
// exp, and the FMA dot staged through shared memory between two barriers in
// the loop. No local memory.
//
// RUN: tile-compile %S/../../examples/softmax_matmul.mlir -o %t.ptx
// RUN: FileCheck %s --implicit-check-not=.local --implicit-check-not=local_depot < %t.ptx
// The row reductions only shuffle over the 4 lanes of a row: xor 2 and 1.
// RUN: not grep -E "shfl.sync.bfly.b32.*, (16|8|4), 31, -1;" %t.ptx
// RUN: FileCheck %s --check-prefix=SHFL < %t.ptx
// RUN: FileCheck %s --check-prefix=BAR < %t.ptx

// CHECK:      .target sm_90
// CHECK:      .extern .shared .align 16 .b8 tile_smem[];
// CHECK:      .visible .entry softmax_matmul(
// CHECK-COUNT-15: .param
// CHECK-NEXT: )
// CHECK-NEXT: .maxntid 128, 1, 1
// CHECK:      0fFF800000
// CHECK:      ld.global
// CHECK:      shfl.sync.bfly.b32
// CHECK:      ex2.approx.ftz.f32
// CHECK:      bar.sync 0;
// CHECK:      st.shared
// CHECK:      bar.sync 0;
// CHECK:      ld.shared
// CHECK:      fma.rn.f32
// CHECK:      st.global
// CHECK:      ret;

// SHFL: shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
// SHFL: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;

// The dot's two barriers are the only ones: no reduction needs a
// cross-warp step (each row lives in one warp).
// BAR-COUNT-2:  bar.sync
// BAR-NOT:      bar.sync
