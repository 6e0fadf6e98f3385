// Cluster exchanges: the kernel gets exchange words after its scratch space
// (tile.shared_offset, counted in tile.shared_bytes and the metadata's
// cluster_size), an arrival at entry and a wait before the return; each
// exchange waits, writes from thread 0, arrives and waits, reads the words
// of the program of rank min(lane, size - 1) through distributed shared
// memory and arrives. cluster_reduce then folds the lanes (identity beyond
// the cluster) with a butterfly; cluster_gather shuffles lane r into
// element r.
//
// RUN: tile-opt %s -split-input-file -tile-assign-layouts -tile-convert-to-llvm | FileCheck %s

// CHECK-LABEL: func.func @reduce_max(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: f32)
// CHECK-SAME:    cluster_size 4
// CHECK-SAME:    tile.shared_bytes = 4 : i64
// CHECK:         nvvm.cluster.arrive{{$}}
// CHECK:         %[[WORDS:.*]] = llvm.getelementptr %{{.*}} : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    nvvm.cluster.wait{{$}}
// CHECK-NEXT:    %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK:         %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %{{.*}} : i32
// CHECK-NEXT:    scf.if %[[FIRST]] {
// CHECK:           %[[W0:.*]] = llvm.getelementptr %[[WORDS]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK-NEXT:      llvm.store %[[X]], %[[W0]] : f32, !llvm.ptr<3>
// CHECK-NEXT:    }
// CHECK-NEXT:    nvvm.cluster.arrive{{$}}
// CHECK-NEXT:    nvvm.cluster.wait{{$}}
// CHECK:         %[[PEER:.*]] = arith.minui %{{.*}}, %c3_i32 : i32
// CHECK-NEXT:    %[[REMOTE:.*]] = nvvm.mapa %[[WORDS]], %[[PEER]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:         %[[R0:.*]] = llvm.getelementptr %[[REMOTE]][%{{.*}}] : (!llvm.ptr<7>, i32) -> !llvm.ptr<7>, i32
// CHECK-NEXT:    %[[LANE:.*]] = llvm.load %[[R0]] {alignment = 4 : i64} : !llvm.ptr<7> -> f32
// CHECK-NEXT:    nvvm.cluster.arrive{{$}}
// CHECK:         %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %c4_i32 : i32
// CHECK:         %[[ACC:.*]] = arith.select %[[IN]], %[[LANE]], %cst : f32
// CHECK:         nvvm.shfl.sync  bfly %{{.*}}, %[[ACC]], %c16_i32
// CHECK:         arith.maximumf
// CHECK-COUNT-4: nvvm.shfl.sync  bfly
// CHECK:         nvvm.cluster.wait{{$}}
// CHECK-NEXT:    return
func.func @reduce_max(%out: !tile.ptr<f32>, %x: f32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.cluster_size = 4 : i32} {
  %m = tile.cluster_reduce max %x : f32
  tile.store %out, %m : !tile.ptr<f32>
  return
}

// -----

// Two values travel in one exchange (two words); each element of a result
// comes from an indexed shuffle of the lane of its rank.
// CHECK-LABEL: func.func @gather_pair(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: f32, %[[N:[a-z0-9]+]]: i32)
// CHECK-SAME:    tile.shared_bytes = 8 : i64
// CHECK:         scf.if
// CHECK:           %[[W0:.*]] = llvm.getelementptr %[[WORDS:.*]][%c0_i32{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK-NEXT:      llvm.store %[[X]], %[[W0]] : f32, !llvm.ptr<3>
// CHECK:           %[[W1:.*]] = llvm.getelementptr %[[WORDS]][%c1_i32{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i32
// CHECK-NEXT:      llvm.store %[[N]], %[[W1]] : i32, !llvm.ptr<3>
// CHECK-NEXT:    }
// CHECK-NEXT:    nvvm.cluster.arrive{{$}}
// CHECK-NEXT:    nvvm.cluster.wait{{$}}
// CHECK:         %[[REMOTE:.*]] = nvvm.mapa %[[WORDS]]
// CHECK:         llvm.getelementptr %[[REMOTE]][%c0_i32{{.*}}]
// CHECK-NEXT:    %[[XS:.*]] = llvm.load %{{.*}} : !llvm.ptr<7> -> f32
// CHECK:         llvm.getelementptr %[[REMOTE]][%c1_i32{{.*}}]
// CHECK-NEXT:    %[[NS:.*]] = llvm.load %{{.*}} : !llvm.ptr<7> -> i32
// CHECK-NEXT:    nvvm.cluster.arrive{{$}}
// CHECK-COUNT-2: nvvm.shfl.sync idx %{{.*}}, %[[XS]], %{{.*}} : f32 -> f32
// CHECK-COUNT-2: nvvm.shfl.sync idx %{{.*}}, %[[NS]], %{{.*}} : i32 -> i32
func.func @gather_pair(%out: !tile.ptr<f32>, %x: f32, %n: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.cluster_size = 2 : i32} {
  %all:2 = tile.cluster_gather %x, %n : f32, i32 -> tensor<2xf32>, tensor<2xi32>
  %s = tile.reduce sum %all#0 axis = 0 : tensor<2xf32> -> f32
  %c = tile.reduce sum %all#1 axis = 0 : tensor<2xi32> -> i32
  %cf = arith.sitofp %c : i32 to f32
  %t = arith.addf %s, %cf : f32
  tile.store %out, %t : !tile.ptr<f32>
  return
}

// -----

// The words go after the scratch space the kernel's reductions share.
// CHECK-LABEL: func.func @after_scratch(
// CHECK-SAME:    tile.shared_bytes = 20 : i64
// CHECK:         %[[W:.*]] = llvm.getelementptr %{{[0-9]+}}[%c16_i32{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK:         nvvm.mapa %[[W]]
func.func @after_scratch(%out: !tile.ptr<f32>)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.cluster_size = 2 : i32} {
  %i = tile.range 0, 512 : tensor<512xi32>
  %v = arith.sitofp %i : tensor<512xi32> to tensor<512xf32>
  %local = tile.reduce max %v axis = 0 : tensor<512xf32> -> f32
  %m = tile.cluster_reduce max %local : f32
  tile.store %out, %m : !tile.ptr<f32>
  return
}

// -----

// A cluster of one program exchanges nothing: no barriers, no words.
// CHECK-LABEL: func.func @single(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: f32)
// CHECK-SAME:    tile.shared_bytes = 0 : i64
// CHECK-NOT:     barrier.cluster
// CHECK-NOT:     mapa
// CHECK:         llvm.store %[[X]]
// CHECK:         arith.addf %[[X]], %[[X]]
// CHECK-NOT:     barrier.cluster
// CHECK:         return
func.func @single(%out: !tile.ptr<f32>, %x: f32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.cluster_size = 1 : i32} {
  %m = tile.cluster_reduce max %x : f32
  tile.store %out, %m : !tile.ptr<f32>
  %all = tile.cluster_gather %x : f32 -> tensor<1xf32>
  %s = tile.reduce sum %all axis = 0 : tensor<1xf32> -> f32
  %t = arith.addf %m, %s : f32
  tile.store %out, %t : !tile.ptr<f32>
  return
}
