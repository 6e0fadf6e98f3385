"""How tile.softmax, tile.softmax_matmul and tile.attention reach their
kernels, with autograd.

With torch 2.4 or later each operation is a torch custom operator,
torch.ops.tile.softmax, torch.ops.tile.softmax_matmul and
torch.ops.tile.attention (torch.library.custom_op; CUDA tensors; no input
mutated), with a fake implementation that gives the outputs' shapes,
strides, dtypes and devices without running anything, so that
torch.compile traces them into its graph (fullgraph=True holds) and calls
the kernels at run time. Eager calls on plain tensors that autograd does
not record skip the operator's dispatch and call the kernels directly.
Older torch calls the kernels directly, through a
torch.autograd.Function where autograd records the call.

Autograd: softmax has a backward, dx = y * (dy - sum(y * dy, dim)),
computed with torch operations from the saved output (in float32 for
float16 and bfloat16). softmax_matmul and attention are forward only:
their outputs take part in autograd (a forward on tensors that require
grad works), and a backward through them raises RuntimeError when it
runs (with custom operators, from the operator torch.ops.tile.no_backward,
so that torch.compile can trace that backward).

Should registering the operators fail, the package warns once and calls
the kernels directly, as on older torch (CUSTOM_OPS_ERROR says why).

torch.ops.tile.attention always returns two tensors, (o, lse): lse is the
float32 [batch, heads, seq_q] log-sum-exp with return_lse and an empty
tensor without, so that one operator with one fixed signature serves both
forms; tile.attention returns what was asked for.
"""

from __future__ import annotations

import warnings

from . import _kernels

try:
    import torch
except ImportError:  # the package imports without torch; the ops need it
    torch = None

# torch.library.custom_op and register_fake arrived in torch 2.4.
CUSTOM_OP_API = (torch is not None
                 and hasattr(getattr(torch, "library", None), "custom_op")
                 and hasattr(torch.library, "register_fake"))

_FORWARD_ONLY = {
    "softmax_matmul": "compute softmax(x, -1) @ v with torch operations "
                      "where gradients are needed",
    "attention": "use torch.nn.functional.scaled_dot_product_attention "
                 "where gradients are needed",
}


def forward_only_error(name: str) -> RuntimeError:
    """The error a backward through tile.`name` raises."""
    return RuntimeError(f"tile.{name} is forward only; it has no backward "
                        f"pass ({_FORWARD_ONLY[name]})")


def softmax_backward(y, dy, dim: int):
    """The gradient of softmax along `dim` from its output y and the
    output's gradient dy: y * (dy - sum(y * dy, dim)). float16 and
    bfloat16 are widened to float32 for the sum, whose terms cancel."""
    wide = y.dtype in (torch.float16, torch.bfloat16)
    yw = y.float() if wide else y
    dyw = dy.to(yw.dtype)
    dx = yw * (dyw - (yw * dyw).sum(dim, keepdim=True))
    return dx.to(y.dtype)


# The custom operators (torch >= 2.4).

_OPDEFS = {}  # name -> CustomOpDef: registrations live as long as these


def _registered(name: str):
    """torch.ops.tile.`name`.default when an earlier import of this
    package registered it in this process (None otherwise)."""
    try:
        return getattr(torch.ops.tile, name).default
    except (AttributeError, RuntimeError):
        return None


def _register(name: str, schema: str, kernel, fake, setup_context=None,
              backward=None, device_types="cuda"):
    """The operator torch.ops.tile.`name` (its default overload),
    registered with `kernel` for `device_types`, `fake` for tracing and,
    given `backward`, that autograd formula; the existing one when an
    earlier import registered it."""
    existing = _registered(name)
    if existing is not None:
        return existing
    op = torch.library.custom_op(f"tile::{name}", kernel, mutates_args=(),
                                 device_types=device_types, schema=schema)
    op.register_fake(fake)
    if backward is not None:
        op.register_autograd(backward, setup_context=setup_context)
    _OPDEFS[name] = op
    return getattr(torch.ops.tile, name).default


def _softmax_setup(ctx, inputs, output):
    ctx.dim = inputs[1]
    ctx.save_for_backward(output)


def _softmax_grad(ctx, dy):
    (y,) = ctx.saved_tensors
    return softmax_backward(y, dy, ctx.dim), None


def _no_backward(grad, shape, name):
    raise forward_only_error(name)


def _tensor_shapes_setup(ctx, inputs, output):
    ctx.shapes = [t.shape for t in inputs if isinstance(t, torch.Tensor)]


def _forward_only(name: str, other_inputs: int):
    """The backward of tile.`name`, whose inputs are tensors followed by
    `other_inputs` others: no_backward for each tensor. Raising in the
    formula itself would do in eager mode, but torch.compile traces the
    backward when it compiles a forward on tensors that require grad: with
    the error in an operator (whose fake gives the input's shape) that
    forward compiles and runs, and the backward raises when it runs."""
    def backward(ctx, *grads):
        tensors = [_no_backward_op(grads[0], list(shape), name)
                   for shape in ctx.shapes]
        return (*tensors, *[None] * other_inputs)
    return backward


