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
    if _lib is not None:  # the common case, without the lock
        return _lib
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
            missing = _declare(lib)
            if missing:
                tried.append(f"{path} (not Tile's C API: no {missing})")
                continue
            lib.tile_path = path
            _lib = lib
            return lib
        raise TileLibraryError(
            "libtile.so not found or not loadable; set TILE_LIBRARY to its "
            "path. Tried: " + "; ".join(tried))


def library_path() -> Path:
    """The path of the loaded library (loading it if needed)."""
    return load().tile_path


class ArgValue(ctypes.Union):
    """The value union of struct tile_arg."""
    _fields_ = [("ptr", ctypes.c_uint64), ("i32", ctypes.c_int32),
                ("i64", ctypes.c_int64), ("f32", ctypes.c_float),
                ("f64", ctypes.c_double)]


class Arg(ctypes.Structure):
    """struct tile_arg: one kernel launch argument."""
    _fields_ = [("kind", ctypes.c_int), ("value", ArgValue)]


# tile_arg_kind values, by the name of the union member they fill.
ARG_KINDS = {"ptr": 0, "i32": 1, "i64": 2, "f32": 3, "f64": 4, "i1": 5}
# tile_dtype and tile_precision values.
DTYPES = {"f32": 0, "f16": 1, "bf16": 2}
PRECISIONS = {"ieee": 0, "tf32": 1, "tf32x3": 2}

# Without these the library is not Tile's C API.
_REQUIRED = ("tile_last_error", "tile_status_name", "tile_init")


def _signatures() -> dict:
    """Every C API function the package calls: name -> (restype,
    argtypes), declared once here for the package and its tools."""
    i32, i64, u64 = ctypes.c_int, ctypes.c_int64, ctypes.c_uint64
    size, void, text = ctypes.c_size_t, ctypes.c_void_p, ctypes.c_char_p
    p64 = ctypes.POINTER(ctypes.c_int64)
    pi32 = ctypes.POINTER(ctypes.c_int)
    psize = ctypes.POINTER(ctypes.c_size_t)
    return {
        "tile_last_error": (text, []),
        "tile_status_name": (text, [i32]),
        "tile_init": (i32, [i32]),
        "tile_device_info": (i32, [text, size, pi32, pi32, pi32]),
        "tile_mem_get_info": (i32, [psize, psize]),
        "tile_softmax": (i32, [u64, i32, i64, u64, i32, i64, i64, i64, void]),
        "tile_softmax_matmul": (i32, [u64, p64, u64, p64, u64, p64, i32, i64,
                                      i64, i64, i64, i32, void]),
        "tile_attention": (i32, [u64, p64, u64, p64, u64, p64, u64, p64, u64,
                                 i32, i64, i64, i64, i64, i64, i64,
                                 ctypes.c_float, i32, void]),
        "tile_softmax_variant": (i32, [i32, i32, i64, i64, i32, text, size]),
        "tile_softmax_matmul_variant": (i32, [i32, i32, i64, i64, i64, i64,
                                              text, size]),
        "tile_attention_variant": (i32, [i32, i64, i64, i64, i64, i64, i64,
                                         i32, text, size]),
        "tile_library_kernel_count": (size, []),
        "tile_library_kernel_name": (text, [size]),
        "tile_module_load": (i32, [void, size, text, ctypes.POINTER(void)]),
        "tile_module_get_kernel": (i32, [void, text, ctypes.POINTER(void)]),
        "tile_kernel_launch": (i32, [void, ctypes.POINTER(ctypes.c_uint32),
                                     ctypes.POINTER(Arg), i32, void]),
    }


def _declare(lib: ctypes.CDLL) -> str:
    """Declares the functions of _signatures() that `lib` exports (an
    older build may lack some: has() tells) and records their names in
    lib.tile_functions. Returns the first missing one of _REQUIRED, or
    ""."""
    found = set()
    for name, (restype, argtypes) in _signatures().items():
        try:
            fn = getattr(lib, name)
        except AttributeError:
            continue
        fn.restype = restype
        fn.argtypes = argtypes
        found.add(name)
    lib.tile_functions = frozenset(found)
    return next((n for n in _REQUIRED if n not in found), "")


def has(function: str) -> bool:
    """Whether the loaded library exports `function` (a tile_* name)."""
    return function in load().tile_functions


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


