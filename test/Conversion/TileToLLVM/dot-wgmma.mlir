// With chip=sm_90a, a dot whose operands are both read from shared buffers
// becomes wgmma: layout assignment puts all warps along M (4 warps = one
// warpgroup for the 64 rows), the buffers get swizzled layouts (1024-byte
// aligned, no pad: 64x32 f16 `a` in 64-byte rows, 32x64 f16 `b` in
// 128-byte rows), the copies are fenced for the async proxy before the
// barrier, and the dot is one m64n64k16 wgmma per k16 step between a fence
// and a commit + wait. The descriptors' constant fields: `a` K-major with
// 64-byte swizzle (mode 2 in bits 62-63, stride 512 bytes = 32 << 32,
// leading 16 bytes = 1 << 16); `b` MN-major with 128-byte swizzle (mode 1,
// stride 1024 = 64 << 32, leading 4096 bytes = 256 << 16, the distance
// between 64-column chunks, unused here).
//
// RUN: tile-opt %s --split-input-file --tile-to-llvm=chip=sm_90a | FileCheck %s

// CHECK-LABEL: func.func @pipelined_dot
// CHECK-SAME:    tile.shared_bytes = 16384
// CHECK-SAME:    tile.wgmma
// CHECK:         nvvm.cp.async.wait.group 0
// CHECK-NEXT:    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:    nvvm.barrier0
// CHECK-DAG:     arith.constant -9223371899415756800 : i64
// CHECK-DAG:     arith.constant 4611686293322072064 : i64
// CHECK:         nvvm.wgmma.fence.aligned
// CHECK-COUNT-2: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CHECK-NOT:     mma.sync
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:    "wgmma.wait_group.sync.aligned 0;"
// CHECK:         return
func.func @pipelined_dot(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %n: i64, %s: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %pa = tile.make_block_ptr %a, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x32xf16>>
  %pb = tile.make_block_ptr %b, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<32x64xf16>>
  %pc = tile.make_block_ptr %c, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  %bufa = tile.alloc_shared : !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8>
  %bufb = tile.alloc_shared : !tile.shared<tensor<32x64xf16>, stages = 2, pad = 8>
  tile.async_copy %pa, %bufa[%s] : !tile.block_ptr<tensor<64x32xf16>>, !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8>
  tile.async_copy %pb, %bufb[%s] : !tile.block_ptr<tensor<32x64xf16>>, !tile.shared<tensor<32x64xf16>, stages = 2, pad = 8>
  tile.async_commit
  tile.async_wait pending = 0
  %x = tile.local_load %bufa[%s] : !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8> -> tensor<64x32xf16>
  %y = tile.local_load %bufb[%s] : !tile.shared<tensor<32x64xf16>, stages = 2, pad = 8> -> tensor<32x64xf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %z = tile.dot %x, %y, %zero : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
  tile.block_store %pc, %z check = [0, 1] : !tile.block_ptr<tensor<64x64xf32>>
  return
}

// -----

// Two warps are not a warpgroup: the same dot stays on mma.sync, with the
// buffers in their padded row-major layout and no proxy fence.
// CHECK-LABEL: func.func @two_warps
// CHECK-NOT:     tile.wgmma
// CHECK-NOT:     fence.proxy.async
// CHECK:         nvvm.mma.sync {{.*}} shape = #nvvm.shape<m = 16, n = 8, k = 16>}
// CHECK-NOT:     wgmma
// CHECK:         return
func.func @two_warps(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %n: i64, %s: i32)
    attributes {tile.kernel, tile.num_warps = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %pa = tile.make_block_ptr %a, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x32xf16>>
  %pb = tile.make_block_ptr %b, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<32x64xf16>>
  %pc = tile.make_block_ptr %c, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  %bufa = tile.alloc_shared : !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8>
  %bufb = tile.alloc_shared : !tile.shared<tensor<32x64xf16>, stages = 2, pad = 8>
  tile.async_copy %pa, %bufa[%s] : !tile.block_ptr<tensor<64x32xf16>>, !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8>
  tile.async_copy %pb, %bufb[%s] : !tile.block_ptr<tensor<32x64xf16>>, !tile.shared<tensor<32x64xf16>, stages = 2, pad = 8>
  tile.async_commit
  tile.async_wait pending = 0
  %x = tile.local_load %bufa[%s] : !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8> -> tensor<64x32xf16>
  %y = tile.local_load %bufb[%s] : !tile.shared<tensor<32x64xf16>, stages = 2, pad = 8> -> tensor<32x64xf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %z = tile.dot %x, %y, %zero : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
  tile.block_store %pc, %z check = [0, 1] : !tile.block_ptr<tensor<64x64xf32>>
  return
}

