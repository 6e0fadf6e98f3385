// The consumer warpgroups of a warp-specialized kernel take turns in pairs
// (0 and 1; 2 and 3): after raising its registers, the odd warpgroup of a
// pair passes the first turn to the even one (an arrival on named barrier
// 2 + (wg ^ 1)); tile.wait_turn waits on barrier 2 + warpgroup over 256
// threads, tile.pass_turn arrives on the other warpgroup's of the pair
// (bar.arrive, inline: NVVM's op has no intrinsic).
//
// RUN: tile-opt %s -split-input-file --tile-to-llvm=chip=sm_90a | FileCheck %s

// CHECK-LABEL: func.func @turns(
// CHECK-SAME:    nvvm.maxntid = array<i32: 384, 1, 1>
// CHECK:         nvvm.setmaxregister  increase 240
// CHECK:         %[[WG1:.*]] = arith.shrui %{{.*}}, %c2_i32
// CHECK:         %[[ODD:.*]] = arith.andi %[[WG1]], %c1_i32
// CHECK:         %[[SECOND:.*]] = arith.cmpi ne, %[[ODD]], %c0_i32
// CHECK-NEXT:    scf.if %[[SECOND]] {
// CHECK:           %[[EVEN:.*]] = arith.xori %[[WG1]], %c1_i32
// CHECK:           %[[ID0:.*]] = arith.addi %[[EVEN]], %{{.*}}
// CHECK:           llvm.inline_asm has_side_effects "bar.arrive $0, $1;", "r,r" %[[ID0]]
// CHECK:         %[[WG:.*]] = arith.shrui %{{.*}}, %c2_i32{{[_0-9]*}} :
// CHECK:         %[[ID:.*]] = arith.addi %[[WG]], %{{.*}}
// CHECK:         nvvm.barrier id = %[[ID]] number_of_threads = %c256_i32
// CHECK:         %[[WGP:.*]] = arith.shrui %{{.*}}, %c2_i32{{[_0-9]*}} :
// CHECK:         %[[OTHER:.*]] = arith.xori %[[WGP]], %{{.*}}
// CHECK:         %[[IDP:.*]] = arith.addi %[[OTHER]], %{{.*}}
// CHECK:         llvm.inline_asm has_side_effects "bar.arrive $0, $1;", "r,r" %[[IDP]]
func.func @turns(%n: i32) attributes {tile.kernel, tile.num_warps = 8 : i32} {
  tile.warp_specialize registers(24, 240) {
  }
  tile.wait_turn
  tile.pass_turn
  return
}

// -----

// Four warpgroups: the same code, on barriers 2 to 5.
// CHECK-LABEL: func.func @four_warpgroups(
// CHECK-SAME:    nvvm.maxntid = array<i32: 640, 1, 1>
// CHECK:         nvvm.setmaxregister  increase 112
// CHECK:         %[[WG1:.*]] = arith.shrui %{{.*}}, %c2_i32
// CHECK:         %[[ODD:.*]] = arith.andi %[[WG1]], %c1_i32
// CHECK:         %[[SECOND:.*]] = arith.cmpi ne, %[[ODD]], %c0_i32
// CHECK-NEXT:    scf.if %[[SECOND]] {
// CHECK:           %[[EVEN:.*]] = arith.xori %[[WG1]], %c1_i32
// CHECK:           %[[ID0:.*]] = arith.addi %[[EVEN]], %{{.*}}
// CHECK:           llvm.inline_asm has_side_effects "bar.arrive $0, $1;", "r,r" %[[ID0]]
// CHECK:         %[[WG:.*]] = arith.shrui %{{.*}}, %c2_i32{{[_0-9]*}} :
// CHECK:         %[[ID:.*]] = arith.addi %[[WG]], %{{.*}}
// CHECK:         nvvm.barrier id = %[[ID]] number_of_threads = %c256_i32
func.func @four_warpgroups(%n: i32) attributes {tile.kernel, tile.num_warps = 16 : i32} {
  tile.warp_specialize registers(24, 112) {
  }
  tile.wait_turn
  tile.pass_turn
  return
}
