// Elementwise arith/math ops on laid-out tiles become the same op on each of
// the thread's slots; splat constants become one scalar constant; exp/exp2
// and log/log2 use the hardware ex2.approx/lg2.approx (also on scalars).
//
// RUN: tile-opt %s -split-input-file -tile-convert-to-llvm | FileCheck %s

// 128 elements, sizePerThread = 4, 32 lanes, 1 warp: 4 slots per thread.
#b = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: func.func @addf_splat(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: f32)
// CHECK-NOT:     tensor<
// CHECK:         %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-COUNT-4: arith.addf %[[A]], %[[TWO]] : f32
// CHECK-NOT:     arith.addf
// CHECK:         return
func.func @addf_splat(%a: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %x = tile.splat %a : tensor<128xf32, #b>
  %c = arith.constant dense<2.0> : tensor<128xf32, #b>
  %y = arith.addf %x, %c : tensor<128xf32, #b>
  return
}

// -----

// Every slot of a chain of ops is computed from the same slot of its
// operands: four independent addf -> mulf chains.
#b = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: func.func @chain(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: f32, %[[B:[a-z0-9]+]]: f32)
// CHECK:         %[[S:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:    %[[S1:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:    %[[S2:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:    %[[S3:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:    arith.mulf %[[S]], %[[S]] : f32
// CHECK-NEXT:    arith.mulf %[[S1]], %[[S1]] : f32
// CHECK-NEXT:    arith.mulf %[[S2]], %[[S2]] : f32
// CHECK-NEXT:    arith.mulf %[[S3]], %[[S3]] : f32
// CHECK-NOT:     arith.mulf
func.func @chain(%a: f32, %b: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %x = tile.splat %a : tensor<128xf32, #b>
  %y = tile.splat %b : tensor<128xf32, #b>
  %s = arith.addf %x, %y : tensor<128xf32, #b>
  %p = arith.mulf %s, %s : tensor<128xf32, #b>
  return
}

// -----

// A 2-d tile: sizePerThread = [2, 4] and a 64x64 tile over 8x4 lanes and
// 2x2 warps repeats the CTA footprint (32x32) twice along each dimension:
// 2*2 * 4*2 = 32 slots.
#b = #tile.blocked<{sizePerThread = [2, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>

// CHECK-LABEL: func.func @slots_2d(
// CHECK-COUNT-32: arith.subi
// CHECK-NOT:      arith.subi
func.func @slots_2d(%a: i32, %b: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %x = tile.splat %a : tensor<64x64xi32, #b>
  %y = tile.splat %b : tensor<64x64xi32, #b>
  %z = arith.subi %x, %y : tensor<64x64xi32, #b>
  return
}

// -----

// A tile smaller than the layout's footprint (16 elements over 32 lanes):
// each thread holds one slot (lanes 16..31 hold copies).
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: func.func @one_slot(
// CHECK-COUNT-1: arith.addi
// CHECK-NOT:     arith.addi
func.func @one_slot(%a: i32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %x = tile.splat %a : tensor<16xi32, #b>
  %y = arith.addi %x, %x : tensor<16xi32, #b>
  return
}

// -----

// Comparisons and selects keep their predicate and take the i1 slots.
#b = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: func.func @cmp_select(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: f32, %[[B:[a-z0-9]+]]: f32)
// CHECK:         %[[C0:.*]] = arith.cmpf olt, %[[A]], %[[B]] : f32
// CHECK-NEXT:    %[[C1:.*]] = arith.cmpf olt, %[[A]], %[[B]] : f32
// CHECK-NEXT:    arith.select %[[C0]], %[[A]], %[[B]] : f32
// CHECK-NEXT:    arith.select %[[C1]], %[[A]], %[[B]] : f32
// CHECK-NOT:     arith.select
func.func @cmp_select(%a: f32, %b: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %x = tile.splat %a : tensor<64xf32, #b>
  %y = tile.splat %b : tensor<64xf32, #b>
  %c = arith.cmpf olt, %x, %y : tensor<64xf32, #b>
  %s = arith.select %c, %x, %y : tensor<64xi1, #b>, tensor<64xf32, #b>
  return
}

// -----

// Splat constants of other element types; an i1 splat too.
#b = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: func.func @splat_constants(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: i32, %[[M:[a-z0-9]+]]: i1)
// CHECK:         %[[SEVEN:.*]] = arith.constant 7 : i32
// CHECK-COUNT-2: arith.muli %[[A]], %[[SEVEN]] : i32
// CHECK:         %[[TRUE:.*]] = arith.constant true
// CHECK-COUNT-2: arith.xori %[[M]], %[[TRUE]] : i1
// CHECK-NOT:     arith.xori
func.func @splat_constants(%a: i32, %m: i1) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %x = tile.splat %a : tensor<64xi32, #b>
  %c = arith.constant dense<7> : tensor<64xi32, #b>
  %y = arith.muli %x, %c : tensor<64xi32, #b>
  %mt = tile.splat %m : tensor<64xi1, #b>
  %t = arith.constant dense<true> : tensor<64xi1, #b>
  %n = arith.xori %mt, %t : tensor<64xi1, #b>
  return
}

