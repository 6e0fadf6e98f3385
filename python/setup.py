"""Builds the tile wheel with libtile.so inside it (pyproject.toml has the
metadata; this file adds the library).

The library comes from a Tile build tree: $TILE_BUILD_DIR (relative paths
are taken from the checkout's root) or, without it, the checkout's
build/; its lib/libtile.so, symbolic links followed, becomes the wheel's
tile/lib/libtile.so, the first place the package looks when TILE_LIBRARY
is unset. A missing library is an error: a wheel without it would
install a package that cannot run.

The wheel is tagged py3-none-<platform>: it holds a shared library for
this platform, and no extension module, so any Python 3 can load it.
"""

import os
import shutil
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:  # setuptools 70.1 and later
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:
    from wheel.bdist_wheel import bdist_wheel

CHECKOUT = Path(__file__).resolve().parent.parent


def built_library() -> Path:
    """libtile.so of the build tree named by TILE_BUILD_DIR (default: the
    checkout's build/)."""
    build_dir = Path(os.environ.get("TILE_BUILD_DIR") or "build")
    if not build_dir.is_absolute():
        build_dir = CHECKOUT / build_dir
    library = build_dir / "lib" / "libtile.so"
    if not library.exists():
        raise SystemExit(
            f"tile wheel: {library} does not exist; build Tile first "
            f"(scripts/build.sh) or set TILE_BUILD_DIR to a build tree")
    return library.resolve()


class BuildPyWithLibrary(build_py):
    """build_py, then the build tree's libtile.so into tile/lib/."""

    def run(self):
        super().run()
        target = Path(self.build_lib) / "tile" / "lib"
        target.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built_library(), target / "libtile.so")
        os.chmod(target / "libtile.so", 0o755)


class WithLibrary(Distribution):
    """A distribution whose files are platform-specific (the library), so
    that they install into platlib and the wheel is not tagged "any"."""

    def has_ext_modules(self):
        return True


class PlatformWheel(bdist_wheel):
    """A wheel for this platform that does not depend on the Python ABI."""

    def get_tag(self):
        return "py3", "none", super().get_tag()[2]


setup(distclass=WithLibrary,
      cmdclass={"build_py": BuildPyWithLibrary, "bdist_wheel": PlatformWheel})
