// tile-assign-layouts: every tile of every kernel gets a #tile.blocked or
// #tile.slice layout. Values tied by elementwise ops, memory ops, loop-carried
// values and broadcasts share one; reduce results and expand_dims operands
// are slices of their partner's; each group gets the default blocked layout
// of its largest shape (up to 16 bytes per thread along the fastest
// dimension, lanes then warps along the fastest dimensions first).
//
// RUN: tile-opt %s -split-input-file -tile-assign-layouts | FileCheck %s
// The result verifies and stays the same through a second run of the pass
// (it only looks at the data flow, not at existing layouts).
// RUN: tile-opt %s -split-input-file -tile-assign-layouts -tile-assign-layouts | FileCheck %s
// With the cleanup passes (duplicated splats/constants merged, genuine
// conversions kept):
// RUN: tile-opt %s -split-input-file -tile-assign-layouts \
// RUN:   -tile-remove-layout-conversions -canonicalize -cse | FileCheck %s --check-prefix=CLEAN
//
// The examples (checks at the end of this file): one 1-d layout for
// softmax; one 2-d layout and its row slice for the fused softmax-matmul; no
// conversion anywhere.
// DEFINE: %{examples} = %S/../../../../examples
// RUN: tile-opt %{examples}/softmax.mlir -tile-assign-layouts \
// RUN:   | FileCheck %s --check-prefix=SOFTMAX --implicit-check-not=tile.convert_layout
// RUN: tile-opt %{examples}/softmax.mlir -tile-assign-layouts -cse \
// RUN:   | FileCheck %s --check-prefix=SOFTMAX-CSE
// RUN: tile-opt %{examples}/softmax_matmul.mlir -tile-assign-layouts \
// RUN:   | FileCheck %s --check-prefix=SMM --implicit-check-not=tile.convert_layout
// RUN: tile-opt %{examples}/softmax_matmul.mlir -tile-assign-layouts \
// RUN:     -tile-remove-layout-conversions -cse \
// RUN:   | FileCheck %s --check-prefix=SMM --implicit-check-not=tile.convert_layout
// RUN: tile-opt %{examples}/online_softmax.mlir -tile-assign-layouts \
// RUN:   | FileCheck %s --check-prefix=ONLINE --implicit-check-not=tile.convert_layout
// RUN: tile-opt %{examples}/matmul.mlir -tile-assign-layouts \
// RUN:   | FileCheck %s --check-prefix=MATMUL --implicit-check-not=tile.convert_layout

//===----------------------------------------------------------------------===//
// Default 1-d layouts: 4 f32 per thread, 32 lanes, the kernel's warps.
//===----------------------------------------------------------------------===//

// CHECK: #[[$B:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @vector_1d_4_warps(
// CHECK:         tile.range 0, 1024 : tensor<1024xi32, #[[$B]]>
// CHECK:         tile.splat %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[$B]]>
// CHECK:         tile.addptr %{{.*}}, %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[$B]]>, tensor<1024xi32, #[[$B]]>
// CHECK:         tile.load %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[$B]]>
// CHECK:         math.exp %{{.*}} : tensor<1024xf32, #[[$B]]>
// CHECK:         tile.store %{{.*}}, %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[$B]]>
func.func @vector_1d_4_warps(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = tile.range 0, 1024 : tensor<1024xi32>
  %b = tile.splat %p : tensor<1024x!tile.ptr<f32>>
  %ptrs = tile.addptr %b, %r : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %x = tile.load %ptrs : tensor<1024x!tile.ptr<f32>>
  %y = math.exp %x : tensor<1024xf32>
  tile.store %ptrs, %y : tensor<1024x!tile.ptr<f32>>
  return
}

// -----

// Without tile.num_warps a kernel has 4 warps.
// CHECK: #[[$B:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @vector_1d_default_warps(
// CHECK:         tile.load %{{.*}} : tensor<512x!tile.ptr<f32>, #[[$B]]>
func.func @vector_1d_default_warps(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = tile.range 0, 512 : tensor<512xi32>
  %b = tile.splat %p : tensor<512x!tile.ptr<f32>>
  %ptrs = tile.addptr %b, %r : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  %x = tile.load %ptrs : tensor<512x!tile.ptr<f32>>
  tile.store %ptrs, %x : tensor<512x!tile.ptr<f32>>
  return
}

// -----

// CHECK: #[[$B:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// CHECK-LABEL: func.func @vector_1d_8_warps(
// CHECK:         tile.load %{{.*}} : tensor<4096x!tile.ptr<f32>, #[[$B]]>
func.func @vector_1d_8_warps(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 8 : i32} {
  %r = tile.range 0, 4096 : tensor<4096xi32>
  %b = tile.splat %p : tensor<4096x!tile.ptr<f32>>
  %ptrs = tile.addptr %b, %r : tensor<4096x!tile.ptr<f32>>, tensor<4096xi32>
  %x = tile.load %ptrs : tensor<4096x!tile.ptr<f32>>
  tile.store %ptrs, %x : tensor<4096x!tile.ptr<f32>>
  return
}

// -----

// CHECK: #[[$B:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK-LABEL: func.func @vector_1d_1_warp(
// CHECK:         tile.load %{{.*}} : tensor<256x!tile.ptr<f32>, #[[$B]]>
func.func @vector_1d_1_warp(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.range 0, 256 : tensor<256xi32>
  %b = tile.splat %p : tensor<256x!tile.ptr<f32>>
  %ptrs = tile.addptr %b, %r : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %x = tile.load %ptrs : tensor<256x!tile.ptr<f32>>
  tile.store %ptrs, %x : tensor<256x!tile.ptr<f32>>
  return
}

// -----

// A tile smaller than the CTA: 16 elements in 4 per thread need 4 lanes; the
// other lanes and warps hold copies (lanes along the fastest dimension,
// warps along the slowest).
// CHECK: #[[$B:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @vector_1d_tiny(
// CHECK:         tile.load %{{.*}} : tensor<16x!tile.ptr<f32>, #[[$B]]>
func.func @vector_1d_tiny(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = tile.range 0, 16 : tensor<16xi32>
  %b = tile.splat %p : tensor<16x!tile.ptr<f32>>
  %ptrs = tile.addptr %b, %r : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  %x = tile.load %ptrs : tensor<16x!tile.ptr<f32>>
  tile.store %ptrs, %x : tensor<16x!tile.ptr<f32>>
  return
}

// -----