// -----

// tf32 (f32 operands, tf32 precision): `a` is computed (the exponentiated
// tile of an online softmax), so it comes from registers, rounded once
// with cvt.rna; wgmma reads 32-bit operands from shared memory only
// K-major, so `b`'s stage is filled transposed, one 4-byte cp.async per
// element (interior and edge blocks alike; `a`'s buffer keeps 16-byte
// copies), and each k8 step is one m64n64k8 wgmma with no transpose
// immediates.
// CHECK-LABEL: func.func @tf32_a_in_registers
// CHECK-SAME:    tile.wgmma
// CHECK:         scf.if
// CHECK:         nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache =  cg
// CHECK:         nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache =  ca, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK-NOT:     cache =  cg
// CHECK:         cvt.rna.tf32.f32
// CHECK:         nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {{.*}}, p, 1, 1;
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK:         return
func.func @tf32_a_in_registers(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %c: !tile.ptr<f32>, %n: i64, %s: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %pa = tile.make_block_ptr %a, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x32xf32>>
  %pb = tile.make_block_ptr %b, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<32x64xf32>>
  %pc = tile.make_block_ptr %c, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  %bufa = tile.alloc_shared : !tile.shared<tensor<64x32xf32>, stages = 2, pad = 4>
  %bufb = tile.alloc_shared : !tile.shared<tensor<32x64xf32>, stages = 2, pad = 4>
  tile.async_copy %pa, %bufa[%s] : !tile.block_ptr<tensor<64x32xf32>>, !tile.shared<tensor<64x32xf32>, stages = 2, pad = 4>
  tile.async_copy %pb, %bufb[%s] : !tile.block_ptr<tensor<32x64xf32>>, !tile.shared<tensor<32x64xf32>, stages = 2, pad = 4>
  tile.async_commit
  tile.async_wait pending = 0
  %x = tile.local_load %bufa[%s] : !tile.shared<tensor<64x32xf32>, stages = 2, pad = 4> -> tensor<64x32xf32>
  %p = math.exp %x : tensor<64x32xf32>
  %y = tile.local_load %bufb[%s] : !tile.shared<tensor<32x64xf32>, stages = 2, pad = 4> -> tensor<32x64xf32>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %z = tile.dot %p, %y, %zero precision = tf32 : tensor<64x32xf32>, tensor<32x64xf32> -> tensor<64x64xf32>
  tile.block_store %pc, %z check = [0, 1] : !tile.block_ptr<tensor<64x64xf32>>
  return
}

// -----

