// Examples specialized with --param, run by the interpreter and checked.
// (No kernel of its own; the RUN lines use examples/.)
//
// REQUIRES: tile-run
//
// DEFINE: %{run} = %python %S/Inputs/run.py tile-run --mode=interp
// DEFINE: %{examples} = %S/../../../examples
//
// softmax with BLOCK = 256 on rows of 200 columns: a smaller tile than the
// default 1024 holds the row.
// RUN: %{run} %{examples}/softmax.mlir --param BLOCK=256,NUM_WARPS=2 \
// RUN:     --grid 37 --quiet \
// RUN:     --arg y=f32[37x200] --arg x=f32[37x200]:randn \
// RUN:     --arg i32:200 --arg i32:200 --arg i32:37 --arg i32:200 \
// RUN:     --check 'y=softmax(x)' \
// RUN:   | FileCheck %s --check-prefix=SOFTMAX
// SOFTMAX:      $ tile-run
// SOFTMAX-NEXT: check y = softmax(x): {{.*}}: PASS
// SOFTMAX-NEXT: [exit 0]
//
// A BLOCK too small for the row: columns 128..199 are never written (they
// stay NaN) and the check fails.
// RUN: %{run} %{examples}/softmax.mlir --param BLOCK=128 --grid 3 --quiet \
// RUN:     --arg y=f32[3x200] --arg x=f32[3x200]:randn \
// RUN:     --arg i32:200 --arg i32:200 --arg i32:3 --arg i32:200 \
// RUN:     --check 'y=softmax(x)' \
// RUN:   | FileCheck %s --check-prefix=SMALL
// SMALL:      $ tile-run
// SMALL-NEXT: check y = softmax(x): {{.*}}FAIL
// SMALL:      [exit 1]
//
// The compiler-pipelined matmul with 32 x 64 tiles of C, K steps of 16 and
// programs in groups of 2 tile rows: 7 x 3 tiles of a 200 x 150 C (the grid
// computed from the parameters).
// RUN: %{run} %{examples}/matmul_f16_auto.mlir \
// RUN:     --param BLOCK_M=32,BLOCK_N=64,BLOCK_K=16,GROUP_M=2,NUM_WARPS=4 \
// RUN:     --param MIN_PROGRAMS_PER_SM=0 --quiet \
// RUN:     --grid '${cdiv(200, BLOCK_M) * cdiv(150, BLOCK_N)}' \
// RUN:     --arg a=f16[200x70] --arg b=f16[70x150] --arg c=f16[200x150] \
// RUN:     --arg i32:200 --arg i32:150 --arg i32:70 \
// RUN:     --arg i64:70 --arg i64:1 --arg i64:150 --arg i64:1 --arg i64:150 --arg i64:1 \
// RUN:     --check 'c=matmul(a,b)' \
// RUN:   | FileCheck %s --check-prefix=MATMUL
// MATMUL:      $ tile-run
// MATMUL-NEXT: check c = matmul(a, b): {{.*}}: PASS
// MATMUL-NEXT: [exit 0]
//
// A setting the kernel does not declare: a usage error (exit 2).
// RUN: %{run} %{examples}/vector_add.mlir --param BLOCK_SIZE=64 \
// RUN:     --arg x=f32[10] --arg y=f32[10] --arg out=f32[10] --arg n=i32:10 \
// RUN:   | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: vector_add.mlir: error: unknown parameter 'BLOCK_SIZE' (the kernel declares BLOCK, NUM_WARPS)
// UNKNOWN: [exit 2]
//
// A grid expression that cannot be computed.
// RUN: %{run} %{examples}/vector_add.mlir --grid '${cdiv(10, BLOCK_SIZE)}' \
// RUN:     --arg x=f32[10] --arg y=f32[10] --arg out=f32[10] --arg n=i32:10 \
// RUN:   | FileCheck %s --check-prefix=GRID
// GRID: tile-run: error: --grid: '${cdiv(10, BLOCK_SIZE)}', column 12: unknown parameter 'BLOCK_SIZE' (declared: BLOCK, NUM_WARPS)
// GRID: [exit 2]
