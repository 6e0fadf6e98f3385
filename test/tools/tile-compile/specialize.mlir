// tile-compile --specialize compiles every combination of the listed
// parameter values into one image: an entry per combination, named with
// its values, and a metadata block each giving the source's kernel name
// (base) and every parameter's value, by which the runtime selects one.
//
// RUN: tile-compile %S/../../../examples/softmax.mlir --specialize BLOCK=1024,2048 \
// RUN:     --specialize NUM_WARPS=4,8 -o %t.ptx --metadata %t.meta
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: FileCheck %s --check-prefix=META < %t.meta
//
// PTX-DAG: .entry softmax__BLOCK_1024__NUM_WARPS_4(
// PTX-DAG: .entry softmax__BLOCK_1024__NUM_WARPS_8(
// PTX-DAG: .entry softmax__BLOCK_2048__NUM_WARPS_4(
// PTX-DAG: .entry softmax__BLOCK_2048__NUM_WARPS_8(
//
// META:      name softmax__BLOCK_1024__NUM_WARPS_4
// META-NEXT: num_warps 4
// META:      base softmax
// META-NEXT: param BLOCK 1024
// META-NEXT: param NUM_WARPS 4
// META:      name softmax__BLOCK_2048__NUM_WARPS_8
// META-NEXT: num_warps 8
// META:      base softmax
// META-NEXT: param BLOCK 2048
// META-NEXT: param NUM_WARPS 8
//
// A setting fixed with --param and swept at once, malformed lists, and an
// error in one specialization (named by the note).
// RUN: not tile-compile %S/../../../examples/softmax.mlir --param BLOCK=1024 \
// RUN:     --specialize BLOCK=512,1024 -o %t.bad 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: tile-compile: error: parameter 'BLOCK' is given twice (--param and --specialize, or two --specialize)
// RUN: not tile-compile %S/../../../examples/softmax.mlir --specialize BLOCK \
// RUN:     -o %t.bad 2>&1 | FileCheck %s --check-prefix=MALFORMED
// MALFORMED: tile-compile: error: --specialize 'BLOCK' is not NAME=VALUE1,VALUE2,... (a parameter and its values)
// RUN: not tile-compile %S/../../../examples/softmax.mlir --specialize BLOCK=1024,1000 \
// RUN:     -o %t.bad 2>&1 | FileCheck %s --check-prefix=ONE-BAD
// ONE-BAD: error:
// ONE-BAD: note: with kernel parameters BLOCK=1000 (set)
// RUN: not test -e %t.bad
