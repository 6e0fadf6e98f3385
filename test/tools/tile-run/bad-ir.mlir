// Bad input files: parse errors, verifier errors, kernels that
// tile-kernel-check rejects, no kernel or an ambiguous one. Each gives an
// MLIR diagnostic with file:line:col (and the source line, without the op
// dump) and exit status 2, before anything runs. split-file keeps the line
// numbers of this file, so [[@LINE]] works in the parts.
//
// REQUIRES: tile-run
//
// RUN: rm -rf %t && split-file --leading-lines %s %t
// RUN: %python -c "open(r'%t/binary.mlir', 'wb').write(b'\x00\x01garbage\n')"
// DEFINE: %{run} = %python %S/Inputs/run.py tile-run --mode=interp
//
// RUN: %{run} %t/malformed.mlir --arg p=f32[4] \
// RUN:   | FileCheck %t/malformed.mlir --match-full-lines -DFILE=%t/malformed.mlir
// RUN: %{run} %t/binary.mlir \
// RUN:   | FileCheck %s --check-prefix=BINARY --match-full-lines -DFILE=%t/binary.mlir
// RUN: %{run} %t/unknown-op.mlir --arg p=f32[4] \
// RUN:   | FileCheck %t/unknown-op.mlir --match-full-lines -DFILE=%t/unknown-op.mlir
// RUN: %{run} %t/verifier.mlir --arg p=f32[4] \
// RUN:   | FileCheck %t/verifier.mlir --match-full-lines -DFILE=%t/verifier.mlir
// RUN: %{run} %t/kernel-verifier.mlir --arg p=f32[4] \
// RUN:   | FileCheck %t/kernel-verifier.mlir --match-full-lines -DFILE=%t/kernel-verifier.mlir
// RUN: %{run} %t/too-big.mlir --arg p=f32[8192] \
// RUN:   | FileCheck %t/too-big.mlir --match-full-lines -DFILE=%t/too-big.mlir
// RUN: %{run} %t/no-kernel.mlir \
// RUN:   | FileCheck %t/no-kernel.mlir --match-full-lines -DFILE=%t/no-kernel.mlir
// RUN: %{run} %t/empty.mlir \
// RUN:   | FileCheck %s --check-prefix=EMPTY --match-full-lines -DFILE=%t/empty.mlir
// RUN: %{run} %t/two-kernels.mlir --arg p=f32[4] \
// RUN:   | FileCheck %t/two-kernels.mlir --check-prefix=AMBIGUOUS --match-full-lines -DFILE=%t/two-kernels.mlir
// RUN: %{run} %t/two-kernels.mlir --kernel nope --arg p=f32[4] \
// RUN:   | FileCheck %t/two-kernels.mlir --check-prefix=UNKNOWN --match-full-lines -DFILE=%t/two-kernels.mlir
// RUN: %{run} %t/two-kernels.mlir --kernel helper --arg p=f32[4] \
// RUN:   | FileCheck %t/two-kernels.mlir --check-prefix=NOT-A-KERNEL --match-full-lines -DFILE=%t/two-kernels.mlir
// RUN: %{run} %t/two-kernels.mlir --kernel second --arg 'p=f32[4]:zeros' --quiet --print p \
// RUN:   | FileCheck %t/two-kernels.mlir --check-prefix=SECOND --match-full-lines
// RUN: %{run} %t \
// RUN:   | FileCheck %s --check-prefix=DIRECTORY --match-full-lines -DDIR=%t
//
// A file that is not text (written by the second RUN line).
// BINARY:      $ tile-run
// BINARY-NEXT: [[FILE]]:1:2: error: unexpected character
// BINARY-NEXT: {{.*}}garbage
// BINARY-NEXT: {{ *}}^
// BINARY-NEXT: [exit 2]
//
// An empty file is an empty module: no kernel. (The implicit module has no
// source line.)
// EMPTY:      $ tile-run
// EMPTY-NEXT: [[FILE]]:0:0: error: no function marked 'tile.kernel' in this module
// EMPTY-NEXT: [exit 2]
//
// DIRECTORY:      $ tile-run
// DIRECTORY-NEXT: tile-run: error: cannot open input file '[[DIR]]': Is a directory
// DIRECTORY-NEXT: [exit 2]

//--- empty.mlir
//--- malformed.mlir
// CHECK:      $ tile-run
// CHECK-NEXT: [[FILE]]:[[@LINE+5]]:20: error: expected ','
// CHECK-NEXT:   %r = tile.range 0 16 : tensor<16xi32>
// CHECK-NEXT:                     ^
// CHECK-NEXT: [exit 2]
func.func @k(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = tile.range 0 16 : tensor<16xi32>
  return
}

//--- unknown-op.mlir
// CHECK:      $ tile-run
// CHECK-NEXT: [[FILE]]:[[@LINE+5]]:8: error: custom op 'tile.exp' is unknown{{.*}}
// CHECK-NEXT:   %y = tile.exp %x : f32
// CHECK-NEXT:        ^
// CHECK-NEXT: [exit 2]
func.func @k(%p: !tile.ptr<f32>, %x: f32) attributes {tile.kernel} {
  %y = tile.exp %x : f32
  return
}

