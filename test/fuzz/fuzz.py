#!/usr/bin/env python3
"""Mutation fuzzer for the Tile tools (tile-opt, tile-compile, tile-run).

Takes the repository's .mlir files as a corpus, mutates them (literals,
types, shapes, lines, bytes, op names, attributes, signatures, calls) or
blows them up structurally (deep nesting, long op chains), runs the tools on
the results and reports every invocation that crashes, hangs or exits in a
way the tools' contracts do not allow. Standard library only.

See test/fuzz/README.md.
"""

import argparse
import concurrent.futures
import glob
import hashlib
import json
import os
import random
import re
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

SCRIPT_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_ROOT = os.path.dirname(os.path.dirname(SCRIPT_DIR))

ALL_TOOLS = ("opt", "ptx", "compile", "run")
CLASSES = ("crash", "hang", "bad-exit", "ok")

# ----------------------------------------------------------------------------
# Corpus
# ----------------------------------------------------------------------------

SPLIT_RE = re.compile(r"^\s*// -----\s*$", re.M)


def default_corpus():
    files = sorted(glob.glob(os.path.join(REPO_ROOT, "examples", "*.mlir")))
    files += sorted(glob.glob(os.path.join(REPO_ROOT, "test", "**", "*.mlir"),
                              recursive=True))
    return [f for f in files if os.sep + "fuzz" + os.sep not in f]


def load_corpus(paths, keep_expected=False):
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += sorted(glob.glob(os.path.join(p, "**", "*.mlir"),
                                      recursive=True))
        else:
            files.append(p)
    entries = []
    for f in sorted(set(files)):
        try:
            with open(f, "r", encoding="utf-8", errors="replace") as fh:
                text = fh.read()
        except OSError:
            continue
        if not keep_expected:
            # tile-opt checks expected-* comments even without
            # -verify-diagnostics; keep them only when asked to.
            text = re.sub(r"//\s*expected-(error|warning|remark|note)\b[^\n]*", "//", text)
        for i, chunk in enumerate(SPLIT_RE.split(text)):
            if chunk.strip():
                rel = os.path.relpath(f, REPO_ROOT) if f.startswith(REPO_ROOT) else f
                entries.append(("%s#%d" % (rel, i), chunk))
    return entries


# ----------------------------------------------------------------------------
# Mutations
# ----------------------------------------------------------------------------

INT_BOUNDARY = ["0", "1", "-1", "2", "3", "7", "2147483647", "2147483648",
                "-2147483648", "-2147483649", "4294967295", "4294967296",
                "4611686018427387905", "9223372036854775807",
                "-9223372036854775808", "18446744073709551616",
                "1099511627776", "65536", "1048576", "1073741824", "33", "31",
                "63", "64", "4096", "99999999999999999999999"]
HUGE_DIMS = ["4294967296", "2147483648", "1073741824", "65536", "1048576",
             "9223372036854775807", "18446744073709551616", "2147483647"]
FLOAT_SPECIAL = ["nan", "inf", "-inf", "1e308", "-1e308", "1.0e+39", "-0.0",
                 "0x7FC00000", "0x7F800000", "0xFF800000", "0x7FF8000000000000",
                 "0xFFFFFFFFFFFFFFFFFFFF", "0x0", "1e-45", "3.4028235e38",
                 "0.0", "1.5"]
ELEM_TYPES = ["f32", "f16", "bf16", "f64", "f8E4M3FN", "f8E5M2", "f6E2M3FN",
              "complex<f32>", "i128", "i1", "i8", "i16", "i32", "i64", "index",
              "f4E2M1FN", "tf32", "ui32", "si32", "none", "vector<4xf32>",
              "!tile.ptr<f32>", "!tile.ptr<!tile.ptr<f32>>", "tensor<4xf32>"]
TYPE_TOKEN_RE = re.compile(r"(?<![\w.!])(f16|bf16|f32|f64|i1|i8|i16|i32|i64|index)(?![\w])")
INT_LIT_RE = re.compile(r"(?<![\w.#%@^\"x])-?\d+(?![\w.\"])")
FLOAT_LIT_RE = re.compile(r"(?<![\w.])-?\d+\.\d*(?:[eE][+-]?\d+)?(?![\w])|0x[0-9A-Fa-f]{4,16}\b")
DIMS_RE = re.compile(r"((?:tensor|vector|memref)<)((?:\?|\d+)(?:x(?:\?|\d+))*)x")
OP_NAME_RE = re.compile(r"(?<![\w.%@!#])((?:tile|arith|math|scf|func|cf|gpu|llvm|nvvm)\.[a-z_][a-z_0-9.]*)")
WARPS_RE = re.compile(r"(tile\.(?:num_warps|num_stages|cluster_size|min_programs_per_sm|divisibility)\s*=\s*)(-?\d+)")
GARBAGE = ["}", "{", "%", "%0", "\"", "^bb0:", "tensor<", ">", ")", "(", ":",
           "\x00", "\xff", "\u00e9\u2603", "#tile.", "!tile.ptr<", "loc(",
           "// -----", "@", "= ", "dense<", "[", "]", "->", "...", "\\",
           "0x", "-", "iter_args(", "scf.yield", "return", "func.func @f()",
           "attributes {tile.kernel}", "\t", "\n\n", "#blocked", "{-#",
           "\"tile.load\"()", "<<<<", "x", "tensor<?xf32>", "!tile.block_ptr<"]


def _lines(text):
    return text.split("\n")


def _replace_nth(text, regex, rng, repl_fn, count=1):
    matches = list(regex.finditer(text))
    if not matches:
        return None
    chosen = sorted(rng.sample(matches, min(count, len(matches))),
                    key=lambda m: m.start(), reverse=True)
    for m in chosen:
        text = text[:m.start()] + repl_fn(m) + text[m.end():]
    return text


def m_int_boundary(text, rng):
    return _replace_nth(text, INT_LIT_RE, rng, lambda m: rng.choice(INT_BOUNDARY),
                        rng.choice([1, 1, 2, 3]))


def m_float_special(text, rng):
    return _replace_nth(text, FLOAT_LIT_RE, rng, lambda m: rng.choice(FLOAT_SPECIAL),
                        rng.choice([1, 1, 2]))


def m_type_swap(text, rng):
    toks = TYPE_TOKEN_RE.findall(text)
    if not toks:
        return None
    old = rng.choice(toks)
    new = rng.choice([t for t in ELEM_TYPES if t != old])
    if rng.random() < 0.6:
        return TYPE_TOKEN_RE.sub(lambda m: new if m.group(1) == old else m.group(0), text)
    return _replace_nth(text, TYPE_TOKEN_RE, rng, lambda m: new)


def m_shape(text, rng):
    matches = list(DIMS_RE.finditer(text))
    if not matches:
        return None
    m = rng.choice(matches)
    dims = m.group(2).split("x")
    r = rng.random()
    nd = list(dims)
    if r < 0.45:
        i = rng.randrange(len(nd))
        nd[i] = rng.choice(["0", "1", "3", "5", "7", "?", "2", "-1"] + HUGE_DIMS)
    elif r < 0.7:
        nd.insert(rng.randrange(len(nd) + 1), rng.choice(["1", "2", "4", "4294967296"] + HUGE_DIMS[:2]))
    elif r < 0.85 and len(nd) > 1:
        del nd[rng.randrange(len(nd))]
    else:
        nd = [rng.choice(HUGE_DIMS) for _ in nd]
    old = m.group(1) + m.group(2) + "x"
    new = m.group(1) + "x".join(nd) + "x"
    if rng.random() < 0.6:
        # Consistent rewrite: every tile of this shape, and the literal size
        # of a 1-d shape (tile.range bounds) when the shape is 1-d.
        text = text.replace(old, new)
        if len(dims) == 1 and len(nd) == 1 and dims[0].isdigit() and rng.random() < 0.7:
            text = re.sub(r"(?<![\w.])%s(?![\w.])" % re.escape(dims[0]), nd[0], text)
        return text
    return text[:m.start()] + new + text[m.end():]


def m_delete_line(text, rng):
    ls = _lines(text)
    if len(ls) < 2:
        return None
    for _ in range(rng.choice([1, 1, 2, 4])):
        if len(ls) > 1:
            del ls[rng.randrange(len(ls))]
    return "\n".join(ls)


def m_dup_line(text, rng):
    ls = _lines(text)
    i = rng.randrange(len(ls))
    ls.insert(i, ls[i])
    return "\n".join(ls)


def m_swap_lines(text, rng):
    ls = _lines(text)
    if len(ls) < 2:
        return None
    i, j = rng.randrange(len(ls)), rng.randrange(len(ls))
    ls[i], ls[j] = ls[j], ls[i]
    return "\n".join(ls)


def m_truncate(text, rng):
    if not text:
        return None
    return text[:rng.randrange(len(text))]


def m_garbage(text, rng):
    pos = rng.randrange(len(text) + 1)
    if rng.random() < 0.5:
        ins = rng.choice(GARBAGE)
    else:
        ins = "".join(chr(rng.randrange(1, 256)) for _ in range(rng.randrange(1, 8)))
    return text[:pos] + ins + text[pos:]


def m_op_swap(text, rng, op_names=()):
    matches = list(OP_NAME_RE.finditer(text))
    if not matches or not op_names:
        return None
    m = rng.choice(matches)
    return text[:m.start()] + rng.choice(op_names) + text[m.end():]


def m_attr_values(text, rng):
    vals = ["0", "1", "2", "3", "4", "8", "16", "32", "64", "1024", "-1",
            "2147483647", "-2147483648", "4294967296", "6", "5"]
    if WARPS_RE.search(text) and rng.random() < 0.7:
        return _replace_nth(text, WARPS_RE, rng,
                            lambda m: m.group(1) + rng.choice(vals), 1)
    # Add an attribute to a kernel's attribute dictionary.
    attr = rng.choice(["tile.num_warps", "tile.num_stages", "tile.cluster_size",
                       "tile.min_programs_per_sm"])
    typ = rng.choice(["i32", "i32", "i64", "i8", "index"])
    new = "tile.kernel, %s = %s : %s" % (attr, rng.choice(vals), typ)
    if "tile.kernel" not in text:
        return None
    return text.replace("tile.kernel", new, 1)


