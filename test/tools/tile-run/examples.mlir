// Every example kernel, run in the interpreter with --check against its
// float64 reference: each run must print PASS and exit 0. Output buffers of a
// check start poisoned (NaN), so PASS also means that the kernel wrote every
// element. The sizes are chosen to be irregular: partial blocks along every
// dimension. CI machines have no GPU, so every run says --mode=interp.
// (This file holds no kernel of its own; the RUN lines use examples/.)
//
// REQUIRES: tile-run
//
// DEFINE: %{run} = %python %S/Inputs/run.py tile-run --mode=interp
// DEFINE: %{examples} = %S/../../../examples

// vector_add: 2 programs of 1024 over 1500 elements; the second is partial.
// The progress lines are printed without --quiet.
// RUN: %{run} %{examples}/vector_add.mlir --grid 2 \
// RUN:     --arg x=f32[1500] --arg y=f32[1500] --arg out=f32[1500] --arg n=i32:1500 \
// RUN:     --check 'out=add(x,y)' \
// RUN:   | FileCheck %s --check-prefix=ADD --match-full-lines
// ADD:      $ tile-run
// ADD-NEXT: tile-run: kernel @vector_add, grid (2, 1, 1), in the interpreter
// ADD-NEXT: tile-run: interpreter done in {{[0-9]+\.[0-9]+}} s
// ADD-NEXT: check out = add(x, y): max rel error {{[0-9.]+e[-+][0-9]+}} (max abs {{[0-9.]+e[-+][0-9]+}} at element {{[0-9]+}}), tolerance 1.0e-05: PASS
// ADD-NEXT: [exit 0]

// The same with --quiet: only the check line. --seed changes the inputs,
// not the verdict.
// RUN: %{run} %{examples}/vector_add.mlir --grid 3 --quiet --seed 7 \
// RUN:     --arg x=f32[2049] --arg y=f32[2049] --arg out=f32[2049] --arg n=i32:2049 \
// RUN:     --check 'out=add(x,y)' \
// RUN:   | FileCheck %s --check-prefix=ADD-QUIET
// ADD-QUIET:      $ tile-run
// ADD-QUIET-NEXT: check out = add(x, y): {{.*}}: PASS
// ADD-QUIET-NEXT: [exit 0]

// softmax: one row of 781 columns per program, 1823 rows.
// RUN: %{run} %{examples}/softmax.mlir --grid 1823 --quiet \
// RUN:     --arg y=f32[1823x781] --arg x=f32[1823x781]:randn \
// RUN:     --arg i32:781 --arg i32:781 --arg i32:1823 --arg i32:781 \
// RUN:     --check 'y=softmax(x)' \
// RUN:   | FileCheck %s --check-prefix=SOFTMAX
// SOFTMAX:      $ tile-run
// SOFTMAX-NEXT: check y = softmax(x): max rel error {{.*}}, tolerance 1.0e-05: PASS
// SOFTMAX-NEXT: [exit 0]

// softmax of a 1-d buffer of exactly one full 1024-wide row, scaled inputs.
// RUN: %{run} %{examples}/softmax.mlir --grid 1 --quiet \
// RUN:     --arg y=f32[1024] --arg 'x=f32[1024]:randn(10)' \
// RUN:     --arg i32:1024 --arg i32:1024 --arg i32:1 --arg i32:1024 \
// RUN:     --check 'y=softmax(x)' \
// RUN:   | FileCheck %s --check-prefix=SOFTMAX-1D
// SOFTMAX-1D:      $ tile-run
// SOFTMAX-1D-NEXT: check y = softmax(x): {{.*}}: PASS
// SOFTMAX-1D-NEXT: [exit 0]

