// tile-run under hostile kernels and arguments: each case used to crash,
// hang or answer wrongly; now each is an error with a location where there
// is one (exit 2 for bad input, 1 for a fault while running), or the
// answer the GPU gives.
//
// REQUIRES: tile-run
//
// DEFINE: %{run} = %python %S/Inputs/run.py tile-run --mode=interp --quiet
// DEFINE: %{va} = %S/../../../examples/vector_add.mlir
// DEFINE: %{va-args} = --arg x=f32[10] --arg y=f32[10] --arg out=f32[10] --arg n=i32:10

// A complex constant, even unused, crashed tile-run: the verifier rejects it.
// RUN: %{run} %S/Inputs/complex-constant.mlir --arg p=f32[1] \
// RUN:   | FileCheck %s --check-prefix=COMPLEX
// COMPLEX:      $ tile-run
// COMPLEX-NEXT: {{.*}}complex-constant.mlir:2:8: error: 'arith.constant' op result has type 'tensor<2xcomplex<f32>>', which tile kernel 'unused_complex' cannot compute with; {{.*}}
// COMPLEX:      [exit 2]

// A kernel in a module nested in the file's implicit module was found by
// the kernel lookup but not by the symbol lookup after the checks (a crash).
// RUN: %{run} %S/Inputs/nested-module.mlir --arg p=f32[1] | FileCheck %s --check-prefix=NESTED
// NESTED:      error: no function marked 'tile.kernel' in this module
// NESTED:      [exit 2]

// An i32 induction variable that would overflow never ended.
// RUN: %{run} %s --kernel i32_loop --arg p=i32[1] --arg n=i32:2147483647 \
// RUN:   | FileCheck %s --check-prefix=LOOP
// LOOP:      $ tile-run
// LOOP-NEXT: {{.*}}hostile-input.mlir:{{[0-9]+}}:8: error: in program (0, 0, 0): the induction variable overflows 'i32' after 2147483600 + 100 (upper bound 2147483647); the loop would not end
// LOOP:      [exit 1]

// Loop bounds that make a kernel run for hours stop at the step budget
// (--max-steps; by default 2^36, about four minutes).
// RUN: %{run} %s --kernel long_loop --arg p=f32[128] --arg n=i32:2147483647 --max-steps=100000 \
// RUN:   | FileCheck %s --check-prefix=STEPS
// STEPS:      hostile-input.mlir:{{[0-9]+}}:10: error: in program (0, 0, 0): the run took more than 100000 steps (elements computed, at least 64 per op); the interpreter stops there (tile-run --max-steps)
// STEPS:      [exit 1]

// An i64 offset of 2^62 + 1 f32 elements wrapped to byte offset 4.
// RUN: %{run} %s --kernel offset --arg p=f32[4]:zeros --arg o=i64:4611686018427387905 \
// RUN:   | FileCheck %s --check-prefix=OFFSET
// OFFSET:      $ tile-run
// OFFSET-NEXT: {{.*}}hostile-input.mlir:{{[0-9]+}}:8: error: in program (0, 0, 0): out-of-bounds load of buffer 'p': the pointer's byte offset overflowed 64 bits in pointer arithmetic
// OFFSET:      [exit 1]
// So did -2^63 elements (byte offset 0 after wrapping).
// RUN: %{run} %s --kernel offset --arg p=f32[4]:zeros --arg o=i64:-9223372036854775808 \
// RUN:   | FileCheck %s --check-prefix=OFFSET-MIN
// OFFSET-MIN:      error: in program (0, 0, 0): out-of-bounds load of buffer 'p': the pointer's byte offset overflowed 64 bits in pointer arithmetic
// OFFSET-MIN:      [exit 1]
// A masked-off lane may hold such a pointer.
// RUN: %{run} %s --kernel masked_offset --arg p=f32[4]:ones --arg o=i64:4611686018427387905 --print p \
// RUN:   | FileCheck %s --check-prefix=MASKED
// MASKED:      $ tile-run
// MASKED-NEXT: p = [1, 1, 1, 1]
// MASKED-NEXT: [exit 0]