# Diagnostics for benchmarks and tools: what the library would run, the
# device it sees, and kernels compiled by tile-compile. They need the
# library functions they name (has() tells); the device ones need init()
# on the calling thread first.

def _name_from(function: str, call) -> str:
    """The text a *_variant function writes, or "" when the library lacks
    `function` or the call fails."""
    if not has(function):
        return ""
    buf = ctypes.create_string_buffer(256)
    status = call(getattr(load(), function), buf)
    return buf.value.decode() if status == SUCCESS else ""


def softmax_variant(y_dtype: int, x_dtype: int, rows: int, cols: int,
                    aligned: bool) -> str:
    """The kernel tile_softmax runs for `rows` rows of `cols` elements
    (dtypes as DTYPES values; `aligned`: 16-byte aligned bases and row
    strides)."""
    return _name_from("tile_softmax_variant", lambda fn, buf: fn(
        y_dtype, x_dtype, rows, cols, int(bool(aligned)), buf, len(buf)))


def softmax_matmul_variant(dtype: int, precision: int, batch: int, d1: int,
                           d2: int, d3: int) -> str:
    """The kernel tile_softmax_matmul runs on the current device for
    contiguous tensors with 16-byte aligned bases."""
    return _name_from("tile_softmax_matmul_variant", lambda fn, buf: fn(
        dtype, precision, batch, d1, d2, d3, buf, len(buf)))


def attention_variant(dtype: int, batch: int, heads: int, kv_heads: int,
                      seq_q: int, seq_k: int, head_dim: int,
                      causal: bool) -> str:
    """The kernel tile_attention runs on the current device for contiguous
    BHSD tensors with 16-byte aligned bases."""
    return _name_from("tile_attention_variant", lambda fn, buf: fn(
        dtype, batch, heads, kv_heads, seq_q, seq_k, head_dim,
        int(bool(causal)), buf, len(buf)))


def device_info() -> tuple[str, int, int, int]:
    """(name, major, minor, multiprocessors) of the current device."""
    lib = load()
    buf = ctypes.create_string_buffer(256)
    major, minor, sms = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
    check("tile_device_info", lib.tile_device_info(
        buf, len(buf), ctypes.byref(major), ctypes.byref(minor),
        ctypes.byref(sms)))
    return buf.value.decode(), major.value, minor.value, sms.value


def mem_get_info() -> tuple[int, int]:
    """(free, total) bytes of the current device (every process's
    allocations counted)."""
    lib = load()
    free, total = ctypes.c_size_t(), ctypes.c_size_t()
    check("tile_mem_get_info",
          lib.tile_mem_get_info(ctypes.byref(free), ctypes.byref(total)))
    return free.value, total.value


def kernel_names() -> list[str]:
    """The names of the library's embedded kernels."""
    lib = load()
    if not has("tile_library_kernel_count"):
        return []
    return [lib.tile_library_kernel_name(i).decode()
            for i in range(lib.tile_library_kernel_count())]


_modules = []  # loaded modules stay loaded: their kernels may be launched


def load_kernel(image: bytes, metadata: bytes, name: str) -> ctypes.c_void_p:
    """Kernel `name` of a module that tile-compile wrote (PTX or cubin
    `image` and its `metadata` text), loaded on the current device."""
    lib = load()
    module = ctypes.c_void_p()
    check("tile_module_load", lib.tile_module_load(
        image, len(image), metadata, ctypes.byref(module)))
    _modules.append(module)
    kernel = ctypes.c_void_p()
    check("tile_module_get_kernel", lib.tile_module_get_kernel(
        module, name.encode(), ctypes.byref(kernel)))
    return kernel


def launch(kernel: ctypes.c_void_p, grid, args, stream: int | None) -> None:
    """Launches `kernel` on `grid` (three CTA counts) with `args`, (kind,
    value) pairs whose kind is a key of ARG_KINDS, on `stream` (a CUstream
    handle; 0 or None for the default stream). The library checks the
    arguments against the kernel's metadata first."""
    lib = load()
    packed = (Arg * len(args))()
    for slot, (kind, value) in zip(packed, args):
        slot.kind = ARG_KINDS[kind]
        if kind == "i1":  # read from the i32 member (0 or not)
            slot.value.i32 = int(bool(value))
        else:
            setattr(slot.value, kind, value)
    dims = (ctypes.c_uint32 * 3)(*grid)
    check("tile_kernel_launch",
          lib.tile_kernel_launch(kernel, dims, packed, len(args), stream))
