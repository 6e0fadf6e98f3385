#!/usr/bin/env bash
# Times the softmax cluster kernels (rows split over a thread block cluster,
# forced through TILE_SOFTMAX_VARIANT) with compare.py's timer, Tile only,
# at the row lengths each one holds, next to the online kernel; one line per
# (variant, N). The fastest per row length goes into the dispatcher
# (runtime/src/LibraryOps.cpp, chooseSoftmax). Needs compute capability 9.0.
# Usage: bench/scripts/tune_softmax_cluster.sh [dtypes] (default "f32 f16")
set -uo pipefail
source "$(dirname "$0")/tune_softmax_common.sh"
run() { tune_softmax_run "$@"; } # variant dtype n-list
for t in ${1:-f32 f16}; do
  p="softmax_cluster_${t}_${t}"
  run softmax_online_${t}_${t}_b2048_w8_a16 "$t" 20000,65536,131072,262144
  for v in c4_b8192_w8_a16 c4_b8192_w8_a16_o4 c2_b16384_w16_a16 \
           c2_b16384_w16_a16_o2; do
    run ${p}_${v} "$t" 20000,32768; done
  for v in c8_b8192_w8_a16 c8_b8192_w8_a16_o4 c4_b16384_w16_a16 \
           c4_b16384_w16_a16_o2 c2_b32768_w32_a16; do
    run ${p}_${v} "$t" 49152,65536; done
  for v in c8_b16384_w16_a16 c8_b16384_w16_a16_o2 c4_b32768_w32_a16; do
    run ${p}_${v} "$t" 98304,131072; done
  for v in c8_b32768_w32_a16 c16_b16384_w16_a16_o2; do
    run ${p}_${v} "$t" 196608,262144; done
  run ${p}_c16_b32768_w32_a16 "$t" 393216,524288
  run softmax_online_${t}_${t}_b2048_w8_a16 "$t" 393216,524288
done
