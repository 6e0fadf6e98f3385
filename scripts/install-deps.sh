#!/usr/bin/env bash
# Installs what building Tile needs on Debian 12, if it is missing:
# LLVM/MLIR 22 (Debian's packages), clang-22, GoogleTest, CMake and Ninja,
# and pytest, torch, pip, setuptools and wheel for the tile package's tests.
set -euo pipefail

need=()
[ -f /usr/lib/llvm-22/lib/cmake/mlir/MLIRConfig.cmake ] || need+=(libmlir-22-dev)
[ -x /usr/lib/llvm-22/bin/mlir-tblgen ] || need+=(mlir-22-tools)
[ -f /usr/lib/llvm-22/lib/cmake/llvm/LLVMConfig.cmake ] || need+=(llvm-22-dev)
[ -x /usr/lib/llvm-22/bin/FileCheck ] || need+=(llvm-22-tools)
[ -x /usr/bin/clang++-22 ] || need+=(clang-22)
[ -f /usr/include/gtest/gtest.h ] || need+=(libgtest-dev)
command -v ninja >/dev/null || need+=(ninja-build)
command -v cmake >/dev/null || need+=(cmake)
command -v python3 >/dev/null || need+=(python3)
# The tile package's tests: Debian's pytest and (CPU-only) torch.
/usr/bin/python3 -c "import pytest" 2>/dev/null || need+=(python3-pytest)
/usr/bin/python3 -c "import torch" 2>/dev/null || need+=(python3-torch)
# Building and installing the package's wheel (python/pyproject.toml).
/usr/bin/python3 -c "import pip" 2>/dev/null || need+=(python3-pip)
/usr/bin/python3 -c "import setuptools" 2>/dev/null || need+=(python3-setuptools)
/usr/bin/python3 -c "import wheel" 2>/dev/null || need+=(python3-wheel)

if [ ${#need[@]} -eq 0 ]; then
  echo "install-deps: everything is present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${need[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
