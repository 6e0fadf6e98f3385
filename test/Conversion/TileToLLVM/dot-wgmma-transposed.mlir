// tf32 dots with both operands read from shared buffers on sm_90a are
// computed transposed by wgmma, O^T = B^T A^T: `a`'s buffer (K-major as
// stored, swizzled) is wgmma's B operand through a descriptor, and `b`'s
// row-major stage is read into A fragments, two columns (8 bytes) per load.
// The accumulator takes the transposed layout: 2 x 2 squares per thread,
// rows fastest, warps along the columns.
//
// RUN: tile-opt %s -split-input-file --tile-assign-layouts=chip=sm_90a \
// RUN:   | FileCheck %s --check-prefix=LAYOUT
// RUN: tile-opt %s -split-input-file --tile-to-llvm=chip=sm_90a | FileCheck %s
// Without wgmma the same dot keeps the mma.sync layout.
// RUN: tile-opt %s -split-input-file --tile-assign-layouts=chip=sm_90 \
// RUN:   | FileCheck %s --check-prefix=SM90

// LAYOUT: #[[$T:.*]] = #tile.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
// LAYOUT-LABEL: func.func @shared_operands
// LAYOUT:         tile.dot {{.*}} -> tensor<64x128xf32, #[[$T]]>
// SM90: #[[$M:.*]] = #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [1, 0]}>
// SM90-LABEL:   func.func @shared_operands
// SM90:           tile.dot {{.*}} -> tensor<64x128xf32, #[[$M]]>

// CHECK-LABEL: func.func @shared_operands
// Fragments of `b`: 8-byte loads, 2 per k8 step and 64-column slice (4
// steps, 2 slices).
// CHECK-COUNT-16: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<2xf32>
// CHECK:         nvvm.wgmma.fence.aligned
// N = the 64 rows; A = 4 fragment registers; B = a's descriptor.
// CHECK-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {{.*}}}, {$64,$65,$66,$67}, $68, p, 1, 1;
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:    "wgmma.wait_group.sync.aligned 0;"
func.func @shared_operands(%o: !tile.ptr<f32>, %n: i64)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %zero = arith.constant dense<0.0> : tensor<64x128xf32>
  %ba = tile.alloc_shared : !tile.shared<tensor<64x32xf32>, stages = 1, pad = 0>
  %bb = tile.alloc_shared : !tile.shared<tensor<32x128xf32>, stages = 1, pad = 8>
  %a = tile.local_load %ba[%c0] : !tile.shared<tensor<64x32xf32>, stages = 1, pad = 0> -> tensor<64x32xf32>
  %b = tile.local_load %bb[%c0] : !tile.shared<tensor<32x128xf32>, stages = 1, pad = 8> -> tensor<32x128xf32>
  %d = tile.dot %a, %b, %zero precision = tf32 : tensor<64x32xf32>, tensor<32x128xf32> -> tensor<64x128xf32>
  %pc = tile.make_block_ptr %o, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x128xf32>>
  tile.block_store %pc, %d check = [0, 1] : !tile.block_ptr<tensor<64x128xf32>>
  return
}

// -----

// The online softmax with the product transposed (the library's _t
// builds): the exponentiated tile goes through a buffer. Its row
// statistics cannot share the accumulator's layout (warps along the
// columns would replicate the 64 x 32 tile on every warp): the rescale
// factors are converted instead. With the group in flight, the store into
// the buffer the running wgmma reads waits for it first, though it comes
// before the accumulator's first use (the rescale).
// LAYOUT: #[[$T:.*]] = #tile.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
// LAYOUT: #[[$X:.*]] = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// LAYOUT: #[[$SX:.*]] = #tile.slice<{dim = 1, parent = #[[$X]]}>
// LAYOUT: #[[$ST:.*]] = #tile.slice<{dim = 1, parent = #[[$T]]}>
// LAYOUT-LABEL: func.func @online_softmax_transposed
// LAYOUT:         tile.reduce max %{{.*}} axis = 1 : tensor<64x32xf32, #[[$X]]> -> tensor<64xf32, #[[$SX]]>
// LAYOUT:         tile.convert_layout %{{.*}} : tensor<64xf32, #[[$SX]]> -> tensor<64xf32, #[[$ST]]>
// LAYOUT:         tile.dot {{.*}} -> tensor<64x128xf32, #[[$T]]>

