// tile-expand-math rewrites the math ops the GPU lowering has no
// instruction for into exp, log, sqrt and arithmetic; the others stay.
// f16 and bf16 are expanded in f32; asinh avoids the cancellation of
// x + sqrt(x * x + 1) for negative x.
//
// RUN: tile-opt %s -split-input-file -tile-expand-math | FileCheck %s

// CHECK-LABEL: func.func @tanh
// CHECK-NOT: math.tanh
// CHECK: math.exp
// CHECK: arith.divf
func.func @tanh(%x: tensor<128xf32>) -> tensor<128xf32> {
  %y = math.tanh %x : tensor<128xf32>
  return %y : tensor<128xf32>
}

// -----

// CHECK-LABEL: func.func @rsqrt
// CHECK-SAME:    (%[[X:.*]]: f16)
// CHECK-NOT: math.rsqrt
// CHECK: %[[W:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK: %[[S:.*]] = math.sqrt %[[W]] : f32
// CHECK: %[[R:.*]] = arith.divf %{{.*}}, %[[S]] : f32
// CHECK: arith.truncf %[[R]] : f32 to f16
func.func @rsqrt(%x: f16) -> f16 {
  %y = math.rsqrt %x : f16
  return %y : f16
}

// -----

// CHECK-LABEL: func.func @hyperbolic
// CHECK-NOT: math.sinh
// CHECK-NOT: math.cosh
// CHECK-NOT: math.atanh
// CHECK: math.exp
// CHECK: math.log
func.func @hyperbolic(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %a = math.sinh %x : tensor<64xf32>
  %b = math.cosh %x : tensor<64xf32>
  %c = math.atanh %x : tensor<64xf32>
  return %a, %b, %c : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}

// -----

// CHECK-LABEL: func.func @asinh
// CHECK-SAME:    (%[[X:.*]]: tensor<64xf32>)
// CHECK-DAG: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<64xf32>
// CHECK-DAG: %[[A:.*]] = math.absf %[[X]]
// CHECK: %[[Q:.*]] = math.fma %[[X]], %[[X]], %[[ONE]]
// CHECK: %[[R:.*]] = math.sqrt %[[Q]]
// CHECK: %[[S:.*]] = arith.addf %[[A]], %[[R]]
// CHECK: %[[L:.*]] = math.log %[[S]]
// CHECK: math.copysign %[[L]], %[[X]]
func.func @asinh(%x: tensor<64xf32>) -> tensor<64xf32> {
  %y = math.asinh %x : tensor<64xf32>
  return %y : tensor<64xf32>
}

// -----

// Ops with an instruction, and ops without an exact expansion, stay.
// CHECK-LABEL: func.func @kept
// CHECK: math.exp
// CHECK: math.sqrt
// CHECK: math.erf
func.func @kept(%x: f32) -> (f32, f32, f32) {
  %a = math.exp %x : f32
  %b = math.sqrt %x : f32
  %c = math.erf %x : f32
  return %a, %b, %c : f32, f32, f32
}
