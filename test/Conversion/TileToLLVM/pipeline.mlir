// A kernel without layouts: tile-assign-layouts then tile-convert-to-llvm,
// and the tile-to-llvm pipeline (checks, layouts, cleanups, lowering).
// The default layout of a 1024-element f32 tile over 4 warps gives each
// thread 4 consecutive elements twice (at +0..3 and +512..515): 8 slots.
//
// RUN: tile-opt %s -tile-assign-layouts -tile-convert-to-llvm | FileCheck %s
// RUN: tile-opt %s -tile-to-llvm | FileCheck %s --check-prefix=PIPE

// CHECK-LABEL: func.func @vector_add(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: !llvm.ptr<1>, %[[Y:[a-z0-9]+]]: !llvm.ptr<1>, %[[OUT:[a-z0-9]+]]: !llvm.ptr<1>, %[[N:[a-z0-9]+]]: i32)
// CHECK-SAME:    tile.metadata = "tile-kernel v1\0Aname vector_add\0Anum_warps 4\0Ashared_bytes 0\0Aarg ptr f32 16\0Aarg ptr f32 16\0Aarg ptr f32 16\0Aarg i32 1\0Aend\0A"
// CHECK:         nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK:         nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         arith.constant 512 : i32
// CHECK-COUNT-8: arith.cmpi slt, %{{.*}}, %[[N]] : i32
// CHECK-COUNT-8: llvm.getelementptr %[[X]][%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-COUNT-8: llvm.getelementptr %[[Y]][%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// (How many loads and stores, and how wide, is up to vectorization.)
// CHECK:         scf.if
// CHECK:         llvm.load
// CHECK-COUNT-8: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NOT:     arith.addf
// CHECK-COUNT-8: llvm.getelementptr %[[OUT]][%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK:         llvm.store
// CHECK-NOT:     nvvm.barrier0
// CHECK-NOT:     tile.
// CHECK:         return

// After canonicalization and CSE the thread id is read once.
// PIPE-LABEL: func.func @vector_add(
// PIPE-NOT:     tile.kernel
// PIPE-COUNT-1: nvvm.read.ptx.sreg.tid.x
// PIPE-NOT:     nvvm.read.ptx.sreg.tid.x
// PIPE:        llvm.load
// PIPE-COUNT-8: arith.addf
// PIPE-NOT:     arith.addf
// PIPE:         llvm.store
// PIPE-NOT:     tile.
// PIPE:         return

func.func @vector_add(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>,
                      %out: !tile.ptr<f32>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pid = tile.program_id 0
  %block = arith.constant 1024 : i32
  %block_start = arith.muli %pid, %block : i32
  %lanes = tile.range 0, 1024 : tensor<1024xi32>
  %block_starts = tile.splat %block_start : tensor<1024xi32>
  %offsets = arith.addi %block_starts, %lanes : tensor<1024xi32>
  %n_splat = tile.splat %n : tensor<1024xi32>
  %mask = arith.cmpi slt, %offsets, %n_splat : tensor<1024xi32>
  %x_base = tile.splat %x : tensor<1024x!tile.ptr<f32>>
  %x_ptrs = tile.addptr %x_base, %offsets : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %y_base = tile.splat %y : tensor<1024x!tile.ptr<f32>>
  %y_ptrs = tile.addptr %y_base, %offsets : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %x_vals = tile.load %x_ptrs, %mask : tensor<1024x!tile.ptr<f32>>
  %y_vals = tile.load %y_ptrs, %mask : tensor<1024x!tile.ptr<f32>>
  %sum = arith.addf %x_vals, %y_vals : tensor<1024xf32>
  %out_base = tile.splat %out : tensor<1024x!tile.ptr<f32>>
  %out_ptrs = tile.addptr %out_base, %offsets : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %out_ptrs, %sum, %mask : tensor<1024x!tile.ptr<f32>>
  return
}
