#!/usr/bin/env python3
"""SVG line plots of compare.py's CSVs, in the manner of the perf_report
plots of Triton's fused-softmax tutorial.

Reads from --dir:

* softmax.csv: one plot per dtype, softmax_<dtype>.svg: GB/s (linear, from
  0) against N (log2), one line per provider. The device's name and its
  copy bandwidth (a dashed line "copy") come from device_softmax.csv or
  device.csv when present.
* softmax_matmul.csv: one plot per dtype, softmax_matmul_<dtype>.svg: ms
  (log) against d2 (log2), one line per provider and precision.

--before / --before-matmul add the tile rows of the same CSVs from an older
build of the library as dashed lines "tile ... (before)". Rows with a
missing time are skipped; rows that failed their check still plot.
Standard library only.

Usage::

    python3 bench/scripts/plot_svg.py --dir outputs [--out DIR] \\
        [--before OLD/softmax.csv] [--before-matmul OLD/softmax_matmul.csv]
"""

from __future__ import annotations

import argparse
import csv
import math
from collections import Counter
from html import escape
from pathlib import Path

NA = {"", "<NA>", "NA", "nan", "NaN", "None"}
W, H = 720, 440
X0, X1, Y0, Y1 = 70, 545, 40, 380  # plot area; the legend is to its right
# One colour family per provider; the shade and marker follow the precision.
COLOURS = {
    "torch": ["#1f77b4", "#6baed6", "#08519c"],
    "torch-naive": ["#9467bd"],
    "triton": ["#2ca02c", "#74c476", "#006d2c"],
    "triton-fused": ["#2ca02c", "#74c476", "#006d2c"],
    "tile": ["#d62728", "#ff7f0e", "#8c564b"],
}
OTHER = ["#17becf", "#bcbd22", "#e377c2", "#7f7f7f"]
SHADE = {"native": 0, "ieee": 0, "tf32": 1, "tf32x3": 2}


def read_csv(path):
    if not path or not Path(path).exists():
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(value):
    """float of a CSV cell, None when missing."""
    try:
        v = float(value) if value and value.strip() not in NA else None
    except ValueError:
        return None
    return None if v is None or math.isnan(v) else v


def pow2_label(n):
    for div, suffix in ((1 << 20, "M"), (1 << 10, "K")):
        if n >= div and n % div == 0:
            return f"{n // div}{suffix}"
    return str(n)


def series(label, provider, shade, points, before=False):
    palette = COLOURS.get(provider)
    colour = (palette[min(shade, len(palette) - 1)] if palette
              else OTHER[sum(map(ord, provider)) % len(OTHER)])
    return {"label": label, "colour": colour, "marker": shade % 3,
            "points": sorted(points), "before": before}


def marker(kind, x, y, colour, hollow):
    fill = "none" if hollow else colour
    style = f'fill="{fill}" stroke="{colour}" stroke-width="1.5"'
    if kind == 0:
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" {style}/>'
    if kind == 1:
        return f'<rect x="{x - 3.2:.1f}" y="{y - 3.2:.1f}" width="6.4" height="6.4" {style}/>'
    return (f'<path d="M{x:.1f},{y - 4.5:.1f} L{x + 4:.1f},{y + 3:.1f} '
            f'L{x - 4:.1f},{y + 3:.1f} Z" {style}/>')


def linear_ticks(top):
    step = 10 ** math.floor(math.log10(top / 6))
    step *= next(m for m in (1, 2, 5, 10) if top / (step * m) <= 8)
    return [i * step for i in range(int(math.ceil(top / step)) + 1)]


def log_ticks(lo, hi):
    ticks = [m * 10.0 ** k for k in range(math.floor(math.log10(lo)),
                                         math.ceil(math.log10(hi)) + 1)
             for m in (1, 2, 5)]
    lo_t = max(t for t in ticks if t <= lo)
    hi_t = min(t for t in ticks if t >= hi)
    return [t for t in ticks if lo_t <= t <= hi_t]