// Fewer elements than sizePerThread: a 2-element tile holds 2 per thread.
// CHECK: #[[$B:.*]] = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
// CHECK-LABEL: func.func @vector_1d_two(
// CHECK:         tile.load %{{.*}} : tensor<2x!tile.ptr<f32>, #[[$B]]>
func.func @vector_1d_two(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 2 : i32} {
  %r = tile.range 0, 2 : tensor<2xi32>
  %b = tile.splat %p : tensor<2x!tile.ptr<f32>>
  %ptrs = tile.addptr %b, %r : tensor<2x!tile.ptr<f32>>, tensor<2xi32>
  %x = tile.load %ptrs : tensor<2x!tile.ptr<f32>>
  tile.store %ptrs, %x : tensor<2x!tile.ptr<f32>>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Element types: 16 bytes per thread along the fastest dimension, for the
// widest element the group loads or stores (the pointee of its tiles of
// pointers and block pointers).
//===----------------------------------------------------------------------===//

// Block pointers carry no offset tiles: f16 gets 8 per thread, i8 16, f64 2.
// CHECK-DAG: #[[$F16:.*]] = #tile.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$I8:.*]] = #tile.blocked<{sizePerThread = [16], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// CHECK-DAG: #[[$F64:.*]] = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK-LABEL: func.func @block_1d_f16(
// CHECK:         tile.make_block_ptr {{.*}} : !tile.block_ptr<tensor<1024xf16, #[[$F16]]>>
// CHECK:         tile.block_load %{{.*}} : !tile.block_ptr<tensor<1024xf16, #[[$F16]]>>
// CHECK:         arith.addf %{{.*}}, %{{.*}} : tensor<1024xf16, #[[$F16]]>
func.func @block_1d_f16(%p: !tile.ptr<f16>, %n: i64) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %bp = tile.make_block_ptr %p, [%n], [%c1], [%c0] order = [0] : !tile.block_ptr<tensor<1024xf16>>
  %x = tile.block_load %bp check = [0] : !tile.block_ptr<tensor<1024xf16>>
  %y = arith.addf %x, %x : tensor<1024xf16>
  tile.block_store %bp, %y check = [0] : !tile.block_ptr<tensor<1024xf16>>
  return
}
// CHECK-LABEL: func.func @block_1d_i8(
// CHECK:         tile.block_load %{{.*}} : !tile.block_ptr<tensor<4096xi8, #[[$I8]]>>
func.func @block_1d_i8(%p: !tile.ptr<i8>, %n: i64) attributes {tile.kernel, tile.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %bp = tile.make_block_ptr %p, [%n], [%c1], [%c0] order = [0] : !tile.block_ptr<tensor<4096xi8>>
  %x = tile.block_load %bp : !tile.block_ptr<tensor<4096xi8>>
  tile.block_store %bp, %x : !tile.block_ptr<tensor<4096xi8>>
  return
}
// CHECK-LABEL: func.func @block_1d_f64(
// CHECK:         tile.block_load %{{.*}} : !tile.block_ptr<tensor<64xf64, #[[$F64]]>>
func.func @block_1d_f64(%p: !tile.ptr<f64>, %n: i64) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %bp = tile.make_block_ptr %p, [%n], [%c1], [%c0] order = [0] : !tile.block_ptr<tensor<64xf64>>
  %x = tile.block_load %bp : !tile.block_ptr<tensor<64xf64>>
  tile.block_store %bp, %x : !tile.block_ptr<tensor<64xf64>>
  return
}

// -----

// 2-d blocks: the vector along the fastest (last) dimension, then lanes, then
// warps along the rows.
// CHECK-DAG: #[[$F16:.*]] = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$I8:.*]] = #tile.blocked<{sizePerThread = [1, 16], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @block_2d_f16(
// CHECK:         tile.block_load %{{.*}} : !tile.block_ptr<tensor<64x64xf16, #[[$F16]]>>
func.func @block_2d_f16(%p: !tile.ptr<f16>, %n: i64) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %bp = tile.make_block_ptr %p, [%n, %n], [%n, %c1], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  %x = tile.block_load %bp : !tile.block_ptr<tensor<64x64xf16>>
  tile.block_store %bp, %x : !tile.block_ptr<tensor<64x64xf16>>
  return
}
// CHECK-LABEL: func.func @block_2d_i8(
// CHECK:         tile.block_load %{{.*}} : !tile.block_ptr<tensor<32x128xi8, #[[$I8]]>>
func.func @block_2d_i8(%p: !tile.ptr<i8>, %n: i64) attributes {tile.kernel, tile.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %bp = tile.make_block_ptr %p, [%n, %n], [%n, %c1], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<32x128xi8>>
  %x = tile.block_load %bp : !tile.block_ptr<tensor<32x128xi8>>
  tile.block_store %bp, %x : !tile.block_ptr<tensor<32x128xi8>>
  return
}

// -----

// Tiles of pointers: the width follows the pointee, not the i32 or i64
// offsets in the same group: f16 gets 8 per thread, i8 16, f32 4 (also with
// i64 offsets).
// CHECK-DAG: #[[$F16:.*]] = #tile.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$I8:.*]] = #tile.blocked<{sizePerThread = [16], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[$F32:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @pointers_f16_i32_offsets(
// CHECK:         tile.range 0, 1024 : tensor<1024xi32, #[[$F16]]>
// CHECK:         tile.load %{{.*}} : tensor<1024x!tile.ptr<f16>, #[[$F16]]>
func.func @pointers_f16_i32_offsets(%p: !tile.ptr<f16>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = tile.range 0, 1024 : tensor<1024xi32>
  %b = tile.splat %p : tensor<1024x!tile.ptr<f16>>
  %ptrs = tile.addptr %b, %r : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  %x = tile.load %ptrs : tensor<1024x!tile.ptr<f16>>
  tile.store %ptrs, %x : tensor<1024x!tile.ptr<f16>>
  return
}
// CHECK-LABEL: func.func @pointers_i8_i32_offsets(
// CHECK:         tile.load %{{.*}} : tensor<1024x!tile.ptr<i8>, #[[$I8]]>
func.func @pointers_i8_i32_offsets(%p: !tile.ptr<i8>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = tile.range 0, 1024 : tensor<1024xi32>
  %b = tile.splat %p : tensor<1024x!tile.ptr<i8>>
  %ptrs = tile.addptr %b, %r : tensor<1024x!tile.ptr<i8>>, tensor<1024xi32>
  %x = tile.load %ptrs : tensor<1024x!tile.ptr<i8>>
  tile.store %ptrs, %x : tensor<1024x!tile.ptr<i8>>
  return
}
// CHECK-LABEL: func.func @pointers_f32_i64_offsets(
// CHECK:         arith.extsi %{{.*}} : tensor<1024xi32, #[[$F32]]> to tensor<1024xi64, #[[$F32]]>
// CHECK:         tile.load %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[$F32]]>
func.func @pointers_f32_i64_offsets(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = tile.range 0, 1024 : tensor<1024xi32>
  %r64 = arith.extsi %r : tensor<1024xi32> to tensor<1024xi64>
  %b = tile.splat %p : tensor<1024x!tile.ptr<f32>>
  %ptrs = tile.addptr %b, %r64 : tensor<1024x!tile.ptr<f32>>, tensor<1024xi64>
  %x = tile.load %ptrs : tensor<1024x!tile.ptr<f32>>
  tile.store %ptrs, %x : tensor<1024x!tile.ptr<f32>>
  return
}
// f16 loaded, f32 stored, tied by the extf: the widest pointee (f32) wins.
// CHECK-LABEL: func.func @pointers_f16_to_f32(
// CHECK:         tile.load %{{.*}} : tensor<1024x!tile.ptr<f16>, #[[$F32]]>
// CHECK:         arith.extf %{{.*}} : tensor<1024xf16, #[[$F32]]> to tensor<1024xf32, #[[$F32]]>
// CHECK:         tile.store %{{.*}}, %{{.*}} : tensor<1024x!tile.ptr<f32>, #[[$F32]]>
func.func @pointers_f16_to_f32(%p: !tile.ptr<f16>, %q: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = tile.range 0, 1024 : tensor<1024xi32>
  %b = tile.splat %p : tensor<1024x!tile.ptr<f16>>
  %ptrs = tile.addptr %b, %r : tensor<1024x!tile.ptr<f16>>, tensor<1024xi32>
  %x = tile.load %ptrs : tensor<1024x!tile.ptr<f16>>
  %y = arith.extf %x : tensor<1024xf16> to tensor<1024xf32>
  %r2 = tile.range 0, 1024 : tensor<1024xi32>
  %c = tile.splat %q : tensor<1024x!tile.ptr<f32>>
  %qtrs = tile.addptr %c, %r2 : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %qtrs, %y : tensor<1024x!tile.ptr<f32>>
  return
}
// A group that touches no memory gets 4 per thread (16 bytes of 32-bit
// values), whatever its element type.
// CHECK-LABEL: func.func @no_memory(
// CHECK:         arith.trunci %{{.*}} : tensor<1024xi32, #[[$F32]]> to tensor<1024xi8, #[[$F32]]>
// CHECK:         tile.reduce sum %{{.*}} axis = 0 : tensor<1024xi8, #[[$F32]]> -> i8
func.func @no_memory(%p: !tile.ptr<i8>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = tile.range 0, 1024 : tensor<1024xi32>
  %t = arith.trunci %r : tensor<1024xi32> to tensor<1024xi8>
  %s = tile.reduce sum %t axis = 0 : tensor<1024xi8> -> i8
  tile.store %p, %s : !tile.ptr<i8>
  return
}

