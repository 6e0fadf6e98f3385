#!/bin/bash
# Runs the scan and atomic test kernels on the GPU at every size that takes a
# distinct path of the lowering; tile-run compares each with the interpreter.
cd "$(dirname "$0")/../.."
T=build/gpurun/tile-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
fail=0
for p in 4,8,1 2,1024,4 1,4096,8 64,4,4 128,8,4 2,16,4 256,2,2 64,128,16 32,256,16; do
  IFS=, read R C W <<< "$p"
  echo "== scan-kinds ROWS=$R COLS=$C NUM_WARPS=$W"
  $T test/tools/tile-run/Inputs/scan-kinds.mlir --param ROWS=$R,COLS=$C,NUM_WARPS=$W \
    --arg x=f32[${R}x${C}]:randn --arg o=f32[7x${R}x${C}] --arg h=f16[${R}x${C}] \
    --arg n=i32[$((2*R+1))x${C}] --arg r=f32[$R] --grid 1 || fail=1
done
for p in 8,4,1,2 256,16,4,256 32,16,4,256 64,8,8,512; do
  IFS=, read N B W G <<< "$p"
  TOT=$((N*G))
  echo "== atomic-kinds N=$N BINS=$B NUM_WARPS=$W grid $G"
  $T test/tools/tile-run/Inputs/atomic-kinds.mlir --param N=$N,BINS=$B,NUM_WARPS=$W --grid $G \
    --arg sum=f32[$B]:zeros --arg count=i32[$B]:zeros --arg max=i32[$B]:zeros \
    --arg "min=i32[$B]:fill(1000000)" --arg "fmax=f32[$B]:fill(-inf)" --arg bits=i32[$B]:zeros \
    --arg half=f16[$B]:zeros --arg y=f32[$TOT]:iota --arg y_old=f32[$TOT] \
    --arg z=i32[$TOT]:iota --arg z_old=i32[$TOT] --print count || fail=1
done
echo "fail=$fail"