// -----

// exp(x) = ex2.approx(x * log2(e)) on every slot.
#b = #tile.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: func.func @exp_tile(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: f32)
// CHECK-NOT:     math.exp
// CHECK:         %[[LOG2E0:.*]] = arith.constant 1.44269502 : f32
// CHECK-NEXT:    %[[X0:.*]] = arith.mulf %[[A]], %[[LOG2E0]] : f32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[X0]]) : (f32) -> f32
// CHECK:         %[[LOG2E1:.*]] = arith.constant 1.44269502 : f32
// CHECK-NEXT:    %[[X1:.*]] = arith.mulf %[[A]], %[[LOG2E1]] : f32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[X1]]) : (f32) -> f32
// CHECK:         %[[LOG2E2:.*]] = arith.constant 1.44269502 : f32
// CHECK-NEXT:    %[[X2:.*]] = arith.mulf %[[A]], %[[LOG2E2]] : f32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[X2]]) : (f32) -> f32
// CHECK:         %[[LOG2E3:.*]] = arith.constant 1.44269502 : f32
// CHECK-NEXT:    %[[X3:.*]] = arith.mulf %[[A]], %[[LOG2E3]] : f32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[X3]]) : (f32) -> f32
// CHECK-NOT:     llvm.call_intrinsic
// CHECK-NOT:     math.exp
func.func @exp_tile(%a: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %x = tile.splat %a : tensor<128xf32, #b>
  %e = math.exp %x : tensor<128xf32, #b>
  return
}

// -----

// The fast exp/log lowerings apply to scalars as well.
// CHECK-LABEL: func.func @exp_log_scalar(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: f32)
// CHECK:         %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK-NEXT:    %[[X:.*]] = arith.mulf %[[A]], %[[LOG2E]] : f32
// CHECK-NEXT:    %[[E:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[X]]) : (f32) -> f32
// exp2: no scaling.
// CHECK-NEXT:    %[[E2:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[E]]) : (f32) -> f32
// log(x) = lg2.approx(x) * ln(2).
// CHECK-NEXT:    %[[L:.*]] = llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"(%[[E2]]) : (f32) -> f32
// CHECK-NEXT:    %[[LN2:.*]] = arith.constant 0.693147182 : f32
// CHECK-NEXT:    %[[LOG:.*]] = arith.mulf %[[L]], %[[LN2]] : f32
// log2: no scaling.
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"(%[[LOG]]) : (f32) -> f32
// CHECK-NOT:     arith.mulf
// CHECK-NOT:     math.
// CHECK:         return
func.func @exp_log_scalar(%a: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %e = math.exp %a : f32
  %e2 = math.exp2 %e : f32
  %l = math.log %e2 : f32
  %l2 = math.log2 %l : f32
  return
}

// -----

// With the `afn` fast-math flag exp and exp2 may flush subnormal results:
// ex2.approx.ftz (one MUFU instruction). log is unaffected.
// CHECK-LABEL: func.func @exp_afn(
// CHECK:         arith.mulf
// CHECK-NEXT:    %[[E:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
// CHECK-NEXT:    %[[E2:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%[[E]])
// CHECK-NEXT:    llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"(%[[E2]])
func.func @exp_afn(%a: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %e = math.exp %a fastmath<afn> : f32
  %e2 = math.exp2 %e fastmath<afn> : f32
  %l = math.log2 %e2 fastmath<afn> : f32
  return
}

// -----

// f16 goes through f32 around the intrinsic.
#b = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: func.func @exp_f16(
// CHECK:         %[[H:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK:         %[[W:.*]] = arith.extf %[[H]] : f16 to f32
// CHECK-NEXT:    %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK-NEXT:    %[[X:.*]] = arith.mulf %[[W]], %[[LOG2E]] : f32
// CHECK-NEXT:    %[[E:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[X]]) : (f32) -> f32
// CHECK-NEXT:    arith.truncf %[[E]] : f32 to f16
// CHECK-NOT:     math.exp
func.func @exp_f16(%a: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %x = tile.splat %a : tensor<32xf32, #b>
  %h = arith.truncf %x : tensor<32xf32, #b> to tensor<32xf16, #b>
  %e = math.exp %h : tensor<32xf16, #b>
  return
}

// -----

// Other math ops are replicated per slot and left to the generic lowering.
#b = #tile.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: func.func @sqrt_fma(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: f32)
// CHECK-COUNT-2: math.sqrt %[[A]] : f32
// CHECK-COUNT-2: math.fma %{{.*}}, %{{.*}}, %[[A]] : f32
// CHECK-NOT:     tensor<
func.func @sqrt_fma(%a: f32) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %x = tile.splat %a : tensor<64xf32, #b>
  %s = math.sqrt %x : tensor<64xf32, #b>
  %f = math.fma %s, %s, %x : tensor<64xf32, #b>
  return
}
