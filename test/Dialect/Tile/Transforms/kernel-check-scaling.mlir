// The kernel check takes time linear in the kernel's size: 20,000
// straight-line ops and 60 nested loops are checked in well under a second
// (the quadratic liveness queries of an earlier version took 11 s and 33 s
// on such inputs; the time limits below only catch a return to that).
// Deeper nesting is rejected by the verifier with a located error.
//
// RUN: %python %S/Inputs/gen_large_kernel.py chain 20000 > %t.chain.mlir
// RUN: timeout 60 tile-opt %t.chain.mlir -tile-kernel-check=report \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CHAIN
// CHAIN: remark: kernel 'chain': 128 threads, about 0 registers per thread for tiles
//
// RUN: %python %S/Inputs/gen_large_kernel.py tiles 5000 > %t.tiles.mlir
// RUN: timeout 60 tile-opt %t.tiles.mlir -tile-kernel-check=report \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TILES
// TILES: remark: kernel 'tiles': 128 threads, about 1 registers per thread for tiles
//
// RUN: %python %S/Inputs/gen_large_kernel.py loops 60 > %t.loops.mlir
// RUN: timeout 60 tile-opt %t.loops.mlir -tile-kernel-check=report \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LOOPS
// LOOPS: remark: kernel 'loops': 128 threads, about 0 registers per thread for tiles
//
// RUN: %python %S/Inputs/gen_large_kernel.py loops 200 > %t.deep.mlir
// RUN: not timeout 60 tile-opt %t.deep.mlir -tile-kernel-check \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DEEP
// DEEP: deep.mlir:68:3: error: 'scf.for' op is nested 65 regions deep in tile kernel 'loops'; the limit is 64
