#!/usr/bin/env bash
# Times softmax row-kernel variants (forced through TILE_SOFTMAX_VARIANT)
# with compare.py's timer, Tile only, at the row lengths each variant
# serves; one line per (variant, N). The fastest per (dtype, width) goes
# into the dispatcher (runtime/src/LibraryOps.cpp, chooseSoftmax).
# Usage: bench/scripts/tune_softmax.sh [dtypes] (default "f32 f16")
set -uo pipefail
source "$(dirname "$0")/tune_softmax_common.sh"
run() { tune_softmax_run "$@"; } # variant dtype n-list
for t in ${1:-f32 f16}; do
  p="softmax_rows_${t}_${t}"
  run ${p}_r1_b1024_w4_a16 "$t" 1024
  run ${p}_r4_b1024_w4_a16 "$t" 1024
  run ${p}_r1_b2048_w4_a16 "$t" 2048
  run ${p}_r1_b2048_w2_a16 "$t" 2048
  run ${p}_r1_b4096_w8_a16 "$t" 4096
  run ${p}_r1_b4096_w4_a16 "$t" 4096
  run ${p}_r1_b8192_w16_a16 "$t" 8192
  run ${p}_r1_b8192_w8_a16 "$t" 8192
  run ${p}_r1_b16384_w16_a16 "$t" 12672,16384
  run ${p}_r1_b16384_w8_a16 "$t" 12672,16384
  run ${p}_r1_b32768_w32_a16 "$t" 32768
  run ${p}_r1_b32768_w16_a16 "$t" 32768
done
