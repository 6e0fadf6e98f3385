// Without a GPU tile-tune says why and writes nothing.
//
// UNSUPPORTED: gpu
// RUN: rm -f %t.json
// RUN: not tile-tune -o %t.json 2>&1 | FileCheck %s
// CHECK: tile-tune: tile_init:
// RUN: not ls %t.json
