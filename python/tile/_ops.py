"""Tile's library operations on torch tensors: the public functions.

Each checks its arguments here, in Python, before anything runs on the
GPU (TypeError for types and dtypes, ValueError for shapes, devices and
values), and then calls the operation through tile._torch_ops: a torch
custom operator with torch 2.4 or later, the kernel directly before. The
checks read only tensor metadata, so torch.compile traces them along
with the operator.
"""

from __future__ import annotations

import math

from . import _library, _torch_ops
from ._kernels import DTYPE_CODES

try:
    import torch
except ImportError:  # the package imports without torch; the ops need it
    torch = None

# A tuple of the dtypes, whose membership test torch.compile traces as a
# constant.
_DTYPES = tuple(DTYPE_CODES)
# Python numbers, and the symbolic ones torch.compile may trace them as.
_INTS = (int, getattr(torch, "SymInt", int))
_FLOATS = (int, float, getattr(torch, "SymInt", int),
           getattr(torch, "SymFloat", float))


def _check_tensors(function: str, **tensors) -> None:
    """Tensors of one dtype that Tile takes (TypeError otherwise). Their
    devices are checked by _check_devices, after the shapes."""
    if torch is None:
        raise ImportError(f"tile.{function} needs torch")
    first = None
    for name, t in tensors.items():
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"tile.{function}: {name} must be a torch.Tensor, "
                            f"not {type(t).__name__}")
        if t.dtype not in _DTYPES:
            raise TypeError(f"Tile takes float32, float16 and bfloat16 "
                            f"tensors, not {t.dtype}")
        if first is None:
            first = (name, t)
        elif t.dtype != first[1].dtype:
            raise TypeError(f"tile.{function}: {name} is {t.dtype} and "
                            f"{first[0]} {first[1].dtype}; they must match")


def _check_devices(function: str, **tensors) -> None:
    """Tensors on one CUDA device (ValueError otherwise)."""
    first = None
    for name, t in tensors.items():
        if t.device.type != "cuda":
            raise ValueError(f"tile.{function}: {name} is on {t.device}; "
                             "Tile runs on CUDA devices")
        if first is None:
            first = (name, t)
        elif t.device != first[1].device:
            raise ValueError(f"tile.{function}: {name} is on {t.device} and "
                             f"{first[0]} on {first[1].device}")


def softmax(x, dim: int = -1):
    """softmax(x) along `dim`, computed in float32, returned in x's dtype
    (dense, with `dim` innermost). Rows along `dim` with a uniform row
    stride run in place; other layouts are copied first. Differentiable:
    the backward is y * (dy - sum(y * dy, dim))."""
    _check_tensors("softmax", x=x)
    if x.dim() == 0:
        raise ValueError("tile.softmax: x must have at least one dimension")
    if not isinstance(dim, _INTS) or isinstance(dim, bool):
        raise TypeError(f"tile.softmax: dim must be an int, not "
                        f"{type(dim).__name__}")
    if not -x.dim() <= dim < x.dim():
        raise ValueError(f"tile.softmax: dim out of range for a "
                         f"{x.dim()}-d tensor")
    _check_devices("softmax", x=x)
    return _torch_ops.softmax(x, dim % x.dim())


def softmax_matmul(x, v, precision: str = "tf32"):
    """softmax(x, dim=-1) @ v without materializing the softmax: x is
    [batch, d1, d2] (or [d1, d2]), v [batch, d2, d3] (or [d2, d3]).
    `precision` applies to float32 inputs: "tf32" (default), "ieee" or
    "tf32x3"; float16/bfloat16 multiply in their type with float32
    accumulation. Forward only: a backward through the result raises
    RuntimeError."""
    _check_tensors("softmax_matmul", x=x, v=v)
    if precision not in _library.PRECISIONS:
        raise ValueError(f"tile.softmax_matmul: precision must be one of "
                         f"{sorted(_library.PRECISIONS)}, not {precision!r}")
    if x.dim() != v.dim() or x.dim() not in (2, 3):
        raise ValueError("tile.softmax_matmul: x and v must both be 2-d "
                         f"or both 3-d, not {x.dim()}-d and {v.dim()}-d")
    batch = (x.size(0),) if x.dim() == 3 else ()
    d1, d2 = x.shape[-2:]
    if tuple(v.shape[:-1]) != (*batch, d2):
        want = ", ".join(str(n) for n in (*batch, d2))
        raise ValueError(f"tile.softmax_matmul: v is {tuple(v.shape)}; x "
                         f"{tuple(x.shape)} needs [{want}, d3]")
    if d2 == 0 and x.size(0) * d1 * v.size(-1) != 0:
        raise ValueError("tile.softmax_matmul: d2 must be at least 1")
    _check_devices("softmax_matmul", x=x, v=v)
    return _torch_ops.softmax_matmul(x, v, precision)


def attention(q, k, v, causal: bool = False, scale: float | None = None,
              return_lse: bool = False):
    """softmax(q k^T * scale + mask) v per batch entry and head: q is
    [batch, heads, seq_q, head_dim], k and v [batch, kv_heads, seq_k,
    head_dim] with kv_heads dividing heads (grouped and multi-query
    attention). `scale` defaults to 1/sqrt(head_dim). `causal` aligns the
    diagonal bottom-right (key j visible to query i when j <= i + seq_k -
    seq_q); a row that sees no key gives 0 and log-sum-exp -inf. Returns
    the output (contiguous, q's shape and dtype), and with `return_lse`
    also the rows' log-sum-exp [batch, heads, seq_q] in float32. Any
    strides with a unit stride along head_dim run in place (BHSD, BSHD
    through a transpose); others are copied first. Forward only: a
    backward through the results raises RuntimeError."""
    _check_tensors("attention", q=q, k=k, v=v)
    for name, t in (("q", q), ("k", k), ("v", v)):
        if t.dim() != 4:
            raise ValueError(f"tile.attention: {name} must be 4-d [batch, "
                             f"heads, seq, head_dim], not {t.dim()}-d")
    batch, heads, seq_q, head_dim = q.shape
    kv_heads, seq_k = k.size(1), k.size(2)
    if k.shape != v.shape:
        raise ValueError(f"tile.attention: k is {tuple(k.shape)} and v "
                         f"{tuple(v.shape)}; they must match")
    if k.size(0) != batch or k.size(3) != head_dim:
        raise ValueError(f"tile.attention: k is {tuple(k.shape)}; q "
                         f"{tuple(q.shape)} needs [{batch}, kv_heads, seq_k, "
                         f"{head_dim}]")
    if kv_heads == 0 or heads % kv_heads != 0:
        raise ValueError(f"tile.attention: kv_heads ({kv_heads}) must divide "
                         f"heads ({heads})")
    if head_dim == 0:
        raise ValueError("tile.attention: head_dim must be at least 1")
    if seq_k == 0 and batch * heads * seq_q != 0:
        raise ValueError("tile.attention: seq_k must be at least 1")
    if scale is not None:
        if not isinstance(scale, _FLOATS) or isinstance(scale, bool):
            raise TypeError(f"tile.attention: scale must be a float, not "
                            f"{type(scale).__name__}")
        scale = float(scale)
        if not math.isfinite(scale):
            raise ValueError(f"tile.attention: scale must be finite, not "
                             f"{scale}")
    _check_devices("attention", q=q, k=k, v=v)
    out, lse = _torch_ops.attention(q, k, v, bool(causal), scale,
                                    bool(return_lse))
    return (out, lse) if return_lse else out
