"""Finding, loading and calling libtile.so (Tile's C API) through ctypes."""

from __future__ import annotations

import ctypes
import os
import sys
import threading
from pathlib import Path

_LIB_NAMES = ("libtile.so", "libtile.so.0")

# tile_status values (runtime/include/tile_runtime.h).
SUCCESS = 0
ERROR_INVALID_ARGUMENT = 4
ERROR_UNSUPPORTED = 8


class TileError(RuntimeError):
    """A failure the C API reported: `status` is its tile_status name,
    `message` its tile_last_error() text."""

    def __init__(self, function: str, status: str, message: str):
        super().__init__(f"{function}: {status}: {message}")
        self.function = function
        self.status = status
        self.message = message


class TileLibraryError(OSError):
    """libtile.so could not be found or loaded."""


def candidate_paths() -> list[Path]:
    """Where the library is looked for, in order: $TILE_LIBRARY; next to
    the package (tile/lib/ or tile/); the install prefix's lib/ (the
    package in <prefix>/lib/pythonX.Y/site-packages, or sys.prefix); the
    build tree of a source checkout (build/lib)."""
    env = os.environ.get("TILE_LIBRARY")
    if env:
        return [Path(env)]
    here = Path(__file__).resolve().parent
    out = []
    for directory in (here / "lib", here):
        out += [directory / n for n in _LIB_NAMES]
    prefixes = [here.parents[3]] if len(here.parents) > 3 else []
    prefixes.append(Path(sys.prefix))
    for prefix in prefixes:
        out += [prefix / "lib" / n for n in _LIB_NAMES]
    out += [here.parents[1] / "build" / "lib" / n for n in _LIB_NAMES]
    return out


_lock = threading.Lock()
_lib = None
_thread = threading.local()  # the device this thread last initialized


def load() -> ctypes.CDLL:
    """The loaded library (loaded on first use; TileLibraryError when none
    of candidate_paths() loads)."""
    global _lib
    with _lock:
        if _lib is not None:
            return _lib
        tried = []
        for path in candidate_paths():
            if not path.exists():
                tried.append(f"{path} (missing)")
                continue
            try:
                lib = ctypes.CDLL(str(path))
            except OSError as exc:
                tried.append(f"{path} ({exc})")
                continue
            _declare(lib)
            lib.tile_path = path
            _lib = lib
            return lib
        raise TileLibraryError(
            "libtile.so not found or not loadable; set TILE_LIBRARY to its "
            "path. Tried: " + "; ".join(tried))


def library_path() -> Path:
    """The path of the loaded library (loading it if needed)."""
    return load().tile_path


def _declare(lib: ctypes.CDLL) -> None:
    i32, i64, u64 = ctypes.c_int, ctypes.c_int64, ctypes.c_uint64
    p64 = ctypes.POINTER(ctypes.c_int64)
    void = ctypes.c_void_p
    lib.tile_last_error.argtypes = []
    lib.tile_last_error.restype = ctypes.c_char_p
    lib.tile_status_name.argtypes = [i32]
    lib.tile_status_name.restype = ctypes.c_char_p
    lib.tile_init.argtypes = [i32]
    lib.tile_init.restype = i32
    lib.tile_softmax.argtypes = [u64, i32, i64, u64, i32, i64, i64, i64, void]
    lib.tile_softmax.restype = i32
    lib.tile_softmax_matmul.argtypes = [u64, p64, u64, p64, u64, p64, i32,
                                        i64, i64, i64, i64, i32, void]
    lib.tile_softmax_matmul.restype = i32
    lib.tile_attention.argtypes = [u64, p64, u64, p64, u64, p64, u64, p64,
                                   u64, i32, i64, i64, i64, i64, i64, i64,
                                   ctypes.c_float, i32, void]
    lib.tile_attention.restype = i32


def check(function: str, status: int) -> None:
    """Raises for a failed call: ValueError for invalid or unsupported
    arguments (with the C API's message), TileError otherwise."""
    if status == SUCCESS:
        return
    lib = load()
    name = (lib.tile_status_name(status) or b"?").decode()
    message = (lib.tile_last_error() or b"").decode(errors="replace")
    if status in (ERROR_INVALID_ARGUMENT, ERROR_UNSUPPORTED):
        raise ValueError(f"{function}: {message}")
    raise TileError(function, name, message)


def init(ordinal: int) -> ctypes.CDLL:
    """The library with device `ordinal`'s context current on this thread
    (tile_init, again only when the thread's device changes)."""
    lib = load()
    if getattr(_thread, "device", None) != ordinal:
        check("tile_init", lib.tile_init(ordinal))
        _thread.device = ordinal
    return lib


def strides(values) -> ctypes.Array:
    """A C int64_t array of `values`."""
    values = list(values)
    return (ctypes.c_int64 * len(values))(*values)
