#!/usr/bin/env bash
# Configures and builds Tile in ./build (or $TILE_BUILD_DIR).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TILE_BUILD_DIR:-$root/build}"

cxx=clang++-22; cc=clang-22
# clang-22 builds the MLIR-heavy files faster and in half the memory of g++.
command -v "$cxx" >/dev/null || { cxx=c++; cc=cc; }

if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit
fi
# Two jobs: the CI machine has 2 cores; MLIR TUs need ~1 GB each.
cmake --build "$build" -j "${TILE_JOBS:-2}"
