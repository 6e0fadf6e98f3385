"""PyTorch and Triton for the benchmark scripts, where installed.

The scripts import them from here, so that `--help` works without them and
each script reports what is missing: `torch` and `F` are None when PyTorch
is absent (`TORCH_ERROR` says why); `HAVE_TRITON` is False and `triton`,
`tl` None when Triton cannot be imported (`TRITON_ERROR` says why: absent,
or a broken installation).
"""

try:
    import torch
    import torch.nn.functional as F

    TORCH_ERROR = ""
except ImportError as exc:
    torch = F = None
    TORCH_ERROR = str(exc)

try:
    import triton
    import triton.language as tl

    HAVE_TRITON = True
    TRITON_ERROR = ""
except Exception as exc:  # ImportError, or a broken installation
    triton = tl = None
    HAVE_TRITON = False
    TRITON_ERROR = f"{type(exc).__name__}: {exc}"
