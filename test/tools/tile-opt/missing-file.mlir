// Files that cannot be read or written: a message naming the file and the
// reason, a non-zero exit, no crash. (MlirOptMain prints these without an
// "error:" prefix and, there being no IR yet, without a line:col.)
//
// RUN: not tile-opt %t.does-not-exist 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING -DFILE=%t.does-not-exist \
// RUN:       --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"
// MISSING: cannot open input file '[[FILE]]': No such file or directory
//
// RUN: not tile-opt %S 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DIR -DDIR=%S \
// RUN:       --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"
// DIR: cannot open input file '[[DIR]]': Is a directory
//
// RUN: not tile-opt %s -o %t.no-such-dir/out.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OUTPUT -DFILE=%t.no-such-dir/out.mlir \
// RUN:       --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"
// OUTPUT: cannot open output file '[[FILE]]': No such file or directory

func.func @f() {
  return
}
