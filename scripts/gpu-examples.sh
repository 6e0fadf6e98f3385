#!/usr/bin/env bash
# Runs every example kernel through tile-run on the GPU: in-process
# compilation, launch through the CUDA driver, comparison of every buffer
# with the interpreter, the float64 check, and the kernel time.
# TILE_RUN selects the binary (e.g. a static build for a machine without
# LLVM); extra arguments go to every tile-run call (e.g. --mode=auto).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
run="${TILE_RUN:-$root/build/bin/tile-run}"
ex="$root/examples"
status=0
step() { echo; echo "== $*"; }
go() { "$run" "$@" || status=1; }

step "vector_add, n = 1,000,003"
go "$ex/vector_add.mlir" --grid 977 --arg x=f32[1000003] --arg y=f32[1000003] \
  --arg z=f32[1000003] --arg i32:1000003 --check 'z=add(x,y)' --bench 100 "${@}"

step "softmax, the fused-softmax tutorial's 1823 x 781"
go "$ex/softmax.mlir" --grid 1823 --arg y=f32[1823x781] --arg x=f32[1823x781] \
  --arg i32:781 --arg i32:781 --arg i32:1823 --arg i32:781 \
  --check 'y=softmax(x)' --bench 100 "${@}"

step "softmax, 4096 x 1024 (row strides divisible by 16: vectorized)"
go "$ex/softmax.mlir" --grid 4096 --arg y=f32[4096x1024] --arg x=f32[4096x1024] \
  --arg i32:1024 --arg i32:1024 --arg i32:4096 --arg i32:1024 \
  --check 'y=softmax(x)' --bench 100 "${@}"

step "online_softmax, 64 x 12672"
go "$ex/online_softmax.mlir" --grid 64 --arg y=f32[64x12672] \
  --arg x=f32[64x12672] --arg i32:12672 --arg i32:12672 --arg i32:12672 \
  --check 'y=softmax(x)' --bench 100 "${@}"

step "softmax_cluster, 4096 x 3001 (rows over clusters of 4; sm_90 and later)"
go "$ex/softmax_cluster.mlir" --grid 16384 --arg y=f32[4096x3001] \
  --arg x=f32[4096x3001] --arg i32:3001 --arg i32:3001 --arg i32:4096 \
  --arg i32:3001 --check 'y=softmax(x)' --bench 100 "${@}"

step "softmax_matmul, batch 3, d1 100, d2 333, d3 50 (not multiples of blocks)"
go "$ex/softmax_matmul.mlir" --grid 7,3 --arg x=f32[3x100x333] \
  --arg v=f32[3x333x50] --arg o=f32[3x100x50] --arg i32:100 --arg i32:333 \
  --arg i32:50 --arg i32:33300 --arg i32:333 --arg i32:1 --arg i32:16650 \
  --arg i32:50 --arg i32:1 --arg i32:5000 --arg i32:50 --arg i32:1 \
  --check 'o=softmax_matmul(x,v)' --bench 100 "${@}"

for k in matmul matmul_leaky_relu; do
  step "$k, 300 x 200 x 100"
  go "$ex/matmul.mlir" --kernel $k --grid 70 --arg a=f32[300x100] \
    --arg b=f32[100x200] --arg c=f32[300x200] --arg i32:300 --arg i32:200 \
    --arg i32:100 --arg i32:100 --arg i32:1 --arg i32:200 --arg i32:1 \
    --arg i32:200 --arg i32:1 --check "c=$k(a,b)" --bench 100 "${@}"
done

for k in matmul_f16 matmul_f16_leaky_relu; do
  step "$k, 1000 x 700 x 300 (pipelined, tensor cores)"
  go "$ex/matmul_f16.mlir" --kernel $k --grid 48 --arg a=f16[1000x300] \
    --arg b=f16[300x700] --arg c=f16[1000x700] --arg i32:1000 --arg i32:700 \
    --arg i32:300 --arg i64:300 --arg i64:1 --arg i64:700 --arg i64:1 \
    --arg i64:700 --arg i64:1 --check "c=${k%_f16*}${k#matmul_f16}(a,b)" \
    --bench 100 "${@}"
done

step "matmul_f16_auto, 1000 x 700 x 300 (pipelined by the compiler)"
go "$ex/matmul_f16_auto.mlir" --grid 48 --arg a=f16[1000x300] \
  --arg b=f16[300x700] --arg c=f16[1000x700] --arg i32:1000 --arg i32:700 \
  --arg i32:300 --arg i64:300 --arg i64:1 --arg i64:700 --arg i64:1 \
  --arg i64:700 --arg i64:1 --check "c=matmul(a,b)" --bench 100 "${@}"

for k in matmul_f16_hopper matmul_f16_hopper_leaky_relu; do
  step "$k, 1000 x 700 x 300 (128 x 256 tiles; wgmma on sm_90a)"
  check=matmul
  [ "$k" = matmul_f16_hopper_leaky_relu ] && check=matmul_leaky_relu
  go "$ex/matmul_f16_hopper.mlir" --kernel $k --grid 24 \
    --arg a=f16[1000x300] --arg b=f16[300x700] --arg c=f16[1000x700] \
    --arg i32:1000 --arg i32:700 --arg i32:300 --arg i64:300 --arg i64:1 \
    --arg i64:700 --arg i64:1 --arg i64:700 --arg i64:1 \
    --check "c=$check(a,b)" --bench 100 "${@}"
done

echo
[ $status -eq 0 ] && echo "ALL EXAMPLES PASSED" || echo "SOME EXAMPLES FAILED"
exit $status
