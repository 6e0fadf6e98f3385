// Exit status 1: a kernel that faults (the run stops at the first fault, with
// file:line:col of the op, the program id and the reason) and checks that
// fail (a FAIL line; the other checks still print).
//
// REQUIRES: tile-run
//
// DEFINE: %{run} = %python %S/Inputs/run.py tile-run --mode=interp
// DEFINE: %{examples} = %S/../../../examples

// vector_add with n = 20 over buffers of 10: the first load past the end of
// x faults. The progress line before the run is printed, the "done" line is
// not.
// RUN: %{run} %{examples}/vector_add.mlir \
// RUN:     --arg x=f32[10] --arg y=f32[10] --arg out=f32[10] --arg n=i32:20 \
// RUN:   | FileCheck %s --check-prefix=OOB-LOAD --match-full-lines
// OOB-LOAD:      $ tile-run
// OOB-LOAD-NEXT: tile-run: kernel @vector_add, grid (1, 1, 1), in the interpreter
// OOB-LOAD-NEXT: {{.*}}vector_add.mlir:{{[0-9]+}}:{{[0-9]+}}: error: in program (0, 0, 0): out-of-bounds load of buffer 'x': element offset 10 is outside [0, 10)
// OOB-LOAD-NEXT: {{ *}}%x_vals = tile.load %x_ptrs, %mask : tensor<1024x!tile.ptr<f32>>
// OOB-LOAD-NEXT: {{ *}}^
// OOB-LOAD-NEXT: [exit 1]

// Only x is short, in the third program: the fault names that program.
// RUN: %{run} %{examples}/vector_add.mlir --grid 3 --quiet \
// RUN:     --arg x=f32[2048] --arg y=f32[3000] --arg out=f32[3000] --arg n=i32:3000 \
// RUN:   | FileCheck %s --check-prefix=OOB-PROGRAM --match-full-lines
// OOB-PROGRAM:      $ tile-run
// OOB-PROGRAM-NEXT: {{.*}}vector_add.mlir:{{[0-9]+}}:{{[0-9]+}}: error: in program (2, 0, 0): out-of-bounds load of buffer 'x': element offset 2048 is outside [0, 2048)
// OOB-PROGRAM:      [exit 1]

// Only out is short: the store faults.
// RUN: %{run} %{examples}/vector_add.mlir --quiet \
// RUN:     --arg x=f32[20] --arg y=f32[20] --arg out=f32[10] --arg n=i32:20 \
// RUN:   | FileCheck %s --check-prefix=OOB-STORE --match-full-lines
// OOB-STORE:      $ tile-run
// OOB-STORE-NEXT: {{.*}}vector_add.mlir:{{[0-9]+}}:{{[0-9]+}}: error: in program (0, 0, 0): out-of-bounds store of buffer 'out': element offset 10 is outside [0, 10)
// OOB-STORE-NEXT: {{ *}}tile.store %out_ptrs, %sum, %mask : tensor<1024x!tile.ptr<f32>>
// OOB-STORE:      [exit 1]

// The kernels of this file: the location is exact.
// RUN: %{run} %s --kernel divide --quiet --arg 'out=i32[1]' --arg a=i32:5 --arg b=i32:0 \
// RUN:   | FileCheck %s --check-prefix=DIV-ZERO --match-full-lines -DFILE=%s
// (The DIV-ZERO lines are next to the op, in @divide.)
// The same kernel with b != 0 runs.
// RUN: %{run} %s --kernel divide --quiet --arg 'out=i32[1]' --arg a=i32:-7 --arg b=i32:2 \
// RUN:     --print out \
// RUN:   | FileCheck %s --check-prefix=DIV --match-full-lines
// DIV:      $ tile-run
// DIV-NEXT: out = [-3]
// DIV-NEXT: [exit 0]

// Negative offsets fault too; the scalar store of program 1 writes before
// the buffer.
// RUN: %{run} %s --kernel store_at --quiet --grid 2 --arg 'out=f32[4]' --arg i32:-1 \
// RUN:   | FileCheck %s --check-prefix=NEGATIVE --match-full-lines -DFILE=%s
// (The NEGATIVE lines are next to the op, in @store_at.)

// A failing check: softmax.mlir holds 1024 columns per row; with 2000 the
// columns from 1024 on are never written and stay NaN (poison), 976 per row,
// and the columns written are normalized over the first 1024 only.
// RUN: %{run} %{examples}/softmax.mlir --grid 4 \
// RUN:     --arg y=f32[4x2000] --arg x=f32[4x2000]:randn \
// RUN:     --arg i32:2000 --arg i32:2000 --arg i32:4 --arg i32:2000 \
// RUN:     --check 'y=softmax(x)' \
// RUN:   | FileCheck %s --check-prefix=SOFTMAX-WIDE --match-full-lines
// SOFTMAX-WIDE:      $ tile-run
// SOFTMAX-WIDE-NEXT: tile-run: kernel @softmax, grid (4, 1, 1), in the interpreter
// SOFTMAX-WIDE-NEXT: tile-run: interpreter done in {{.*}} s
// SOFTMAX-WIDE-NEXT: check y = softmax(x): max rel error {{.*}} (max abs {{.*}}, 3904 non-finite mismatches, the first at element 1024), tolerance 1.0e-05: FAIL
// SOFTMAX-WIDE-NEXT: [exit 1]

