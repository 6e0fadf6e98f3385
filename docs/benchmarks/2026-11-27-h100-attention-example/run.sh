#!/bin/bash
# examples/attention.mlir on the GPU: against the float64 reference at small
# sizes (GQA, ragged, causal, rows with no visible key), then timed.
cd "$(dirname "$0")/../.."
T=build/gpurun/tile-run
R=test/tools/tile-run/Inputs/attention-reference.mlir
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
BHSD="--arg q=f16[2x4x100x64]:randn --arg k=f16[2x2x150x64]:randn --arg v=f16[2x2x150x64]:randn --arg o=f16[2x4x100x64] --arg lse=f32[2x4x100] --arg i32:100 --arg i32:150 --arg i32:4 --arg i32:2 --arg i64:25600 --arg i64:6400 --arg i64:64 --arg i64:19200 --arg i64:9600 --arg i64:64 --arg i64:19200 --arg i64:9600 --arg i64:64 --arg i64:25600 --arg i64:6400 --arg i64:64 --arg f32:0.125"
MOREQ="--arg q=f16[2x4x150x64]:randn --arg k=f16[2x2x100x64]:randn --arg v=f16[2x2x100x64]:randn --arg o=f16[2x4x150x64] --arg lse=f32[2x4x150] --arg i32:150 --arg i32:100 --arg i32:4 --arg i32:2 --arg i64:38400 --arg i64:9600 --arg i64:64 --arg i64:12800 --arg i64:6400 --arg i64:64 --arg i64:12800 --arg i64:6400 --arg i64:64 --arg i64:38400 --arg i64:9600 --arg i64:64 --arg f32:0.125"
echo "== non-causal, GQA, ragged"; $T examples/attention.mlir --grid '${cdiv(100, BLOCK_M)},4,2' $BHSD --reference $R
echo "== causal"; $T examples/attention.mlir --param CAUSAL=true --reference-param CAUSAL=true --grid '${cdiv(100, BLOCK_M)},4,2' $BHSD --reference $R
echo "== causal, more queries than keys"; $T examples/attention.mlir --param CAUSAL=true --reference-param CAUSAL=true --grid '${cdiv(150, BLOCK_M)},4,2' $MOREQ --reference $R
for cfg in "64 4 false" "64 4 true" "128 8 false" "128 8 true"; do
  read D W C <<< "$cfg"
  B=4; H=16; S=4096
  SH=$((S*D)); SB=$((H*SH))
  echo "== timed: batch $B heads $H seq $S head_dim $D causal $C (NUM_WARPS=$W)"
  $T examples/attention.mlir --param HEAD_DIM=$D,NUM_WARPS=$W,CAUSAL=$C --compare=false --bench=20 \
    --grid "$((S/64)),$H,$B" --arg q=f16[${B}x${H}x${S}x${D}]:randn --arg k=f16[${B}x${H}x${S}x${D}]:randn \
    --arg v=f16[${B}x${H}x${S}x${D}]:randn --arg o=f16[${B}x${H}x${S}x${D}] --arg lse=f32[${B}x${H}x${S}] \
    --arg i32:$S --arg i32:$S --arg i32:$H --arg i32:1 \
    --arg i64:$SB --arg i64:$SH --arg i64:$D --arg i64:$SB --arg i64:$SH --arg i64:$D \
    --arg i64:$SB --arg i64:$SH --arg i64:$D --arg i64:$SB --arg i64:$SH --arg i64:$D --arg f32:0.125 2>&1 | grep -v "^compare"
done
