// tile-rematerialize: in kernels marked tile.rematerialize, f32 tiles
// computed from f16/bf16 ones and used after a sync point are recomputed
// there from the narrow tile, behind a tile.optimization_barrier that CSE
// leaves alone.
//
// RUN: tile-opt %s -split-input-file -tile-rematerialize | FileCheck %s
// RUN: tile-opt %s -split-input-file -tile-rematerialize -cse | FileCheck %s --check-prefix=CSE

// The softmax of one f16 row: x's f32 values are used after the max
// reduction and the exponentials after the sum reduction; both are
// recomputed from the loaded halves, which are all the kernel holds across
// either reduction.
// CHECK-LABEL: func.func @softmax_row(
// CHECK:         %[[X:.*]] = tile.load %{{.*}} : tensor<1024x!tile.ptr<f16>>
// CHECK-NEXT:    %[[XF:.*]] = arith.extf %[[X]]
// CHECK-NEXT:    %[[M:.*]] = tile.reduce max %[[XF]]
// CHECK-NEXT:    %[[MS:.*]] = tile.splat %[[M]]
// CHECK-NEXT:    %[[H1:.*]] = tile.optimization_barrier %[[X]] : tensor<1024xf16>
// CHECK-NEXT:    %[[XF1:.*]] = arith.extf %[[H1]]
// CHECK-NEXT:    %[[D1:.*]] = arith.subf %[[XF1]], %[[MS]]
// CHECK-NEXT:    %[[E1:.*]] = math.exp %[[D1]]
// CHECK-NEXT:    %[[S:.*]] = tile.reduce sum %[[E1]]
// CHECK-NEXT:    %[[INV:.*]] = arith.divf
// CHECK-NEXT:    %[[IS:.*]] = tile.splat %[[INV]]
// CHECK-NEXT:    %[[H2:.*]] = tile.optimization_barrier %[[X]] : tensor<1024xf16>
// CHECK-NEXT:    %[[XF2:.*]] = arith.extf %[[H2]]
// CHECK-NEXT:    %[[D2:.*]] = arith.subf %[[XF2]], %[[MS]]
// CHECK-NEXT:    %[[E2:.*]] = math.exp %[[D2]]
// CHECK-NEXT:    %[[Y:.*]] = arith.mulf %[[E2]], %[[IS]]
// CHECK-NEXT:    arith.truncf %[[Y]]
// CSE-LABEL: func.func @softmax_row(
// CSE:         tile.optimization_barrier
// CSE:         math.exp
// CSE:         tile.optimization_barrier
// CSE:         math.exp
// CSE-NOT:     math.exp
func.func @softmax_row(%yp: tensor<1024x!tile.ptr<f16>>,
                       %xp: tensor<1024x!tile.ptr<f16>>)
    attributes {tile.rematerialize} {
  %one = arith.constant 1.0 : f32
  %x = tile.load %xp : tensor<1024x!tile.ptr<f16>>
  %xf = arith.extf %x : tensor<1024xf16> to tensor<1024xf32>
  %m = tile.reduce max %xf axis = 0 : tensor<1024xf32> -> f32
  %ms = tile.splat %m : tensor<1024xf32>
  %d = arith.subf %xf, %ms : tensor<1024xf32>
  %e = math.exp %d : tensor<1024xf32>
  %s = tile.reduce sum %e axis = 0 : tensor<1024xf32> -> f32
  %inv = arith.divf %one, %s : f32
  %is = tile.splat %inv : tensor<1024xf32>
  %y = arith.mulf %e, %is : tensor<1024xf32>
  %yh = arith.truncf %y : tensor<1024xf32> to tensor<1024xf16>
  tile.store %yp, %yh : tensor<1024x!tile.ptr<f16>>
  return
}

// -----

// Without the attribute nothing changes.
// CHECK-LABEL: func.func @not_marked(
// CSE-LABEL:   func.func @not_marked(
// CHECK-NOT:     tile.optimization_barrier
// CHECK:         return
func.func @not_marked(%yp: tensor<1024x!tile.ptr<f32>>,
                      %xp: tensor<1024x!tile.ptr<f16>>)
    {
  %x = tile.load %xp : tensor<1024x!tile.ptr<f16>>
  %xf = arith.extf %x : tensor<1024xf16> to tensor<1024xf32>
  %m = tile.reduce max %xf axis = 0 : tensor<1024xf32> -> f32
  %ms = tile.splat %m : tensor<1024xf32>
  %d = arith.subf %xf, %ms : tensor<1024xf32>
  tile.store %yp, %d : tensor<1024x!tile.ptr<f32>>
  return
}

