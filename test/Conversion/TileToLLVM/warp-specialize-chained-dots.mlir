// tf32x3's products in a warp-specialized loop: three tf32 dots chained
// through one accumulator (small x big from zero, then big x small and
// big x big onto it), each reading a streamed stage as a K-major `b`, the
// weights split from a third stream.
// The first two groups are left in flight (wait_group 1) and the third's
// wait covers all three; the stages' releases, which tile-warp-specialize
// places at the end of the step, follow that last wait. The dots form
// their fragments from the split's source, moved between lanes once per
// dot (the same shuffles of the same registers, which ptxas merges) and
// split after the move with cvt.rn: with the op's own 2 x 16 roundings,
// 96 in the loop, and no cvt.rna.
//
// RUN: tile-opt %s --tile-to-llvm=chip=sm_90a | FileCheck %s

// CHECK-LABEL: func.func @chained(
// CHECK:         scf.for
// CHECK-NOT:       cvt.rna.tf32.f32
// CHECK-COUNT-64:  cvt.rn.tf32.f32
// CHECK-NOT:       cvt.rn{{a?}}.tf32.f32
// CHECK:           nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:      "wgmma.wait_group.sync.aligned 1;"
// CHECK-NOT:       nvvm.mbarrier.arrive
// CHECK-COUNT-16:  cvt.rn.tf32.f32
// CHECK:           nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:      "wgmma.wait_group.sync.aligned 1;"
// CHECK-COUNT-16:  cvt.rn.tf32.f32
// CHECK-NOT:       nvvm.mbarrier.arrive
// CHECK:           nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:      "wgmma.wait_group.sync.aligned 0;"
// CHECK-NOT:       cvt.rn{{a?}}.tf32.f32
// CHECK:           nvvm.mbarrier.arrive
// CHECK:           nvvm.mbarrier.arrive
// CHECK:           nvvm.mbarrier.arrive
// CHECK:         return
func.func @chained(%x: !tile.ptr<f32>, %v: !tile.ptr<f32>, %w: !tile.ptr<f32>,
                   %o: !tile.ptr<f32>, %n: i32, %s: i64)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %b = tile.program_id 2
  %nb = tile.num_programs 2
  %nb64 = arith.extsi %nb : i32 to i64
  %n64 = arith.extsi %n : i32 to i64
  %vhi = tile.make_block_ptr %v, [%nb64, %d, %n64], [%s, %n64, %one], [%b, %c0, %c0] order = [2, 1, 0] : !tile.block_ptr<tensor<1x64x32xf32>>
  %vlo = tile.make_block_ptr %w, [%nb64, %d, %n64], [%s, %n64, %one], [%b, %c0, %c0] order = [2, 1, 0] : !tile.block_ptr<tensor<1x64x32xf32>>
  %xb = tile.make_block_ptr %x, [%nb64, %d, %n64], [%s, %n64, %one], [%b, %c0, %c0] order = [2, 1, 0] : !tile.block_ptr<tensor<1x64x32xf32>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %any = arith.cmpi slt, %c0, %n : i32
  %r = scf.if %any -> tensor<64x64xf32> {
    %res:4 = scf.for %i = %c0 to %n step %c32 iter_args(%acc = %zero, %ph = %vhi, %pl = %vlo, %px = %xb) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<1x64x32xf32>>, !tile.block_ptr<tensor<1x64x32xf32>>, !tile.block_ptr<tensor<1x64x32xf32>>) : i32 {
      %bh = tile.block_load %ph : !tile.block_ptr<tensor<1x64x32xf32>>
      %bl = tile.block_load %pl : !tile.block_ptr<tensor<1x64x32xf32>>
      %th = tile.reshape %bh : tensor<1x64x32xf32> -> tensor<64x32xf32>
      %tl = tile.reshape %bl : tensor<1x64x32xf32> -> tensor<64x32xf32>
      %bx = tile.block_load %px : !tile.block_ptr<tensor<1x64x32xf32>>
      %tx = tile.reshape %bx : tensor<1x64x32xf32> -> tensor<64x32xf32>
      %pv = math.exp %tx : tensor<64x32xf32>
      %hi, %lo = tile.tf32_parts %pv : tensor<64x32xf32>
      %vh = tile.trans %th order = [1, 0] : tensor<64x32xf32> -> tensor<32x64xf32>
      %s0 = tile.dot %lo, %vh, %zero precision = tf32 : tensor<64x32xf32>, tensor<32x64xf32> -> tensor<64x64xf32>
      %vl = tile.trans %tl order = [1, 0] : tensor<64x32xf32> -> tensor<32x64xf32>
      %s1 = tile.dot %hi, %vl, %s0 precision = tf32 : tensor<64x32xf32>, tensor<32x64xf32> -> tensor<64x64xf32>
      %vh2 = tile.trans %th order = [1, 0] : tensor<64x32xf32> -> tensor<32x64xf32>
      %s2 = tile.dot %hi, %vh2, %s1 precision = tf32 : tensor<64x32xf32>, tensor<32x64xf32> -> tensor<64x64xf32>
      %sum = arith.addf %acc, %s2 : tensor<64x64xf32>
      %nh = tile.advance %ph, [%c0, %c0, %c32] : !tile.block_ptr<tensor<1x64x32xf32>>
      %nl = tile.advance %pl, [%c0, %c0, %c32] : !tile.block_ptr<tensor<1x64x32xf32>>
      %nx = tile.advance %px, [%c0, %c0, %c32] : !tile.block_ptr<tensor<1x64x32xf32>>
      scf.yield %sum, %nh, %nl, %nx : tensor<64x64xf32>, !tile.block_ptr<tensor<1x64x32xf32>>, !tile.block_ptr<tensor<1x64x32xf32>>, !tile.block_ptr<tensor<1x64x32xf32>>
    } {tile.warp_specialize}
    scf.yield %res#0 : tensor<64x64xf32>
  } else {
    scf.yield %zero : tensor<64x64xf32>
  }
  %op = tile.make_block_ptr %o, [%d, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  tile.block_store %op, %r : !tile.block_ptr<tensor<64x64xf32>>
  return
}
