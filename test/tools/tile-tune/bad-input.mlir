// tile-tune checks its options before it looks for a GPU, and writes no
// table when it cannot measure.
//
// RUN: not tile-tune -o %t.json --op bogus 2>&1 | FileCheck %s --check-prefix=OP
// OP: tile-tune: --op must be one of {{.*}}softmax, softmax_matmul, {{.*}}or all
//
// RUN: not tile-tune -o %t.json --op softmax --set dtype=f64 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DTYPE
// DTYPE: tile-tune: --set dtype=f64: 'f64' is not a value of dtype
//
// RUN: not tile-tune -o %t.json --op softmax --set alignment=odd 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ALIGN
// ALIGN: tile-tune: --set alignment=odd: 'odd' is not a value of alignment
//
// RUN: not tile-tune -o %t.json --op softmax --set cols=0 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COLS
// COLS: tile-tune: --set cols=0: '0' is not a value of cols
//
// RUN: not tile-tune -o %t.json --op softmax_matmul --set d4=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FIELD
// FIELD: tile-tune: --set d4=1: softmax_matmul problems have no field 'd4'
//
// RUN: not tile-tune -o %t.json --op attention --set kv_heads=5 2>&1 \
// RUN:   | FileCheck %s --check-prefix=KVHEADS
// KVHEADS: tile-tune: the --set values make no attention problem
//
// RUN: not tile-tune -o %t.json --set dtype=f16 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ONEOP
// ONEOP: tile-tune: --set needs one --op
//
// RUN: not tile-tune -o %t.json --ranked 9 2>&1 | FileCheck %s --check-prefix=RANKED
// RANKED: tile-tune: --iters must be positive and --ranked 1 to 3
//
// RUN: not tile-tune -o %t.json --finalists -1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FINALISTS
// RUN: not tile-tune -o %t.json --finalist-margin -0.5 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FINALISTS
// FINALISTS: tile-tune: --finalists, --rounds and --finalist-margin must not be negative
//
// RUN: not ls %t.json
