// tile.dot stages a (m x k, row-major) and then b (k x n, at offset m * k)
// in shared memory as f32 between two barriers, then each thread runs an
// scf.for over k with one math.fma per accumulator slot, loading each of
// its rows of a and columns of b once per k.
//
// RUN: tile-opt %s -split-input-file -tile-convert-to-llvm | FileCheck %s

// 16x16 @ 16x32 with 2x2 elements per thread: each thread has 4
// accumulator slots over 2 rows and 2 columns. Shared memory:
// (16*16 + 16*32) * 4 bytes.
#b = #tile.blocked<{sizePerThread = [2, 2], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>

// CHECK-LABEL: func.func @dot_f32(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: f32, %[[B:[a-z0-9]+]]: f32)
// CHECK-SAME:    shared_bytes 3072
// CHECK-SAME:    tile.shared_bytes = 3072 : i64
// The accumulator starts at the splat constant 0.0.
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[SMEM:.*]] = llvm.mlir.addressof @tile_smem : !llvm.ptr<3>
// CHECK-NEXT:    nvvm.barrier0
// Stage a at row * 16 + column (after the threads' bases)...
// CHECK:         arith.addi %c0_i32{{[_0-9]*}}, %{{[0-9]+}} : i32
// CHECK-NEXT:    %[[K16:.*]] = arith.constant 16 : i32
// CHECK-NEXT:    %[[AR:.*]] = arith.muli %{{.*}}, %[[K16]] : i32
// CHECK-NEXT:    %[[AL:.*]] = arith.addi %{{.*}}, %[[AR]] : i32
// CHECK-NEXT:    %[[AP:.*]] = llvm.getelementptr %[[SMEM]][%[[AL]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    llvm.store %[[A]], %[[AP]] : f32, !llvm.ptr<3>
// CHECK-COUNT-3: llvm.store %[[A]], %{{.*}} : f32, !llvm.ptr<3>
// ... and b at 256 + row * 32 + column.
// CHECK:         %[[N32:.*]] = arith.constant 32 : i32
// CHECK-NEXT:    %[[BR:.*]] = arith.muli %{{.*}}, %[[N32]] : i32
// CHECK-NEXT:    %[[BL:.*]] = arith.addi %{{.*}}, %[[BR]] : i32
// CHECK-NEXT:    %[[C256:.*]] = arith.constant 256 : i32
// CHECK-NEXT:    %[[BL2:.*]] = arith.addi %[[BL]], %[[C256]] : i32
// CHECK-NEXT:    %[[BP:.*]] = llvm.getelementptr %[[SMEM]][%[[BL2]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    llvm.store %[[B]], %[[BP]] : f32, !llvm.ptr<3>
// CHECK-COUNT-3: llvm.store %[[B]], %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NOT:     llvm.store
// CHECK:         nvvm.barrier0
// Rows of a start at row * k; columns of b at m * k + column (after the
// threads' slot indices).
// CHECK-COUNT-4: arith.addi %{{[0-9]+}}, %c1_i32{{[_0-9]*}} : i32
// CHECK-NEXT:    %[[K1:.*]] = arith.constant 16 : i32
// CHECK-NEXT:    %[[ROW0:.*]] = arith.muli %{{.*}}, %[[K1]] : i32
// CHECK-NEXT:    %[[K2:.*]] = arith.constant 16 : i32
// CHECK-NEXT:    %[[ROW1:.*]] = arith.muli %{{.*}}, %[[K2]] : i32
// CHECK-NEXT:    %[[MK1:.*]] = arith.constant 256 : i32
// CHECK-NEXT:    %[[COL0:.*]] = arith.addi %{{.*}}, %[[MK1]] : i32
// CHECK-NEXT:    %[[MK2:.*]] = arith.constant 256 : i32
// CHECK-NEXT:    %[[COL1:.*]] = arith.addi %{{.*}}, %[[MK2]] : i32
// CHECK-NEXT:    %[[LB:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[UB:.*]] = arith.constant 16 : i32
// CHECK-NEXT:    %[[STEP:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %{{.*}}:4 = scf.for %[[K:.*]] = %[[LB]] to %[[UB]] step %[[STEP]] iter_args(%[[C0:.*]] = %[[ZERO]], %[[C1:.*]] = %[[ZERO]], %[[C2:.*]] = %[[ZERO]], %[[C3:.*]] = %[[ZERO]]) -> (f32, f32, f32, f32) : i32 {
// CHECK-NEXT:      %[[IA0:.*]] = arith.addi %[[ROW0]], %[[K]] : i32
// CHECK-NEXT:      %[[PA0:.*]] = llvm.getelementptr %[[SMEM]][%[[IA0]]]
// CHECK-NEXT:      %[[A0:.*]] = llvm.load %[[PA0]] : !llvm.ptr<3> -> f32
// CHECK-NEXT:      %[[IA1:.*]] = arith.addi %[[ROW1]], %[[K]] : i32
// CHECK-NEXT:      %[[PA1:.*]] = llvm.getelementptr %[[SMEM]][%[[IA1]]]
// CHECK-NEXT:      %[[A1:.*]] = llvm.load %[[PA1]] : !llvm.ptr<3> -> f32
// CHECK-NEXT:      %[[N:.*]] = arith.constant 32 : i32
// CHECK-NEXT:      %[[KROW:.*]] = arith.muli %[[K]], %[[N]] : i32
// CHECK-NEXT:      %[[IB0:.*]] = arith.addi %[[KROW]], %[[COL0]] : i32
// CHECK-NEXT:      %[[PB0:.*]] = llvm.getelementptr %[[SMEM]][%[[IB0]]]
// CHECK-NEXT:      %[[B0:.*]] = llvm.load %[[PB0]] : !llvm.ptr<3> -> f32
// CHECK-NEXT:      %[[IB1:.*]] = arith.addi %[[KROW]], %[[COL1]] : i32
// CHECK-NEXT:      %[[PB1:.*]] = llvm.getelementptr %[[SMEM]][%[[IB1]]]
// CHECK-NEXT:      %[[B1:.*]] = llvm.load %[[PB1]] : !llvm.ptr<3> -> f32
// CHECK-NEXT:      %[[F0:.*]] = math.fma %[[A0]], %[[B0]], %[[C0]] : f32
// CHECK-NEXT:      %[[F1:.*]] = math.fma %[[A0]], %[[B1]], %[[C1]] : f32
// CHECK-NEXT:      %[[F2:.*]] = math.fma %[[A1]], %[[B0]], %[[C2]] : f32
// CHECK-NEXT:      %[[F3:.*]] = math.fma %[[A1]], %[[B1]], %[[C3]] : f32
// CHECK-NEXT:      scf.yield %[[F0]], %[[F1]], %[[F2]], %[[F3]] : f32, f32, f32, f32
// CHECK-NEXT:    }
// CHECK-NOT:     nvvm.barrier0
// CHECK:         return
func.func @dot_f32(%va: f32, %vb: f32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %a = tile.splat %va : tensor<16x16xf32, #b>
  %b = tile.splat %vb : tensor<16x32xf32, #b>
  %c = arith.constant dense<0.0> : tensor<16x32xf32, #b>
  %d = tile.dot %a, %b, %c : tensor<16x16xf32, #b>, tensor<16x32xf32, #b> -> tensor<16x32xf32, #b>
  return
}

