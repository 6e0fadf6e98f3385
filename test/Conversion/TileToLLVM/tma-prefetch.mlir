// tile.tma_prefetch lowered (tile-warp-specialize, within --tile-to-llvm,
// makes them in a persistent program with a one-shot copy): once the
// producer issued a tile's copies, its first lane prefetches the next
// tile's Q (where there is one) into L2 through Q's map, one 64 x 8 box at
// a time as Q's buffer takes wgmma's 8-row groups (the plain map of the
// two), with no barrier and no shared address.
//
// RUN: tile-opt %s --tile-to-llvm=chip=sm_90a | FileCheck %s

// CHECK-LABEL: func.func @tiles_prefetch(
// CHECK-SAME:    %{{[^:]*}}: i32, %arg3: i32, %[[KMAP:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>}, %[[QMAP:[^:]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<256 x i8>}
// CHECK:         nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[KMAP]]
// CHECK:         %[[HAS:.*]] = arith.cmpi slt, %[[NT:[^,]*]], %arg3 : i32
// CHECK:         %[[ISSUE:.*]] = arith.andi %{{.*}}, %[[HAS]] : i1
// CHECK-NEXT:    scf.if %[[ISSUE]] {
// CHECK:           %[[ROW:.*]] = arith.addi %[[NT]], %{{.*}} : i32
// CHECK-NEXT:      nvvm.cp.async.bulk.tensor.prefetch %[[QMAP]], box[%{{.*}}, %[[ROW]]] : !llvm.ptr
// CHECK-COUNT-7:   nvvm.cp.async.bulk.tensor.prefetch %[[QMAP]], box[
// CHECK-NEXT:    }
// CHECK-NOT:     nvvm.cp.async.bulk.tensor.prefetch
// CHECK:         return
func.func @tiles_prefetch(%k: !tile.ptr<f16>, %o: !tile.ptr<f32>, %n: i32, %tiles: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tile.num_stages = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %d = arith.constant 64 : i64
  %n64 = arith.extsi %n : i32 to i64
  %pid = tile.program_id 0
  %np = tile.num_programs 0
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %qbuf = tile.alloc_shared : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
  scf.for %t = %pid to %tiles step %np : i32 {
    %qptr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%t, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
    %qblk = tile.block_load %qptr check = [0] padding = zero : !tile.block_ptr<tensor<64x64xf16>>
    tile.local_store %qblk, %qbuf[%c0] : tensor<64x64xf16>, !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8>
    %ptr = tile.make_block_ptr %k, [%n64, %d], [%d, %one], [%t, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
    %res:2 = scf.for %i = %t to %n step %c64 iter_args(%acc = %zero, %p = %ptr) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>) : i32 {
      %blk = tile.block_load %p : !tile.block_ptr<tensor<64x64xf16>>
      %q = tile.local_load %qbuf[%c0] : !tile.shared<tensor<64x64xf16>, stages = 1, pad = 8> -> tensor<64x64xf16>
      %s = tile.dot %q, %blk, %acc : tensor<64x64xf16>, tensor<64x64xf16> -> tensor<64x64xf32>
      %next = tile.advance %p, [%c64, %c0] : !tile.block_ptr<tensor<64x64xf16>>
      scf.yield %s, %next : tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>
    } {tile.warp_specialize}
    %row = arith.muli %t, %c64 : i32
    %op = tile.make_block_ptr %o, [%n64, %d], [%d, %one], [%row, %c0] order = [1, 0] : !tile.block_ptr<tensor<64x64xf32>>
    tile.block_store %op, %res#0 : !tile.block_ptr<tensor<64x64xf32>>
  }
  return
}
