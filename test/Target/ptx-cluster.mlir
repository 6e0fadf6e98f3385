// A kernel with tile.cluster_size compiles for sm_90 with the cluster shape
// in the PTX (.reqnctapercluster: a plain launch forms the clusters) and in
// the metadata; the exchange is cluster barriers and distributed shared
// memory reads. Targets before sm_90 have no clusters: a located error.
//
// RUN: tile-compile %S/../../examples/softmax_cluster.mlir --chip=sm_90 -o %t.ptx --metadata %t.meta
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: FileCheck %s --check-prefix=META < %t.meta
// RUN: not tile-compile %S/../../examples/softmax_cluster.mlir --chip=sm_80 -o %t80.ptx 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SM80
//
// PTX:       .entry softmax_cluster(
// PTX:       .explicitcluster
// PTX-NEXT:  .reqnctapercluster 4, 1, 1
// PTX:       barrier.cluster.arrive;
// PTX:       barrier.cluster.wait;
// PTX:       mapa.shared::cluster.u32
// PTX:       ld.shared::cluster.b32
// PTX:       shfl.sync.idx.b32
// PTX:       barrier.cluster.wait;
// PTX-NEXT:  ret;
//
// META:      name softmax_cluster
// META:      cluster_size 4
//
// SM80: softmax_cluster.mlir:{{[0-9]+}}:3: error: kernel 'softmax_cluster' runs in clusters of 4 programs (tile.cluster_size), which need sm_90 or later; the target is sm_80
