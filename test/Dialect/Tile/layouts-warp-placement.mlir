// Round-trip of #tile.blocked's optional warp placement: warpOrder and
// warpSlices print back when given (each alone or both) and stay absent
// otherwise, through the generic form and bytecode as well.
//
// RUN: tile-opt %s -mlir-print-local-scope | FileCheck %s
// RUN: tile-opt %s -mlir-print-op-generic | tile-opt -mlir-print-local-scope | FileCheck %s
// RUN: tile-opt %s -emit-bytecode | tile-opt -mlir-print-local-scope | FileCheck %s
// RUN: tile-opt %s --verify-roundtrip -o /dev/null

// CHECK-LABEL: func.func @warp_placement(
// CHECK-SAME:    tensor<64x512xf32, #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 2], order = [1, 0], warpOrder = [0, 1], warpSlices = [1]}>>
// CHECK-SAME:    tensor<64x64xf32, #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 2], order = [1, 0], warpOrder = [0, 1]}>>
// CHECK-SAME:    tensor<64x64xf32, #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 2], order = [1, 0], warpSlices = [0, 1]}>>
// CHECK-SAME:    tensor<64x64xf32, #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 2], order = [1, 0]}>>
func.func @warp_placement(
    %a: tensor<64x512xf32, #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 2], order = [1, 0], warpOrder = [0, 1], warpSlices = [1]}>>,
    %b: tensor<64x64xf32, #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 2], order = [1, 0], warpOrder = [0, 1]}>>,
    %c: tensor<64x64xf32, #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 2], order = [1, 0], warpSlices = [0, 1]}>>,
    %d: tensor<64x64xf32, #tile.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 2], order = [1, 0]}>>) {
  return
}
