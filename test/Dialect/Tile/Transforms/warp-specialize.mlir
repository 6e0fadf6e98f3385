// tile-warp-specialize: the marked loop streams 1x1x64x64 blocks of a 4-d
// array ([batch, heads, rows, 64] with any strides) read through a reshape.
// The kernel gains a tensor map (the last two dimensions' shape and
// strides, then the heads' and the batch's (stride, count) pairs), a
// 2-stage buffer and two barrier arrays at its start, and a producer
// region that recomputes the loop's bounds and first block pointer under
// the same scf.if, waits for each stage's release and copies into it. The
// loop waits for its stage, reads it and releases it after the dot.
//
// RUN: tile-opt %s -split-input-file -tile-warp-specialize=chip=sm_90a | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-warp-specialize=chip=sm_80 | FileCheck %s --check-prefix=SM80

// CHECK-LABEL: func.func @stream(
// CHECK-SAME:    %[[K:[^:]*]]: !tile.ptr<f16>
// CHECK-SAME:    %{{.*}}: !tile.tensormap {tile.tma = {base = 0 : i64, batch = ["arg4", "arg3", "arg6", "grid2"], shape = ["arg2", "64"], strides = ["arg5", "1"]}})
// CHECK-NEXT:    %[[BUF:.*]] = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 2, pad = 8>
// CHECK-NEXT:    %[[FULL:.*]] = tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 1>
// CHECK-NEXT:    %[[EMPTY:.*]] = tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 128>
// CHECK-NEXT:    tile.warp_specialize registers(24, 240) {
// CHECK:           scf.if
// CHECK:             %[[PTR:.*]] = tile.make_block_ptr %[[K]]
// CHECK:             scf.for {{.*}} iter_args(%[[P:.*]] = %[[PTR]])
// CHECK:               %[[FREE:.*]] = arith.xori
// CHECK-NEXT:          %{{.*}} = arith.constant true
// CHECK-NEXT:          tile.mbarrier_wait %[[EMPTY]][%[[S:.*]]], phase %[[FREE]] nosync
// CHECK-NEXT:          tile.tma_copy %[[P]], %[[BUF]][%[[S]]] map %{{.*}}, %[[FULL]] if
// CHECK-NEXT:          tile.advance %[[P]]
// CHECK:         scf.for
// CHECK:           tile.mbarrier_wait %[[FULL]][%[[CS:.*]]], phase %{{.*}} nosync
// CHECK:           %[[T:.*]] = tile.local_load %[[BUF]][%[[CS]]]
// CHECK-NEXT:      %[[TT:.*]] = tile.trans %[[T]]
// CHECK-NEXT:      %[[D:.*]] = tile.dot %{{.*}}, %[[TT]]
// CHECK:           tile.mbarrier_arrive %[[EMPTY]][%[[CS]]] after %[[D]]
// CHECK-NEXT:      scf.yield
// CHECK-NOT:     tile.block_load