// -----

//===----------------------------------------------------------------------===//
// 2-d layouts and the block pointer's order
//===----------------------------------------------------------------------===//

// Without a block pointer the last dimension is the fastest.
// CHECK-DAG: #[[$W1:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
// CHECK-DAG: #[[$W8:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @tile_2d_1_warp(
// CHECK:         tile.broadcast %{{.*}} : tensor<16x1xi32, #[[$W1]]> -> tensor<16x16xi32, #[[$W1]]>
// CHECK:         tile.load %{{.*}} : tensor<16x16x!tile.ptr<f32>, #[[$W1]]>
func.func @tile_2d_1_warp(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %c = arith.constant dense<16> : tensor<16x1xi32>
  %row = tile.range 0, 16 : tensor<16xi32>
  %col = tile.range 0, 16 : tensor<16xi32>
  %r2 = tile.expand_dims %row axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %rs = arith.muli %r2, %c : tensor<16x1xi32>
  %c2 = tile.expand_dims %col axis = 0 : tensor<16xi32> -> tensor<1x16xi32>
  %rb = tile.broadcast %rs : tensor<16x1xi32> -> tensor<16x16xi32>
  %cb = tile.broadcast %c2 : tensor<1x16xi32> -> tensor<16x16xi32>
  %offs = arith.addi %rb, %cb : tensor<16x16xi32>
  %b = tile.splat %p : tensor<16x16x!tile.ptr<f32>>
  %ptrs = tile.addptr %b, %offs : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xi32>
  %x = tile.load %ptrs : tensor<16x16x!tile.ptr<f32>>
  tile.store %ptrs, %x : tensor<16x16x!tile.ptr<f32>>
  return
}
// CHECK-LABEL: func.func @tile_2d_8_warps(
// CHECK:         tile.splat %{{.*}} : tensor<128x128xf32, #[[$W8]]>
func.func @tile_2d_8_warps(%p: !tile.ptr<f32>, %v: f32, %n: i64) attributes {tile.kernel, tile.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %x = tile.splat %v : tensor<128x128xf32>
  %bp = tile.make_block_ptr %p, [%n, %n], [%n, %c1], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<128x128xf32>>
  tile.block_store %bp, %x : !tile.block_ptr<tensor<128x128xf32>>
  return
}

// -----

// order = [0, 1]: dimension 0 is the fastest (a column-major array): the
// vector, the lanes and then the warps go along it.
// CHECK-DAG: #[[$COL:.*]] = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: #[[$ROW:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @block_order(
// CHECK:         tile.make_block_ptr {{.*}} order = [0, 1] : !tile.block_ptr<tensor<64x32xf32, #[[$COL]]>>
// CHECK:         tile.block_load %{{.*}} : !tile.block_ptr<tensor<64x32xf32, #[[$COL]]>>
// CHECK:         tile.make_block_ptr {{.*}} order = [1, 0] : !tile.block_ptr<tensor<64x32xf32, #[[$ROW]]>>
func.func @block_order(%p: !tile.ptr<f32>, %q: !tile.ptr<f32>, %n: i64) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %bp = tile.make_block_ptr %p, [%n, %n], [%c1, %n], [%c0, %c0] order = [0, 1] : !tile.block_ptr<tensor<64x32xf32>>
  %x = tile.block_load %bp : !tile.block_ptr<tensor<64x32xf32>>
  %bq = tile.make_block_ptr %q, [%n, %n], [%n, %c1], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x32xf32>>
  %y = tile.block_load %bq : !tile.block_ptr<tensor<64x32xf32>>
  tile.block_store %bp, %x : !tile.block_ptr<tensor<64x32xf32>>
  tile.block_store %bq, %y : !tile.block_ptr<tensor<64x32xf32>>
  return
}

// -----

// A value stored through a column-major block pointer takes its order even
// when computed elsewhere; its advance shares the layout.
// CHECK: #[[$COL:.*]] = #tile.blocked<{sizePerThread = [8, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [0, 1]}>
// CHECK-LABEL: func.func @block_order_store(
// CHECK:         tile.splat %{{.*}} : tensor<128x16xf16, #[[$COL]]>
// CHECK:         tile.advance %{{.*}}, [%{{.*}}, %{{.*}}] : !tile.block_ptr<tensor<128x16xf16, #[[$COL]]>>
func.func @block_order_store(%p: !tile.ptr<f16>, %v32: f32, %n: i64) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %c1 = arith.constant 1 : i64
  %v = arith.truncf %v32 : f32 to f16
  %x = tile.splat %v : tensor<128x16xf16>
  %bp = tile.make_block_ptr %p, [%n, %n], [%c1, %n], [%c0, %c0] order = [0, 1] : !tile.block_ptr<tensor<128x16xf16>>
  %bp2 = tile.advance %bp, [%c0, %c16] : !tile.block_ptr<tensor<128x16xf16>>
  tile.block_store %bp2, %x : !tile.block_ptr<tensor<128x16xf16>>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Slices: reduce results and expand_dims operands
//===----------------------------------------------------------------------===//

