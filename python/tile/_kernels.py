"""The library operations on torch tensors through the C API.

The functions here take arguments that tile._ops has checked, allocate
their outputs and enqueue the operation on the current CUDA stream of the
tensors' device. Each *_output function allocates what the operation
returns (shapes, strides, dtypes, device) without running it: the
operation uses it, and so does its fake implementation under
torch.compile, so that both describe the same tensors.
"""

from __future__ import annotations

import math

from . import _library

try:
    import torch
except ImportError:  # the package imports without torch; the ops need it
    torch = None

# torch dtype -> tile_dtype.
DTYPE_CODES = ({torch.float32: _library.DTYPES["f32"],
                torch.float16: _library.DTYPES["f16"],
                torch.bfloat16: _library.DTYPES["bf16"]}
               if torch is not None else {})


# The current stream's CUstream handle without making a torch.cuda.Stream
# object (a few microseconds a call).
_raw_stream = getattr(getattr(torch, "_C", None), "_cuda_getCurrentRawStream",
                      None)
_current_device = getattr(getattr(torch, "_C", None), "_cuda_getDevice", None)


def _stream(t) -> int:
    if _raw_stream is not None:
        return _raw_stream(t.device.index)
    return torch.cuda.current_stream(t.device).cuda_stream


class _NoGuard:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


_NO_GUARD = _NoGuard()


def _on_device(t):
    """A context in which t's device is the current CUDA device (whose
    context the library then launches in): torch.cuda.device(t.device),
    or nothing to do when it already is."""
    if _current_device is not None and _current_device() == t.device.index:
        return _NO_GUARD
    return torch.cuda.device(t.device)


def _unit_last(t):
    """`t` with unit stride along its last dimension (a copy otherwise),
    as the C API requires."""
    return t if t.stride(-1) == 1 or t.size(-1) == 1 else t.contiguous()


def softmax_output(x, dim: int):
    """The output of softmax(x, dim): x's shape and dtype, dense, with
    `dim` innermost (each softmax row contiguous, so that the C API
    writes rows of unit stride)."""
    shape = list(x.shape)
    order = [d for d in range(len(shape)) if d != dim] + [dim]
    strides = [0] * len(shape)
    step = 1
    for d in reversed(order):
        strides[d] = step
        step = step * shape[d]
    return torch.empty_strided(shape, strides, dtype=x.dtype,
                               device=x.device)


def softmax(x, dim: int):
    """softmax(x) along `dim` (0 <= dim < x.dim()) through tile_softmax.
    Rows along `dim` with a uniform row stride run in place; other layouts
    are copied first."""
    if dim == x.dim() - 1 and x.is_contiguous() and x.numel() > 0:
        # The common case, without the views below (a few microseconds):
        # rows of unit stride one after another, in x and in y alike (y's
        # strides are softmax_output's when no size is 0).
        y = torch.empty_like(x, memory_format=torch.contiguous_format)
        cols = x.size(dim)
        rows = x.numel() // cols
        y_ptr, x_ptr, x_stride = y.data_ptr(), x.data_ptr(), cols
    else:
        y = softmax_output(x, dim)
        cols = x.size(dim)
        if x.numel() == 0:
            return y
        rows = x.numel() // cols
        flat = x.movedim(dim, -1).reshape(rows, cols)
        if (flat.stride(1) != 1 and cols > 1) or (rows > 1 and
                                                  flat.stride(0) < cols):
            flat = flat.contiguous()
        y_ptr = y.movedim(dim, -1).view(rows, cols).data_ptr()
        x_ptr = flat.data_ptr()
        x_stride = flat.stride(0) if rows > 1 else cols
    code = DTYPE_CODES[x.dtype]
    lib = _library.init(x.device.index or 0)
    with _on_device(x):
        _library.check("tile_softmax", lib.tile_softmax(
            y_ptr, code, cols, x_ptr, code, x_stride, rows, cols,
            _stream(x)))
    return y


def softmax_matmul_output(x, v):
    """The output of softmax_matmul(x, v): [batch, d1, d3] (or [d1, d3]),
    contiguous, in x's dtype."""
    return x.new_empty((*x.shape[:-1], v.shape[-1]))


def softmax_matmul(x, v, precision: str):
    """softmax(x, dim=-1) @ v through tile_softmax_matmul: x [batch, d1,
    d2] or [d1, d2], v [batch, d2, d3] or [d2, d3], d2 >= 1 when the
    output is not empty."""
    out = softmax_matmul_output(x, v)
    if out.numel() == 0:
        return out
    if x.dim() == 2:
        x, v, out3 = x.unsqueeze(0), v.unsqueeze(0), out.unsqueeze(0)
    else:
        out3 = out
    batch, d1, d2 = x.shape
    d3 = v.size(2)
    x, v = _unit_last(x), _unit_last(v)
    lib = _library.init(x.device.index or 0)
    S = _library.strides
    with _on_device(x):
        _library.check("tile_softmax_matmul", lib.tile_softmax_matmul(
            out3.data_ptr(), S(out3.stride()), x.data_ptr(), S(x.stride()),
            v.data_ptr(), S(v.stride()), DTYPE_CODES[x.dtype], batch, d1, d2,
            d3, _library.PRECISIONS[precision], _stream(x)))
    return out


def attention_outputs(q, return_lse: bool, empty_lse: bool = True):
    """The outputs of attention(q, ...): o like q but contiguous, and the
    log-sum-exp, float32 [batch, heads, seq_q] with `return_lse`, else an
    empty float32 tensor (the operator always returns two tensors) or,
    without `empty_lse`, None."""
    out = q.new_empty(q.shape)
    if return_lse:
        return out, q.new_empty(tuple(q.shape[:3]), dtype=torch.float32)
    return out, q.new_empty((0,), dtype=torch.float32) if empty_lse else None


def attention(q, k, v, causal: bool, scale: float | None, return_lse: bool,
              empty_lse: bool = True):
    """(o, lse) of the attention forward pass through tile_attention: q
    [batch, heads, seq_q, head_dim], k and v [batch, kv_heads, seq_k,
    head_dim]; `scale` None for 1/sqrt(head_dim). Without `return_lse`,
    lse is an empty tensor, or None without `empty_lse` (calls that return
    o alone skip that allocation). Tensors with a unit stride along
    head_dim run in place; others are copied first."""
    out, lse = attention_outputs(q, return_lse, empty_lse)
    if out.numel() == 0:
        return out, lse
    batch, heads, seq_q, head_dim = q.shape
    kv_heads, seq_k = k.size(1), k.size(2)
    if scale is None:
        scale = 1.0 / math.sqrt(head_dim)
    q, k, v = _unit_last(q), _unit_last(k), _unit_last(v)
    lib = _library.init(q.device.index or 0)
    S = _library.strides
    with _on_device(q):
        _library.check("tile_attention", lib.tile_attention(
            out.data_ptr(), S(out.stride()), q.data_ptr(), S(q.stride()),
            k.data_ptr(), S(k.stride()), v.data_ptr(), S(v.stride()),
            lse.data_ptr() if return_lse else 0, DTYPE_CODES[q.dtype], batch,
            heads, kv_heads, seq_q, seq_k, head_dim, scale, int(causal),
            _stream(q)))
    return out, lse
