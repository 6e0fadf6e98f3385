#!/usr/bin/env python3
"""Stands in for tile-run in tile-tune's tests (no GPU needed).

--print-tuning-key prints a key; a run with --param settings of BLOCK
prints a median time of 1/BLOCK ms, except BLOCK=3 (exit 1: a wrong
result), BLOCK=5 (exit 2: rejected), BLOCK=7 (hangs for a minute) and,
with FAKE_TILE_RUN_LOG naming a file, BLOCK=9 and BLOCK=10: BLOCK=9 is
timed at 0.12 ms its first time and 0.2 ms later (a lucky first timing),
BLOCK=10 fails its second run. Every run appends its BLOCK to the file.
"""
import os
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
ms = 1.0 / block
log = os.environ.get("FAKE_TILE_RUN_LOG")
if log:
    with open(log, "a+") as f:
        f.seek(0)
        runs = f.read().split().count(str(block))
        f.write(f"{block}\n")
    if block == 9:
        ms = 0.12 if runs == 0 else 0.2
    if block == 10 and runs == 1:
        print("check y = softmax(x) on the GPU: max rel error 1.0e+00: FAIL")
        sys.exit(1)
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
      % (ms, ms))