SIG_TYPES = ["i32", "i64", "i1", "f32", "f64", "f16", "index", "i8",
             "!tile.ptr<f32>", "!tile.ptr<f16>", "!tile.ptr<i64>",
             "!tile.ptr<i1>", "!tile.ptr<complex<f32>>", "!tile.ptr<!tile.ptr<f32>>",
             "tensor<16xf32>", "!tile.ptr<f8E4M3FN>", "!tile.ptr<i128>"]
ARG_RE = re.compile(r"(%[\w$.-]+\s*:\s*)(!tile\.ptr<[^>]*>+|i\d+|f\d+|bf16|index)")


def m_arg_type(text, rng):
    # Only arguments of func.func signatures.
    spans = []
    for m in re.finditer(r"func\.func\s+(?:private\s+)?@[\w$.]+\s*\(", text):
        end = _match_paren(text, m.end() - 1)
        if end:
            spans.append((m.end(), end))
    cands = []
    for s, e in spans:
        for am in ARG_RE.finditer(text, s, e):
            cands.append(am)
    if not cands:
        return None
    am = rng.choice(cands)
    return text[:am.start(2)] + rng.choice(SIG_TYPES) + text[am.end(2):]


def _match_paren(text, i):
    depth = 0
    for j in range(i, min(len(text), i + 20000)):
        c = text[j]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j
    return None


def m_kernel_attr(text, rng):
    r = rng.random()
    if "tile.kernel" in text:
        if r < 0.3:
            return text.replace("tile.kernel, ", "", 1).replace("{tile.kernel}", "{}", 1)
        if r < 0.5:
            return text.replace("tile.kernel", rng.choice(["tile.kernel2", "tile.kernelx", "tile.krnel", "tile.kernel = 0 : i32", "tile.kernel = \"no\""]), 1)
        if r < 0.7:
            # A second copy of the kernel under another name (two kernels).
            k = find_kernels(text)
            if k:
                name = k[0]["name"]
                body = text[k[0]["start"]:k[0]["end"]]
                copy = body.replace("@" + name, "@" + name + "_fz2", 1)
                return text[:k[0]["end"]] + "\n" + copy + text[k[0]["end"]:]
    # Mark every function as a kernel.
    return re.sub(r"(func\.func\s+(?:private\s+)?@[\w$.]+\s*\([^)]*\)(?:\s*->\s*[^{]*)?)\s*\{",
                  lambda m: m.group(1) + " attributes {tile.kernel} {", text, count=1)


def m_add_call(text, rng):
    ks = find_kernels(text)
    if not ks:
        return None
    k = rng.choice(ks)
    kind = rng.choice(["recursive", "external", "mutual", "tile_recursive", "self_kernel"])
    helpers = ""
    call = ""
    if kind == "recursive":
        helpers = ("func.func private @fz_rec(%a: i32) -> i32 {\n"
                   "  %r = func.call @fz_rec(%a) : (i32) -> i32\n"
                   "  return %r : i32\n}\n")
        call = "%fz_pid = tile.program_id 0\n%fz_r = func.call @fz_rec(%fz_pid) : (i32) -> i32\n"
    elif kind == "external":
        helpers = "func.func private @fz_ext(i32) -> i32\n"
        call = "%fz_pid = tile.program_id 0\n%fz_r = func.call @fz_ext(%fz_pid) : (i32) -> i32\n"
    elif kind == "mutual":
        helpers = ("func.func private @fz_a(%a: i32) -> i32 {\n"
                   "  %r = func.call @fz_b(%a) : (i32) -> i32\n  return %r : i32\n}\n"
                   "func.func private @fz_b(%a: i32) -> i32 {\n"
                   "  %r = func.call @fz_a(%a) : (i32) -> i32\n  return %r : i32\n}\n")
        call = "%fz_pid = tile.program_id 0\n%fz_r = func.call @fz_a(%fz_pid) : (i32) -> i32\n"
    elif kind == "tile_recursive":
        helpers = ("func.func private @fz_t(%a: tensor<64xf32>) -> tensor<64xf32> {\n"
                   "  %b = arith.addf %a, %a : tensor<64xf32>\n"
                   "  %r = func.call @fz_t(%b) : (tensor<64xf32>) -> tensor<64xf32>\n"
                   "  return %r : tensor<64xf32>\n}\n")
        call = ("%fz_z = arith.constant dense<1.0> : tensor<64xf32>\n"
                "%fz_r = func.call @fz_t(%fz_z) : (tensor<64xf32>) -> tensor<64xf32>\n")
    else:
        # Call the kernel itself with its own arguments.
        args = [a for a in k["args"]]
        names = ", ".join(a[0] for a in args)
        types = ", ".join(a[1] for a in args)
        call = "func.call @%s(%s) : (%s) -> ()\n" % (k["name"], names, types)
    text = insert_before_return(text, k, call)
    if helpers:
        text = text + "\n" + helpers
    return text


SNIPPETS = [
    "%fz_s = arith.constant dense<(1.0, 2.0)> : tensor<16xcomplex<f32>>",
    "%fz_s = arith.constant dense<1.0> : tensor<4294967296x4294967296xf32>",
    "%fz_s = arith.constant dense<1.0> : tensor<18446744073709551616xf32>",
    "%fz_s = arith.constant dense<0> : tensor<0xi32>",
    "%fz_s = arith.constant dense<1> : tensor<1024xi128>",
    "%fz_s = arith.constant dense<1.0> : tensor<1024xf8E4M3FN>",
    "%fz_s = arith.constant dense<1.0> : tensor<64xf6E2M3FN>",
    "%fz_s = tile.range 0, 2147483647 : tensor<2147483647xi32>",
    "%fz_s = tile.range -2147483648, 2147483647 : tensor<4294967295xi32>",
    "%fz_s = tile.range 2147483632, 2147483647 : tensor<16xi32>",
    "%fz_s = tile.range 0, 4294967296 : tensor<4294967296xi32>",
    "%fz_s = tile.program_id 3",
    "%fz_s = tile.num_programs 7",
    "%fz_c = arith.constant 1.0 : f32\n%fz_s = tile.splat %fz_c : tensor<4294967296x4294967296xf32>",
    "%fz_c = arith.constant 1.0 : f32\n%fz_s = tile.splat %fz_c : tensor<1073741824x16xf32>",
    "%fz_c = arith.constant dense<(1.0, 2.0)> : tensor<4xcomplex<f32>>\n%fz_s = tile.reduce sum %fz_c axis = 0 : tensor<4xcomplex<f32>> -> complex<f32>",
    "%fz_c = arith.constant dense<1.0> : tensor<16xf32>\n%fz_s = tile.reduce sum %fz_c axis = 5 : tensor<16xf32> -> f32",
    "%fz_c = arith.constant dense<1.0> : tensor<16x16xf32>\n%fz_s = tile.dot %fz_c, %fz_c, %fz_c : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>",
    "%fz_c = arith.constant dense<1> : tensor<16xi32>\n%fz_z = arith.constant dense<0> : tensor<16xi32>\n%fz_s = arith.divsi %fz_c, %fz_z : tensor<16xi32>",
    "%fz_c = arith.constant -2147483648 : i32\n%fz_m = arith.constant -1 : i32\n%fz_s = arith.divsi %fz_c, %fz_m : i32",
    "%fz_c = arith.constant 1 : i32\n%fz_m = arith.constant 40 : i32\n%fz_s = arith.shli %fz_c, %fz_m : i32",
    "%fz_lb = arith.constant 2147483632 : i32\n%fz_ub = arith.constant 2147483647 : i32\n%fz_st = arith.constant 16 : i32\nscf.for %fz_i = %fz_lb to %fz_ub step %fz_st : i32 {\n}",
    "%fz_lb = arith.constant -2147483648 : i32\n%fz_ub = arith.constant 2147483647 : i32\n%fz_st = arith.constant 1073741824 : i32\nscf.for %fz_i = %fz_lb to %fz_ub step %fz_st : i32 {\n}",
    "%fz_lb = arith.constant 0 : i32\n%fz_ub = arith.constant 16 : i32\n%fz_st = arith.constant 0 : i32\nscf.for %fz_i = %fz_lb to %fz_ub step %fz_st : i32 {\n}",
    "%fz_lb = arith.constant 0 : i32\n%fz_ub = arith.constant 16 : i32\n%fz_st = arith.constant -1 : i32\nscf.for %fz_i = %fz_lb to %fz_ub step %fz_st : i32 {\n}",
    "%fz_lb = arith.constant 9223372036854775800 : i64\n%fz_ub = arith.constant 9223372036854775807 : i64\n%fz_st = arith.constant 4 : i64\nscf.for %fz_i = %fz_lb to %fz_ub step %fz_st : i64 {\n}",
    "%fz_c = arith.constant 0x7FC00000 : f32\n%fz_s = arith.fptosi %fz_c : f32 to i32",
    "%fz_c = arith.constant 1.0e+39 : f64\n%fz_s = arith.truncf %fz_c : f64 to f16",
    "%fz_s = tile.alloc_shared : !tile.shared<4294967296x128xf32>",
    "%fz_c = arith.constant dense<1.0> : tensor<16xf32>\n%fz_s = tile.reshape %fz_c : tensor<16xf32> -> tensor<4294967296x0xf32>",
    "%fz_c = arith.constant dense<1.0> : tensor<16xf32>\n%fz_s = tile.expand_dims %fz_c axis = 9 : tensor<16xf32> -> tensor<16x1xf32>",
    "%fz_c = arith.constant dense<1.0> : tensor<4x4xf32>\n%fz_s = tile.trans %fz_c : tensor<4x4xf32> -> tensor<4x4xf32>",
]