// online_softmax: rows of 3000 columns (11 full blocks of 256 and a partial
// one) that softmax.mlir cannot hold in one tile.
// RUN: %{run} %{examples}/online_softmax.mlir --grid 64 --quiet \
// RUN:     --arg y=f32[64x3000] --arg x=f32[64x3000]:randn \
// RUN:     --arg i32:3000 --arg i32:3000 --arg i32:3000 \
// RUN:     --check 'y=softmax(x)' \
// RUN:   | FileCheck %s --check-prefix=ONLINE
// ONLINE:      $ tile-run
// ONLINE-NEXT: check y = softmax(x): {{.*}}: PASS
// ONLINE-NEXT: [exit 0]

// softmax_matmul: batch 2, d1 = 37 (3 blocks of 16, the last partial),
// d2 = 50 (4 steps of 16, the last partial), d3 = 23 (< 64); contiguous
// strides. Grid (cdiv(37, 16), batch).
// RUN: %{run} %{examples}/softmax_matmul.mlir --grid 3,2 --quiet \
// RUN:     --arg x=f32[2x37x50] --arg v=f32[2x50x23] --arg o=f32[2x37x23] \
// RUN:     --arg i32:37 --arg i32:50 --arg i32:23 \
// RUN:     --arg i32:1850 --arg i32:50 --arg i32:1 \
// RUN:     --arg i32:1150 --arg i32:23 --arg i32:1 \
// RUN:     --arg i32:851 --arg i32:23 --arg i32:1 \
// RUN:     --check 'o=softmax_matmul(x,v)' \
// RUN:   | FileCheck %s --check-prefix=SMM
// SMM:      $ tile-run
// SMM-NEXT: check o = softmax_matmul(x, v): {{.*}}: PASS
// SMM-NEXT: [exit 0]

// softmax_matmul with 2-d buffers (batch 1) and d1 = 16, d2 = 5, d3 = 64.
// RUN: %{run} %{examples}/softmax_matmul.mlir --grid 1,1 --quiet \
// RUN:     --arg x=f32[16x5] --arg v=f32[5x64] --arg o=f32[16x64] \
// RUN:     --arg i32:16 --arg i32:5 --arg i32:64 \
// RUN:     --arg i32:80 --arg i32:5 --arg i32:1 \
// RUN:     --arg i32:320 --arg i32:64 --arg i32:1 \
// RUN:     --arg i32:1024 --arg i32:64 --arg i32:1 \
// RUN:     --check 'o=softmax_matmul(x,v)' \
// RUN:   | FileCheck %s --check-prefix=SMM-2D
// SMM-2D:      $ tile-run
// SMM-2D-NEXT: check o = softmax_matmul(x, v): {{.*}}: PASS
// SMM-2D-NEXT: [exit 0]

// matmul.mlir holds two kernels; --kernel picks one. M = 100, N = 70,
// K = 50 (none a multiple of 32); grid cdiv(100, 32) * cdiv(70, 32) = 12.
// RUN: %{run} %{examples}/matmul.mlir --kernel matmul --grid 12 \
// RUN:     --arg a=f32[100x50] --arg b=f32[50x70] --arg c=f32[100x70] \
// RUN:     --arg i32:100 --arg i32:70 --arg i32:50 \
// RUN:     --arg i32:50 --arg i32:1 --arg i32:70 --arg i32:1 --arg i32:70 --arg i32:1 \
// RUN:     --check 'c=matmul(a,b)' \
// RUN:   | FileCheck %s --check-prefix=MATMUL
// MATMUL:      $ tile-run
// MATMUL-NEXT: tile-run: kernel @matmul, grid (12, 1, 1), in the interpreter
// MATMUL-NEXT: tile-run: interpreter done in {{.*}} s
// MATMUL-NEXT: check c = matmul(a, b): {{.*}}: PASS
// MATMUL-NEXT: [exit 0]

