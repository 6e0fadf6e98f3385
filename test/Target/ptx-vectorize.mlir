// Vectorized global accesses for vector_add: with 4 consecutive f32 per
// thread and 16-byte aligned buffers, each group of 4 slots should be one
// 16-byte load (and store).
//
// The mask (offsets < n, n unknown) may differ within a vector, so each
// vector checks that all its lanes are enabled and falls back to scalar
// accesses at the ragged edge: both forms appear.
// (The NVPTX backend of LLVM 22 prints untyped .b32 for 32-bit accesses, so
// accept both spellings.)
//
// RUN: tile-compile %S/../../examples/vector_add.mlir -o - | FileCheck %s

// CHECK: .visible .entry vector_add(
// CHECK: ld.global.v4.{{[bf]}}32
// CHECK: st.global.v4.{{[bf]}}32

// With the size a multiple of 16 (tile-run specializes such arguments), the
// mask is uniform over each vector: no scalar fallback.
// RUN: sed -e 's/%n: i32)/%n: i32 {tile.divisibility = 16 : i32})/' \
// RUN:   %S/../../examples/vector_add.mlir | tile-compile - -o - \
// RUN:   | FileCheck %s --check-prefix=UNIFORM
// UNIFORM: .visible .entry vector_add(
// UNIFORM-NOT: ld.global.b32
// UNIFORM: ld.global.v4.{{[bf]}}32
// UNIFORM-NOT: ld.global.b32
// UNIFORM: st.global.v4.{{[bf]}}32
// UNIFORM-NOT: st.global.b32