def m_snippet(text, rng):
    ks = find_kernels(text)
    if not ks or rng.random() < 0.25:
        ks = find_kernels(text, all_funcs=True)
    if not ks:
        return None
    return insert_before_return(text, rng.choice(ks), rng.choice(SNIPPETS) + "\n")


OFFSETS = ["2147483647", "-2147483648", "1073741824", "536870912", "-1",
           "9223372036854775807", "-9223372036854775808", "4611686018427387904",
           "2305843009213693952", "4294967296", "1"]


def m_ptr_snippet(text, rng):
    """Loads and stores through a kernel pointer at boundary offsets."""
    ks = find_kernels(text)
    cands = [(k, a) for k in ks for a in k["args"] if elem_of_ptr(a[1])]
    if not cands:
        return None
    k, (p, pt, _) = rng.choice(cands)
    et = elem_of_ptr(pt)
    off = rng.choice(OFFSETS)
    it = "i64" if abs(int(off)) >= 2 ** 31 or rng.random() < 0.4 else "i32"
    if it == "i32" and not (-2 ** 31 <= int(off) < 2 ** 31):
        it = "i64"
    kind = rng.choice(["scalar", "scalar", "tile", "block", "twice"])
    if kind == "scalar":
        snip = ("%%fz_o = arith.constant %s : %s\n%%fz_q = tile.addptr %s, %%fz_o : %s, %s\n"
                "%%fz_v = tile.load %%fz_q : %s\ntile.store %%fz_q, %%fz_v : %s\n"
                % (off, it, p, pt, it, pt, pt))
    elif kind == "twice":
        snip = ("%%fz_o = arith.constant %s : %s\n%%fz_q = tile.addptr %s, %%fz_o : %s, %s\n"
                "%%fz_q2 = tile.addptr %%fz_q, %%fz_o : %s, %s\n"
                "%%fz_v = tile.load %%fz_q2 : %s\n" % (off, it, p, pt, it, pt, it, pt))
    elif kind == "tile":
        n = rng.choice([16, 128, 1024])
        snip = ("%%fz_o = arith.constant %s : i32\n%%fz_r = tile.range 0, %d : tensor<%dxi32>\n"
                "%%fz_os = tile.splat %%fz_o : tensor<%dxi32>\n%%fz_oo = arith.addi %%fz_r, %%fz_os : tensor<%dxi32>\n"
                "%%fz_b = tile.splat %s : tensor<%dx%s>\n"
                "%%fz_ps = tile.addptr %%fz_b, %%fz_oo : tensor<%dx%s>, tensor<%dxi32>\n"
                "%%fz_v = tile.load %%fz_ps : tensor<%dx%s>\n"
                % (rng.choice(OFFSETS[:5] + ["2147483632", "2147483520"]), n, n, n, n, p, n, pt, n, pt, n, n, pt))
    else:
        big = rng.choice(OFFSETS)
        snip = ("%%fz_sh = arith.constant %s : i64\n%%fz_st = arith.constant %s : i64\n"
                "%%fz_o = arith.constant %s : i32\n"
                "%%fz_bp = tile.make_block_ptr %s, [%%fz_sh, %%fz_sh], [%%fz_st, %%fz_st], [%%fz_o, %%fz_o] "
                "order = [1, 0] : !tile.block_ptr<tensor<16x16x%s>>\n"
                "%%fz_v = tile.block_load %%fz_bp check = [%s] : !tile.block_ptr<tensor<16x16x%s>>\n"
                % (big, rng.choice(OFFSETS + ["0", "1"]),
                   rng.choice(["2147483647", "-2147483648", "0", "1073741824", "2147483632"]),
                   p, et, rng.choice(["0, 1", "0", "1"]), et))
        snip = snip.replace("check = [] ", "")
    return insert_before_return(text, k, snip)


PARAM_DECL_RE = re.compile(r"^(\s*tile\.param\s+)(\w+)(\s*=\s*)(\S+)", re.M)
PARAM_USE_RE = re.compile(r"\$\{[^}\n]*\}")
SHAPE_DIM_RE = re.compile(r"(?<=[<x])(\d+)(?=x)")
PARAM_VALUES = ["0", "1", "3", "1000", "-1", "-64", "2147483648", "9223372036854775807",
                "-9223372036854775808", "99999999999999999999", "true", "false", "1.5", "0x10", ""]
PARAM_EXPRS = ["${N / 0}", "${N % 0}", "${N << 63}", "${-N}", "${log2(N)}", "${log2(0)}",
               "${cdiv(N, 0)}", "${9223372036854775807 + N}", "${N * 4611686018427387904}",
               "${N ? 1 : 2}", "${(N}", "${N))}", "${}", "${ N N }", "${true + 1}",
               "${max(N)}", "${min(N, N, N)}", "${unknown(N)}", "${M}", "${N", "$${N}}",
               "${N == true}", "${!N}", "${N > 1 ? N : false}",
               "${" + "-" * 100000 + "N}", "${" + "(" * 300 + "N" + ")" * 300 + "}",
               "${" + "N ? 1 : " * 5000 + "0}"]


