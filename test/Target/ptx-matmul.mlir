// matmul.mlir holds two kernels: both compile into one PTX module, each an
// entry with 12 parameters, the FMA dot staged through shared memory (two
// barriers per k step), global loads and stores and no warp shuffles. The
// leaky-ReLU epilogue is a compare, a multiply by 0.01 and a select. No
// local memory in either kernel.
//
// RUN: tile-compile %S/../../examples/matmul.mlir -o %t.ptx --metadata %t.meta
// RUN: FileCheck %s --implicit-check-not=.local --implicit-check-not=local_depot \
// RUN:   --implicit-check-not=shfl.sync < %t.ptx
// RUN: FileCheck %s --check-prefix=META --match-full-lines < %t.meta

// CHECK:      .target sm_90
// CHECK:      .extern .shared .align 16 .b8 tile_smem[];
// CHECK:      .visible .entry matmul(
// CHECK-COUNT-12: .param
// CHECK-NEXT: )
// CHECK-NEXT: .maxntid 128, 1, 1
// CHECK:      ld.global
// CHECK:      bar.sync 0;
// CHECK:      st.shared
// CHECK:      bar.sync 0;
// CHECK:      ld.shared
// CHECK:      fma.rn.f32
// CHECK-NOT:  bar.sync
// CHECK:      st.global
// CHECK:      ret;

// CHECK:      .visible .entry matmul_leaky_relu(
// CHECK-COUNT-12: .param
// CHECK-NEXT: )
// CHECK-NEXT: .maxntid 128, 1, 1
// CHECK:      ld.global
// CHECK:      bar.sync 0;
// CHECK:      st.shared
// CHECK:      bar.sync 0;
// CHECK:      ld.shared
// CHECK:      fma.rn.f32
// CHECK-NOT:  bar.sync
// CHECK:      setp.gt.f32 {{.*}}, 0f00000000;
// CHECK-NEXT: mul.rn.f32 {{.*}}, 0f3C23D70A;
// CHECK:      selp.f32
// CHECK:      st.global
// CHECK:      ret;

// One metadata block per kernel, in module order: a 32x32 @ 32x32 dot
// stages (32*32 + 32*32) f32 = 8192 bytes.
// META:      tile-kernel v1
// META-NEXT: name matmul
// META-NEXT: num_warps 4
// META-NEXT: shared_bytes 8192
// META-NEXT: arg ptr f32 16
// META-NEXT: arg ptr f32 16
// META-NEXT: arg ptr f32 16
// META-COUNT-9: arg i32 1
// META-NEXT: end
// META-NEXT: tile-kernel v1
// META-NEXT: name matmul_leaky_relu
// META-NEXT: num_warps 4
// META-NEXT: shared_bytes 8192
// META-NEXT: arg ptr f32 16
// META-NEXT: arg ptr f32 16
// META-NEXT: arg ptr f32 16
// META-COUNT-9: arg i32 1
// META-NEXT: end
// META-EMPTY:
