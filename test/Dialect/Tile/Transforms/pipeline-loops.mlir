// tile-pipeline-loops: in a kernel with tile.num_stages = 3, the two block
// loads of the K loop (loop-carried block pointers advanced by invariant
// offsets) become 3-stage shared buffers: a prologue copies iterations 0
// and 1 (one commit each), the loop waits until at most one group is in
// flight, copies iteration i + 2 into stage (i + 2) mod 3 and reads stage
// i mod 3; a wait for everything follows the loop.
//
// RUN: tile-opt %s -split-input-file -tile-pipeline-loops | FileCheck %s

// CHECK-LABEL: func.func @mm(
// CHECK:         %[[PA:.*]] = tile.make_block_ptr {{.*}} : !tile.block_ptr<tensor<32x32xf16>>
// CHECK:         %[[PB:.*]] = tile.make_block_ptr {{.*}} : !tile.block_ptr<tensor<32x64xf16>>
// CHECK:         %[[BA:.*]] = tile.alloc_shared : !tile.shared<tensor<32x32xf16>, stages = 3, pad = 8>
// CHECK-NEXT:    %[[BB:.*]] = tile.alloc_shared : !tile.shared<tensor<32x64xf16>, stages = 3, pad = 8>
// CHECK-NEXT:    %[[S0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    tile.async_copy %[[PA]], %[[BA]][%[[S0]]]
// CHECK:         tile.async_copy %[[PB]], %[[BB]][%{{.*}}]
// CHECK-NEXT:    tile.async_commit
// CHECK-NEXT:    %[[PA1:.*]] = tile.advance %[[PA]]
// CHECK-NEXT:    %[[PB1:.*]] = tile.advance %[[PB]]
// CHECK:         tile.async_copy %[[PA1]], %[[BA]]
// CHECK:         tile.async_copy %[[PB1]], %[[BB]]
// CHECK-NEXT:    tile.async_commit
// CHECK-NEXT:    %[[PA2:.*]] = tile.advance %[[PA1]]
// CHECK-NEXT:    %[[PB2:.*]] = tile.advance %[[PB1]]
// CHECK:         scf.for {{.*}} iter_args({{.*}}, %[[AA:.*]] = %[[PA2]], %[[AB:.*]] = %[[PB2]])
// CHECK:           tile.async_wait pending = 1
// CHECK:           %[[STAGE:.*]] = arith.remui
// CHECK:           %[[AHEAD:.*]] = arith.remui
// CHECK-NEXT:      tile.async_copy %[[AA]], %[[BA]][%[[AHEAD]]]
// CHECK-NEXT:      tile.async_copy %[[AB]], %[[BB]][%[[AHEAD]]]
// CHECK-NEXT:      tile.async_commit
// CHECK-NEXT:      %[[X:.*]] = tile.local_load %[[BA]][%[[STAGE]]]
// CHECK-NEXT:      %[[Y:.*]] = tile.local_load %[[BB]][%[[STAGE]]]
// CHECK-NEXT:      tile.dot %[[X]], %[[Y]]
// CHECK-NOT:       tile.block_load
// CHECK:           tile.advance %[[AA]]
// CHECK-NEXT:      tile.advance %[[AB]]
// CHECK-NEXT:      scf.yield
// CHECK:         tile.async_wait pending = 0
// CHECK:         tile.block_store
func.func @mm(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>,
              %M: i32, %N: i32, %K: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 3 : i32} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %one = arith.constant 1 : i64
  %M64 = arith.extsi %M : i32 to i64
  %N64 = arith.extsi %N : i32 to i64
  %K64 = arith.extsi %K : i32 to i64
  %pid = tile.program_id 0
  %row = arith.muli %pid, %c32 : i32
  %pa = tile.make_block_ptr %a, [%M64, %K64], [%K64, %one], [%row, %c0] order = [1, 0] : !tile.block_ptr<tensor<32x32xf16>>
  %pb = tile.make_block_ptr %b, [%K64, %N64], [%N64, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<32x64xf16>>
  %zero = arith.constant dense<0.0> : tensor<32x64xf32>
  %acc, %pa_end, %pb_end = scf.for %k = %c0 to %K step %c32
      iter_args(%sum = %zero, %pa_i = %pa, %pb_i = %pb)
      -> (tensor<32x64xf32>, !tile.block_ptr<tensor<32x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>) : i32 {
    %x = tile.block_load %pa_i check = [0, 1] : !tile.block_ptr<tensor<32x32xf16>>
    %y = tile.block_load %pb_i check = [0, 1] : !tile.block_ptr<tensor<32x64xf16>>
    %next = tile.dot %x, %y, %sum : tensor<32x32xf16>, tensor<32x64xf16> -> tensor<32x64xf32>
    %pa_n = tile.advance %pa_i, [%c0, %c32] : !tile.block_ptr<tensor<32x32xf16>>
    %pb_n = tile.advance %pb_i, [%c32, %c0] : !tile.block_ptr<tensor<32x64xf16>>
    scf.yield %next, %pa_n, %pb_n : tensor<32x64xf32>, !tile.block_ptr<tensor<32x32xf16>>, !tile.block_ptr<tensor<32x64xf16>>
  }
  %pc = tile.make_block_ptr %c, [%M64, %N64], [%N64, %one], [%row, %c0] order = [1, 0] : !tile.block_ptr<tensor<32x64xf32>>
  tile.block_store %pc, %acc check = [0, 1] : !tile.block_ptr<tensor<32x64xf32>>
  return
}