def _register_all():
    global _no_backward_op, _softmax_op, _softmax_matmul_op, _attention_op
    _no_backward_op = _register(
        "no_backward", "(Tensor grad, SymInt[] shape, str name) -> Tensor",
        _no_backward, lambda grad, shape, name: grad.new_empty(shape),
        device_types=None)
    _softmax_op = _register(
        "softmax", "(Tensor x, int dim) -> Tensor", _kernels.softmax,
        _kernels.softmax_output, _softmax_setup, _softmax_grad)
    _softmax_matmul_op = _register(
        "softmax_matmul", "(Tensor x, Tensor v, str precision) -> Tensor",
        _kernels.softmax_matmul,
        lambda x, v, precision: _kernels.softmax_matmul_output(x, v),
        _tensor_shapes_setup, _forward_only("softmax_matmul", 1))
    _attention_op = _register(
        "attention",
        "(Tensor q, Tensor k, Tensor v, bool causal, float? scale, "
        "bool return_lse) -> (Tensor, Tensor)",
        lambda q, k, v, causal, scale, return_lse:
            _kernels.attention(q, k, v, causal, scale, return_lse),
        lambda q, k, v, causal, scale, return_lse:
            _kernels.attention_outputs(q, return_lse),
        _tensor_shapes_setup, _forward_only("attention", 3))


CUSTOM_OPS_ERROR = ""
if CUSTOM_OP_API:
    try:
        _register_all()
    except Exception as exc:  # an API this torch has differently
        CUSTOM_OPS_ERROR = f"{type(exc).__name__}: {exc}"
        warnings.warn(f"tile: registering the torch custom operators failed "
                      f"({CUSTOM_OPS_ERROR}); the operations call the "
                      f"kernels directly, and torch.compile breaks its "
                      f"graphs at them", RuntimeWarning, stacklevel=2)
CUSTOM_OPS = CUSTOM_OP_API and not CUSTOM_OPS_ERROR


if CUSTOM_OPS:
    _compiler = getattr(torch, "compiler", None)
    _is_compiling = getattr(_compiler, "is_compiling", None)
    if _is_compiling is None:
        from torch._dynamo import is_compiling as _is_compiling

    def _direct(*tensors) -> bool:
        """Whether a call may skip the operator and run the kernel itself:
        in eager mode (torch.compile is not tracing) on plain tensors
        (not fake or other subclasses) of which autograd records nothing.
        The operator's dispatch costs 8 to 21 microseconds a call on the
        host (torch 2.11), as much as the C API's own call or more; the
        kernel and its outputs are the same either way."""
        if _is_compiling():
            return False
        grad = torch.is_grad_enabled()
        for t in tensors:
            if type(t) is not torch.Tensor or (grad and t.requires_grad):
                return False
        return True

    def softmax(x, dim: int):
        if _direct(x):
            return _kernels.softmax(x, dim)
        return _softmax_op(x, dim)

    def softmax_matmul(x, v, precision: str):
        if _direct(x, v):
            return _kernels.softmax_matmul(x, v, precision)
        return _softmax_matmul_op(x, v, precision)

    def attention(q, k, v, causal: bool, scale: float | None,
                  return_lse: bool):
        if _direct(q, k, v):
            return _kernels.attention(q, k, v, causal, scale, return_lse,
                                      empty_lse=False)
        return _attention_op(q, k, v, causal, scale, return_lse)

elif torch is not None:

    class _Softmax(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, dim):
            y = _kernels.softmax(x, dim)
            ctx.dim = dim
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            (y,) = ctx.saved_tensors
            return softmax_backward(y, dy, ctx.dim), None

    class _ForwardOnly(torch.autograd.Function):
        """Runs `kernel(*args)`; a backward through its outputs raises."""

        @staticmethod
        def forward(ctx, name, kernel, *args):
            ctx.name = name
            return kernel(*args)

        @staticmethod
        def backward(ctx, *grads):
            raise forward_only_error(ctx.name)

    def _records_grad(*tensors) -> bool:
        return torch.is_grad_enabled() and any(t.requires_grad
                                               for t in tensors)

    def softmax(x, dim: int):
        if _records_grad(x):
            return _Softmax.apply(x, dim)
        return _kernels.softmax(x, dim)

    def softmax_matmul(x, v, precision: str):
        if _records_grad(x, v):
            return _ForwardOnly.apply("softmax_matmul",
                                      _kernels.softmax_matmul, x, v,
                                      precision)
        return _kernels.softmax_matmul(x, v, precision)

    def attention(q, k, v, causal: bool, scale: float | None,
                  return_lse: bool):
        if _records_grad(q, k, v):
            return _ForwardOnly.apply("attention", _kernels.attention, q, k,
                                      v, causal, scale, return_lse)
        return _kernels.attention(q, k, v, causal, scale, return_lse,
                                  empty_lse=False)