// CHECK-LABEL: func.func @online_softmax_transposed
// CHECK:         scf.for
// CHECK:           llvm.nvvm.ex2.approx
// CHECK:           "wgmma.wait_group.sync.aligned 0;"
// The tile's store into its buffer comes after the wait, rounds the values
// to tf32 (wgmma would truncate them), then fences the async proxy.
// CHECK:           cvt.rna.tf32.f32
// CHECK:           llvm.store %{{.*}} : vector<4xf32>, !llvm.ptr<3>
// CHECK:           nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:           arith.mulf
// V's fragments are rounded to tf32 too (ties to even, sm_90's cvt.rn).
// CHECK:           cvt.rn.tf32.f32
// CHECK:           wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32
// CHECK:           nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:      "wgmma.wait_group.sync.aligned 1;"
// CHECK:         "wgmma.wait_group.sync.aligned 0;"
// CHECK:         return
func.func @online_softmax_transposed(%o: !tile.ptr<f32>, %n: i64, %k: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %c32 = arith.constant 32 : i32
  %one = arith.constant 1 : i64
  %zero = arith.constant dense<0.0> : tensor<64x128xf32>
  %ninf = arith.constant dense<0xFF800000> : tensor<64xf32>
  %bx = tile.alloc_shared : !tile.shared<tensor<64x32xf32>, stages = 3, pad = 8>
  %bv = tile.alloc_shared : !tile.shared<tensor<32x128xf32>, stages = 3, pad = 8>
  %bp = tile.alloc_shared : !tile.shared<tensor<64x32xf32>, stages = 1, pad = 0>
  %acc, %mx = scf.for %i = %c0 to %k step %c32 iter_args(%s = %zero, %m = %ninf) -> (tensor<64x128xf32>, tensor<64xf32>) : i32 {
    tile.async_wait pending = 0
    %step = arith.divui %i, %c32 : i32
    %stage = arith.remui %step, %c3 : i32
    %x = tile.local_load %bx[%stage] : !tile.shared<tensor<64x32xf32>, stages = 3, pad = 8> -> tensor<64x32xf32>
    %bm = tile.reduce max %x axis = 1 : tensor<64x32xf32> -> tensor<64xf32>
    %mn = arith.maximumf %m, %bm : tensor<64xf32>
    %me = tile.expand_dims %mn axis = 1 : tensor<64xf32> -> tensor<64x1xf32>
    %mb = tile.broadcast %me : tensor<64x1xf32> -> tensor<64x32xf32>
    %xs = arith.subf %x, %mb : tensor<64x32xf32>
    %p = math.exp %xs fastmath<afn> : tensor<64x32xf32>
    tile.local_store %p, %bp[%c0] : tensor<64x32xf32>, !tile.shared<tensor<64x32xf32>, stages = 1, pad = 0>
    %d0 = arith.subf %m, %mn : tensor<64xf32>
    %alpha = math.exp %d0 fastmath<afn> : tensor<64xf32>
    %ae = tile.expand_dims %alpha axis = 1 : tensor<64xf32> -> tensor<64x1xf32>
    %ab = tile.broadcast %ae : tensor<64x1xf32> -> tensor<64x128xf32>
    %scaled = arith.mulf %s, %ab : tensor<64x128xf32>
    %pa = tile.local_load %bp[%c0] : !tile.shared<tensor<64x32xf32>, stages = 1, pad = 0> -> tensor<64x32xf32>
    %v = tile.local_load %bv[%stage] : !tile.shared<tensor<32x128xf32>, stages = 3, pad = 8> -> tensor<32x128xf32>
    %d = tile.dot %pa, %v, %scaled precision = tf32 : tensor<64x32xf32>, tensor<32x128xf32> -> tensor<64x128xf32>
    scf.yield %d, %mn : tensor<64x128xf32>, tensor<64xf32>
  } {tile.mma_in_flight}
  %pc = tile.make_block_ptr %o, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x128xf32>>
  tile.block_store %pc, %acc check = [0, 1] : !tile.block_ptr<tensor<64x128xf32>>
  return
}

