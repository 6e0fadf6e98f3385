// tile-tune --space with a stand-in for tile-run (Inputs/fake-tile-run.py):
// the ranking, the rejected, wrong and stopped settings, the cache and its
// reuse, without a GPU.
//
// RUN: rm -f %t.json
// RUN: tile-tune --runner %S/Inputs/fake-tile-run.py --candidate-timeout 2 \
// RUN:     --space BLOCK=1,3,5,7,16,8 --cache %t.json -- %s --arg x=f32[8] \
// RUN:   | FileCheck %s --check-prefix=TUNE
// TUNE:      tile-tune: 6 settings on Fake GPU, sm_90, 1 SMs
// TUNE-NEXT:   BLOCK=1 {{ *}}1.0000 ms
// TUNE-NEXT:   BLOCK=3 {{ *}}wrong result or fault: check y = softmax(x) on the GPU: max rel error 1.0e+00: FAIL
// TUNE-NEXT:   BLOCK=5 {{ *}}rejected: k.mlir:1:1: error: 'tile.range' op result must be a tile with static power-of-two dimensions
// TUNE-NEXT:   BLOCK=7 {{ *}}rejected: error: stopped after 2 s (Child timed out{{.*}})
// TUNE-NEXT:   BLOCK=16 {{ *}}0.0625 ms
// TUNE-NEXT:   BLOCK=8 {{ *}}0.1250 ms
// TUNE-NEXT: tile-tune: 3 correct, 1 wrong, 2 rejected
// TUNE-NEXT: tile-tune: fastest BLOCK=16 (0.0625 ms), kept in {{.*}}.json
//
// RUN: FileCheck %s --check-prefix=CACHE < %t.json
// CACHE-DAG: "format": "tile-tuning-cache"
// CACHE-DAG: "device": "Fake GPU, sm_90, 1 SMs"
// CACHE-DAG: "BLOCK": 16
// CACHE-DAG: "problem": "x=f32[8]"
//
// The second call finds the entry.
// RUN: tile-tune --runner %S/Inputs/fake-tile-run.py --space BLOCK=2 \
// RUN:     --cache %t.json -- %s --arg x=f32[8] | FileCheck %s --check-prefix=AGAIN
// AGAIN: tile-tune: {{.*}}.json already has this kernel and problem on Fake GPU, sm_90, 1 SMs: BLOCK=16 (0.0625 ms, {{.*}}); --retune measures again
//
// No correct setting: an error, the cache unchanged.
// RUN: cp %t.json %t.before
// RUN: not tile-tune --runner %S/Inputs/fake-tile-run.py --space BLOCK=3,5 \
// RUN:     --retune --cache %t.json -- %s --arg x=f32[8] 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NONE
// NONE: tile-tune: error: no setting ran correctly; {{.*}}.json is unchanged
// RUN: cmp %t.json %t.before
//
// The settings timed close to the fastest run again in rounds and are
// ranked by the median of their timings: BLOCK=9's lucky first timing
// (0.12 ms, then 0.2) loses to BLOCK=8, and BLOCK=10, fastest at first,
// fails when run again and is dropped.
// RUN: rm -f %t.log %t2.json
// RUN: env FAKE_TILE_RUN_LOG=%t.log tile-tune \
// RUN:     --runner %S/Inputs/fake-tile-run.py --finalist-margin 0.3 \
// RUN:     --space BLOCK=8,9,10,1 --cache %t2.json -- %s --arg x=f32[8] \
// RUN:   | FileCheck %s --check-prefix=ROUNDS
// ROUNDS:      BLOCK=10 {{ *}}0.1000 ms
// ROUNDS:      tile-tune: 4 correct, 0 wrong, 0 rejected
// ROUNDS-NEXT: tile-tune: the 3 fastest again, 3 rounds
// ROUNDS-NEXT:   BLOCK=10 {{ *}}failed when run again: check y = softmax(x) on the GPU: max rel error 1.0e+00: FAIL
// ROUNDS-NEXT:   BLOCK=9 {{ *}}0.2000 ms (median)
// ROUNDS-NEXT:   BLOCK=8 {{ *}}0.1250 ms (median)
// ROUNDS-NEXT: tile-tune: fastest BLOCK=8 (0.1250 ms), kept in {{.*}}.json
//
// Without rounds the first timings rank.
// RUN: rm -f %t.log %t2.json
// RUN: env FAKE_TILE_RUN_LOG=%t.log tile-tune \
// RUN:     --runner %S/Inputs/fake-tile-run.py --finalists 0 \
// RUN:     --space BLOCK=8,9,10,1 --cache %t2.json -- %s --arg x=f32[8] \
// RUN:   | FileCheck %s --check-prefix=ONCE
// ONCE-NOT:  again
// ONCE:      tile-tune: fastest BLOCK=10 (0.1000 ms)

tile.param BLOCK = 1

func.func @k(%x: !tile.ptr<f32>) attributes {tile.kernel} {
  return
}
