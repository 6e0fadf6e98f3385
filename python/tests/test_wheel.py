"""The wheel python/pyproject.toml builds: it holds the package and the
build tree's libtile.so as tile/lib/libtile.so, and once installed the
package loads that copy without TILE_LIBRARY. Needs pip, setuptools and
wheel (Debian's python3-pip, python3-setuptools, python3-wheel) and a
built library, named by TILE_LIBRARY; skipped without them. Builds from a
copy of python/ so that the checkout stays as it was."""

import importlib.util
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

PYTHON_DIR = Path(__file__).resolve().parents[1]


def needs(module, package):
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{sys.executable} has no {module} (Debian: {package})")


def build_tree() -> Path:
    """The build tree of the library TILE_LIBRARY names (its lib/'s
    parent)."""
    path = os.environ.get("TILE_LIBRARY")
    if not path or not Path(path).exists():
        pytest.skip("TILE_LIBRARY names no built libtile.so")
    library = Path(path).absolute()  # pip builds in another directory
    if library.parent.name != "lib":
        pytest.skip(f"{library} is not in a build tree's lib/")
    return library.parent.parent


def run(args, **env):
    out = subprocess.run(args, capture_output=True, text=True,
                         env=dict(os.environ, PIP_NO_INDEX="1",
                                  PIP_DISABLE_PIP_VERSION_CHECK="1", **env))
    assert out.returncode == 0, out.stdout + out.stderr
    return out


def test_wheel_bundles_the_library(tmp_path):
    needs("pip", "python3-pip")
    needs("setuptools", "python3-setuptools")
    needs("wheel", "python3-wheel")
    build = build_tree()
    source = tmp_path / "src"
    shutil.copytree(PYTHON_DIR, source, ignore=shutil.ignore_patterns(
        "tests", "build", "dist", "*.egg-info", "__pycache__",
        "CMakeLists.txt"))
    dist = tmp_path / "dist"
    run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation",
         "--no-deps", "--no-cache-dir", str(source), "-w", str(dist)],
        TILE_BUILD_DIR=str(build))
    (wheel,) = dist.glob("tile-*.whl")
    assert wheel.name.endswith(".whl") and "-py3-none-" in wheel.name
    assert not wheel.name.endswith("-any.whl")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        library = z.getinfo("tile/lib/libtile.so")
    for module in ("__init__", "_library", "_ops", "_kernels", "_torch_ops"):
        assert f"tile/{module}.py" in names
    assert library.file_size == (build / "lib" / "libtile.so").stat().st_size

    target = tmp_path / "installed"
    run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index",
         "--no-cache-dir", "--target", str(target), str(wheel)])
    env = {k: v for k, v in os.environ.items() if k != "TILE_LIBRARY"}
    env["PYTHONPATH"] = str(target)
    out = subprocess.run(
        [sys.executable, "-c", "import tile; print(tile.__file__); "
         "print(tile.library_path())"],
        capture_output=True, text=True, env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    package, loaded = out.stdout.split()
    assert Path(package).parent == target / "tile"
    assert Path(loaded) == target / "tile" / "lib" / "libtile.so"


def test_wheel_build_without_a_library_fails_clearly(tmp_path):
    needs("pip", "python3-pip")
    needs("setuptools", "python3-setuptools")
    needs("wheel", "python3-wheel")
    source = tmp_path / "src"
    shutil.copytree(PYTHON_DIR, source, ignore=shutil.ignore_patterns(
        "tests", "build", "dist", "*.egg-info", "__pycache__"))
    out = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-build-isolation",
         "--no-deps", "--no-cache-dir", str(source), "-w",
         str(tmp_path / "dist")],
        capture_output=True, text=True,
        env=dict(os.environ, PIP_NO_INDEX="1",
                 TILE_BUILD_DIR=str(tmp_path / "no-build")))
    assert out.returncode != 0
    assert "build Tile first" in out.stdout + out.stderr
