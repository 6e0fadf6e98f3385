// softmax compiled to PTX. A 1024-wide row over 4 warps of 32 lanes with 4
// consecutive elements per lane, twice: each thread holds 8 elements. Both
// row reductions (max, then sum) fold the 8 slots, shuffle over the 32 lanes
// (xor 16, 8, 4, 2, 1) and combine the 4 warps' partials through shared
// memory between barriers. exp (afn) is ex2.approx.ftz of x * log2(e), 8 per
// thread.
// Padding lanes load -inf. No local memory (no spills).
//
// RUN: tile-compile %S/../../examples/softmax.mlir -o %t.ptx
// RUN: FileCheck %s --implicit-check-not=.local --implicit-check-not=local_depot < %t.ptx
// RUN: FileCheck %s --check-prefix=SHFL < %t.ptx
// RUN: FileCheck %s --check-prefix=EX2 < %t.ptx
// RUN: tile-compile %S/../../examples/softmax.mlir --chip sm_80 -o - \
// RUN:   | FileCheck %s --check-prefix=SM80 --implicit-check-not=.local

// CHECK:      .target sm_90
// CHECK:      .extern .shared .align 16 .b8 tile_smem[];
// CHECK:      .visible .entry softmax(
// CHECK:      .maxntid 128, 1, 1
// Masked loads, -inf where masked off.
// CHECK:      0fFF800000
// CHECK:      ld.global
// Row max: in the thread, then the lanes, then the warps.
// CHECK:      max.NaN.f32
// CHECK:      shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// CHECK:      shfl.sync.bfly.b32 {{.*}}, 8, 31, -1;
// CHECK:      shfl.sync.bfly.b32 {{.*}}, 4, 31, -1;
// CHECK:      shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
// CHECK:      shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// CHECK:      bar.sync 0;
// CHECK:      st.shared
// CHECK:      bar.sync 0;
// CHECK:      ld.shared
// exp(x - max)
// CHECK:      ex2.approx.ftz.f32
// Row sum: the same three steps.
// CHECK:      shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// CHECK:      shfl.sync.bfly.b32 {{.*}}, 8, 31, -1;
// CHECK:      shfl.sync.bfly.b32 {{.*}}, 4, 31, -1;
// CHECK:      shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
// CHECK:      shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// CHECK:      bar.sync 0;
// CHECK:      st.shared
// CHECK:      bar.sync 0;
// CHECK:      ld.shared
// CHECK:      div.rn.f32
// CHECK:      st.global
// CHECK:      ret;

// SHFL-COUNT-10: shfl.sync.bfly.b32
// SHFL-NOT:      shfl.sync

// EX2-COUNT-8:   ex2.approx.ftz.f32
// EX2-NOT:       ex2.approx

// SM80: .target sm_80
// SM80: .visible .entry softmax(
// SM80: shfl.sync.bfly.b32
// SM80: ex2.approx.ftz.f32
