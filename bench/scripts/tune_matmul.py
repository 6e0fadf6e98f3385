#!/usr/bin/env python3
"""Times every f16 matmul kernel of one compiled module (PTX + metadata from
tile-compile, e.g. the variants of gen_matmul_variants.py) against
torch.matmul (cuBLAS) in the same run, with compare.py's timer (L2 flushed,
median of 100 calls) and its error check (float64 reference, tolerance
1e-2 relative, output poisoned with NaN first). Kernel names carry their
tile sizes (matmul_f16_m{BM}_n{BN}_...), from which the grid follows.

Usage (on the GPU machine, from the repository root):
  tune_matmul.py --ptx variants.ptx --meta variants.meta \\
      --lib build/lib/libtile.so.0.1.0 [--shapes 4096x4096x4096,...] \\
      [--csv out.csv]
"""
import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import compare  # noqa: E402
import torch  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ptx", required=True)
    ap.add_argument("--meta", required=True)
    ap.add_argument("--lib")
    ap.add_argument("--shapes", default="4096x4096x4096,8192x8192x8192")
    ap.add_argument("--csv")
    ap.add_argument("--kernels", default="",
                    help="comma-separated subset of the module's kernels")
    ap.add_argument("--reps", type=int, default=100)
    args = ap.parse_args()
    torch.manual_seed(0)
    torch.empty(1, device="cuda")
    tile = compare.TileLib(compare.find_library(args.lib))
    tile.init(torch.cuda.current_device())
    names = re.findall(r"^name (\S+)", Path(args.meta).read_text(), re.M)
    if args.kernels:
        names = [n for n in names if n in args.kernels.split(",")]
    kernels = {n: tile.load_kernel(args.ptx, args.meta, n) for n in names}
    bench = compare.Bench(10, args.reps, 256)
    stream = compare.stream_handle()
    rows = []
    for shape in args.shapes.split(","):
        m, n, k = (int(v) for v in shape.split("x"))
        a = torch.randn(m, k, device="cuda", dtype=torch.float16)
        b = torch.randn(k, n, device="cuda", dtype=torch.float16)
        ref = a.double() @ b.double()
        flops = 2 * m * n * k
        torch_ms = bench.ms(lambda: a @ b)
        print(f"{m}x{n}x{k} torch.matmul {torch_ms:.4f} ms "
              f"{flops / torch_ms / 1e9:.1f} TFLOP/s", flush=True)
        rows.append(dict(kernel="torch.matmul", shape=shape, ms=torch_ms,
                         tflops=flops / torch_ms / 1e9, ratio=1.0, err=0.0))
        for name, kernel in kernels.items():
            bm, bn = (int(v) for v in
                      re.search(r"_m(\d+)_n(\d+)_", name).groups())
            grid = (((m + bm - 1) // bm) * ((n + bn - 1) // bn), 1, 1)
            c = torch.empty(m, n, device="cuda", dtype=torch.float16)

            def run():
                tile.launch(kernel, grid, [
                    ("ptr", a.data_ptr()), ("ptr", b.data_ptr()),
                    ("ptr", c.data_ptr()), ("i32", m), ("i32", n),
                    ("i32", k), ("i64", a.stride(0)), ("i64", a.stride(1)),
                    ("i64", b.stride(0)), ("i64", b.stride(1)),
                    ("i64", c.stride(0)), ("i64", c.stride(1))], stream)

            c.fill_(float("nan"))
            run()
            torch.cuda.synchronize()
            err = compare.rel_error(c, ref)
            ms = bench.ms(run)
            ok = err <= compare.MATMUL_TOL
            print(f"{m}x{n}x{k} {name:40s} {ms:.4f} ms "
                  f"{flops / ms / 1e9:.1f} TFLOP/s {torch_ms / ms:.3f}x "
                  f"cuBLAS err {err:.2e}{'' if ok else ' *** WRONG'}",
                  flush=True)
            rows.append(dict(kernel=name, shape=shape, ms=ms,
                             tflops=flops / ms / 1e9, ratio=torch_ms / ms,
                             err=err))
        a = b = ref = c = None
        torch.cuda.empty_cache()
    if args.csv:
        with open(args.csv, "w") as f:
            f.write("kernel,shape,ms,TFLOP/s,ratio_to_cublas,rel_error\n")
            for r in rows:
                f.write(f"{r['kernel']},{r['shape']},{r['ms']:.5f},"
                        f"{r['tflops']:.1f},{r['ratio']:.3f},{r['err']:.2e}\n")


if __name__ == "__main__":
    main()
