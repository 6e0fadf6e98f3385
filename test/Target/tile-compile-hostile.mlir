// tile-compile under bad targets and failing output: an error, a non-zero
// exit and no output file, never a crash.
//
// An empty chip crashed in the NVVM target's verifier; an unknown one only
// warned (LLVM ignored it) and exited 0.
// RUN: rm -f %t.ptx %t.meta
// RUN: not tile-compile %s --chip '' -o %t.ptx 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EMPTY --implicit-check-not="Stack dump"
// RUN: not test -e %t.ptx
// EMPTY: tile-compile-hostile.mlir:{{[0-9]+}}:{{[0-9]+}}: error: unknown target chip ''; Tile compiles for sm_80, sm_86,
// RUN: not tile-compile %s --chip bogus -o %t.ptx 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BOGUS --implicit-check-not=warning
// RUN: not test -e %t.ptx
// BOGUS: error: unknown target chip 'bogus'
// RUN: not tile-compile %s --chip gfx90a -o %t.ptx 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OTHER-GPU --implicit-check-not="LLVM ERROR"
// OTHER-GPU: error: unknown target chip 'gfx90a'
// RUN: not tile-compile %s --chip sm_ -o %t.ptx 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO-NUMBER --implicit-check-not="LLVM ERROR"
// NO-NUMBER: error: unknown target chip 'sm_'
//
// A full disk ended in "LLVM ERROR: IO failure"; a failed write leaves
// neither file behind.
// RUN: not tile-compile %s -o /dev/full 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FULL --implicit-check-not="LLVM ERROR"
// FULL: tile-compile: error: cannot write '/dev/full': No space left on device
// RUN: not tile-compile %s -o %t.ptx --metadata /dev/full 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FULL-META --implicit-check-not="LLVM ERROR"
// RUN: not test -e %t.ptx
// FULL-META: tile-compile: error: cannot write '/dev/full': No space left on device
// RUN: not tile-compile %s -o /dev/full --metadata %t.meta 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FULL
// RUN: not test -e %t.meta
//
// PTX versions LLVM does not know, or too old for the chip, aborted in
// LLVM's backend.
// RUN: not tile-compile %s --chip sm_90a --features=+ptx60 -o %t.ptx 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OLD-PTX --implicit-check-not="LLVM ERROR"
// RUN: not test -e %t.ptx
// OLD-PTX: error: PTX features '+ptx60' are too old for sm_90a, which needs +ptx80 or later
// RUN: not tile-compile %s --features=+avx -o %t.ptx 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD-FEATURE --implicit-check-not="LLVM ERROR"
// BAD-FEATURE: error: unknown PTX features '+avx'; expected +ptxNN, a PTX ISA version from +ptx60 to +ptx90
//
// Every chip Tile compiles for produces PTX (ptxas checks it where the
// toolkit is present).
// RUN: tile-compile %s --chip sm_88 -o /dev/null
// RUN: tile-compile %s --chip sm_103a -o /dev/null
// RUN: tile-compile %s --chip sm_121 -o /dev/null
// RUN: tile-compile %s --chip sm_80 -o /dev/null
// RUN: tile-compile %s --chip sm_89 -o /dev/null
// RUN: tile-compile %s --chip sm_90a -o /dev/null
// RUN: tile-compile %s --chip sm_100a -o /dev/null
// RUN: tile-compile %s --chip sm_120 -o /dev/null

func.func @store(%p: !tile.ptr<f32>, %x: f32) attributes {tile.kernel} {
  %r = tile.range 0, 128 : tensor<128xi32>
  %ps = tile.splat %p : tensor<128x!tile.ptr<f32>>
  %pp = tile.addptr %ps, %r : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %v = tile.load %pp : tensor<128x!tile.ptr<f32>>
  tile.store %pp, %v : tensor<128x!tile.ptr<f32>>
  return
}