// A kernel the compiler rejects (its helper's tile is too large, found only
// after inlining) was interpreted.
// RUN: %{run} %s --kernel calls_big_helper --arg p=f32[4] \
// RUN:   | FileCheck %s --check-prefix=HELPER
// HELPER:      $ tile-run
// HELPER-NEXT: {{.*}}hostile-input.mlir:{{[0-9]+}}:8: error: tile 'tensor<2097152xi32>' in kernel 'calls_big_helper' has 2097152 elements; the limit is 1048576
// HELPER:      [exit 2]

// Tiles of 2^31 elements ended in "LLVM ERROR: out of memory": the kernel
// check rejects them (and one the compiler drops as dead is not run).
// RUN: %{run} %s --kernel huge_used --arg p=f32[1] | FileCheck %s --check-prefix=HUGE
// HUGE:      error: tile 'tensor<2147483648xf32>' in kernel 'huge_used' has 2147483648 elements; the limit is 1048576
// HUGE:      [exit 2]
// RUN: %{run} %s --kernel huge_unused --arg p=f32[1]:ones --print p | FileCheck %s --check-prefix=HUGE-DEAD
// HUGE-DEAD:      p = [1]
// HUGE-DEAD-NEXT: [exit 0]

// f64 to f16 rounds once, as cvt.rn.f16.f64 does (through f32 it gave 1).
// RUN: %{run} %s --kernel truncate --arg p=f16[1] --print p \
// RUN:   | FileCheck %s --check-prefix=TRUNC
// TRUNC:      $ tile-run
// TRUNC-NEXT: p = [1.000977]
// TRUNC-NEXT: [exit 0]

// Tolerances and initializer parameters must make sense.
// RUN: %{run} %{va} %{va-args} --rtol=-1 | FileCheck %s --check-prefix=RTOL
// RTOL:      tile-run: error: bad --rtol -1 (expected a finite tolerance >= 0)
// RTOL-NEXT: [exit 2]
// RUN: %{run} %{va} %{va-args} --rtol=nan | FileCheck %s --check-prefix=RTOL-NAN
// RTOL-NAN:  tile-run: error: bad --rtol nan (expected a finite tolerance >= 0)
// RUN: %{run} %{va} --arg 'x=f32[10]:rand(1,0)' --arg y=f32[10] --arg out=f32[10] --arg n=i32:10 \
// RUN:   | FileCheck %s --check-prefix=RAND
// RAND:      tile-run: error: --arg 'x=f32[10]:rand(1,0)': rand(LO,HI) needs finite LO <= HI, got '1,0'
// RAND-NEXT: [exit 2]
// RUN: %{run} %{va} --arg 'x=f32[10]:randn(nan)' --arg y=f32[10] --arg out=f32[10] --arg n=i32:10 \
// RUN:   | FileCheck %s --check-prefix=RANDN
// RANDN:     tile-run: error: --arg 'x=f32[10]:randn(nan)': randn(SCALE) needs a finite SCALE >= 0, got 'nan'
// RUN: %{run} %{va} --arg 'x=f32[10]:fill(nan)' --arg y=f32[10] --arg out=f32[10] --arg n=i32:10 --print out \
// RUN:   | FileCheck %s --check-prefix=FILL-NAN
// FILL-NAN:  out = [nan, nan, nan, nan, nan, nan, nan, nan, nan, nan]

// Devices are not files: /dev/zero was read until memory ran out.
// RUN: %{run} /dev/zero | FileCheck %s --check-prefix=ZERO-SOURCE
// ZERO-SOURCE: tile-run: error: /dev/zero: the input is larger than 64 MiB
// RUN: %{run} %{va} --arg 'x=f32[10]:file(/dev/zero)' --arg y=f32[10] --arg out=f32[10] --arg n=i32:10 \
// RUN:   | FileCheck %s --check-prefix=ZERO-FILE
// ZERO-FILE: tile-run: error: buffer 'x': cannot read '/dev/zero': not a regular file

// Buffers under the 64 GiB cap that the host cannot hold ended in "LLVM
// ERROR: out of memory".
// RUN: %{run} %{va} --arg x=f32[15x1024x1024x1024] --arg y=f32[10] --arg out=f32[10] --arg n=i32:10 \
// RUN:   | FileCheck %s --check-prefix=MEMORY --implicit-check-not="LLVM ERROR"
// MEMORY:      tile-run: error: the buffers are too large for this machine: about {{[0-9.]+}} GiB of host memory are needed, {{[0-9.]+}} GiB are available
// MEMORY-NEXT: [exit 2]