// A row reduction gives a slice of the source's layout along the reduced
// dimension, and expanding it back along the same dimension gives the
// source's layout again: no conversion.
// CHECK: #[[$B:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[$S1:.*]] = #tile.slice<{dim = 1, parent = #[[$B]]}>
// CHECK-LABEL: func.func @reduce_and_expand(
// CHECK:         tile.reduce max %{{.*}} axis = 1 : tensor<64x64xf32, #[[$B]]> -> tensor<64xf32, #[[$S1]]>
// CHECK:         arith.mulf %{{.*}}, %{{.*}} : tensor<64xf32, #[[$S1]]>
// CHECK:         tile.expand_dims %{{.*}} axis = 1 : tensor<64xf32, #[[$S1]]> -> tensor<64x1xf32, #[[$B]]>
// CHECK:         tile.broadcast %{{.*}} : tensor<64x1xf32, #[[$B]]> -> tensor<64x64xf32, #[[$B]]>
// CHECK:         arith.subf %{{.*}}, %{{.*}} : tensor<64x64xf32, #[[$B]]>
// CHECK-NOT:     tile.convert_layout
// A 1-d reduction gives a scalar, which has no layout.
// CHECK:         tile.reduce sum %{{.*}} axis = 0 : tensor<64xf32, #[[$S1]]> -> f32
func.func @reduce_and_expand(%p: !tile.ptr<f32>, %n: i64) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %bp = tile.make_block_ptr %p, [%n, %n], [%n, %c1], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  %x = tile.block_load %bp : !tile.block_ptr<tensor<64x64xf32>>
  %m = tile.reduce max %x axis = 1 : tensor<64x64xf32> -> tensor<64xf32>
  %m2 = arith.mulf %m, %m : tensor<64xf32>
  %mc = tile.expand_dims %m2 axis = 1 : tensor<64xf32> -> tensor<64x1xf32>
  %mb = tile.broadcast %mc : tensor<64x1xf32> -> tensor<64x64xf32>
  %y = arith.subf %x, %mb : tensor<64x64xf32>
  tile.block_store %bp, %y : !tile.block_ptr<tensor<64x64xf32>>
  %s = tile.reduce sum %m2 axis = 0 : tensor<64xf32> -> f32
  %sp = tile.addptr %p, %c0 : !tile.ptr<f32>, i32
  tile.store %sp, %s : !tile.ptr<f32>
  return
}

// -----

// A column reduction: a slice along dimension 0.
// CHECK: #[[$B:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[$S0:.*]] = #tile.slice<{dim = 0, parent = #[[$B]]}>
// CHECK-LABEL: func.func @reduce_columns(
// CHECK:         tile.reduce sum %{{.*}} axis = 0 : tensor<32x32xf32, #[[$B]]> -> tensor<32xf32, #[[$S0]]>
// CHECK:         tile.expand_dims %{{.*}} axis = 0 : tensor<32xf32, #[[$S0]]> -> tensor<1x32xf32, #[[$B]]>
func.func @reduce_columns(%p: !tile.ptr<f32>, %n: i64) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %bp = tile.make_block_ptr %p, [%n, %n], [%n, %c1], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<32x32xf32>>
  %x = tile.block_load %bp : !tile.block_ptr<tensor<32x32xf32>>
  %s = tile.reduce sum %x axis = 0 : tensor<32x32xf32> -> tensor<32xf32>
  %sc = tile.expand_dims %s axis = 0 : tensor<32xf32> -> tensor<1x32xf32>
  %sb = tile.broadcast %sc : tensor<1x32xf32> -> tensor<32x32xf32>
  %y = arith.divf %x, %sb : tensor<32x32xf32>
  tile.block_store %bp, %y : !tile.block_ptr<tensor<32x32xf32>>
  return
}

// -----

// Slices of slices: a 3-d reduction twice.
// CHECK: #[[$B:.*]] = #tile.blocked<{sizePerThread = [1, 1, 4], threadsPerWarp = [1, 8, 4], warpsPerCTA = [2, 1, 1], order = [2, 1, 0]}>
// CHECK: #[[$S2:.*]] = #tile.slice<{dim = 2, parent = #[[$B]]}>
// CHECK: #[[$S20:.*]] = #tile.slice<{dim = 0, parent = #[[$S2]]}>
// CHECK-LABEL: func.func @reduce_3d(
// CHECK:         tile.reduce sum %{{.*}} axis = 2 : tensor<2x8x16xf32, #[[$B]]> -> tensor<2x8xf32, #[[$S2]]>
// CHECK:         tile.reduce max %{{.*}} axis = 0 : tensor<2x8xf32, #[[$S2]]> -> tensor<8xf32, #[[$S20]]>
// CHECK:         tile.expand_dims %{{.*}} axis = 0 : tensor<8xf32, #[[$S20]]> -> tensor<1x8xf32, #[[$S2]]>
func.func @reduce_3d(%p: !tile.ptr<f32>, %n: i64) attributes {tile.kernel, tile.num_warps = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %bp = tile.make_block_ptr %p, [%n, %n, %n], [%n, %n, %c1], [%c0, %c0, %c0] order = [2, 1, 0] : !tile.block_ptr<tensor<2x8x16xf32>>
  %x = tile.block_load %bp : !tile.block_ptr<tensor<2x8x16xf32>>
  %s = tile.reduce sum %x axis = 2 : tensor<2x8x16xf32> -> tensor<2x8xf32>
  %m = tile.reduce max %s axis = 0 : tensor<2x8xf32> -> tensor<8xf32>
  %me = tile.expand_dims %m axis = 0 : tensor<8xf32> -> tensor<1x8xf32>
  %mb = tile.broadcast %me : tensor<1x8xf32> -> tensor<2x8xf32>
  %d = arith.subf %s, %mb : tensor<2x8xf32>
  %t = tile.reduce sum %d axis = 1 : tensor<2x8xf32> -> tensor<2xf32>
  %u = tile.reduce sum %t axis = 0 : tensor<2xf32> -> f32
  tile.store %p, %u : !tile.ptr<f32>
  return
}

// -----

