// The kernel check takes time linear in the kernel's size: 20,000
// straight-line ops and 60 nested loops are checked in well under a second
// (the quadratic liveness queries of an earlier version took 11 s and 33 s
// on such inputs; the time limits below only catch a return to that).
// Deeper nesting is rejected by the verifier with a located error, and
// kernels whose unrolled code would take LLVM and ptxas minutes by the
// code-size limits (max-ops, max-element-ops).
//
// DEFINE: %{check} = tile-kernel-check='report max-ops=1000000 max-element-ops=100000000'
//
// RUN: %python %S/Inputs/gen_large_kernel.py chain 20000 > %t.chain.mlir
// RUN: timeout 60 tile-opt %t.chain.mlir -%{check} \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CHAIN
// CHAIN: remark: kernel 'chain': 128 threads, about 12 registers per thread (limit 255), 20003 operations, 0 element operations per thread
//
// RUN: %python %S/Inputs/gen_large_kernel.py tiles 5000 > %t.tiles.mlir
// RUN: timeout 60 tile-opt %t.tiles.mlir -%{check} \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TILES
// TILES: remark: kernel 'tiles': 128 threads, about 15 registers per thread (limit 255), 15006 operations, 10004 element operations per thread
//
// RUN: %python %S/Inputs/gen_large_kernel.py loops 60 > %t.loops.mlir
// RUN: timeout 60 tile-opt %t.loops.mlir -%{check} \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LOOPS
// LOOPS: remark: kernel 'loops': 128 threads, about 12 registers per thread
//
// RUN: %python %S/Inputs/gen_large_kernel.py loops 200 > %t.deep.mlir
// RUN: not timeout 60 tile-opt %t.deep.mlir -tile-kernel-check \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DEEP
// DEEP: deep.mlir:68:3: error: 'scf.for' op is nested 65 regions deep in tile kernel 'loops'; the limit is 64
//
// The default limits: 4096 operations, 32768 element operations per thread.
// RUN: not tile-opt %t.chain.mlir -tile-kernel-check \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OPS
// OPS: chain.mlir:1:1: error: kernel 'chain' is too large to compile: 20003 operations (the limit is 4096) and 0 element operations per thread (the limit is 32768); use loops or smaller tiles
// RUN: not tile-opt %t.tiles.mlir -tile-kernel-check=max-element-ops=10000 \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ELEMENTS
// ELEMENTS: error: kernel 'tiles' is too large to compile: 15006 operations (the limit is 4096) and 10004 element operations per thread (the limit is 10000)
