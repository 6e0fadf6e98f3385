// Round trip of the cluster ops, and their verifiers.
//
// RUN: tile-opt %s -split-input-file | tile-opt -split-input-file | FileCheck %s
// RUN: tile-opt %s -split-input-file -mlir-print-op-generic | tile-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @exchange(
// CHECK-SAME:    tile.cluster_size = 4 : i32
// CHECK:         %{{.*}} = tile.cluster_reduce max %{{.*}} : f32
// CHECK:         %{{.*}} = tile.cluster_reduce sum %{{.*}} : i32
// CHECK:         %{{.*}}:2 = tile.cluster_gather %{{.*}}, %{{.*}} : f32, i32 -> tensor<4xf32>, tensor<4xi32>
func.func @exchange(%x: f32, %n: i32) -> (f32, i32, tensor<4xf32>, tensor<4xi32>)
    attributes {tile.cluster_size = 4 : i32} {
  %m = tile.cluster_reduce max %x : f32
  %s = tile.cluster_reduce sum %n : i32
  %all:2 = tile.cluster_gather %x, %n : f32, i32 -> tensor<4xf32>, tensor<4xi32>
  return %m, %s, %all#0, %all#1 : f32, i32, tensor<4xf32>, tensor<4xi32>
}
