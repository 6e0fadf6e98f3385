#!/usr/bin/env python3
"""Host overhead per call of Tile's operations through the tile package,
against the C API called directly.

Times, on the host, each call of an operation on tiny tensors (a few
microseconds of GPU work, so that the host's share is what is measured),
through each of these paths:

* ``c-api``: the C function (tile_softmax, tile_softmax_matmul,
  tile_attention) through ctypes with every argument precomputed: the
  output allocated once, data pointers, stride arrays and the stream
  handle computed once; what is left is the ctypes call and the library's
  own checks and launch. The floor for a call from Python.
* ``package-kernel``: tile._kernels.<op>, the package's call below its
  argument checks and below torch's dispatcher: the output's allocation,
  the layout checks, the argument packing and the library call.
* ``package``: tile.softmax / tile.softmax_matmul / tile.attention, what
  users call: the argument checks, then the torch custom operator (torch
  2.4 or later: dispatcher, autograd wrapper, CUDA kernel) or, on older
  torch, the kernel call.
* ``torch``: PyTorch's own operation for reference: torch.softmax,
  torch.softmax(x, -1) @ v (two kernels) and
  F.scaled_dot_product_attention.

Each path runs --warmup calls, then --calls calls in batches of --batch:
the device is synchronized before each batch (outside the timing) so that
launches never wait for a full queue, and each call is timed alone with
time.perf_counter_ns. The table gives the median, the 10th and 90th
percentiles in microseconds and the median's excess over ``c-api``; one
synchronize ends the run, and each path's output is checked once against
torch's.

    python3 bench/scripts/overhead.py [--lib build/lib/libtile.so] \\
        [--calls 5000] [--out outputs/overhead.csv]

Writes the table as CSV to --out (default outputs/overhead.csv); needs
torch with a CUDA device.
"""

from __future__ import annotations

import argparse
import csv
import gc
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import compare  # noqa: E402  (the library's loading, through the package)
from optional_imports import TORCH_ERROR, F, torch  # noqa: E402

COLUMNS = ["op", "path", "shape", "dtype", "calls", "median_us", "p10_us",
           "p90_us", "over_c_api_us", "torch", "custom_ops", "device"]


def time_calls(call, calls: int, warmup: int, batch: int) -> list[float]:
    """Microseconds of each of `calls` calls of `call`, timed alone."""
    for _ in range(warmup):
        call()
    torch.cuda.synchronize()
    gc.collect()
    times = []
    clock = time.perf_counter_ns
    while len(times) < calls:
        torch.cuda.synchronize()
        for _ in range(min(batch, calls - len(times))):
            start = clock()
            call()
            times.append((clock() - start) / 1e3)
    torch.cuda.synchronize()
    return times


def checked(name: str, fn):
    """`fn` raising RuntimeError when the C function it calls fails."""
    def call():
        status = fn()
        if status:
            raise RuntimeError(f"{name}: status {status}")
    return call


def softmax_paths(tile, lib, stream):
    x = torch.randn(8, 128, device="cuda")
    y = torch.empty_like(x)
    code = compare.TILE_DTYPE[x.dtype]
    c_fn = lib.tile_softmax
    c_args = (y.data_ptr(), code, y.stride(0), x.data_ptr(), code,
              x.stride(0), x.size(0), x.size(1), stream)
    kernels = compare.tile_kernels
    paths = {
        "c-api": checked("tile_softmax", lambda: c_fn(*c_args)),
        "package-kernel": lambda: kernels.softmax(x, 1),
        "package": lambda: tile.ops.softmax(x),
        "torch": lambda: torch.softmax(x, -1),
    }
    outputs = {"c-api": lambda: y}
    return "softmax", "8x128", "f32", paths, outputs


def softmax_matmul_paths(tile, lib, stream):
    x = torch.randn(1, 16, 64, device="cuda")
    v = torch.randn(1, 64, 64, device="cuda")
    out = torch.empty(1, 16, 64, device="cuda")
    S = compare.tile_library.strides
    strides = [S(t.stride()) for t in (out, x, v)]
    c_fn = lib.tile_softmax_matmul
    c_args = (out.data_ptr(), strides[0], x.data_ptr(), strides[1],
              v.data_ptr(), strides[2], compare.TILE_DTYPE[x.dtype], 1, 16,
              64, 64, compare.TILE_PRECISION["ieee"], stream)
    kernels = compare.tile_kernels
    paths = {
        "c-api": checked("tile_softmax_matmul", lambda: c_fn(*c_args)),
        "package-kernel": lambda: kernels.softmax_matmul(x, v, "ieee"),
        "package": lambda: tile.ops.softmax_matmul(x, v, precision="ieee"),
        "torch": lambda: torch.softmax(x, -1) @ v,
    }
    outputs = {"c-api": lambda: out}
    return "softmax_matmul", "1x16x64x64", "f32 ieee", paths, outputs


def attention_paths(tile, lib, stream):
    q, k, v = (torch.randn(1, 2, 16, 64, device="cuda", dtype=torch.float16)
               for _ in range(3))
    out = torch.empty_like(q)
    S = compare.tile_library.strides
    strides = [S(t.stride()) for t in (out, q, k, v)]
    c_fn = lib.tile_attention
    c_args = (out.data_ptr(), strides[0], q.data_ptr(), strides[1],
              k.data_ptr(), strides[2], v.data_ptr(), strides[3], 0,
              compare.TILE_DTYPE[q.dtype], 1, 2, 2, 16, 16, 64, 0.125, 1,
              stream)
    kernels = compare.tile_kernels
    paths = {
        "c-api": checked("tile_attention", lambda: c_fn(*c_args)),
        "package-kernel": lambda: kernels.attention(q, k, v, True, None,
                                                    False)[0],
        "package": lambda: tile.ops.attention(q, k, v, causal=True),
        "torch": lambda: F.scaled_dot_product_attention(q, k, v,
                                                        is_causal=True),
    }
    outputs = {"c-api": lambda: out}
    return "attention", "1x2x16x64", "f16 causal", paths, outputs


