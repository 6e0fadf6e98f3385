"""Tile's library operations on torch tensors."""

from __future__ import annotations

import math

from . import _library

try:
    import torch
except ImportError:  # the package imports without torch; the ops need it
    torch = None

_PRECISIONS = {"ieee": 0, "tf32": 1, "tf32x3": 2}


def _dtype_code(t) -> int:
    codes = {torch.float32: 0, torch.float16: 1, torch.bfloat16: 2}
    if t.dtype not in codes:
        raise TypeError(f"Tile takes float32, float16 and bfloat16 tensors, "
                        f"not {t.dtype}")
    return codes[t.dtype]


def _check_tensors(function: str, **tensors) -> int:
    """The tile_dtype of tensors that share a dtype (TypeError otherwise).
    Their devices are checked by _check_devices, after the shapes."""
    if torch is None:
        raise ImportError(f"tile.{function} needs torch")
    first = None
    for name, t in tensors.items():
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"tile.{function}: {name} must be a torch.Tensor, "
                            f"not {type(t).__name__}")
        _dtype_code(t)
        if first is None:
            first = (name, t)
        elif t.dtype != first[1].dtype:
            raise TypeError(f"tile.{function}: {name} is {t.dtype} and "
                            f"{first[0]} {first[1].dtype}; they must match")
    return _dtype_code(first[1])


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


def _stream(t) -> int:
    return torch.cuda.current_stream(t.device).cuda_stream


def _prepare(t):
    """`t` with unit stride along its last dimension (a copy otherwise)."""
    return t if t.stride(-1) == 1 or t.size(-1) == 1 else t.contiguous()


def softmax(x, dim: int = -1):
    """softmax(x) along `dim`, computed in float32, returned in x's dtype.
    Rows along the last dimension with a uniform row stride run in place;
    other layouts are copied first."""
    code = _check_tensors("softmax", x=x)
    if x.dim() == 0:
        raise ValueError("tile.softmax: x must have at least one dimension")
    dim = dim % x.dim() if -x.dim() <= dim < x.dim() else None
    if dim is None:
        raise ValueError(f"tile.softmax: dim out of range for a "
                         f"{x.dim()}-d tensor")
    _check_devices("softmax", x=x)
    moved = x.movedim(dim, -1)
    cols = moved.size(-1)
    rows = moved.numel() // cols if cols else 0
    if rows == 0 or cols == 0:
        return torch.empty_like(x)
    flat = moved.reshape(rows, cols)
    if (flat.stride(1) != 1 and cols > 1) or (rows > 1 and
                                              flat.stride(0) < cols):
        flat = flat.contiguous()
    y = torch.empty((rows, cols), dtype=x.dtype, device=x.device)
    lib = _library.init(x.device.index or 0)
    with torch.cuda.device(x.device):
        _library.check("tile_softmax", lib.tile_softmax(
            y.data_ptr(), code, y.stride(0), flat.data_ptr(), code,
            flat.stride(0) if rows > 1 else cols, rows, cols, _stream(x)))
    return y.reshape(moved.shape).movedim(-1, dim)


