// The interpreter runs the programs of each cluster (tile.cluster_size) on
// threads of their own, one at a time, handing over at every cluster op; an
// exchange completes once every program of the cluster has contributed.
// Programs that do not reach the same cluster ops (a deadlock on a GPU), a
// grid that is not a whole number of clusters, and a fault in one program
// of a cluster are reported, with the exit status of a kernel error.
//
// REQUIRES: tile-run
//
// DEFINE: %{run} = %python %S/Inputs/run.py tile-run --mode=interp --quiet
// DEFINE: %{examples} = %S/../../../examples

// softmax_cluster: rows of 3001 columns over clusters of 4 programs of
// 1024 (the last program of each row holds none of them: m = -inf, s = 0).
// RUN: %{run} %{examples}/softmax_cluster.mlir --grid 28 \
// RUN:     --arg y=f32[7x3001] --arg x=f32[7x3001]:randn \
// RUN:     --arg i32:3001 --arg i32:3001 --arg i32:7 --arg i32:3001 \
// RUN:     --check 'y=softmax(x)' \
// RUN:   | FileCheck %s --check-prefix=SOFTMAX
// SOFTMAX:      $ tile-run
// SOFTMAX-NEXT: check y = softmax(x): {{.*}}: PASS
// SOFTMAX-NEXT: [exit 0]

// RUN: %{run} %{examples}/softmax_cluster.mlir --grid 27 \
// RUN:     --arg y=f32[7x3001] --arg x=f32[7x3001]:randn \
// RUN:     --arg i32:3001 --arg i32:3001 --arg i32:7 --arg i32:3001 \
// RUN:   | FileCheck %s --check-prefix=GRID
// GRID:      $ tile-run
// GRID-NEXT: {{.*}}softmax_cluster.mlir:{{[0-9]+}}:3: error: grid dimension 0 is 27; it must be a multiple of tile.cluster_size (4)
// GRID:      [exit 1]

// Every program gets the sum and the list of the ranks of its cluster.
// RUN: %{run} %s --kernel ranks --grid 4 --arg 'sums=i32[4]' --arg 'all=i32[8]' \
// RUN:     --print sums --print all \
// RUN:   | FileCheck %s --check-prefix=RANKS
// RANKS:      $ tile-run
// RANKS-NEXT: sums = [1, 1, 5, 5]
// RANKS-NEXT: all = [0, 1, 0, 1, 2, 3, 2, 3]
// RANKS-NEXT: [exit 0]
func.func @ranks(%sums: !tile.ptr<i32>, %all: !tile.ptr<i32>)
    attributes {tile.kernel, tile.num_warps = 1 : i32, tile.cluster_size = 2 : i32} {
  %pid = tile.program_id 0
  %sum = tile.cluster_reduce sum %pid : i32
  %p = tile.addptr %sums, %pid : !tile.ptr<i32>, i32
  tile.store %p, %sum : !tile.ptr<i32>
  %ranks = tile.cluster_gather %pid : i32 -> tensor<2xi32>
  %c2 = arith.constant 2 : i32
  %base = arith.muli %pid, %c2 : i32
  %row = tile.addptr %all, %base : !tile.ptr<i32>, i32
  %row_splat = tile.splat %row : tensor<2x!tile.ptr<i32>>
  %offsets = tile.range 0, 2 : tensor<2xi32>
  %ptrs = tile.addptr %row_splat, %offsets : tensor<2x!tile.ptr<i32>>, tensor<2xi32>
  tile.store %ptrs, %ranks : tensor<2x!tile.ptr<i32>>
  return
}

// Program 1 skips the exchange that program 0 waits in.
// RUN: %{run} %s --kernel divergent --grid 2 --arg 'out=f32[2]' \
// RUN:   | FileCheck %s --check-prefix=DIVERGENT -DFILE=%s
// DIVERGENT:      $ tile-run
// DIVERGENT-NEXT: [[FILE]]:[[# @LINE + 9]]:10: error: in program (0, 0, 0): program 1 of this cluster ended without reaching this op (on a GPU the cluster would deadlock)
// DIVERGENT:      [exit 1]
func.func @divergent(%out: !tile.ptr<f32>)
    attributes {tile.kernel, tile.num_warps = 1 : i32, tile.cluster_size = 2 : i32} {
  %pid = tile.program_id 0
  %c0 = arith.constant 0 : i32
  %first = arith.cmpi eq, %pid, %c0 : i32
  %one = arith.constant 1.0 : f32
  %v = scf.if %first -> f32 {
    %m = tile.cluster_reduce max %one : f32
    scf.yield %m : f32
  } else {
    scf.yield %one : f32
  }
  %p = tile.addptr %out, %pid : !tile.ptr<f32>, i32
  tile.store %p, %v : !tile.ptr<f32>
  return
}

// Program 1 stores out of bounds before the exchange: the error is its own,
// and program 0, waiting in the exchange, stops without a second one.
// RUN: %{run} %s --kernel fault --grid 2 --arg 'out=f32[1]' \
// RUN:   | FileCheck %s --check-prefix=FAULT -DFILE=%s
// FAULT:      $ tile-run
// FAULT-NEXT: [[FILE]]:[[# @LINE + 8]]:3: error: in program (1, 0, 0): out-of-bounds store of buffer 'out': element offset 1 is outside [0, 1)
// FAULT-NOT:  error
// FAULT:      [exit 1]
func.func @fault(%out: !tile.ptr<f32>)
    attributes {tile.kernel, tile.num_warps = 1 : i32, tile.cluster_size = 2 : i32} {
  %pid = tile.program_id 0
  %one = arith.constant 1.0 : f32
  %p = tile.addptr %out, %pid : !tile.ptr<f32>, i32
  tile.store %p, %one : !tile.ptr<f32>
  %m = tile.cluster_reduce max %one : f32
  return
}