// -----

// tf32x3 transposed: `a`'s buffer holds each value's tf32 part and, one
// buffer size on (8192 bytes here), the rounded remainder, both written
// by the store; `b`'s fragments are split in registers. Each k8 step and
// 64-column slice issues three wgmma (b_lo a_hi, b_hi a_lo, b_hi a_hi)
// into products that start from zero, waited for and added to the
// (nonzero) accumulator in f32.
// LAYOUT: #[[$T:.*]] = #tile.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
// LAYOUT-LABEL: func.func @split_operands
// LAYOUT:         tile.dot {{.*}} precision = tf32x3 {{.*}} -> tensor<64x128xf32, #[[$T]]>
// CHECK-LABEL: func.func @split_operands
// CHECK-SAME:    tile.shared_bytes = 33792
// The store: parts rounded to tf32 (ties to even), the remainder from the
// rounded part.
// CHECK:         %[[HI:.*]] = llvm.inline_asm "cvt.rn.tf32.f32 $0, $1;", "=r,f" %[[V:.*]] : (f32) -> i32
// CHECK:         %[[HIF:.*]] = arith.bitcast %[[HI]] : i32 to f32
// CHECK:         %[[REST:.*]] = arith.subf %[[V]], %[[HIF]] : f32
// CHECK:         llvm.inline_asm "cvt.rn.tf32.f32 $0, $1;", "=r,f" %[[REST]] : (f32) -> i32
// CHECK-COUNT-4: llvm.store %{{.*}} : vector<4xf32>, !llvm.ptr<3>
// CHECK:         llvm.getelementptr %{{.*}}[%c8192_i32{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-COUNT-4: llvm.store %{{.*}} : vector<4xf32>, !llvm.ptr<3>
// CHECK:         nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:         nvvm.wgmma.fence.aligned
// CHECK-COUNT-24: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:    "wgmma.wait_group.sync.aligned 0;"
// CHECK-COUNT-64: arith.addf %{{.*}} : f32
// CHECK:         return
func.func @split_operands(%o: !tile.ptr<f32>, %n: i64)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %init = arith.constant dense<1.5> : tensor<64x128xf32>
  %p = arith.constant dense<0.3> : tensor<64x32xf32>
  %ba = tile.alloc_shared : !tile.shared<tensor<64x32xf32>, stages = 1, pad = 0>
  %bb = tile.alloc_shared : !tile.shared<tensor<32x128xf32>, stages = 1, pad = 8>
  tile.local_store %p, %ba[%c0] : tensor<64x32xf32>, !tile.shared<tensor<64x32xf32>, stages = 1, pad = 0>
  %a = tile.local_load %ba[%c0] : !tile.shared<tensor<64x32xf32>, stages = 1, pad = 0> -> tensor<64x32xf32>
  %b = tile.local_load %bb[%c0] : !tile.shared<tensor<32x128xf32>, stages = 1, pad = 8> -> tensor<32x128xf32>
  %d = tile.dot %a, %b, %init precision = tf32x3 : tensor<64x32xf32>, tensor<32x128xf32> -> tensor<64x128xf32>
  %pc = tile.make_block_ptr %o, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x128xf32>>
  tile.block_store %pc, %d check = [0, 1] : !tile.block_ptr<tensor<64x128xf32>>
  return
}

// -----