// expand_dims operands are slices of the result's layout. One range used
// for rows and for columns is duplicated first, so each copy can be the
// slice its user needs (rows: dim 1, columns: dim 0) without a conversion.
// CHECK: #[[$B:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$S1:.*]] = #tile.slice<{dim = 1, parent = #[[$B]]}>
// CHECK-DAG: #[[$S0:.*]] = #tile.slice<{dim = 0, parent = #[[$B]]}>
// CHECK-LABEL: func.func @expand_rows_and_columns(
// CHECK-DAG:     %[[R1:.*]] = tile.range 0, 32 : tensor<32xi32, #[[$S1]]>
// CHECK-DAG:     %[[R0:.*]] = tile.range 0, 32 : tensor<32xi32, #[[$S0]]>
// CHECK:         tile.expand_dims %[[R1]] axis = 1 : tensor<32xi32, #[[$S1]]> -> tensor<32x1xi32, #[[$B]]>
// CHECK:         tile.expand_dims %[[R0]] axis = 0 : tensor<32xi32, #[[$S0]]> -> tensor<1x32xi32, #[[$B]]>
// CHECK-NOT:     tile.convert_layout
// CHECK:         return
// CLEAN-LABEL: func.func @expand_rows_and_columns(
// CLEAN-COUNT-2: tile.range 0, 32
// CLEAN-NOT:     tile.range
// CLEAN-NOT:     tile.convert_layout
// CLEAN:         return
func.func @expand_rows_and_columns(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = tile.range 0, 32 : tensor<32xi32>
  %rows = tile.expand_dims %r axis = 1 : tensor<32xi32> -> tensor<32x1xi32>
  %cols = tile.expand_dims %r axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %stride = arith.constant dense<32> : tensor<32x1xi32>
  %roffs = arith.muli %rows, %stride : tensor<32x1xi32>
  %rb = tile.broadcast %roffs : tensor<32x1xi32> -> tensor<32x32xi32>
  %cb = tile.broadcast %cols : tensor<1x32xi32> -> tensor<32x32xi32>
  %offs = arith.addi %rb, %cb : tensor<32x32xi32>
  %b = tile.splat %p : tensor<32x32x!tile.ptr<f32>>
  %ptrs = tile.addptr %b, %offs : tensor<32x32x!tile.ptr<f32>>, tensor<32x32xi32>
  %x = tile.load %ptrs : tensor<32x32x!tile.ptr<f32>>
  tile.store %ptrs, %x : tensor<32x32x!tile.ptr<f32>>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Accesses the axis analysis cannot prove 16-byte wide
//===----------------------------------------------------------------------===//

// Rows at a stride of 16 bytes (tile.divisibility = 4 f32 elements) start
// 16-byte aligned: 4 f32 per thread, one vector access each.
// CHECK: #[[$B:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @rows_aligned_stride(
// CHECK:         tile.load %{{.*}} : tensor<4x512x!tile.ptr<f32>, #[[$B]]>
func.func @rows_aligned_stride(%p: !tile.ptr<f32>, %stride: i32 {tile.divisibility = 4 : i64}) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %rows = tile.range 0, 4 : tensor<4xi32>
  %s = tile.splat %stride : tensor<4xi32>
  %roff = arith.muli %rows, %s : tensor<4xi32>
  %r2 = tile.expand_dims %roff axis = 1 : tensor<4xi32> -> tensor<4x1xi32>
  %rb = tile.broadcast %r2 : tensor<4x1xi32> -> tensor<4x512xi32>
  %cols = tile.range 0, 512 : tensor<512xi32>
  %c2 = tile.expand_dims %cols axis = 0 : tensor<512xi32> -> tensor<1x512xi32>
  %cb = tile.broadcast %c2 : tensor<1x512xi32> -> tensor<4x512xi32>
  %off = arith.addi %rb, %cb : tensor<4x512xi32>
  %b = tile.splat %p : tensor<4x512x!tile.ptr<f32>>
  %ptrs = tile.addptr %b, %off : tensor<4x512x!tile.ptr<f32>>, tensor<4x512xi32>
  %x = tile.load %ptrs : tensor<4x512x!tile.ptr<f32>>
  tile.store %ptrs, %x : tensor<4x512x!tile.ptr<f32>>
  return
}

// -----

