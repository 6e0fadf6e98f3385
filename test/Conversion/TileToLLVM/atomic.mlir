// tile.atomic_rmw / tile.atomic_cas: one relaxed LLVM atomic per element
// held first by this thread, between the fences of the op's ordering; the
// old values go through shared memory when other threads hold copies.
//
// RUN: tile-opt %s -split-input-file -tile-convert-to-llvm | FileCheck %s

// 128 elements over 4 warps, one each: no copies, no shared memory; the
// release fence before, the acquire fence after (acq_rel, gpu scope).
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// CHECK-LABEL: func.func @add_f32(
// CHECK-SAME:    tile.shared_bytes = 0 : i64
// CHECK:         llvm.fence syncscope("device") release
// CHECK:         scf.if
// CHECK:           llvm.atomicrmw fadd %{{.*}}, %{{.*}} syncscope("device") monotonic : !llvm.ptr<1>, f32
// CHECK:         llvm.fence syncscope("device") acquire
// CHECK-NOT:     nvvm.barrier0
func.func @add_f32(%p: !tile.ptr<f32>, %a: f32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = tile.range 0, 128 : tensor<128xi32, #b>
  %ps = tile.splat %p : tensor<128x!tile.ptr<f32>, #b>
  %ptrs = tile.addptr %ps, %r : tensor<128x!tile.ptr<f32>, #b>, tensor<128xi32, #b>
  %v = tile.splat %a : tensor<128xf32, #b>
  %m = arith.cmpi slt, %r, %r : tensor<128xi32, #b>
  %old = tile.atomic_rmw add %ptrs, %v, %m : tensor<128x!tile.ptr<f32>, #b>
  return
}

// -----

// 32 elements over 4 warps: warps 1-3 hold copies. Only warp 0 applies the
// exchange, and its old values reach the others through shared memory.
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// CHECK-LABEL: func.func @xchg_copies(
// CHECK-SAME:    tile.shared_bytes = 128 : i64
// CHECK-NOT:     llvm.fence
// CHECK:         %[[FIRST:.*]] = arith.cmpi ult, %{{.*}}, %{{.*}} : i32
// CHECK:         scf.if %[[FIRST]] -> (i32)
// CHECK:           llvm.atomicrmw xchg %{{.*}}, %{{.*}} syncscope("block") monotonic : !llvm.ptr<1>, i32
// CHECK:         nvvm.barrier0
// CHECK:         scf.if %[[FIRST]] {
// CHECK:           llvm.store
// CHECK:         nvvm.barrier0
// CHECK:         llvm.load
func.func @xchg_copies(%p: !tile.ptr<i32>, %q: !tile.ptr<i32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = tile.range 0, 32 : tensor<32xi32, #b>
  %ps = tile.splat %p : tensor<32x!tile.ptr<i32>, #b>
  %ptrs = tile.addptr %ps, %r : tensor<32x!tile.ptr<i32>, #b>, tensor<32xi32, #b>
  %old = tile.atomic_rmw xchg %ptrs, %r sem = relaxed scope = cta : tensor<32x!tile.ptr<i32>, #b>
  %qs = tile.splat %q : tensor<32x!tile.ptr<i32>, #b>
  %qptrs = tile.addptr %qs, %r : tensor<32x!tile.ptr<i32>, #b>, tensor<32xi32, #b>
  tile.store %qptrs, %old : tensor<32x!tile.ptr<i32>, #b>
  return
}

// -----

// A compare-and-swap through a scalar pointer: thread 0 applies it.
// CHECK-LABEL: func.func @cas_scalar(
// CHECK:         llvm.cmpxchg %{{.*}}, %{{.*}}, %{{.*}} syncscope("device") monotonic monotonic : !llvm.ptr<1>, i32
// CHECK:         llvm.extractvalue
func.func @cas_scalar(%p: !tile.ptr<i32>, %c: i32, %v: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %old = tile.atomic_cas %p, %c, %v sem = relaxed : !tile.ptr<i32>
  return
}
