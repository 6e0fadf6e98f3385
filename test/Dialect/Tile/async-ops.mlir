// Round-trip of the software-pipelining ops and the shared buffer type, in
// the custom and generic forms.
//
// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s -mlir-print-op-generic | tile-opt | FileCheck %s
// RUN: tile-opt %s --verify-roundtrip -o /dev/null

// CHECK-LABEL: func.func @pipeline(
// CHECK-SAME:    %[[BP:.*]]: !tile.block_ptr<tensor<64x32xf32>>, %[[S:.*]]: i32)
// CHECK:         %[[BUF:.*]] = tile.alloc_shared : !tile.shared<tensor<64x32xf32>, stages = 2, pad = 8>
// CHECK-NEXT:    tile.async_copy %[[BP]], %[[BUF]][%[[S]]] : !tile.block_ptr<tensor<64x32xf32>>, !tile.shared<tensor<64x32xf32>, stages = 2, pad = 8>
// CHECK-NEXT:    tile.async_commit
// CHECK-NEXT:    tile.async_wait pending = 0
// CHECK-NEXT:    %[[T:.*]] = tile.local_load %[[BUF]][%[[S]]] : !tile.shared<tensor<64x32xf32>, stages = 2, pad = 8> -> tensor<64x32xf32>
// CHECK-NEXT:    tile.local_store %[[T]], %[[BUF]][%[[S]]] : tensor<64x32xf32>, !tile.shared<tensor<64x32xf32>, stages = 2, pad = 8>
func.func @pipeline(%bp: !tile.block_ptr<tensor<64x32xf32>>, %s: i32) -> tensor<64x32xf32> {
  %buf = tile.alloc_shared : !tile.shared<tensor<64x32xf32>, stages = 2, pad = 8>
  tile.async_copy %bp, %buf[%s] : !tile.block_ptr<tensor<64x32xf32>>, !tile.shared<tensor<64x32xf32>, stages = 2, pad = 8>
  tile.async_commit
  tile.async_wait pending = 0
  %t = tile.local_load %buf[%s] : !tile.shared<tensor<64x32xf32>, stages = 2, pad = 8> -> tensor<64x32xf32>
  tile.local_store %t, %buf[%s] : tensor<64x32xf32>, !tile.shared<tensor<64x32xf32>, stages = 2, pad = 8>
  return %t : tensor<64x32xf32>
}

// Two allocations of the same type are two buffers (not merged by CSE).
// CHECK-LABEL: func.func @two_buffers
// CHECK-COUNT-2: tile.alloc_shared
func.func @two_buffers(%s: i32) -> (tensor<16x8xf16>, tensor<16x8xf16>) {
  %a = tile.alloc_shared : !tile.shared<tensor<16x8xf16>, stages = 1, pad = 8>
  %b = tile.alloc_shared : !tile.shared<tensor<16x8xf16>, stages = 1, pad = 8>
  %x = tile.local_load %a[%s] : !tile.shared<tensor<16x8xf16>, stages = 1, pad = 8> -> tensor<16x8xf16>
  %y = tile.local_load %b[%s] : !tile.shared<tensor<16x8xf16>, stages = 1, pad = 8> -> tensor<16x8xf16>
  return %x, %y : tensor<16x8xf16>, tensor<16x8xf16>
}

// The wait tile-convert-to-llvm inserts after loops whose wgmma groups stay
// in flight: it returns its operand, same type.
// CHECK-LABEL: func.func @warpgroup_wait
// CHECK:         %[[W:.*]] = tile.warpgroup_mma_wait %{{.*}} pending = 0 : tensor<64x64xf32>
// CHECK-NEXT:    return %[[W]]
func.func @warpgroup_wait(%acc: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %w = tile.warpgroup_mma_wait %acc pending = 0 : tensor<64x64xf32>
  return %w : tensor<64x64xf32>
}