def plot(path, title, xlabel, ylabel, lines, ylog, refs=()):
    """Writes one SVG: lines is a list of series(), refs (label, y) pairs."""
    xs = [x for s in lines for x, _ in s["points"]]
    ys = [y for s in lines for _, y in s["points"]] + [y for _, y in refs]
    if not xs:
        return False
    ex = list(range(math.floor(math.log2(min(xs))),
                    math.ceil(math.log2(max(xs))) + 1))
    if len(ex) < 2:
        ex.append(ex[0] + 1)
    yt = log_ticks(min(ys), max(ys)) if ylog else linear_ticks(max(ys) * 1.05)
    fy = math.log10 if ylog else (lambda v: v)

    def px(x):
        return X0 + (math.log2(x) - ex[0]) / (ex[-1] - ex[0]) * (X1 - X0)

    def py(y):
        return Y1 - (fy(y) - fy(yt[0])) / (fy(yt[-1]) - fy(yt[0])) * (Y1 - Y0)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{(X0 + X1) / 2}" y="24" text-anchor="middle" '
           f'font-size="15">{escape(title)}</text>']
    every = 1 if len(ex) <= 10 else 2
    for e in ex:
        x = px(2 ** e)
        labelled = e % every == 0
        out.append(f'<line x1="{x:.1f}" y1="{Y0}" x2="{x:.1f}" y2="{Y1}" '
                   f'stroke="{"#d0d0d0" if labelled else "#ececec"}"/>')
        if labelled:
            out.append(f'<text x="{x:.1f}" y="{Y1 + 17}" text-anchor="middle">'
                       f'{pow2_label(2 ** e)}</text>')
    for t in yt:
        y = py(t)
        major = not ylog or math.isclose(math.log10(t), round(math.log10(t)))
        out.append(f'<line x1="{X0}" y1="{y:.1f}" x2="{X1}" y2="{y:.1f}" '
                   f'stroke="{"#d0d0d0" if major else "#ececec"}"/>')
        out.append(f'<text x="{X0 - 6}" y="{y + 4:.1f}" text-anchor="end">'
                   f'{t:g}</text>')
    out.append(f'<rect x="{X0}" y="{Y0}" width="{X1 - X0}" height="{Y1 - Y0}" '
               'fill="none" stroke="#404040"/>')
    out.append(f'<text x="{(X0 + X1) / 2}" y="{H - 22}" text-anchor="middle" '
               f'font-size="13">{escape(xlabel)}</text>')
    out.append(f'<text transform="translate(20,{(Y0 + Y1) / 2}) rotate(-90)" '
               f'text-anchor="middle" font-size="13">{escape(ylabel)}</text>')
    for label, y in refs:
        out.append(f'<line x1="{X0}" y1="{py(y):.1f}" x2="{X1}" y2="{py(y):.1f}" '
                   'stroke="#606060" stroke-width="1.5" stroke-dasharray="6,4"/>')
        out.append(f'<text x="{X1 - 4}" y="{py(y) - 5:.1f}" text-anchor="end" '
                   f'fill="#606060">{escape(label)} {y:.0f}</text>')
    for s in sorted(lines, key=lambda s: not s["before"]):  # older ones below
        dash = ' stroke-dasharray="6,4"' if s["before"] else ""
        pts = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in s["points"])
        out.append(f'<polyline points="{pts}" fill="none" stroke="{s["colour"]}" '
                   f'stroke-width="1.8"{dash}/>')
        out += [marker(s["marker"], px(x), py(y), s["colour"], s["before"])
                for x, y in s["points"]]
    for i, s in enumerate(lines):
        dash = ' stroke-dasharray="6,4"' if s["before"] else ""
        ly = Y0 + 8 + 20 * i
        out.append(f'<line x1="{X1 + 12}" y1="{ly}" x2="{X1 + 40}" y2="{ly}" '
                   f'stroke="{s["colour"]}" stroke-width="1.8"{dash}/>')
        out.append(marker(s["marker"], X1 + 26, ly, s["colour"], s["before"]))
        out.append(f'<text x="{X1 + 46}" y="{ly + 4}">{escape(s["label"])}</text>')
    out.append("</svg>\n")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text("\n".join(out))
    return True


