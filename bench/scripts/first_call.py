#!/usr/bin/env python3
"""First-call latency of the library operations: in each of --runs fresh
processes, after torch has created the CUDA context, the wall time of
loading the library through the tile package, of the first tile.softmax
call (kernel lookup, module load, launch, completion) and of the second
(launch and completion only).

  python3 bench/scripts/first_call.py --lib build/lib/libtile.so \\
      [--runs 5] [--rows 4096] [--cols 4096] [--dtype f32]

Prints one line per process and the medians; needs torch (CUDA).
"""

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = r"""
import sys, time
sys.path.insert(0, {scripts!r})
import torch
from compare import TileLib
from pathlib import Path
dtype = {{"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}}[{dtype!r}]
x = torch.randn({rows}, {cols}, device="cuda", dtype=dtype)
torch.cuda.synchronize()
t0 = time.perf_counter()
tile = TileLib(Path({lib!r}))
tile.init(0)
t1 = time.perf_counter()
y = tile.ops.softmax(x)
torch.cuda.synchronize()
t2 = time.perf_counter()
y = tile.ops.softmax(x)
torch.cuda.synchronize()
t3 = time.perf_counter()
ref = torch.softmax(x.float(), dim=-1)
err = ((y.float() - ref).abs().max() / ref.abs().max()).item()
print(f"{{(t1 - t0) * 1e3:.3f}} {{(t2 - t1) * 1e3:.3f}} {{(t3 - t2) * 1e3:.3f}} {{err:.2e}}")
"""


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lib", required=True)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--rows", type=int, default=4096)
    p.add_argument("--cols", type=int, default=4096)
    p.add_argument("--dtype", default="f32", choices=["f32", "f16", "bf16"])
    args = p.parse_args()
    code = CHILD.format(scripts=str(Path(__file__).resolve().parent),
                        dtype=args.dtype, rows=args.rows, cols=args.cols,
                        lib=str(Path(args.lib).resolve()))
    loads, firsts, seconds = [], [], []
    print(f"tile_softmax {args.dtype} {args.rows}x{args.cols}: "
          "load+init ms, first call ms, second call ms, rel. error")
    for run in range(args.runs):
        out = subprocess.run([sys.executable, "-c", code], check=True,
                             capture_output=True, text=True).stdout.split()
        load, first, second, err = float(out[0]), float(out[1]), float(out[2]), out[3]
        if float(err) > 1e-2:
            sys.exit(f"run {run}: error {err} against torch.softmax")
        loads.append(load)
        firsts.append(first)
        seconds.append(second)
        print(f"run {run}: {load:.3f} {first:.3f} {second:.3f} {err}")
    print(f"median: load+init {statistics.median(loads):.3f} ms, first call "
          f"{statistics.median(firsts):.3f} ms, second call "
          f"{statistics.median(seconds):.3f} ms")


if __name__ == "__main__":
    main()