// -----

// Not pipelined: a load padded with -inf (copies zero-fill), and a block
// pointer advanced by a value computed in the loop.
// CHECK-LABEL: func.func @not_candidates(
// CHECK-NOT:     tile.alloc_shared
// CHECK:         tile.block_load {{.*}} padding = neg_inf
// CHECK:         tile.block_load
// CHECK-NOT:     tile.async_copy
// CHECK:         return
func.func @not_candidates(%a: !tile.ptr<f32>, %n: i32, %s: i64)
    attributes {tile.kernel, tile.num_warps = 1 : i32, tile.num_stages = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %one = arith.constant 1 : i64
  %p = tile.make_block_ptr %a, [%s, %s], [%s, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<16x16xf32>>
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %r:4 = scf.for %k = %c0 to %n step %c16
      iter_args(%x = %zero, %y = %zero, %p1 = %p, %p2 = %p)
      -> (tensor<16x16xf32>, tensor<16x16xf32>, !tile.block_ptr<tensor<16x16xf32>>, !tile.block_ptr<tensor<16x16xf32>>) : i32 {
    %t1 = tile.block_load %p1 check = [0, 1] padding = neg_inf : !tile.block_ptr<tensor<16x16xf32>>
    %t2 = tile.block_load %p2 check = [0, 1] : !tile.block_ptr<tensor<16x16xf32>>
    %x1 = arith.addf %x, %t1 : tensor<16x16xf32>
    %y1 = arith.addf %y, %t2 : tensor<16x16xf32>
    %n1 = tile.advance %p1, [%c0, %c16] : !tile.block_ptr<tensor<16x16xf32>>
    %n2 = tile.advance %p2, [%c0, %k] : !tile.block_ptr<tensor<16x16xf32>>
    scf.yield %x1, %y1, %n1, %n2 : tensor<16x16xf32>, tensor<16x16xf32>, !tile.block_ptr<tensor<16x16xf32>>, !tile.block_ptr<tensor<16x16xf32>>
  }
  tile.print "x" %r#0 : tensor<16x16xf32>
  tile.print "y" %r#1 : tensor<16x16xf32>
  return
}

// -----

// Without tile.num_stages (or with 1) nothing changes.
// CHECK-LABEL: func.func @no_stages(
// CHECK-NOT:     tile.alloc_shared
// CHECK:         tile.block_load
func.func @no_stages(%a: !tile.ptr<f32>, %n: i32, %s: i64)
    attributes {tile.kernel, tile.num_warps = 1 : i32, tile.num_stages = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %one = arith.constant 1 : i64
  %p = tile.make_block_ptr %a, [%s, %s], [%s, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<16x16xf32>>
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %r:2 = scf.for %k = %c0 to %n step %c16 iter_args(%x = %zero, %p1 = %p)
      -> (tensor<16x16xf32>, !tile.block_ptr<tensor<16x16xf32>>) : i32 {
    %t = tile.block_load %p1 check = [0, 1] : !tile.block_ptr<tensor<16x16xf32>>
    %x1 = arith.addf %x, %t : tensor<16x16xf32>
    %n1 = tile.advance %p1, [%c0, %c16] : !tile.block_ptr<tensor<16x16xf32>>
    scf.yield %x1, %n1 : tensor<16x16xf32>, !tile.block_ptr<tensor<16x16xf32>>
  }
  tile.print "x" %r#0 : tensor<16x16xf32>
  return
}

// -----

// The prologue's copies start as early as their pointers allow: above the
// independent work before the loop (the exponential), not above a write
// to global memory (the store, which the copies might read).
// CHECK-LABEL: func.func @early_prologue(
// CHECK:         tile.block_store
// CHECK-NEXT:    tile.alloc_shared
// CHECK:         tile.async_copy
// CHECK:         tile.async_commit
// CHECK:         math.exp
// CHECK:         scf.for
func.func @early_prologue(%a: !tile.ptr<f16>, %c: !tile.ptr<f32>, %K: i32,
                          %f: f32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %one = arith.constant 1 : i64
  %K64 = arith.extsi %K : i32 to i64
  %pa = tile.make_block_ptr %a, [%K64, %K64], [%K64, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<32x32xf16>>
  %pc = tile.make_block_ptr %c, [%K64, %K64], [%K64, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<32x32xf32>>
  %w = tile.splat %f : tensor<32x32xf32>
  tile.block_store %pc, %w check = [0, 1] : !tile.block_ptr<tensor<32x32xf32>>
  %e = math.exp %w : tensor<32x32xf32>
  %acc, %pa_end = scf.for %k = %c0 to %K step %c32
      iter_args(%sum = %e, %pa_i = %pa)
      -> (tensor<32x32xf32>, !tile.block_ptr<tensor<32x32xf16>>) : i32 {
    %x = tile.block_load %pa_i check = [0, 1] : !tile.block_ptr<tensor<32x32xf16>>
    %xf = arith.extf %x : tensor<32x32xf16> to tensor<32x32xf32>
    %next = arith.addf %sum, %xf : tensor<32x32xf32>
    %pa_n = tile.advance %pa_i, [%c32, %c0] : !tile.block_ptr<tensor<32x32xf16>>
    scf.yield %next, %pa_n : tensor<32x32xf32>, !tile.block_ptr<tensor<32x32xf16>>
  }
  tile.block_store %pc, %acc check = [0, 1] : !tile.block_ptr<tensor<32x32xf32>>
  return
}
