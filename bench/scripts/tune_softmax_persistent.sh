#!/usr/bin/env bash
# Times the persistent softmax row variants (forced through
# TILE_SOFTMAX_VARIANT) with compare.py's timer, Tile only, one line per
# (variant, N); compare with the defaults' rows of a compare.py run.
# Usage: bench/scripts/tune_softmax_persistent.sh [dtypes] (default "f32 f16")
set -uo pipefail
source "$(dirname "$0")/tune_softmax_common.sh"
for t in ${1:-f32 f16}; do
  for v in "r4_b256_w4 256" "r4_b512_w4 512" "r1_b1024_w4 1024" \
           "r1_b2048_w4 2048" "r1_b4096_w8 4096" "r1_b8192_w16 8192" \
           "r1_b16384_w16 12672,16384"; do
    set -- $v
    tune_softmax_run "softmax_rows_${t}_${t}_$1_a16_p" "$t" "$2"
  done
done
