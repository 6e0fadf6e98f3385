// Pointers, loads and stores: each thread accesses memory for its own slots;
// masked accesses are guarded by scf.if (a vector load under one mask bit:
// a predicated load, last case), masked-off loads yield `other` (zero by
// default).
// (Layouts here hold one element per run, so no access can be vectorized.)
// Block pointers become (base, shape..., strides..., offsets...) and their
// boundary checks unsigned comparisons against the shape.
//
// RUN: tile-opt %s -split-input-file -tile-convert-to-llvm | FileCheck %s

// 64 elements over 32 lanes, one element per lane, twice: 2 slots per
// thread, 32 elements apart (never a vector access).
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: func.func @unmasked(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: !llvm.ptr<1>, %[[Q:[a-z0-9]+]]: !llvm.ptr<1>)
// CHECK:         %[[P0:.*]] = llvm.getelementptr %[[P]][%[[I0:.*]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    %[[P1:.*]] = llvm.getelementptr %[[P]][%[[I1:.*]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK:         %[[X0:.*]] = llvm.load %[[P0]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK:         %[[X1:.*]] = llvm.load %[[P1]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %[[Q0:.*]] = llvm.getelementptr %[[Q]][%[[I0]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    %[[Q1:.*]] = llvm.getelementptr %[[Q]][%[[I1]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    llvm.store %[[X0]], %[[Q0]] {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK-NEXT:    llvm.store %[[X1]], %[[Q1]] {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK-NOT:     scf.if
// CHECK-NOT:     llvm.load
// CHECK:         return
func.func @unmasked(%p: !tile.ptr<f32>, %q: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.range 0, 64 : tensor<64xi32, #b>
  %pb = tile.splat %p : tensor<64x!tile.ptr<f32>, #b>
  %ptrs = tile.addptr %pb, %r : tensor<64x!tile.ptr<f32>, #b>, tensor<64xi32, #b>
  %x = tile.load %ptrs : tensor<64x!tile.ptr<f32>, #b>
  %qb = tile.splat %q : tensor<64x!tile.ptr<f32>, #b>
  %qptrs = tile.addptr %qb, %r : tensor<64x!tile.ptr<f32>, #b>, tensor<64xi32, #b>
  tile.store %qptrs, %x : tensor<64x!tile.ptr<f32>, #b>
  return
}

// -----

// A masked load reads `other` (here -1.0) where the mask is false; a
// masked store writes only where it is true.
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: func.func @masked(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: !llvm.ptr<1>, %[[N:[a-z0-9]+]]: i32)
// CHECK:         %[[M0:.*]] = arith.cmpi slt, %{{.*}}, %[[N]] : i32
// CHECK-NEXT:    %[[M1:.*]] = arith.cmpi slt, %{{.*}}, %[[N]] : i32
// CHECK-NEXT:    %[[P0:.*]] = llvm.getelementptr %[[P]][%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    %[[P1:.*]] = llvm.getelementptr %[[P]][%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    %[[OTHER:.*]] = arith.constant -1.000000e+00 : f32
// CHECK-NEXT:    %[[X0:.*]] = scf.if %[[M0]] -> (f32) {
// CHECK-NEXT:      %[[L0:.*]] = llvm.load %[[P0]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NEXT:      scf.yield %[[L0]] : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[OTHER]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[X1:.*]] = scf.if %[[M1]] -> (f32) {
// CHECK-NEXT:      %[[L1:.*]] = llvm.load %[[P1]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NEXT:      scf.yield %[[L1]] : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[OTHER]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %[[M0]] {
// CHECK-NEXT:      llvm.store %[[X0]], %[[P0]] {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %[[M1]] {
// CHECK-NEXT:      llvm.store %[[X1]], %[[P1]] {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @masked(%p: !tile.ptr<f32>, %n: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.range 0, 64 : tensor<64xi32, #b>
  %ns = tile.splat %n : tensor<64xi32, #b>
  %m = arith.cmpi slt, %r, %ns : tensor<64xi32, #b>
  %pb = tile.splat %p : tensor<64x!tile.ptr<f32>, #b>
  %ptrs = tile.addptr %pb, %r : tensor<64x!tile.ptr<f32>, #b>, tensor<64xi32, #b>
  %other = arith.constant dense<-1.0> : tensor<64xf32, #b>
  %x = tile.load %ptrs, %m, %other : tensor<64x!tile.ptr<f32>, #b>
  tile.store %ptrs, %x, %m : tensor<64x!tile.ptr<f32>, #b>
  return
}

