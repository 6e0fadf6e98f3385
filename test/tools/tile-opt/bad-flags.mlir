// Bad command lines: a message, a non-zero exit, no crash.
//
// An unknown pass, with a suggestion.
// RUN: not tile-opt %s -tile-simplify-mask 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PASS \
// RUN:       --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"
// PASS: tile-opt: Unknown command line argument '-tile-simplify-mask'.
// PASS-NEXT: tile-opt: Did you mean '--tile-simplify-masks'?
//
// An unknown option of a tile pass.
// RUN: not tile-opt %s -tile-kernel-check=max-regs=4 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OPTION \
// RUN:       --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"
// OPTION: error: <Pass-Options-Parser>: no such option max-regs
//
// A bad value for an option of a tile pass.
// RUN: not tile-opt %s -tile-kernel-check=max-registers=many 2>&1 \
// RUN:   | FileCheck %s --check-prefix=VALUE \
// RUN:       --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"
// VALUE: for the --max-registers option: 'many' value invalid for long argument!
//
// RUN: not tile-opt %s -tile-kernel-check="report=maybe" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BOOL \
// RUN:       --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"
// BOOL: for the --report option: 'maybe' is invalid value for boolean argument!
//
// An unknown pass in a textual pipeline.
// RUN: not tile-opt %s --pass-pipeline='builtin.module(tile-kernel-chek)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PIPELINE \
// RUN:       --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"
// PIPELINE: error: MLIR Textual PassPipeline Parser:1:1: error: 'tile-kernel-chek' does not refer to a registered pass or pass pipeline
//
// A pass scheduled on the wrong op.
// RUN: not tile-opt %s --pass-pipeline='builtin.module(func.func(tile-simplify-masks))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ANCHOR \
// RUN:       --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"
// ANCHOR: error: Can't add pass 'TileSimplifyMasks' restricted to 'builtin.module' on a PassManager intended to run on 'func.func', did you intend to nest?
//
// The same passes spelled correctly run.
// RUN: tile-opt %s -tile-kernel-check="max-registers=32 report=false" \
// RUN:   -tile-simplify-masks | FileCheck %s
// RUN: tile-opt %s \
// RUN:   --pass-pipeline='builtin.module(tile-kernel-check{max-tile-elements=16},tile-simplify-masks)' \
// RUN:   | FileCheck %s
// CHECK: func.func @f()

func.func @f() {
  return
}