// SM80-LABEL: func.func @stream(
// SM80-NOT:     tile.warp_specialize
// SM80:         tile.block_load
func.func @stream(%k: !tile.ptr<f16>, %o: !tile.ptr<f32>, %n: i32, %heads: i32,
                  %sh: i64, %sr: i64, %sb: i64)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %h = tile.program_id 1
  %b = tile.program_id 2
  %nb = tile.num_programs 2
  %nb64 = arith.extsi %nb : i32 to i64
  %heads64 = arith.extsi %heads : i32 to i64
  %n64 = arith.extsi %n : i32 to i64
  %ptr = tile.make_block_ptr %k, [%nb64, %heads64, %n64, %d], [%sb, %sh, %sr, %one], [%b, %h, %c0, %c0] order = [3, 2, 1, 0] : !tile.block_ptr<tensor<1x1x64x64xf16>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %q = arith.constant dense<1.0> : tensor<64x64xf16>
  %any = arith.cmpi slt, %c0, %n : i32
  %r = scf.if %any -> tensor<64x64xf32> {
    %res:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %p = %ptr) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<1x1x64x64xf16>>) : i32 {
      %blk = tile.block_load %p : !tile.block_ptr<tensor<1x1x64x64xf16>>
      %t = tile.reshape %blk : tensor<1x1x64x64xf16> -> tensor<64x64xf16>
      %tt = tile.trans %t order = [1, 0] : tensor<64x64xf16> -> tensor<64x64xf16>
      %s = tile.dot %q, %tt, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      %next = tile.advance %p, [%c0, %c0, %c64, %c0] : !tile.block_ptr<tensor<1x1x64x64xf16>>
      scf.yield %s, %next : tensor<64x64xf32>, !tile.block_ptr<tensor<1x1x64x64xf16>>
    } {tile.warp_specialize}
    scf.yield %res#0 : tensor<64x64xf32>
  } else {
    scf.yield %zero : tensor<64x64xf32>
  }
  %op = tile.make_block_ptr %o, [%d, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  tile.block_store %op, %r : !tile.block_ptr<tensor<64x64xf32>>
  return
}

// -----

// Two marked loops, the second continuing the first one's stream (its lower
// bound is the first's upper bound, its block pointer the first's result):
// one producer loop copies the blocks of both, from the first loop's lower
// bound to the second's upper bound, and each loop counts its stages from
// the first loop's lower bound.
// CHECK-LABEL: func.func @chained(
// CHECK-SAME:    %{{.*}}: !tile.ptr<f16>, %{{.*}}: !tile.ptr<f32>, %[[N:[^:]*]]: i32, %[[MID:[^:]*]]: i32
// CHECK:         %[[BUF:.*]] = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 3, pad = 8>
// CHECK:         tile.warp_specialize registers(24, 240) {
// CHECK:           scf.for %{{.*}} = %[[C0:[^ ]*]] to %[[N]] step
// CHECK:             tile.tma_copy
// CHECK-NOT:       scf.for
// CHECK:         %[[FIRST:.*]]:2 = scf.for %[[I:[^ ]*]] = %[[C0B:[^ ]*]] to %[[MID]]
// CHECK:           arith.subi %[[I]], %[[C0B]]
// CHECK:           tile.local_load %[[BUF]]
// CHECK:           tile.mbarrier_arrive
// CHECK:         scf.for %[[J:[^ ]*]] = %[[MID]] to %[[N]] step %{{.*}} iter_args(%{{.*}} = %[[FIRST]]#0, %{{.*}} = %[[FIRST]]#1)
// CHECK:           arith.subi %[[J]], %[[C0B]]
// CHECK:           tile.local_load %[[BUF]]
// CHECK:           tile.mbarrier_arrive
// CHECK-NOT:     tile.block_load

// SM80-LABEL: func.func @chained(
// SM80-NOT:     tile.warp_specialize
// SM80-COUNT-2: tile.block_load
func.func @chained(%k: !tile.ptr<f16>, %o: !tile.ptr<f32>, %n: i32, %mid: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 3 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %n64 = arith.extsi %n : i32 to i64
  %ptr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %q = arith.constant dense<1.0> : tensor<64x64xf16>
  %first:2 = scf.for %i = %c0 to %mid step %c64 iter_args(%acc = %zero, %p = %ptr) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>) : i32 {
    %blk = tile.block_load %p : !tile.block_ptr<tensor<64x64xf16>>
    %s = tile.dot %q, %blk, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
    %next = tile.advance %p, [%c64, %c0] : !tile.block_ptr<tensor<64x64xf16>>
    scf.yield %s, %next : tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>
  } {tile.warp_specialize}
  %second:2 = scf.for %i = %mid to %n step %c64 iter_args(%acc = %first#0, %p = %first#1) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>) : i32 {
    %blk = tile.block_load %p check = [0] padding = zero : !tile.block_ptr<tensor<64x64xf16>>
    %s = tile.dot %q, %blk, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
    %two = arith.addf %s, %s : tensor<64x64xf32>
    %next = tile.advance %p, [%c64, %c0] : !tile.block_ptr<tensor<64x64xf16>>
    scf.yield %two, %next : tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>
  } {tile.warp_specialize}
  %op = tile.make_block_ptr %o, [%d, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  tile.block_store %op, %second#0 : !tile.block_ptr<tensor<64x64xf32>>
  return
}