// With an initializer the output is not poisoned: the unwritten zeros are
// finite, the check still fails on the error.
// RUN: %{run} %{examples}/softmax.mlir --grid 4 --quiet \
// RUN:     --arg y=f32[4x2000]:zeros --arg x=f32[4x2000]:randn \
// RUN:     --arg i32:2000 --arg i32:2000 --arg i32:4 --arg i32:2000 \
// RUN:     --check 'y=softmax(x)' \
// RUN:   | FileCheck %s --check-prefix=SOFTMAX-ZEROS --match-full-lines
// SOFTMAX-ZEROS:      $ tile-run
// SOFTMAX-ZEROS-NEXT: check y = softmax(x): max rel error {{[0-9.]+e[-+][0-9]+}} (max abs {{[0-9.]+e[-+][0-9]+}} at element {{[0-9]+}}), tolerance 1.0e-05: FAIL
// SOFTMAX-ZEROS-NEXT: [exit 1]

// One program for 1500 elements: elements 1024 to 1499 stay poisoned.
// RUN: %{run} %{examples}/vector_add.mlir --grid 1 --quiet \
// RUN:     --arg x=f32[1500] --arg y=f32[1500] --arg out=f32[1500] --arg i32:1500 \
// RUN:     --check 'out=add(x,y)' \
// RUN:   | FileCheck %s --check-prefix=ADD-PARTIAL --match-full-lines
// ADD-PARTIAL:      $ tile-run
// ADD-PARTIAL-NEXT: check out = add(x, y): max rel error {{.*}} (max abs {{.*}}, 476 non-finite mismatches, the first at element 1024), tolerance 1.0e-05: FAIL
// ADD-PARTIAL-NEXT: [exit 1]

// The right result, but --rtol below the f32 rounding error of the sums.
// RUN: %{run} %{examples}/vector_add.mlir --grid 2 --quiet \
// RUN:     --arg x=f32[1500] --arg y=f32[1500] --arg out=f32[1500] --arg i32:1500 \
// RUN:     --check 'out=add(x,y)' --rtol 1e-9 \
// RUN:   | FileCheck %s --check-prefix=RTOL --match-full-lines
// RTOL:      $ tile-run
// RTOL-NEXT: check out = add(x, y): max rel error {{.*}}, tolerance 1.0e-09: FAIL
// RTOL-NEXT: [exit 1]

// A failing check does not hide the others, nor --print.
// RUN: %{run} %{examples}/vector_add.mlir --grid 1 --quiet \
// RUN:     --arg x=f32[1500]:ones --arg y=f32[1500]:ones --arg out=f32[1500] --arg i32:1500 \
// RUN:     --check 'out=add(x,y)' --check 'x=add(y,y)' --check 'y=add(x,y)' --print out \
// RUN:   | FileCheck %s --check-prefix=SEVERAL --match-full-lines
// SEVERAL:      $ tile-run
// SEVERAL-NEXT: check out = add(x, y): {{.*}}: FAIL
// SEVERAL-NEXT: check x = add(y, y): max rel error 5.00e-01 (max abs 1.00e+00 at element 0), tolerance 1.0e-05: FAIL
// SEVERAL-NEXT: check y = add(x, y): max rel error 5.00e-01 (max abs 1.00e+00 at element 0), tolerance 1.0e-05: FAIL
// SEVERAL-NEXT: out = [{{(2, ){63}2}}, ... (1436 more)]
// SEVERAL-NEXT: [exit 1]

// An exact result: no error, no element named.
// RUN: %{run} %{examples}/vector_add.mlir --grid 1 --quiet \
// RUN:     --arg x=f32[1000]:iota --arg 'y=f32[1000]:fill(-1)' --arg out=f32[1000] --arg i32:1000 \
// RUN:     --check 'out=add(x,y)' \
// RUN:   | FileCheck %s --check-prefix=EXACT --match-full-lines
// EXACT:      $ tile-run
// EXACT-NEXT: check out = add(x, y): max rel error 0.00e+00 (max abs 0.00e+00), tolerance 1.0e-05: PASS
// EXACT-NEXT: [exit 0]

func.func @divide(%out: !tile.ptr<i32>, %a: i32, %b: i32)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  // DIV-ZERO:      $ tile-run
  // DIV-ZERO-NEXT: [[FILE]]:[[@LINE+4]]:8: error: in program (0, 0, 0): integer division by zero
  // DIV-ZERO-NEXT:   %q = arith.divsi %a, %b : i32
  // DIV-ZERO-NEXT:        ^
  // DIV-ZERO-NEXT: [exit 1]
  %q = arith.divsi %a, %b : i32
  tile.store %out, %q : !tile.ptr<i32>
  return
}

// out[pid * k] = 1.0
func.func @store_at(%out: !tile.ptr<f32>, %k: i32)
    attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %pid = tile.program_id 0
  %off = arith.muli %pid, %k : i32
  %p = tile.addptr %out, %off : !tile.ptr<f32>, i32
  %one = arith.constant 1.0 : f32
  // NEGATIVE:      $ tile-run
  // NEGATIVE-NEXT: [[FILE]]:[[@LINE+3]]:3: error: in program (1, 0, 0): out-of-bounds store of buffer 'out': element offset -1 is outside [0, 4)
  // NEGATIVE-NEXT:   tile.store %p, %one : !tile.ptr<f32>
  // NEGATIVE:      [exit 1]
  tile.store %p, %one : !tile.ptr<f32>
  return
}
