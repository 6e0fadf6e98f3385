// activations.mlir (math.tanh, sinh, cosh, rsqrt) compiles to PTX: the
// GPU lowering expands them (tile-expand-math) into ex2.approx, sqrt and
// arithmetic; no calls and no local memory.
//
// RUN: tile-compile %S/../../examples/activations.mlir -o - \
// RUN:   | FileCheck %s --implicit-check-not=.local --implicit-check-not=call

// CHECK: .visible .entry activations(
// CHECK: ex2.approx
// CHECK: sqrt
// CHECK: ret;
