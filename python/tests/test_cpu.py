"""Tests of the tile package that need no GPU: import, argument checks
(before any CUDA call) and finding and loading libtile.so."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

PYTHON_DIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PYTHON_DIR))

import tile  # noqa: E402
from tile import _library  # noqa: E402

torch = pytest.importorskip("torch")


def run_python(code, env_updates):
    env = dict(os.environ, PYTHONPATH=str(PYTHON_DIR), **env_updates)
    return subprocess.run([sys.executable, "-c", code], env=env,
                          capture_output=True, text=True)


def test_import_needs_no_library():
    out = run_python("import tile; print(tile.__version__)",
                     {"TILE_LIBRARY": "/nonexistent/libtile.so"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == tile.__version__


def test_import_warns_nothing():
    out = run_python("import tile", {"PYTHONWARNINGS": "error"})
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""


def test_missing_library_is_a_clear_error():
    out = run_python("import tile; tile.library_path()",
                     {"TILE_LIBRARY": "/nonexistent/libtile.so"})
    assert out.returncode != 0
    assert "TileLibraryError" in out.stderr
    assert "/nonexistent/libtile.so (missing)" in out.stderr
    assert "TILE_LIBRARY" in out.stderr


def test_a_file_that_is_not_a_library_is_a_clear_error(tmp_path):
    bad = tmp_path / "libtile.so"
    bad.write_text("not a library")
    out = run_python("import tile; tile.library_path()",
                     {"TILE_LIBRARY": str(bad)})
    assert out.returncode != 0
    assert "TileLibraryError" in out.stderr and str(bad) in out.stderr


def test_search_order_starts_with_the_environment(monkeypatch):
    monkeypatch.setenv("TILE_LIBRARY", "/some/where/libtile.so")
    assert _library.candidate_paths() == [Path("/some/where/libtile.so")]
    monkeypatch.delenv("TILE_LIBRARY")
    paths = _library.candidate_paths()
    package = PYTHON_DIR / "tile"
    assert paths[0] == package / "lib" / "libtile.so"
    assert Path(sys.prefix) / "lib" / "libtile.so" in paths
    assert paths[-2] == PYTHON_DIR.parent / "build" / "lib" / "libtile.so"


def built_library():
    path = os.environ.get("TILE_LIBRARY")
    if not path or not Path(path).exists():
        pytest.skip("TILE_LIBRARY names no built libtile.so")
    return path


def test_built_library_loads_and_reports_without_a_gpu():
    path = built_library()
    code = ("import tile, torch\n"
            "from tile import _library\n"
            "print(tile.library_path())\n"
            "lib = _library.load()\n"
            "print(lib.tile_status_name(1).decode())\n"
            "if not torch.cuda.is_available():\n"
            "    try:\n"
            "        _library.init(0)\n"
            "    except tile.TileError as e:\n"
            "        print('init:', e.status)\n")
    out = run_python(code, {"TILE_LIBRARY": path})
    assert out.returncode == 0, out.stderr
    lines = out.stdout.split("\n")
    assert Path(lines[0]).resolve() == Path(path).resolve()
    assert lines[1] == "TILE_ERROR_NO_DRIVER"
    if not torch.cuda.is_available():
        assert lines[2].startswith("init: TILE_ERROR_NO_")


# Argument checks, before any CUDA call (the tensors here are on the CPU).

def test_cpu_tensors_are_refused():
    x = torch.randn(4, 5)
    with pytest.raises(ValueError, match="on cpu; Tile runs on CUDA"):
        tile.softmax(x)
    with pytest.raises(ValueError, match="CUDA"):
        tile.softmax_matmul(torch.randn(2, 3, 4), torch.randn(2, 4, 5))
    q = torch.randn(1, 2, 3, 8)
    with pytest.raises(ValueError, match="CUDA"):
        tile.attention(q, q, q)


def test_dtypes_are_checked():
    with pytest.raises(TypeError, match="float32, float16 and bfloat16"):
        tile.softmax(torch.ones(4, 5, dtype=torch.int32))
    with pytest.raises(TypeError, match="float32, float16 and bfloat16"):
        tile.softmax(torch.ones(4, 5, dtype=torch.float64))
    with pytest.raises(TypeError, match="must be a torch.Tensor"):
        tile.softmax([[1.0, 2.0]])
    with pytest.raises(TypeError, match="must match"):
        tile.softmax_matmul(torch.randn(2, 3, 4),
                            torch.randn(2, 4, 5, dtype=torch.float16))


def test_dtype_check_comes_before_the_device_check():
    # A CPU tensor of the wrong dtype reports its dtype.
    with pytest.raises(TypeError):
        tile.attention(torch.ones(1, 1, 2, 8, dtype=torch.int64),
                       torch.ones(1, 1, 2, 8), torch.ones(1, 1, 2, 8))


def test_shapes_are_checked():
    with pytest.raises(ValueError, match="dim out of range"):
        tile.softmax(torch.randn(4, 5), dim=2)
    with pytest.raises(ValueError, match="at least one dimension"):
        tile.softmax(torch.tensor(1.0))
    with pytest.raises(ValueError, match=r"needs \[2, 4, d3\]"):
        tile.softmax_matmul(torch.randn(2, 3, 4), torch.randn(2, 5, 6))
    with pytest.raises(ValueError, match="must both be 2-d or both 3-d"):
        tile.softmax_matmul(torch.randn(3, 4), torch.randn(2, 4, 6))
    with pytest.raises(ValueError, match="precision must be one of"):
        tile.softmax_matmul(torch.randn(3, 4), torch.randn(4, 6),
                            precision="fp8")
    q = torch.randn(2, 4, 16, 64)
    with pytest.raises(ValueError, match="must be 4-d"):
        tile.attention(q[0], q, q)
    with pytest.raises(ValueError, match="they must match"):
        tile.attention(q, q, q[:, :, :8])
    with pytest.raises(ValueError, match=r"needs \[2, kv_heads, seq_k, 64\]"):
        k = torch.randn(2, 2, 16, 32)
        tile.attention(q, k, k)



def test_attention_checks_heads_and_scale():
    q = torch.randn(1, 4, 8, 16)
    k = torch.randn(1, 3, 8, 16)
    with pytest.raises(ValueError, match=r"kv_heads \(3\) must divide"):
        tile.attention(q, k, k)
    with pytest.raises(ValueError, match="scale must be finite"):
        tile.attention(q, q, q, scale=float("nan"))
    with pytest.raises(TypeError, match="scale must be a float"):
        tile.attention(q, q, q, scale="0.5")
    with pytest.raises(ValueError, match="head_dim must be at least 1"):
        e = torch.randn(1, 4, 8, 0)
        tile.attention(e, e, e)
    with pytest.raises(ValueError, match="seq_k must be at least 1"):
        tile.attention(q, q[:, :, :0], q[:, :, :0])
    with pytest.raises(TypeError, match="dim must be an int"):
        tile.softmax(q, dim=1.0)
    with pytest.raises(ValueError, match="d2 must be at least 1"):
        tile.softmax_matmul(torch.randn(2, 3, 0), torch.randn(2, 0, 5))


# The C calls the kernel layer makes, recorded instead of made.

def recorded_calls(monkeypatch):
    """tile's library replaced by one that records each call's name and
    arguments (and succeeds), with no device or stream to query."""
    from tile import _kernels, _library
    calls = []

    class Recorder:
        def __getattr__(self, name):
            def record(*args):
                calls.append((name, args))
                return 0
            return record

    monkeypatch.setattr(_library, "init", lambda ordinal: Recorder())
    monkeypatch.setattr(_kernels, "_stream", lambda t: 0)
    monkeypatch.setattr(_kernels, "_on_device", lambda t: _kernels._NO_GUARD)
    return calls


def test_softmax_rows_in_place_and_through_views(monkeypatch):
    # Contiguous rows along the last dimension take the short path; other
    # layouts go through views. Either way the output has the strides the
    # fake implementation gives, and the call names the rows as they are.
    from tile import _kernels
    calls = recorded_calls(monkeypatch)
    code = _kernels.DTYPE_CODES[torch.float32]
    for shape in ((6, 40), (3, 4, 40), (1, 40), (40,), (5, 1), (2, 1, 3)):
        x = torch.randn(*shape)
        dim = x.dim() - 1
        y = _kernels.softmax(x, dim)
        ref = _kernels.softmax_output(x, dim)
        assert (y.shape, y.stride()) == (ref.shape, ref.stride())
        cols = shape[-1]
        rows = x.numel() // cols
        assert calls[-1] == ("tile_softmax", (y.data_ptr(), code, cols,
                                              x.data_ptr(), code, cols,
                                              rows, cols, 0))
    x = torch.randn(7, 50)[:, :40]  # rows 50 apart: in place
    y = _kernels.softmax(x, 1)
    assert calls[-1] == ("tile_softmax", (y.data_ptr(), code, 40,
                                          x.data_ptr(), code, 50, 7, 40, 0))
    x = torch.randn(40, 6)  # softmax down the columns: copied
    y = _kernels.softmax(x, 0)
    assert y.stride() == (1, 40)
    name, args = calls[-1]
    assert args[0] == y.data_ptr() and args[2] == 40 and args[5:8] == (40, 6,
                                                                       40)
    before = len(calls)
    assert _kernels.softmax(torch.randn(0, 40), 1).shape == (0, 40)
    assert len(calls) == before  # nothing to compute, nothing called


def test_attention_without_lse_allocates_none(monkeypatch):
    from tile import _kernels
    calls = recorded_calls(monkeypatch)
    q = torch.randn(1, 2, 8, 16, dtype=torch.float16)
    out, lse = _kernels.attention(q, q, q, True, None, False,
                                  empty_lse=False)
    assert lse is None and out.shape == q.shape
    assert calls[-1][1][8] == 0  # no lse pointer
    out, lse = _kernels.attention(q, q, q, True, None, False)
    assert lse.shape == (0,) and lse.dtype == torch.float32
    out, lse = _kernels.attention(q, q, q, True, None, True)
    assert lse.shape == (1, 2, 8) and calls[-1][1][8] == lse.data_ptr()


# Autograd, with the kernels replaced by torch's own operations on the CPU.

def test_softmax_backward_formula():
    from tile import _torch_ops
    gen = torch.Generator().manual_seed(1)
    for shape, dim in (((5, 7), 1), ((5, 7), 0), ((2, 3, 4), 1)):
        x = torch.randn(*shape, dtype=torch.float64, generator=gen)
        dy = torch.randn(*shape, dtype=torch.float64, generator=gen)
        x.requires_grad_()
        y = torch.softmax(x, dim)
        (ref,) = torch.autograd.grad(y, x, dy)
        got = _torch_ops.softmax_backward(y.detach(), dy, dim)
        assert torch.allclose(got, ref, rtol=0, atol=1e-12)
        half = _torch_ops.softmax_backward(y.detach().half(), dy.half(), dim)
        assert half.dtype == torch.float16
        assert (half.double() - ref).abs().max() <= 2e-3 * ref.abs().max()


def cpu_kernels(monkeypatch):
    """tile's kernels replaced by torch's operations, and the device check
    lifted, so that the Python side runs on CPU tensors."""
    from tile import _kernels, _ops

    def attention(q, k, v, causal, scale, return_lse, empty_lse=True):
        group = q.size(1) // k.size(1)
        k = k.repeat_interleave(group, 1)
        v = v.repeat_interleave(group, 1)
        s = q @ k.transpose(-1, -2) * (scale or q.size(-1) ** -0.5)
        lse = torch.logsumexp(s, -1)
        return torch.softmax(s, -1) @ v, (lse if return_lse else
                                          lse.new_empty(0) if empty_lse
                                          else None)

    monkeypatch.setattr(_ops, "_check_devices", lambda *a, **k: None)
    monkeypatch.setattr(_kernels, "softmax", torch.softmax)
    monkeypatch.setattr(_kernels, "softmax_matmul",
                        lambda x, v, p: torch.softmax(x, -1) @ v)
    monkeypatch.setattr(_kernels, "attention", attention)


def old_torch_path():
    from tile import _torch_ops
    if _torch_ops.CUSTOM_OPS:
        pytest.skip("torch >= 2.4: the operations are custom operators for "
                    "CUDA tensors (tested in test_gpu.py)")


def test_softmax_autograd_without_custom_ops(monkeypatch):
    old_torch_path()
    cpu_kernels(monkeypatch)
    x = torch.randn(6, 9, requires_grad=True)
    dy = torch.randn(6, 9)
    tile.softmax(x, dim=0).backward(dy)
    x64 = x.detach().double().requires_grad_()
    torch.softmax(x64, 0).backward(dy.double())
    assert torch.allclose(x.grad.double(), x64.grad, atol=1e-6)
    with torch.no_grad():
        assert not tile.softmax(x).requires_grad


def test_forward_only_ops_raise_on_backward(monkeypatch):
    old_torch_path()
    cpu_kernels(monkeypatch)
    x = torch.randn(2, 3, 4, requires_grad=True)
    v = torch.randn(2, 4, 5)
    out = tile.softmax_matmul(x, v)
    assert out.requires_grad
    with pytest.raises(RuntimeError, match="tile.softmax_matmul is forward "
                                           "only"):
        out.sum().backward()
    q = torch.randn(1, 4, 3, 8, requires_grad=True)
    k = torch.randn(1, 2, 5, 8)
    o, lse = tile.attention(q, k, k, return_lse=True)
    assert o.shape == q.shape and lse.shape == (1, 4, 3)
    with pytest.raises(RuntimeError, match="tile.attention is forward only"):
        (o.sum() + lse.sum()).backward()
    assert not tile.attention(q.detach(), k, k).requires_grad


# The custom operators' fake implementations (torch >= 2.4), on meta
# tensors: shapes, strides, dtypes and devices without a GPU.

def custom_ops():
    from tile import _torch_ops
    if not _torch_ops.CUSTOM_OP_API:
        pytest.skip(f"torch {torch.__version__} has no torch.library."
                    "custom_op (2.4 or later)")
    assert _torch_ops.CUSTOM_OPS, _torch_ops.CUSTOM_OPS_ERROR
    return torch.ops.tile


def test_fake_implementations_on_meta_tensors():
    ops = custom_ops()
    meta = dict(device="meta")
    x = torch.empty(3, 4, 5, dtype=torch.float16, **meta)
    for dim in range(3):
        y = ops.softmax.default(x, dim)
        assert y.shape == x.shape and y.dtype == x.dtype
        assert y.device.type == "meta"
        assert y.stride(dim) == 1  # each row contiguous
    v = torch.empty(3, 5, 7, dtype=torch.float16, **meta)
    out = ops.softmax_matmul.default(x, v, "tf32")
    assert out.shape == (3, 4, 7) and out.is_contiguous()
    out = ops.softmax_matmul.default(x[0], v[0], "ieee")
    assert out.shape == (4, 7)
    q = torch.empty(2, 8, 10, 64, dtype=torch.bfloat16, **meta)
    k = torch.empty(2, 2, 30, 64, dtype=torch.bfloat16, **meta)
    o, lse = ops.attention.default(q, k, k, True, None, True)
    assert o.shape == q.shape and o.dtype == q.dtype and o.is_contiguous()
    assert lse.shape == (2, 8, 10) and lse.dtype == torch.float32
    o, lse = ops.attention.default(q.transpose(1, 2).contiguous()
                                   .transpose(1, 2), k, k, False, 0.5, False)
    assert o.is_contiguous() and lse.numel() == 0
    grad = ops.no_backward.default(o, [2, 2, 30, 64], "attention")
    assert grad.shape == k.shape and grad.dtype == o.dtype


def test_custom_operators_take_no_cpu_tensors():
    ops = custom_ops()
    with pytest.raises(NotImplementedError):
        ops.softmax.default(torch.randn(2, 3), 1)
