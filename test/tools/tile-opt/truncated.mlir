// Truncated and garbage files give one error at the point where the input
// stops making sense, and a non-zero exit; never a crash.
//
// RUN: not tile-opt %S/Inputs/truncated.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TYPE-LIST --implicit-check-not=error: \
// RUN:       --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"
// TYPE-LIST: truncated.mlir:5:66: error: expected non-function type
// TYPE-LIST-NEXT: {{^}}  %ptrs = tile.addptr %bases, %cols : tensor<128x!tile.ptr<f32>>, tens{{$}}
// TYPE-LIST-NEXT: {{^}}                                                                 ^{{$}}
// RUN: not tile-opt %S/Inputs/truncated.mlir 2>&1 | grep "error:" | count 1
//
// RUN: not tile-opt %S/Inputs/truncated-body.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BODY --implicit-check-not=error: \
// RUN:       --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"
// BODY: truncated-body.mlir:3:27: error:
//
// RUN: not tile-opt %S/Inputs/truncated-type.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TYPE --implicit-check-not=error: \
// RUN:       --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"
// TYPE: truncated-type.mlir:2:31: error: unbalanced '<' character in pretty dialect name
//
// RUN: not tile-opt %S/Inputs/truncated-string.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STRING --implicit-check-not=error: \
// RUN:       --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"
// STRING: truncated-string.mlir:3:22: error: expected '"' in string literal
//
// RUN: not tile-opt %S/Inputs/truncated-attributes.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ATTRS --implicit-check-not=error: \
// RUN:       --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"
// ATTRS: truncated-attributes.mlir:2:57: error: expected attribute value
//
// RUN: not tile-opt %S/Inputs/binary.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BINARY --implicit-check-not=error: \
// RUN:       --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"
// BINARY: binary.mlir:1:1: error: unexpected character
//
// Nothing is written for a file that does not parse.
// RUN: rm -f %t.out
// RUN: not tile-opt %S/Inputs/truncated.mlir -o %t.out 2>/dev/null
// RUN: not test -e %t.out
//
// An empty file is an empty module.
// RUN: tile-opt %S/Inputs/empty.mlir | FileCheck %s --check-prefix=EMPTY
// EMPTY: module {
// EMPTY-NEXT: }