// The same dot from tile.tf32_parts's parts (tf32x3's big x small and
// small x big): the op rounds each of the thread's 16 elements twice
// (cvt.rn, to its tf32 part and its remainder), and each dot forms its
// fragments from the op's source registers, split again after any move
// between lanes (16 x 2 roundings for the remainders' dot, 16 for the
// parts' dot): the same instructions on the same registers, which ptxas
// merges. No cvt.rna. The first dot's result is only the second's
// accumulator: its group is left in flight (wait_group 1), the second
// chains onto it, and the second's wait covers both.
// CHECK-LABEL: func.func @tf32_a_from_split
// CHECK-NOT:     cvt.rna.tf32.f32
// CHECK-COUNT-64: cvt.rn.tf32.f32
// CHECK-NOT:     cvt.rn{{a?}}.tf32.f32
// CHECK:         nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {{.*}}, p, 1, 1;
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:    "wgmma.wait_group.sync.aligned 1;"
// CHECK-COUNT-16: cvt.rn.tf32.f32
// CHECK-NOT:     cvt.rn{{a?}}.tf32.f32
// CHECK:         nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {{.*}}, p, 1, 1;
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:    "wgmma.wait_group.sync.aligned 0;"
// CHECK-NOT:     cvt.rn{{a?}}.tf32.f32
// CHECK:         return
func.func @tf32_a_from_split(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %c: !tile.ptr<f32>, %n: i64, %s: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %pa = tile.make_block_ptr %a, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x32xf32>>
  %pb = tile.make_block_ptr %b, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<32x64xf32>>
  %pc = tile.make_block_ptr %c, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  %bufa = tile.alloc_shared : !tile.shared<tensor<64x32xf32>, stages = 2, pad = 4>
  %bufb = tile.alloc_shared : !tile.shared<tensor<32x64xf32>, stages = 2, pad = 4>
  tile.async_copy %pa, %bufa[%s] : !tile.block_ptr<tensor<64x32xf32>>, !tile.shared<tensor<64x32xf32>, stages = 2, pad = 4>
  tile.async_copy %pb, %bufb[%s] : !tile.block_ptr<tensor<32x64xf32>>, !tile.shared<tensor<32x64xf32>, stages = 2, pad = 4>
  tile.async_commit
  tile.async_wait pending = 0
  %x = tile.local_load %bufa[%s] : !tile.shared<tensor<64x32xf32>, stages = 2, pad = 4> -> tensor<64x32xf32>
  %p = math.exp %x : tensor<64x32xf32>
  %hi, %lo = tile.tf32_parts %p : tensor<64x32xf32>
  %y = tile.local_load %bufb[%s] : !tile.shared<tensor<32x64xf32>, stages = 2, pad = 4> -> tensor<32x64xf32>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %z0 = tile.dot %lo, %y, %zero precision = tf32 : tensor<64x32xf32>, tensor<32x64xf32> -> tensor<64x64xf32>
  %z = tile.dot %hi, %y, %z0 precision = tf32 : tensor<64x32xf32>, tensor<32x64xf32> -> tensor<64x64xf32>
  tile.block_store %pc, %z check = [0, 1] : !tile.block_ptr<tensor<64x64xf32>>
  return
}

// -----

// Q K^T with K's block as copied (rows n, k contiguous): `b` is the
// transpose of a buffer read, which wgmma takes K-major (the last two
// immediates 0: `a` and `b` both K-major) through a descriptor of the
// plain buffer (128-byte swizzled rows: mode 1, stride 1024 = 64 << 32,
// leading 16 = 1 << 16, the same fields as `a`'s); the transpose moves no
// data (no barrier between the copies' and the wgmma's).
// CHECK-LABEL: func.func @k_major_b
// CHECK-SAME:    tile.wgmma
// CHECK:         nvvm.cp.async.wait.group 0
// CHECK-NEXT:    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:    nvvm.barrier0
// CHECK-NOT:     nvvm.barrier0
// CHECK:         arith.constant 4611686293305360384 : i64
// CHECK:         nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 0;
// CHECK-NOT:     mma.sync
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK:         return
func.func @k_major_b(%q: !tile.ptr<f16>, %k: !tile.ptr<f16>, %c: !tile.ptr<f32>, %n: i64, %s: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %pq = tile.make_block_ptr %q, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  %pk = tile.make_block_ptr %k, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  %pc = tile.make_block_ptr %c, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  %bufq = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8>
  %bufk = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8>
  tile.async_copy %pq, %bufq[%s] : !tile.block_ptr<tensor<64x64xf16>>, !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8>
  tile.async_copy %pk, %bufk[%s] : !tile.block_ptr<tensor<64x64xf16>>, !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8>
  tile.async_commit
  tile.async_wait pending = 0
  %x = tile.local_load %bufq[%s] : !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8> -> tensor<64x64xf16>
  %kt = tile.local_load %bufk[%s] : !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8> -> tensor<64x64xf16>
  %y = tile.trans %kt order = [1, 0] : tensor<64x64xf16> -> tensor<64x64xf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %z = tile.dot %x, %y, %zero : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
  tile.block_store %pc, %z check = [0, 1] : !tile.block_ptr<tensor<64x64xf32>>
  return
}