// -----

// One-shot copies: a block stored, as loaded, into a buffer of one stage
// before the loop becomes the producer's TMA copy at the start (a tensor map
// and a barrier of its own; the buffer moves before the producer), and the
// program waits on that barrier before the buffer's first use. A later store into the same buffer (a
// rewrite in place) is allowed; a buffer stored twice before the loop's
// first wait keeps its stores.
// CHECK-LABEL: func.func @one_shot(
// CHECK-SAME:    %[[Q:[^:]*]]: !tile.ptr<f16>
// CHECK-SAME:    %{{.*}}: !tile.tensormap {tile.tma = {base = 0 : i64, shape = ["arg2", "64"], strides = ["64", "1"]}},
// CHECK-SAME:    %[[QMAP:[^:]*]]: !tile.tensormap {tile.tma = {base = 0 : i64, shape = ["arg2", "64"], strides = ["64", "1"]}})
// CHECK:         %[[READY:.*]] = tile.alloc_mbarriers : !tile.mbarriers<1, arrivals = 1>
// CHECK:         %[[QBUF:.*]] = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
// CHECK-NEXT:    tile.warp_specialize registers(24, 240) {
// CHECK:           tile.make_block_ptr %[[Q]]
// CHECK:           tile.tma_copy %{{.*}}, %[[QBUF]][%{{.*}}] map %[[QMAP]], %[[READY]] if
// CHECK:           scf.for
// CHECK:         %[[TWICE:.*]] = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
// CHECK-NOT:     tile.local_store %{{.*}}, %[[QBUF]]
// CHECK:         tile.local_store %{{.*}}, %[[TWICE]]
// CHECK:         tile.local_store %{{.*}}, %[[TWICE]]
// CHECK:         %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    tile.mbarrier_wait %[[READY]][%[[Z]]], phase %[[Z]] nosync
// CHECK-NEXT:    scf.if
// CHECK:           tile.local_store %{{.*}}, %[[QBUF]]
// CHECK:         scf.for
func.func @one_shot(%k: !tile.ptr<f16>, %o: !tile.ptr<f32>, %n: i32, %neg: i1)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %n64 = arith.extsi %n : i32 to i64
  %qbuf = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
  %twice = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
  %qptr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  %qblk = tile.block_load %qptr check = [0] padding = zero : !tile.block_ptr<tensor<64x64xf16>>
  tile.local_store %qblk, %qbuf[%c0] : tensor<64x64xf16>, !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
  %ones = arith.constant dense<1.0> : tensor<64x64xf16>
  tile.local_store %ones, %twice[%c0] : tensor<64x64xf16>, !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
  %tblk = tile.block_load %qptr : !tile.block_ptr<tensor<64x64xf16>>
  tile.local_store %tblk, %twice[%c0] : tensor<64x64xf16>, !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
  scf.if %neg {
    %staged = tile.local_load %qbuf[%c0] : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8> -> tensor<64x64xf16>
    %negated = arith.negf %staged : tensor<64x64xf16>
    tile.local_store %negated, %qbuf[%c0] : tensor<64x64xf16>, !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
  }
  %ptr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %res:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %p = %ptr) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>) : i32 {
    %blk = tile.block_load %p : !tile.block_ptr<tensor<64x64xf16>>
    %q = tile.local_load %qbuf[%c0] : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8> -> tensor<64x64xf16>
    %t = tile.local_load %twice[%c0] : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8> -> tensor<64x64xf16>
    %s = tile.dot %q, %blk, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
    %s2 = tile.dot %t, %blk, %s : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
    %next = tile.advance %p, [%c64, %c0] : !tile.block_ptr<tensor<64x64xf16>>
    scf.yield %s2, %next : tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>
  } {tile.warp_specialize}
  %op = tile.make_block_ptr %o, [%d, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  tile.block_store %op, %res#0 : !tile.block_ptr<tensor<64x64xf32>>
  return
}