def m_params(text, rng):
    """Kernel parameters: defaults set to odd values, uses replaced by odd
    expressions, or a parameter introduced for one dimension of a type."""
    decls = list(PARAM_DECL_RE.finditer(text))
    r = rng.random()
    if decls and r < 0.4:
        return _replace_nth(text, PARAM_DECL_RE, rng,
                            lambda m: m.group(1) + m.group(2) + m.group(3) +
                            rng.choice(PARAM_VALUES))
    if PARAM_USE_RE.search(text) and r < 0.7:
        name = rng.choice(decls).group(2) if decls else "N"
        return _replace_nth(text, PARAM_USE_RE, rng,
                            lambda m: rng.choice(PARAM_EXPRS).replace("N", name))
    # Introduce a parameter for every occurrence of one tile dimension.
    dims = SHAPE_DIM_RE.findall(text)
    if not dims:
        return None
    dim = rng.choice(dims)
    body = re.sub(r"(?<=[<x])%s(?=x)" % dim, "${N}", text)
    value = rng.choice([dim, dim, str(int(dim) * 2), str(max(1, int(dim) // 2))] + PARAM_VALUES)
    return "tile.param N = %s\n" % value + body


MUTATIONS = [
    ("int", m_int_boundary, 6),
    ("float", m_float_special, 3),
    ("type", m_type_swap, 5),
    ("shape", m_shape, 6),
    ("del-line", m_delete_line, 3),
    ("dup-line", m_dup_line, 2),
    ("swap-lines", m_swap_lines, 2),
    ("truncate", m_truncate, 1),
    ("garbage", m_garbage, 2),
    ("op-swap", m_op_swap, 3),
    ("attr", m_attr_values, 3),
    ("arg-type", m_arg_type, 3),
    ("kernel-attr", m_kernel_attr, 2),
    ("call", m_add_call, 2),
    ("snippet", m_snippet, 4),
    ("ptr", m_ptr_snippet, 3),
    ("param", m_params, 3),
]

# ----------------------------------------------------------------------------
# Kernel structure helpers
# ----------------------------------------------------------------------------

FUNC_RE = re.compile(r"func\.func\s+(?:(?:private|public|nested)\s+)?@([\w$.]+)\s*\(")


def split_args(s):
    out, depth, cur = [], 0, ""
    for c in s:
        if c in "<([{":
            depth += 1
        elif c in ">)]}":
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += c
    if cur.strip():
        out.append(cur)
    return out


def find_kernels(text, all_funcs=False):
    """Functions with the tile.kernel attribute: name, args, body span."""
    res = []
    text = re.sub(r"//[^\n]*", lambda m: " " * len(m.group(0)), text)
    for m in FUNC_RE.finditer(text):
        pend = _match_paren(text, m.end() - 1)
        if pend is None:
            continue
        brace = text.find("{", pend)
        if brace < 0:
            continue
        header = text[pend:brace]
        # attributes {...} {: the body brace is the one after the dictionary.
        attrs = ""
        if re.search(r"\battributes\s*$", header):
            close = text.find("}", brace)
            if close < 0:
                continue
            attrs = text[brace:close + 1]
            brace = text.find("{", close)
            if brace < 0:
                continue
        if not all_funcs and "tile.kernel" not in attrs:
            continue
        depth, end = 0, None
        i = brace
        n = len(text)
        while i < n:
            c = text[i]
            if c == "/" and text.startswith("//", i):
                nl = text.find("\n", i)
                i = n if nl < 0 else nl
                continue
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    end = i + 1
                    break
            i += 1
        if end is None:
            continue
        args = []
        for a in split_args(text[m.end():pend]):
            am = re.match(r"\s*(%[\w$.-]+)\s*:\s*(.*?)\s*(\{.*\})?\s*$", a, re.S)
            if am:
                args.append((am.group(1), am.group(2).strip(), am.group(3) or ""))
        res.append({"name": m.group(1), "args": args, "start": m.start(),
                    "body_open": brace, "end": end})
    return res


GENERIC_FUNC_RE = re.compile(r'"func\.func"\(\) <\{(?:[^{}]*?)function_type = \((.*?)\) -> [^,]*?, sym_name = "([\w$.]+)"')


def generic_kernels(text):
    """Kernel signatures of a module in generic form (names and arg types only)."""
    res = []
    for m in GENERIC_FUNC_RE.finditer(text):
        # The attribute dictionary follows the function's region; look for
        # tile.kernel before the next function.
        nxt = text.find('"func.func"', m.end())
        if "tile.kernel" not in text[m.end():nxt if nxt > 0 else len(text)]:
            continue
        types = [t.strip() for t in split_args(m.group(1))]
        res.append({"name": m.group(2), "args": [("%%arg%d" % i, t, "") for i, t in enumerate(types)]})
    return res


def insert_before_return(text, k, snippet):
    body = text[k["body_open"]:k["end"]]
    idx = body.rfind("\n  return")
    if idx < 0:
        idx = body.rfind("return")
        if idx < 0:
            idx = len(body) - 1
    else:
        idx += 1
    pos = k["body_open"] + idx
    return text[:pos] + snippet + text[pos:]


def g_nest(text, rng):
    ks = find_kernels(text)
    if not ks:
        return None, None
    k = rng.choice(ks)
    depth = rng.choice([50, 200, 500, 1000, 3000, 3000])
    kind = rng.choice(["for", "for", "if", "mixed"])
    body = text[k["body_open"] + 1:k["end"] - 1]
    ridx = body.rfind("return")
    inner, tail = (body[:ridx], body[ridx:]) if ridx >= 0 else (body, "")
    head = ("\n%fz_c0 = arith.constant 0 : i32\n%fz_c1 = arith.constant 1 : i32\n"
            "%fz_t = arith.constant true\n")
    opens, closes = [], []
    for d in range(depth):
        kd = kind if kind != "mixed" else ("for" if d % 2 else "if")
        if kd == "for":
            opens.append("scf.for %%fz_i%d = %%fz_c0 to %%fz_c1 step %%fz_c1 : i32 {" % d)
        else:
            opens.append("scf.if %fz_t {")
        closes.append("}")
    new_body = head + "\n".join(opens) + "\n" + inner + "\n" + "\n".join(closes) + "\n" + tail
    return (text[:k["body_open"] + 1] + new_body + text[k["end"] - 1:],
            "nest-%s-%d" % (kind, depth))


CHAIN_OPS = {"arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.maximumf",
             "arith.minimumf", "arith.maxnumf", "arith.addi", "arith.subi",
             "arith.muli", "arith.andi", "arith.ori", "arith.xori", "arith.maxsi",
             "arith.minsi", "math.exp", "math.exp2", "math.log", "math.sqrt",
             "math.tanh", "math.absf", "arith.negf", "math.rsqrt", "math.fma"}
ELEM_LINE_RE = re.compile(r"^(\s*)(%[\w$.-]+) = ((?:arith|math)\.\w+) (%[\w$.#-]+)(.*?)(:\s*[^:]+)$")


def g_repeat(text, rng):
    ks = find_kernels(text)
    cands = []
    ls = _lines(text)
    for k in ks:
        s = text.count("\n", 0, k["body_open"])
        e = text.count("\n", 0, k["end"])
        for i in range(s, min(e + 1, len(ls))):
            m = ELEM_LINE_RE.match(ls[i])
            if m and m.group(3) in CHAIN_OPS:
                cands.append(i)
    if not cands:
        return None, None
    i = rng.choice(cands)
    m = ELEM_LINE_RE.match(ls[i])
    ind, res, op, first, rest, typ = m.groups()
    n = rng.choice([1000, 3000, 10000, 20000])
    mode = rng.choice(["chain", "live"])
    out = []
    if mode == "chain":
        prev = first
        for j in range(n):
            out.append("%s%%fz_r%d = %s %s%s%s" % (ind, j, op, prev, rest, typ))
            prev = "%%fz_r%d" % j
        out.append("%s%s = %s %s%s%s" % (ind, res, op, prev, rest, typ))
    else:
        # Many independent copies, all live until they are combined at the
        # end: the register estimate and liveness see n live tiles.
        for j in range(n):
            out.append("%s%%fz_r%d = %s %s%s%s" % (ind, j, op, first, rest, typ))
        prev = "%fz_r0"
        t = typ.split(":", 1)[1].strip()
        comb = "arith.addf" if re.search(r"(f\d+|bf16)>?$", t) else "arith.addi"
        for j in range(1, n):
            out.append("%s%%fz_s%d = %s %s, %%fz_r%d : %s" % (ind, j, comb, prev, j, t))
            prev = "%%fz_s%d" % j
        out.append(ls[i])
    ls[i:i + 1] = out
    return "\n".join(ls), "repeat-%s-%d" % (mode, n)


def g_many_args(text, rng):
    ks = find_kernels(text)
    if not ks:
        return None, None
    k = rng.choice(ks)
    n = rng.choice([100, 1000, 5000])
    t = rng.choice(["i32", "!tile.ptr<f32>", "f32"])
    pend = _match_paren(text, text.find("(", k["start"]))
    extra = "".join(", %%fz_a%d: %s" % (j, t) for j in range(n))
    return text[:pend] + extra + text[pend:], "many-args-%d" % n


def g_many_funcs(text, rng):
    ks = find_kernels(text)
    if not ks:
        return None, None
    n = rng.choice([200, 2000])
    funcs = []
    for j in range(n):
        callee = "fz_f%d" % (j + 1)
        if j + 1 < n:
            funcs.append("func.func private @fz_f%d(%%a: i32) -> i32 {\n"
                         "  %%b = arith.addi %%a, %%a : i32\n"
                         "  %%r = func.call @%s(%%b) : (i32) -> i32\n"
                         "  return %%r : i32\n}" % (j, callee))
        else:
            funcs.append("func.func private @fz_f%d(%%a: i32) -> i32 {\n  return %%a : i32\n}" % j)
    text = insert_before_return(text, ks[0], "%fz_pid = tile.program_id 0\n"
                                "%fz_r = func.call @fz_f0(%fz_pid) : (i32) -> i32\n")
    return text + "\n" + "\n".join(funcs) + "\n", "call-chain-%d" % n


def g_loop_iv(text, rng):
    """A loop whose i32 induction variable runs near the top of its range."""
    ks = find_kernels(text)
    if not ks:
        return None, None
    lb = rng.choice(["2147483520", "2147483647", "2147483000", "-2147483648", "0"])
    ub = rng.choice(["2147483647", "2147483647", "-2147483648", "1"])
    st = rng.choice(["64", "128", "1024", "1", "1073741824", "2147483647"])
    body = rng.choice(["", "%fz_p = tile.program_id 0\n"])
    snip = ("%%fz_lb = arith.constant %s : i32\n%%fz_ub = arith.constant %s : i32\n"
            "%%fz_st = arith.constant %s : i32\n"
            "scf.for %%fz_i = %%fz_lb to %%fz_ub step %%fz_st : i32 {\n%s}\n" % (lb, ub, st, body))
    return insert_before_return(text, rng.choice(ks), snip), "loop-iv"


GENERATORS = [("nest", g_nest, 4), ("repeat", g_repeat, 4), ("many-args", g_many_args, 1),
              ("many-funcs", g_many_funcs, 1), ("loop-iv", g_loop_iv, 2)]


def _weighted(rng, items):
    tot = sum(w for _, _, w in items)
    r = rng.uniform(0, tot)
    for name, fn, w in items:
        r -= w
        if r <= 0:
            return name, fn
    return items[-1][0], items[-1][1]


_VALID_CACHE = {}


def _looks_valid(text):
    v = _VALID_CACHE.get(text)
    if v is None:
        v = not re.search(r"expected-(error|warning|remark)|#blocked|#tile\.|#shared|llvm\.|gpu\.", text)
        _VALID_CACHE[text] = v
    return v


SYNTAX_MUTATIONS = {"del-line", "dup-line", "swap-lines", "truncate", "garbage", "op-swap"}


def generate_input(corpus, op_names, seed, index, tools=ALL_TOOLS, kernel_entries=None):
    """The index-th input of a seed: (rng, tool kind, source, text, mutations).

    Everything is drawn from one random.Random seeded by (seed, index), so
    the inputs do not depend on --jobs or on the order the runs finish."""
    rng = random.Random("%d:%d" % (seed, index))
    kind = rng.choice(list(tools))
    pool = corpus
    # Inputs for the compiler and the interpreter mostly start from a kernel
    # that is meant to be valid (no expected-error, no layouts already
    # assigned), so that the mutated input gets past the verifier often.
    if kernel_entries and (kind in ("run", "compile", "ptx") and rng.random() < 0.9
                           or rng.random() < 0.5):
        pool = kernel_entries
        good = [e for e in kernel_entries if _looks_valid(e[1]) or e[0].endswith("(generic)")]
        if good and rng.random() < 0.8:
            pool = good
    src, text = pool[rng.randrange(len(pool))]
    applied = []
    if rng.random() < 0.2:
        name, fn = _weighted(rng, GENERATORS)
        new, label = fn(text, rng)
        if new is not None:
            text = new
            applied.append(label)
    if kind == "run":
        n = rng.choice([0, 0, 1, 1, 1, 2, 2, 3])
    else:
        n = rng.choice([0, 1, 1, 1, 2, 2, 3]) if applied else rng.choice([0, 1, 1, 1, 2, 2, 3, 3])
    # Half of the inputs keep the syntax intact, to get past the parser.
    muts = MUTATIONS if rng.random() < 0.5 else [m for m in MUTATIONS if m[0] not in SYNTAX_MUTATIONS]
    for _ in range(n):
        for _attempt in range(4):
            name, fn = _weighted(rng, muts)
            if fn is m_op_swap:
                new = m_op_swap(text, rng, op_names)
            else:
                new = fn(text, rng)
            if new is not None and new != text:
                text = new
                applied.append(name)
                break
    return rng, kind, src, text, applied


# ----------------------------------------------------------------------------
# Invocations
# ----------------------------------------------------------------------------

CHIPS = ["sm_80", "sm_90", "sm_90a", "sm_86", "sm_89", "sm_100", "sm_120"]
BOGUS_CHIPS = ["", "sm_", "sm_0", "sm_9999999999999999999", "gfx90a", "sm_90a;x",
               "sm_-1", "SM_90", "sm_90a sm_80", "sm_1", "sm_20", "sm_35"]
OPT_PASSES = ["--tile-kernel-check", "--tile-kernel-check", "--tile-kernel-check=report",
              "--tile-kernel-check=max-tile-elements=0",
              "--tile-kernel-check=max-registers=0",
              "--tile-kernel-check=max-tile-elements=9223372036854775807",
              "--tile-simplify-masks", "--tile-assign-layouts", "--tile-to-llvm",
              "--tile-pipeline-loops", "--tile-remove-layout-conversions",
              "--tile-test-axis-info", "--canonicalize", "--inline",
              "--tile-outline-kernels", "--tile-kernel-check=max-registers=-1",
              "--tile-kernel-check=max-registers=9223372036854775807",
              "--tile-kernel-check=max-tile-elements=-1",
              "--verify-roundtrip", "--mlir-print-op-generic", "--emit-bytecode",
              "--mlir-print-debuginfo", "--tile-to-llvm=",
              "--pass-pipeline=builtin.module(tile-assign-layouts,tile-remove-layout-conversions,canonicalize,cse)",
              "--pass-pipeline=builtin.module(inline,tile-kernel-check,tile-simplify-masks,tile-pipeline-loops)"]


def elem_of_ptr(t):
    m = re.match(r"!tile\.ptr<(.*)>$", t)
    return m.group(1) if m else None


RUN_DTYPES = ["f16", "bf16", "f32", "f64", "i1", "i8", "i16", "i32", "i64"]


def run_args_for(rng, text):
    """tile-run arguments generated from a kernel signature."""
    # A step budget the interpreter exhausts in a few seconds: a kernel
    # whose loop bounds make it run for hours (legitimately) then stops
    # with an error instead of being taken for a hang.
    args = ["--mode=interp", "--quiet", "--max-steps=1000000000"]
    ks = find_kernels(text) or generic_kernels(text)
    # Most runs get plausible arguments; one in four may get odd ones.
    odd = rng.random() < 0.25
    p_odd = 0.15 if odd else 0.0
    buffers, sizes = [], []
    if ks:
        k = rng.choice(ks)
        if len(ks) > 1 or rng.random() < 0.05:
            args += ["--kernel", k["name"] if rng.random() < 0.9 else rng.choice(["", "nope", "@" + k["name"]])]
        params = k["args"]
        if rng.random() < p_odd / 3 and params:
            params = params[:-1] if rng.random() < 0.5 else params + params[-1:]
        for j, (pname, ptype, _) in enumerate(params[:400]):
            name = "a%d" % j
            et = elem_of_ptr(ptype)
            if et is not None:
                dt = et if et in RUN_DTYPES else "f32"
                if rng.random() < p_odd / 3:
                    dt = rng.choice(RUN_DTYPES + ["f8", "complex", ""])
                r = rng.random()
                if r < 0.8 or (not odd and r < 0.85):
                    shape = str(rng.choice([1, 16, 64, 128, 256, 1000, 1024, 1500, 2048, 4096]))
                elif r < 0.92:
                    a = rng.choice([1, 2, 4, 16, 32, 64])
                    b = rng.choice([1, 16, 32, 64])
                    shape = "%dx%d" % (a, b)
                elif r < 0.96 or not odd:
                    shape = str(rng.choice([8192, 16384, 65536]))
                else:
                    shape = rng.choice(["0", "1x0", "-1", "99999999999999999999",
                                        "4294967296x4294967296", "1000000x1000000",
                                        "18446744073709551615", "", "1x", "4,4", "x"])
                init = rng.choice(["randn", "randn", "randn", "iota", "zeros",
                                   "poison", "ones", "rand(-1,1)", "fill(nan)", "iota"] +
                                  (["fill(inf)", "randn(1e30)", "rand(5,1)", "fill(1e400)",
                                    "randn(-1)"] if odd else []))
                args += ["--arg", "%s=%s[%s]:%s" % (name, dt, shape, init)]
                buffers.append(name)
                if re.fullmatch(r"\d+(x\d+)?", shape):
                    sizes.append(eval(shape.replace("x", "*")))
            else:
                t = ptype
                if rng.random() < p_odd / 3:
                    t = rng.choice(["i32", "i64", "f32", "f64", "i1", "f16"])
                if t in ("i32", "i64", "i16", "i8", "index"):
                    if sizes and rng.random() < 0.4:
                        v = str(rng.choice(sizes))
                    elif rng.random() >= p_odd * 2:
                        v = str(rng.choice([1, 2, 4, 16, 32, 64, 100, 128, 256, 1000, 1024, 1500, 4096]))
                    else:
                        v = rng.choice(["0", "-1", "2147483647", "-2147483648", "2147483647",
                                        "2147483520", "-2147483648", "2147483648",
                                        "9223372036854775807", "-9223372036854775808",
                                        "4294967296", "65536", "1073741824", "1073741823",
                                        "010", "0x10", "+5", "", "99999999999999999999"])
                elif t == "i1":
                    v = rng.choice(["0", "1", "1"] + (["2", "-1"] if odd else []))
                elif t in ("f32", "f64", "f16", "bf16"):
                    v = rng.choice(["1.0", "1.0", "0.5", "1.0", "2.0", "-0.0", "0x1p3"] + (
                        ["nan", "inf", "-inf", "1e308", "1e-400", "abc"] if odd else []))
                else:
                    v = "1"
                args += ["--arg", "%s=%s:%s" % (name, t, v)]
    r = rng.random()
    if r >= p_odd / 2:
        grid = str(rng.randint(1, 8))
        if rng.random() < 0.2:
            grid += ",%d" % rng.randint(1, 3)
            if rng.random() < 0.3:
                grid += ",%d" % rng.randint(1, 2)
    else:
        grid = rng.choice(["0", "-1", "1,0", "", "a", "1,2,3,4", "2147483648",
                           "99999999999999999999", "1,,1", " 2", "2x2"])
    args += ["--grid", grid]
    if rng.random() < (0.3 if odd else 0.05):
        args += ["--rtol", rng.choice(["-1", "nan", "inf", "0", "1e-300", "1e-3", "1e400", "abc"]
                                      if odd else ["1e-3", "0", "1e-300"])]
    if rng.random() < (0.3 if odd else 0.05):
        args += ["--seed", rng.choice(["0", "1", "42", "4294967295", "18446744073709551615", "-1"]
                                      if odd else ["1", "42", "4294967295"])]
    if buffers and rng.random() < 0.3:
        args += ["--print", rng.choice(buffers + (["nope"] if odd else []))]
    if buffers and rng.random() < 0.2:
        args += ["--dump", "%s={tmp}/dump.bin" % rng.choice(buffers)]
    if len(buffers) >= 2 and rng.random() < 0.1:
        fn = rng.choice(["add", "softmax", "matmul", "softmax_matmul", "matmul_leaky_relu"])
        ins = buffers[1:3] if fn in ("add", "matmul", "softmax_matmul", "matmul_leaky_relu") else buffers[1:2]
        args += ["--check", "%s=%s(%s)" % (buffers[0], fn, ",".join(ins))]
    return args


def param_args(rng, text):
    """Sometimes --param settings: declared names, undeclared ones, odd values."""
    if rng.random() > 0.15:
        return []
    names = [m.group(2) for m in PARAM_DECL_RE.finditer(text)] or ["N"]
    name = rng.choice(names + ["UNDECLARED", "", "N=1"])
    return ["--param", "%s=%s" % (name, rng.choice(PARAM_VALUES + ["16", "64", "256"]))]


def make_invocation(rng, kind, text, has_ptxas):
    """Returns (tool label, argv template). {input}, {tmp}, {bin} are filled in later."""
    label, argv = make_invocation_without_params(rng, kind, text, has_ptxas)
    return label, argv + param_args(rng, text)


def make_invocation_without_params(rng, kind, text, has_ptxas):
    if kind == "opt":
        if rng.random() < 0.45:
            return "tile-opt", ["{bin}/tile-opt", "{input}"]
        p = rng.choice(OPT_PASSES)
        label = "tile-opt " + p.split("=")[0]
        return label, ["{bin}/tile-opt", "{input}", p, "-o", "{tmp}/out.mlir"]
    if kind == "ptx":
        r = rng.random()
        if r < 0.4:
            p = "--tile-to-ptx"
        elif r < 0.85:
            p = "--tile-to-ptx=chip=%s" % rng.choice(CHIPS)
        elif r < 0.95:
            p = "--tile-to-ptx=chip=%s" % rng.choice([c for c in BOGUS_CHIPS if c and " " not in c and ";" not in c])
        else:
            p = "--tile-to-ptx=" + rng.choice(["format=sass", "format=", "O=9", "O=99999999999",
                                               "features=+ptx99", "features=", "chip=sm_90 format=bin"])
        if "format=bin" in p and not has_ptxas:
            p = "--tile-to-ptx"
        return "tile-opt --tile-to-ptx", ["{bin}/tile-opt", "{input}", p, "-o", "{tmp}/out.mlir"]
    if kind == "compile":
        argv = ["{bin}/tile-compile", "{input}", "-o", "{tmp}/out.ptx",
                "--metadata", "{tmp}/out.meta"]
        r = rng.random()
        if r < 0.8:
            argv += ["--chip", rng.choice(CHIPS[:3] + CHIPS)]
        elif r < 0.95:
            argv += ["--chip", rng.choice(BOGUS_CHIPS)]
        if rng.random() < 0.05 and has_ptxas:
            argv += ["--format=bin"]
        elif rng.random() < 0.03:
            argv += ["--format=" + rng.choice(["", "sass", "ISA"])]
        if rng.random() < 0.05:
            argv += ["-O", rng.choice(["0", "1", "9", "4294967296"])]
        if rng.random() < 0.04:
            argv += ["--features", rng.choice(["", "+ptx99", "+ptx60", "-ptx80", "garbage"])]
        return "tile-compile", argv
    return "tile-run", ["{bin}/tile-run", "{input}"] + run_args_for(rng, text)


# ----------------------------------------------------------------------------
# Running and classifying
# ----------------------------------------------------------------------------

CRASH_MARKERS = ["LLVM ERROR", "Stack dump", "PLEASE submit a bug report",
                 "Assertion", "Segmentation fault", "terminate called", "UNREACHABLE"]
# The markers as the runtime prints them (at the start of a line, or an
# assertion's "Assertion `...' failed"), so that a diagnostic quoting a
# source line that mentions them (a CHECK comment, say) is not a crash.
CRASH_RE = re.compile(r"^(LLVM ERROR:|Stack dump:|PLEASE submit a bug report|Segmentation fault|"
                      r"terminate called|UNREACHABLE executed)|Assertion `.*' failed|"
                      r"^\S*: \S+:\d+: .*Assertion .* failed", re.M)
SIG_LINE_RE = re.compile(r"LLVM ERROR|Assertion|UNREACHABLE|terminate called|what\(\):|error:")
EMPTY_ERROR_RE = re.compile(r"error:\s*$", re.M)
MAX_CAPTURE = 1 << 20


def _limits(mem_mb):
    def fn():
        os.setsid()
        if mem_mb:
            b = mem_mb * 1024 * 1024
            try:
                resource.setrlimit(resource.RLIMIT_AS, (b, b))
            except (ValueError, OSError):
                pass
        try:
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        except (ValueError, OSError):
            pass
    return fn


def _read_capped(path):
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            if size <= MAX_CAPTURE:
                data = f.read()
            else:
                head = f.read(MAX_CAPTURE // 2)
                f.seek(size - MAX_CAPTURE // 2)
                data = head + b"\n[... %d bytes cut ...]\n" % (size - MAX_CAPTURE) + f.read()
        return data.decode("utf-8", errors="replace")
    except OSError:
        return ""


def wait_for_tool(path, timeout=600):
    t0 = time.time()
    while not os.path.isfile(path):
        if time.time() - t0 > timeout:
            return False
        time.sleep(2)
    return True


def execute(argv, timeout, mem_mb, tmpdir):
    """Runs argv; returns (returncode or None on timeout, stdout, stderr, seconds)."""
    # A command line cannot carry NUL bytes (a mutated option value may hold
    # one): they are dropped, as a shell would.
    argv = [a.replace("\0", "") for a in argv]
    wait_for_tool(argv[0])
    out_path = os.path.join(tmpdir, ".stdout")
    err_path = os.path.join(tmpdir, ".stderr")
    t0 = time.time()
    env = dict(os.environ)
    # Symbolizing a deep stack can take longer than the timeout; the crash
    # handler's own dladdr names are enough for signatures.
    env["LLVM_DISABLE_SYMBOLIZATION"] = "1"
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        for attempt in range(3):
            try:
                p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out,
                                     stderr=err, preexec_fn=_limits(mem_mb), cwd=tmpdir, env=env)
                break
            except (FileNotFoundError, PermissionError, OSError):
                # The build may be replacing the binary right now.
                time.sleep(3)
                wait_for_tool(argv[0])
        else:
            return 127, "", "fuzz.py: cannot execute %s" % argv[0], 0.0
        try:
            rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except OSError:
                pass
            p.wait()
            rc = None
    return rc, _read_capped(out_path), _read_capped(err_path), time.time() - t0


def normalize(line):
    line = line.strip()
    line = re.sub(r"^\S*:\d+:\d+:\s*", "", line)          # file:line:col:
    line = re.sub(r"loc\([^)]*\)", "loc(...)", line)
    line = re.sub(r"(/[\w.+-]+)+", "PATH", line)
    line = re.sub(r"'[^']*'", "'S'", line) if "error:" in line and "LLVM ERROR" not in line and "Assertion" not in line else line
    line = re.sub(r'"[^"]*"', '"S"', line) if "expected" in line and "was not produced" in line else line
    line = re.sub(r"0x[0-9a-fA-F]+", "N", line)
    line = re.sub(r"-?\d+", "N", line)
    return line[:200]


HANDLER_FRAMES = ("PrintStackTrace", "SignalHandler", "RunSignalHandlers", "__restore_rt",
                  "CleanupOnSignal", "libc.so", "raise", "abort", "__pthread_kill",
                  "gsignal", "llvm::sys::", "__GI_", "libstdc++", "__cxa", "std::terminate",
                  "__gnu_cxx", "llvm::report_fatal_error", "llvm::llvm_unreachable_internal",
                  "__assert_fail", "__libc_start")


def crash_context(stderr):
    """(named frames below the signal handler, deepest pretty-stack entry)."""
    frames = []
    total = 0
    for line in stderr.splitlines():
        # "#3 0x... sym (/lib.so+0x..)" (symbolized or not) or, without the
        # symbolizer, "3 libX.so 0x... sym + 12".
        m = re.match(r"\s*#?\d+\s+(?:[\w.+-]+\s+)?0x[0-9a-f]+\s*(.*)$", line)
        if not m:
            continue
        total += 1
        fr = re.sub(r"\s*\+\s*\d+\s*$", "", m.group(1).strip())
        if fr.startswith("(") or any(h in fr for h in HANDLER_FRAMES):
            continue
        fr = re.sub(r"\s*\(/[^)]*\)\s*$", "", fr)           # (/lib/x.so+0x..)
        fr = re.sub(r"\s*/\S+:\d+(:\d+)?\s*$", "", fr)       # file:line
        fr = re.sub(r"\(anonymous namespace\)::", "", fr)
        fr = re.sub(r"<[^<>]*(<[^<>]*>[^<>]*)*>", "<>", fr)
        fr = re.sub(r"\(.*$", "", fr)                          # the parameter list
        if fr:
            frames.append(fr[:120])
    pretty = ""
    in_dump = False
    for line in stderr.splitlines():
        if line.startswith("Stack dump:"):
            in_dump = True
            continue
        if in_dump:
            m = re.match(r"^\d+\.\s+(.*)$", line)
            if m and re.match(r"[\w.+-]+\s+0x", m.group(1)):
                break
            if m and not m.group(1).startswith("Program arguments"):
                pretty = m.group(1).strip()
            elif not m and pretty:
                break
    pretty = re.sub(r"[^\x20-\x7e]", "", pretty)
    pretty = re.sub(r"(/[\w.+-]+)+", "PATH", pretty)
    pretty = re.sub(r"\bloc\(.*", "", pretty)
    pretty = re.sub(r"'[^']*\.mlir'", "'FILE'", pretty)[:120]
    return frames, pretty, total


def crash_signature(rc, stderr, stdout, extra_label=""):
    combined = stderr + "\n" + stdout[-65536:]
    parts = []
    if rc is not None and rc < 0:
        parts.append("signal %d" % -rc)
    for line in combined.splitlines():
        if re.search(r"^(LLVM ERROR:|terminate called|\s*what\(\):)|UNREACHABLE executed|Assertion `.*' failed", line):
            parts.append(normalize(line))
            break
    frames, pretty, total = crash_context(stderr)
    if len(parts) < 2 or rc is None or rc >= 0 or "terminate called" in parts[-1]:
        if total >= 200 and frames:
            common = max(set(frames), key=frames.count)
            if frames.count(common) >= 10:
                parts.append("stack overflow: recursion in " + common)
                frames = []
                pretty = ""  # how much of the pretty stack gets printed varies
        if frames:
            parts.append("in " + frames[0])
        if pretty:
            parts.append("during " + re.sub(r"\d+", "N", pretty))
    if len(parts) == 1 and extra_label and rc is not None and rc < 0:
        parts.append(extra_label)
    return " | ".join(parts) or "crash rc=%s" % rc


def classify(tool, rc, stdout, stderr, extra_label=""):
    """Returns (class, signature)."""
    combined = stderr + "\n" + stdout[-65536:]
    if rc is None:
        return "hang", "timeout " + extra_label
    crashed = rc < 0 or CRASH_RE.search(stderr) is not None or \
        re.search(r"^(Stack dump:|PLEASE submit a bug report)", stdout[-65536:], re.M) is not None
    if crashed:
        return "crash", crash_signature(rc, stderr, stdout, re.sub(r"^\S+( --?\S+)? ", "", extra_label))
    if rc == 0 and "error:" in stderr:
        line = next(l for l in stderr.splitlines() if "error:" in l)
        return "bad-exit", "exit 0 with " + normalize(line)
    if rc != 0 and not stderr.strip():
        if tool == "tile-run" and rc == 1 and re.search(r": FAIL\b", stdout):
            return "ok", ""
        return "bad-exit", "exit %d with an empty stderr" % rc
    if EMPTY_ERROR_RE.search(stderr):
        return "bad-exit", "empty error message (exit %d)" % rc
    if rc == 0 or (tool.startswith("tile-opt") and rc == 1) or \
            (tool in ("tile-compile", "tile-run") and rc in (1, 2)):
        return "ok", ""
    line = next((l for l in stderr.splitlines() if "error" in l), stderr.strip().splitlines()[0])
    return "bad-exit", "exit %d: %s" % (rc, normalize(line))


def fill(argv, bindir, input_path, tmp):
    return [a.replace("{bin}", bindir).replace("{input}", input_path).replace("{tmp}", tmp)
            for a in argv]


def hang_label(tool, argv, applied):
    """Hangs carry no message: the signature is the invocation kind and generators."""
    gens = sorted(set(re.sub(r"-\d+$", "", a) for a in applied
                      if a.startswith(("nest", "repeat", "many", "call-chain", "loop-iv"))))
    return "%s [%s]" % (tool, ",".join(gens) or "mutation")  # tool prefix stripped for crashes


# ----------------------------------------------------------------------------
# Findings
# ----------------------------------------------------------------------------

def slug(s):
    return re.sub(r"[^A-Za-z0-9]+", "-", s).strip("-")[:40]


def finding_key(cls, tool, sig):
    return hashlib.sha1(("%s\0%s\0%s" % (cls, tool, sig)).encode()).hexdigest()[:10]


def _head_tail(s, n):
    if len(s) <= 2 * n:
        return s
    return s[:n] + "\n[... %d characters cut ...]\n" % (len(s) - 2 * n) + s[-n:]


def save_finding(out_dir, cls, tool, sig, text, argv_tmpl, bindir, rc, stdout, stderr, meta):
    key = finding_key(cls, tool, sig)
    d = os.path.join(out_dir, "%s-%s-%s" % (cls, slug(tool), key))
    if os.path.isdir(d):
        # Keep the smallest reproducer, and a few others under more/ (one
        # signature may cover different causes, hangs in particular).
        try:
            if os.path.getsize(os.path.join(d, "input.mlir")) <= len(text.encode("utf-8", "replace")):
                more = os.path.join(d, "more")
                os.makedirs(more, exist_ok=True)
                n = len(os.listdir(more)) // 2
                if n < 5:
                    mi = os.path.join(more, "%d.mlir" % n)
                    with open(mi, "w", encoding="utf-8", errors="replace") as f:
                        f.write(text)
                    with open(os.path.join(more, "%d.cmd.txt" % n), "w") as f:
                        f.write(shlex.join(fill(argv_tmpl, bindir, mi, os.path.join(d, "tmp"))) + "\n")
                return d, False
        except OSError:
            pass
    os.makedirs(os.path.join(d, "tmp"), exist_ok=True)
    inp = os.path.join(d, "input.mlir")
    with open(inp, "w", encoding="utf-8", errors="replace") as f:
        f.write(text)
    argv = fill(argv_tmpl, bindir, inp, os.path.join(d, "tmp"))
    with open(os.path.join(d, "cmd.txt"), "w") as f:
        f.write(shlex.join(argv) + "\n")
    with open(os.path.join(d, "output.txt"), "w", encoding="utf-8", errors="replace") as f:
        f.write("class: %s\ntool: %s\nsignature: %s\nexit: %s\n" %
                (cls, tool, sig, "timeout" if rc is None else rc))
        f.write("---- stderr ----\n%s\n---- stdout (tail) ----\n%s\n" % (_head_tail(stderr, 100000), stdout[-20000:]))
    with open(os.path.join(d, "finding.json"), "w") as f:
        json.dump(dict(meta, cls=cls, tool=tool, signature=sig,
                       argv=argv_tmpl), f, indent=1)
    return d, True


# ----------------------------------------------------------------------------
# Main loop
# ----------------------------------------------------------------------------

def _mtime(path):
    try:
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(os.path.getmtime(path)))
    except OSError:
        return None


def generic_entries(corpus, args):
    """The valid kernels of the corpus in MLIR's generic form.

    Mutating the generic form reaches the verifiers with attribute values the
    custom parsers never produce (axes, segment sizes, orders, ...)."""
    cands = [(i, e) for i, e in enumerate(corpus) if find_kernels(e[1]) and _looks_valid(e[1])]
    if not cands:
        return []
    tmp = tempfile.mkdtemp(prefix="tile-fuzz-generic-")
    opt = os.path.join(args.tools_dir, "tile-opt")

    def conv(item):
        i, (src, text) = item
        d = os.path.join(tmp, str(i))
        os.makedirs(d)
        p = os.path.join(d, "in.mlir")
        with open(p, "w", encoding="utf-8", errors="replace") as f:
            f.write(text)
        rc, out, err, _ = execute([opt, p, "-mlir-print-op-generic"], args.timeout,
                                  args.memory_limit_mb, d)
        return (src + " (generic)", out) if rc == 0 and out.strip() else None

    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
            res = list(ex.map(conv, cands))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return [r for r in res if r]


def collect_op_names(corpus):
    names = set()
    for _, text in corpus:
        for m in OP_NAME_RE.finditer(text):
            n = m.group(1)
            if n.count(".") == 1 and not n.endswith("."):
                names.add(n)
    return sorted(names)


def run_one(idx, args, corpus, kernel_entries, op_names, tools, has_ptxas):
    rng, kind, src, text, applied = generate_input(corpus, op_names, args.seed, idx, tools,
                                                   kernel_entries)
    tool, argv_tmpl = make_invocation(rng, kind, text, has_ptxas)
    tmp = tempfile.mkdtemp(prefix="tile-fuzz-")
    try:
        inp = os.path.join(tmp, "input.mlir")
        with open(inp, "w", encoding="utf-8", errors="replace") as f:
            f.write(text)
        argv = fill(argv_tmpl, args.tools_dir, inp, tmp)
        rc, out, err, secs = execute(argv, args.timeout, args.memory_limit_mb, tmp)
        cls, sig = classify(tool, rc, out, err, hang_label(tool, argv_tmpl, applied))
        if cls == "crash" and tool.startswith("tile-opt ") and re.search(r"Parser|::parse", sig):
            tool = "tile-opt"  # a crash of the parser does not depend on the pass
        return dict(idx=idx, src=src, applied=applied, tool=tool, argv=argv_tmpl,
                    text=text, rc=rc, out=out, err=err, cls=cls, sig=sig, secs=secs)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def fuzz(args):
    tools = [t for t in args.tools.split(",") if t]
    bad = [t for t in tools if t not in ALL_TOOLS]
    if bad or not tools:
        print("fuzz.py: error: --tools takes a list of %s" % ",".join(ALL_TOOLS), file=sys.stderr)
        return 2
    args.tools_dir = os.path.abspath(args.tools_dir)
    need = {"opt": "tile-opt", "ptx": "tile-opt", "compile": "tile-compile", "run": "tile-run"}
    for t in tools:
        p = os.path.join(args.tools_dir, need[t])
        if not wait_for_tool(p, timeout=args.wait_for_tools):
            print("fuzz.py: error: %s does not exist" % p, file=sys.stderr)
            return 2
    corpus = load_corpus(args.corpus or default_corpus(), args.keep_expected)
    if not corpus:
        print("fuzz.py: error: empty corpus", file=sys.stderr)
        return 2
    op_names = collect_op_names(corpus)
    if not args.no_generic and ("opt" in tools or "ptx" in tools or "compile" in tools):
        if os.path.isfile(os.path.join(args.tools_dir, "tile-opt")):
            corpus = corpus + generic_entries(corpus, args)
    kernel_entries = [e for e in corpus if find_kernels(e[1]) or
                      (e[0].endswith("(generic)") and generic_kernels(e[1]))]
    has_ptxas = os.path.isfile("/usr/local/cuda/bin/ptxas")
    os.makedirs(args.out, exist_ok=True)
    count = args.count if args.count is not None else (None if args.budget_seconds else 100)
    deadline = time.time() + args.budget_seconds if args.budget_seconds else None

    stats = {"inputs": 0, "per_tool": {}, "per_class": {c: 0 for c in CLASSES}, "exit0": {}}
    findings = {}
    lock = threading.Lock()
    start = time.time()
    log = open(os.path.join(args.out, "log.txt"), "a")

    trace = open(args.trace, "w") if args.trace else None

    def handle(r):
        with lock:
            if trace:
                first = next((l for l in r["err"].splitlines() if l.strip()), "")
                trace.write("%d\t%s\t%s\t%s\t%.2f\t%s\t%s\n" % (
                    r["idx"], r["tool"], "timeout" if r["rc"] is None else r["rc"], r["cls"],
                    r["secs"], ",".join(r["applied"]) or "-", first[:300]))
            stats["inputs"] += 1
            pt = stats["per_tool"].setdefault(r["tool"], {c: 0 for c in CLASSES})
            pt[r["cls"]] += 1
            if r["rc"] == 0:
                stats["exit0"][r["tool"]] = stats["exit0"].get(r["tool"], 0) + 1
            stats["per_class"][r["cls"]] += 1
            if r["cls"] == "ok":
                return
            key = (r["cls"], r["tool"], r["sig"])
            meta = {"seed": args.seed, "index": r["idx"], "source": r["src"],
                    "mutations": r["applied"], "found_at": time.strftime("%Y-%m-%dT%H:%M:%S"),
                    "tool_mtime": _mtime(fill(r["argv"][:1], args.tools_dir, "", "")[0])}
            d, new = save_finding(args.out, r["cls"], r["tool"], r["sig"], r["text"],
                                  r["argv"], args.tools_dir, r["rc"], r["out"], r["err"], meta)
            f = findings.setdefault(key, {"class": r["cls"], "tool": r["tool"],
                                          "signature": r["sig"], "dir": d, "hits": 0,
                                          "first_index": r["idx"]})
            f["hits"] += 1
            if f["hits"] == 1:
                msg = "[%6.0fs] #%d %s %s: %s -> %s" % (time.time() - start, r["idx"], r["cls"],
                                                         r["tool"], r["sig"], d)
                print(msg, flush=True)
                log.write(msg + "\n")
                log.flush()

    # Ctrl-C (or SIGTERM) stops starting inputs; the summary is still printed.
    stop = threading.Event()

    def on_signal(signum, frame):
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()
        print("fuzz.py: stopping after the running invocations", file=sys.stderr, flush=True)

    old_int = signal.signal(signal.SIGINT, on_signal)
    old_term = signal.signal(signal.SIGTERM, on_signal)
    idx = args.start_index
    pending = set()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        try:
            while True:
                while len(pending) < args.jobs * 2:
                    if count is not None and idx >= args.start_index + count:
                        break
                    if deadline and time.time() >= deadline or stop.is_set():
                        break
                    pending.add(ex.submit(run_one, idx, args, corpus, kernel_entries, op_names, tools, has_ptxas))
                    idx += 1
                if not pending:
                    break
                done, pending = concurrent.futures.wait(
                    pending, timeout=1, return_when=concurrent.futures.FIRST_COMPLETED)
                for fut in done:
                    handle(fut.result())
                if args.verbose and stats["inputs"] % 100 == 0:
                    print("... %d inputs, %s" % (stats["inputs"], stats["per_class"]), flush=True)
        except KeyboardInterrupt:
            for fut in pending:
                fut.cancel()
    signal.signal(signal.SIGINT, old_int)
    signal.signal(signal.SIGTERM, old_term)
    elapsed = time.time() - start
    summary = {"seed": args.seed, "seconds": round(elapsed, 1), "inputs": stats["inputs"],
               "first_index": args.start_index, "invocations_per_tool":
               {t: sum(v.values()) for t, v in sorted(stats["per_tool"].items())},
               "classes_per_tool": stats["per_tool"], "classes": stats["per_class"],
               "exit0_per_tool": stats["exit0"],
               "findings": sorted(findings.values(), key=lambda f: (f["class"], f["tool"], f["signature"]))}
    print("\n== tile fuzz summary (seed %d, %.0f s) ==" % (args.seed, elapsed))
    print("inputs: %d" % stats["inputs"])
    for t, n in summary["invocations_per_tool"].items():
        c = stats["per_tool"][t]
        print("  %-40s %6d  (%s; exit 0: %d)" % (t, n, ", ".join("%s %d" % (k, c[k]) for k in CLASSES),
                                                   stats["exit0"].get(t, 0)))
    print("classes: " + ", ".join("%s %d" % (k, stats["per_class"][k]) for k in CLASSES))
    print("distinct findings: %d" % len(findings))
    for f in summary["findings"]:
        print("  %-8s %-28s x%-4d %s\n           %s" % (f["class"], f["tool"], f["hits"],
                                                      f["signature"], f["dir"]))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(summary, fh, indent=1)
    log.close()
    return 1 if findings else 0


# ----------------------------------------------------------------------------
# Replay and minimize
# ----------------------------------------------------------------------------

def load_cmd(d, tools_dir=None, name="cmd.txt"):
    with open(os.path.join(d, name)) as f:
        argv = shlex.split(f.read().strip())
    if tools_dir:
        argv[0] = os.path.join(os.path.abspath(tools_dir), os.path.basename(argv[0]))
    return argv


def tool_label(argv):
    base = os.path.basename(argv[0])
    if base == "tile-opt":
        for a in argv[2:]:
            if a.startswith("--") and a != "-o":
                return "tile-opt " + a.split("=")[0]
        return "tile-opt"
    return base


def replay(args):
    d = args.replay
    argv = load_cmd(d, args.tools_dir if args.tools_dir_given else None)
    os.makedirs(os.path.join(d, "tmp"), exist_ok=True)
    rc, out, err, secs = execute(argv, args.timeout, args.memory_limit_mb, os.path.join(d, "tmp"))
    tool = tool_label(argv)
    cls, sig = classify(tool, rc, out, err, "")
    print("$ " + shlex.join(argv))
    sys.stdout.write(err[-4000:])
    print("[exit %s, %.2f s] class: %s %s" % ("timeout" if rc is None else rc, secs, cls, sig))
    return 0 if cls == "ok" else 1


def minimize(args):
    d = args.minimize
    argv = load_cmd(d, args.tools_dir if args.tools_dir_given else None)
    with open(os.path.join(d, "finding.json")) as f:
        info = json.load(f)
    want = (info["cls"], info["signature"])
    inp = argv[1]
    with open(inp, encoding="utf-8", errors="replace") as f:
        text = f.read()
    tool = tool_label(argv)
    work = tempfile.mkdtemp(prefix="tile-fuzz-min-")
    cand = os.path.join(work, "input.mlir")
    margv = [cand if a == inp else a.replace(os.path.join(d, "tmp"), work) for a in argv]
    tests = [0]
    timeout = args.timeout
    t_end = time.time() + args.minimize_seconds

    def same(t):
        tests[0] += 1
        with open(cand, "w", encoding="utf-8", errors="replace") as f:
            f.write(t)
        rc, out, err, _ = execute(margv, timeout, args.memory_limit_mb, work)
        cls, sig = classify(tool, rc, out, err, "")
        if want[0] == "hang":
            return cls == "hang"
        return (cls, sig) == want

    if not same(text):
        print("fuzz.py: the finding does not reproduce (%s)" % (want,))
        shutil.rmtree(work, ignore_errors=True)
        return 1
    lines = text.split("\n")
    # Drop comment-only and blank lines first.
    stripped = [l for l in lines if l.strip() and not l.strip().startswith("//")]
    if stripped != lines and same("\n".join(stripped)):
        lines = stripped
    n = max(1, len(lines) // 2)
    while n >= 1 and time.time() < t_end:
        i = 0
        changed = False
        while i < len(lines) and time.time() < t_end:
            trial = lines[:i] + lines[i + n:]
            if trial and same("\n".join(trial)):
                lines = trial
                changed = True
            else:
                i += n
        if not changed:
            n //= 2
    # Shorten the remaining lines' indentation.
    trial = [l.strip() for l in lines]
    if same("\n".join(trial)):
        lines = ["  " + l if not (l.startswith("func.func") or l.startswith("module") or l == "}") else l
                 for l in trial]
        if not same("\n".join(lines)):
            lines = trial
    result = "\n".join(lines) + "\n"
    same(result)
    # Drop the options that do not matter (a flag and its value, or a flag).
    i = 2
    while i < len(margv) and time.time() < t_end:
        kept = list(margv)
        removed = False
        if margv[i].startswith("-"):
            for n in (2, 1):
                if i + n > len(kept):
                    continue
                margv[:] = kept[:i] + kept[i + n:]
                if same(result):
                    removed = True
                    break
                margv[:] = kept
        if not removed:
            i += 1
    mdir = d.rstrip("/") + "/min"
    os.makedirs(os.path.join(mdir, "tmp"), exist_ok=True)
    mi = os.path.join(mdir, "input.mlir")
    with open(mi, "w", encoding="utf-8", errors="replace") as f:
        f.write(result)
    fargv = [mi if a == cand else a.replace(work, os.path.join(mdir, "tmp")) for a in margv]
    with open(os.path.join(mdir, "cmd.txt"), "w") as f:
        f.write(shlex.join(fargv) + "\n")
    rc, out, err, _ = execute(fargv, timeout, args.memory_limit_mb, os.path.join(mdir, "tmp"))
    cls, sig = classify(tool, rc, out, err, "")
    with open(os.path.join(mdir, "output.txt"), "w", encoding="utf-8", errors="replace") as f:
        f.write("class: %s\nsignature: %s\nexit: %s\n---- stderr ----\n%s\n---- stdout (tail) ----\n%s\n"
                % (cls, sig, "timeout" if rc is None else rc, err[-100000:], out[-5000:]))
    with open(os.path.join(mdir, "finding.json"), "w") as f:
        json.dump(dict(info, signature=sig if want[0] != "hang" else info["signature"]), f, indent=1)
    shutil.rmtree(work, ignore_errors=True)
    print("minimized %s: %d -> %d lines in %d runs -> %s" %
          (d, len(text.split("\n")), len(lines), tests[0], mdir))
    print(result if len(result) < 4000 else result[:4000] + "...")
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tools-dir", default=os.path.join(REPO_ROOT, "build", "bin"),
                    help="directory holding tile-opt, tile-compile and tile-run (default: build/bin)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, help="number of inputs to run")
    ap.add_argument("--budget-seconds", type=float, help="stop starting inputs after this many seconds")
    ap.add_argument("--start-index", type=int, default=0, help="index of the first input (to resume a run)")
    ap.add_argument("--timeout", type=float, default=10, help="seconds per tool invocation (default 10)")
    ap.add_argument("--jobs", type=int, default=2, help="parallel invocations (default 2)")
    ap.add_argument("--corpus", nargs="+", help="files or directories of .mlir inputs (default: examples/ and test/)")
    ap.add_argument("--out", default="fuzz-findings", help="directory for findings (default ./fuzz-findings)")
    ap.add_argument("--memory-limit-mb", type=int, default=4096, help="RLIMIT_AS of each tool (default 4096; 0 = none)")
    ap.add_argument("--tools", default="opt,ptx,compile,run",
                    help="invocations to use: opt (tile-opt passes), ptx (tile-opt --tile-to-ptx), compile, run")
    ap.add_argument("--json", help="also write the summary as JSON to this file")
    ap.add_argument("--replay", metavar="DIR", help="rerun the finding in DIR (its cmd.txt) and classify it")
    ap.add_argument("--minimize", metavar="DIR", help="shrink the finding in DIR by deleting lines; writes DIR/min/")
    ap.add_argument("--minimize-seconds", type=float, default=300, help="time limit of --minimize (default 300)")
    ap.add_argument("--wait-for-tools", type=float, default=0, help="wait this long for missing tools (seconds)")
    ap.add_argument("--trace", help="write one line per invocation (index, tool, exit, class, seconds, mutations, first stderr line)")
    ap.add_argument("--no-generic", action="store_true",
                    help="do not add the generic form of the corpus' kernels (made with tile-opt) to the corpus")
    ap.add_argument("--keep-expected", action="store_true",
                    help="keep the corpus' expected-error/remark/note comments (stripped by default)")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)
    args.tools_dir_given = any(a == "--tools-dir" or a.startswith("--tools-dir=") for a in (argv or sys.argv[1:]))
    if args.jobs < 1 or args.timeout <= 0 or (args.count is not None and args.count < 0):
        ap.error("--jobs, --timeout and --count must be positive")
    if args.replay:
        return replay(args)
    if args.minimize:
        return minimize(args)
    return fuzz(args)


if __name__ == "__main__":
    sys.exit(main())
