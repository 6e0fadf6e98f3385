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

tile.param BLOCK = 1

func.func @k(%x: !tile.ptr<f32>) attributes {tile.kernel} {
  return
}
