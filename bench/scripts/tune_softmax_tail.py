"""Softmax at widths between two powers of two: the dispatcher's choice
against every embedded softmax variant that holds the row (forced through
TILE_SOFTMAX_VARIANT, which the library reads on each call), with a copy
of the same bytes and Triton's tutorial kernel, in one process, timed as
compare.py times every provider (10 warm-ups, median of 100 calls, L2
flushed before each). Each forced run is checked against float64 first.
One CSV line per (dtype, N, provider): dtype,N,provider,ms,GBps,rel_error.

  python3 bench/scripts/tune_softmax_tail.py --lib build/install/lib/libtile.so \\
      [--dtypes f32,f16] [--n 768,3000,20000] [--match REGEX] [--out FILE]

--match keeps only the candidates whose name matches (the dispatcher's
choice always runs).
"""
import argparse
import os
import re
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import compare  # noqa: E402  (the shared timer and the library's bindings)

WIDTHS = (384, 640, 768, 1280, 1536, 3000, 5000, 6144, 10000, 12288, 20000,
          24576)


def holding_variants(tile, dname, n):
    """Names of the aligned variants of this dtype (with their `_n16`
    builds, for rows of a multiple of 16 bytes) that may hold rows of n
    columns: row kernels of the next power of two, two-tile row kernels
    (`_t<tail>`) of half of it, cluster kernels (those looping over slices
    at any width beyond 16384), grid kernels (beyond 16384) and the online
    kernel."""
    block = max(32, 1 << (n - 1).bit_length())
    prefix_rows = f"softmax_rows_{dname}_{dname}_"
    names = []
    for i in range(tile.lib.tile_library_kernel_count()):
        name = tile.lib.tile_library_kernel_name(i).decode()
        # Aligned builds (with or without _n16), not the persistent ones.
        if "_a16" not in name or name.endswith("_p"):
            continue
        if name.startswith(prefix_rows):
            fields = dict((f[0], f[1:]) for f in name[len(prefix_rows):]
                          .split("_") if f[:1] in "rbwt")
            b, tail = int(fields["b"]), int(fields.get("t", 0))
            if (tail and 2 * b == block and b + tail >= n) or \
                    (not tail and b == block):
                names.append(name)
        elif name.startswith(f"softmax_online_{dname}_{dname}_"):
            names.append(name)
        elif name.startswith(f"softmax_grid_{dname}_{dname}_") and \
                n > 16384:
            # Slices anywhere in the grid hold any row whose slices can
            # all be resident (the library refuses the others).
            names.append(name)
        elif name.startswith(f"softmax_cluster_{dname}_{dname}_") and \
                n > 16384:
            fields = name[len(f"softmax_cluster_{dname}_{dname}_"):]
            size = int(fields.split("_")[0][1:])
            b = int(fields.split("_")[1][1:])
            # Clusters looping over slices (`_l`) hold any row.
            if name.endswith("_l"):
                names.append(name)
            elif size * b >= n and size * b <= 4 * n:
                names.append(name)
    return names


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--lib", required=True)
    p.add_argument("--dtypes", default="f32,f16")
    p.add_argument("--n", default=",".join(map(str, WIDTHS)))
    p.add_argument("--m", type=int, default=4096)
    p.add_argument("--match", help="only candidates matching this regex")
    p.add_argument("--out", help="CSV path (default: stdout only)")
    args = p.parse_args()
    tile = compare.TileLib(Path(args.lib))
    tile.lib.tile_library_kernel_count.restype = compare.ctypes.c_size_t
    tile.lib.tile_library_kernel_name.restype = compare.ctypes.c_char_p
    tile.lib.tile_library_kernel_name.argtypes = [compare.ctypes.c_size_t]
    tile.init(0)
    bench = compare.Bench(10, 100, 256)
    stream = compare.stream_handle()
    lines = ["dtype,N,provider,ms,GBps,rel_error"]

    def record(dname, n, provider, ms, nbytes, err):
        gbps = nbytes / (ms * 1e-3) / 1e9
        lines.append(f"{dname},{n},{provider},{ms:.4f},{gbps:.0f},{err:.2e}")
        print(lines[-1], flush=True)

    for dname in args.dtypes.split(","):
        dtype = compare.DTYPES[dname]
        for n in (int(v) for v in args.n.split(",")):
            x = torch.randn(args.m, n, device="cuda", dtype=dtype)
            y = torch.empty_like(x)
            nbytes = 2 * x.numel() * x.element_size()
            ref = torch.softmax(x[:256].double(), dim=-1)
            record(dname, n, "copy", bench.ms(lambda: y.copy_(x)), nbytes, 0)
            # (Triton's row-per-program kernel: rows up to 131072, as in
            # compare.py.)
            if compare.HAVE_TRITON and n <= 131072:
                ms = bench.ms(lambda: compare.triton_softmax(x, y))
                record(dname, n, "triton", ms, nbytes,
                       compare.rel_error(y[:256], ref))
            os.environ.pop("TILE_SOFTMAX_VARIANT", None)
            candidates = ["dispatch:" + tile.softmax_variant(y, x)]
            candidates += [c for c in holding_variants(tile, dname, n)
                           if not args.match or re.search(args.match, c)]
            for cand in candidates:
                if not cand.startswith("dispatch:"):
                    os.environ["TILE_SOFTMAX_VARIANT"] = cand
                y.fill_(float("nan"))
                try:
                    tile.softmax(y, x, stream)
                    torch.cuda.synchronize()
                except compare.TileError as exc:
                    print(f"{dname},{n},{cand},failed: {exc}", flush=True)
                    continue
                err = compare.rel_error(y[:256], ref)
                ms = bench.ms(lambda: tile.softmax(y, x, stream))
                record(dname, n, cand, ms, nbytes, err)
            os.environ.pop("TILE_SOFTMAX_VARIANT", None)
    if args.out:
        Path(args.out).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