// -----

// Without `other`, masked-off lanes read zero.
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: func.func @masked_zero(
// CHECK:         llvm.getelementptr
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    scf.if %{{.*}} -> (i32) {
// CHECK-NEXT:      llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> i32
// CHECK:         } else {
// CHECK-NEXT:      scf.yield %[[ZERO]] : i32
// CHECK-NEXT:    }
func.func @masked_zero(%p: !tile.ptr<i32>, %n: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.range 0, 32 : tensor<32xi32, #b>
  %ns = tile.splat %n : tensor<32xi32, #b>
  %m = arith.cmpi slt, %r, %ns : tensor<32xi32, #b>
  %pb = tile.splat %p : tensor<32x!tile.ptr<i32>, #b>
  %ptrs = tile.addptr %pb, %r : tensor<32x!tile.ptr<i32>, #b>, tensor<32xi32, #b>
  %x = tile.load %ptrs, %m : tensor<32x!tile.ptr<i32>, #b>
  return
}

// -----

// Element types: f16 (2-byte alignment), i1 (a byte in memory), i64
// offsets.
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: func.func @element_types(
// CHECK-SAME:    %[[H:[a-z0-9]+]]: !llvm.ptr<1>, %[[B:[a-z0-9]+]]: !llvm.ptr<1>, %[[O:[a-z0-9]+]]: i64)
// CHECK:         %[[HP:.*]] = llvm.getelementptr %[[H]][%[[O]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
// CHECK:         %[[HX:.*]] = llvm.load %[[HP]] {alignment = 2 : i64} : !llvm.ptr<1> -> f16
// CHECK:         %[[BP:.*]] = llvm.getelementptr %[[B]][%[[O]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK:         %[[BYTE:.*]] = llvm.load %[[BP]] {alignment = 1 : i64} : !llvm.ptr<1> -> i8
// CHECK-NEXT:    %[[BIT:.*]] = arith.trunci %[[BYTE]] : i8 to i1
// CHECK:         %[[NOT:.*]] = arith.xori %[[BIT]], %{{.*}} : i1
// CHECK-NEXT:    %[[EXT:.*]] = arith.extui %[[NOT]] : i1 to i8
// CHECK-NEXT:    llvm.store %[[EXT]], %[[BP]] {alignment = 1 : i64} : i8, !llvm.ptr<1>
func.func @element_types(%h: !tile.ptr<f16>, %b: !tile.ptr<i1>, %o: i64) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %os = tile.splat %o : tensor<32xi64, #b>
  %hb = tile.splat %h : tensor<32x!tile.ptr<f16>, #b>
  %hp = tile.addptr %hb, %os : tensor<32x!tile.ptr<f16>, #b>, tensor<32xi64, #b>
  %hx = tile.load %hp : tensor<32x!tile.ptr<f16>, #b>
  %bb = tile.splat %b : tensor<32x!tile.ptr<i1>, #b>
  %bp = tile.addptr %bb, %os : tensor<32x!tile.ptr<i1>, #b>, tensor<32xi64, #b>
  %bx = tile.load %bp : tensor<32x!tile.ptr<i1>, #b>
  %t = arith.constant dense<true> : tensor<32xi1, #b>
  %nb = arith.xori %bx, %t : tensor<32xi1, #b>
  tile.store %bp, %nb : tensor<32x!tile.ptr<i1>, #b>
  return
}

// -----

// Scalar pointers: one access, masked by a scalar i1.
// CHECK-LABEL: func.func @scalar(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: !llvm.ptr<1>, %[[I:[a-z0-9]+]]: i32, %[[M:[a-z0-9]+]]: i1)
// CHECK-NEXT:    %[[Q:.*]] = llvm.getelementptr %[[P]][%[[I]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK:         %[[X:.*]] = llvm.load %[[Q]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NEXT:    scf.if %[[M]] {
// CHECK-NEXT:      llvm.store %[[X]], %[[P]] {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @scalar(%p: !tile.ptr<f32>, %i: i32, %m: i1) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %q = tile.addptr %p, %i : !tile.ptr<f32>, i32
  %x = tile.load %q : !tile.ptr<f32>
  tile.store %p, %x, %m : !tile.ptr<f32>
  return
}

// -----

// Block pointers. A 4x8 block over 4x8 lanes: one slot per thread, at
// (offset0 + row, offset1 + col). advance adds to the offsets; block_load
// with check = [0, 1] loads only when both positions are below the shape
// (one unsigned comparison each, so negative positions fail too) and pads
// with -inf (0xFF800000); block_store with check = [1] tests the columns
// only.
#b = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>

// CHECK-LABEL: func.func @block_ptr(
// CHECK-SAME:    %[[BASE:[a-z0-9]+]]: !llvm.ptr<1>, %[[M:[a-z0-9]+]]: i64, %[[N:[a-z0-9]+]]: i64, %[[SM:[a-z0-9]+]]: i64, %[[OFF:[a-z0-9]+]]: i32)
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i64
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : i32
// advance
// CHECK:         %[[OFF0:.*]] = arith.addi %[[OFF]], %[[C0]] : i32
// CHECK-NEXT:    %[[OFF1:.*]] = arith.addi %[[C0]], %[[C8]] : i32
// block_load: row position, its address term and its check...
// CHECK:         %[[ROW:.*]] = arith.addi %[[OFF0]], %{{.*}} : i32
// CHECK-NEXT:    %[[ROW64:.*]] = arith.extsi %[[ROW]] : i32 to i64
// CHECK-NEXT:    %[[ROWOFF:.*]] = arith.muli %[[ROW64]], %[[SM]] : i64
// CHECK-NEXT:    %[[ACC:.*]] = arith.addi %{{.*}}, %[[ROWOFF]] : i64
// CHECK-NEXT:    %[[IN0:.*]] = arith.cmpi ult, %[[ROW64]], %[[M]] : i64
// ... then the column.
// CHECK-NEXT:    %[[COL:.*]] = arith.addi %[[OFF1]], %{{.*}} : i32
// CHECK-NEXT:    %[[COL64:.*]] = arith.extsi %[[COL]] : i32 to i64
// CHECK-NEXT:    %[[COLOFF:.*]] = arith.muli %[[COL64]], %[[C1]] : i64
// CHECK-NEXT:    %[[ELT:.*]] = arith.addi %[[ACC]], %[[COLOFF]] : i64
// CHECK-NEXT:    %[[IN1:.*]] = arith.cmpi ult, %[[COL64]], %[[N]] : i64
// CHECK-NEXT:    %[[IN:.*]] = arith.andi %[[IN0]], %[[IN1]] : i1
// CHECK-NEXT:    %[[ADDR:.*]] = llvm.getelementptr %[[BASE]][%[[ELT]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    %[[PAD:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT:    %[[X:.*]] = scf.if %[[IN]] -> (f32) {
// CHECK-NEXT:      %[[L:.*]] = llvm.load %[[ADDR]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NEXT:      scf.yield %[[L]] : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[PAD]] : f32
// CHECK-NEXT:    }
// block_store through the unadvanced pointer: column check only.
// CHECK:         %[[SROW:.*]] = arith.addi %[[OFF]], %{{.*}} : i32
// CHECK-NEXT:    %[[SROW64:.*]] = arith.extsi %[[SROW]] : i32 to i64
// CHECK-NOT:     arith.cmpi ult, %[[SROW64]]
// CHECK:         %[[SCOL:.*]] = arith.addi %[[C0]], %{{.*}} : i32
// CHECK-NEXT:    %[[SCOL64:.*]] = arith.extsi %[[SCOL]] : i32 to i64
// CHECK-NEXT:    arith.muli %[[SCOL64]], %[[C1]] : i64
// CHECK-NEXT:    %[[SELT:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// CHECK-NEXT:    %[[SIN:.*]] = arith.cmpi ult, %[[SCOL64]], %[[N]] : i64
// CHECK-NEXT:    %[[SADDR:.*]] = llvm.getelementptr %[[BASE]][%[[SELT]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    scf.if %[[SIN]] {
// CHECK-NEXT:      llvm.store %[[X]], %[[SADDR]] {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @block_ptr(%p: !tile.ptr<f32>, %m: i64, %n: i64, %sm: i64, %off: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %bp = tile.make_block_ptr %p, [%m, %n], [%sm, %c1], [%off, %c0] order = [1, 0] : !tile.block_ptr<tensor<4x8xf32, #b>>
  %bp2 = tile.advance %bp, [%c0, %c8] : !tile.block_ptr<tensor<4x8xf32, #b>>
  %x = tile.block_load %bp2 check = [0, 1] padding = neg_inf : !tile.block_ptr<tensor<4x8xf32, #b>>
  tile.block_store %bp, %x check = [1] : !tile.block_ptr<tensor<4x8xf32, #b>>
  return
}

