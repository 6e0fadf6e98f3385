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