// -----

// tf32 with `b` the transpose of a buffer read (V^T's block as copied,
// k contiguous): the buffer is K-major as it stands, so its stage is
// filled by 16-byte copies (not element by element), and `a`, from
// registers in the accumulator's layout (columns 2t and 2t + 1 of each
// k8 group), reaches the fragments' order (columns t and t + 4) through
// its quad: two shfl.idx per row and k8 step (2 rows in each of the 4
// steps here).
// CHECK-LABEL: func.func @tf32_k_major_b
// CHECK-SAME:    tile.wgmma
// CHECK:         nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache =  cg
// CHECK-NOT:     cache =  ca
// CHECK:         cvt.rna.tf32.f32
// CHECK-COUNT-16: nvvm.shfl.sync idx
// CHECK-NOT:     nvvm.shfl.sync
// CHECK:         nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {{.*}}, p, 1, 1;
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK:         return
func.func @tf32_k_major_b(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %c: !tile.ptr<f32>, %n: i64, %s: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %pa = tile.make_block_ptr %a, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x32xf32>>
  %pb = tile.make_block_ptr %b, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x32xf32>>
  %pc = tile.make_block_ptr %c, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  %bufa = tile.alloc_shared : !tile.shared<tensor<64x32xf32>, stages = 2, pad = 4>
  %bufb = tile.alloc_shared : !tile.shared<tensor<64x32xf32>, stages = 2, pad = 4>
  tile.async_copy %pa, %bufa[%s] : !tile.block_ptr<tensor<64x32xf32>>, !tile.shared<tensor<64x32xf32>, stages = 2, pad = 4>
  tile.async_copy %pb, %bufb[%s] : !tile.block_ptr<tensor<64x32xf32>>, !tile.shared<tensor<64x32xf32>, stages = 2, pad = 4>
  tile.async_commit
  tile.async_wait pending = 0
  %x = tile.local_load %bufa[%s] : !tile.shared<tensor<64x32xf32>, stages = 2, pad = 4> -> tensor<64x32xf32>
  %p = math.exp %x : tensor<64x32xf32>
  %vt = tile.local_load %bufb[%s] : !tile.shared<tensor<64x32xf32>, stages = 2, pad = 4> -> tensor<64x32xf32>
  %y = tile.trans %vt order = [1, 0] : tensor<64x32xf32> -> tensor<32x64xf32>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %z = tile.dot %p, %y, %zero precision = tf32 : tensor<64x32xf32>, tensor<32x64xf32> -> tensor<64x64xf32>
  tile.block_store %pc, %z check = [0, 1] : !tile.block_ptr<tensor<64x64xf32>>
  return
}

// -----

