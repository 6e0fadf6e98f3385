"""Attention forward pass: Tile's ``tile_attention`` against PyTorch's
scaled_dot_product_attention backends and a fused Triton kernel.

Run through compare.py (its timer, its Tile wrapper, its CSV and notes
writers)::

    python3 bench/scripts/compare.py --only attention --lib build/lib/libtile.so --out DIR

The benchmark is not part of compare.py's default run: every point also
selects the Triton kernel's configuration by timing a dozen of them (and
compiles each), which takes minutes.

The sweep (BHSD layout: q and o are contiguous torch tensors [batch, heads,
seq_q, head_dim], k and v [batch, kv_heads, seq_k, head_dim]; q, k and v
drawn from N(0, 1); scale = 1/sqrt(head_dim)):

* ``sweep``: 16 heads, head_dim 64 and 128, causal no and yes, seq_q =
  seq_k = seq in {512, 1024, 2048, 4096, 8192, 16384} with batch =
  16384 // seq (16k tokens per point);
* ``gqa``: batch 4, 32 query heads sharing 8 key/value heads, head_dim 128,
  seq 4096, causal no and yes;
* ``ragged``: batch 4, 16 heads, head_dim 128, seq_q 1000, seq_k 3001,
  causal no and yes.

Element types: f16, and bf16 when --dtypes names it (f32 is not part of
this benchmark; --dtypes without f16 or bf16 runs f16). --quick runs seq
512 and 2048 of the sweep, the non-causal gqa point and the causal ragged
point.

Causal masking is aligned bottom-right: key j is visible to query i when
j <= i + seq_k - seq_q (FlashAttention 2 and later, and Tile); a query that
sees no key gets a zero output row and LSE -inf.

Providers, all timed by compare.py's Bench.ms (warm-ups, each call between
its own CUDA events, L2 flushed before each, median):

* ``tile``: tile.attention of the tile package (tile_attention through
  ctypes on the torch tensors and current stream); the kernel it runs
  (tile_attention_variant) is the CSV's ``variant``. Timed without the
  LSE output (return_lse=False); the check call returns it.
* ``triton``: the fused kernel of this module (online softmax over key
  blocks, tl.dot for q k^T and p v, causal blocks split into unmasked ones
  below the diagonal, masked ones on it and skipped ones above it). Its
  configuration (BLOCK_M, BLOCK_N, num_warps, num_stages) is chosen per
  point by timing each candidate with the same Bench.ms at fewer calls
  (2 warm-ups, a tenth of --reps, at least 3); every candidate is in
  attention_triton_configs.csv and the chosen one, measured again with
  the full timer, in attention.csv's ``variant``.
* ``sdpa-flash``, ``sdpa-cudnn``, ``sdpa-efficient``:
  F.scaled_dot_product_attention under
  torch.nn.attention.sdpa_kernel(SDPBackend.X); ``sdpa-math`` only where
  batch * heads * seq_q * seq_k <= 2^28 (it materializes the scores).
  Causal points with seq_q == seq_k pass is_causal=True; the ragged causal
  point passes torch.nn.attention.bias.causal_lower_right (bottom-right,
  which is_causal is not when seq_q != seq_k; PyTorch runs it with the
  flash or efficient kernel, and under the cuDNN and math backends as a
  materialized dense mask). GQA passes enable_gqa=True; where torch has no
  enable_gqa or the backend refuses it, k and v are repeated to the query
  heads (repeat_interleave, outside the timed call) and the CSV's ``gqa``
  column says so. A backend that has no kernel for a point is recorded as
  ``unsupported`` with the reason PyTorch gives.

FLOPs: 4 * batch * heads * head_dim * pairs, pairs being seq_q * seq_k
without a mask, seq_q * seq_k / 2 for causal points with seq_q == seq_k
(the usual convention), and the exact number of visible (query, key) pairs
for causal points with seq_q != seq_k: the sum over i of
min(seq_k, max(0, i + seq_k - seq_q + 1)). TFLOP/s = FLOPs / time.
tile_speedup = this provider's ms / tile's ms at the same point (above 1:
Tile is faster; 1 for tile itself).

Checks, once per point and provider, on batch entry 0 and the first and
last query heads, against a float64 reference computed in torch from the
same inputs: max_abs_err = max |o - o_ref| (inf when any output element is
not finite; Tile's and Triton's outputs are NaN-poisoned before the check
call), tolerance 2e-3 for f16 and 1.6e-2 for bf16; for tile also
lse_rel_err = max |lse - lse_ref| / max |lse_ref| over the rows with a
visible key (rows without one must be -inf), tolerance 1e-4. A result
above tolerance has ok = False, is flagged in the log and notes.md, and
makes compare.py's exit status 1.

Outputs (compare.py's --out): attention.csv (one row per point and
provider), attention_triton_configs.csv, lines in notes.md (cuDNN version,
these definitions), attention_<dtype>_d<head_dim>_<causal|noncausal>.svg
(TFLOP/s against seq for the sweep, drawn with plot_svg.py, no matplotlib
needed) and, with matplotlib, attention_tflops_<dtype>.png (the four
configurations in a 2x2 grid).
"""

from __future__ import annotations

import contextlib
import copy
import math
import re
import warnings
from pathlib import Path

from optional_imports import HAVE_TRITON, TRITON_ERROR, F, tl, torch, triton

import plot_svg

# --------------------------------------------------------------------------
# The benchmark's definition
# --------------------------------------------------------------------------