// Rows at any stride: each thread would access 4 consecutive elements one
// by one, so a warp's access would touch a sector per lane; one element per
// lane keeps a warp's scalar accesses coalesced.
// CHECK: #[[$B:.*]] = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @rows_any_stride(
// CHECK:         tile.load %{{.*}} : tensor<4x512x!tile.ptr<f32>, #[[$B]]>
// CHECK:         tile.store %{{.*}}, %{{.*}} : tensor<4x512x!tile.ptr<f32>, #[[$B]]>
func.func @rows_any_stride(%p: !tile.ptr<f32>, %stride: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %rows = tile.range 0, 4 : tensor<4xi32>
  %s = tile.splat %stride : tensor<4xi32>
  %roff = arith.muli %rows, %s : tensor<4xi32>
  %r2 = tile.expand_dims %roff axis = 1 : tensor<4xi32> -> tensor<4x1xi32>
  %rb = tile.broadcast %r2 : tensor<4x1xi32> -> tensor<4x512xi32>
  %cols = tile.range 0, 512 : tensor<512xi32>
  %c2 = tile.expand_dims %cols axis = 0 : tensor<512xi32> -> tensor<1x512xi32>
  %cb = tile.broadcast %c2 : tensor<1x512xi32> -> tensor<4x512xi32>
  %off = arith.addi %rb, %cb : tensor<4x512xi32>
  %b = tile.splat %p : tensor<4x512x!tile.ptr<f32>>
  %ptrs = tile.addptr %b, %off : tensor<4x512x!tile.ptr<f32>>, tensor<4x512xi32>
  %x = tile.load %ptrs : tensor<4x512x!tile.ptr<f32>>
  tile.store %ptrs, %x : tensor<4x512x!tile.ptr<f32>>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Loops and conditionals
//===----------------------------------------------------------------------===//

// Loop-carried values share one layout with their init value, the region
// argument, the yielded value and the loop result. (The pointers advance by
// %n elements, not provably 16-byte aligned: one element per lane.)
// CHECK: #[[$B:.*]] = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// CHECK-LABEL: func.func @loop(
// CHECK:         %[[INIT:.*]] = arith.constant dense<0.000000e+00> : tensor<256xf32, #[[$B]]>
// CHECK:         %[[PTRS:.*]] = tile.addptr %{{.*}}, %{{.*}} : tensor<256x!tile.ptr<f32>, #[[$B]]>, tensor<256xi32, #[[$B]]>
// CHECK:         %[[RES:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %[[INIT]], %[[Q:.*]] = %[[PTRS]]) -> (tensor<256xf32, #[[$B]]>, tensor<256x!tile.ptr<f32>, #[[$B]]>)
// CHECK:           %[[X:.*]] = tile.load %[[Q]] : tensor<256x!tile.ptr<f32>, #[[$B]]>
// CHECK:           %[[S:.*]] = arith.addf %[[A]], %[[X]] : tensor<256xf32, #[[$B]]>
// CHECK:           %[[Q2:.*]] = tile.addptr %[[Q]], %{{.*}} : tensor<256x!tile.ptr<f32>, #[[$B]]>, tensor<256xi32, #[[$B]]>
// CHECK:           scf.yield %[[S]], %[[Q2]] : tensor<256xf32, #[[$B]]>, tensor<256x!tile.ptr<f32>, #[[$B]]>
// CHECK:         tile.store %[[PTRS]], %[[RES]]#0 : tensor<256x!tile.ptr<f32>, #[[$B]]>
func.func @loop(%p: !tile.ptr<f32>, %n: i32) attributes {tile.kernel, tile.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %init = arith.constant dense<0.0> : tensor<256xf32>
  %r = tile.range 0, 256 : tensor<256xi32>
  %b = tile.splat %p : tensor<256x!tile.ptr<f32>>
  %ptrs = tile.addptr %b, %r : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
  %acc, %pp = scf.for %i = %c0 to %n step %c1 iter_args(%a = %init, %q = %ptrs) -> (tensor<256xf32>, tensor<256x!tile.ptr<f32>>) : i32 {
    %x = tile.load %q : tensor<256x!tile.ptr<f32>>
    %s = arith.addf %a, %x : tensor<256xf32>
    %step = tile.splat %n : tensor<256xi32>
    %q2 = tile.addptr %q, %step : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
    scf.yield %s, %q2 : tensor<256xf32>, tensor<256x!tile.ptr<f32>>
  }
  tile.store %ptrs, %acc : tensor<256x!tile.ptr<f32>>
  return
}

// -----

// A loop-carried block pointer with a column-fastest order: the order
// reaches the accumulator through the loop. A reduction inside the loop
// slices the carried layout.
// CHECK: #[[$B:.*]] = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK: #[[$S:.*]] = #tile.slice<{dim = 1, parent = #[[$B]]}>
// CHECK-LABEL: func.func @loop_block_pointer(
// CHECK:         scf.for {{.*}} -> (tensor<64x64xf32, #[[$B]]>, tensor<64xf32, #[[$S]]>, !tile.block_ptr<tensor<64x64xf32, #[[$B]]>>)
// CHECK:           tile.reduce max %{{.*}} axis = 1 : tensor<64x64xf32, #[[$B]]> -> tensor<64xf32, #[[$S]]>
func.func @loop_block_pointer(%p: !tile.ptr<f32>, %n: i64, %k: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
  %m0 = arith.constant dense<0xFF800000> : tensor<64xf32>
  %bp0 = tile.make_block_ptr %p, [%n, %n], [%one, %n], [%c0, %c0] order = [0, 1] : !tile.block_ptr<tensor<64x64xf32>>
  %acc, %m, %bp = scf.for %i = %c0 to %k step %c1 iter_args(%a = %acc0, %mm = %m0, %q = %bp0)
      -> (tensor<64x64xf32>, tensor<64xf32>, !tile.block_ptr<tensor<64x64xf32>>) : i32 {
    %x = tile.block_load %q : !tile.block_ptr<tensor<64x64xf32>>
    %s = arith.addf %a, %x : tensor<64x64xf32>
    %bm = tile.reduce max %x axis = 1 : tensor<64x64xf32> -> tensor<64xf32>
    %mn = arith.maximumf %mm, %bm : tensor<64xf32>
    %q2 = tile.advance %q, [%c0, %c64] : !tile.block_ptr<tensor<64x64xf32>>
    scf.yield %s, %mn, %q2 : tensor<64x64xf32>, tensor<64xf32>, !tile.block_ptr<tensor<64x64xf32>>
  }
  tile.block_store %bp0, %acc : !tile.block_ptr<tensor<64x64xf32>>
  return
}

// -----

// scf.if results share the layout of both yields.
// CHECK: #[[$B:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
// CHECK-LABEL: func.func @conditional(
// CHECK:         scf.if %{{.*}} -> (tensor<128xf32, #[[$B]]>)
// CHECK:           scf.yield %{{.*}} : tensor<128xf32, #[[$B]]>
// CHECK:           math.exp %{{.*}} : tensor<128xf32, #[[$B]]>
// CHECK:           scf.yield %{{.*}} : tensor<128xf32, #[[$B]]>
func.func @conditional(%p: !tile.ptr<f32>, %c: i1) attributes {tile.kernel, tile.num_warps = 2 : i32} {
  %r = tile.range 0, 128 : tensor<128xi32>
  %b = tile.splat %p : tensor<128x!tile.ptr<f32>>
  %ptrs = tile.addptr %b, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %x = tile.load %ptrs : tensor<128x!tile.ptr<f32>>
  %y = scf.if %c -> (tensor<128xf32>) {
    scf.yield %x : tensor<128xf32>
  } else {
    %e = math.exp %x : tensor<128xf32>
    scf.yield %e : tensor<128xf32>
  }
  tile.store %ptrs, %y : tensor<128x!tile.ptr<f32>>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Cheap producers are duplicated per use
//===----------------------------------------------------------------------===//

// One constant used by two groups of different orders: each use gets its own
// copy in its group's layout, so the groups keep their own layouts (a shared
// constant would have tied them into one). -cse keeps both copies: their
// types differ.
// CHECK-DAG: #[[$ROW:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$COL:.*]] = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: func.func @shared_constant(
// CHECK-DAG:     %[[C1:.*]] = arith.constant dense<1.000000e+00> : tensor<64x64xf32, #[[$ROW]]>
// CHECK-DAG:     %[[C2:.*]] = arith.constant dense<1.000000e+00> : tensor<64x64xf32, #[[$COL]]>
// CHECK:         arith.addf %{{.*}}, %[[C1]] : tensor<64x64xf32, #[[$ROW]]>
// CHECK:         arith.addf %{{.*}}, %[[C2]] : tensor<64x64xf32, #[[$COL]]>
// CHECK-NOT:     tile.convert_layout
// CHECK:         return
// CLEAN-LABEL: func.func @shared_constant(
// CLEAN-COUNT-2: arith.constant dense<1.000000e+00>
// CLEAN-NOT:     arith.constant dense
// CLEAN:         return
func.func @shared_constant(%p: !tile.ptr<f32>, %q: !tile.ptr<f32>, %n: i64) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %one = arith.constant dense<1.0> : tensor<64x64xf32>
  %bp = tile.make_block_ptr %p, [%n, %n], [%n, %c1], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  %bq = tile.make_block_ptr %q, [%n, %n], [%c1, %n], [%c0, %c0] order = [0, 1] : !tile.block_ptr<tensor<64x64xf32>>
  %x = tile.block_load %bp : !tile.block_ptr<tensor<64x64xf32>>
  %y = tile.block_load %bq : !tile.block_ptr<tensor<64x64xf32>>
  %x1 = arith.addf %x, %one : tensor<64x64xf32>
  %y1 = arith.addf %y, %one : tensor<64x64xf32>
  tile.block_store %bp, %x1 : !tile.block_ptr<tensor<64x64xf32>>
  tile.block_store %bq, %y1 : !tile.block_ptr<tensor<64x64xf32>>
  return
}

// -----

// A splat and a range with several uses in one group: one copy per use
// (the original first), which -cse merges back.
// CHECK: #[[$B:.*]] = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK-LABEL: func.func @shared_splat(
// CHECK-COUNT-3: tile.splat %{{.*}} : tensor<128xf32, #[[$B]]>
// CHECK-NOT:     tile.splat %{{.*}} : tensor<128xf32
// CHECK-COUNT-2: tile.range 0, 128 : tensor<128xi32, #[[$B]]>
// CLEAN-LABEL: func.func @shared_splat(
// CLEAN-COUNT-1: tile.splat %{{.*}} : tensor<128xf32
// CLEAN-NOT:     tile.splat %{{.*}} : tensor<128xf32
// CLEAN-COUNT-1: tile.range
// CLEAN-NOT:     tile.range
// CLEAN:         return
func.func @shared_splat(%p: !tile.ptr<f32>, %v: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %s = tile.splat %v : tensor<128xf32>
  %r = tile.range 0, 128 : tensor<128xi32>
  %b = tile.splat %p : tensor<128x!tile.ptr<f32>>
  %ptrs = tile.addptr %b, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %x = tile.load %ptrs : tensor<128x!tile.ptr<f32>>
  %y = arith.addf %x, %s : tensor<128xf32>
  %z = arith.mulf %y, %s : tensor<128xf32>
  %w = arith.subf %z, %s : tensor<128xf32>
  %b2 = tile.splat %p : tensor<128x!tile.ptr<f32>>
  %ptrs2 = tile.addptr %b2, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  tile.store %ptrs2, %w : tensor<128x!tile.ptr<f32>>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Conflicts: a conversion where two slice constraints disagree
//===----------------------------------------------------------------------===//

// %s is the result of a column reduction (a slice along dimension 0 of the
// loaded block's layout) but is expanded along dimension 1 (it must be a
// slice along dimension 1 of the expanded value's layout). The first
// constraint met (the reduce) wins; the expand_dims operand goes through a
// tile.convert_layout. The conversion is genuine: the cleanup passes keep it.
// CHECK: #[[$B:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$S0:.*]] = #tile.slice<{dim = 0, parent = #[[$B]]}>
// CHECK-DAG: #[[$S1:.*]] = #tile.slice<{dim = 1, parent = #[[$B]]}>
// CHECK-LABEL: func.func @conflict_at_expand(
// CHECK:         %[[S:.*]] = tile.reduce sum %{{.*}} axis = 0 : tensor<64x64xf32, #[[$B]]> -> tensor<64xf32, #[[$S0]]>
// CHECK-NEXT:    %[[C:.*]] = tile.convert_layout %[[S]] : tensor<64xf32, #[[$S0]]> -> tensor<64xf32, #[[$S1]]>
// CHECK-NEXT:    tile.expand_dims %[[C]] axis = 1 : tensor<64xf32, #[[$S1]]> -> tensor<64x1xf32, #[[$B]]>
// CLEAN-LABEL: func.func @conflict_at_expand(
// CLEAN:         tile.convert_layout %{{.*}} : tensor<64xf32, #{{.*}}> -> tensor<64xf32, #{{.*}}>
func.func @conflict_at_expand(%p: !tile.ptr<f32>, %q: !tile.ptr<f32>, %n: i64) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %bp = tile.make_block_ptr %p, [%n, %n], [%n, %c1], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  %x = tile.block_load %bp : !tile.block_ptr<tensor<64x64xf32>>
  %s = tile.reduce sum %x axis = 0 : tensor<64x64xf32> -> tensor<64xf32>
  %sc = tile.expand_dims %s axis = 1 : tensor<64xf32> -> tensor<64x1xf32>
  %sb = tile.broadcast %sc : tensor<64x1xf32> -> tensor<64x64xf32>
  %bq = tile.make_block_ptr %q, [%n, %n], [%n, %c1], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  tile.block_store %bq, %sb : !tile.block_ptr<tensor<64x64xf32>>
  return
}

// -----

// The other way round: the group of %s1 (a row max, expanded along
// dimension 1 first) also holds %s2, a column sum of a column-major block,
// through the addf. The reduce of %s2 is the constraint that loses: it
// produces its own slice, converted to the group's layout.
// CHECK-DAG: #[[$ROW:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[$COL:.*]] = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: #[[$ROW1:.*]] = #tile.slice<{dim = 1, parent = #[[$ROW]]}>
// CHECK-DAG: #[[$COL0:.*]] = #tile.slice<{dim = 0, parent = #[[$COL]]}>
// CHECK-LABEL: func.func @conflict_at_reduce(
// CHECK:         %[[S1:.*]] = tile.reduce max %{{.*}} axis = 1 : tensor<64x64xf32, #[[$ROW]]> -> tensor<64xf32, #[[$ROW1]]>
// CHECK:         %[[S2:.*]] = tile.reduce sum %{{.*}} axis = 0 : tensor<64x64xf32, #[[$COL]]> -> tensor<64xf32, #[[$COL0]]>
// CHECK-NEXT:    %[[C:.*]] = tile.convert_layout %[[S2]] : tensor<64xf32, #[[$COL0]]> -> tensor<64xf32, #[[$ROW1]]>
// CHECK-NEXT:    arith.addf %[[S1]], %[[C]] : tensor<64xf32, #[[$ROW1]]>
// CHECK:         tile.expand_dims %{{.*}} axis = 1 : tensor<64xf32, #[[$ROW1]]> -> tensor<64x1xf32, #[[$ROW]]>
// CHECK-NOT:     tile.convert_layout
// CHECK:         return
func.func @conflict_at_reduce(%p: !tile.ptr<f32>, %q: !tile.ptr<f32>, %n: i64) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %bp = tile.make_block_ptr %p, [%n, %n], [%n, %c1], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  %x = tile.block_load %bp : !tile.block_ptr<tensor<64x64xf32>>
  %s1 = tile.reduce max %x axis = 1 : tensor<64x64xf32> -> tensor<64xf32>
  %e = tile.expand_dims %s1 axis = 1 : tensor<64xf32> -> tensor<64x1xf32>
  %bq = tile.make_block_ptr %q, [%n, %n], [%c1, %n], [%c0, %c0] order = [0, 1] : !tile.block_ptr<tensor<64x64xf32>>
  %y = tile.block_load %bq : !tile.block_ptr<tensor<64x64xf32>>
  %s2 = tile.reduce sum %y axis = 0 : tensor<64x64xf32> -> tensor<64xf32>
  %z = arith.addf %s1, %s2 : tensor<64xf32>
  %ze = tile.expand_dims %z axis = 1 : tensor<64xf32> -> tensor<64x1xf32>
  %zb = tile.broadcast %ze : tensor<64x1xf32> -> tensor<64x64xf32>
  tile.block_store %bp, %zb : !tile.block_ptr<tensor<64x64xf32>>
  return
}

