#!/usr/bin/env python3
"""Side-by-side benchmark of Tile's library operations, PyTorch and Triton.

Runs on a GPU machine, in one process:

* softmax over the rows of an M x N matrix (the sweep of Triton's
  fused-softmax tutorial: M = 4096, N = 256..12672 step 128, then N = 16384
  .. 1048576): torch.softmax, a naive PyTorch softmax (five separate kernels,
  as in that tutorial), a row-per-program Triton kernel and Tile's
  ``tile_softmax``. GB/s = 2*M*N*element_size/time.
* softmax(X) @ V (the shapes of the fused softmax-matmul assignment: batch
  16, d1 2048, d3 512, d2 = 64 .. 8192): PyTorch in IEEE fp32 and with TF32,
  a fused Triton kernel (the assignment's online algorithm with tl.dot; the
  best of BLOCK 16/32/64) and Tile's ``tile_softmax_matmul`` (tf32, ieee,
  tf32x3). TFLOP/s counts 2*batch*d1*d2*d3; peak memory per provider from
  torch's allocator.
* matmul f16 (the 4096^3 of Triton's matmul tutorial and a few other
  sizes): torch.matmul (cuBLAS), torch.matmul then F.leaky_relu, and Tile's
  example kernels examples/matmul_f16.mlir (@matmul_f16, @matmul_f16_leaky_relu) and, as
  `tile-auto`, examples/matmul_f16_auto.mlir (pipelined by the compiler),
  PTX from build/kernels, launched through the runtime's module API; on
  compute capability 9.0 also their sm_90a builds (`tile-wgmma`,
  `tile-auto-wgmma`: wgmma instead of mma.sync) and `tile-hopper`,
  examples/matmul_f16_hopper.mlir for sm_90a (128 x 256 tiles;
  `tile-hopper-tma`: its kernels whose copies use TMA).
  TFLOP/s = 2*M*N*K/time.
* the device's copy bandwidth (y.copy_(x) on 1 GiB, GB/s = 2*bytes/time).
* attention forward (``--only attention``; not in the default run), defined
  in attention.py: Tile's ``tile_attention`` against PyTorch's
  scaled_dot_product_attention backends (flash, cuDNN, efficient, math)
  and a fused Triton kernel, f16 (and bf16), head_dim 64 and 128, causal
  and not, seq 512 .. 16384 at 16k tokens, plus a GQA and a ragged
  (seq_q != seq_k) point.

Every provider is timed by the same function (``Bench.ms``): warm-ups, then
each call between its own pair of CUDA events, L2 flushed before each call
(as triton.testing.do_bench does), median of the same number of calls for
everybody. With --attention-interleave, an attention point's providers are
timed the same way but in turns, call by call (``Bench.ms_interleaved``), so
that a GPU at its power limit runs them all at one clock; --clocks records
that clock. Tile's operations are timed as users call them: tile.softmax,
tile.softmax_matmul and tile.attention of the tile package (python/tile of
this checkout, imported ahead of any installed copy), on the libtile.so
--lib names; the package calls the C API through ctypes on the same torch
tensors (``data_ptr()``) and stream
(``torch.cuda.current_stream().cuda_stream``), and with torch 2.4 or later
through its torch custom operators. The diagnostics (which kernel a call
runs) and the example kernels' module API use the package's declarations
of the C API (tile._library).

Every provider's result is checked once per shape against torch in float64
(normwise relative error max|got - ref| / max|ref|, on a subset of rows for
softmax) and recorded; errors above the tolerance are flagged.

Outputs (``--out``, default ``outputs/``): softmax.csv, softmax_matmul.csv,
softmax_matmul_triton_configs.csv, matmul.csv, device.csv, notes.md and PNG
plots (when matplotlib is installed); with ``--only attention``
attention.csv, attention_triton_configs.csv and SVG plots (see
attention.py).

Usage::

    python3 bench/scripts/compare.py                       # everything, f32
    python3 bench/scripts/compare.py --dtypes f32,f16      # also f16
    python3 bench/scripts/compare.py --quick               # smoke run
    python3 bench/scripts/compare.py --only softmax_matmul --lib build/lib/libtile.so
    python3 bench/scripts/compare.py --only attention --dtypes f16,bf16 --out DIR
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import datetime
import gc
import math
import os
import platform
import statistics
import sys
import time
from pathlib import Path

from optional_imports import (HAVE_TRITON, TORCH_ERROR, TRITON_ERROR, F,
                              tl, torch, triton)

try:
    import pandas as pd
except ImportError:
    pd = None

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    plt = None

import attention  # noqa: E402  (beside this file; imports torch lazily)
from clocks import ClockSampler  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]

# The tile package of this checkout, ahead of any installed one: Tile's
# figures are those of the package users call. It imports without torch
# or a library; TileLib loads the library --lib names.
sys.path.insert(0, str(REPO_ROOT / "python"))
import tile as tile_package  # noqa: E402
from tile import _kernels as tile_kernels  # noqa: E402
from tile import _library as tile_library  # noqa: E402

TileError = tile_package.TileError

if torch is not None:
    DTYPES = {"f32": torch.float32, "f16": torch.float16,
              "bf16": torch.bfloat16}
else:
    DTYPES = dict.fromkeys(("f32", "f16", "bf16"))
# torch dtype -> tile_dtype, and precision name -> tile_precision.
TILE_DTYPE = tile_kernels.DTYPE_CODES
TILE_PRECISION = tile_library.PRECISIONS

# The tutorial's sweep, then the large rows.
SOFTMAX_N = [128 * i for i in range(2, 100)] + [
    16384, 32768, 65536, 131072, 262144, 524288, 1048576]
SOFTMAX_N_QUICK = [256, 1024, 4096, 12672, 131072]
D2 = [64, 128, 256, 512, 1024, 2048, 4096, 8192]
D2_QUICK = [64, 1024, 8192]
SM_BATCH, SM_D1, SM_D3 = 16, 2048, 512
# Triton fused softmax-matmul configurations: (BLOCK, num_warps, num_stages);
# BLOCK_M = BLOCK_K = BLOCK as in the fused softmax-matmul assignment.
TRITON_SM_CONFIGS = [(16, 4, 2), (16, 4, 1), (32, 4, 2), (32, 4, 1),
                     (64, 8, 2), (64, 8, 1)]

# Normwise relative error allowed.
SOFTMAX_TOL = {"f32": 1e-5, "f16": 2e-3, "bf16": 1e-2}
SM_TOL_F32 = {"ieee": 1e-5, "tf32x3": 1e-5, "tf32": 1e-3}
SM_TOL_HALF = {"f16": 1e-2, "bf16": 1e-2}

SOFTMAX_COLUMNS = ["provider", "dtype", "M", "N", "ms", "GB/s", "rel_error",
                   "tolerance", "ok", "note"]
MATMUL_SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (2048, 2048, 2048),
                 (4096, 4096, 1000)]
MATMUL_SHAPES_QUICK = [(4096, 4096, 4096)]
MATMUL_TOL = 1e-2
MATMUL_COLUMNS = ["provider", "kernel", "M", "N", "K", "ms", "TFLOP/s",
                  "rel_error", "tolerance", "ok", "note"]
SM_COLUMNS = ["provider", "dtype", "precision", "batch", "d1", "d2", "d3",
              "ms", "TFLOP/s", "peak_MiB", "rel_error", "tolerance", "ok",
              "config", "note"]
TRITON_CONFIG_COLUMNS = ["dtype", "precision", "d2", "BLOCK", "num_warps",
                         "num_stages", "ms", "note"]


def log(*parts):
    print(*parts, flush=True)


# --------------------------------------------------------------------------
# Tile: the tile package of this checkout on the library --lib names
# --------------------------------------------------------------------------

class TileLib:
    """Tile for the benchmarks: `ops`, the tile package (python/tile of
    this checkout), whose public functions tile.softmax,
    tile.softmax_matmul and tile.attention are the calls that are timed,
    loaded on the libtile.so at `path`; and the C API's diagnostics (the
    variant a call runs, the device's name) and module API (the example
    kernels), through the declarations of the package's tile._library.
    Operations an older libtile.so lacks leave their provider unavailable
    (has_softmax, has_softmax_matmul, has_attention)."""

    def __init__(self, path: Path):
        self.path = Path(path)
        os.environ["TILE_LIBRARY"] = str(self.path)
        self.ops = tile_package
        self.lib = tile_library.load()
        loaded = Path(self.lib.tile_path).resolve()
        if loaded != self.path.resolve():
            raise OSError(f"the tile package has loaded {loaded} already")
        self.has_softmax = tile_library.has("tile_softmax")
        self.has_softmax_matmul = tile_library.has("tile_softmax_matmul")
        self.has_attention = tile_library.has("tile_attention")

    def init(self, ordinal):
        tile_library.init(ordinal)

    def device_name(self):
        return tile_library.device_info()[0]

    def softmax_variant(self, y, x):
        """The kernel tile_softmax runs for these rows ("" when this
        libtile.so cannot say)."""
        es = x.element_size()
        aligned = (x.data_ptr() % 16 == 0 and y.data_ptr() % 16 == 0
                   and (x.stride(0) * es) % 16 == 0
                   and (y.stride(0) * es) % 16 == 0)
        return tile_library.softmax_variant(
            TILE_DTYPE[y.dtype], TILE_DTYPE[x.dtype], x.shape[0], x.shape[1],
            aligned)

    def softmax_matmul_variant(self, x, v, precision):
        """The kernel tile_softmax_matmul runs for these tensors ("" when
        this libtile.so cannot say)."""
        return tile_library.softmax_matmul_variant(
            TILE_DTYPE[x.dtype], TILE_PRECISION[precision], x.shape[0],
            x.shape[1], x.shape[2], v.shape[2])

    def attention_variant(self, dtype, batch, heads, kv_heads, seq_q, seq_k,
                          head_dim, causal):
        """The kernel tile_attention runs for contiguous BHSD tensors with
        16-byte aligned bases ("" when this libtile.so cannot say)."""
        return tile_library.attention_variant(TILE_DTYPE[dtype], batch, heads,
                                              kv_heads, seq_q, seq_k,
                                              head_dim, causal)

    def load_kernel(self, ptx_path, meta_path, name):
        """The kernel `name` of a PTX file and its metadata, or None when
        this libtile.so has no module API."""
        if not tile_library.has("tile_module_load"):
            return None
        return tile_library.load_kernel(Path(ptx_path).read_bytes(),
                                        Path(meta_path).read_bytes(), name)

    def launch(self, kernel, grid, args, stream):
        """args: (kind, value) pairs, kind one of ptr, i32, i64."""
        tile_library.launch(kernel, grid, args, stream)


class PoisonedBlocks:
    """NaN in the memory a call's outputs will get. The tile package
    allocates its outputs through torch's caching allocator, so they
    cannot be filled before the call; instead this allocates blocks of the
    outputs' sizes, in the order the call allocates them, fills them with
    NaN and frees them in reverse order, which leaves the allocator's free
    lists as they were: the call's allocations (same sizes, same stream)
    then get those blocks back, and an element the kernel does not write
    stays NaN and fails the check. missed(*outputs) tells when they got
    other blocks (outputs not poisoned; the CSV's note says so)."""

    def __init__(self, *specs):
        blocks = [torch.full(tuple(shape), math.nan, dtype=dtype,
                             device="cuda") for shape, dtype in specs]
        self.addresses = [b.data_ptr() for b in blocks]
        while blocks:
            blocks.pop()

    def missed(self, *outputs):
        return [t.data_ptr() for t in outputs] != self.addresses


UNPOISONED_NOTE = "output not NaN-poisoned (the allocator gave other blocks)"


def find_library(explicit):
    if explicit:
        candidates = [Path(explicit)]
    else:
        candidates = []
        for base in (Path.cwd(), REPO_ROOT):
            for sub in ("build/lib/libtile.so", "build/runtime/libtile.so"):
                candidates.append(base / sub)
    for path in candidates:
        if path.exists():
            return path.resolve()
    sys.exit("libtile.so not found (looked at "
             + ", ".join(str(p) for p in candidates)
             + "); build the tile_runtime_shared target or pass --lib")


# --------------------------------------------------------------------------
# Timing, errors, memory
# --------------------------------------------------------------------------

class Bench:
    """The one timer every provider goes through."""

    def __init__(self, warmup, reps, flush_mib, clocks=None):
        self.warmup = warmup
        self.reps = reps
        # A clocks.ClockSampler: the median SM clock while the last
        # measurement's timed calls ran is kept in last_mhz.
        self.clocks = clocks
        self.last_mhz = None
        self.flush = None
        if flush_mib > 0:
            self.flush = torch.empty(flush_mib * 2**20 // 4, dtype=torch.int32,
                                     device="cuda")

    def ms(self, fn):
        """Median milliseconds of `reps` calls of fn, each between its own
        CUDA events, after `warmup` calls; L2 is flushed before each call
        (the flush is outside the events and keeps the GPU busy while the
        host enqueues the call)."""
        [(ms, mhz)] = self.ms_interleaved([(fn, contextlib.nullcontext)])
        if self.clocks is not None:
            self.last_mhz = mhz
        return ms

    def ms_interleaved(self, calls):
        """ms() for several functions at once (ms is this with one), each
        given with a context factory to call it in: after their warm-ups,
        round r times call r of each in turn (L2 flushed before each, its
        own events around it), so that all run through the same clock and
        power states.
        Returns each one's (median ms, median SM MHz or None)."""
        for fn, context in calls:
            with context():
                for _ in range(self.warmup):
                    fn()
        torch.cuda.synchronize()
        events = [[(torch.cuda.Event(enable_timing=True),
                    torch.cuda.Event(enable_timing=True))
                   for _ in range(self.reps)] for _ in calls]
        begin = time.monotonic()
        for i in range(self.reps):
            for (fn, context), pairs in zip(calls, events):
                with context():
                    if self.flush is not None:
                        self.flush.zero_()
                    pairs[i][0].record()
                    fn()
                    pairs[i][1].record()
        torch.cuda.synchronize()
        mhz = None
        if self.clocks is not None:
            mhz = self.clocks.between(begin, time.monotonic())[0]
        return [(statistics.median(s.elapsed_time(e) for s, e in pairs), mhz)
                for pairs in events]


def all_finite(t, chunk_elems=1 << 28):
    """Whether every element of t is finite, a bounded slice at a time (a
    whole-tensor isfinite of a 16 GiB matrix would need 4 GiB more)."""
    flat = t.reshape(-1)
    for start in range(0, flat.numel(), chunk_elems):
        if not bool(torch.isfinite(flat[start:start + chunk_elems]).all()):
            return False
    return True


def rel_error(got, ref):
    """max|got - ref| / max|ref| in float64; inf when got has a non-finite
    element (an unwritten, NaN-poisoned output)."""
    got = got.double()
    if not all_finite(got):
        return math.inf
    scale = ref.abs().max().item()
    diff = (got - ref).abs().max().item()
    return diff / scale if scale > 0 else diff


def is_oom(exc):
    if isinstance(exc, TileError):
        return exc.status == "TILE_ERROR_OUT_OF_MEMORY"
    if isinstance(exc, getattr(torch.cuda, "OutOfMemoryError", ())):
        return True
    return "out of memory" in str(exc).lower()


def short(exc):
    text = f"{type(exc).__name__}: {exc}".replace("\n", " ")
    return text if len(text) <= 300 else text[:297] + "..."


class ContextLost(RuntimeError):
    pass


def recover(exc):
    """After a failed call: free cached memory; raise ContextLost when the
    CUDA context is no longer usable (an illegal address, a failed launch),
    since every later measurement would fail too."""
    gc.collect()
    try:
        torch.cuda.synchronize()
        torch.cuda.empty_cache()
    except Exception as sync_exc:
        raise ContextLost(f"the CUDA context is lost after {short(exc)}: "
                          f"{short(sync_exc)}") from sync_exc


def free_device_memory():
    gc.collect()
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    return torch.cuda.mem_get_info()[0]


@contextlib.contextmanager
def fp32_matmul(precision):
    """PyTorch's fp32 matmul precision: "ieee" or "tf32". Uses the
    fp32_precision setting of PyTorch >= 2.9 when it exists (mixing it with
    the legacy allow_tf32 flag is an error there), else allow_tf32."""
    matmul = torch.backends.cuda.matmul
    try:  # older versions raise AssertionError for unknown attributes
        matmul.fp32_precision
        new_api = True
    except Exception:
        new_api = False
    if new_api:
        old = matmul.fp32_precision
        matmul.fp32_precision = precision
        try:
            yield
        finally:
            matmul.fp32_precision = old
    else:
        old = matmul.allow_tf32
        matmul.allow_tf32 = precision == "tf32"
        try:
            yield
        finally:
            matmul.allow_tf32 = old


def stream_handle():
    return torch.cuda.current_stream().cuda_stream


# --------------------------------------------------------------------------
# Triton kernels (own implementations)
# --------------------------------------------------------------------------

if HAVE_TRITON:

    @triton.jit
    def _softmax_row_kernel(y_ptr, x_ptr, x_row_stride, y_row_stride, n_cols,
                            BLOCK: tl.constexpr):
        # One program normalizes one row, held whole in registers: BLOCK is
        # the row length rounded up to a power of two, the tail masked.
        row = tl.program_id(0).to(tl.int64)
        offs = tl.arange(0, BLOCK)
        valid = offs < n_cols
        vals = tl.load(x_ptr + row * x_row_stride + offs, mask=valid,
                       other=-float("inf")).to(tl.float32)
        peak = tl.max(vals, axis=0)
        weights = tl.exp(vals - peak)
        total = tl.sum(weights, axis=0)
        result = weights / total
        tl.store(y_ptr + row * y_row_stride + offs,
                 result.to(y_ptr.dtype.element_ty), mask=valid)

    @triton.jit
    def _softmax_matmul_kernel(x_ptr, v_ptr, o_ptr,
                               sxb, sxm, sxk, svb, svk, svn, sob, som, son,
                               d2,
                               D3: tl.constexpr, BLOCK_M: tl.constexpr,
                               BLOCK_K: tl.constexpr,
                               PRECISION: tl.constexpr):
        # Program (i, b) computes rows [i*BLOCK_M, (i+1)*BLOCK_M) of batch b,
        # walking d2 in BLOCK_K steps with the running max m and running sum
        # l of the online softmax; the accumulator of exp(X - m) @ V is
        # rescaled by exp(m_old - m_new) whenever the max grows and divided
        # by l once at the end (the same result as the assignment's per-step
        # normalization, with one division instead of one per step).
        # The host checks that BLOCK_M divides d1 and BLOCK_K divides d2.
        pid_m = tl.program_id(0)
        b = tl.program_id(1).to(tl.int64)
        rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        ks = tl.arange(0, BLOCK_K)
        cols = tl.arange(0, D3)
        x_rows = x_ptr + b * sxb + rows[:, None].to(tl.int64) * sxm
        v_cols = v_ptr + b * svb + cols[None, :] * svn

        m_run = tl.full([BLOCK_M], -float("inf"), tl.float32)
        l_run = tl.zeros([BLOCK_M], tl.float32)
        acc = tl.zeros([BLOCK_M, D3], tl.float32)
        for k0 in range(0, d2, BLOCK_K):
            k = k0 + ks
            x_blk = tl.load(x_rows + k[None, :] * sxk).to(tl.float32)
            v_blk = tl.load(v_cols + k[:, None].to(tl.int64) * svk)
            m_new = tl.maximum(m_run, tl.max(x_blk, axis=1))
            rescale = tl.exp(m_run - m_new)
            p = tl.exp(x_blk - m_new[:, None])
            l_run = l_run * rescale + tl.sum(p, axis=1)
            acc = acc * rescale[:, None]
            acc = tl.dot(p.to(v_blk.dtype), v_blk, acc,
                         input_precision=PRECISION)
            m_run = m_new
        result = acc / l_run[:, None]
        o_ptrs = (o_ptr + b * sob + rows[:, None].to(tl.int64) * som
                  + cols[None, :] * son)
        tl.store(o_ptrs, result.to(o_ptr.dtype.element_ty))


def triton_softmax(x, y=None):
    rows, cols = x.shape
    block = triton.next_power_of_2(cols)
    warps = 4
    if block >= 2048:
        warps = 8
    if block >= 4096:
        warps = 16
    if y is None:
        y = torch.empty_like(x)
    _softmax_row_kernel[(rows,)](y, x, x.stride(0), y.stride(0), cols,
                                 BLOCK=block, num_warps=warps)
    return y


def triton_softmax_matmul(x, v, block, warps, stages, precision, out=None):
    batch, d1, d2 = x.shape
    d3 = v.shape[2]
    if d1 % block or d2 % block:
        raise ValueError(f"BLOCK {block} does not divide d1 {d1} and d2 {d2}")
    if d3 & (d3 - 1) or d3 < 16:
        raise ValueError(f"d3 {d3} is not a power of two >= 16")
    if out is None:
        out = torch.empty(batch, d1, d3, dtype=x.dtype, device=x.device)
    grid = (d1 // block, batch)
    _softmax_matmul_kernel[grid](
        x, v, out, *x.stride(), *v.stride(), *out.stride(), d2,
        D3=d3, BLOCK_M=block, BLOCK_K=block, PRECISION=precision,
        num_warps=warps, num_stages=stages)
    return out


def naive_softmax(x):
    """Softmax of each row in separate PyTorch kernels (no fusion): the
    row max, the shift, the exponential, the row sum and the division each
    read and write global memory."""
    row_max = x.max(dim=1).values
    shifted = x - row_max[:, None]
    numerator = torch.exp(shifted)
    denominator = numerator.sum(dim=1)
    return numerator / denominator[:, None]


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------

def format_value(value):
    if value is None:
        return "<NA>"
    if isinstance(value, float):
        return "<NA>" if math.isnan(value) else "%.6g" % value
    return str(value)


def write_csv(path, columns, rows):
    if pd is not None:
        frame = pd.DataFrame([[r.get(c) for c in columns] for r in rows],
                             columns=columns)
        frame.to_csv(path, index=False, na_rep="<NA>", float_format="%.6g")
    else:
        with open(path, "w", newline="") as f:
            writer = csv.writer(f, lineterminator="\n")
            writer.writerow(columns)
            for r in rows:
                writer.writerow([format_value(r.get(c)) for c in columns])


def print_table(columns, rows):
    if pd is not None:
        frame = pd.DataFrame([[r.get(c) for c in columns] for r in rows],
                             columns=columns)
        with pd.option_context("display.max_rows", None,
                               "display.max_columns", None,
                               "display.width", 250,
                               "display.max_colwidth", 60):
            log(frame.to_string(index=False))
        return
    cells = [[format_value(r.get(c)) for c in columns] for r in rows]
    widths = [max([len(c)] + [len(row[i]) for row in cells])
              for i, c in enumerate(columns)]
    log("  ".join(c.rjust(w) for c, w in zip(columns, widths)))
    for row in cells:
        log("  ".join(v.rjust(w) for v, w in zip(row, widths)))


def plot_softmax(rows, copy_gbps, out_dir):
    for dtype in sorted({r["dtype"] for r in rows}):
        subset = [r for r in rows if r["dtype"] == dtype]
        fig, axes = plt.subplots(1, 2, figsize=(15, 5.5))
        for ax, small in zip(axes, (True, False)):
            for provider in dict.fromkeys(r["provider"] for r in subset):
                pts = [(r["N"], r["GB/s"]) for r in subset
                       if r["provider"] == provider
                       and r.get("GB/s") is not None
                       and (not small or r["N"] <= 12672)]
                if pts:
                    xs, ys = zip(*pts)
                    ax.plot(xs, ys, label=provider,
                            marker="" if small else "o", markersize=3)
            if copy_gbps:
                ax.axhline(copy_gbps, color="gray", linestyle="--",
                           label=f"copy ({copy_gbps:.0f} GB/s)")
            ax.set_xlabel("N")
            ax.set_ylabel("GB/s (2*M*N*bytes / time)")
            ax.grid(True, alpha=0.3)
            if small:
                ax.set_title(f"softmax {dtype}, the tutorial's sweep (N <= 12672)")
            else:
                ax.set_xscale("log", base=2)
                ax.set_title(f"softmax {dtype}, all N (M reduced where noted)")
            ax.legend()
        fig.tight_layout()
        path = out_dir / f"softmax_gbps_{dtype}.png"
        fig.savefig(path, dpi=120)
        plt.close(fig)
        log(f"wrote {path}")


def plot_softmax_matmul(rows, out_dir):
    for dtype in sorted({r["dtype"] for r in rows}):
        subset = [r for r in rows if r["dtype"] == dtype]
        labels = dict.fromkeys((r["provider"], r["precision"]) for r in subset)
        for key, ylabel, stem, logy in (
                ("ms", "ms (median)", "softmax_matmul_ms", True),
                ("peak_MiB", "peak MiB (inputs + output + temporaries)",
                 "softmax_matmul_peak", False)):
            fig, ax = plt.subplots(figsize=(8, 5.5))
            for provider, precision in labels:
                pts = [(r["d2"], r[key]) for r in subset
                       if r["provider"] == provider
                       and r["precision"] == precision
                       and r.get(key) is not None]
                if pts:
                    xs, ys = zip(*pts)
                    ax.plot(xs, ys, marker="o", markersize=3,
                            label=f"{provider} ({precision})")
            ax.set_xscale("log", base=2)
            if logy:
                ax.set_yscale("log")
            ax.set_xlabel("d2")
            ax.set_ylabel(ylabel)
            ax.set_title(f"softmax(X) @ V, {dtype}, batch {SM_BATCH}, "
                         f"d1 {SM_D1}, d3 {SM_D3}")
            ax.grid(True, alpha=0.3)
            ax.legend()
            fig.tight_layout()
            path = out_dir / f"{stem}_{dtype}.png"
            fig.savefig(path, dpi=120)
            plt.close(fig)
            log(f"wrote {path}")


# --------------------------------------------------------------------------
# Benchmarks
# --------------------------------------------------------------------------

def copy_bandwidth(bench):
    n = 2**30 // 4
    x = torch.randn(n, device="cuda")
    y = torch.empty_like(x)
    ms = bench.ms(lambda: y.copy_(x))
    return 2 * 2**30 / (ms * 1e-3) / 1e9, ms


def run_softmax(args, bench, tile, dtype_names, notes, rows):
    """Appends one row per (dtype, N, provider) to `rows` (kept by the
    caller when the run stops early)."""
    sizes = SOFTMAX_N_QUICK if args.quick else SOFTMAX_N
    if args.softmax_n:
        sizes = [int(v) for v in args.softmax_n.split(",")]
    unpoisoned = {}  # provider -> whether its last check ran unpoisoned
    for dname in dtype_names:
        dtype = DTYPES[dname]
        es = torch.empty(0, dtype=dtype).element_size()
        tol = SOFTMAX_TOL[dname]
        for n in sizes:
            m = args.softmax_m
            # x and y of the fused providers must fit; the naive one needs
            # more and is recorded as <NA> when it does not fit.
            budget = free_device_memory() * 0.9 - 2**30
            while m > 1 and 2 * m * n * es > budget:
                m //= 2
            shape_note = ""
            if m != args.softmax_m:
                shape_note = (f"M reduced from {args.softmax_m} to {m} "
                              f"to fit device memory")
                notes.append(f"softmax {dname} N={n}: {shape_note}")
            try:
                x = torch.randn(m, n, device="cuda", dtype=dtype)
            except Exception as exc:
                recover(exc)
                log(f"softmax {dname} M={m} N={n}: input allocation failed: "
                    f"{short(exc)}")
                for p in ("torch", "torch-naive", "triton", "tile"):
                    rows.append(dict(provider=p, dtype=dname, M=m, N=n,
                                     tolerance=tol, note=short(exc)))
                continue
            # Reference on evenly spaced rows (all rows when small).
            n_check = max(1, min(m, (1 << 24) // n))
            idx = torch.linspace(0, m - 1, n_check, device="cuda").long()
            ref = torch.softmax(x[idx].double(), dim=-1)

            providers = []
            providers.append(("torch", lambda poison: torch.softmax(x, -1),
                              ""))
            providers.append(("torch-naive", lambda poison: naive_softmax(x),
                              ""))
            if not HAVE_TRITON:
                providers.append(("triton", None,
                                  f"triton unavailable: {TRITON_ERROR}"))
            elif triton.next_power_of_2(n) > args.triton_max_block:
                providers.append((
                    "triton", None,
                    f"skipped: the row-per-program kernel would hold "
                    f"{triton.next_power_of_2(n)} elements per program "
                    f"(> --triton-max-block {args.triton_max_block})"))
            else:
                def run_triton(poison):
                    y = torch.empty_like(x)
                    if poison:
                        y.fill_(float("nan"))
                    return triton_softmax(x, y)
                providers.append(("triton", run_triton, ""))
            if not tile.has_softmax:
                providers.append(("tile", None,
                                  "libtile.so has no tile_softmax"))
            else:
                def run_tile(poison):
                    if not poison:
                        return tile.ops.softmax(x)
                    blocks = PoisonedBlocks((x.shape, x.dtype))
                    y = tile.ops.softmax(x)
                    unpoisoned["tile"] = blocks.missed(y)
                    return y
                providers.append(("tile", run_tile, ""))
            providers = selected(args, providers)

            for name, fn, why in providers:
                row = dict(provider=name, dtype=dname, M=m, N=n,
                           tolerance=tol, note="; ".join(
                               s for s in (shape_note, why) if s))
                rows.append(row)
                if fn is None:
                    continue
                try:
                    y = fn(True)
                    torch.cuda.synchronize()
                    # Every element written (the output was NaN-poisoned),
                    # the sampled rows against float64.
                    err = rel_error(y[idx], ref) if all_finite(y) else math.inf
                    if name == "tile":
                        variant = tile.softmax_variant(y, x)
                        extra = (f"variant {variant}" if variant else "",
                                 UNPOISONED_NOTE if unpoisoned.get(name)
                                 else "")
                        row["note"] = "; ".join(
                            s for s in (row["note"], *extra) if s)
                    del y
                    ms = bench.ms(lambda: fn(False))
                except ContextLost:
                    raise
                except Exception as exc:
                    recover(exc)
                    what = "out of memory" if is_oom(exc) else short(exc)
                    row["note"] = "; ".join(s for s in (row["note"], what)
                                            if s)
                    log(f"softmax {dname} M={m} N={n} {name}: <NA> ({what})")
                    continue
                row["ms"] = ms
                row["GB/s"] = 2 * m * n * es / (ms * 1e-3) / 1e9
                row["rel_error"] = err
                row["ok"] = err <= tol
                flag = "" if row["ok"] else "   *** ERROR ABOVE TOLERANCE ***"
                log(f"softmax {dname} M={m:5d} N={n:8d} {name:12s} "
                    f"{ms:9.4f} ms {row['GB/s']:8.1f} GB/s err {err:.2e}{flag}")
            # Drop the tensors (the closures in `providers` hold x too).
            x = ref = idx = providers = None
            free_device_memory()


def selected(args, providers):
    """The entries of `providers` (tuples, the provider's name first) that
    --providers asks for; all of them without it."""
    if not args.providers:
        return providers
    wanted = args.providers.split(",")
    return [p for p in providers if p[0] in wanted]


def run_softmax_matmul(args, bench, tile, dtype_names, notes, rows,
                       config_rows):
    """Appends one row per (dtype, d2, provider, precision) to `rows` and
    one per Triton configuration to `config_rows`."""
    d2s = D2_QUICK if args.quick else D2
    batch, d1, d3 = SM_BATCH, SM_D1, SM_D3
    unpoisoned = {}  # tile precision -> whether its last check ran unpoisoned
    for dname in dtype_names:
        dtype = DTYPES[dname]
        half = dtype != torch.float32
        for d2 in d2s:
            try:
                x = torch.randn(batch, d1, d2, device="cuda", dtype=dtype)
                v = torch.randn(batch, d2, d3, device="cuda", dtype=dtype)
                ref = torch.empty(batch, d1, d3, device="cuda",
                                  dtype=torch.float64)
                for b in range(batch):  # float64, one batch at a time
                    ref[b] = torch.softmax(x[b].double(), -1) @ v[b].double()
            except Exception as exc:
                recover(exc)
                log(f"softmax_matmul {dname} d2={d2}: inputs failed: "
                    f"{short(exc)}")
                rows.append(dict(provider="all", dtype=dname, batch=batch,
                                 d1=d1, d2=d2, d3=d3, note=short(exc)))
                continue
            input_bytes = (x.numel() * x.element_size()
                           + v.numel() * v.element_size())

            def new_out(poison):
                out = torch.empty(batch, d1, d3, device="cuda", dtype=dtype)
                if poison:
                    out.fill_(float("nan"))
                return out

            # (provider, precision, fn(poison) -> out, precision context,
            #  unavailable reason)
            providers = []
            torch_precisions = ["native"] if half else ["ieee", "tf32"]
            for prec in torch_precisions:
                providers.append(("torch", prec,
                                  lambda poison: F.softmax(x, dim=-1) @ v,
                                  "ieee" if prec == "native" else prec, ""))

            # The product alone through cuBLAS (torch.matmul, no softmax):
            # the rate a fused kernel is measured against, not a provider
            # of the same result (its error is against float64 X @ V).
            for prec in torch_precisions:
                providers.append(("cublas-matmul", prec,
                                  lambda poison: torch.matmul(x, v),
                                  "ieee" if prec == "native" else prec, ""))

            triton_precisions = ["native"] if half else ["tf32", "ieee"]
            if not selected(args, [("triton-fused",)]):
                triton_precisions = []  # its configuration sweep is long
            for prec in triton_precisions:
                if not HAVE_TRITON:
                    providers.append(("triton-fused", prec, None, None,
                                      f"triton unavailable: {TRITON_ERROR}"))
                    continue
                # Best configuration first (timed separately, each with the
                # same timer), then measured as the provider.
                # f16/bf16 products are exact in f32: no precision choice.
                tl_prec = None if prec == "native" else prec
                best = None
                for block, warps, stages in TRITON_SM_CONFIGS:
                    crow = dict(dtype=dname, precision=prec, d2=d2,
                                BLOCK=block, num_warps=warps,
                                num_stages=stages)
                    config_rows.append(crow)
                    try:
                        cfg_fn = (lambda poison, b_=block, w_=warps,
                                  s_=stages, p_=tl_prec:
                                  triton_softmax_matmul(x, v, b_, w_, s_, p_,
                                                        new_out(poison)))
                        ms = bench.ms(lambda: cfg_fn(False))
                        crow["ms"] = ms
                        if best is None or ms < best[0]:
                            best = (ms, block, warps, stages)
                    except ContextLost:
                        raise
                    except Exception as exc:
                        recover(exc)
                        crow["note"] = ("out of memory" if is_oom(exc)
                                        else short(exc))
                    log(f"  triton-fused {dname} {prec} d2={d2} BLOCK={block} "
                        f"warps={warps} stages={stages}: "
                        f"{format_value(crow.get('ms'))} ms "
                        f"{crow.get('note', '')}")
                if best is None:
                    providers.append(("triton-fused", prec, None, None,
                                      "no configuration ran (see "
                                      "softmax_matmul_triton_configs.csv)"))
                    continue
                _, block, warps, stages = best
                providers.append((
                    "triton-fused", prec,
                    lambda poison, b_=block, w_=warps, s_=stages, p_=tl_prec:
                    triton_softmax_matmul(x, v, b_, w_, s_, p_,
                                          new_out(poison)),
                    None, "", f"BLOCK={block},num_warps={warps},"
                              f"num_stages={stages}"))

            tile_precisions = ["native"] if half else ["tf32", "ieee",
                                                       "tf32x3"]
            for prec in tile_precisions:
                if not tile.has_softmax_matmul:
                    providers.append(("tile", prec, None, None,
                                      "libtile.so has no tile_softmax_matmul"))
                    continue
                lib_prec = "ieee" if prec == "native" else prec

                def run_tile(poison, p_=lib_prec, label=prec):
                    if not poison:
                        return tile.ops.softmax_matmul(x, v, precision=p_)
                    blocks = PoisonedBlocks(((batch, d1, d3), dtype))
                    out = tile.ops.softmax_matmul(x, v, precision=p_)
                    unpoisoned[label] = blocks.missed(out)
                    return out
                providers.append(("tile", prec, run_tile, None, "",
                                  tile.softmax_matmul_variant(x, v,
                                                              lib_prec)))

            providers = selected(args, providers)
            product_ref = None
            if any(p[0] == "cublas-matmul" for p in providers):
                product_ref = torch.empty_like(ref)
                for b in range(batch):
                    product_ref[b] = x[b].double() @ v[b].double()
            rates = {}
            for entry in providers:
                name, prec, fn, torch_prec, why = entry[:5]
                config = entry[5] if len(entry) > 5 else ""
                tol = SM_TOL_HALF[dname] if half else SM_TOL_F32[prec]
                row = dict(provider=name, dtype=dname, precision=prec,
                           batch=batch, d1=d1, d2=d2, d3=d3, tolerance=tol,
                           config=config, note=why)
                rows.append(row)
                if fn is None:
                    continue
                ctx = (fp32_matmul(torch_prec) if torch_prec
                       else contextlib.nullcontext())
                try:
                    with ctx:
                        out = fn(True)
                        torch.cuda.synchronize()
                        err = rel_error(out, product_ref
                                        if name == "cublas-matmul" else ref)
                        del out
                        if name == "tile" and unpoisoned.get(prec):
                            row["note"] = "; ".join(
                                s for s in (row["note"], UNPOISONED_NOTE)
                                if s)
                        ms = bench.ms(lambda: fn(False))
                        # Peak: inputs + what one call allocates (output and
                        # temporaries), from torch's allocator.
                        torch.cuda.synchronize()
                        before = torch.cuda.memory_allocated()
                        torch.cuda.reset_peak_memory_stats()
                        out = fn(False)
                        torch.cuda.synchronize()
                        extra = torch.cuda.max_memory_allocated() - before
                        del out
                except ContextLost:
                    raise
                except Exception as exc:
                    recover(exc)
                    what = "out of memory" if is_oom(exc) else short(exc)
                    row["note"] = "; ".join(s for s in (row["note"], what)
                                            if s)
                    log(f"softmax_matmul {dname} d2={d2} {name} ({prec}): "
                        f"<NA> ({what})")
                    continue
                row["ms"] = ms
                row["TFLOP/s"] = (2 * batch * d1 * d2 * d3
                                  / (ms * 1e-3) / 1e12)
                rates[(name, prec)] = row["TFLOP/s"]
                row["peak_MiB"] = (input_bytes + extra) / 2**20
                row["rel_error"] = err
                row["ok"] = err <= tol
                flag = "" if row["ok"] else "   *** ERROR ABOVE TOLERANCE ***"
                log(f"softmax_matmul {dname} d2={d2:5d} {name:12s} "
                    f"{prec:7s} {ms:9.4f} ms {row['TFLOP/s']:7.2f} TFLOP/s "
                    f"{row['peak_MiB']:9.1f} MiB err {err:.2e}{flag}")
            for prec in tile_precisions:
                base = "native" if half else prec
                if ("tile", prec) in rates and ("cublas-matmul",
                                                base) in rates:
                    log(f"softmax_matmul {dname} d2={d2:5d} tile {prec} at "
                        f"{rates[('tile', prec)] / rates[('cublas-matmul', base)]:.2f}"
                        f" of cuBLAS's {base} product rate")
            x = v = ref = product_ref = providers = None
            free_device_memory()


MATMUL_TILE_KERNELS = (
    ("matmul_f16", "matmul_f16"),
    ("matmul_f16", "matmul_f16_leaky_relu"),
    ("matmul_f16_auto", "matmul_f16_auto"),
    ("matmul_f16_sm90a", "matmul_f16"),
    ("matmul_f16_sm90a", "matmul_f16_leaky_relu"),
    ("matmul_f16_auto_sm90a", "matmul_f16_auto"),
    ("matmul_f16_hopper_sm90a", "matmul_f16_hopper"),
    ("matmul_f16_hopper_sm90a", "matmul_f16_hopper_leaky_relu"),
    ("matmul_f16_hopper_sm90a", "matmul_f16_hopper_tma"),
    ("matmul_f16_hopper_sm90a", "matmul_f16_hopper_tma_leaky_relu"),
)


def run_matmul(args, bench, tile, rows):
    """f16 matmul: cuBLAS (torch.matmul), with leaky ReLU, and Tile's
    example kernels; one row per (shape, provider, kernel)."""
    kernels_dir = Path(args.kernels_dir)
    stream = stream_handle()
    tile_kernels = {}
    why = ""
    # (file, kernel): the hand-pipelined kernels and the one pipelined by
    # the compiler (tile.num_stages).
    # The sm_90a builds (wgmma) load on compute capability 9.0 only.
    for file, name in MATMUL_TILE_KERNELS:
        ptx = kernels_dir / f"{file}.ptx"
        meta = kernels_dir / f"{file}.meta"
        if not ptx.exists():
            why = f"{ptx} not found (build the examples)"
            continue
        try:
            tile_kernels[(file, name)] = tile.load_kernel(ptx, meta, name)
        except (TileError, ValueError) as exc:
            why = str(exc)
    if any(k is None for k in tile_kernels.values()):
        why = "libtile.so has no module API"
    shapes = MATMUL_SHAPES_QUICK if args.quick else MATMUL_SHAPES
    for m, n, k in shapes:
        try:
            a = torch.randn(m, k, device="cuda", dtype=torch.float16)
            b = torch.randn(k, n, device="cuda", dtype=torch.float16)
            ref = a.double() @ b.double()
            ref_leaky = F.leaky_relu(ref, 0.01)
        except Exception as exc:
            recover(exc)
            log(f"matmul {m}x{n}x{k}: inputs failed: {short(exc)}")
            continue
        def tile_fn(key):
            # The hopper kernels' tiles of C are 128 x 256, the others'
            # 128 x 128.
            block_n = 256 if "hopper" in key[0] else 128
            programs = ((m + 127) // 128) * ((n + block_n - 1) // block_n)

            def run(poison):
                c = torch.empty(m, n, device="cuda", dtype=torch.float16)
                if poison:
                    c.fill_(float("nan"))
                tile.launch(tile_kernels[key], (programs, 1, 1), [
                    ("ptr", a.data_ptr()), ("ptr", b.data_ptr()),
                    ("ptr", c.data_ptr()), ("i32", m), ("i32", n),
                    ("i32", k), ("i64", a.stride(0)), ("i64", a.stride(1)),
                    ("i64", b.stride(0)), ("i64", b.stride(1)),
                    ("i64", c.stride(0)), ("i64", c.stride(1))], stream)
                return c
            return run

        providers = [
            ("torch", "matmul", lambda poison: a @ b, ref, ""),
            ("torch", "matmul_leaky_relu",
             lambda poison: F.leaky_relu(a @ b, 0.01), ref_leaky, ""),
        ]
        for provider, key, kernel, r in (
                ("tile", ("matmul_f16", "matmul_f16"), "matmul", ref),
                ("tile", ("matmul_f16", "matmul_f16_leaky_relu"),
                 "matmul_leaky_relu", ref_leaky),
                ("tile-auto", ("matmul_f16_auto", "matmul_f16_auto"),
                 "matmul", ref),
                ("tile-wgmma", ("matmul_f16_sm90a", "matmul_f16"),
                 "matmul", ref),
                ("tile-wgmma", ("matmul_f16_sm90a", "matmul_f16_leaky_relu"),
                 "matmul_leaky_relu", ref_leaky),
                ("tile-auto-wgmma",
                 ("matmul_f16_auto_sm90a", "matmul_f16_auto"), "matmul",
                 ref),
                ("tile-hopper", ("matmul_f16_hopper_sm90a",
                                 "matmul_f16_hopper"), "matmul", ref),
                ("tile-hopper", ("matmul_f16_hopper_sm90a",
                                 "matmul_f16_hopper_leaky_relu"),
                 "matmul_leaky_relu", ref_leaky),
                ("tile-hopper-tma", ("matmul_f16_hopper_sm90a",
                                     "matmul_f16_hopper_tma"), "matmul", ref),
                ("tile-hopper-tma", ("matmul_f16_hopper_sm90a",
                                     "matmul_f16_hopper_tma_leaky_relu"),
                 "matmul_leaky_relu", ref_leaky)):
            available = tile_kernels.get(key) is not None
            providers.append((provider, kernel,
                              tile_fn(key) if available else None, r,
                              "" if available else why or "not loaded"))
        for provider, kernel, fn, r, note in selected(args, providers):
            row = dict(provider=provider, kernel=kernel, M=m, N=n, K=k,
                       tolerance=MATMUL_TOL, note=note)
            rows.append(row)
            if fn is None:
                continue
            try:
                out = fn(True)
                torch.cuda.synchronize()
                err = rel_error(out, r)
                del out
                ms = bench.ms(lambda: fn(False))
            except ContextLost:
                raise
            except Exception as exc:
                recover(exc)
                row["note"] = "; ".join(s for s in (note, short(exc)) if s)
                log(f"matmul {m}x{n}x{k} {provider} {kernel}: <NA> "
                    f"({row['note']})")
                continue
            row["ms"] = ms
            row["TFLOP/s"] = 2 * m * n * k / (ms * 1e-3) / 1e12
            row["rel_error"] = err
            row["ok"] = err <= MATMUL_TOL
            flag = "" if row["ok"] else "   *** ERROR ABOVE TOLERANCE ***"
            log(f"matmul f16 {m:5d}x{n:5d}x{k:5d} {provider:6s} {kernel:18s} "
                f"{ms:9.4f} ms {row['TFLOP/s']:7.1f} TFLOP/s err {err:.2e}"
                f"{flag}")
        a = b = ref = ref_leaky = providers = None
        free_device_memory()


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------

def parse_args(argv=None):
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--lib", help="path of libtile.so (default: "
                   "build/lib/libtile.so or build/runtime/libtile.so, under "
                   "the current directory or the repository)")
    p.add_argument("--out", default="outputs",
                   help="output directory (default: outputs/)")
    p.add_argument("--dtypes", default="f32",
                   help="comma-separated element types: f32, f16, bf16 "
                        "(default: f32)")
    p.add_argument("--softmax-n", default="",
                   help="comma-separated row lengths instead of the sweep "
                   "(e.g. for tuning one variant, TILE_SOFTMAX_VARIANT)")
    p.add_argument("--providers", default="",
                   help="comma-separated subset of the providers (softmax: "
                   "torch, torch-naive, triton, tile; softmax_matmul: torch, "
                   "triton-fused, tile; matmul: torch, tile, tile-auto, "
                   "tile-wgmma, tile-auto-wgmma, tile-hopper, "
                   "tile-hopper-tma; attention: tile, triton, sdpa-flash, "
                   "sdpa-cudnn, sdpa-efficient, sdpa-math)")
    p.add_argument("--kernels-dir", default=str(REPO_ROOT / "build" / "kernels"),
                   help="PTX and metadata of the example kernels (matmul "
                   "section; default build/kernels)")
    p.add_argument("--only", choices=["softmax", "softmax_matmul", "matmul",
                                      "attention"],
                   help="run one of the benchmarks (attention runs only "
                   "when named here)")
    p.add_argument("--attention-seqs", default="",
                   help="attention: comma-separated seq values instead of "
                   "the sweep's 512..16384 (batch = 16384 // seq)")
    p.add_argument("--attention-shapes", default=",".join(attention.SHAPES),
                   help="attention: comma-separated subset of "
                   + ", ".join(attention.SHAPES) + " (default: all)")
    p.add_argument("--attention-interleave", action="store_true",
                   help="attention: time a point's providers in turns, call "
                        "by call, instead of one after another (a GPU at "
                        "its power limit otherwise gives each the clock the "
                        "ones before it left)")
    p.add_argument("--attention-triton-configs", choices=["default", "all"],
                   default="default",
                   help="attention: Triton candidates timed per point: "
                   f"default ({len(attention.TRITON_CONFIGS)}) or all "
                   f"({len(attention.TRITON_CONFIGS_ALL)}: BLOCK_M 64/128 x "
                   "BLOCK_N 32/64/128 x warps 4/8 x stages 2/3/4)")
    p.add_argument("--quick", action="store_true",
                   help="smoke run: few shapes, 5 warm-ups and 20 timed "
                        "calls unless --warmup/--reps are given")
    p.add_argument("--warmup", type=int, help="warm-up calls (default 10)")
    p.add_argument("--reps", type=int,
                   help="timed calls per measurement, median reported "
                        "(default 100)")
    p.add_argument("--flush-mib", type=int, default=256,
                   help="MiB zeroed before each timed call to flush L2 "
                        "(default 256; 0: no flush)")
    p.add_argument("--softmax-m", type=int, default=4096,
                   help="rows of the softmax matrices (default 4096; halved "
                        "for large N until x and y fit)")
    p.add_argument("--triton-max-block", type=int, default=131072,
                   help="largest row (power of two) given to the "
                        "row-per-program Triton softmax; longer rows are "
                        "recorded as <NA> (default 131072)")
    p.add_argument("--no-plots", action="store_true",
                   help="skip the plots")
    p.add_argument("--clocks", action="store_true",
                   help="sample the SM clock with nvidia-smi while each "
                        "measurement runs (attention: column sm_mhz)")
    args = p.parse_args(argv)
    names = [d.strip() for d in args.dtypes.split(",") if d.strip()]
    bad = [d for d in names if d not in DTYPES]
    if bad or not names:
        p.error(f"--dtypes: unknown {bad}; use f32, f16, bf16")
    args.dtype_names = names
    shapes = [s.strip() for s in args.attention_shapes.split(",") if s.strip()]
    bad = [s for s in shapes if s not in attention.SHAPES]
    if bad or not shapes:
        p.error(f"--attention-shapes: unknown {bad}; use "
                + ", ".join(attention.SHAPES))
    try:
        seqs = [int(s) for s in args.attention_seqs.split(",") if s.strip()]
    except ValueError:
        p.error(f"--attention-seqs needs integers, got {args.attention_seqs!r}")
    if any(s < 1 or s > attention.SWEEP_TOKENS for s in seqs):
        p.error(f"--attention-seqs: values from 1 to {attention.SWEEP_TOKENS}")
    if args.warmup is None:
        args.warmup = 5 if args.quick else 10
    if args.reps is None:
        args.reps = 20 if args.quick else 100
    if args.warmup < 0 or args.reps < 1:
        p.error("--warmup must be >= 0 and --reps >= 1")
    return args


def flag_text(r):
    """One line for a result above tolerance."""
    if "seq_q" in r:
        return attention.flag_text(r)
    if "K" in r:
        where = f"{r['kernel']} {r['M']}x{r['N']}x{r['K']}"
    elif "N" in r:
        where = f"{r['dtype']} {r.get('precision', '')} N={r['N']}"
    else:
        where = f"{r['dtype']} {r.get('precision', '')} d2={r['d2']}"
    return (f"{r['provider']} {where}: {r['rel_error']:.2e} > "
            f"{r['tolerance']:g}")


def main(argv=None):
    args = parse_args(argv)
    if torch is None:
        sys.exit(f"compare.py needs PyTorch with CUDA ({TORCH_ERROR})")
    if not torch.cuda.is_available():
        sys.exit("compare.py: torch.cuda is not available")
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)

    torch.manual_seed(0)
    device = torch.cuda.current_device()
    torch.empty(1, device="cuda")  # torch's context first: the primary one
    lib_path = find_library(args.lib)
    try:
        tile = TileLib(lib_path)
        tile.init(device)
    except (OSError, TileError) as exc:
        sys.exit(f"compare.py: cannot use {lib_path}: {exc}")
    props = torch.cuda.get_device_properties(device)
    date = datetime.datetime.now(datetime.timezone.utc).strftime(
        "%Y-%m-%d %H:%M:%S UTC")
    log(f"device: {props.name} (sm_{props.major}{props.minor}, "
        f"{props.multi_processor_count} SMs, "
        f"{props.total_memory / 2**30:.1f} GiB); tile sees "
        f"{tile.device_name()}")
    log(f"torch {torch.__version__} (CUDA {torch.version.cuda}), triton "
        f"{triton.__version__ if HAVE_TRITON else 'unavailable: ' + TRITON_ERROR}"
        f", libtile: {lib_path}")
    if pd is None:
        log("pandas is not installed: CSVs written with the csv module")
    if plt is None and not args.no_plots:
        log("matplotlib is not installed: no plots")

    bench = Bench(args.warmup, args.reps, args.flush_mib,
                  ClockSampler() if args.clocks else None)
    copy_gbps, copy_ms = copy_bandwidth(bench)
    log(f"copy bandwidth: {copy_gbps:.1f} GB/s (1 GiB y.copy_(x), "
        f"{copy_ms:.4f} ms)")

    notes = []
    softmax_rows, sm_rows, config_rows, mm_rows = [], [], [], []
    attn_rows, attn_config_rows = [], []
    fatal = None
    started = time.time()
    try:
        if args.only in (None, "softmax"):
            run_softmax(args, bench, tile, args.dtype_names, notes,
                        softmax_rows)
        if args.only in (None, "softmax_matmul"):
            run_softmax_matmul(args, bench, tile, args.dtype_names, notes,
                               sm_rows, config_rows)
        if args.only in (None, "matmul"):
            run_matmul(args, bench, tile, mm_rows)
        if args.only == "attention":
            attention.run_attention(args, bench, tile, notes, attn_rows,
                                    attn_config_rows, sys.modules[__name__])
    except ContextLost as exc:
        fatal = str(exc)
        log(f"\n*** FATAL: {fatal}; writing the results so far ***\n")

    device_row = dict(device=props.name, capability=f"{props.major}.{props.minor}",
                      sms=props.multi_processor_count,
                      memory_GiB=round(props.total_memory / 2**30, 1),
                      copy_GBps=copy_gbps, date=date,
                      torch=torch.__version__, cuda=torch.version.cuda,
                      triton=triton.__version__ if HAVE_TRITON else None,
                      libtile=str(lib_path), warmup=args.warmup,
                      reps=args.reps, flush_MiB=args.flush_mib,
                      command=" ".join([Path(sys.argv[0]).name]
                                       + sys.argv[1:]))
    write_csv(out_dir / "device.csv", list(device_row), [device_row])
    if softmax_rows:
        write_csv(out_dir / "softmax.csv", SOFTMAX_COLUMNS, softmax_rows)
    if sm_rows:
        write_csv(out_dir / "softmax_matmul.csv", SM_COLUMNS, sm_rows)
    if config_rows:
        write_csv(out_dir / "softmax_matmul_triton_configs.csv",
                  TRITON_CONFIG_COLUMNS, config_rows)
    if mm_rows:
        write_csv(out_dir / "matmul.csv", MATMUL_COLUMNS, mm_rows)
    if attn_rows:
        write_csv(out_dir / "attention.csv", attention.COLUMNS, attn_rows)
    if attn_config_rows:
        write_csv(out_dir / "attention_triton_configs.csv",
                  attention.CONFIG_COLUMNS, attn_config_rows)

    flagged = [r for r in softmax_rows + sm_rows + mm_rows + attn_rows
               if r.get("ok") is False]
    with open(out_dir / "notes.md", "w") as f:
        f.write(f"# compare.py run\n\n"
                f"- Device: {props.name} (sm_{props.major}{props.minor}, "
                f"{props.multi_processor_count} SMs), {date}\n"
                f"- Command: `{device_row['command']}` "
                f"(python {platform.python_version()}, torch "
                f"{torch.__version__}, triton {device_row['triton']}, "
                f"libtile {lib_path})\n"
                f"- Copy bandwidth: {copy_gbps:.1f} GB/s (y.copy_(x), 1 GiB,"
                f" 2*bytes/time)\n"
                f"- Timing: {args.warmup} warm-ups, then {args.reps} calls "
                f"each between its own CUDA events, median; "
                f"{args.flush_mib} MiB zeroed before each call to flush L2 "
                f"(outside the events); the same function for every "
                f"provider.\n")
        if softmax_rows or sm_rows or mm_rows:
            f.write(
                f"- Errors: max|got - ref| / max|ref| against torch in "
                f"float64 (softmax: evenly spaced rows, all rows up to 2^24 "
                f"elements; softmax-matmul: the whole output); inf when the "
                f"output, poisoned with NaN before the checked call, has a "
                f"non-finite element.\n"
                f"- peak_MiB: inputs + (torch.cuda.max_memory_allocated() "
                f"after reset_peak_memory_stats() - memory_allocated() "
                f"before) for one call: the inputs, the output and any "
                f"temporaries allocated through PyTorch. Tile's library "
                f"allocates nothing: its peak is the tensors this script "
                f"allocated (inputs and output); the Triton kernel likewise.\n"
                f"- triton-fused: best of BLOCK (= BLOCK_M = BLOCK_K) "
                f"16/32/64 with num_stages 1/2 (all in "
                f"softmax_matmul_triton_configs.csv); precision 'native' is "
                f"f16/bf16 products with f32 accumulation.\n"
                f"- torch f16/bf16 softmax-matmul uses PyTorch's defaults "
                f"(reduced-precision reductions allowed).\n")
        for n in notes:
            f.write(f"- {n}\n")
        if flagged:
            f.write("\n## Errors above tolerance\n\n")
            for r in flagged:
                f.write(f"- {flag_text(r)}\n")
        if fatal:
            f.write(f"\n**The run stopped early:** {fatal}\n")

    if softmax_rows:
        log("\nsoftmax:")
        print_table(SOFTMAX_COLUMNS, softmax_rows)
    if sm_rows:
        log("\nsoftmax(X) @ V:")
        print_table(SM_COLUMNS, sm_rows)
    if attn_rows:
        log("\nattention forward:")
        print_table(attention.SUMMARY_COLUMNS, attn_rows)

    if not args.no_plots and plt is not None:
        if softmax_rows:
            plot_softmax(softmax_rows, copy_gbps, out_dir)
        if sm_rows:
            plot_softmax_matmul(sm_rows, out_dir)
    if not args.no_plots and attn_rows:
        attention.write_plots(attn_rows, out_dir, plt, log)

    log(f"\nwrote {out_dir}/ in {time.time() - started:.0f} s")
    if flagged:
        log(f"\n*** {len(flagged)} result(s) above tolerance: ***")
        for r in flagged:
            log(f"  {flag_text(r)}")
    if fatal:
        return 3
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