//--- verifier.mlir
// A verifier error (from the kernel attribute's verifier, which runs first
// and says "result"): one error, no "see current operation" note.
// CHECK:      $ tile-run
// CHECK-NEXT: [[FILE]]:[[@LINE+6]]:8: error: 'tile.splat' op result must be a tile with static power-of-two dimensions, got 'tensor<100xf32>'
// CHECK-NEXT:   %t = tile.splat %x : tensor<100xf32>
// CHECK-NEXT:        ^
// CHECK-NEXT: [exit 2]
func.func @k(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  %x = arith.constant 1.0 : f32
  %t = tile.splat %x : tensor<100xf32>
  return
}

//--- kernel-verifier.mlir
// The verifier of the kernel attributes.
// CHECK:      $ tile-run
// CHECK-NEXT: [[FILE]]:[[@LINE+4]]:1: error: 'tile.num_warps' must be a power of two from 1 to 32, got 6
// CHECK-NEXT: func.func @k(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 6 : i32} {
// CHECK-NEXT: ^
// CHECK-NEXT: [exit 2]
func.func @k(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 6 : i32} {
  return
}

//--- too-big.mlir
// tile-kernel-check with its default limits rejects the kernel (one warp
// holding an 8192-element f32 tile twice at the store), so it is not run.
// CHECK:      $ tile-run
// CHECK-NEXT: [[FILE]]:[[@LINE+7]]:1: error: out of resources: kernel 'big' needs about {{[0-9]+}} registers per thread with 1 warps; the limit is 255 (use smaller tiles or more warps)
// CHECK-NEXT: func.func @big(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
// CHECK-NEXT: ^
// CHECK-NEXT: [[FILE]]:[[@LINE+10]]:3: note: peak register use is here
// CHECK-NEXT:   tile.store %ptrs, %y : tensor<8192x!tile.ptr<f32>>
// CHECK-NEXT: {{ *}}^
// CHECK-NEXT: [exit 2]
func.func @big(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.range 0, 8192 : tensor<8192xi32>
  %b = tile.splat %p : tensor<8192x!tile.ptr<f32>>
  %ptrs = tile.addptr %b, %r : tensor<8192x!tile.ptr<f32>>, tensor<8192xi32>
  %x = tile.load %ptrs : tensor<8192x!tile.ptr<f32>>
  %y = arith.addf %x, %x : tensor<8192xf32>
  tile.store %ptrs, %y : tensor<8192x!tile.ptr<f32>>
  tile.store %ptrs, %x : tensor<8192x!tile.ptr<f32>>
  return
}

//--- no-kernel.mlir
// Functions, but none marked tile.kernel.
// CHECK:      $ tile-run
// CHECK-NEXT: [[FILE]]:[[@LINE+4]]:1: error: no function marked 'tile.kernel' in this module
// CHECK-NEXT: module {
// CHECK-NEXT: ^
// CHECK-NEXT: [exit 2]
module {
  func.func @f(%p: !tile.ptr<f32>) {
    return
  }
}

//--- two-kernels.mlir
// AMBIGUOUS:      $ tile-run
// AMBIGUOUS-NEXT: [[FILE]]:[[@LINE+15]]:1: error: several kernels; choose one with --kernel: first second
// AMBIGUOUS-NEXT: module {
// AMBIGUOUS-NEXT: ^
// AMBIGUOUS-NEXT: [exit 2]
// UNKNOWN:      $ tile-run
// UNKNOWN-NEXT: [[FILE]]:[[@LINE+10]]:1: error: no tile kernel named 'nope'; kernels here: first second
// UNKNOWN-NEXT: module {
// UNKNOWN-NEXT: ^
// UNKNOWN-NEXT: [exit 2]
// NOT-A-KERNEL:      $ tile-run
// NOT-A-KERNEL-NEXT: [[FILE]]:[[@LINE+5]]:1: error: no tile kernel named 'helper'; kernels here: first second
// NOT-A-KERNEL:      [exit 2]
// SECOND:      $ tile-run
// SECOND-NEXT: p = [2, 2, 2, 2]
// SECOND-NEXT: [exit 0]
module {
  func.func @helper(%x: f32) -> f32 {
    return %x : f32
  }
  func.func @first(%p: !tile.ptr<f32>) attributes {tile.kernel} {
    %one = arith.constant 1.0 : f32
    tile.store %p, %one : !tile.ptr<f32>
    return
  }
  func.func @second(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
    %two = arith.constant dense<2.0> : tensor<4xf32>
    %r = tile.range 0, 4 : tensor<4xi32>
    %b = tile.splat %p : tensor<4x!tile.ptr<f32>>
    %ptrs = tile.addptr %b, %r : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
    tile.store %ptrs, %two : tensor<4x!tile.ptr<f32>>
    return
  }
}
