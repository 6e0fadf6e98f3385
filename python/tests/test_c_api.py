"""The package's ctypes declarations against the C header: a function
whose parameters change in tile_runtime.h must change in _library.py too,
or calls would pass their arguments in the wrong places. Needs neither a
GPU nor torch."""

import ctypes
import re
import sys
from pathlib import Path

import pytest

PYTHON_DIR = Path(__file__).resolve().parents[1]
HEADER = PYTHON_DIR.parent / "runtime" / "include" / "tile_runtime.h"
sys.path.insert(0, str(PYTHON_DIR))

from tile import _library  # noqa: E402

# C types of the header by their ctypes counterparts; enumerations are
# ints, the opaque handles pointers.
SCALARS = {
    "int": ctypes.c_int, "tile_status": ctypes.c_int,
    "tile_dtype": ctypes.c_int, "tile_precision": ctypes.c_int,
    "int64_t": ctypes.c_int64, "uint64_t": ctypes.c_uint64,
    "uint32_t": ctypes.c_uint32, "size_t": ctypes.c_size_t,
    "float": ctypes.c_float, "tile_module": ctypes.c_void_p,
    "tile_kernel": ctypes.c_void_p, "tile_arg": _library.Arg,
}


def to_ctypes(decl: str):
    """The ctypes type of a parameter or return declaration such as
    `const int64_t strides[4]`, `char *name` or `const char *`."""
    decl = decl.replace("const ", "").strip()
    array = decl.endswith("]")
    decl = re.sub(r"\[\d*\]$", "", decl).strip()
    stars = decl.count("*") + int(array)
    words = decl.replace("*", " ").split()
    # The last word names the parameter unless the words are a type alone.
    base = " ".join(words[:-1]) if len(words) > 1 else words[0]
    if stars == 0:
        return SCALARS[base]
    if stars == 1 and base == "char":
        return ctypes.c_char_p
    if stars == 1 and base == "void":
        return ctypes.c_void_p
    assert stars == 1, decl
    return ctypes.POINTER(SCALARS[base])


def header_prototypes() -> dict:
    """name -> (return declaration, [parameter declarations])."""
    text = re.sub(r"/\*.*?\*/", "", HEADER.read_text(), flags=re.S)
    out = {}
    for m in re.finditer(r"^([A-Za-z_][\w \*]*?)\s*\b(tile_\w+)\s*\(([^;{]*?)\)"
                         r"\s*;", text, flags=re.M):
        params = " ".join(m.group(3).split())
        out[m.group(2)] = (m.group(1),
                           [] if params == "void" else params.split(", "))
    return out


PROTOTYPES = header_prototypes()


@pytest.mark.parametrize("name", sorted(_library._signatures()))
def test_declarations_match_the_header(name):
    assert name in PROTOTYPES, f"{name} is not declared in {HEADER.name}"
    restype, argtypes = _library._signatures()[name]
    returns, params = PROTOTYPES[name]
    # Functions returning `const char *` come back as c_char_p.
    assert to_ctypes(returns) is restype, name
    assert [to_ctypes(p) for p in params] == list(argtypes), name


def test_the_parser_reads_array_and_pointer_parameters():
    assert to_ctypes("const int64_t o_strides[4]") is \
        ctypes.POINTER(ctypes.c_int64)
    assert to_ctypes("char *name") is ctypes.c_char_p
    assert to_ctypes("tile_module *module") is \
        ctypes.POINTER(ctypes.c_void_p)
    assert to_ctypes("int64_t kv_heads") is ctypes.c_int64
    assert len(PROTOTYPES["tile_attention_variant"][1]) == 10