SWEEP_TOKENS = 16384          # batch * seq of every sweep point
SWEEP_HEADS = 16
SWEEP_SEQS = [512, 1024, 2048, 4096, 8192, 16384]
SWEEP_SEQS_QUICK = [512, 2048]
SWEEP_HEAD_DIMS = [64, 128]
SHAPES = ("sweep", "gqa", "ragged")
# shape -> (batch, heads, kv_heads, seq_q, seq_k, head_dim)
FIXED_POINTS = {
    "gqa": (4, 32, 8, 4096, 4096, 128),
    "ragged": (4, 16, 16, 1000, 3001, 128),
}
# The (shape, causal) pairs of the fixed points that --quick runs.
FIXED_QUICK = {("gqa", False), ("ragged", True)}
HALF_DTYPES = ("f16", "bf16")

OUT_TOL = {"f16": 2e-3, "bf16": 1.6e-2}   # max |o - o_ref|
LSE_TOL = 1e-4                            # max |lse - ref| / max |ref|
# sdpa-math materializes batch * heads * seq_q * seq_k scores: run it only
# up to this many.
MATH_MAX_SCORES = 1 << 28
# Query rows per block of the float64 reference (bounds its scores to
# 2^25 elements, 256 MiB).
REFERENCE_SCORES = 1 << 25
LOG2E = 1.4426950408889634

SDPA_BACKENDS = {  # provider -> torch.nn.attention.SDPBackend member
    "sdpa-flash": "FLASH_ATTENTION",
    "sdpa-cudnn": "CUDNN_ATTENTION",
    "sdpa-efficient": "EFFICIENT_ATTENTION",
    "sdpa-math": "MATH",
}
PROVIDERS = ["tile", "triton"] + list(SDPA_BACKENDS)

# Triton candidates: (BLOCK_M, BLOCK_N, num_warps, num_stages). The default
# set covers each value of the full grid at least once.
TRITON_CONFIGS = [
    (128, 64, 8, 3), (128, 64, 4, 3), (128, 64, 8, 4), (128, 128, 8, 2),
    (128, 128, 8, 3), (128, 32, 4, 4), (128, 32, 8, 3), (64, 64, 4, 3),
    (64, 64, 4, 4), (64, 128, 4, 2), (64, 128, 8, 3), (64, 32, 4, 2),
]
TRITON_CONFIGS_ALL = [(m, n, w, s) for m in (64, 128) for n in (32, 64, 128)
                      for w in (4, 8) for s in (2, 3, 4)]

COLUMNS = ["provider", "dtype", "shape", "head_dim", "causal", "batch",
           "heads", "kv_heads", "seq_q", "seq_k", "ms", "TFLOP/s",
           "tile_speedup", "max_abs_err", "lse_rel_err", "tolerance", "ok",
           "status", "variant", "gqa", "mask", "note", "sm_mhz"]
CONFIG_COLUMNS = ["dtype", "shape", "head_dim", "causal", "batch", "heads",
                  "kv_heads", "seq_q", "seq_k", "BLOCK_M", "BLOCK_N",
                  "num_warps", "num_stages", "ms", "chosen", "note"]
# The columns compare.py prints at the end of a run.
SUMMARY_COLUMNS = ["provider", "dtype", "shape", "head_dim", "causal",
                   "batch", "heads", "kv_heads", "seq_q", "seq_k", "ms",
                   "TFLOP/s", "tile_speedup", "max_abs_err", "lse_rel_err",
                   "ok", "status"]


class Point:
    """One problem of the benchmark."""

    def __init__(self, shape, batch, heads, kv_heads, seq_q, seq_k,
                 head_dim, causal):
        self.shape = shape
        self.batch, self.heads, self.kv_heads = batch, heads, kv_heads
        self.seq_q, self.seq_k, self.head_dim = seq_q, seq_k, head_dim
        self.causal = causal

    @property
    def group(self):
        """Query heads per key/value head."""
        return self.heads // self.kv_heads

    @property
    def scale(self):
        return 1.0 / math.sqrt(self.head_dim)

    def fields(self):
        """The point's CSV columns."""
        return dict(shape=self.shape, head_dim=self.head_dim,
                    causal=int(self.causal), batch=self.batch,
                    heads=self.heads, kv_heads=self.kv_heads,
                    seq_q=self.seq_q, seq_k=self.seq_k)

    def label(self):
        heads = (f"H={self.heads}" if self.kv_heads == self.heads
                 else f"H={self.heads}/{self.kv_heads}")
        seq = (f"S={self.seq_q}" if self.seq_q == self.seq_k
               else f"Sq={self.seq_q} Sk={self.seq_k}")
        return (f"{self.shape:6s} d={self.head_dim} "
                f"{'causal' if self.causal else 'full  '} B={self.batch} "
                f"{heads} {seq}")


def visible_pairs(seq_q, seq_k, causal):
    """(query, key) pairs a causal mask aligned bottom-right leaves
    visible, per batch entry and head (all of them without a mask)."""
    if not causal:
        return seq_q * seq_k
    diagonal = seq_k - seq_q
    return sum(min(seq_k, max(0, i + diagonal + 1)) for i in range(seq_q))


def attention_flops(point):
    """4 * batch * heads * head_dim * pairs; causal points with seq_q ==
    seq_k count half of seq_q * seq_k, other causal points the visible
    pairs exactly."""
    if point.causal and point.seq_q == point.seq_k:
        pairs = point.seq_q * point.seq_k / 2
    else:
        pairs = visible_pairs(point.seq_q, point.seq_k, point.causal)
    return 4.0 * point.batch * point.heads * point.head_dim * pairs


