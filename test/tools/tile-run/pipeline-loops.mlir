// A matmul with tile.num_stages = 3 computes the same result before and
// after tile-pipeline-loops (the interpreter runs both), with M, N and K
// not multiples of the blocks (edge copies zero-filled) and K shorter than
// the pipeline (copies past the end read nothing). The whole compiler
// turns its loop into cp.async copies, ldmatrix reads and mma.sync.
//
// RUN: tile-run %S/Inputs/pipelined-matmul.mlir --mode=interp --quiet --grid 4 \
// RUN:     --arg a=f16[100x70] --arg b=f16[70x50] --arg c=f32[100x50] \
// RUN:     --arg i32:100 --arg i32:50 --arg i32:70 --check 'c=matmul(a,b)' \
// RUN:   | FileCheck %s
// RUN: tile-opt %S/Inputs/pipelined-matmul.mlir -tile-pipeline-loops -o %t.mlir
// RUN: tile-run %t.mlir --mode=interp --quiet --grid 4 \
// RUN:     --arg a=f16[100x70] --arg b=f16[70x50] --arg c=f32[100x50] \
// RUN:     --arg i32:100 --arg i32:50 --arg i32:70 --check 'c=matmul(a,b)' \
// RUN:   | FileCheck %s
// RUN: tile-run %t.mlir --mode=interp --quiet --grid 4 \
// RUN:     --arg a=f16[100x20] --arg b=f16[20x50] --arg c=f32[100x50] \
// RUN:     --arg i32:100 --arg i32:50 --arg i32:20 --check 'c=matmul(a,b)' \
// RUN:   | FileCheck %s
// RUN: tile-compile %S/Inputs/pipelined-matmul.mlir -o - | FileCheck %s --check-prefix=PTX

// CHECK: check c = matmul(a, b): {{.*}}: PASS

// (LLVM rotates the loop, so the order in the PTX is not the IR's.)
// PTX-DAG: cp.async.cg.shared.global
// PTX-DAG: cp.async.wait_group 1
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-DAG: cp.async.wait_group 0
