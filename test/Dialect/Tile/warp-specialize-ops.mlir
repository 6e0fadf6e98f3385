// The ops of warp-specialized loops print and parse back: a producer
// region, waits without the synchronization, arrivals after values, the
// warpgroups' turns, and a TMA copy of a block of a 4-d array.
//
// RUN: tile-opt %s | tile-opt | FileCheck %s

// CHECK-LABEL: func.func @producer_and_consumer(
// CHECK:         %[[BUF:.*]] = tile.alloc_shared : !tile.shared<tensor<64x128xf16>, stages = 2, pad = 8>
// CHECK-NEXT:    %[[FULL:.*]] = tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 1>
// CHECK-NEXT:    %[[EMPTY:.*]] = tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 256>
// CHECK-NEXT:    tile.warp_specialize registers(24, 240) {
// CHECK:           tile.mbarrier_wait %[[EMPTY]][%{{.*}}], phase %{{.*}} nosync : !tile.mbarriers<2, arrivals = 256>
// CHECK-NEXT:      tile.tma_copy %{{.*}}, %[[BUF]][%{{.*}}] map %{{.*}}, %[[FULL]] if %{{.*}} : !tile.block_ptr<tensor<1x1x64x128xf16>>, !tile.shared<tensor<64x128xf16>, stages = 2, pad = 8>, !tile.mbarriers<2, arrivals = 1>
// CHECK-NEXT:    }
// CHECK:         tile.mbarrier_wait %[[FULL]][%{{.*}}], phase %{{.*}} nosync : !tile.mbarriers<2, arrivals = 1>
// CHECK:         %[[S:.*]] = tile.dot
// CHECK-NEXT:    tile.wait_turn
// CHECK-NEXT:    tile.pass_turn
// CHECK-NEXT:    tile.mbarrier_arrive %[[EMPTY]][%{{.*}}] after %[[S]] : !tile.mbarriers<2, arrivals = 256>, tensor<64x64xf32>
// CHECK-NEXT:    tile.mbarrier_arrive %[[EMPTY]][%{{.*}}] : !tile.mbarriers<2, arrivals = 256>
func.func @producer_and_consumer(%k: !tile.ptr<f16>, %b: i64, %h: i64, %s: i64, %rs: i64,
                                 %map: !tile.tensormap {tile.tma = {base = 0 : i64, shape = ["arg3", "128"], strides = ["arg4", "1"], batch = ["arg2", "4", "arg1", "2"]}})
    attributes {tile.kernel, tile.num_warps = 8 : i32} {
  %buf = tile.alloc_shared : !tile.shared<tensor<64x128xf16>, stages = 2, pad = 8>
  %full = tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 1>
  %empty = tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 256>
  tile.warp_specialize registers(24, 240) {
    %c0 = arith.constant 0 : i32
    %true = arith.constant true
    %one = arith.constant 1 : i64
    %d = arith.constant 128 : i64
    %c4 = arith.constant 4 : i64
    %c2 = arith.constant 2 : i64
    %bp = tile.make_block_ptr %k, [%c2, %c4, %s, %d], [%b, %h, %rs, %one], [%c0, %c0, %c0, %c0] order = [3, 2, 1, 0] : !tile.block_ptr<tensor<1x1x64x128xf16>>
    tile.mbarrier_wait %empty[%c0], phase %c0 nosync : !tile.mbarriers<2, arrivals = 256>
    tile.tma_copy %bp, %buf[%c0] map %map, %full if %true : !tile.block_ptr<tensor<1x1x64x128xf16>>, !tile.shared<tensor<64x128xf16>, stages = 2, pad = 8>, !tile.mbarriers<2, arrivals = 1>
  }
  %c0 = arith.constant 0 : i32
  tile.mbarrier_wait %full[%c0], phase %c0 nosync : !tile.mbarriers<2, arrivals = 1>
  %t = tile.local_load %buf[%c0] : !tile.shared<tensor<64x128xf16>, stages = 2, pad = 8> -> tensor<64x128xf16>
  %tt = tile.trans %t order = [1, 0] : tensor<64x128xf16> -> tensor<128x64xf16>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %q = arith.constant dense<1.0> : tensor<64x128xf16>
  %scores = tile.dot %q, %tt, %zero : tensor<64x128xf16>, tensor<128x64xf16> -> tensor<64x64xf32>
  tile.wait_turn
  tile.pass_turn
  tile.mbarrier_arrive %empty[%c0] after %scores : !tile.mbarriers<2, arrivals = 256>, tensor<64x64xf32>
  tile.mbarrier_arrive %empty[%c0] : !tile.mbarriers<2, arrivals = 256>
  return
}