// CHECK-LABEL: func.func @tma(
// CHECK-SAME:    %[[BP:.*]]: !tile.block_ptr<tensor<128x64xf16>>, %[[MAP:.*]]: !tile.tensormap, %[[S:.*]]: i32, %[[P:.*]]: i1, %[[PH:.*]]: i32)
// CHECK:         %[[BUF:.*]] = tile.alloc_shared : !tile.shared<tensor<128x64xf16>, stages = 4, pad = 8>
// CHECK-NEXT:    %[[BARS:.*]] = tile.alloc_mbarriers : !tile.mbarriers<4, arrivals = 2>
// CHECK-NEXT:    tile.tma_copy %[[BP]], %[[BUF]][%[[S]]] map %[[MAP]], %[[BARS]] if %[[P]] : !tile.block_ptr<tensor<128x64xf16>>, !tile.shared<tensor<128x64xf16>, stages = 4, pad = 8>, !tile.mbarriers<4, arrivals = 2>
// CHECK-NEXT:    tile.tma_copy %[[BP]], %[[BUF]][%[[S]]] map %[[MAP]], %[[BARS]] if %[[P]] batch %[[PH]] : !tile.block_ptr<tensor<128x64xf16>>, !tile.shared<tensor<128x64xf16>, stages = 4, pad = 8>, !tile.mbarriers<4, arrivals = 2>
// CHECK-NEXT:    tile.mbarrier_wait %[[BARS]][%[[S]]], phase %[[PH]] : !tile.mbarriers<4, arrivals = 2>
func.func @tma(%bp: !tile.block_ptr<tensor<128x64xf16>>, %map: !tile.tensormap, %s: i32, %p: i1, %phase: i32) {
  %buf = tile.alloc_shared : !tile.shared<tensor<128x64xf16>, stages = 4, pad = 8>
  %bars = tile.alloc_mbarriers : !tile.mbarriers<4, arrivals = 2>
  tile.tma_copy %bp, %buf[%s] map %map, %bars if %p : !tile.block_ptr<tensor<128x64xf16>>, !tile.shared<tensor<128x64xf16>, stages = 4, pad = 8>, !tile.mbarriers<4, arrivals = 2>
  tile.tma_copy %bp, %buf[%s] map %map, %bars if %p batch %phase : !tile.block_ptr<tensor<128x64xf16>>, !tile.shared<tensor<128x64xf16>, stages = 4, pad = 8>, !tile.mbarriers<4, arrivals = 2>
  tile.mbarrier_wait %bars[%s], phase %phase : !tile.mbarriers<4, arrivals = 2>
  return
}

// CHECK-LABEL: func.func @tma_prefetch(
// CHECK-SAME:    %[[BP:.*]]: !tile.block_ptr<tensor<1x1x128x64xf16>>, %[[MAP:.*]]: !tile.tensormap, %[[P:.*]]: i1)
// CHECK-NEXT:    tile.tma_prefetch %[[BP]] map %[[MAP]] if %[[P]] : !tile.block_ptr<tensor<1x1x128x64xf16>>
func.func @tma_prefetch(%bp: !tile.block_ptr<tensor<1x1x128x64xf16>>, %map: !tile.tensormap, %p: i1) {
  tile.tma_prefetch %bp map %map if %p : !tile.block_ptr<tensor<1x1x128x64xf16>>
  return
}

// CHECK-LABEL: func.func @tma_store(
// CHECK:         tile.tma_store %[[BUF:.*]][%[[S:.*]]], %{{.*}} map %{{.*}} : !tile.shared<tensor<128x64xf16>, stages = 2, pad = 8>, !tile.block_ptr<tensor<1x1x128x64xf16>>
// CHECK-NEXT:    tile.mbarrier_arrive %{{.*}}[%[[S]]] stores : !tile.mbarriers<2, arrivals = 128>
func.func @tma_store(%bp: !tile.block_ptr<tensor<1x1x128x64xf16>>, %map: !tile.tensormap, %s: i32) {
  %buf = tile.alloc_shared : !tile.shared<tensor<128x64xf16>, stages = 2, pad = 8>
  %bars = tile.alloc_mbarriers : !tile.mbarriers<2, arrivals = 128>
  tile.tma_store %buf[%s], %bp map %map : !tile.shared<tensor<128x64xf16>, stages = 2, pad = 8>, !tile.block_ptr<tensor<1x1x128x64xf16>>
  tile.mbarrier_arrive %bars[%s] stores : !tile.mbarriers<2, arrivals = 128>
  return
}

// CHECK-LABEL: func.func @tma_multicast(
// CHECK:         tile.tma_copy %{{.*}}, %[[BUF:.*]][%[[S:.*]]] map %{{.*}}, %[[BARS:.*]] if %{{.*}} multicast 2 : !tile.block_ptr<tensor<128x64xf16>>
// CHECK-NEXT:    tile.mbarrier_arrive %[[BARS]][%[[S]]] cluster : !tile.mbarriers<4, arrivals = 8>
// CHECK-NEXT:    tile.mbarrier_arrive %[[BARS]][%[[S]]] cluster after %{{.*}} : !tile.mbarriers<4, arrivals = 8>, tensor<64x64xf32>
func.func @tma_multicast(%bp: !tile.block_ptr<tensor<128x64xf16>>, %map: !tile.tensormap, %s: i32, %p: i1, %acc: tensor<64x64xf32>)
    attributes {tile.cluster_size = 2 : i32} {
  %buf = tile.alloc_shared : !tile.shared<tensor<128x64xf16>, stages = 4, pad = 8>
  %bars = tile.alloc_mbarriers : !tile.mbarriers<4, arrivals = 8>
  tile.tma_copy %bp, %buf[%s] map %map, %bars if %p multicast 2 : !tile.block_ptr<tensor<128x64xf16>>, !tile.shared<tensor<128x64xf16>, stages = 4, pad = 8>, !tile.mbarriers<4, arrivals = 8>
  tile.mbarrier_arrive %bars[%s] cluster : !tile.mbarriers<4, arrivals = 8>
  tile.mbarrier_arrive %bars[%s] cluster after %acc : !tile.mbarriers<4, arrivals = 8>, tensor<64x64xf32>
  return
}