// A wgmma dot is waited for where its result is first needed: the second
// dot is issued before the first one's result is used, and its commit
// leaves both groups in flight (wait_group 2); the first dot's wait leaves
// one group (the second dot's) in flight and the product's multiplication
// overlaps it; the second is waited for (wait_group 0) before its result
// is added.
// CHECK-LABEL: func.func @overlapped_dots
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:    "wgmma.wait_group.sync.aligned 1;"
// CHECK-NOT:     arith.mulf
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:    "wgmma.wait_group.sync.aligned 2;"
// CHECK-NOT:     arith.mulf
// CHECK:         "wgmma.wait_group.sync.aligned 1;"
// CHECK-NOT:     wgmma.wait_group
// CHECK:         arith.mulf
// CHECK-NOT:     arith.addf
// CHECK:         "wgmma.wait_group.sync.aligned 0;"
// CHECK:         arith.addf
func.func @overlapped_dots(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %n: i64, %s: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %pa = tile.make_block_ptr %a, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x32xf16>>
  %pb = tile.make_block_ptr %b, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<32x64xf16>>
  %pc = tile.make_block_ptr %c, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  %bufa = tile.alloc_shared : !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8>
  %bufb = tile.alloc_shared : !tile.shared<tensor<32x64xf16>, stages = 2, pad = 8>
  tile.async_copy %pa, %bufa[%s] : !tile.block_ptr<tensor<64x32xf16>>, !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8>
  tile.async_copy %pb, %bufb[%s] : !tile.block_ptr<tensor<32x64xf16>>, !tile.shared<tensor<32x64xf16>, stages = 2, pad = 8>
  tile.async_commit
  tile.async_wait pending = 0
  %x = tile.local_load %bufa[%s] : !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8> -> tensor<64x32xf16>
  %y = tile.local_load %bufb[%s] : !tile.shared<tensor<32x64xf16>, stages = 2, pad = 8> -> tensor<32x64xf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %ones = arith.constant dense<1.0> : tensor<64x64xf32>
  %z1 = tile.dot %x, %y, %zero : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
  %z2 = tile.dot %x, %y, %ones : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
  %sq = arith.mulf %z1, %z1 : tensor<64x64xf32>
  %sum = arith.addf %sq, %z2 : tensor<64x64xf32>
  tile.block_store %pc, %sum check = [0, 1] : !tile.block_ptr<tensor<64x64xf32>>
  return
}

// -----

// The wait moves no further than a write to shared memory (the group may
// still be reading the buffer): it comes after the independent
// multiplication, before the store's barrier.
// CHECK-LABEL: func.func @wait_before_store
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:    "wgmma.wait_group.sync.aligned 1;"
// CHECK:         arith.mulf
// CHECK-NOT:     llvm.store
// CHECK:         "wgmma.wait_group.sync.aligned 0;"
// CHECK-NOT:     llvm.store
// CHECK:         nvvm.barrier0
// CHECK:         llvm.store
// CHECK:         return
func.func @wait_before_store(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %n: i64, %s: i32, %f: f32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %pa = tile.make_block_ptr %a, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x32xf16>>
  %pb = tile.make_block_ptr %b, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<32x64xf16>>
  %pc = tile.make_block_ptr %c, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  %bufa = tile.alloc_shared : !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8>
  %bufb = tile.alloc_shared : !tile.shared<tensor<32x64xf16>, stages = 2, pad = 8>
  tile.async_copy %pa, %bufa[%s] : !tile.block_ptr<tensor<64x32xf16>>, !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8>
  tile.async_copy %pb, %bufb[%s] : !tile.block_ptr<tensor<32x64xf16>>, !tile.shared<tensor<32x64xf16>, stages = 2, pad = 8>
  tile.async_commit
  tile.async_wait pending = 0
  %x = tile.local_load %bufa[%s] : !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8> -> tensor<64x32xf16>
  %y = tile.local_load %bufb[%s] : !tile.shared<tensor<32x64xf16>, stages = 2, pad = 8> -> tensor<32x64xf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %z = tile.dot %x, %y, %zero : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
  %ff = arith.mulf %f, %f : f32
  %fh = arith.truncf %ff : f32 to f16
  %h = tile.splat %fh : tensor<64x32xf16>
  tile.local_store %h, %bufa[%c0] : tensor<64x32xf16>, !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8>
  tile.block_store %pc, %z check = [0, 1] : !tile.block_ptr<tensor<64x64xf32>>
  return
}

// -----