// RUN: %{run} %{examples}/matmul.mlir --kernel=matmul_leaky_relu --grid 12 \
// RUN:     --arg a=f32[100x50] --arg b=f32[50x70] --arg c=f32[100x70] \
// RUN:     --arg i32:100 --arg i32:70 --arg i32:50 \
// RUN:     --arg i32:50 --arg i32:1 --arg i32:70 --arg i32:1 --arg i32:70 --arg i32:1 \
// RUN:     --check 'c=matmul_leaky_relu(a,b)' \
// RUN:   | FileCheck %s --check-prefix=LEAKY
// LEAKY:      $ tile-run
// LEAKY-NEXT: tile-run: kernel @matmul_leaky_relu, grid (12, 1, 1), in the interpreter
// LEAKY-NEXT: tile-run: interpreter done in {{.*}} s
// LEAKY-NEXT: check c = matmul_leaky_relu(a, b): {{.*}}: PASS
// LEAKY-NEXT: [exit 0]

// matmul_f16.mlir: the tensor-core kernel with the pipelined K loop, in the
// interpreter. M = 200, N = 150, K = 70 (K is 2 steps of 32 plus a partial
// one); grid cdiv(200, 128) * cdiv(150, 128) = 4.
// RUN: %{run} %{examples}/matmul_f16.mlir --kernel=matmul_f16_leaky_relu --grid 4 --quiet \
// RUN:     --arg a=f16[200x70] --arg b=f16[70x150] --arg c=f16[200x150] \
// RUN:     --arg i32:200 --arg i32:150 --arg i32:70 \
// RUN:     --arg i64:70 --arg i64:1 --arg i64:150 --arg i64:1 --arg i64:150 --arg i64:1 \
// RUN:     --check 'c=matmul_leaky_relu(a,b)' \
// RUN:   | FileCheck %s --check-prefix=MATMUL-F16
// MATMUL-F16:      $ tile-run
// MATMUL-F16-NEXT: check c = matmul_leaky_relu(a, b): {{.*}}: PASS
// MATMUL-F16-NEXT: [exit 0]

// matmul_f16_auto.mlir (the same matmul pipelined by the compiler, which
// the interpreter runs as written), same shape.
// RUN: %{run} %{examples}/matmul_f16_auto.mlir --grid 4 --quiet \
// RUN:     --arg a=f16[200x70] --arg b=f16[70x150] --arg c=f16[200x150] \
// RUN:     --arg i32:200 --arg i32:150 --arg i32:70 \
// RUN:     --arg i64:70 --arg i64:1 --arg i64:150 --arg i64:1 --arg i64:150 --arg i64:1 \
// RUN:     --check 'c=matmul(a,b)' \
// RUN:   | FileCheck %s --check-prefix=MATMUL-F16-AUTO
// MATMUL-F16-AUTO:      $ tile-run
// MATMUL-F16-AUTO-NEXT: check c = matmul(a, b): {{.*}}: PASS
// MATMUL-F16-AUTO-NEXT: [exit 0]

// matmul_f16_hopper.mlir (128 x 256 tiles, grouped program order), both
// kernels, same shape: grid cdiv(200, 128) * cdiv(150, 256) = 2, so the
// second tile row is a partial group.
// RUN: %{run} %{examples}/matmul_f16_hopper.mlir --kernel=matmul_f16_hopper --grid 2 --quiet \
// RUN:     --arg a=f16[200x70] --arg b=f16[70x150] --arg c=f16[200x150] \
// RUN:     --arg i32:200 --arg i32:150 --arg i32:70 \
// RUN:     --arg i64:70 --arg i64:1 --arg i64:150 --arg i64:1 --arg i64:150 --arg i64:1 \
// RUN:     --check 'c=matmul(a,b)' \
// RUN:   | FileCheck %s --check-prefix=MATMUL-F16-HOPPER
// RUN: %{run} %{examples}/matmul_f16_hopper.mlir --kernel=matmul_f16_hopper_leaky_relu --grid 2 --quiet \
// RUN:     --arg a=f16[200x70] --arg b=f16[70x150] --arg c=f16[200x150] \
// RUN:     --arg i32:200 --arg i32:150 --arg i32:70 \
// RUN:     --arg i64:70 --arg i64:1 --arg i64:150 --arg i64:1 --arg i64:150 --arg i64:1 \
// RUN:     --check 'c=matmul_leaky_relu(a,b)' \
// RUN:   | FileCheck %s --check-prefix=MATMUL-F16-HOPPER
// MATMUL-F16-HOPPER:      $ tile-run
// MATMUL-F16-HOPPER-NEXT: check c = {{matmul|matmul_leaky_relu}}(a, b): {{.*}}: PASS
// MATMUL-F16-HOPPER-NEXT: [exit 0]

