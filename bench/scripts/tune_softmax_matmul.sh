#!/usr/bin/env bash
# Times every embedded softmax-matmul variant (forced through
# TILE_SOFTMAX_MATMUL_VARIANT) on seed 001's shape at a few d2 and prints
# one line per variant; the fastest per (dtype, precision) goes into the
# table in runtime/src/LibraryOps.cpp (chooseSoftmaxMatmul).
# Usage: bench/scripts/tune_softmax_matmul.sh [d2 list] (default 512,8192)
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bench="${TILE_BENCH:-$root/build/bin/tile-softmax-matmul-bench}"
d2="${1:-512,8192}"
tiles="${TILE_TUNE_TILES:-m16_k16_n64_w4 m32_k32_n64_w4 m64_k64_n64_w4 m32_k32_n128_w4 m64_k32_n128_w8 m64_k32_n256_w8 m128_k32_n64_w4 m64_k32_n128_w4 m128_k32_n128_w8}"
for cfg in "f32 tf32" "f32 tf32x3" "f16 ieee" "bf16 ieee"; do
  set -- $cfg
  for t in $tiles; do
    variant="softmax_matmul_$1_$2_$t"
    TILE_SOFTMAX_MATMUL_VARIANT=$variant "$bench" --dtype=$1 --precision=$2 \
      --blocks=none --d2=$d2 --warmup=3 --passes=10 --out=/tmp/tune.csv > /tmp/tune.log 2>&1
    echo "$variant $(tail -n +2 /tmp/tune.csv | cut -d, -f3,7 | tr '\n' ' ')"
  done
done