// The wait also moves past an scf.if of pure ops (a mask that some
// iterations apply): the second dot stays in flight through the branch that
// uses the first one's result, and is waited for before its own use.
// CHECK-LABEL: func.func @wait_past_pure_if
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:    "wgmma.wait_group.sync.aligned 2;"
// CHECK:         "wgmma.wait_group.sync.aligned 1;"
// CHECK-NOT:     wgmma.wait_group
// CHECK:         scf.if
// CHECK:         arith.mulf
// CHECK-NOT:     arith.addf
// CHECK:         "wgmma.wait_group.sync.aligned 0;"
// CHECK:         arith.addf
func.func @wait_past_pure_if(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %n: i64, %s: i32, %masked: i1)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %pa = tile.make_block_ptr %a, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x32xf16>>
  %pb = tile.make_block_ptr %b, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<32x64xf16>>
  %pc = tile.make_block_ptr %c, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  %bufa = tile.alloc_shared : !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8>
  %bufb = tile.alloc_shared : !tile.shared<tensor<32x64xf16>, stages = 2, pad = 8>
  tile.async_copy %pa, %bufa[%s] : !tile.block_ptr<tensor<64x32xf16>>, !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8>
  tile.async_copy %pb, %bufb[%s] : !tile.block_ptr<tensor<32x64xf16>>, !tile.shared<tensor<32x64xf16>, stages = 2, pad = 8>
  tile.async_commit
  tile.async_wait pending = 0
  %x = tile.local_load %bufa[%s] : !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8> -> tensor<64x32xf16>
  %y = tile.local_load %bufb[%s] : !tile.shared<tensor<32x64xf16>, stages = 2, pad = 8> -> tensor<32x64xf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %ones = arith.constant dense<1.0> : tensor<64x64xf32>
  %z1 = tile.dot %x, %y, %zero : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
  %z2 = tile.dot %x, %y, %ones : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
  %m = scf.if %masked -> (tensor<64x64xf32>) {
    %cols = tile.range 0, 64 : tensor<64xi32>
    %wide = tile.expand_dims %cols axis = 0 : tensor<64xi32> -> tensor<1x64xi32>
    %all = tile.broadcast %wide : tensor<1x64xi32> -> tensor<64x64xi32>
    %bound = arith.constant dense<40> : tensor<64x64xi32>
    %keep = arith.cmpi slt, %all, %bound : tensor<64x64xi32>
    %sel = arith.select %keep, %z1, %ones : tensor<64x64xi1>, tensor<64x64xf32>
    scf.yield %sel : tensor<64x64xf32>
  } else {
    scf.yield %z1 : tensor<64x64xf32>
  }
  %sq = arith.mulf %m, %m : tensor<64x64xf32>
  %sum = arith.addf %sq, %z2 : tensor<64x64xf32>
  tile.block_store %pc, %sum check = [0, 1] : !tile.block_ptr<tensor<64x64xf32>>
  return
}

// -----

// Eight warps and 512 columns: no layout with all warps along M fits (64
// rows), so the two warpgroups split the columns. Each holds all 64 rows
// of its 256 columns (4 warps along M, warpOrder [0, 1], warpSlices [1])
// and issues one m64n256k16 wgmma per k16 step; both read `a` from its
// start (its rows ordered for 4 warps along M), and warpgroup g's `b`
// descriptor starts g x 16384 bytes in: four 128-byte column chunks of 32
// rows (4096 bytes each).
// CHECK-LABEL: func.func @columns_split
// CHECK-SAME:    tile.wgmma
// CHECK:         %[[OFF:.*]] = arith.muli %{{.*}}, %c16384_i32{{[_0-9]*}} : i32
// CHECK-NEXT:    arith.addi %{{.*}}, %[[OFF]] : i32
// CHECK:         nvvm.wgmma.fence.aligned
// CHECK-COUNT-2: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// CHECK-NOT:     wgmma.mma_async
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK:         return
func.func @columns_split(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %n: i64, %s: i32)
    attributes {tile.kernel, tile.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %pa = tile.make_block_ptr %a, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x32xf16>>
  %pb = tile.make_block_ptr %b, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<32x512xf16>>
  %pc = tile.make_block_ptr %c, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x512xf32>>
  %bufa = tile.alloc_shared : !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8>
  %bufb = tile.alloc_shared : !tile.shared<tensor<32x512xf16>, stages = 2, pad = 8>
  tile.async_copy %pa, %bufa[%s] : !tile.block_ptr<tensor<64x32xf16>>, !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8>
  tile.async_copy %pb, %bufb[%s] : !tile.block_ptr<tensor<32x512xf16>>, !tile.shared<tensor<32x512xf16>, stages = 2, pad = 8>
  tile.async_commit
  tile.async_wait pending = 0
  %x = tile.local_load %bufa[%s] : !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8> -> tensor<64x32xf16>
  %y = tile.local_load %bufb[%s] : !tile.shared<tensor<32x512xf16>, stages = 2, pad = 8> -> tensor<32x512xf16>
  %zero = arith.constant dense<0.0> : tensor<64x512xf32>
  %z = tile.dot %x, %y, %zero : tensor<64x32xf16>, tensor<32x512xf16> -> tensor<64x512xf32>
  tile.block_store %pc, %z check = [0, 1] : !tile.block_ptr<tensor<64x512xf32>>
  return
}

