// -tile-test-axis-info reports at each op's location without printing the
// op: with the op attached, each of 20,000 remarks printed it with a fresh
// AsmState, which took minutes.
//
// RUN: %python %S/../Dialect/Tile/Transforms/Inputs/gen_large_kernel.py ichain 20000 > %t.mlir
// RUN: timeout 60 tile-opt %t.mlir -tile-test-axis-info -o /dev/null 2>&1 \
// RUN:   | FileCheck %s
// CHECK: axis-info-scaling.mlir.tmp.mlir:20002:13: remark: contiguity = [1], divisibility = [1], constancy = [1]
// CHECK: axis-info-scaling.mlir.tmp.mlir:20003:3: remark: vector width = [1]
