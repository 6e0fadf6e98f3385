// tile.atomic_rmw of every kind and tile.atomic_cas from two programs of 8
// elements (Inputs/atomic-kinds.mlir says what each buffer holds), in the
// interpreter; on a machine with a GPU also on the GPU at sizes where warps
// hold copies of the elements, compared with the interpreter by tile-run.
//
// REQUIRES: tile-run
//
// DEFINE: %{bins} = 4
// DEFINE: %{total} = 16
// DEFINE: %{args} = --arg sum=f32[%{bins}]:zeros --arg count=i32[%{bins}]:zeros \
// DEFINE:   --arg max=i32[%{bins}]:zeros --arg 'min=i32[%{bins}]:fill(1000000)' \
// DEFINE:   --arg 'fmax=f32[%{bins}]:fill(-inf)' --arg bits=i32[%{bins}]:zeros \
// DEFINE:   --arg half=f16[%{bins}]:zeros --arg y=f32[%{total}]:iota \
// DEFINE:   --arg y_old=f32[%{total}] --arg z=i32[%{total}]:iota --arg z_old=i32[%{total}]
//
// RUN: %python %S/Inputs/run.py tile-run --mode=interp %S/Inputs/atomic-kinds.mlir \
// RUN:     --param N=8,BINS=4,NUM_WARPS=1 --grid 2 --quiet %{args} \
// RUN:     --print sum --print count --print max --print min --print fmax \
// RUN:     --print bits --print half --print y --print y_old --print z --print z_old \
// RUN:   | FileCheck %s
//
// Bins k mod 4 of k = 0..15: the sum of k mod 8 where k mod 3 != 0, the
// count, max k, min k, max (k mod 8) - 3.5, the or of 1 << k, the f16 count
// where k mod 3 != 0.
// CHECK:      sum = [4, 11, 10, 10]
// CHECK-NEXT: count = [4, 4, 4, 4]
// CHECK-NEXT: max = [12, 13, 14, 15]
// CHECK-NEXT: min = [0, 1, 2, 3]
// CHECK-NEXT: fmax = [0.5, 1.5, 2.5, 3.5]
// CHECK-NEXT: bits = [4369, 8738, 17476, 34952]
// CHECK-NEXT: half = [2, 3, 3, 2]
// y exchanged for k mod 8 (its old values, the iota, in y_old); z = k
// swapped for 1000 + k where k is even (old values in z_old).
// CHECK-NEXT: y = [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7]
// CHECK-NEXT: y_old = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
// CHECK-NEXT: z = [1000, 1, 1002, 3, 1004, 5, 1006, 7, 1008, 9, 1010, 11, 1012, 13, 1014, 15]
// CHECK-NEXT: z_old = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
// CHECK-NEXT: [exit 0]
//
// REDEFINE: %{bins} = 16
// REDEFINE: %{total} = 65536
// RUN: %if gpu %{ %python %S/Inputs/run.py tile-run %S/Inputs/atomic-kinds.mlir \
// RUN:     --param N=256,BINS=16,NUM_WARPS=4 --grid 256 --quiet %{args} \
// RUN:   | FileCheck %s --check-prefix=GPU %}
// REDEFINE: %{total} = 8192
// RUN: %if gpu %{ %python %S/Inputs/run.py tile-run %S/Inputs/atomic-kinds.mlir \
// RUN:     --param N=32,BINS=16,NUM_WARPS=4 --grid 256 --quiet %{args} \
// RUN:   | FileCheck %s --check-prefix=GPU %}
// GPU: [exit 0]
