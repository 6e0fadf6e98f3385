// Without a GPU, tile-tune --space says why (tile-run's error) and writes
// no cache; tile-run --tuned says it needs the GPU.
//
// UNSUPPORTED: gpu
// REQUIRES: tile-run
// RUN: rm -f %t.json
// RUN: not tile-tune --space BLOCK=64,128 --cache %t.json -- %s --arg i32:1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TUNE
// TUNE: tile-run: error: tuned parameters need a GPU: tile_init:
// TUNE: tile-tune: error: tile-run rejected the arguments (above)
// RUN: not ls %t.json
//
// RUN: not tile-run %s --tuned %t.json --arg i32:1 2>&1 | FileCheck %s --check-prefix=TUNED
// TUNED-NOT: Stack dump
// TUNED: tile-run: error: tuned parameters need a GPU: tile_init:
//
// RUN: not tile-run %s --tuned %t.json --mode=interp --arg i32:1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=INTERP
// INTERP: tile-run: error: --tuned needs the GPU the kernel was tuned on (not --mode=interp)

tile.param BLOCK = 128

func.func @k(%n: i32) attributes {tile.kernel} {
  %r = tile.range 0, ${BLOCK} : tensor<${BLOCK}xi32>
  return
}
