"""One attention problem through one provider, a few calls: a target for a
profiler (bench/scripts/profile_ncu.sh), where compare.py's sweep would
launch hundreds of kernels.

    python3 bench/scripts/attention_once.py --provider tile --seq 8192 \
        --head-dim 128 [--causal] [--calls 3] [--lib build/lib/libtile.so]

Providers: tile (tile.attention of the tile package, loaded by
compare.TileLib on --lib; TILE_ATTENTION_VARIANT chooses an embedded
kernel), and sdpa-flash,
sdpa-cudnn, sdpa-efficient (F.scaled_dot_product_attention under that
backend). BHSD f16 (or --dtype bf16), batch = 16384 // seq unless --batch,
16 heads, inputs N(0, 1), scale 1/sqrt(head_dim). Prints the kernel Tile
ran and each call's time (CUDA events; no L2 flush: use compare.py for
figures). With --clocks, nvidia-smi samples the SM clock and the board's
power while the calls run, and calls are reported in ten windows (median
time, TFLOP/s, median clock and power of each): whether a long run of
calls slows down as the GPU reaches its power limit.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import compare  # noqa: E402
from clocks import ClockSampler  # noqa: E402
from optional_imports import F, torch  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--provider", default="tile",
                   choices=["tile", "sdpa-flash", "sdpa-cudnn",
                            "sdpa-efficient"])
    p.add_argument("--seq", type=int, default=8192)
    p.add_argument("--seq-k", type=int, help="default: --seq")
    p.add_argument("--batch", type=int)
    p.add_argument("--heads", type=int, default=16)
    p.add_argument("--head-dim", type=int, default=128)
    p.add_argument("--dtype", choices=["f16", "bf16"], default="f16")
    p.add_argument("--causal", action="store_true")
    p.add_argument("--calls", type=int, default=3)
    p.add_argument("--lib", help="libtile.so (default: the build tree's)")
    p.add_argument("--clocks", action="store_true",
                   help="sample the SM clock and power during the calls "
                   "(nvidia-smi) and report them per window of calls")
    p.add_argument("--check", action="store_true",
                   help="compare the first and last (batch, head) of the "
                   "output with float64 attention")
    args = p.parse_args(argv)
    if torch is None or not torch.cuda.is_available():
        sys.exit("attention_once: needs torch with a CUDA device")

    seq_q, seq_k = args.seq, args.seq_k or args.seq
    batch = args.batch or max(1, 16384 // seq_q)
    dtype = compare.DTYPES[args.dtype]
    gen = torch.Generator(device="cuda").manual_seed(0)

    def draw(seq):
        return torch.randn(batch, args.heads, seq, args.head_dim,
                           device="cuda", dtype=dtype, generator=gen)

    q, k, v = draw(seq_q), draw(seq_k), draw(seq_k)
    scale = 1.0 / math.sqrt(args.head_dim)

    if args.provider == "tile":
        tile = compare.TileLib(compare.find_library(args.lib))
        tile.init(torch.cuda.current_device())
        print("kernel:", tile.attention_variant(dtype, batch, args.heads,
                                                args.heads, seq_q, seq_k,
                                                args.head_dim, args.causal))

        def call():
            return tile.ops.attention(q, k, v, causal=args.causal,
                                      scale=scale)
    else:
        from torch.nn.attention import SDPBackend, sdpa_kernel
        backend = {"sdpa-flash": SDPBackend.FLASH_ATTENTION,
                   "sdpa-cudnn": SDPBackend.CUDNN_ATTENTION,
                   "sdpa-efficient": SDPBackend.EFFICIENT_ATTENTION}[
                       args.provider]

        def call():
            with sdpa_kernel(backend):
                return F.scaled_dot_product_attention(
                    q, k, v, is_causal=args.causal, scale=scale)

    if args.check:
        out = call()
        torch.cuda.synchronize()
        worst = 0.0
        for b, h in ((0, 0), (batch - 1, args.heads - 1)):
            qd, kd, vd = (t[b, h].double() for t in (q, k, v))
            s = qd @ kd.T * scale
            if args.causal:
                keep = torch.ones(seq_q, seq_k, dtype=torch.bool,
                                  device="cuda").tril(seq_k - seq_q)
                s = s.masked_fill(~keep, float("-inf"))
            ref = torch.softmax(s, dim=-1).nan_to_num() @ vd
            worst = max(worst, (out[b, h].double() - ref).abs().max().item())
        limit = 2e-3 if args.dtype == "f16" else 1.6e-2
        print(f"check: max abs error {worst:.2e} (limit {limit:.1e})")
        if not worst <= limit:
            sys.exit("attention_once: the output is wrong")

    flops = 4 * batch * args.heads * seq_q * seq_k * args.head_dim
    if args.causal and seq_q == seq_k:
        flops //= 2
    sampler = ClockSampler() if args.clocks else None
    calls = []  # (start, end, ms): host times bracketing each call
    for i in range(args.calls):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        t0 = time.monotonic()
        start.record()
        call()
        stop.record()
        torch.cuda.synchronize()
        ms = start.elapsed_time(stop)
        calls.append((t0, time.monotonic(), ms))
        if not sampler:
            print(f"call {i}: {ms:.3f} ms, {flops / ms / 1e9:.0f} TFLOP/s")
    if sampler:
        report_windows(calls, sampler, flops)
        sampler.stop()


def report_windows(calls, sampler, flops):
    """Ten windows of calls: median time and TFLOP/s, and the median clock
    and power of the samples taken while they ran."""
    n = len(calls)
    windows = min(10, n)
    print(f"{'calls':>11} {'ms':>8} {'TFLOP/s':>8} {'MHz':>6} {'W':>6}")
    for w in range(windows):
        part = calls[w * n // windows:(w + 1) * n // windows]
        ms = statistics.median(c[2] for c in part)
        mhz, watts = sampler.between(part[0][0], part[-1][1])
        first = w * n // windows
        print(f"{first:5d}-{first + len(part) - 1:<5d} {ms:8.3f} "
              f"{flops / ms / 1e9:8.0f} {mhz:6.0f} {watts:6.0f}")


if __name__ == "__main__":
    main()
