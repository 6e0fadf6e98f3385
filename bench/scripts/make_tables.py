#!/usr/bin/env python3
"""Markdown tables (for docs/benchmarks.md) from compare.py's CSVs.

Reads, from --dir (default outputs/): device.csv, softmax.csv,
softmax_matmul.csv and, when present, softmax_matmul_benchmark.csv (written
by tile-softmax-matmul-bench). Writes markdown to stdout or --out:

* softmax GB/s at selected N per provider, Tile's ratio to each peer
  (tile GB/s / peer GB/s: above 1, Tile is faster) and the fraction of the
  device's copy bandwidth;
* softmax(X) @ V milliseconds per d2 per provider and precision, with
  speed-ups of Tile over each peer of the same precision (peer ms / tile ms:
  above 1, Tile is faster), then peak memory per d2;
* the checks: largest error per provider and anything above tolerance;
* with matmul.csv (compare.py --only matmul), the f16 matmul per shape:
  cuBLAS against the Hopper example's TMA and cp.async kernels and the
  older builds, and what the fused leaky ReLU costs each;
* with copy_at_size.csv (copy_at_size.py) next to softmax.csv, a copy of
  the softmax's bytes at each N and Tile's and Triton's time against it.

Standard library only; missing files or values are reported, not fatal.

Usage::

    python3 bench/scripts/make_tables.py --dir outputs > tables.md
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
from pathlib import Path

DEFAULT_N = [256, 1024, 4096, 12672, 32768, 131072, 1048576]
NA = {"", "<NA>", "NA", "nan", "NaN", "None"}


def read_csv(path):
    if not path.exists():
        return None
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(value):
    """float of a CSV cell, None when missing."""
    if value is None or value.strip() in NA:
        return None
    try:
        v = float(value)
    except ValueError:
        return None
    return None if math.isnan(v) else v


def fmt(value, spec):
    return "n/a" if value is None else format(value, spec)


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def table(header, rows):
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join("---" if i == 0 else "---:"
                          for i in range(len(header))) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def ordered(values):
    return list(dict.fromkeys(values))


def softmax_section(rows, copy_gbps, selected_n):
    out = []
    peers_order = ["torch", "torch-naive", "triton"]
    for dtype in ordered(r["dtype"] for r in rows):
        subset = [r for r in rows if r["dtype"] == dtype]
        providers = ordered(r["provider"] for r in subset)
        peers = [p for p in peers_order if p in providers] + [
            p for p in providers if p not in peers_order and p != "tile"]
        shown = [p for p in providers if p != "tile"] + (
            ["tile"] if "tile" in providers else [])
        by_key = {(r["provider"], int(r["N"])): r for r in subset}
        header = ["N", "M"] + [f"{p} GB/s" for p in shown]
        if "tile" in providers:
            header += [f"tile/{p}" for p in peers]
            if copy_gbps:
                header += ["tile of copy"]
        if copy_gbps:
            header += ["best peer of copy"]
        body, missing = [], []
        for n in selected_n:
            present = [by_key.get((p, n)) for p in shown]
            if not any(present):
                missing.append(n)
                continue
            m = next(r["M"] for r in present if r)
            gbps = {p: num(by_key[(p, n)].get("GB/s"))
                    if (p, n) in by_key else None for p in shown}
            line = [str(n), m] + [fmt(gbps[p], ".0f") for p in shown]
            if "tile" in providers:
                line += [fmt(ratio(gbps["tile"], gbps[p]), ".2f")
                         for p in peers]
                if copy_gbps:
                    line.append(fmt(ratio(gbps["tile"], copy_gbps), ".2f"))
            if copy_gbps:
                best = max((gbps[p] for p in peers if gbps[p] is not None),
                           default=None)
                line.append(fmt(ratio(best, copy_gbps), ".2f"))
            body.append(line)
        out.append(f"### Softmax, {dtype}: GB/s (2·M·N·bytes / time)\n")
        out.append(table(header, body))
        notes = ["", "tile/peer: Tile's GB/s over the peer's (above 1: Tile "
                 "is faster)."]
        if copy_gbps:
            notes.append(f"Fractions are of the copy bandwidth measured in "
                         f"the same run ({copy_gbps:.0f} GB/s).")
        reduced = sorted({int(r["N"]) for r in subset
                          if "M reduced" in (r.get("note") or "")
                          and int(r["N"]) in selected_n})
        if reduced:
            notes.append("M was reduced to fit device memory at N = "
                         + ", ".join(map(str, reduced)) + ".")
        failed = [(r["provider"], r["N"], r.get("note") or "")
                  for r in subset if num(r.get("GB/s")) is None
                  and int(r["N"]) in selected_n]
        for p, n, why in failed:
            notes.append(f"n/a: {p} at N = {n}: {why or 'no value'}.")
        if missing:
            notes.append("Not measured in this run: N = "
                         + ", ".join(map(str, missing)) + ".")
        out.append("\n".join(notes) + "\n")
    return "\n".join(out)


def sm_label(r):
    return f"{r['provider']} ({r['precision']})"


def softmax_matmul_section(rows):
    out = []
    for dtype in ordered(r["dtype"] for r in rows):
        subset = [r for r in rows if r["dtype"] == dtype
                  and r["provider"] != "all"]
        labels = ordered(sm_label(r) for r in subset)
        tile_labels = [lab for lab in labels if lab.startswith("tile (")]
        peer_labels = [lab for lab in labels if lab not in tile_labels]
        d2s = sorted({int(r["d2"]) for r in subset})
        by_key = {(sm_label(r), int(r["d2"])): r for r in subset}
        pairs = []  # (peer, tile) of the same precision
        for t in tile_labels:
            precision = t[len("tile ("):-1]
            pairs += [(p, t) for p in peer_labels
                      if p.endswith(f"({precision})")]

        def value(label, d2, key):
            r = by_key.get((label, d2))
            return num(r.get(key)) if r else None

        header = ["d2"] + [f"{lab} ms" for lab in peer_labels + tile_labels]
        header += [f"{p} / {t}" for p, t in pairs]
        body = []
        for d2 in d2s:
            line = [str(d2)] + [fmt(value(lab, d2, "ms"), ".3f")
                                for lab in peer_labels + tile_labels]
            line += [fmt(ratio(value(p, d2, "ms"), value(t, d2, "ms")), ".2f")
                     for p, t in pairs]
            body.append(line)
        first = subset[0] if subset else {}
        out.append(f"### softmax(X) @ V, {dtype}: ms (batch "
                   f"{first.get('batch')}, d1 {first.get('d1')}, d3 "
                   f"{first.get('d3')})\n")
        out.append(table(header, body))
        notes = ["", "peer / tile: the peer's time over Tile's, same "
                 "precision (above 1: Tile is faster). TFLOP/s in the CSV "
                 "count 2·batch·d1·d2·d3."]
        configs = ordered(f"d2={r['d2']}: {r['config']}" for r in subset
                          if r["provider"] == "triton-fused" and r.get("config"))
        if configs:
            notes.append("triton-fused: best configuration per d2 and "
                         "precision in softmax_matmul.csv (column config).")
        for r in subset:
            if num(r.get("ms")) is None:
                notes.append(f"n/a: {sm_label(r)} at d2 = {r['d2']}: "
                             f"{r.get('note') or 'no value'}.")
        out.append("\n".join(notes) + "\n")

        header = ["d2"] + [f"{lab} MiB" for lab in peer_labels + tile_labels]
        body = [[str(d2)] + [fmt(value(lab, d2, "peak_MiB"), ".0f")
                             for lab in peer_labels + tile_labels]
                for d2 in d2s]
        out.append(f"### softmax(X) @ V, {dtype}: peak memory (MiB)\n")
        out.append(table(header, body))
        out.append("\nInputs + output + temporaries of one call "
                   "(torch.cuda.max_memory_allocated). Tile's library "
                   "allocates nothing: its figure is the tensors the script "
                   "allocated.\n")
    return "\n".join(out)


def checks_section(softmax_rows, sm_rows):
    lines = []
    groups = {}
    for kind, rows in (("softmax", softmax_rows or []),
                       ("softmax_matmul", sm_rows or [])):
        for r in rows:
            key = (kind, r["provider"], r["dtype"], r.get("precision", ""))
            err = num(r.get("rel_error"))
            tol = num(r.get("tolerance"))
            g = groups.setdefault(key, [None, tol, 0, 0])
            if err is not None:
                g[0] = err if g[0] is None else max(g[0], err)
                g[3] += 1
                if tol is not None and not err <= tol:
                    g[2] += 1
    if not groups:
        return ""
    body = [[kind, provider, dtype, precision or "-", fmt(e, ".2e"),
             fmt(t, "g"), str(checked), str(bad)]
            for (kind, provider, dtype, precision), (e, t, bad, checked)
            in groups.items()]
    lines.append("### Checks against float64\n")
    lines.append(table(["benchmark", "provider", "dtype", "precision",
                        "max rel. error", "tolerance", "shapes checked",
                        "above tolerance"], body))
    lines.append("\nNormwise: max|got - ref| / max|ref|, per shape.\n")
    return "\n".join(lines)


def cpp_section(rows):
    body = [[r["d2"], r["triton"], r["BLOCK"],
             fmt(num(r["forward_ms_mean"]), ".4f"),
             fmt(num(r["forward_ms_std"]), ".4f"),
             fmt(num(r["forward_peak_MiB"]), ".0f")] for r in rows]
    first = rows[0] if rows else {}
    return ("### tile-softmax-matmul-bench (the assignment's CSV)\n\n"
            f"batch {first.get('batch_size')}, d1 {first.get('d1')}, d3 "
            f"{first.get('d3')}; mean and standard deviation of 100 passes; "
            "see softmax_matmul_benchmark.notes.md for the dtype, precision "
            "and checks.\n\n"
            + table(["d2", "triton", "BLOCK", "forward_ms_mean",
                     "forward_ms_std", "forward_peak_MiB"], body) + "\n")


def matmul_section(rows):
    """The f16 matmul table: one row per shape."""
    by = {}
    for r in rows:
        by[(r["M"], r["N"], r["K"], r["provider"], r["kernel"])] = r

    def get(shape, provider, kernel, key):
        r = by.get(shape + (provider, kernel))
        return num(r.get(key)) if r else None

    shapes = ordered((r["M"], r["N"], r["K"]) for r in rows)
    out = []
    for shape in shapes:
        ms = lambda p, k="matmul": get(shape, p, k, "ms")
        tf = lambda p, k="matmul": get(shape, p, k, "TFLOP/s")
        cost = lambda p: (None if ms(p) is None or
                          ms(p, "matmul_leaky_relu") is None
                          else ms(p, "matmul_leaky_relu") / ms(p) - 1)
        out.append([
            " x ".join(shape), fmt(ms("torch"), ".3f"),
            fmt(tf("torch"), ".0f"), fmt(ms("tile-hopper-tma"), ".3f"),
            fmt(tf("tile-hopper-tma"), ".0f"),
            fmt(ratio(tf("tile-hopper-tma"), tf("torch")), ".2f"),
            fmt(tf("tile-hopper"), ".0f"),
            fmt(ratio(tf("tile-hopper"), tf("torch")), ".2f"),
            fmt(tf("tile-wgmma"), ".0f"), fmt(tf("tile"), ".0f"),
            fmt(ms("torch", "matmul_leaky_relu"), ".3f"),
            fmt(ms("tile-hopper-tma", "matmul_leaky_relu"), ".3f"),
            fmt(None if cost("tile-hopper-tma") is None
                else 100 * cost("tile-hopper-tma"), "+.1f") + "%",
            fmt(None if cost("tile-hopper") is None
                else 100 * cost("tile-hopper"), "+.1f") + "%"])
    header = ["M x N x K", "cuBLAS ms", "cuBLAS TFLOP/s", "tile-hopper-tma ms",
              "tile-hopper-tma TFLOP/s", "tma / cuBLAS",
              "tile-hopper TFLOP/s", "hopper / cuBLAS", "tile-wgmma TFLOP/s",
              "tile (mma.sync) TFLOP/s", "cuBLAS + leaky ReLU ms",
              "tma + leaky ReLU ms", "leaky ReLU cost (tma)",
              "leaky ReLU cost (hopper)"]
    return ("### matmul f16: cuBLAS against Tile's example kernels\n\n"
            + table(header, out) + "\n\nTFLOP/s = 2·M·N·K / time; "
            "x / cuBLAS: Tile's rate over cuBLAS's (above 1: Tile is "
            "faster).\n")


def copy_section(copy_rows, softmax_rows, copy_gbps):
    """Copy of the softmax's bytes at each N, and the softmaxes against it."""
    copy = {(r["dtype"], int(r["N"])): num(r.get("GBps")) for r in copy_rows}
    soft = {(r["provider"], r["dtype"], int(r["N"])): num(r.get("GB/s"))
            for r in softmax_rows or []}
    out = []
    for n in sorted({n for _, n in copy}):
        c32, c16 = copy.get(("f32", n)), copy.get(("f16", n))
        out.append([str(n), fmt(c32, ".0f"), fmt(ratio(c32, copy_gbps), ".2f"),
                    fmt(ratio(soft.get(("tile", "f32", n)), c32), ".2f"),
                    fmt(ratio(soft.get(("triton", "f32", n)), c32), ".2f"),
                    fmt(c16, ".0f"),
                    fmt(ratio(soft.get(("tile", "f16", n)), c16), ".2f"),
                    fmt(ratio(soft.get(("triton", "f16", n)), c16), ".2f")])
    header = ["N", "copy f32 GB/s", "of 1 GiB copy", "tile f32 / copy",
              "triton f32 / copy", "copy f16 GB/s", "tile f16 / copy",
              "triton f16 / copy"]
    return ("### Copy at the same size\n\n" + table(header, out) + "\n\n"
            "copy: `y.copy_(x)` of the softmax's bytes (4096 rows of N "
            "columns), the same timer; x / copy: the softmax's GB/s over "
            "that copy's.\n")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--dir", default="outputs",
                   help="directory of the CSVs (default outputs/)")
    p.add_argument("--out", help="markdown file to write (default stdout)")
    p.add_argument("--n", default=",".join(map(str, DEFAULT_N)),
                   help="softmax N values to show (default "
                        + ",".join(map(str, DEFAULT_N)) + ")")
    args = p.parse_args(argv)
    try:
        selected_n = [int(v) for v in args.n.split(",") if v.strip()]
    except ValueError:
        p.error(f"--n needs integers, got {args.n!r}")

    d = Path(args.dir)
    device = read_csv(d / "device.csv")
    softmax_rows = read_csv(d / "softmax.csv")
    sm_rows = read_csv(d / "softmax_matmul.csv")
    cpp_rows = read_csv(d / "softmax_matmul_benchmark.csv")
    matmul_rows = read_csv(d / "matmul.csv")
    copy_rows = read_csv(d / "copy_at_size.csv")
    if not any((softmax_rows, sm_rows, cpp_rows, matmul_rows)):
        sys.exit(f"make_tables.py: no softmax.csv, softmax_matmul.csv or "
                 f"softmax_matmul_benchmark.csv in {d}")

    parts = []
    copy_gbps = None
    if device:
        dev = device[0]
        copy_gbps = num(dev.get("copy_GBps"))
        parts.append(
            f"Device: {dev.get('device')} (compute capability "
            f"{dev.get('capability')}, {dev.get('sms')} SMs), "
            f"{dev.get('date')}; copy bandwidth "
            f"{fmt(copy_gbps, '.0f')} GB/s; torch {dev.get('torch')}, "
            f"triton {dev.get('triton')}; {dev.get('warmup')} warm-ups, "
            f"median of {dev.get('reps')} calls with CUDA events, L2 flushed "
            f"({dev.get('flush_MiB')} MiB) before each. Command: "
            f"`{dev.get('command')}`.\n")
    if softmax_rows:
        parts.append(softmax_section(softmax_rows, copy_gbps, selected_n))
    if copy_rows:
        parts.append(copy_section(copy_rows, softmax_rows, copy_gbps))
    if sm_rows:
        parts.append(softmax_matmul_section(sm_rows))
    checks = checks_section(softmax_rows, sm_rows)
    if checks:
        parts.append(checks)
    if cpp_rows:
        parts.append(cpp_section(cpp_rows))
    if matmul_rows:
        parts.append(matmul_section(matmul_rows))
    text = "\n".join(parts)
    if args.out:
        Path(args.out).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