// -----

// Padding values; no check means no branch.
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: func.func @block_padding(
// nan
// CHECK:         %[[NAN:.*]] = arith.constant 0x7FF8000000000000 : f64
// CHECK-NEXT:    scf.if %{{.*}} -> (f64) {
// CHECK:         } else {
// CHECK-NEXT:      scf.yield %[[NAN]] : f64
// zero
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:    scf.if %{{.*}} -> (f64) {
// CHECK:         } else {
// CHECK-NEXT:      scf.yield %[[ZERO]] : f64
// unchecked: a plain load, no comparison.
// CHECK-NOT:     arith.cmpi
// CHECK:         llvm.getelementptr
// CHECK-NEXT:    llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> f64
// CHECK-NOT:     scf.if
// CHECK:         return
func.func @block_padding(%p: !tile.ptr<f64>, %n: i64) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %bp = tile.make_block_ptr %p, [%n], [%c1], [%c0] order = [0] : !tile.block_ptr<tensor<32xf64, #b>>
  %x = tile.block_load %bp check = [0] padding = nan : !tile.block_ptr<tensor<32xf64, #b>>
  %y = tile.block_load %bp check = [0] : !tile.block_ptr<tensor<32xf64, #b>>
  %z = tile.block_load %bp : !tile.block_ptr<tensor<32xf64, #b>>
  return
}

// -----

// A vector under one mask bit (here n is a multiple of 16, so `offsets < n`
// is constant over each group of 4 or 8 lanes): the fallback moved into
// the destination registers, then one predicated load, in straight-line
// code (no scf.if around it). f16 vectors travel as four 32-bit words.
#v = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#h = #tile.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: func.func @uniform_mask(
// CHECK-NOT:     scf.if
// CHECK:         %[[M:.*]] = arith.cmpi slt, %{{.*}}, %arg2 : i32
// CHECK:         %[[OTHER:.*]] = llvm.bitcast %{{.*}} : vector<4xf32> to vector<4xi32>
// CHECK:         llvm.inline_asm has_side_effects "mov.b32 $0, $6;\0Amov.b32 $1, $7;\0Amov.b32 $2, $8;\0Amov.b32 $3, $9;\0A@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b,r,r,r,r" %{{.*}}, %[[M]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (!llvm.ptr<1>, i1, i32, i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK:         llvm.bitcast %{{.*}} : vector<4xi32> to vector<4xf32>
// CHECK:         llvm.bitcast %{{.*}} : vector<8xf16> to vector<4xi32>
// CHECK:         llvm.inline_asm has_side_effects {{.*}}@$5 ld.global.v4.b32
// CHECK:         llvm.bitcast %{{.*}} : vector<4xi32> to vector<8xf16>
// CHECK-NOT:     scf.if
// CHECK:         return
func.func @uniform_mask(%p: !tile.ptr<f32>, %q: !tile.ptr<f16>, %n: i32 {tile.divisibility = 16 : i64}) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.range 0, 128 : tensor<128xi32, #v>
  %ns = tile.splat %n : tensor<128xi32, #v>
  %m = arith.cmpi slt, %r, %ns : tensor<128xi32, #v>
  %pb = tile.splat %p : tensor<128x!tile.ptr<f32>, #v>
  %ptrs = tile.addptr %pb, %r : tensor<128x!tile.ptr<f32>, #v>, tensor<128xi32, #v>
  %other = arith.constant dense<-1.0> : tensor<128xf32, #v>
  %x = tile.load %ptrs, %m, %other : tensor<128x!tile.ptr<f32>, #v>
  %rh = tile.range 0, 256 : tensor<256xi32, #h>
  %nh = tile.splat %n : tensor<256xi32, #h>
  %mh = arith.cmpi slt, %rh, %nh : tensor<256xi32, #h>
  %qb = tile.splat %q : tensor<256x!tile.ptr<f16>, #h>
  %qs = tile.addptr %qb, %rh : tensor<256x!tile.ptr<f16>, #h>, tensor<256xi32, #h>
  %y = tile.load %qs, %mh : tensor<256x!tile.ptr<f16>, #h>
  return
}