def benchmark_points(quick, seqs=None, shapes=SHAPES):
    """The points of the sweep and the fixed gqa and ragged points."""
    points = []
    if "sweep" in shapes:
        for head_dim in SWEEP_HEAD_DIMS:
            for causal in (False, True):
                for seq in seqs or (SWEEP_SEQS_QUICK if quick else SWEEP_SEQS):
                    points.append(Point("sweep", max(1, SWEEP_TOKENS // seq),
                                        SWEEP_HEADS, SWEEP_HEADS, seq, seq,
                                        head_dim, causal))
    for shape, dims in FIXED_POINTS.items():
        if shape not in shapes:
            continue
        for causal in (False, True):
            if quick and (shape, causal) not in FIXED_QUICK:
                continue
            points.append(Point(shape, *dims, causal))
    return points


def attention_dtypes(dtype_names):
    """The half types of --dtypes, in order; f16 when it names neither."""
    return [d for d in dtype_names if d in HALF_DTYPES] or ["f16"]


# --------------------------------------------------------------------------
# Reference and errors
# --------------------------------------------------------------------------

def reference(q, k, v, batch_index, head, point):
    """float64 output [seq_q, head_dim] and log-sum-exp [seq_q] of one
    query head of one batch entry, a block of query rows at a time. Rows
    with no visible key: output 0, LSE -inf."""
    qh = q[batch_index, head].double()
    kh = k[batch_index, head // point.group].double()
    vh = v[batch_index, head // point.group].double()
    seq_q, seq_k = point.seq_q, point.seq_k
    out = torch.empty(seq_q, point.head_dim, dtype=torch.float64,
                      device=q.device)
    lse = torch.empty(seq_q, dtype=torch.float64, device=q.device)
    rows = max(1, REFERENCE_SCORES // seq_k)
    keys = torch.arange(seq_k, device=q.device)
    for r0 in range(0, seq_q, rows):
        r1 = min(seq_q, r0 + rows)
        scores = (qh[r0:r1] @ kh.T) * point.scale
        if point.causal:
            queries = torch.arange(r0, r1, device=q.device)
            hidden = keys[None, :] > queries[:, None] + (seq_k - seq_q)
            scores.masked_fill_(hidden, -math.inf)
        row_lse = torch.logsumexp(scores, dim=-1)
        probs = torch.exp(scores - row_lse[:, None])
        probs.masked_fill_(~torch.isfinite(row_lse)[:, None], 0.0)
        out[r0:r1] = probs @ vh
        lse[r0:r1] = row_lse
        del scores, probs
    return out, lse


def max_abs_error(out, refs, common):
    """max |out[0, h] - ref| over the checked heads; inf when any element
    of out is not finite."""
    if not common.all_finite(out):
        return math.inf
    return max((out[0, head].double() - ref_out).abs().max().item()
               for head, ref_out, _ in refs)


def lse_rel_error(lse, refs):
    """max |lse - ref| / max |ref| over the rows with a visible key, on the
    checked heads; inf when a row's finiteness differs from the
    reference's (a row without a visible key must be -inf)."""
    diff = scale = 0.0
    for head, _, ref_lse in refs:
        got = lse[0, head].double()
        finite = torch.isfinite(ref_lse)
        if not bool((torch.isfinite(got) == finite).all()):
            return math.inf
        if not bool((got[~finite] == -math.inf).all()):
            return math.inf
        if bool(finite.any()):
            gap = (got[finite] - ref_lse[finite]).abs().max().item()
            diff = max(diff, gap)
            scale = max(scale, ref_lse[finite].abs().max().item())
    return diff / scale if scale > 0 else diff


def no_kernel(exc):
    """Whether exc is SDPA's refusal of the requested backends."""
    return isinstance(exc, RuntimeError) and "no available kernel" in str(
        exc).lower()


def warning_text(caught, limit=300):
    """The warnings SDPA gave about the backends it could not use, joined
    ('' when none), at most `limit` characters."""
    texts = dict.fromkeys(
        " ".join(re.sub(r"\(Triggered internally at [^)]*\)", "",
                        str(w.message)).split()) for w in caught)
    text = " ".join(t for t in texts if t)
    return text if len(text) <= limit else text[:limit - 3] + "..."


# --------------------------------------------------------------------------
# Triton kernel
# --------------------------------------------------------------------------

if HAVE_TRITON:

    @triton.jit
    def _attention_key_blocks(acc, row_sum, row_max, q, k_base, v_base,
                              stride_kn, stride_vn, rows, offs_n, offs_d,
                              key_start, key_end, seq_k, diagonal, qk_scale,
                              MASKED: tl.constexpr, CAUSAL: tl.constexpr,
                              BLOCK_N: tl.constexpr):
        # Keys [key_start, key_end) in BLOCK_N steps, with the running row
        # maximum and sum of the online softmax (base 2: the scores are
        # pre-multiplied by log2(e)). The accumulator of p @ v is rescaled
        # by 2^(old max - new max) when the maximum grows. MASKED blocks
        # hide keys past seq_k and, when CAUSAL, keys after a query's
        # diagonal; a row that has seen no visible key keeps maximum -inf,
        # sum 0 and accumulator 0.
        for start_n in range(key_start, key_end, BLOCK_N):
            keys = start_n + offs_n
            k_ptrs = k_base + keys[:, None] * stride_kn + offs_d[None, :]
            v_ptrs = v_base + keys[:, None] * stride_vn + offs_d[None, :]
            if MASKED:
                in_range = keys < seq_k
                k_blk = tl.load(k_ptrs, mask=in_range[:, None], other=0.0)
            else:
                k_blk = tl.load(k_ptrs)
            scores = tl.dot(q, tl.trans(k_blk)) * qk_scale
            if MASKED:
                visible = in_range[None, :]
                if CAUSAL:
                    visible = visible & (keys[None, :]
                                         <= rows[:, None] + diagonal)
                scores = tl.where(visible, scores, -float("inf"))
            new_max = tl.maximum(row_max, tl.max(scores, 1))
            if MASKED:
                # All keys so far hidden: shift by 0, not by -inf.
                shift = tl.where(new_max == -float("inf"), 0.0, new_max)
            else:
                shift = new_max
            probs = tl.exp2(scores - shift[:, None])
            rescale = tl.exp2(row_max - shift)
            row_sum = row_sum * rescale + tl.sum(probs, 1)
            acc = acc * rescale[:, None]
            if MASKED:
                v_blk = tl.load(v_ptrs, mask=in_range[:, None], other=0.0)
            else:
                v_blk = tl.load(v_ptrs)
            acc = tl.dot(probs.to(v_blk.dtype), v_blk, acc)
            row_max = new_max
        return acc, row_sum, row_max

    @triton.jit
    def _attention_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr,
                              sq_b, sq_h, sq_m, sk_b, sk_h, sk_n,
                              sv_b, sv_h, sv_n, so_b, so_h, so_m,
                              heads, group, seq_q, seq_k, qk_scale,
                              HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr,
                              BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
        # Program (i, b * heads + h) computes query rows [i*BLOCK_M,
        # (i+1)*BLOCK_M) of head h of batch entry b, reading key/value head
        # h // group. Key blocks every row of the block fully sees run
        # unmasked; the blocks that reach past seq_k or cross a row's
        # diagonal run masked; causal blocks past the last row's diagonal
        # are skipped. The diagonal is aligned bottom-right: key j is
        # visible to query i when j <= i + seq_k - seq_q.
        block_m = tl.program_id(0)
        bh = tl.program_id(1)
        batch_index = (bh // heads).to(tl.int64)
        head = bh % heads
        kv_head = (head // group).to(tl.int64)
        head = head.to(tl.int64)

        rows = block_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_n = tl.arange(0, BLOCK_N)
        offs_d = tl.arange(0, HEAD_DIM)
        row_valid = rows < seq_q
        q_base = q_ptr + batch_index * sq_b + head * sq_h
        k_base = k_ptr + batch_index * sk_b + kv_head * sk_h
        v_base = v_ptr + batch_index * sv_b + kv_head * sv_h
        q = tl.load(q_base + rows[:, None] * sq_m + offs_d[None, :],
                    mask=row_valid[:, None], other=0.0)

        row_max = tl.full([BLOCK_M], -float("inf"), tl.float32)
        row_sum = tl.zeros([BLOCK_M], tl.float32)
        acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
        diagonal = seq_k - seq_q
        if CAUSAL:
            first_row = block_m * BLOCK_M
            last_row = tl.minimum(first_row + BLOCK_M, seq_q) - 1
            # Keys the first row sees (all rows see them), rounded down to
            # whole blocks, and keys the last row sees.
            unmasked_end = tl.minimum(tl.maximum(first_row + diagonal + 1, 0),
                                      seq_k)
            unmasked_end = (unmasked_end // BLOCK_N) * BLOCK_N
            visible_end = tl.minimum(tl.maximum(last_row + diagonal + 1, 0),
                                     seq_k)
        else:
            unmasked_end = (seq_k // BLOCK_N) * BLOCK_N
            visible_end = seq_k
        acc, row_sum, row_max = _attention_key_blocks(
            acc, row_sum, row_max, q, k_base, v_base, sk_n, sv_n, rows,
            offs_n, offs_d, 0, unmasked_end, seq_k, diagonal, qk_scale,
            MASKED=False, CAUSAL=CAUSAL, BLOCK_N=BLOCK_N)
        acc, row_sum, row_max = _attention_key_blocks(
            acc, row_sum, row_max, q, k_base, v_base, sk_n, sv_n, rows,
            offs_n, offs_d, unmasked_end, visible_end, seq_k, diagonal,
            qk_scale, MASKED=True, CAUSAL=CAUSAL, BLOCK_N=BLOCK_N)

        # A row with no visible key has sum 0 and accumulator 0: output 0.
        row_sum = tl.where(row_sum == 0.0, 1.0, row_sum)
        result = acc / row_sum[:, None]
        o_base = o_ptr + batch_index * so_b + head * so_h
        tl.store(o_base + rows[:, None] * so_m + offs_d[None, :],
                 result.to(o_ptr.dtype.element_ty), mask=row_valid[:, None])


def triton_attention(q, k, v, out, scale, causal, config):
    """o = softmax(q k^T * scale + causal mask) v with the Triton kernel;
    config = (BLOCK_M, BLOCK_N, num_warps, num_stages)."""
    block_m, block_n, warps, stages = config
    batch, heads, seq_q, head_dim = q.shape
    kv_heads, seq_k = k.shape[1], k.shape[2]
    if head_dim < 16 or head_dim & (head_dim - 1):
        raise ValueError(f"head_dim {head_dim} is not a power of two >= 16")
    if any(t.stride(3) != 1 for t in (q, k, v, out)):
        raise ValueError("the head_dim stride must be 1")
    grid = (triton.cdiv(seq_q, block_m), batch * heads)
    _attention_fwd_kernel[grid](
        q, k, v, out, *q.stride()[:3], *k.stride()[:3], *v.stride()[:3],
        *out.stride()[:3], heads, heads // kv_heads, seq_q, seq_k,
        scale * LOG2E, HEAD_DIM=head_dim, BLOCK_M=block_m, BLOCK_N=block_n,
        CAUSAL=bool(causal), num_warps=warps, num_stages=stages)
    return out


def config_text(config):
    block_m, block_n, warps, stages = config
    return (f"BLOCK_M={block_m},BLOCK_N={block_n},num_warps={warps},"
            f"num_stages={stages}")


# --------------------------------------------------------------------------
# Providers: check() once, then call() per timed run
# --------------------------------------------------------------------------

def native_mask_and_gqa(point):
    """The mask and gqa columns of tile and triton, which take the causal
    flag and the key/value heads themselves."""
    return dict(mask="causal" if point.causal else "none",
                gqa="kv_heads" if point.kv_heads != point.heads else "")


class TileRunner:
    """tile.attention of the tile package (compare.TileLib's `ops`); the
    check call also returns the LSE, both into NaN-poisoned blocks
    (compare.PoisonedBlocks)."""

    def __init__(self, tile, common, q, k, v, point):
        self.tile, self.common, self.q, self.k, self.v = tile, common, q, k, v
        self.point = point
        self.info = dict(variant=tile.attention_variant(
            q.dtype, point.batch, point.heads, point.kv_heads, point.seq_q,
            point.seq_k, point.head_dim, point.causal),
            **native_mask_and_gqa(point))

    def context(self):
        return contextlib.nullcontext()

    def check(self):
        point = self.point
        blocks = self.common.PoisonedBlocks(
            (self.q.shape, self.q.dtype),
            ((point.batch, point.heads, point.seq_q), torch.float32))
        out, lse = self._run(True)
        if blocks.missed(out, lse):
            self.info["note"] = self.common.UNPOISONED_NOTE
        else:
            self.info.pop("note", None)
        return out, lse

    def call(self):
        self._run(False)

    def _run(self, return_lse):
        return self.tile.ops.attention(
            self.q, self.k, self.v, causal=self.point.causal,
            scale=self.point.scale, return_lse=return_lse)


class TritonRunner:
    """The Triton kernel with one configuration, into a preallocated
    output."""

    def __init__(self, q, k, v, point, config):
        self.q, self.k, self.v, self.point = q, k, v, point
        self.config = config
        self.out = torch.empty_like(q)
        self.info = dict(variant=config_text(config),
                         **native_mask_and_gqa(point))

    def context(self):
        return contextlib.nullcontext()

    def check(self):
        self.out.fill_(float("nan"))
        self.call()
        return self.out, None

    def call(self):
        triton_attention(self.q, self.k, self.v, self.out, self.point.scale,
                         self.point.causal, self.config)


class SdpaRunner:
    """F.scaled_dot_product_attention restricted to one backend. GQA tries
    enable_gqa=True first and falls back to k and v repeated to the query
    heads (made once, outside the timed calls)."""

    def __init__(self, sdpa_kernel, backend, q, k, v, point, repeated_kv,
                 lower_right):
        self.sdpa_kernel, self.backend = sdpa_kernel, backend
        self.q, self.k, self.v, self.point = q, k, v, point
        self.repeated_kv = repeated_kv  # () -> (k, v) with `heads` heads
        self.kwargs = dict(scale=point.scale)
        mask = "none"
        if point.causal and point.seq_q == point.seq_k:
            self.kwargs["is_causal"] = True
            mask = "is_causal"
        elif point.causal:
            self.kwargs["attn_mask"] = lower_right(point.seq_q, point.seq_k)
            mask = "causal_lower_right"
        gqa = ""
        if point.kv_heads != point.heads:
            self.kwargs["enable_gqa"] = True
            gqa = "enable_gqa"
        self.info = dict(variant=backend.name, gqa=gqa, mask=mask)

    def context(self):
        return self.sdpa_kernel(self.backend)

    def check(self):
        """The first call: finds whether the backend takes the point (and
        enable_gqa), falling back to repeated k and v for GQA."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                return self.call(), None
            except (RuntimeError, TypeError) as exc:
                no_gqa_kwarg = isinstance(exc, TypeError)
                gqa_refused = (self.info["gqa"] == "enable_gqa"
                               and (no_kernel(exc) or no_gqa_kwarg))
                if not gqa_refused:
                    if no_kernel(exc):
                        raise RuntimeError(
                            f"No available kernel: {warning_text(caught)}"
                        ) from exc
                    raise
                why = ("this torch has no enable_gqa" if no_gqa_kwarg
                       else "enable_gqa refused: " + warning_text(caught))
        self.k, self.v = self.repeated_kv()
        del self.kwargs["enable_gqa"]
        self.info["gqa"] = "repeat_interleave"
        self.info["note"] = (f"{why}; k and v repeated to {self.point.heads} "
                             f"heads outside the timed calls")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                return self.call(), None
            except RuntimeError as exc:
                if no_kernel(exc):
                    raise RuntimeError(
                        f"No available kernel: {warning_text(caught)}"
                    ) from exc
                raise

    def call(self):
        return F.scaled_dot_product_attention(self.q, self.k, self.v,
                                              **self.kwargs)


def sdpa_api():
    """(sdpa_kernel, {provider: SDPBackend member or None}, causal_lower_right
    or None, reason) of this torch; sdpa_kernel is None when it has no
    torch.nn.attention."""
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except ImportError as exc:
        return None, {}, None, f"torch.nn.attention unavailable ({exc})"
    try:
        from torch.nn.attention.bias import causal_lower_right
    except ImportError:
        causal_lower_right = None
    backends = {p: getattr(SDPBackend, name, None)
                for p, name in SDPA_BACKENDS.items()}
    return sdpa_kernel, backends, causal_lower_right, ""


# --------------------------------------------------------------------------
# The run
# --------------------------------------------------------------------------

def run_attention(args, bench, tile, notes, rows, config_rows, common):
    """Appends one row per (dtype, point, provider) to `rows` and one per
    Triton candidate to `config_rows` (both kept by the caller when the run
    stops early). `common` is compare.py's module: its Bench, error
    recovery (recover, ContextLost, is_oom, short), all_finite, selected
    and log."""
    dtypes = attention_dtypes(args.dtype_names)
    seqs = ([int(s) for s in args.attention_seqs.split(",") if s.strip()]
            if args.attention_seqs else None)
    shapes = [s.strip() for s in args.attention_shapes.split(",")
              if s.strip()]
    points = benchmark_points(args.quick, seqs, shapes)
    configs = (TRITON_CONFIGS_ALL if args.attention_triton_configs == "all"
               else TRITON_CONFIGS)
    tune_bench = copy.copy(bench)  # same timer and L2 flush, fewer calls
    tune_bench.warmup = 2
    tune_bench.reps = max(3, bench.reps // 10)
    sdpa = sdpa_api()
    cudnn = (torch.backends.cudnn.version()
             if torch.backends.cudnn.is_available() else None)

    notes.append(f"attention: ran {', '.join(dtypes)} (the f16 and bf16 "
                 f"of --dtypes; f16 when it names neither)")
    triton_version = (triton.__version__ if HAVE_TRITON
                      else f"unavailable: {TRITON_ERROR}")
    notes.append(
        f"attention: torch {torch.__version__} (CUDA {torch.version.cuda}, "
        f"cuDNN {cudnn}), triton {triton_version}, device "
        f"{torch.cuda.get_device_name()}")
    notes.append(
        "attention: BHSD contiguous, q/k/v ~ N(0, 1), scale 1/sqrt(head_dim);"
        " causal aligned bottom-right (key j visible to query i when j <= i "
        "+ seq_k - seq_q). FLOPs = 4*batch*heads*head_dim*pairs (pairs: "
        "seq_q*seq_k; causal with seq_q == seq_k: half of it; other causal: "
        "the visible pairs, counted). tile_speedup = provider ms / tile ms "
        "(above 1: Tile is faster).")
    notes.append(
        "attention: tile and triton are timed writing o only (tile's LSE is "
        "written and checked on the check call); the SDPA kernels compute "
        "their LSE internally. triton: the configuration is chosen per point"
        f" by timing {len(configs)} candidates ({tune_bench.warmup} warm-ups,"
        f" median of {tune_bench.reps} calls, same timer), then measured "
        "like the others (attention_triton_configs.csv). SDPA: "
        "is_causal=True when seq_q == seq_k, causal_lower_right otherwise "
        "(which PyTorch hands to the flash or efficient kernel, and under "
        "sdpa-cudnn and sdpa-math materializes as a dense mask); "
        "GQA through enable_gqa=True, else k/v repeat_interleave outside the"
        " timed calls (column gqa); a backend without a kernel for a point "
        "is 'unsupported'.")
    notes.append(
        f"attention checks: batch entry 0, the first and last query heads, "
        f"against float64: max |o - ref| <= {OUT_TOL['f16']:g} (f16), "
        f"{OUT_TOL['bf16']:g} (bf16); tile's LSE: max |lse - ref| / "
        f"max |ref| <= {LSE_TOL:g} over rows with a visible key.")

    with torch.no_grad():
        for dname in dtypes:
            for point in points:
                _run_point(args, bench, tune_bench, tile, common, sdpa,
                           configs, dname, point, rows, config_rows)
                common.free_device_memory()


def _run_point(args, bench, tune_bench, tile, common, sdpa, configs, dname,
               point, rows, config_rows):
    dtype = common.DTYPES[dname]
    tol = OUT_TOL[dname]
    base = dict(dtype=dname, tolerance=tol, **point.fields())
    label = f"attention {dname} {point.label()}"
    try:
        q = torch.randn(point.batch, point.heads, point.seq_q,
                        point.head_dim, device="cuda", dtype=dtype)
        k = torch.randn(point.batch, point.kv_heads, point.seq_k,
                        point.head_dim, device="cuda", dtype=dtype)
        v = torch.randn_like(k)
        refs = [(head, *reference(q, k, v, 0, head, point))
                for head in sorted({0, point.heads - 1})]
    except common.ContextLost:
        raise
    except Exception as exc:
        common.recover(exc)
        what = "out of memory" if common.is_oom(exc) else common.short(exc)
        common.log(f"{label}: inputs failed: {what}")
        rows.append(dict(base, provider="all", status="error",
                         note=f"inputs: {what}"))
        return
    flops = attention_flops(point)
    repeated = {}

    def repeated_kv():
        if not repeated:
            repeated["kv"] = (k.repeat_interleave(point.group, dim=1),
                              v.repeat_interleave(point.group, dim=1))
        return repeated["kv"]

    # (provider, runner or None, status when None, reason)
    providers = []
    if not tile.has_attention:
        providers.append(("tile", None, "unavailable",
                          "libtile.so has no tile_attention"))
    else:
        providers.append(("tile", TileRunner(tile, common, q, k, v, point),
                          "", ""))

    if not common.selected(args, [("triton",)]):
        pass  # its configuration sweep is long
    elif not HAVE_TRITON:
        providers.append(("triton", None, "unavailable",
                          f"triton unavailable: {TRITON_ERROR}"))
    else:
        best = _choose_triton_config(tune_bench, common, q, k, v, point,
                                     configs, base, config_rows, label)
        if best is None:
            providers.append(("triton", None, "error",
                              "no configuration ran (see "
                              "attention_triton_configs.csv)"))
        else:
            providers.append(("triton", TritonRunner(q, k, v, point, best),
                              "", ""))

    sdpa_kernel, backends, lower_right, sdpa_why = sdpa
    for name in SDPA_BACKENDS:
        backend = backends.get(name)
        scores = point.batch * point.heads * point.seq_q * point.seq_k
        if sdpa_kernel is None:
            providers.append((name, None, "unavailable", sdpa_why))
        elif backend is None:
            providers.append((name, None, "unavailable",
                              f"this torch has no SDPBackend."
                              f"{SDPA_BACKENDS[name]}"))
        elif name == "sdpa-math" and scores > MATH_MAX_SCORES:
            providers.append((name, None, "skipped",
                              f"the math backend runs up to 2^"
                              f"{MATH_MAX_SCORES.bit_length() - 1} scores; "
                              f"this point has {scores}"))
        elif (point.causal and point.seq_q != point.seq_k
              and lower_right is None):
            providers.append((name, None, "unavailable",
                              "this torch has no causal_lower_right"))
        else:
            providers.append((name, SdpaRunner(sdpa_kernel, backend, q, k, v,
                                               point, repeated_kv,
                                               lower_right), "", ""))

    point_rows = []
    interleave = getattr(args, "attention_interleave", False)
    checked = []  # (row, runner) checked and waiting to be timed together

    def timed(row, ms, mhz):
        row["status"] = "ok"
        row["ms"] = ms
        row["TFLOP/s"] = flops / (ms * 1e-3) / 1e12
        row["sm_mhz"] = mhz
        err, lse_err = row["max_abs_err"], row["lse_rel_err"]
        row["ok"] = err <= tol and (lse_err is None or lse_err <= LSE_TOL)
        flag = "" if row["ok"] else "   *** ERROR ABOVE TOLERANCE ***"
        lse_text = f" lse {lse_err:.1e}" if lse_err is not None else ""
        common.log(f"{label} {row['provider']:14s} {ms:9.4f} ms "
                   f"{row['TFLOP/s']:7.1f} TFLOP/s err {err:.1e}{lse_text}"
                   f"{flag}")

    for name, runner, status, why in common.selected(args, providers):
        row = dict(base, provider=name, status=status, note=why)
        rows.append(row)
        point_rows.append(row)
        if runner is None:
            common.log(f"{label} {name}: {status} ({why})")
            continue
        row.update(runner.info)
        try:
            with runner.context():
                out, lse = runner.check()
                torch.cuda.synchronize()
                err = max_abs_error(out, refs, common)
                lse_err = lse_rel_error(lse, refs) if lse is not None else None
                del out, lse
                if not interleave:
                    ms = bench.ms(runner.call)
        except common.ContextLost:
            raise
        except Exception as exc:
            common.recover(exc)
            if common.is_oom(exc):
                row["status"], what = "out of memory", "out of memory"
            elif no_kernel(exc):
                row["status"], what = "unsupported", common.short(exc)
            else:
                row["status"], what = "error", common.short(exc)
            row.update(runner.info)
            row["note"] = "; ".join(s for s in (row.get("note"), what) if s)
            common.log(f"{label} {name}: {row['status']} ({what})")
            continue
        row.update(runner.info)
        row["max_abs_err"] = err
        row["lse_rel_err"] = lse_err
        if interleave:
            checked.append((row, runner))
        else:
            timed(row, ms, bench.last_mhz)

    if checked:
        # Every checked provider timed in turns, call by call, so that each
        # runs at the clock the others do (see Bench.ms_interleaved).
        try:
            times = bench.ms_interleaved([(r.call, r.context)
                                          for _, r in checked])
        except common.ContextLost:
            raise
        except Exception as exc:
            common.recover(exc)
            what = common.short(exc)
            for row, _ in checked:
                row["status"] = "error"
                row["note"] = "; ".join(
                    s for s in (row.get("note"), f"timing: {what}") if s)
            common.log(f"{label}: interleaved timing failed ({what})")
            times = []
        for (row, _), (ms, mhz) in zip(checked, times):
            timed(row, ms, mhz)

    tile_ms = next((r.get("ms") for r in point_rows
                    if r["provider"] == "tile"), None)
    for r in point_rows:
        if tile_ms and r.get("ms") is not None:
            r["tile_speedup"] = r["ms"] / tile_ms


def _choose_triton_config(tune_bench, common, q, k, v, point, configs, base,
                          config_rows, label):
    """Times every candidate with `tune_bench`; records each in
    config_rows and returns the fastest (None when none ran)."""
    best = None
    point_rows = []
    runner = TritonRunner(q, k, v, point, configs[0])  # one output for all
    for config in configs:
        block_m, block_n, warps, stages = config
        crow = dict(base, BLOCK_M=block_m, BLOCK_N=block_n, num_warps=warps,
                    num_stages=stages, chosen=False)
        config_rows.append(crow)
        point_rows.append(crow)
        runner.config = config
        try:
            crow["ms"] = tune_bench.ms(runner.call)
        except common.ContextLost:
            raise
        except Exception as exc:
            common.recover(exc)
            crow["note"] = ("out of memory" if common.is_oom(exc)
                            else common.short(exc))
            continue
        if best is None or crow["ms"] < best[0]:
            best = (crow["ms"], config, crow)
    if best is None:
        common.log(f"{label} triton: no configuration ran")
        return None
    best[2]["chosen"] = True
    failed = sum(1 for r in point_rows if r.get("ms") is None)
    common.log(f"{label} triton: {config_text(best[1])} "
               f"({best[0]:.4f} ms, best of {len(configs) - failed}"
               f"{f'; {failed} failed' if failed else ''})")
    return best[1]


# --------------------------------------------------------------------------
# Reporting
# --------------------------------------------------------------------------

def flag_text(row):
    """One line for a row above tolerance (notes.md and the log)."""
    parts = [f"max_abs_err {row['max_abs_err']:.2e} (tolerance "
             f"{row['tolerance']:g})"]
    if row.get("lse_rel_err") is not None:
        parts.append(f"lse_rel_err {row['lse_rel_err']:.2e} (tolerance "
                     f"{LSE_TOL:g})")
    causal = "causal" if row["causal"] else "non-causal"
    return (f"attention {row['provider']} {row['dtype']} {row['shape']} "
            f"d={row['head_dim']} {causal} B={row['batch']} "
            f"H={row['heads']}/{row['kv_heads']} Sq={row['seq_q']} "
            f"Sk={row['seq_k']}: " + ", ".join(parts))


# plot_svg colour family and shade of each provider.
PLOT_STYLE = {"tile": ("tile", 0), "triton": ("triton", 0),
              "sdpa-flash": ("torch", 0), "sdpa-cudnn": ("torch", 1),
              "sdpa-efficient": ("torch", 2), "sdpa-math": ("torch-naive", 0)}


def _sweep_series(rows, dtype, head_dim, causal):
    """{provider: [(seq, TFLOP/s)]} of the sweep rows of one configuration."""
    lines = {}
    for r in rows:
        if (r["shape"] == "sweep" and r["dtype"] == dtype
                and r["head_dim"] == head_dim and r["causal"] == int(causal)
                and r.get("TFLOP/s") is not None):
            lines.setdefault(r["provider"], []).append((r["seq_q"],
                                                        r["TFLOP/s"]))
    return lines


def _title(dtype, head_dim, causal):
    return (f"attention {dtype}, head_dim {head_dim}, "
            f"{'causal' if causal else 'non-causal'}, {SWEEP_HEADS} heads, "
            f"batch*seq {SWEEP_TOKENS}")


def write_plots(rows, out_dir, plt, log):
    """SVGs (plot_svg.py) per configuration and, with matplotlib (plt not
    None), a 2x2 PNG per dtype: TFLOP/s against seq for the sweep."""
    out_dir = Path(out_dir)
    for dtype in dict.fromkeys(r["dtype"] for r in rows):
        for head_dim in SWEEP_HEAD_DIMS:
            for causal in (False, True):
                lines = _sweep_series(rows, dtype, head_dim, causal)
                series = []
                for provider, pts in lines.items():
                    family, shade = PLOT_STYLE.get(provider, (provider, 0))
                    series.append(plot_svg.series(provider, family, shade,
                                                  pts))
                path = out_dir / (f"attention_{dtype}_d{head_dim}_"
                                  f"{'causal' if causal else 'noncausal'}.svg")
                if plot_svg.plot(path, _title(dtype, head_dim, causal),
                                 "seq (seq_q = seq_k)", "TFLOP/s", series,
                                 ylog=False):
                    log(f"wrote {path}")
        if plt is None:
            continue
        fig, axes = plt.subplots(2, 2, figsize=(14, 10))
        drawn = False
        for row_ax, head_dim in zip(axes, SWEEP_HEAD_DIMS):
            for ax, causal in zip(row_ax, (False, True)):
                for provider, pts in _sweep_series(rows, dtype, head_dim,
                                                   causal).items():
                    xs, ys = zip(*sorted(pts))
                    ax.plot(xs, ys, marker="o", markersize=3, label=provider)
                    drawn = True
                ax.set_xscale("log", base=2)
                ax.set_xlabel("seq (seq_q = seq_k)")
                ax.set_ylabel("TFLOP/s")
                ax.set_ylim(bottom=0)
                ax.set_title(_title(dtype, head_dim, causal), fontsize=10)
                ax.grid(True, alpha=0.3)
                if ax.get_legend_handles_labels()[0]:
                    ax.legend()
        fig.tight_layout()
        path = out_dir / f"attention_tflops_{dtype}.png"
        if drawn:
            fig.savefig(path, dpi=120)
            log(f"wrote {path}")
        plt.close(fig)
