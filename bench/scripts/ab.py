#!/usr/bin/env python3
"""Before/after comparison of two Tile builds on one GPU.

Runs compare.py for Tile's providers only, alternating the two builds in
a balanced order (A B B A per round: at calls of a few microseconds the
build that runs first in a pair reads faster or slower by a few percent),
and reports, per point, the median time of each build, the range of its
runs and the ratio A/B (above 1: B is faster), marking the points where
the two builds' ranges do not overlap.

    python3 bench/scripts/ab.py --a-lib old/libtile.so --b-lib new/libtile.so \\
        --only softmax,softmax_matmul --dtypes f32,f16,bf16 --out ab/

``--only`` takes any of softmax, softmax_matmul, matmul and attention
(for attention, compare.py's ``--attention-*`` options pass through).
A build is a library (``--a-lib``) and, for ``--only matmul``, the
directory of its compiled example kernels (``--a-kernels``). Outputs
under ``--out``: each run's CSVs (``a1/``, ``b1/``, ...) and ``ab.csv``.
"""

import argparse
import csv
import math
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# Columns that name a point of each benchmark (besides the provider).
KEYS = {
    "softmax": ["dtype", "M", "N"],
    "softmax_matmul": ["dtype", "precision", "batch", "d1", "d2", "d3"],
    "matmul": ["kernel", "M", "N", "K"],
    "attention": ["dtype", "head_dim", "causal", "batch", "heads", "kv_heads",
                  "seq_q", "seq_k"],
}
TILE_PROVIDERS = {
    "softmax": "tile",
    "softmax_matmul": "tile",
    "matmul": "tile,tile-auto,tile-wgmma,tile-auto-wgmma,tile-hopper,"
              "tile-hopper-tma",
    "attention": "tile",
}


def run(args, build, lib, kernels, only, round_index, passthrough):
    out = Path(args.out) / f"{build}{round_index}"
    cmd = [sys.executable, str(HERE / "compare.py"), "--only", only,
           "--providers", TILE_PROVIDERS[only], "--lib", lib, "--no-plots",
           "--out", str(out)] + passthrough
    if kernels:
        cmd += ["--kernels-dir", kernels]
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)
    times = {}
    with open(out / f"{only}.csv") as f:
        for row in csv.DictReader(f):
            if row.get("ok") not in ("True", "true") or not row.get("ms"):
                continue
            key = tuple([row["provider"]] + [row[k] for k in KEYS[only]])
            times[key] = float(row["ms"])
    return times


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--a-lib", required=True, help="libtile.so of build A")
    p.add_argument("--b-lib", required=True, help="libtile.so of build B")
    p.add_argument("--a-kernels", help="compiled example kernels of A")
    p.add_argument("--b-kernels", help="compiled example kernels of B")
    p.add_argument("--only", default="softmax,softmax_matmul",
                   help="comma-separated benchmarks of compare.py")
    p.add_argument("--rounds", type=int, default=2,
                   help="rounds of A B B A (default 2)")
    p.add_argument("--out", default="ab", help="output directory")
    args, passthrough = p.parse_known_args()

    Path(args.out).mkdir(parents=True, exist_ok=True)
    builds = {"a": (args.a_lib, args.a_kernels),
              "b": (args.b_lib, args.b_kernels)}
    table = []
    for only in args.only.split(","):
        samples = {"a": {}, "b": {}}
        counts = {"a": 0, "b": 0}
        for r in range(args.rounds):
            for build in ("a", "b", "b", "a"):
                counts[build] += 1
                lib, kernels = builds[build]
                times = run(args, build, lib, kernels, only,
                            f"_{only}_{counts[build]}", passthrough)
                for key, ms in times.items():
                    samples[build].setdefault(key, []).append(ms)
        ratios = []
        print(f"\n{only}: median ms of A and B over {2 * args.rounds} runs "
              f"each (lowest-highest), A/B (above 1: B faster; * where the "
              f"two builds' runs do not overlap)")
        for key in sorted(set(samples["a"]) & set(samples["b"]),
                          key=lambda k: [str(x).zfill(12) for x in k]):
            runs_a, runs_b = samples["a"][key], samples["b"][key]
            a = statistics.median(runs_a)
            b = statistics.median(runs_b)
            # A single slow run moves a median of few runs by several
            # percent: a difference counts where the ranges are apart.
            apart = max(runs_a) < min(runs_b) or max(runs_b) < min(runs_a)
            ratios.append(a / b)
            table.append([only] + list(key) + [
                f"{a:.5f}", f"{b:.5f}", f"{a / b:.3f}", f"{min(runs_a):.5f}",
                f"{max(runs_a):.5f}", f"{min(runs_b):.5f}",
                f"{max(runs_b):.5f}", "yes" if apart else "no"])
            print(f"  {' '.join(str(k) for k in key):40s} "
                  f"{a * 1000:10.3f} us ({min(runs_a) * 1000:.3f}-"
                  f"{max(runs_a) * 1000:.3f}) {b * 1000:10.3f} us "
                  f"({min(runs_b) * 1000:.3f}-{max(runs_b) * 1000:.3f})  "
                  f"{a / b:.3f}{' *' if apart else ''}")
        if ratios:
            geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
            print(f"  geometric mean {geo:.4f} over {len(ratios)} points, "
                  f"lowest {min(ratios):.3f}, highest {max(ratios):.3f}")
    with open(Path(args.out) / "ab.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["benchmark", "provider", "point", "a_ms", "b_ms", "a/b",
                    "a_min_ms", "a_max_ms", "b_min_ms", "b_max_ms",
                    "apart"])
        for row in table:
            w.writerow([row[0], row[1], " ".join(row[2:-8])] + row[-8:])


if __name__ == "__main__":
    main()
