// Grid synchronization in PTX: thread 0's atom.acq_rel.gpu and polling
// ld.acquire.gpu, each wait with labels of its own (two waits in one
// kernel), and ptxas accepts the result (a cubin for sm_80).
//
// RUN: tile-compile %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ tile-compile %s --format=bin -o %t.cubin %}
//
// CHECK:       .entry two_waits(
// CHECK:       atom.acq_rel.gpu.global.add.u32
// CHECK:       bar.sync 0;
// CHECK:       [[POLL1:tile_wait_poll_[0-9]+]]:
// CHECK-NEXT:  ld.acquire.gpu.global.b32
// CHECK:       @p bra [[POLL1]];
// CHECK:       [[POLL2:tile_wait_poll_[0-9]+]]:
// CHECK-NOT:   [[POLL1]]:
// CHECK:       @p bra [[POLL2]];
func.func @two_waits(%counter: !tile.ptr<i32>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c1 = arith.constant 1 : i32
  %t = tile.atomic_add %counter, %c1 : !tile.ptr<i32>
  tile.wait_at_least %counter, %n : !tile.ptr<i32>
  %again = tile.atomic_add %counter, %c1 : !tile.ptr<i32>
  %twice = arith.muli %n, %c1 : i32
  %n2 = arith.addi %twice, %n : i32
  tile.wait_at_least %counter, %n2 : !tile.ptr<i32>
  return
}
