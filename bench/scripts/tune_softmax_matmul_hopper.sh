#!/usr/bin/env bash
# f16 softmax(X) @ V on Hopper: the dispatcher's mma.sync tile against the
# sm_90a builds (wgmma, name ending in _h) of the pipelined tiles, forced
# through TILE_SOFTMAX_MATMUL_VARIANT, on seed 001's shape at d2 = 512 and
# 8192; one line per variant (d2,ms pairs). The fastest goes into
# chooseSoftmaxMatmul (runtime/src/LibraryOps.cpp). Compute capability 9.0
# only. Usage: bench/scripts/tune_softmax_matmul_hopper.sh [dtype] [d2 list]
# [precision] (f32 with tf32: the transposed-V tf32 builds).
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bench="${TILE_BENCH:-$root/build/bin/tile-softmax-matmul-bench}"
dtype="${1:-f16}"
d2="${2:-512,8192}"
precision="${3:-ieee}"
tiles="${TILE_TUNE_TILES:-m64_k32_n128_w4_s2 m64_k32_n128_w4_s2_h m64_k32_n128_w4_s3_h m64_k32_n128_w4_s2_o4_h m128_k32_n128_w8_s2_h m128_k32_n128_w8_s3_h m64_k32_n256_w4_s2_h m64_k32_n256_w4_s3_h m128_k32_n256_w8_s2_h m128_k32_n256_w8_s3_h m64_k64_n64_w4_s2_h}"
for t in $tiles; do
  variant="softmax_matmul_${dtype}_${precision}_$t"
  if ! TILE_SOFTMAX_MATMUL_VARIANT=$variant "$bench" --dtype="$dtype" \
      --precision="$precision" --blocks=none --d2="$d2" --warmup=3 --passes=10 \
      --out=/tmp/tune.csv > /tmp/tune.log 2>&1; then
    echo "$variant FAILED: $(tail -1 /tmp/tune.log)"
    continue
  fi
  echo "$variant $(tail -n +2 /tmp/tune.csv | cut -d, -f3,7 | tr '\n' ' ')"
done