// -----

// Block accesses with 16-byte runs per thread. Proven aligned (16-byte
// base, row stride a multiple of 8 elements, unit column stride, column
// offset 0): an unchecked load and store are vectors with no run-time test;
// with the rows checked, each vector is one predicated load (fallback
// zeros) or one store under its row's check, with no element accesses.
#r = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>

// CHECK-LABEL: func.func @block_vectors_aligned(
// CHECK-NOT:     llvm.ptrtoint
// CHECK-NOT:     scf.if
// CHECK:         llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK-NOT:     scf.if
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>
// CHECK-NOT:     scf.if
// CHECK:         llvm.inline_asm has_side_effects {{.*}}@$5 ld.global.v4.b32
// CHECK-NOT:     llvm.load
// CHECK:         scf.if
// CHECK:           llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>
// CHECK-NOT:     llvm.load
// CHECK:         return
func.func @block_vectors_aligned(%p: !tile.ptr<f16>, %q: !tile.ptr<f16>, %rows: i64, %stride: i64 {tile.divisibility = 8 : i64}, %row0: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %c32 = arith.constant 32 : i64
  %bp = tile.make_block_ptr %p, [%rows, %c32], [%stride, %c1], [%row0, %c0] order = [1, 0] : !tile.block_ptr<tensor<8x32xf16, #r>>
  %x = tile.block_load %bp : !tile.block_ptr<tensor<8x32xf16, #r>>
  %bq = tile.make_block_ptr %q, [%rows, %c32], [%stride, %c1], [%row0, %c0] order = [1, 0] : !tile.block_ptr<tensor<8x32xf16, #r>>
  tile.block_store %bq, %x : !tile.block_ptr<tensor<8x32xf16, #r>>
  %y = tile.block_load %bp check = [0] : !tile.block_ptr<tensor<8x32xf16, #r>>
  tile.block_store %bq, %y check = [0] : !tile.block_ptr<tensor<8x32xf16, #r>>
  return
}

