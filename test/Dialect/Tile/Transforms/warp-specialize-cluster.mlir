// tile-warp-specialize in a kernel of tile.cluster_size 2: the stream of
// V's blocks is the same for both programs of a cluster (its pointer does
// not depend on program_id 0), so each producer copies half of every block
// to both (multicast 2), and its `empty` barriers take one arrival per warp
// of each program (4 warps x 2). X's blocks depend on program_id 0: each
// program copies its own, released by its 128 threads.
//
// RUN: tile-opt %s -split-input-file -tile-warp-specialize=chip=sm_90a | FileCheck %s

// CHECK-LABEL: func.func @shared_v(
// CHECK:         %[[XBUF:.*]] = tile.alloc_shared : !tile.shared<tensor<64x64xf16>
// CHECK-NEXT:    %[[XFULL:.*]] = tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 1>
// CHECK-NEXT:    %[[XEMPTY:.*]] = tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 128>
// CHECK-NEXT:    %[[VBUF:.*]] = tile.alloc_shared : !tile.shared<tensor<64x128xf16>
// CHECK-NEXT:    %[[VFULL:.*]] = tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 1>
// CHECK-NEXT:    %[[VEMPTY:.*]] = tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 8>
// CHECK:         tile.warp_specialize
// CHECK:           tile.tma_copy %{{.*}}, %[[XBUF]][%{{.*}}] map %{{.*}}, %[[XFULL]] if %{{[^ ]*}} :
// CHECK:           tile.tma_copy %{{.*}}, %[[VBUF]][%{{.*}}] map %{{.*}}, %[[VFULL]] if %{{.*}} multicast 2 :
// CHECK:         scf.for
// CHECK:           tile.mbarrier_arrive %[[XEMPTY]][%[[S:.*]]] after
// CHECK-NEXT:      tile.mbarrier_arrive %[[VEMPTY]][%[[S]]] cluster after
func.func @shared_v(%x: !tile.ptr<f16>, %v: !tile.ptr<f16>, %o: !tile.ptr<f32>,
                    %m: i64, %n: i32, %d3: i64)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32,
                tile.cluster_size = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %one = arith.constant 1 : i64
  %row = tile.program_id 0
  %col = tile.program_id 1
  %r0 = arith.muli %row, %c64 : i32
  %c0v = arith.muli %col, %c128 : i32
  %n64 = arith.extsi %n : i32 to i64
  %xp = tile.make_block_ptr %x, [%m, %n64], [%n64, %one], [%r0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  %vp = tile.make_block_ptr %v, [%n64, %d3], [%d3, %one], [%c0, %c0v] order = [1, 0] : !tile.block_ptr<tensor<64x128xf16>>
  %zero = arith.constant dense<0.0> : tensor<64x128xf32>
  %res:3 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %p = %xp, %q = %vp) -> (tensor<64x128xf32>, !tile.block_ptr<tensor<64x64xf16>>, !tile.block_ptr<tensor<64x128xf16>>) : i32 {
    %a = tile.block_load %p : !tile.block_ptr<tensor<64x64xf16>>
    %b = tile.block_load %q : !tile.block_ptr<tensor<64x128xf16>>
    %s = tile.dot %a, %b, %acc : tensor<64x64xf16>, tensor<64x128xf16> -> tensor<64x128xf32>
    %pn = tile.advance %p, [%c0, %c64] : !tile.block_ptr<tensor<64x64xf16>>
    %qn = tile.advance %q, [%c64, %c0] : !tile.block_ptr<tensor<64x128xf16>>
    scf.yield %s, %pn, %qn : tensor<64x128xf32>, !tile.block_ptr<tensor<64x64xf16>>, !tile.block_ptr<tensor<64x128xf16>>
  } {tile.warp_specialize}
  %op = tile.make_block_ptr %o, [%m, %d3], [%d3, %one], [%r0, %c0v] order = [1, 0] : !tile.block_ptr<tensor<64x128xf32>>
  tile.block_store %op, %res#0 : !tile.block_ptr<tensor<64x128xf32>>
  return
}

// -----

// A loop whose trip count depends on program_id 0 may run different
// iterations in the two programs of a cluster: nothing is shared.

// CHECK-LABEL: func.func @row_dependent_bound(
// CHECK:         tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 128>
// CHECK-NOT:     multicast
// CHECK-NOT:     cluster after
// CHECK:         return
func.func @row_dependent_bound(%v: !tile.ptr<f16>, %o: !tile.ptr<f32>,
                               %n: i32, %d3: i64)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32,
                tile.cluster_size = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %row = tile.program_id 0
  %extra = arith.muli %row, %c64 : i32
  %end = arith.subi %n, %extra : i32
  %n64 = arith.extsi %n : i32 to i64
  %vp = tile.make_block_ptr %v, [%n64, %d3], [%d3, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  %a = arith.constant dense<1.0> : tensor<64x64xf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %res:2 = scf.for %i = %c0 to %end step %c64 iter_args(%acc = %zero, %q = %vp) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>) : i32 {
    %b = tile.block_load %q : !tile.block_ptr<tensor<64x64xf16>>
    %s = tile.dot %a, %b, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
    %qn = tile.advance %q, [%c64, %c0] : !tile.block_ptr<tensor<64x64xf16>>
    scf.yield %s, %qn : tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>
  } {tile.warp_specialize}
  %op = tile.make_block_ptr %o, [%d3, %d3], [%d3, %one], [%c0, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
  tile.block_store %op, %res#0 : !tile.block_ptr<tensor<64x64xf32>>
  return
}
