#!/usr/bin/env bash
# The main job: install what is missing, build, compile the softmax example
# with tile-opt and execute it with tile-run on the 1823x781 matrix of
# Triton's fused-softmax tutorial, printing the check against a float64
# reference.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TILE_BUILD_DIR:-$root/build}"

"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"

out="$build/softmax.opt.mlir"
echo "== tile-opt: canonicalize, simplify masks, check resources"
"$build/bin/tile-opt" "$root/examples/softmax.mlir" \
  --canonicalize --cse --tile-simplify-masks --tile-kernel-check=report \
  --mlir-print-op-on-diagnostic=false \
  -o "$out"
echo "== tile-run: softmax of a 1823x781 f32 matrix"
"$build/bin/tile-run" "$out" --grid 1823 \
  --arg y=f32[1823x781] --arg x=f32[1823x781]:randn \
  --arg i32:781 --arg i32:781 --arg i32:1823 --arg i32:781 \
  --check 'y=softmax(x)' --mode=auto