// -----

// f16 operands and accumulator: staged and accumulated in f32, the result
// truncated back. Two accumulator slots per thread (the layout covers
// 16x8).
#b = #tile.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>

// CHECK-LABEL: func.func @dot_f16(
// CHECK-SAME:    tile.shared_bytes = 2048 : i64
// CHECK:         nvvm.barrier0
// CHECK:         %[[AW:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:         llvm.store %[[AW]], %{{.*}} : f32, !llvm.ptr<3>
// CHECK:         %[[BW:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:         llvm.store %[[BW]], %{{.*}} : f32, !llvm.ptr<3>
// CHECK:         nvvm.barrier0
// CHECK:         %[[CW:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT:    %[[CW1:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK:         %[[R:.*]]:2 = scf.for %{{.*}} iter_args(%[[ACC0:.*]] = %[[CW]], %[[ACC1:.*]] = %[[CW1]]) -> (f32, f32) : i32 {
// CHECK:           math.fma %{{.*}}, %{{.*}}, %[[ACC0]] : f32
// CHECK-NEXT:      math.fma %{{.*}}, %{{.*}}, %[[ACC1]] : f32
// CHECK:         }
// CHECK-NEXT:    arith.truncf %[[R]]#0 : f32 to f16
// CHECK-NEXT:    arith.truncf %[[R]]#1 : f32 to f16
func.func @dot_f16(%va: f32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %x = tile.splat %va : tensor<16x16xf32, #b>
  %h = arith.truncf %x : tensor<16x16xf32, #b> to tensor<16x16xf16, #b>
  %d = tile.dot %h, %h, %h : tensor<16x16xf16, #b>, tensor<16x16xf16, #b> -> tensor<16x16xf16, #b>
  return
}
