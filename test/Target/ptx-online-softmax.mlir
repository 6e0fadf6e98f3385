// online_softmax compiled to PTX: two scf.for loops over 256-wide blocks
// of the row. The first reduces each block twice (max, sum of exp): 32 lanes
// (xor 16, 8, 4, 2, 1), then the warps through shared memory; exp is
// ex2.approx, on the tile and on the scalar rescaling factor. No local
// memory.
//
// RUN: tile-compile %S/../../examples/online_softmax.mlir -o %t.ptx --metadata %t.meta
// RUN: FileCheck %s --implicit-check-not=.local --implicit-check-not=local_depot < %t.ptx
// RUN: FileCheck %s --check-prefix=SHFL < %t.ptx
// RUN: FileCheck %s --check-prefix=MEM < %t.ptx
// RUN: FileCheck %s --check-prefix=META --match-full-lines < %t.meta

// CHECK:      .target sm_90
// CHECK:      .extern .shared .align 16 .b8 tile_smem[];
// CHECK:      .visible .entry online_softmax(
// CHECK:      .maxntid 128, 1, 1
// Block max.
// CHECK:      shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// CHECK:      shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// CHECK:      bar.sync 0;
// CHECK:      st.shared
// CHECK:      bar.sync 0;
// CHECK:      ld.shared
// CHECK:      ex2.approx.ftz.f32
// Block sum.
// CHECK:      shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// CHECK:      shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// CHECK:      bar.sync 0;
// CHECK:      st.shared
// CHECK:      bar.sync 0;
// CHECK:      ld.shared
// Second loop: normalize and store.
// CHECK:      ex2.approx.ftz.f32
// CHECK:      st.global
// CHECK:      ret;

// (The loops are rotated: the loads come after the reductions in the text.)
// MEM: ld.global

// Exactly two butterflies of 5 steps over the 32 lanes.
// SHFL:      shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// SHFL:      shfl.sync.bfly.b32 {{.*}}, 8, 31, -1;
// SHFL:      shfl.sync.bfly.b32 {{.*}}, 4, 31, -1;
// SHFL:      shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
// SHFL:      shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// SHFL:      shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// SHFL:      shfl.sync.bfly.b32 {{.*}}, 8, 31, -1;
// SHFL:      shfl.sync.bfly.b32 {{.*}}, 4, 31, -1;
// SHFL:      shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
// SHFL:      shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// SHFL-NOT:  shfl.sync

// 256 f32 over 4 warps: 4 elements per lane, 2 distinct warps (the other
// two hold copies), so 2 x 4 bytes of shared memory for the partials.
// META:      tile-kernel v1
// META-NEXT: name online_softmax
// META-NEXT: num_warps 4
// META-NEXT: shared_bytes 16
// META-NEXT: arg ptr f32 16
// META-NEXT: arg ptr f32 16
// META-NEXT: arg i32 1
// META-NEXT: arg i32 1
// META-NEXT: arg i32 1
// META-NEXT: end
// META-EMPTY:
