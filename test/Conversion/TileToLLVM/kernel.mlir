// The tile-convert-to-llvm pass itself: each kernel gets its runtime
// metadata (tile.metadata) and shared-memory need (tile.shared_bytes) and
// loses tile.kernel; the module gets one dynamic shared-memory array
// @tile_smem; signatures become per-thread types; structured control flow
// carrying tiles is converted slot by slot; non-kernel functions are left
// alone.
//
// RUN: tile-opt %s -split-input-file -tile-convert-to-llvm | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-convert-to-llvm | FileCheck %s --check-prefix=NOKERNEL

// One @tile_smem for all kernels of the module.
// CHECK:       module {
// CHECK-NEXT:    llvm.mlir.global external @tile_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-NOT:     @tile_smem()

// Every argument kind in the metadata: pointers with their pointee and the
// assumed 16-byte alignment, integers with their divisibility (1 unless
// tile.divisibility says otherwise), floats, i1.
// CHECK-LABEL: func.func @args(
// CHECK-SAME:    %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i32 {tile.divisibility = 16 : i32}, %{{.*}}: i64, %{{.*}}: f32, %{{.*}}: f64, %{{.*}}: i1)
// CHECK-SAME:    attributes {tile.metadata = "tile-kernel v1\0Aname args\0Anum_warps 2\0Ashared_bytes 0\0Aarg ptr f32 16\0Aarg ptr f16 16\0Aarg i32 16\0Aarg i64 1\0Aarg f32\0Aarg f64\0Aarg i1\0Aend\0A", tile.num_warps = 2 : i32, tile.shared_bytes = 0 : i64} {
// CHECK-NOT:     tile.kernel
// CHECK-NEXT:    return
func.func @args(%p: !tile.ptr<f32>, %h: !tile.ptr<f16>, %n: i32 {tile.divisibility = 16 : i32},
                %l: i64, %f: f32, %d: f64, %b: i1)
    attributes {tile.kernel, tile.num_warps = 2 : i32} {
  return
}

// Without tile.num_warps a kernel has 4 warps.
// CHECK-LABEL: func.func @default_warps(
// CHECK-SAME:    %{{.*}}: !llvm.ptr<1>)
// CHECK-SAME:    attributes {tile.metadata = "tile-kernel v1\0Aname default_warps\0Anum_warps 4\0Ashared_bytes 0\0Aarg ptr i8 16\0Aend\0A", tile.shared_bytes = 0 : i64} {
func.func @default_warps(%p: !tile.ptr<i8>) attributes {tile.kernel} {
  return
}

// A helper function (not a kernel) is not touched.
// CHECK-LABEL: func.func @helper(
// CHECK-SAME:    %{{.*}}: f32) -> f32 {
// CHECK-NEXT:    arith.mulf
func.func @helper(%x: f32) -> f32 {
  %y = arith.mulf %x, %x : f32
  return %y : f32
}

// The kernel's shared memory is the most any of its ops needs: here the
// convert_layout of 256 f32 (1024 bytes), not the cross-warp reduction
// (2 warps x 4 bytes).
#a = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
#c = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>

// CHECK-LABEL: func.func @shared_bytes(
// CHECK-SAME:    shared_bytes 1024
// CHECK-SAME:    tile.shared_bytes = 1024 : i64
func.func @shared_bytes(%v: f32) attributes {tile.kernel, tile.num_warps = 2 : i32} {
  %x = tile.splat %v : tensor<256xf32, #a>
  %s = tile.reduce sum %x axis = 0 : tensor<256xf32, #a> -> f32
  %y = tile.convert_layout %x : tensor<256xf32, #a> -> tensor<256xf32, #c>
  return
}

// Tiles carried by scf.for become one iteration argument per slot.
// CHECK-LABEL: func.func @loop(
// CHECK-SAME:    %[[N:[a-z0-9]+]]: i32, %[[V:[a-z0-9]+]]: f32)
// CHECK:         %{{.*}}:4 = scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[A0:.*]] = %[[V]], %[[A1:.*]] = %[[V]], %[[A2:.*]] = %[[V]], %[[A3:.*]] = %[[V]]) -> (f32, f32, f32, f32) : i32 {
// CHECK-NEXT:      %[[S0:.*]] = arith.addf %[[A0]], %[[A0]] : f32
// CHECK-NEXT:      %[[S1:.*]] = arith.addf %[[A1]], %[[A1]] : f32
// CHECK-NEXT:      %[[S2:.*]] = arith.addf %[[A2]], %[[A2]] : f32
// CHECK-NEXT:      %[[S3:.*]] = arith.addf %[[A3]], %[[A3]] : f32
// CHECK-NEXT:      scf.yield %[[S0]], %[[S1]], %[[S2]], %[[S3]] : f32, f32, f32, f32
// CHECK-NEXT:    }
func.func @loop(%n: i32, %v: f32) attributes {tile.kernel, tile.num_warps = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %init = tile.splat %v : tensor<256xf32, #a>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<256xf32, #a>) : i32 {
    %s = arith.addf %acc, %acc : tensor<256xf32, #a>
    scf.yield %s : tensor<256xf32, #a>
  }
  return
}

// Block pointers in scf.for: (base, 2 shapes, 2 strides, 2 offsets).
#b = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 2], order = [1, 0]}>

// CHECK-LABEL: func.func @block_ptr_loop(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: !llvm.ptr<1>, %[[S:[a-z0-9]+]]: i64, %[[N:[a-z0-9]+]]: i32)
// CHECK:         scf.for %{{.*}} iter_args(%{{.*}} = %[[P]], %{{.*}} = %[[S]], %{{.*}} = %[[S]], %{{.*}} = %[[S]], %{{.*}} = %[[S]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (!llvm.ptr<1>, i64, i64, i64, i64, i32, i32) : i32 {
// CHECK-NOT:     tile.
// CHECK:         return
func.func @block_ptr_loop(%p: !tile.ptr<f32>, %s: i64, %n: i32) attributes {tile.kernel, tile.num_warps = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %bp = tile.make_block_ptr %p, [%s, %s], [%s, %s], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<4x16xf32, #b>>
  %r = scf.for %i = %c0 to %n step %c4 iter_args(%q = %bp) -> (!tile.block_ptr<tensor<4x16xf32, #b>>) : i32 {
    %x = tile.block_load %q : !tile.block_ptr<tensor<4x16xf32, #b>>
    tile.block_store %q, %x : !tile.block_ptr<tensor<4x16xf32, #b>>
    %next = tile.advance %q, [%c4, %c0] : !tile.block_ptr<tensor<4x16xf32, #b>>
    scf.yield %next : !tile.block_ptr<tensor<4x16xf32, #b>>
  }
  return
}

// -----

// A module without kernels is left as it is: no shared-memory array.
// NOKERNEL:      {{^}}// {{-+}}
// NOKERNEL-NEXT: module {
// NOKERNEL-NEXT:   func.func @only_helper(%{{.*}}: f32) -> f32 {
// NOKERNEL-NEXT:     return
// NOKERNEL-NEXT:   }
// NOKERNEL-NEXT: }
func.func @only_helper(%x: f32) -> f32 {
  return %x : f32
}
