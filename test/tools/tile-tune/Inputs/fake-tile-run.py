#!/usr/bin/env python3
"""Stands in for tile-run in tile-tune's tests (no GPU needed).

--print-tuning-key prints a key; a run with --param settings of BLOCK
prints a median time of 1/BLOCK ms, except BLOCK=3 (exit 1: a wrong
result), BLOCK=5 (exit 2: rejected) and BLOCK=7 (hangs for a minute).
"""
import sys
import time

args = sys.argv[1:]
if "--print-tuning-key" in args:
    print('{"device": "Fake GPU, sm_90, 1 SMs", "source": "xxh3:0", '
          '"kernel": "", "problem": "x=f32[8]"}')
    sys.exit(0)
params = {}
for i, a in enumerate(args):
    if a == "--param":
        name, value = args[i + 1].split("=")
        params[name] = value
block = int(params.get("BLOCK", "1"))
if block == 3:
    print("check y = softmax(x) on the GPU: max rel error 1.0e+00: FAIL")
    sys.exit(1)
if block == 5:
    print("k.mlir:1:1: error: 'tile.range' op result must be a tile with "
          "static power-of-two dimensions", file=sys.stderr)
    sys.exit(2)
if block == 7:
    time.sleep(60)
print("time: mean %.4f ms, median %.4f ms, min 0 ms, std 0 ms over 100 runs"
      % (1.0 / block, 1.0 / block))
