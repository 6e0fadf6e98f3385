// Bad tables and options: a message naming the file and the reason, a
// non-zero exit, and no output written.
//
// RUN: not tile-kernel-gen --list --tables %S/Inputs/invalid-kernel.json 2>&1 \
// RUN:   | FileCheck %s --check-prefix=INVALID
// INVALID: tile-kernel-gen: {{.*}}invalid-kernel.json: softmax entry (f16 rows16 rows 4096 cols 1000) ranks an invalid kernel: block must be a power of two from 32 to 32768
//
// RUN: not tile-kernel-gen --list --tables %S/Inputs/wrong-dtype.json 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DTYPE
// DTYPE: tile-kernel-gen: {{.*}}wrong-dtype.json: softmax entry (f32 rows16 rows 4096 cols 1000) ranks a kernel of another dtype
//
// RUN: not tile-kernel-gen --list --tables %S/Inputs/unknown-param.json 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PARAM
// PARAM: tile-kernel-gen: {{.*}}unknown-param.json: not a parameter of the operation at tuning file.softmax[0].ranked[0].kernel.stages
//
// RUN: not tile-kernel-gen --list --tables %S/Inputs/unknown-op.json 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OPNAME
// OPNAME: tile-kernel-gen: {{.*}}unknown-op.json: not an operation at tuning file.layer_norm
//
// RUN: not tile-kernel-gen --list --tables %S/Inputs/no-sms.json 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DEVICE
// DEVICE: tile-kernel-gen: {{.*}}no-sms.json: {{.*}}needs name, compute_capability and sms
//
// RUN: not tile-kernel-gen --list --tables %S/Inputs/truncated.json 2>&1 \
// RUN:   | FileCheck %s --check-prefix=JSON
// JSON: tile-kernel-gen: {{.*}}truncated.json:
//
// RUN: not tile-kernel-gen --list --tables %t.missing.json 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING
// MISSING: tile-kernel-gen: {{.*}}missing.json: No such file or directory
//
// RUN: not tile-kernel-gen 2>&1 | FileCheck %s --check-prefix=NOOUT
// NOOUT: tile-kernel-gen: -o is required
//
// RUN: rm -f %t.cpp
// RUN: not tile-kernel-gen -o %t.cpp --ptxas /bin/true 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PAIR
// PAIR: tile-kernel-gen: --ptxas and --fatbinary go together
// RUN: not ls %t.cpp