def component_paths():
    """What the package's kernel layer does around the C call, each alone:
    the output's allocation, the current device and stream queries, the
    stride arrays, the data pointer, the layout checks (a breakdown of
    ``package-kernel`` minus ``c-api``)."""
    q = torch.randn(1, 2, 16, 64, device="cuda", dtype=torch.float16)
    kernels = compare.tile_kernels
    S = compare.tile_library.strides
    return {
        "empty_like (cuda)": lambda: torch.empty_like(q),
        "new_empty 0 elements (cuda)":
            lambda: q.new_empty((0,), dtype=torch.float32),
        "current device": lambda: kernels._on_device(q),
        "current stream": lambda: kernels._stream(q),
        "stride array": lambda: S(q.stride()),
        "data_ptr": lambda: q.data_ptr(),
        "unit-stride check": lambda: kernels._unit_last(q),
        "library init": lambda: compare.tile_library.init(q.device.index),
    }


def check_outputs(op, paths, outputs):
    """Every path's output against torch's (a wrong call would make its
    timing meaningless)."""
    results = {}
    for name, call in paths.items():
        got = call()
        results[name] = outputs[name]() if name in outputs else got
    torch.cuda.synchronize()
    ref = results["torch"].double()
    for name, got in results.items():
        err = (got.double() - ref).abs().max().item()
        if not err <= 2e-3:
            sys.exit(f"overhead.py: {op} {name}: output differs from "
                     f"torch's by {err:.2e}")


def print_table(rows):
    shown = ["op", "path", "median_us", "p10_us", "p90_us", "over_c_api_us"]
    cells = [[f"{r[c]:.2f}" if isinstance(r[c], float) else str(r[c])
              for c in shown] for r in rows]
    widths = [max(len(c), *(len(row[i]) for row in cells))
              for i, c in enumerate(shown)]
    print("  ".join(c.rjust(w) for c, w in zip(shown, widths)))
    for row in cells:
        print("  ".join(v.rjust(w) for v, w in zip(row, widths)))


def main(argv=None):
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--lib", help="path of libtile.so (default: as "
                   "compare.py: build/lib/libtile.so under the current "
                   "directory or the repository)")
    p.add_argument("--calls", type=int, default=5000,
                   help="timed calls per path (default 5000)")
    p.add_argument("--warmup", type=int, default=200,
                   help="calls before the timed ones (default 200)")
    p.add_argument("--batch", type=int, default=100,
                   help="calls between two synchronizations (default 100)")
    p.add_argument("--out", default="outputs/overhead.csv",
                   help="CSV file to write (default outputs/overhead.csv)")
    args = p.parse_args(argv)
    if args.calls < 10 or args.batch < 1 or args.warmup < 0:
        p.error("--calls must be >= 10, --batch >= 1, --warmup >= 0")
    if torch is None:
        sys.exit(f"overhead.py needs PyTorch with CUDA ({TORCH_ERROR})")
    if not torch.cuda.is_available():
        sys.exit("overhead.py: torch.cuda is not available")

    torch.manual_seed(0)
    device = torch.cuda.current_device()
    torch.empty(1, device="cuda")  # torch's context first: the primary one
    lib_path = compare.find_library(args.lib)
    try:
        tile = compare.TileLib(lib_path)
        tile.init(device)
    except (OSError, compare.TileError) as exc:
        sys.exit(f"overhead.py: cannot use {lib_path}: {exc}")
    custom_ops = compare.tile_package._torch_ops.CUSTOM_OPS
    name = torch.cuda.get_device_name(device)
    print(f"device: {name}; torch {torch.__version__}; python "
          f"{platform.python_version()}; custom operators: "
          f"{'yes' if custom_ops else 'no (torch < 2.4)'}; libtile: "
          f"{lib_path}")
    print(f"{args.calls} calls per path after {args.warmup} warm-ups, "
          f"synchronized every {args.batch}; microseconds per call\n")

    stream = compare.stream_handle()
    rows = []
    with torch.no_grad():
        for make in (softmax_paths, softmax_matmul_paths, attention_paths):
            op, shape, dtype, paths, outputs = make(tile, tile.lib, stream)
            check_outputs(op, paths, outputs)
            medians = {}
            for path, call in paths.items():
                times = time_calls(call, args.calls, args.warmup, args.batch)
                deciles = statistics.quantiles(times, n=10)
                medians[path] = statistics.median(times)
                rows.append(dict(
                    op=op, path=path, shape=shape, dtype=dtype,
                    calls=len(times), median_us=medians[path],
                    p10_us=deciles[0], p90_us=deciles[-1],
                    over_c_api_us=medians[path] - medians["c-api"],
                    torch=torch.__version__, custom_ops=custom_ops,
                    device=name))
        components = component_paths()
        for path, call in components.items():
            times = time_calls(call, args.calls, args.warmup, args.batch)
            deciles = statistics.quantiles(times, n=10)
            rows.append(dict(
                op="component", path=path, shape="1x2x16x64", dtype="f16",
                calls=len(times), median_us=statistics.median(times),
                p10_us=deciles[0], p90_us=deciles[-1], over_c_api_us=0.0,
                torch=torch.__version__, custom_ops=custom_ops, device=name))
    print_table(rows)

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(COLUMNS)
        for r in rows:
            writer.writerow([f"{r[c]:.3f}" if isinstance(r[c], float)
                             else r[c] for c in COLUMNS])
    print(f"\nwrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