// -----

// A one-shot copy whose buffer is first read after the marked loop: the
// producer still issues it before its loop, and the program waits for it
// right before that read, not where the store was.
// CHECK-LABEL: func.func @one_shot_read_after_loop(
// CHECK:         %[[READY:.*]] = tile.alloc_mbarriers : !tile.mbarriers<1, arrivals = 1>
// CHECK:         %[[LAST:.*]] = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
// CHECK-NEXT:    tile.warp_specialize registers(24, 240) {
// CHECK:           tile.tma_copy %{{.*}}, %[[LAST]][%{{.*}}] map %{{.*}}, %[[READY]] if
// CHECK:           scf.for
// CHECK:             tile.tma_copy
// CHECK:           }
// CHECK-NEXT:    }
// CHECK-NOT:     tile.mbarrier_wait %[[READY]]
// CHECK:         %[[R:.*]]:2 = scf.for
// CHECK:         tile.mbarrier_wait %[[READY]][%[[Z:.*]]], phase %[[Z]] nosync
// CHECK-NEXT:    tile.local_load %[[LAST]]
func.func @one_shot_read_after_loop(%k: !tile.ptr<f16>, %o: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %n64 = arith.extsi %n : i32 to i64
  %last = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
  %lptr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%c64, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  %lblk = tile.block_load %lptr check = [0] padding = zero : !tile.block_ptr<tensor<64x64xf16>>
  tile.local_store %lblk, %last[%c0] : tensor<64x64xf16>, !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
  %ptr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %q = arith.constant dense<1.0> : tensor<64x64xf16>
  %res:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %p = %ptr) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>) : i32 {
    %blk = tile.block_load %p : !tile.block_ptr<tensor<64x64xf16>>
    %s = tile.dot %q, %blk, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
    %next = tile.advance %p, [%c64, %c0] : !tile.block_ptr<tensor<64x64xf16>>
    scf.yield %s, %next : tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>
  } {tile.warp_specialize}
  %l = tile.local_load %last[%c0] : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8> -> tensor<64x64xf16>
  %final = tile.dot %q, %l, %res#0 : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
  %op = tile.make_block_ptr %o, [%d, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  tile.block_store %op, %final : !tile.block_ptr<tensor<64x64xf32>>
  return
}

// -----

// A block whose pointer the producer cannot recompute (its row comes out
// of a region) is not a one-shot copy: its load and store stay.
// CHECK-LABEL: func.func @not_one_shot(
// CHECK-NOT:     tile.mbarriers<1,
// CHECK:         tile.warp_specialize
// CHECK-NOT:       stages = 1
// CHECK:         %[[OTHER:.*]] = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
// CHECK:         %[[BLK:.*]] = tile.block_load
// CHECK-NEXT:    tile.local_store %[[BLK]], %[[OTHER]]
func.func @not_one_shot(%k: !tile.ptr<f16>, %o: !tile.ptr<f32>, %n: i32, %neg: i1)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %n64 = arith.extsi %n : i32 to i64
  %other = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
  %row = scf.if %neg -> i32 {
    scf.yield %c0 : i32
  } else {
    scf.yield %c64 : i32
  }
  %optr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%row, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  %oblk = tile.block_load %optr check = [0] padding = zero : !tile.block_ptr<tensor<64x64xf16>>
  tile.local_store %oblk, %other[%c0] : tensor<64x64xf16>, !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
  %ptr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %res:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %p = %ptr) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>) : i32 {
    %blk = tile.block_load %p : !tile.block_ptr<tensor<64x64xf16>>
    %t = tile.local_load %other[%c0] : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8> -> tensor<64x64xf16>
    %s = tile.dot %t, %blk, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
    %next = tile.advance %p, [%c64, %c0] : !tile.block_ptr<tensor<64x64xf16>>
    scf.yield %s, %next : tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>
  } {tile.warp_specialize}
  %op = tile.make_block_ptr %o, [%d, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  tile.block_store %op, %res#0 : !tile.block_ptr<tensor<64x64xf32>>
  return
}