def softmax_matmul(x, v, precision: str = "tf32"):
    """softmax(x, dim=-1) @ v without materializing the softmax: x is
    [batch, d1, d2] (or [d1, d2]), v [batch, d2, d3] (or [d2, d3]).
    `precision` applies to float32 inputs: "tf32" (default), "ieee" or
    "tf32x3"; float16/bfloat16 multiply in their type with float32
    accumulation."""
    code = _check_tensors("softmax_matmul", x=x, v=v)
    if precision not in _PRECISIONS:
        raise ValueError(f"tile.softmax_matmul: precision must be one of "
                         f"{sorted(_PRECISIONS)}, not {precision!r}")
    if x.dim() != v.dim() or x.dim() not in (2, 3):
        raise ValueError("tile.softmax_matmul: x and v must both be 2-d "
                         f"or both 3-d, not {x.dim()}-d and {v.dim()}-d")
    squeeze = x.dim() == 2
    if squeeze:
        x, v = x.unsqueeze(0), v.unsqueeze(0)
    batch, d1, d2 = x.shape
    if v.size(0) != batch or v.size(1) != d2:
        raise ValueError(f"tile.softmax_matmul: v is {tuple(v.shape)}; x "
                         f"{tuple(x.shape)} needs [{batch}, {d2}, d3]")
    d3 = v.size(2)
    _check_devices("softmax_matmul", x=x, v=v)
    out = torch.empty((batch, d1, d3), dtype=x.dtype, device=x.device)
    if out.numel() == 0:
        return out[0] if squeeze else out
    if d2 == 0:
        raise ValueError("tile.softmax_matmul: d2 must be at least 1")
    x, v = _prepare(x), _prepare(v)
    lib = _library.init(x.device.index or 0)
    S = _library.strides
    with torch.cuda.device(x.device):
        _library.check("tile_softmax_matmul", lib.tile_softmax_matmul(
            out.data_ptr(), S(out.stride()), x.data_ptr(), S(x.stride()),
            v.data_ptr(), S(v.stride()), code, batch, d1, d2, d3,
            _PRECISIONS[precision], _stream(x)))
    return out[0] if squeeze else out


def attention(q, k, v, causal: bool = False, scale: float | None = None,
              return_lse: bool = False):
    """softmax(q k^T * scale + mask) v per batch entry and head: q is
    [batch, heads, seq_q, head_dim], k and v [batch, kv_heads, seq_k,
    head_dim] with kv_heads dividing heads (grouped and multi-query
    attention). `scale` defaults to 1/sqrt(head_dim). `causal` aligns the
    diagonal bottom-right (key j visible to query i when j <= i + seq_k -
    seq_q); a row that sees no key gives 0 and log-sum-exp -inf. Returns
    the output, and with `return_lse` also the rows' log-sum-exp
    [batch, heads, seq_q] in float32. Any strides with a unit stride along
    head_dim run in place (BHSD, BSHD through a transpose); others are
    copied first."""
    code = _check_tensors("attention", q=q, k=k, v=v)
    for name, t in (("q", q), ("k", k), ("v", v)):
        if t.dim() != 4:
            raise ValueError(f"tile.attention: {name} must be 4-d [batch, "
                             f"heads, seq, head_dim], not {t.dim()}-d")
    batch, heads, seq_q, head_dim = q.shape
    _, kv_heads, seq_k, _ = k.shape
    if k.shape != v.shape:
        raise ValueError(f"tile.attention: k is {tuple(k.shape)} and v "
                         f"{tuple(v.shape)}; they must match")
    if k.size(0) != batch or k.size(3) != head_dim:
        raise ValueError(f"tile.attention: k is {tuple(k.shape)}; q "
                         f"{tuple(q.shape)} needs [{batch}, kv_heads, seq_k, "
                         f"{head_dim}]")
    _check_devices("attention", q=q, k=k, v=v)
    if scale is None:
        scale = 1.0 / math.sqrt(head_dim) if head_dim else 1.0
    out = torch.empty((batch, heads, seq_q, head_dim), dtype=q.dtype,
                      device=q.device)
    lse = (torch.empty((batch, heads, seq_q), dtype=torch.float32,
                       device=q.device) if return_lse else None)
    q, k, v = _prepare(q), _prepare(k), _prepare(v)
    lib = _library.init(q.device.index or 0)
    S = _library.strides
    with torch.cuda.device(q.device):
        _library.check("tile_attention", lib.tile_attention(
            out.data_ptr(), S(out.stride()), q.data_ptr(), S(q.stride()),
            k.data_ptr(), S(k.stride()), v.data_ptr(), S(v.stride()),
            0 if lse is None else lse.data_ptr(), code, batch, heads,
            kv_heads, seq_q, seq_k, head_dim, float(scale), int(bool(causal)),
            _stream(q)))
    return (out, lse) if return_lse else out
