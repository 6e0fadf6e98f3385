// tile.reduce runs in up to three steps, each over the threads holding
// distinct elements along the axis: within a thread (over its slots),
// within a warp (butterfly shuffles, xor offset = distance * lane stride of
// the axis), and across warps (through shared memory between barriers).
//
// RUN: tile-opt %s -split-input-file -tile-convert-to-llvm | FileCheck %s

// One thread holds the whole axis (sizePerThread = 4 along it): no
// shuffles, no shared memory.
#b = #tile.blocked<{sizePerThread = [4, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>

// CHECK-LABEL: func.func @within_thread(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: f32, %[[B:[a-z0-9]+]]: f32)
// CHECK-SAME:    tile.shared_bytes = 0 : i64
// CHECK:         %[[X0:.*]] = arith.select %{{.*}}, %[[A]], %[[B]] : f32
// CHECK-NEXT:    %[[X1:.*]] = arith.select %{{.*}}, %[[A]], %[[B]] : f32
// CHECK-NEXT:    %[[X2:.*]] = arith.select %{{.*}}, %[[A]], %[[B]] : f32
// CHECK-NEXT:    %[[X3:.*]] = arith.select %{{.*}}, %[[A]], %[[B]] : f32
// CHECK-NEXT:    %[[S0:.*]] = arith.addf %[[X0]], %[[X1]] : f32
// CHECK-NEXT:    %[[S1:.*]] = arith.addf %[[S0]], %[[X2]] : f32
// CHECK-NEXT:    %[[S2:.*]] = arith.addf %[[S1]], %[[X3]] : f32
// CHECK-NEXT:    return
// CHECK-NOT:     nvvm.shfl.sync
func.func @within_thread(%a: f32, %b: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.range 0, 4 : tensor<4xi32, #tile.slice<{dim = 1, parent = #b}>>
  %re = tile.expand_dims %r axis = 1 : tensor<4xi32, #tile.slice<{dim = 1, parent = #b}>> -> tensor<4x1xi32, #b>
  %rb = tile.broadcast %re : tensor<4x1xi32, #b> -> tensor<4x32xi32, #b>
  %zero = arith.constant dense<0> : tensor<4x32xi32, #b>
  %first = arith.cmpi eq, %rb, %zero : tensor<4x32xi32, #b>
  %as = tile.splat %a : tensor<4x32xf32, #b>
  %bs = tile.splat %b : tensor<4x32xf32, #b>
  // Row 0 holds a, the others b.
  %x = arith.select %first, %as, %bs : tensor<4x32xi1, #b>, tensor<4x32xf32, #b>
  %s = tile.reduce sum %x axis = 0 : tensor<4x32xf32, #b> -> tensor<32xf32, #tile.slice<{dim = 0, parent = #b}>>
  return
}

// -----

// 128 elements, 4 per thread, one warp: 3 additions in the thread, then
// 5 butterfly steps over the 32 lanes.
#b = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: func.func @warp_shuffles(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: f32)
// CHECK-SAME:    tile.shared_bytes = 0 : i64
// CHECK:         %[[T0:.*]] = arith.addf %[[A]], %[[A]] : f32
// CHECK-NEXT:    %[[T1:.*]] = arith.addf %[[T0]], %[[A]] : f32
// CHECK-NEXT:    %[[T2:.*]] = arith.addf %[[T1]], %[[A]] : f32
// CHECK:         %[[C16:.*]] = arith.constant 16 : i32
// CHECK:         %[[X16:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[T2]], %[[C16]], %{{.*}} : f32 -> f32
// CHECK-NEXT:    %[[R16:.*]] = arith.addf %[[T2]], %[[X16]] : f32
// CHECK:         %[[C8:.*]] = arith.constant 8 : i32
// CHECK:         %[[X8:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[R16]], %[[C8]], %{{.*}} : f32 -> f32
// CHECK-NEXT:    %[[R8:.*]] = arith.addf %[[R16]], %[[X8]] : f32
// CHECK:         %[[C4:.*]] = arith.constant 4 : i32
// CHECK:         %[[X4:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[R8]], %[[C4]], %{{.*}} : f32 -> f32
// CHECK-NEXT:    %[[R4:.*]] = arith.addf %[[R8]], %[[X4]] : f32
// CHECK:         %[[C2:.*]] = arith.constant 2 : i32
// CHECK:         %[[X2:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[R4]], %[[C2]], %{{.*}} : f32 -> f32
// CHECK-NEXT:    %[[R2:.*]] = arith.addf %[[R4]], %[[X2]] : f32
// CHECK:         %[[C1:.*]] = arith.constant 1 : i32
// CHECK:         %[[X1:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[R2]], %[[C1]], %{{.*}} : f32 -> f32
// CHECK-NEXT:    arith.addf %[[R2]], %[[X1]] : f32
// CHECK-NOT:     nvvm.shfl.sync
// CHECK-NOT:     nvvm.barrier0
// CHECK:         return
func.func @warp_shuffles(%a: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %x = tile.splat %a : tensor<128xf32, #b>
  %s = tile.reduce sum %x axis = 0 : tensor<128xf32, #b> -> f32
  return
}

