// tile-tune checks its options before it looks for a GPU, and writes no
// table when it cannot measure.
//
// RUN: not tile-tune -o %t.json --op bogus 2>&1 | FileCheck %s --check-prefix=OP
// OP: tile-tune: --op must be softmax, softmax_matmul or all
//
// RUN: not tile-tune -o %t.json --dtypes f64 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: tile-tune: unknown dtype 'f64'
//
// RUN: not tile-tune -o %t.json --alignments odd 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ALIGN
// ALIGN: tile-tune: unknown alignment class 'odd'
//
// RUN: not tile-tune -o %t.json --ranked 9 2>&1 | FileCheck %s --check-prefix=RANKED
// RANKED: tile-tune: --iters, --rows must be positive and --ranked 1 to 2
//
// RUN: not tile-tune -o %t.json --shapes 16x2048x512 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SHAPE
// SHAPE: tile-tune: --shapes takes batch x d1 x d2 x d3