// -----

// Two slices along the same dimension of different groups are no conflict:
// the two parent groups are merged (here a 16x16 and a 16x64 block) and get
// the layout of the largest shape.
// CHECK: #[[$B:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK: #[[$S:.*]] = #tile.slice<{dim = 1, parent = #[[$B]]}>
// CHECK-LABEL: func.func @merge_parents(
// CHECK:         tile.block_load %{{.*}} : !tile.block_ptr<tensor<16x16xf32, #[[$B]]>>
// CHECK:         tile.block_load %{{.*}} : !tile.block_ptr<tensor<16x64xf32, #[[$B]]>>
// CHECK:         tile.reduce max %{{.*}} axis = 1 : tensor<16x16xf32, #[[$B]]> -> tensor<16xf32, #[[$S]]>
// CHECK:         tile.expand_dims %{{.*}} axis = 1 : tensor<16xf32, #[[$S]]> -> tensor<16x1xf32, #[[$B]]>
// CHECK-NOT:     tile.convert_layout
// CHECK:         return
func.func @merge_parents(%p: !tile.ptr<f32>, %q: !tile.ptr<f32>, %n: i64) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %bp = tile.make_block_ptr %p, [%n, %n], [%n, %c1], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<16x16xf32>>
  %bq = tile.make_block_ptr %q, [%n, %n], [%n, %c1], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<16x64xf32>>
  %x = tile.block_load %bp : !tile.block_ptr<tensor<16x16xf32>>
  %v = tile.block_load %bq : !tile.block_ptr<tensor<16x64xf32>>
  %m = tile.reduce max %x axis = 1 : tensor<16x16xf32> -> tensor<16xf32>
  %me = tile.expand_dims %m axis = 1 : tensor<16xf32> -> tensor<16x1xf32>
  %mb = tile.broadcast %me : tensor<16x1xf32> -> tensor<16x64xf32>
  %y = arith.mulf %v, %mb : tensor<16x64xf32>
  tile.block_store %bq, %y : !tile.block_ptr<tensor<16x64xf32>>
  return
}