// The two references differ: @matmul checked against matmul_leaky_relu
// fails (the negative outputs are not scaled by 0.01), and so does
// @matmul_leaky_relu against matmul. Two checks in one run: one line each,
// in order, and exit 1 when any fails.
// RUN: %{run} %{examples}/matmul.mlir --kernel matmul --grid 12 --quiet \
// RUN:     --arg a=f32[100x50] --arg b=f32[50x70] --arg c=f32[100x70] \
// RUN:     --arg i32:100 --arg i32:70 --arg i32:50 \
// RUN:     --arg i32:50 --arg i32:1 --arg i32:70 --arg i32:1 --arg i32:70 --arg i32:1 \
// RUN:     --check 'c=matmul(a,b)' --check 'c=matmul_leaky_relu(a,b)' \
// RUN:   | FileCheck %s --check-prefix=MATMUL-VS-LEAKY
// MATMUL-VS-LEAKY:      $ tile-run
// MATMUL-VS-LEAKY-NEXT: check c = matmul(a, b): {{.*}}: PASS
// MATMUL-VS-LEAKY-NEXT: check c = matmul_leaky_relu(a, b): {{.*}}: FAIL
// MATMUL-VS-LEAKY-NEXT: [exit 1]
// RUN: %{run} %{examples}/matmul.mlir --kernel matmul_leaky_relu --grid 12 --quiet \
// RUN:     --arg a=f32[100x50] --arg b=f32[50x70] --arg c=f32[100x70] \
// RUN:     --arg i32:100 --arg i32:70 --arg i32:50 \
// RUN:     --arg i32:50 --arg i32:1 --arg i32:70 --arg i32:1 --arg i32:70 --arg i32:1 \
// RUN:     --check 'c=matmul(a,b)' \
// RUN:   | FileCheck %s --check-prefix=LEAKY-VS-MATMUL
// LEAKY-VS-MATMUL:      $ tile-run
// LEAKY-VS-MATMUL-NEXT: check c = matmul(a, b): {{.*}}: FAIL
// LEAKY-VS-MATMUL-NEXT: [exit 1]

// The interpreter ignores layout encodings: kernels annotated by
// -tile-assign-layouts give the same results.
// RUN: tile-opt %{examples}/softmax.mlir -tile-assign-layouts -cse -o %t.softmax.mlir
// RUN: %{run} %t.softmax.mlir --grid 1823 --quiet \
// RUN:     --arg y=f32[1823x781] --arg x=f32[1823x781]:randn \
// RUN:     --arg i32:781 --arg i32:781 --arg i32:1823 --arg i32:781 \
// RUN:     --check 'y=softmax(x)' \
// RUN:   | FileCheck %s --check-prefix=SOFTMAX
// RUN: tile-opt %{examples}/softmax_matmul.mlir -tile-assign-layouts \
// RUN:     -tile-remove-layout-conversions -cse -o %t.smm.mlir
// RUN: %{run} %t.smm.mlir --grid 3,2 --quiet \
// RUN:     --arg x=f32[2x37x50] --arg v=f32[2x50x23] --arg o=f32[2x37x23] \
// RUN:     --arg i32:37 --arg i32:50 --arg i32:23 \
// RUN:     --arg i32:1850 --arg i32:50 --arg i32:1 \
// RUN:     --arg i32:1150 --arg i32:23 --arg i32:1 \
// RUN:     --arg i32:851 --arg i32:23 --arg i32:1 \
// RUN:     --check 'o=softmax_matmul(x,v)' \
// RUN:   | FileCheck %s --check-prefix=SMM