def by_dtype(rows):
    groups = {}
    for r in rows:
        groups.setdefault(r["dtype"], []).append(r)
    return groups


def plot_softmax(rows, before, device, out_dir):
    dev = device[0] if device else {}
    copy = num(dev.get("copy_GBps"))
    old = by_dtype(r for r in before if r["provider"] == "tile")
    written = []
    for dtype, group in by_dtype(rows).items():
        lines = {}
        for r in group:
            if num(r["ms"]) is not None and num(r["GB/s"]) is not None:
                lines.setdefault(r["provider"], []).append(
                    (int(r["N"]), num(r["GB/s"])))
        lines = [series(p, p, 0, pts) for p, pts in lines.items()]
        pts = [(int(r["N"]), num(r["GB/s"])) for r in old.get(dtype, [])
               if num(r["ms"]) is not None and num(r["GB/s"]) is not None]
        if pts:
            lines.append(series("tile (before)", "tile", 0, pts, before=True))
        m = Counter(r["M"] for r in group).most_common(1)[0][0]
        title = f"softmax {dtype}, M = {m}"
        if dev.get("device"):
            title += f", {dev['device']}"
        path = Path(out_dir) / f"softmax_{dtype}.svg"
        if plot(path, title, "N (row length)", "GB/s", lines, ylog=False,
                refs=[("copy", copy)] if copy else []):
            written.append(path)
    return written


def matmul_lines(group, suffix="", before=False):
    lines = {}
    for r in group:
        if num(r["ms"]) is not None:
            key = (r["provider"], r["precision"])
            lines.setdefault(key, []).append((int(r["d2"]), num(r["ms"])))
    return [series(" ".join(x for x in (p, q if q != "native" else "") if x)
                   + suffix, p, SHADE.get(q, 0), pts, before)
            for (p, q), pts in lines.items()]


def plot_softmax_matmul(rows, before, out_dir):
    old = by_dtype(r for r in before if r["provider"] == "tile")
    written = []
    for dtype, group in by_dtype(rows).items():
        lines = (matmul_lines(group)
                 + matmul_lines(old.get(dtype, []), " (before)", before=True))
        r = group[0]
        title = (f"softmax(X) @ V {dtype}, batch {r['batch']}, d1 {r['d1']}, "
                 f"d3 {r['d3']}")
        path = Path(out_dir) / f"softmax_matmul_{dtype}.svg"
        if plot(path, title, "d2", "ms (log scale)", lines, ylog=True):
            written.append(path)
    return written


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", default="outputs", help="compare.py's --out")
    ap.add_argument("--out", help="where the SVGs go (default: --dir)")
    ap.add_argument("--before", help="softmax.csv of an older build (tile rows)")
    ap.add_argument("--before-matmul",
                    help="softmax_matmul.csv of an older build (tile rows)")
    args = ap.parse_args()
    src = Path(args.dir)
    out_dir = Path(args.out or src)
    device = read_csv(src / "device_softmax.csv") or read_csv(src / "device.csv")
    written = plot_softmax(read_csv(src / "softmax.csv"), read_csv(args.before),
                           device, out_dir)
    written += plot_softmax_matmul(read_csv(src / "softmax_matmul.csv"),
                                   read_csv(args.before_matmul), out_dir)
    for path in written:
        print(path)
    if not written:
        print(f"nothing to plot in {src}")
    return 0 if written else 1


if __name__ == "__main__":
    raise SystemExit(main())