// -----

// A kernel that waits for the kernel before it: its producer waits too,
// first, since its copies may read what that kernel wrote.
// CHECK-LABEL: func.func @waits_for_prior_grid(
// CHECK:         tile.warp_specialize registers(24, 240) {
// CHECK-NEXT:      tile.wait_prior_grid
// CHECK:           tile.tma_copy
// CHECK:         tile.wait_prior_grid
// CHECK:         scf.for
// CHECK:           tile.local_load

// SM80-LABEL: func.func @waits_for_prior_grid(
// SM80-COUNT-1: tile.wait_prior_grid
// SM80-NOT:     tile.wait_prior_grid
func.func @waits_for_prior_grid(%k: !tile.ptr<f16>, %o: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32} {
  tile.wait_prior_grid
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %n64 = arith.extsi %n : i32 to i64
  %ptr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %q = arith.constant dense<1.0> : tensor<64x64xf16>
  %r:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %p = %ptr) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>) : i32 {
    %blk = tile.block_load %p : !tile.block_ptr<tensor<64x64xf16>>
    %s = tile.dot %q, %blk, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
    %next = tile.advance %p, [%c64, %c0] : !tile.block_ptr<tensor<64x64xf16>>
    scf.yield %s, %next : tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>
  } {tile.warp_specialize}
  %op = tile.make_block_ptr %o, [%d, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  tile.block_store %op, %r#0 : !tile.block_ptr<tensor<64x64xf32>>
  return
}

// -----

// Two programs per SM (tile.min_programs_per_sm = 2): each launches with
// 65536 / (2 x 384) = 85 registers per thread, 80 in multiples of 8, and
// setmaxnreg moves registers within that pool only: its 8 warps take
// (80 x 12 - 4 x 24) / 8 = 108, 104 in multiples of 8 (112 would wait
// forever).

// CHECK-LABEL: func.func @two_programs_per_sm(
// CHECK:         tile.warp_specialize registers(24, 104) {
func.func @two_programs_per_sm(%k: !tile.ptr<f16>, %o: !tile.ptr<f32>, %n: i32, %heads: i32,
                  %sh: i64, %sr: i64, %sb: i64)
    attributes {tile.kernel, tile.num_warps = 8 : i32, tile.num_stages = 2 : i32, tile.min_programs_per_sm = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %h = tile.program_id 1
  %b = tile.program_id 2
  %nb = tile.num_programs 2
  %nb64 = arith.extsi %nb : i32 to i64
  %heads64 = arith.extsi %heads : i32 to i64
  %n64 = arith.extsi %n : i32 to i64
  %ptr = tile.make_block_ptr %k, [%nb64, %heads64, %n64, %d], [%sb, %sh, %sr, %one], [%b, %h, %c0, %c0] order = [3, 2, 1, 0] : !tile.block_ptr<tensor<1x1x64x64xf16>>
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %q = arith.constant dense<1.0> : tensor<128x64xf16>
  %any = arith.cmpi slt, %c0, %n : i32
  %r = scf.if %any -> tensor<128x64xf32> {
    %res:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %p = %ptr) -> (tensor<128x64xf32>, !tile.block_ptr<tensor<1x1x64x64xf16>>) : i32 {
      %blk = tile.block_load %p : !tile.block_ptr<tensor<1x1x64x64xf16>>
      %t = tile.reshape %blk : tensor<1x1x64x64xf16> -> tensor<64x64xf16>
      %tt = tile.trans %t order = [1, 0] : tensor<64x64xf16> -> tensor<64x64xf16>
      %s = tile.dot %q, %tt, %acc : tensor<128x64xf16>, tensor<64x64xf16> -> tensor<128x64xf32>
      %next = tile.advance %p, [%c0, %c0, %c64, %c0] : !tile.block_ptr<tensor<1x1x64x64xf16>>
      scf.yield %s, %next : tensor<128x64xf32>, !tile.block_ptr<tensor<1x1x64x64xf16>>
    } {tile.warp_specialize}
    scf.yield %res#0 : tensor<128x64xf32>
  } else {
    scf.yield %zero : tensor<128x64xf32>
  }
  %op = tile.make_block_ptr %o, [%d, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<128x64xf32>>
  tile.block_store %op, %r : !tile.block_ptr<tensor<128x64xf32>>
  return
}