// -----

// A store into another stage of the buffer the group reads (stage
// (%i + 1) mod 2 against %i mod 2) and a reduction across warps (its
// exchange through the scratch space below the buffers) do not stop the
// wait: it comes after both, right before the result's first use.
// CHECK-LABEL: func.func @wait_past_other_stage_and_reduce
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:    "wgmma.wait_group.sync.aligned 1;"
// CHECK-NOT:     wgmma.wait_group
// CHECK:         llvm.store
// CHECK-NOT:     wgmma.wait_group
// CHECK:         nvvm.barrier0
// CHECK:         llvm.load
// CHECK:         "wgmma.wait_group.sync.aligned 0;"
// CHECK:         arith.mulf
// CHECK:         return
func.func @wait_past_other_stage_and_reduce(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %r: !tile.ptr<f32>, %n: i64, %i: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %one = arith.constant 1 : i64
  %s = arith.remui %i, %c2 : i32
  %next = arith.addi %i, %c1 : i32
  %t = arith.remui %next, %c2 : i32
  %pa = tile.make_block_ptr %a, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x32xf16>>
  %pb = tile.make_block_ptr %b, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<32x64xf16>>
  %pc = tile.make_block_ptr %c, [%n, %n], [%n, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  %bufa = tile.alloc_shared : !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8>
  %bufb = tile.alloc_shared : !tile.shared<tensor<32x64xf16>, stages = 2, pad = 8>
  tile.async_copy %pa, %bufa[%s] : !tile.block_ptr<tensor<64x32xf16>>, !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8>
  tile.async_copy %pb, %bufb[%s] : !tile.block_ptr<tensor<32x64xf16>>, !tile.shared<tensor<32x64xf16>, stages = 2, pad = 8>
  tile.async_commit
  tile.async_wait pending = 0
  %x = tile.local_load %bufa[%s] : !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8> -> tensor<64x32xf16>
  %y = tile.local_load %bufb[%s] : !tile.shared<tensor<32x64xf16>, stages = 2, pad = 8> -> tensor<32x64xf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %z = tile.dot %x, %y, %zero : tensor<64x32xf16>, tensor<32x64xf16> -> tensor<64x64xf32>
  %h = tile.local_load %bufa[%s] : !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8> -> tensor<64x32xf16>
  tile.local_store %h, %bufa[%t] : tensor<64x32xf16>, !tile.shared<tensor<64x32xf16>, stages = 2, pad = 8>
  %hf = arith.extf %h : tensor<64x32xf16> to tensor<64x32xf32>
  %col = tile.reduce max %hf axis = 0 : tensor<64x32xf32> -> tensor<32xf32>
  %pr = tile.make_block_ptr %r, [%n], [%one], [%c0] order = [0] : !tile.block_ptr<tensor<32xf32>>
  %sq = arith.mulf %z, %z : tensor<64x64xf32>
  tile.block_store %pc, %sq check = [0, 1] : !tile.block_ptr<tensor<64x64xf32>>
  tile.block_store %pr, %col check = [0] : !tile.block_ptr<tensor<32xf32>>
  return
}
