"""Copy bandwidth at the softmax benchmark's sizes (M = 4096 rows of N
columns, f32 and f16), timed as compare.py times every provider (10
warm-ups, median of 100 calls, L2 flushed before each): what a plain
y.copy_(x) of the same bytes reaches, against which the softmax fractions
of the 1 GiB copy bandwidth can be read. One CSV line per size:
dtype,N,ms,GB/s (GB/s = 2 * bytes / time).

  python3 bench/scripts/copy_at_size.py [--out FILE]
"""
import argparse
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import compare  # noqa: E402  (the shared timer)

WIDTHS = (256, 512, 768, 1024, 2048, 3000, 4096, 5000, 8192, 10000, 12672,
          16384, 20000, 32768)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", help="CSV path (default: stdout only)")
    args = p.parse_args()
    bench = compare.Bench(10, 100, 256)
    lines = ["dtype,N,ms,GBps"]
    for dtype, name in ((torch.float32, "f32"), (torch.float16, "f16")):
        for n in WIDTHS:
            x = torch.randn(4096, n, device="cuda", dtype=dtype)
            y = torch.empty_like(x)
            ms = bench.ms(lambda: y.copy_(x))
            gbps = 2 * x.numel() * x.element_size() / (ms * 1e-3) / 1e9
            lines.append(f"{name},{n},{ms:.4f},{gbps:.0f}")
            print(lines[-1], flush=True)
    if args.out:
        Path(args.out).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