// -----

// f32 loads: nothing narrower to recompute from.
// CHECK-LABEL: func.func @wide_source(
// CHECK-NOT:     tile.optimization_barrier
// CHECK:         return
func.func @wide_source(%yp: tensor<1024x!tile.ptr<f32>>,
                       %xp: tensor<1024x!tile.ptr<f32>>)
    attributes {tile.rematerialize} {
  %x = tile.load %xp : tensor<1024x!tile.ptr<f32>>
  %m = tile.reduce max %x axis = 0 : tensor<1024xf32> -> f32
  %ms = tile.splat %m : tensor<1024xf32>
  %d = arith.subf %x, %ms : tensor<1024xf32>
  tile.store %yp, %d : tensor<1024x!tile.ptr<f32>>
  return
}

// -----

// Two exponentials in one chain cost more than they save: only the
// conversion is recomputed; the value used after the reduction is held.
// CHECK-LABEL: func.func @two_transcendentals(
// CHECK:         math.exp
// CHECK-NEXT:    %[[E2:.*]] = math.exp %{{.*}} : tensor<256xf32>
// CHECK-NEXT:    tile.reduce sum %[[E2]]
// CHECK-NOT:     tile.optimization_barrier
// CHECK:         arith.mulf %[[E2]], %{{.*}}
func.func @two_transcendentals(%yp: tensor<256x!tile.ptr<f32>>,
                               %xp: tensor<256x!tile.ptr<bf16>>)
    attributes {tile.rematerialize} {
  %x = tile.load %xp : tensor<256x!tile.ptr<bf16>>
  %xf = arith.extf %x : tensor<256xbf16> to tensor<256xf32>
  %e1 = math.exp %xf : tensor<256xf32>
  %e2 = math.exp %e1 : tensor<256xf32>
  %s = tile.reduce sum %e2 axis = 0 : tensor<256xf32> -> f32
  %ss = tile.splat %s : tensor<256xf32>
  %y = arith.mulf %e2, %ss : tensor<256xf32>
  tile.store %yp, %y : tensor<256x!tile.ptr<f32>>
  return
}

// -----

// Uses inside a loop after the sync point: the loop is the user; the
// recomputation goes before it, and the loop's own reductions make it a
// sync point for what follows.
// CHECK-LABEL: func.func @use_in_loop(
// CHECK:         tile.reduce max
// CHECK:         %[[H:.*]] = tile.optimization_barrier
// CHECK-NEXT:    %[[XF:.*]] = arith.extf %[[H]]
// CHECK-NEXT:    scf.for
// CHECK:           tile.reduce sum %[[XF]]
func.func @use_in_loop(%xp: tensor<512x!tile.ptr<f16>>, %out: !tile.ptr<f32>,
                       %n: index) attributes {tile.rematerialize} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %x = tile.load %xp : tensor<512x!tile.ptr<f16>>
  %xf = arith.extf %x : tensor<512xf16> to tensor<512xf32>
  %m = tile.reduce max %xf axis = 0 : tensor<512xf32> -> f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %s = tile.reduce sum %xf axis = 0 : tensor<512xf32> -> f32
    %a = arith.addf %acc, %s : f32
    scf.yield %a : f32
  }
  %t = arith.addf %r, %m : f32
  tile.store %out, %t : !tile.ptr<f32>
  return
}

// -----

// An operand broadcast from a whole row of values (not a per-row
// statistic) is not free to hold: nothing is recomputed.
// CHECK-LABEL: func.func @wide_broadcast_operand(
// CHECK-NOT:     tile.optimization_barrier
// CHECK:         return
func.func @wide_broadcast_operand(%yp: tensor<4x64x!tile.ptr<f32>>,
                                  %xp: tensor<4x64x!tile.ptr<f16>>,
                                  %bp: tensor<1x64x!tile.ptr<f32>>)
    attributes {tile.rematerialize} {
  %x = tile.load %xp : tensor<4x64x!tile.ptr<f16>>
  %xf = arith.extf %x : tensor<4x64xf16> to tensor<4x64xf32>
  %b = tile.load %bp : tensor<1x64x!tile.ptr<f32>>
  %bb = tile.broadcast %b : tensor<1x64xf32> -> tensor<4x64xf32>
  %d = arith.subf %xf, %bb : tensor<4x64xf32>
  %m = tile.reduce max %d axis = 1 : tensor<4x64xf32> -> tensor<4xf32>
  %y = arith.mulf %d, %d : tensor<4x64xf32>
  tile.store %yp, %y : tensor<4x64x!tile.ptr<f32>>
  return
}
