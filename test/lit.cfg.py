# -*- Python -*-
# Lit configuration of the Tile project, loaded by the generated
# <build>/test/lit.site.cfg.py (never run lit on the source tree directly).

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "Tile"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tile_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%shlibext", config.llvm_shlib_ext))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
# FileCheck, `| not`, `| count` (and %python), from config.llvm_tools_dir;
# missing ones are fatal.
llvm_config.use_default_substitutions()

# PATH starts with the Tile tools, then the LLVM tools: `not` and `count` at
# the start of a command are LLVM's. (As upstream, they are not substituted as
# bare words, which would also rewrite "not" inside arguments.)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tile_tools_dir, append_path=True)

tool_dirs = [config.tile_tools_dir, config.llvm_tools_dir]
tools = [
    ToolSubst("tile-opt", unresolved="fatal"),
    # The whole compiler (Tile -> PTX/cubin), used by the tests of Target/.
    ToolSubst("tile-compile", unresolved="fatal"),
    # Optional: tests that run it say `REQUIRES: tile-run` (the feature is set
    # below when the tool exists).
    ToolSubst("tile-run", unresolved="ignore"),
    # The library's kernel generator and tuner (tests of their options and
    # inputs; the tuner's measurements need a GPU).
    ToolSubst("tile-kernel-gen", unresolved="fatal"),
    ToolSubst("tile-tune", unresolved="fatal"),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)

if os.path.isfile(os.path.join(config.tile_tools_dir, "tile-run")):
    config.available_features.add("tile-run")

# 'gpu' when this machine has a usable NVIDIA GPU: `nvidia-smi -L` lists one,
# or the CUDA driver loads and reports a device (what tile-run's default
# --mode=gpu needs). Tests of tile-run's no-GPU behaviour (the error of
# --mode=gpu, the fallback message of --mode=auto) say `UNSUPPORTED: gpu`.
def _has_gpu():
    import ctypes
    import shutil
    import subprocess

    smi = shutil.which("nvidia-smi")
    if smi:
        try:
            listed = subprocess.run(
                [smi, "-L"],
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                timeout=60,
            )
            if listed.returncode == 0 and listed.stdout.strip():
                return True
        except (OSError, subprocess.SubprocessError):
            pass
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
        count = ctypes.c_int(0)
        return cuda.cuInit(0) == 0 and (
            cuda.cuDeviceGetCount(ctypes.byref(count)) == 0 and count.value > 0
        )
    except (OSError, AttributeError):
        return False


if _has_gpu():
    config.available_features.add("gpu")

# `tile-compile --format=bin` runs ptxas (found through the CUDA toolkit
# path MLIR was built with, or CUDA_HOME/PATH); tests that produce cubins say
# `REQUIRES: ptxas`.
import shutil

_cuda_home = os.environ.get("CUDA_HOME", "/usr/local/cuda")
if shutil.which("ptxas") or os.path.isfile(
    os.path.join(_cuda_home, "bin", "ptxas")
):
    config.available_features.add("ptxas")