// -----

// The full shuffle operands: member mask -1, clamp 31.
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: func.func @shuffle_operands(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: i32)
// CHECK:         %[[ALL:.*]] = arith.constant -1 : i32
// CHECK-NEXT:    %[[OFF:.*]] = arith.constant 16 : i32
// CHECK-NEXT:    %[[CLAMP:.*]] = arith.constant 31 : i32
// CHECK-NEXT:    %[[X:.*]] = nvvm.shfl.sync bfly %[[ALL]], %[[A]], %[[OFF]], %[[CLAMP]] : i32 -> i32
// CHECK-NEXT:    arith.maxsi %[[A]], %[[X]] : i32
// CHECK-COUNT-4: nvvm.shfl.sync bfly
// CHECK-NOT:     nvvm.shfl.sync
func.func @shuffle_operands(%a: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %x = tile.splat %a : tensor<32xi32, #b>
  %s = tile.reduce max %x axis = 0 : tensor<32xi32, #b> -> i32
  return
}

// -----

// A tile smaller than the layout: 16 elements over 32 lanes, lanes 16..31
// hold copies, so only offsets 8, 4, 2, 1 are folded (not 16, which would
// count every element twice).
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: func.func @copies_not_folded(
// CHECK-NOT:     arith.constant 16 : i32
// CHECK:         %[[C8:.*]] = arith.constant 8 : i32
// CHECK:         nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C8]], %{{.*}} : f32 -> f32
// CHECK:         %[[C4:.*]] = arith.constant 4 : i32
// CHECK:         nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C4]], %{{.*}} : f32 -> f32
// CHECK:         %[[C2:.*]] = arith.constant 2 : i32
// CHECK:         nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C2]], %{{.*}} : f32 -> f32
// CHECK:         %[[C1:.*]] = arith.constant 1 : i32
// CHECK:         nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %[[C1]], %{{.*}} : f32 -> f32
// CHECK-NOT:     nvvm.shfl.sync
// CHECK:         return
func.func @copies_not_folded(%a: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %x = tile.splat %a : tensor<16xf32, #b>
  %s = tile.reduce sum %x axis = 0 : tensor<16xf32, #b> -> f32
  return
}

// -----

// Reducing dimension 0 of a 16x32 tile: 4 lanes along it with lane stride 8
// (dimension 1 is fastest, 8 lanes), so xor offsets 16 and 8; 4 warps along
// it, so a cross-warp step through shared memory: 4 warps x 32 columns x 4
// bytes = 512 bytes. Each thread has 4 result slots (4 columns).
// Then the 32-element result (a slice) is reduced along its only dimension:
// 4 slots in the thread, 8 lanes with stride 1 (offsets 4, 2, 1), a single
// warp along it.
#b = #tile.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// CHECK-LABEL: func.func @cross_warp(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: f32)
// CHECK-SAME:    shared_bytes 512
// CHECK-SAME:    tile.shared_bytes = 512 : i64
// Lanes, xor 16 then 8, for each of the 4 columns.
// CHECK-COUNT-4: nvvm.shfl.sync bfly %{{.*}}, %[[A]], %{{c16_i32[_0-9]*}}, %{{.*}} : f32 -> f32
// CHECK-COUNT-4: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %{{c8_i32[_0-9]*}}, %{{.*}} : f32 -> f32
// CHECK-NOT:     nvvm.shfl.sync
// Warps: this warp's row, [warp along dim 0][column].
// CHECK:         %[[SMEM:.*]] = llvm.mlir.addressof @tile_smem : !llvm.ptr<3>
// CHECK-NEXT:    nvvm.barrier0
// CHECK:         %[[ROW:.*]] = arith.muli %{{.*}}, %{{c32_i32[_0-9]*}} : i32
// CHECK-NEXT:    %[[I:.*]] = arith.addi %[[ROW]], %{{.*}} : i32
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr %[[SMEM]][%[[I]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    llvm.store %{{.*}}, %[[P]] : f32, !llvm.ptr<3>
// CHECK-COUNT-3: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT:    nvvm.barrier0
// Every thread reads the 4 warps' partials of each of its columns (rows
// 0, 32, 64 and 96) and combines them.
// CHECK:         %[[L0:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK:         %[[W1:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    arith.addi %{{.*}}, %[[W1]] : i32
// CHECK:         %[[L1:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NEXT:    %[[M1:.*]] = arith.maximumf %[[L0]], %[[L1]] : f32
// CHECK:         %[[W2:.*]] = arith.constant 64 : i32
// CHECK:         %[[L2:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NEXT:    %[[M2:.*]] = arith.maximumf %[[M1]], %[[L2]] : f32
// CHECK:         %[[W3:.*]] = arith.constant 96 : i32
// CHECK:         %[[L3:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NEXT:    %[[M3:.*]] = arith.maximumf %[[M2]], %[[L3]] : f32
// CHECK-COUNT-12: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT:     llvm.load
// Second reduction: the 4 column partials in the thread, then 8 lanes.
// CHECK:         %[[S0:.*]] = arith.addf %[[M3]], %{{.*}} : f32
// CHECK-NEXT:    %[[S1:.*]] = arith.addf %[[S0]], %{{.*}} : f32
// CHECK-NEXT:    %[[S2:.*]] = arith.addf %[[S1]], %{{.*}} : f32
// CHECK:         nvvm.shfl.sync bfly %{{.*}}, %[[S2]], %{{c4_i32[_0-9]*}}, %{{.*}} : f32 -> f32
// CHECK:         nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %{{c2_i32[_0-9]*}}, %{{.*}} : f32 -> f32
// CHECK:         nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %{{c1_i32[_0-9]*}}, %{{.*}} : f32 -> f32
// CHECK-NOT:     nvvm.shfl.sync
// CHECK-NOT:     nvvm.barrier0
// CHECK:         return
func.func @cross_warp(%a: f32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %x = tile.splat %a : tensor<16x32xf32, #b>
  %m = tile.reduce max %x axis = 0 : tensor<16x32xf32, #b> -> tensor<32xf32, #tile.slice<{dim = 0, parent = #b}>>
  %s = tile.reduce sum %m axis = 0 : tensor<32xf32, #tile.slice<{dim = 0, parent = #b}>> -> f32
  return
}

// -----

// Warps only (one lane along the axis): no shuffles, the shared-memory step
// alone. 4 warps x 32 rows x 4 bytes.
#b = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>

// CHECK-LABEL: func.func @warps_only(
// CHECK-SAME:    tile.shared_bytes = 512 : i64
// CHECK-NOT:     nvvm.shfl.sync
// CHECK:         llvm.mlir.addressof @tile_smem : !llvm.ptr<3>
// CHECK-NEXT:    nvvm.barrier0
// CHECK:         llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT:    nvvm.barrier0
// CHECK-COUNT-4: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT:     llvm.load
// CHECK-NOT:     nvvm.shfl.sync
// CHECK:         return
func.func @warps_only(%a: f32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %x = tile.splat %a : tensor<32x4xf32, #b>
  %s = tile.reduce min %x axis = 1 : tensor<32x4xf32, #b> -> tensor<32xf32, #tile.slice<{dim = 1, parent = #b}>>
  return
}

// -----

// f16 is reduced in f32 (shuffles take 32-bit values), narrow integers in
// i32; min of floats is arith.minimumf, of integers arith.minsi.
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: func.func @narrow_types(
// CHECK:         %[[H:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK:         %[[HW:.*]] = arith.extf %[[H]] : f16 to f32
// CHECK:         %[[HX:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[HW]], %{{.*}}, %{{.*}} : f32 -> f32
// CHECK-NEXT:    arith.minimumf %[[HW]], %[[HX]] : f32
// CHECK-COUNT-4: nvvm.shfl.sync bfly %{{.*}} : f32 -> f32
// CHECK:         arith.truncf %{{.*}} : f32 to f16
// CHECK:         %[[B:.*]] = arith.trunci %{{.*}} : i32 to i8
// CHECK:         %[[BW:.*]] = arith.extsi %[[B]] : i8 to i32
// CHECK:         %[[BX:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[BW]], %{{.*}}, %{{.*}} : i32 -> i32
// CHECK-NEXT:    arith.minsi %[[BW]], %[[BX]] : i32
// CHECK-COUNT-4: nvvm.shfl.sync bfly %{{.*}} : i32 -> i32
// CHECK:         arith.trunci %{{.*}} : i32 to i8
// CHECK-NEXT:    return
func.func @narrow_types(%a: f32, %i: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %x = tile.splat %a : tensor<32xf32, #b>
  %h = arith.truncf %x : tensor<32xf32, #b> to tensor<32xf16, #b>
  %hm = tile.reduce min %h axis = 0 : tensor<32xf16, #b> -> f16
  %y = tile.splat %i : tensor<32xi32, #b>
  %c = arith.trunci %y : tensor<32xi32, #b> to tensor<32xi8, #b>
  %cm = tile.reduce min %c axis = 0 : tensor<32xi8, #b> -> i8
  return
}

// -----

// argmax carries (value, position) pairs through all three steps: the
// position of a slot along the axis, both halves of every shuffle, and a
// second shared-memory array for the positions (2 warps x 1 x 8 bytes).
// The combine picks the other pair when its value is larger, equal at an
// earlier position, or a NaN (`uno`).
#w = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>

// CHECK-LABEL: func.func @argmax_pairs(
// CHECK-SAME:    tile.shared_bytes = 16 : i64
// CHECK:         arith.cmpi slt
// CHECK:         arith.cmpf ogt
// CHECK:         arith.cmpf oeq
// CHECK:         arith.cmpf uno
// CHECK:         arith.select {{.*}} : f32
// CHECK-NEXT:    arith.select {{.*}} : i32
// CHECK:         nvvm.shfl.sync bfly {{.*}} : f32 -> f32
// CHECK:         nvvm.shfl.sync bfly {{.*}} : i32 -> i32
// CHECK:         llvm.store {{.*}} : f32, !llvm.ptr<3>
// CHECK:         llvm.store {{.*}} : i32, !llvm.ptr<3>
// CHECK:         llvm.load {{.*}} : !llvm.ptr<3> -> f32
// CHECK:         llvm.load {{.*}} : !llvm.ptr<3> -> i32
func.func @argmax_pairs(%p: !tile.ptr<f32>, %out: !tile.ptr<i32>) attributes {tile.kernel, tile.num_warps = 2 : i32} {
  %r = tile.range 0, 128 : tensor<128xi32, #w>
  %ps = tile.splat %p : tensor<128x!tile.ptr<f32>, #w>
  %ptrs = tile.addptr %ps, %r : tensor<128x!tile.ptr<f32>, #w>, tensor<128xi32, #w>
  %x = tile.load %ptrs : tensor<128x!tile.ptr<f32>, #w>
  %i = tile.reduce argmax %x axis = 0 : tensor<128xf32, #w> -> i32
  tile.store %out, %i : !tile.ptr<i32>
  return
}