// -----

// A row stride of unknown divisibility: the vectors are taken behind a
// run-time test of the stride, the offsets and the base's alignment.
#r = #tile.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>

// CHECK-LABEL: func.func @block_vectors_runtime(
// CHECK:         llvm.ptrtoint
// CHECK:         scf.if
// CHECK:         llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK:       } else {
// CHECK:         llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<1> -> f16
func.func @block_vectors_runtime(%p: !tile.ptr<f16>, %rows: i64, %stride: i64, %row0: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %c32 = arith.constant 32 : i64
  %bp = tile.make_block_ptr %p, [%rows, %c32], [%stride, %c1], [%row0, %c0] order = [1, 0] : !tile.block_ptr<tensor<8x32xf16, #r>>
  %x = tile.block_load %bp : !tile.block_ptr<tensor<8x32xf16, #r>>
  return
}

// -----

// A block of 32-bit pairs (two elements per thread and repetition, lanes
// adjacent along the columns, two repetitions across them), stored whole:
// where the block is inside the array and 16-byte aligned, lanes 2i and
// 2i + 1 swap one pair of each two repetitions (two shuffles), and each
// stores four consecutive elements, the odd lane two elements before its
// second repetition's pair; otherwise the 8-byte or element stores.
#b = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>

// CHECK-LABEL: func.func @swapped_pairs(
// CHECK:         scf.if
// CHECK:         %[[ODD:.*]] = arith.cmpi ne, %{{.*}}, %{{.*}} : i32
// CHECK:         nvvm.shfl.sync bfly
// CHECK:         nvvm.shfl.sync bfly
// CHECK:         %[[BACK:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK:         %[[AT:.*]] = llvm.select %[[ODD]], %[[BACK]], %{{.*}} : i1, !llvm.ptr<1>
// CHECK:         llvm.store %{{.*}}, %[[AT]] {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK-COUNT-2: nvvm.shfl.sync bfly
// CHECK:         llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK-NOT:     nvvm.shfl.sync
// CHECK:       } else {
// CHECK:         llvm.store %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<1>
func.func @swapped_pairs(%p: !tile.ptr<f32>, %v: f32, %m: i64, %n: i64, %sm: i64) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %x = tile.splat %v : tensor<16x16xf32, #b>
  %bp = tile.make_block_ptr %p, [%m, %n], [%sm, %c1], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<16x16xf32, #b>>
  tile.block_store %bp, %x check = [0, 1] : !tile.block_ptr<tensor<16x16xf32, #b>>
  return
}
