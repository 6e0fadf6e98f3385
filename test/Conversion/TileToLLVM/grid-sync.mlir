// Grid synchronization through global memory: tile.atomic_add is a barrier
// (every thread's earlier writes ordered before the release), thread 0's
// atom.add.acq_rel at GPU scope with its old value into the scratch word,
// a barrier, and every thread's read of the word (4 bytes of scratch);
// tile.wait_at_least is thread 0 polling with ld.acquire at GPU scope,
// then a barrier. Labels are unique per asm statement (${:uid}).
//
// RUN: tile-opt %s -split-input-file -tile-assign-layouts -tile-convert-to-llvm | FileCheck %s

// CHECK-LABEL: func.func @ticket_then_wait(
// CHECK-SAME:    tile.shared_bytes = 4 : i64
// CHECK:         %[[WORD:.*]] = llvm.mlir.addressof @tile_smem
// CHECK:         nvvm.barrier0
// CHECK-NEXT:    %[[ADDR:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<1> to i64
// CHECK-NEXT:    llvm.inline_asm has_side_effects "{{.*}}setp.eq.u32 first, $2, 0;{{.*}}@first atom.acq_rel.gpu.global.add.u32 old, [$0], $1;{{.*}}@first st.shared.b32 [$3], old;{{.*}}", "l,r,r,r,~{memory}" %[[ADDR]]
// CHECK-NEXT:    nvvm.barrier0
// CHECK-NEXT:    %[[T:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK:         llvm.inline_asm has_side_effects "{{.*}}@p bra tile_wait_done_${:uid};{{.*}}ld.acquire.gpu.global.b32 v, [$0];{{.*}}setp.lt.s32 p, v, $1;{{.*}}@p bra tile_wait_poll_${:uid};{{.*}}", "l,r,r,~{memory}" %{{.*}}, %[[T]], %{{.*}}
// CHECK-NEXT:    nvvm.barrier0
func.func @ticket_then_wait(%counter: !tile.ptr<i32>, %out: !tile.ptr<i32>)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %one = arith.constant 1 : i32
  %t = tile.atomic_add %counter, %one : !tile.ptr<i32>
  tile.wait_at_least %counter, %t : !tile.ptr<i32>
  tile.store %out, %t : !tile.ptr<i32>
  return
}
