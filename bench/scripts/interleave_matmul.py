#!/usr/bin/env python3
"""Times builds of one matmul example kernel against each other, call by call.

Each build is a directory holding one compiled kernel (a .ptx and its
.meta, as tile-compile writes them). Every round times each build once
(the median of 20 calls between CUDA events, L2 flushed before each), in
forward order on even rounds and reverse order on odd ones, so that a
drift of clock or temperature over the run falls on every build alike;
ab.py alternates whole processes instead, and at 8192^3 the GPU's power
state can differ by several percent from one process to the next.

    python3 bench/scripts/interleave_matmul.py --lib build/lib/libtile.so \\
        --kernel matmul_f16_auto --shapes 8192x8192x8192,4096x4096x4096 \\
        --rounds 60 before/ after/

The kernel takes (a, b, c, M, N, K, the six strides) and covers C with
128 x 128 tiles, as examples/matmul_f16_auto.mlir does. Each build's output
is checked against a float32 matmul first (NaN-poisoned output).
Prints, per shape and build, the median over rounds and the ratio of the
first build's median to it (above 1: this build is faster).
"""

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import compare  # noqa: E402
import torch  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--lib", required=True, help="libtile.so (module API)")
    p.add_argument("--kernel", required=True, help="kernel name")
    p.add_argument("--shapes", default="8192x8192x8192",
                   help="comma-separated MxNxK")
    p.add_argument("--rounds", type=int, default=30)
    p.add_argument("builds", nargs="+", help="directories of one .ptx/.meta")
    args = p.parse_args()

    torch.empty(1, device="cuda")  # torch's context first: the primary one
    tile = compare.TileLib(Path(args.lib))
    tile.init(torch.cuda.current_device())
    kernels = {}
    for build in args.builds:
        d = Path(build)
        ptx, meta = next(d.glob("*.ptx")), next(d.glob("*.meta"))
        kernels[build] = tile.load_kernel(ptx, meta, args.kernel)
    stream = compare.stream_handle()
    bench = compare.Bench(warmup=5, reps=20, flush_mib=64)
    print(f"device: {torch.cuda.get_device_name()}")
    for shape in args.shapes.split(","):
        m, n, k = (int(x) for x in shape.split("x"))
        a = torch.randn(m, k, device="cuda", dtype=torch.float16)
        b = torch.randn(k, n, device="cuda", dtype=torch.float16)
        ref = a.float() @ b.float()
        c = torch.empty(m, n, device="cuda", dtype=torch.float16)
        programs = ((m + 127) // 128) * ((n + 127) // 128)

        def call(build):
            return lambda: tile.launch(kernels[build], (programs, 1, 1), [
                ("ptr", a.data_ptr()), ("ptr", b.data_ptr()),
                ("ptr", c.data_ptr()), ("i32", m), ("i32", n), ("i32", k),
                ("i64", a.stride(0)), ("i64", a.stride(1)),
                ("i64", b.stride(0)), ("i64", b.stride(1)),
                ("i64", c.stride(0)), ("i64", c.stride(1))], stream)

        for build in args.builds:
            c.fill_(float("nan"))
            call(build)()
            torch.cuda.synchronize()
            err = compare.rel_error(c, ref)
            if not err <= compare.MATMUL_TOL:
                sys.exit(f"{build} {shape}: relative error {err:.2e}")
        samples = {build: [] for build in args.builds}
        for r in range(args.rounds):
            order = args.builds if r % 2 == 0 else args.builds[::-1]
            for build in order:
                samples[build].append(bench.ms(call(build)))
        first = statistics.median(samples[args.builds[0]])
        for build in args.builds:
            med = statistics.median(samples[build])
            print(f"{shape:16s} {build:24s} {med * 1000:10.1f} us "
                  f"first/this {first / med:.3f}", flush=True)


if __name__ == "__main__":
    main()
