// A kernel checked against references of the user's: --reference (a second
// kernel, here the same GELU in f64, interpreted on the same inputs; every
// buffer it writes is compared) and --expect (a file of expected elements,
// here what --dump wrote).
//
// REQUIRES: tile-run
//
// DEFINE: %{run} = %python %S/Inputs/run.py tile-run --mode=interp %s --quiet
// DEFINE: %{args} = --arg y=f16[50] '--arg=x=f16[50]:rand(-3,3)' --arg i32:50

// The f16 kernel against the float64 reference: within f16's tolerance.
// RUN: %{run} %{args} --reference %S/Inputs/gelu-reference.mlir \
// RUN:     --reference-kernel gelu_f64 \
// RUN:   | FileCheck %s --check-prefix=REF --match-full-lines
// REF:      $ tile-run
// REF-NEXT: reference y: max rel error {{.*}} (max abs {{.*}} at element {{[0-9]+}}), tolerance 1.0e-02: PASS
// REF-NEXT: [exit 0]

// A tighter tolerance than f16 can hold fails, with exit status 1.
// RUN: %{run} %{args} --reference %S/Inputs/gelu-reference.mlir \
// RUN:     --reference-kernel gelu_f64 --rtol 1e-7 \
// RUN:   | FileCheck %s --check-prefix=TIGHT --match-full-lines
// TIGHT:      $ tile-run
// TIGHT-NEXT: reference y: max rel error {{.*}}, tolerance 1.0e-07: FAIL
// TIGHT-NEXT: [exit 1]

// --dump then --expect: the same seed gives the same elements.
// RUN: %{run} %{args} --dump y=%t.y
// RUN: %{run} %{args} --expect y=%t.y \
// RUN:   | FileCheck %s --check-prefix=EXPECT --match-full-lines
// EXPECT:      $ tile-run
// EXPECT-NEXT: expect y: max rel error 0.00e+00 (max abs 0.00e+00), tolerance 1.0e-02: PASS
// EXPECT-NEXT: [exit 0]

// Another seed's inputs do not match the file.
// RUN: %{run} %{args} --seed 7 --expect y=%t.y \
// RUN:   | FileCheck %s --check-prefix=OTHER --match-full-lines
// OTHER:      $ tile-run
// OTHER-NEXT: expect y: {{.*}}: FAIL
// OTHER-NEXT: [exit 1]

// Bad references are reported before the run, with exit status 2.
// RUN: %{run} %{args} --expect x=%t.y --expect y=%t.missing \
// RUN:   | FileCheck %s --check-prefix=MISSING --match-full-lines
// MISSING:      $ tile-run
// MISSING-NEXT: tile-run: error: --expect: {{.*}}.missing: No such file or directory
// MISSING-NEXT: [exit 2]
// RUN: %{run} --arg y=f16[60] --arg x=f16[60] --arg i32:50 --expect y=%t.y \
// RUN:   | FileCheck %s --check-prefix=SIZE --match-full-lines
// SIZE:      $ tile-run
// SIZE-NEXT: tile-run: error: --expect: {{.*}}.y has 100 bytes, but buffer 'y' (60 x f16) has 120
// SIZE-NEXT: [exit 2]
// RUN: %{run} %{args} --expect nope=%t.y \
// RUN:   | FileCheck %s --check-prefix=NAME --match-full-lines
// NAME:      $ tile-run
// NAME-NEXT: tile-run: error: --expect 'nope={{.*}}': expected NAME=PATH with a known buffer
// NAME-NEXT: [exit 2]
// RUN: %{run} %{args} --reference %S/Inputs/gelu-reference.mlir \
// RUN:     --reference-kernel too_few \
// RUN:   | FileCheck %s --check-prefix=ARITY --match-full-lines
// ARITY:      $ tile-run
// ARITY-NEXT: tile-run: error: --reference: kernel 'too_few' of {{.*}}gelu-reference.mlir takes 2 arguments; the kernel run takes 3
// ARITY-NEXT: [exit 2]
// RUN: %{run} %{args} --reference %S/Inputs/gelu-reference.mlir \
// RUN:   | FileCheck %s --check-prefix=WHICH --match-full-lines
// WHICH:      $ tile-run
// WHICH-NEXT: tile-run: error: --reference: {{.*}}gelu-reference.mlir has several kernels (gelu_f64, too_few); choose one with --reference-kernel
// WHICH-NEXT: [exit 2]

// y = x * (1 + erf(x / sqrt(2))) / 2 for the first n of 64 elements.
func.func @gelu(%y: !tile.ptr<f16>, %x: !tile.ptr<f16>, %n: i32)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %offs = tile.range 0, 64 : tensor<64xi32>
  %ns = tile.splat %n : tensor<64xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<64xi32>
  %xb = tile.splat %x : tensor<64x!tile.ptr<f16>>
  %xp = tile.addptr %xb, %offs : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
  %v = tile.load %xp, %mask : tensor<64x!tile.ptr<f16>>
  %c = arith.constant 0.70710678 : f16
  %cs = tile.splat %c : tensor<64xf16>
  %s = arith.mulf %v, %cs : tensor<64xf16>
  %e = math.erf %s : tensor<64xf16>
  %one = arith.constant 1.0 : f16
  %ones = tile.splat %one : tensor<64xf16>
  %e1 = arith.addf %e, %ones : tensor<64xf16>
  %half = arith.constant 0.5 : f16
  %halves = tile.splat %half : tensor<64xf16>
  %hx = arith.mulf %v, %halves : tensor<64xf16>
  %g = arith.mulf %hx, %e1 : tensor<64xf16>
  %yb = tile.splat %y : tensor<64x!tile.ptr<f16>>
  %yp = tile.addptr %yb, %offs : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
  tile.store %yp, %g, %mask : tensor<64x!tile.ptr<f16>>
  return
}