// -----

//===----------------------------------------------------------------------===//
// What the pass leaves alone
//===----------------------------------------------------------------------===//

// Functions that are not kernels keep their types; kernels without tiles
// are unchanged.
// CHECK-NOT: #tile.blocked
// CHECK-LABEL: func.func @not_a_kernel(
// CHECK-SAME:      %{{.*}}: tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT:    arith.addf %{{.*}}, %{{.*}} : tensor<16xf32>
// CHECK-LABEL: func.func @scalar_kernel(
// CHECK:         arith.addf %{{.*}}, %{{.*}} : f32
func.func @not_a_kernel(%x: tensor<16xf32>) -> tensor<16xf32> {
  %y = arith.addf %x, %x : tensor<16xf32>
  return %y : tensor<16xf32>
}
func.func @scalar_kernel(%p: !tile.ptr<f32>, %v: f32) attributes {tile.kernel} {
  %y = arith.addf %v, %v : f32
  tile.store %p, %y : !tile.ptr<f32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// The examples
//===----------------------------------------------------------------------===//

// SOFTMAX:      #blocked = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// SOFTMAX-NEXT: module {
// SOFTMAX-LABEL: func.func @softmax(
// The range has three uses (the mask and the two pointer tiles): three
// copies.
// SOFTMAX-COUNT-3: tile.range 0, 1024 : tensor<1024xi32, #blocked>
// SOFTMAX:      %[[MASK:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<1024xi32, #blocked>
// SOFTMAX:      %[[NEG_INF:.*]] = arith.constant dense<0xFF800000> : tensor<1024xf32, #blocked>
// SOFTMAX:      %[[X:.*]] = tile.load %{{.*}}, %[[MASK]], %[[NEG_INF]] : tensor<1024x!tile.ptr<f32>, #blocked>
// SOFTMAX:      tile.reduce max %[[X]] axis = 0 : tensor<1024xf32, #blocked> -> f32
// SOFTMAX:      math.exp %{{.*}} : tensor<1024xf32, #blocked>
// SOFTMAX:      tile.reduce sum %{{.*}} axis = 0 : tensor<1024xf32, #blocked> -> f32
// SOFTMAX:      arith.divf %{{.*}}, %{{.*}} : tensor<1024xf32, #blocked>
// SOFTMAX:      tile.store %{{.*}}, %{{.*}}, %[[MASK]] : tensor<1024x!tile.ptr<f32>, #blocked>

// SOFTMAX-CSE-LABEL: func.func @softmax(
// SOFTMAX-CSE-COUNT-1: tile.range 0, 1024 : tensor<1024xi32, #blocked>
// SOFTMAX-CSE-NOT:   tile.range
// SOFTMAX-CSE:       return

// SMM:      #blocked = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// SMM-NEXT: #slice = #tile.slice<{dim = 1, parent = #blocked}>
// SMM-NEXT: module {
// SMM-LABEL: func.func @softmax_matmul(
// SMM:      tile.make_block_ptr {{.*}} order = [1, 0] : !tile.block_ptr<tensor<16x16xf32, #blocked>>
// SMM:      tile.make_block_ptr {{.*}} order = [1, 0] : !tile.block_ptr<tensor<16x64xf32, #blocked>>
// The running max and sum are slices; the accumulator and both blocks share
// the 2-d layout.
// SMM:      scf.for {{.*}} -> (tensor<16xf32, #slice>, tensor<16xf32, #slice>, tensor<16x64xf32, #blocked>, !tile.block_ptr<tensor<16x16xf32, #blocked>>, !tile.block_ptr<tensor<16x64xf32, #blocked>>)
// SMM:        tile.block_load %{{.*}} check = [0, 1] padding = neg_inf : !tile.block_ptr<tensor<16x16xf32, #blocked>>
// SMM:        tile.block_load %{{.*}} check = [0, 1] : !tile.block_ptr<tensor<16x64xf32, #blocked>>
// SMM:        tile.reduce max %{{.*}} axis = 1 : tensor<16x16xf32, #blocked> -> tensor<16xf32, #slice>
// SMM:        arith.maximumf %{{.*}}, %{{.*}} : tensor<16xf32, #slice>
// SMM:        tile.expand_dims %{{.*}} axis = 1 : tensor<16xf32, #slice> -> tensor<16x1xf32, #blocked>
// SMM:        tile.broadcast %{{.*}} : tensor<16x1xf32, #blocked> -> tensor<16x16xf32, #blocked>
// SMM:        tile.reduce sum %{{.*}} axis = 1 : tensor<16x16xf32, #blocked> -> tensor<16xf32, #slice>
// SMM:        tile.expand_dims %{{.*}} axis = 1 : tensor<16xf32, #slice> -> tensor<16x1xf32, #blocked>
// SMM:        tile.broadcast %{{.*}} : tensor<16x1xf32, #blocked> -> tensor<16x64xf32, #blocked>
// SMM:        tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16xf32, #blocked>, tensor<16x64xf32, #blocked> -> tensor<16x64xf32, #blocked>
// SMM:        tile.advance %{{.*}}, [%{{.*}}, %{{.*}}] : !tile.block_ptr<tensor<16x16xf32, #blocked>>
// SMM:        tile.advance %{{.*}}, [%{{.*}}, %{{.*}}] : !tile.block_ptr<tensor<16x64xf32, #blocked>>
// SMM:      tile.expand_dims %{{.*}}#1 axis = 1 : tensor<16xf32, #slice> -> tensor<16x1xf32, #blocked>
// SMM:      arith.divf %{{.*}}#2, %{{.*}} : tensor<16x64xf32, #blocked>
// SMM:      tile.block_store %{{.*}}, %{{.*}} check = [0, 1] : !tile.block_ptr<tensor<16x64xf32, #blocked>>

// ONLINE:      #blocked = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// ONLINE-NEXT: module {
// ONLINE-LABEL: func.func @online_softmax(
// ONLINE:      tile.reduce max %{{.*}} axis = 0 : tensor<256xf32, #blocked> -> f32
// ONLINE:      tile.reduce sum %{{.*}} axis = 0 : tensor<256xf32, #blocked> -> f32

// The tiles of A, B and C are tied together (through the masks) into one
// 32x32 group; the row and column offsets are slices of it. Its strides are
// arguments without divisibility: one element per lane.
// MATMUL:      #blocked = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// MATMUL-NEXT: #slice = #tile.slice<{dim = 1, parent = #blocked}>
// MATMUL-NEXT: #slice1 = #tile.slice<{dim = 0, parent = #blocked}>
// MATMUL-NEXT: module {
// MATMUL-LABEL: func.func @matmul(
// MATMUL:      tile.expand_dims %{{.*}} axis = 1 : tensor<32xi32, #slice> -> tensor<32x1xi32, #blocked>
// MATMUL:      tile.expand_dims %{{.*}} axis = 0 : tensor<32xi32, #slice1> -> tensor<1x32xi32, #blocked>
// MATMUL:      tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x32xf32, #blocked>, tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked>
// MATMUL-LABEL: func.func @matmul_leaky_relu(
// MATMUL:      tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<32x32xf32, #blocked>, tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #blocked>
