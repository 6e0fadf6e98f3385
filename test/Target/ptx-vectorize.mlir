// Vectorized global accesses for vector_add: with 4 consecutive f32 per
// thread and 16-byte aligned buffers, each group of 4 slots should be one
// 16-byte load (and store).
//
// XFAIL: *
// Not implemented yet: the axis analysis does not feed the load/store
// vector widths to tile-convert-to-llvm (the pass leaves VectorWidthMap
// empty), so every slot is a scalar ld.global.b32. Remove the XFAIL when
// vectorization lands (lit then reports this test as XPASS).
// (The NVPTX backend of LLVM 22 prints untyped .b32 for 32-bit accesses, so
// accept both spellings.)
//
// RUN: tile-compile %S/../../examples/vector_add.mlir -o - | FileCheck %s

// CHECK: .visible .entry vector_add(
// CHECK: ld.global.v4.{{[bf]}}32
// CHECK: st.global.v4.{{[bf]}}32