// -----

// Four warpgroups (16 warps) and the producer: the program launches with
// 65536 / 640 = 102 registers per thread, 96 in multiples of 8, of which
// its 16 warps take (96 x 20 - 4 x 24) / 16 = 114, 112 in multiples of 8.

// CHECK-LABEL: func.func @four_warpgroups(
// CHECK:         tile.warp_specialize registers(24, 112) {
func.func @four_warpgroups(%k: !tile.ptr<f16>, %o: !tile.ptr<f32>, %n: i32, %heads: i32,
                  %sh: i64, %sr: i64, %sb: i64)
    attributes {tile.kernel, tile.num_warps = 16 : i32, tile.num_stages = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %h = tile.program_id 1
  %b = tile.program_id 2
  %nb = tile.num_programs 2
  %nb64 = arith.extsi %nb : i32 to i64
  %heads64 = arith.extsi %heads : i32 to i64
  %n64 = arith.extsi %n : i32 to i64
  %ptr = tile.make_block_ptr %k, [%nb64, %heads64, %n64, %d], [%sb, %sh, %sr, %one], [%b, %h, %c0, %c0] order = [3, 2, 1, 0] : !tile.block_ptr<tensor<1x1x64x64xf16>>
  %zero = arith.constant dense<0.0> : tensor<256x64xf32>
  %q = arith.constant dense<1.0> : tensor<256x64xf16>
  %any = arith.cmpi slt, %c0, %n : i32
  %r = scf.if %any -> tensor<256x64xf32> {
    %res:2 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %p = %ptr) -> (tensor<256x64xf32>, !tile.block_ptr<tensor<1x1x64x64xf16>>) : i32 {
      %blk = tile.block_load %p : !tile.block_ptr<tensor<1x1x64x64xf16>>
      %t = tile.reshape %blk : tensor<1x1x64x64xf16> -> tensor<64x64xf16>
      %tt = tile.trans %t order = [1, 0] : tensor<64x64xf16> -> tensor<64x64xf16>
      %s = tile.dot %q, %tt, %acc : tensor<256x64xf16>, tensor<64x64xf16> -> tensor<256x64xf32>
      %next = tile.advance %p, [%c0, %c0, %c64, %c0] : !tile.block_ptr<tensor<1x1x64x64xf16>>
      scf.yield %s, %next : tensor<256x64xf32>, !tile.block_ptr<tensor<1x1x64x64xf16>>
    } {tile.warp_specialize}
    scf.yield %res#0 : tensor<256x64xf32>
  } else {
    scf.yield %zero : tensor<256x64xf32>
  }
  %op = tile.make_block_ptr %o, [%d, %d], [%d, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<256x64xf32>>
  tile.block_store %op, %r : !tile.block_ptr<tensor<256x64xf32>>
  return
}