// The GPU's grid limits.
// RUN: %{run} %{va} %{va-args} --grid 1,65536 | FileCheck %s --check-prefix=GRID-Y
// GRID-Y: tile-run: error: bad --grid '1,65536' (expected 1 to 3 positive integers x[,y[,z]], x below 2^31, y and z at most 65535)

// A full disk under --dump.
// RUN: %{run} %{va} %{va-args} --dump out=/dev/full | FileCheck %s --check-prefix=DUMP-FULL
// DUMP-FULL:      tile-run: error: cannot write '/dev/full': No space left on device
// DUMP-FULL-NEXT: [exit 2]

func.func @i32_loop(%p: !tile.ptr<i32>, %n: i32) attributes {tile.kernel} {
  %lb = arith.constant 2147483600 : i32
  %s = arith.constant 100 : i32
  %z = arith.constant 0 : i32
  %r = scf.for %i = %lb to %n step %s iter_args(%a = %z) -> (i32) : i32 {
    %b = arith.addi %a, %i : i32
    scf.yield %b : i32
  }
  tile.store %p, %r : !tile.ptr<i32>
  return
}

func.func @offset(%p: !tile.ptr<f32>, %o: i64) attributes {tile.kernel} {
  %q = tile.addptr %p, %o : !tile.ptr<f32>, i64
  %v = tile.load %q : !tile.ptr<f32>
  tile.store %p, %v : !tile.ptr<f32>
  return
}

func.func @masked_offset(%p: !tile.ptr<f32>, %o: i64) attributes {tile.kernel} {
  %r = tile.range 0, 4 : tensor<4xi32>
  %ri = arith.extsi %r : tensor<4xi32> to tensor<4xi64>
  %os = tile.splat %o : tensor<4xi64>
  %zero = arith.constant dense<0> : tensor<4xi64>
  %big = arith.cmpi eq, %ri, %zero : tensor<4xi64>
  %off = arith.select %big, %os, %ri : tensor<4xi1>, tensor<4xi64>
  %ps = tile.splat %p : tensor<4x!tile.ptr<f32>>
  %pp = tile.addptr %ps, %off : tensor<4x!tile.ptr<f32>>, tensor<4xi64>
  %m = arith.cmpi ne, %ri, %zero : tensor<4xi64>
  %v = tile.load %pp, %m : tensor<4x!tile.ptr<f32>>
  return
}

func.func private @big_helper(%p: !tile.ptr<f32>) {
  %r = tile.range 0, 2097152 : tensor<2097152xi32>
  %c = arith.sitofp %r : tensor<2097152xi32> to tensor<2097152xf32>
  %s = tile.reduce sum %c axis = 0 : tensor<2097152xf32> -> f32
  tile.store %p, %s : !tile.ptr<f32>
  return
}

func.func @calls_big_helper(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  func.call @big_helper(%p) : (!tile.ptr<f32>) -> ()
  return
}

func.func @truncate(%p: !tile.ptr<f16>) attributes {tile.kernel} {
  // 1 + 2^-11 + 2^-40: just above halfway between 1 and 1 + 2^-10.
  %x = arith.constant 1.0004882812509095 : f64
  %h = arith.truncf %x : f64 to f16
  tile.store %p, %h : !tile.ptr<f16>
  return
}

func.func @huge_used(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  %c = arith.constant dense<1.0> : tensor<2147483648xf32>
  %s = tile.reduce sum %c axis = 0 : tensor<2147483648xf32> -> f32
  tile.store %p, %s : !tile.ptr<f32>
  return
}

func.func @huge_unused(%p: !tile.ptr<f32>) attributes {tile.kernel} {
  %c = arith.constant dense<1.0> : tensor<2147483648xf32>
  return
}

func.func @long_loop(%p: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tile.range 0, 128 : tensor<128xi32>
  %ps = tile.splat %p : tensor<128x!tile.ptr<f32>>
  %pp = tile.addptr %ps, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %x = tile.load %pp : tensor<128x!tile.ptr<f32>>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (tensor<128xf32>) : i32 {
    %b = arith.addf %a, %x : tensor<128xf32>
    scf.yield %b : tensor<128xf32>
  }
  tile.store %pp, %s : tensor<128x!tile.ptr<f32>>
  return
}