// A tf32x3 dot whose `a` buffer is also read by a tf32 dot cannot split
// it: only the tf32 dot's 8 wgmma (the generic path computes the other).
// CHECK-LABEL: func.func @mixed_readers
// CHECK-COUNT-8: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32
// CHECK-NOT:     wgmma.mma_async
// CHECK:         return
func.func @mixed_readers(%o: !tile.ptr<f32>, %n: i64)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %zero = arith.constant dense<0.0> : tensor<64x128xf32>
  %ba = tile.alloc_shared : !tile.shared<tensor<64x32xf32>, stages = 1, pad = 0>
  %bb = tile.alloc_shared : !tile.shared<tensor<32x128xf32>, stages = 1, pad = 8>
  %a = tile.local_load %ba[%c0] : !tile.shared<tensor<64x32xf32>, stages = 1, pad = 0> -> tensor<64x32xf32>
  %b = tile.local_load %bb[%c0] : !tile.shared<tensor<32x128xf32>, stages = 1, pad = 8> -> tensor<32x128xf32>
  %d = tile.dot %a, %b, %zero precision = tf32x3 : tensor<64x32xf32>, tensor<32x128xf32> -> tensor<64x128xf32>
  %e = tile.dot %a, %b, %d precision = tf32 : tensor<64x32xf32>, tensor<32x128xf32> -> tensor<64x128xf32>
  %pc = tile.make_block_ptr %o, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x128xf32>>
  tile.block_store %pc, %e check = [0, 1] : !tile.block_ptr<tensor<64x128xf32>>
  return
}

// -----

// tf32x3 products from zero in a loop with the group in flight (the
// library's _f_t tf32x3 builds add them to the running accumulator in the
// next step): no separate sum; the next step's store into `a`'s buffer
// and the first use of the carried products wait for the group.
// CHECK-LABEL: func.func @split_in_flight
// CHECK:         scf.for
// CHECK:           llvm.nvvm.ex2.approx
// CHECK:           "wgmma.wait_group.sync.aligned 0;"
// CHECK:           llvm.store %{{.*}} : vector<4xf32>, !llvm.ptr<3>
// CHECK-COUNT-24:  wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32
// CHECK:           nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:      "wgmma.wait_group.sync.aligned 1;"
// CHECK:         "wgmma.wait_group.sync.aligned 0;"
// CHECK:         return
func.func @split_in_flight(%o: !tile.ptr<f32>, %n: i64, %k: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %c32 = arith.constant 32 : i32
  %one = arith.constant 1 : i64
  %zero = arith.constant dense<0.0> : tensor<64x128xf32>
  %bx = tile.alloc_shared : !tile.shared<tensor<64x32xf32>, stages = 3, pad = 4>
  %bv = tile.alloc_shared : !tile.shared<tensor<32x128xf32>, stages = 3, pad = 8>
  %bp = tile.alloc_shared : !tile.shared<tensor<64x32xf32>, stages = 1, pad = 0>
  %acc, %part = scf.for %i = %c0 to %k step %c32 iter_args(%s = %zero, %q = %zero) -> (tensor<64x128xf32>, tensor<64x128xf32>) : i32 {
    tile.async_wait pending = 0
    %step = arith.divui %i, %c32 : i32
    %stage = arith.remui %step, %c3 : i32
    %x = tile.local_load %bx[%stage] : !tile.shared<tensor<64x32xf32>, stages = 3, pad = 4> -> tensor<64x32xf32>
    %p = math.exp %x fastmath<afn> : tensor<64x32xf32>
    tile.local_store %p, %bp[%c0] : tensor<64x32xf32>, !tile.shared<tensor<64x32xf32>, stages = 1, pad = 0>
    %sum = arith.addf %s, %q : tensor<64x128xf32>
    %pa = tile.local_load %bp[%c0] : !tile.shared<tensor<64x32xf32>, stages = 1, pad = 0> -> tensor<64x32xf32>
    %v = tile.local_load %bv[%stage] : !tile.shared<tensor<32x128xf32>, stages = 3, pad = 8> -> tensor<32x128xf32>
    %d = tile.dot %pa, %v, %zero precision = tf32x3 : tensor<64x32xf32>, tensor<32x128xf32> -> tensor<64x128xf32>
    scf.yield %sum, %d : tensor<64x128xf32>, tensor<64x128xf32>
  } {tile.mma_in_flight}
  %total = arith.addf %acc, %part : tensor<64x128xf32>
  %pc = tile.make_block_ptr %o, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x128xf32>>
  tile.block_store %pc, %total check = [0, 1] : !tile.block_ptr<tensor<64x128xf32>>
  return
}
