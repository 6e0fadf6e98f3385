"""Tests of the tile package on a CUDA device: every operation against
torch in float64 (normwise relative error for softmax and softmax_matmul,
max absolute error for attention's output, relative error for its
log-sum-exp), in each dtype, on odd shapes and strided inputs; autograd;
torch.compile; streams. Skipped when torch sees no CUDA device.

The operations allocate their outputs, so instead of poisoning them the
tests require every output element to be finite (an unwritten element of
a fresh allocation is rarely a plausible value) and to match the
reference, and check that no input was modified.

    TILE_LIBRARY=build/lib/libtile.so \
        python3 -m pytest -q python/tests/test_gpu.py
"""

import math
import sys
import zlib
from pathlib import Path

import pytest

PYTHON_DIR = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PYTHON_DIR))

torch = pytest.importorskip("torch")

import tile  # noqa: E402
from tile import _torch_ops  # noqa: E402

if not torch.cuda.is_available():
    pytest.skip("no CUDA device (torch.cuda.is_available() is False)",
                allow_module_level=True)

DTYPES = {"f32": torch.float32, "f16": torch.float16,
          "bf16": torch.bfloat16}
# Normwise relative error max|got - ref| / max|ref| allowed. softmax rounds
# its float32 result once to the output type (half an ulp: 4.9e-4 for
# f16, 3.9e-3 for bf16).
SOFTMAX_TOL = {"f32": 1e-5, "f16": 1e-3, "bf16": 8e-3}
# softmax_matmul: f32 by precision; f16/bf16 round P to their type before
# the product and the result once more.
SM_TOL = {"ieee": 1e-5, "tf32x3": 1e-5, "tf32": 2e-3, "f16": 4e-3,
          "bf16": 1.6e-2}
# attention: max |o - ref| (f32 multiplies in TF32), and max |lse - ref| /
# max |ref| over the rows with a visible key.
ATTN_TOL = {"f16": 2e-3, "bf16": 1.6e-2, "f32": 5e-3}
LSE_TOL = {"f16": 1e-4, "bf16": 1e-4, "f32": 1e-3}


@pytest.fixture(autouse=True)
def seeded(request):
    """Fresh inputs per test, reproducible from the test's name."""
    torch.manual_seed(zlib.crc32(request.node.name.encode()))


def randn(*shape, dtype=torch.float32):
    return torch.randn(*shape, device="cuda", dtype=dtype)


def rel_error(got, ref):
    """max|got - ref| / max|ref| in float64; every element of got must be
    finite."""
    assert bool(torch.isfinite(got).all()), "non-finite output element"
    got = got.double()
    scale = ref.abs().max().item()
    diff = (got - ref).abs().max().item()
    return diff / scale if scale > 0 else diff


class Unchanged:
    """Checks that tensors hold the same values after a call."""

    def __init__(self, *tensors):
        self.tensors = [(t, t.clone()) for t in tensors]

    def check(self):
        for t, before in self.tensors:
            assert torch.equal(t, before), "an input was modified"


# --------------------------------------------------------------------------
# softmax
# --------------------------------------------------------------------------

SOFTMAX_SHAPES = [(1, 1), (1, 1000), (1000, 1), (4, 5), (1000, 3001),
                  (64, 4096), (3, 70001)]


@pytest.mark.parametrize("dname", DTYPES)
@pytest.mark.parametrize("shape", SOFTMAX_SHAPES,
                         ids=lambda s: "x".join(map(str, s)))
def test_softmax(dname, shape):
    x = randn(*shape, dtype=DTYPES[dname])
    inputs = Unchanged(x)
    y = tile.softmax(x)
    torch.cuda.synchronize()
    inputs.check()
    assert y.shape == x.shape and y.dtype == x.dtype and y.device == x.device
    assert y.is_contiguous()
    ref = torch.softmax(x.double(), dim=-1)
    assert rel_error(y, ref) <= SOFTMAX_TOL[dname]


@pytest.mark.parametrize("dname", DTYPES)
def test_softmax_strided_and_other_dims(dname):
    dtype = DTYPES[dname]
    tol = SOFTMAX_TOL[dname]
    base = randn(100, 3008, dtype=dtype)
    cases = {
        "padded row stride": (base[:, :3000], -1),
        "every third row": (base[::3, :1000], -1),
        "column stride 2": (base[:, ::2], -1),
        "transposed": (base[:40, :300].t(), -1),
        "broadcast rows": (base[:1, :500].expand(20, 500), -1),
        "dim 0": (base[:300, :17], 0),
        "3-d, dim 1": (randn(4, 50, 6, dtype=dtype), 1),
        "3-d, dim -3": (randn(7, 5, 3, dtype=dtype), -3),
        "1-d": (randn(777, dtype=dtype), 0),
    }
    for name, (x, dim) in cases.items():
        inputs = Unchanged(x)
        y = tile.softmax(x, dim=dim)
        torch.cuda.synchronize()
        inputs.check()
        assert y.shape == x.shape and y.dtype == dtype, name
        assert y.stride(dim) == 1, name
        err = rel_error(y, torch.softmax(x.double(), dim=dim))
        assert err <= tol, f"{name}: {err:.2e}"


def test_softmax_large_magnitudes_and_masked_entries():
    x = randn(256, 1000) * 50
    x[:, ::7] = -math.inf
    y = tile.softmax(x)
    assert rel_error(y, torch.softmax(x.double(), dim=-1)) <= 1e-5
    assert bool((y[:, ::7] == 0).all())


def test_softmax_empty():
    for shape in ((0, 5), (3, 0)):
        y = tile.softmax(randn(*shape))
        assert y.shape == shape


# --------------------------------------------------------------------------
# softmax_matmul
# --------------------------------------------------------------------------

SM_SHAPES = [(2, 100, 300, 64), (1, 1, 1, 1), (3, 65, 77, 48),
             (2, 130, 1000, 130), (1, 300, 4100, 64)]
SM_CASES = [("f32", "ieee"), ("f32", "tf32"), ("f32", "tf32x3"),
            ("f16", "tf32"), ("bf16", "tf32")]


def sm_reference(x, v):
    return torch.softmax(x.double(), dim=-1) @ v.double()


def sm_tolerance(dname, precision):
    return SM_TOL[precision] if dname == "f32" else SM_TOL[dname]


@pytest.mark.parametrize("dname,precision", SM_CASES,
                         ids=lambda c: str(c))
@pytest.mark.parametrize("shape", SM_SHAPES,
                         ids=lambda s: "x".join(map(str, s)))
def test_softmax_matmul(dname, precision, shape):
    batch, d1, d2, d3 = shape
    dtype = DTYPES[dname]
    x = randn(batch, d1, d2, dtype=dtype)
    v = randn(batch, d2, d3, dtype=dtype)
    inputs = Unchanged(x, v)
    out = tile.softmax_matmul(x, v, precision=precision)
    torch.cuda.synchronize()
    inputs.check()
    assert out.shape == (batch, d1, d3) and out.dtype == dtype
    assert out.is_contiguous()
    err = rel_error(out, sm_reference(x, v))
    assert err <= sm_tolerance(dname, precision), f"{err:.2e}"


@pytest.mark.parametrize("dname,precision", SM_CASES,
                         ids=lambda c: str(c))
def test_softmax_matmul_2d_and_strided(dname, precision):
    dtype = DTYPES[dname]
    tol = sm_tolerance(dname, precision)
    xb = randn(2, 100, 320, dtype=dtype)
    vb = randn(2, 96, 300, dtype=dtype)
    cases = {
        "2-d": (xb[0, :50, :200], vb[0, :, :200].t().contiguous()),
        "x padded rows, v transposed": (xb[:, :, :300], vb.transpose(1, 2)),
        "x column stride 2": (xb[:, :, ::2][:, :, :150],
                              randn(2, 150, 40, dtype=dtype)),
        "row and batch strides": (xb[:, ::2, :64],
                                  randn(4, 64, 33, dtype=dtype)[::2]),
    }
    for name, (x, v) in cases.items():
        inputs = Unchanged(x, v)
        out = tile.softmax_matmul(x, v, precision=precision)
        torch.cuda.synchronize()
        inputs.check()
        assert out.shape == (*x.shape[:-1], v.shape[-1]), name
        err = rel_error(out, sm_reference(x, v))
        assert err <= tol, f"{name}: {err:.2e}"


# --------------------------------------------------------------------------
# attention
# --------------------------------------------------------------------------

def attention_reference(q, k, v, causal, scale=None):
    """float64 (o, lse) with GQA; causal aligned bottom-right; rows without
    a visible key give o = 0 and lse = -inf."""
    seq_q, seq_k, head_dim = q.size(2), k.size(2), q.size(3)
    group = q.size(1) // k.size(1)
    kd = k.double().repeat_interleave(group, dim=1)
    vd = v.double().repeat_interleave(group, dim=1)
    scale = 1.0 / math.sqrt(head_dim) if scale is None else scale
    scores = q.double() @ kd.transpose(-1, -2) * scale
    if causal:
        rows = torch.arange(seq_q, device=q.device)[:, None]
        cols = torch.arange(seq_k, device=q.device)[None, :]
        scores.masked_fill_(cols > rows + (seq_k - seq_q), -math.inf)
    lse = torch.logsumexp(scores, dim=-1)
    probs = torch.exp(scores - lse[..., None])
    probs.masked_fill_(~torch.isfinite(lse)[..., None], 0.0)
    return probs @ vd, lse


def check_attention(q, k, v, causal, dname, scale=None):
    """Runs tile.attention with and without the log-sum-exp and checks
    both against the reference; returns (o, lse)."""
    inputs = Unchanged(q, k, v)
    o, lse = tile.attention(q, k, v, causal=causal, scale=scale,
                            return_lse=True)
    o_only = tile.attention(q, k, v, causal=causal, scale=scale)
    torch.cuda.synchronize()
    inputs.check()
    batch, heads, seq_q, head_dim = q.shape
    assert o.shape == q.shape and o.dtype == q.dtype and o.is_contiguous()
    assert lse.shape == (batch, heads, seq_q) and lse.dtype == torch.float32
    ref_o, ref_lse = attention_reference(q, k, v, causal, scale)
    for got in (o, o_only):
        assert bool(torch.isfinite(got).all()), "non-finite output element"
        err = (got.double() - ref_o).abs().max().item()
        assert err <= ATTN_TOL[dname], f"output error {err:.2e}"
    finite = torch.isfinite(ref_lse)
    assert bool((torch.isfinite(lse) == finite).all()), \
        "lse finite where the reference is not, or the reverse"
    assert bool((lse[~finite] == -math.inf).all())
    if bool(finite.any()):
        gap = (lse.double()[finite] - ref_lse[finite]).abs().max().item()
        assert gap <= LSE_TOL[dname] * ref_lse[finite].abs().max().item()
    return o, lse


# (dtype, batch, heads, kv_heads, seq_q, seq_k, head_dim)
ATTN_CASES = [
    (d, 2, 4, 4, 256, 256, hd) for d in ("f16", "bf16") for hd in (64, 128)
] + [
    ("f16", 1, 8, 2, 300, 300, 128),     # GQA
    ("bf16", 2, 6, 1, 200, 333, 64),     # MQA, seq_q != seq_k
    ("f16", 1, 4, 2, 1000, 3001, 128),   # ragged
    ("bf16", 1, 2, 2, 1000, 3001, 64),
    ("f16", 1, 4, 1, 1, 1000, 128),      # one query (decoding)
    ("bf16", 3, 2, 2, 77, 1, 64),        # one key
    ("f16", 1, 2, 2, 100, 150, 32),      # other head_dims
    ("f16", 1, 2, 2, 100, 150, 80),
    ("bf16", 1, 2, 2, 100, 150, 256),
    ("f32", 1, 2, 2, 128, 200, 64),
]


@pytest.mark.parametrize("causal", (False, True), ids=("full", "causal"))
@pytest.mark.parametrize("case", ATTN_CASES, ids=lambda c: "-".join(
    map(str, c)))
def test_attention(case, causal):
    dname, batch, heads, kv_heads, seq_q, seq_k, head_dim = case
    dtype = DTYPES[dname]
    q = randn(batch, heads, seq_q, head_dim, dtype=dtype)
    k = randn(batch, kv_heads, seq_k, head_dim, dtype=dtype)
    v = randn(batch, kv_heads, seq_k, head_dim, dtype=dtype)
    check_attention(q, k, v, causal, dname)


@pytest.mark.parametrize("dname", ("f16", "bf16"))
def test_attention_rows_without_a_visible_key(dname):
    # Causal with seq_q > seq_k: query i sees key j when j <= i - 200, so
    # the first 200 rows see none.
    dtype = DTYPES[dname]
    q = randn(2, 4, 300, 64, dtype=dtype)
    k = randn(2, 2, 100, 64, dtype=dtype)
    v = randn(2, 2, 100, 64, dtype=dtype)
    o, lse = check_attention(q, k, v, True, dname)
    assert bool((o[:, :, :200] == 0).all())
    assert bool((lse[:, :, :200] == -math.inf).all())
    assert bool(torch.isfinite(lse[:, :, 200:]).all())


@pytest.mark.parametrize("dname", ("f16", "bf16"))
def test_attention_layouts_and_scale(dname):
    dtype = DTYPES[dname]
    batch, heads, kv_heads, seq, head_dim = 2, 8, 2, 192, 128
    # BSHD tensors, passed as BHSD views (no copy: head_dim stride 1).
    q = randn(batch, seq, heads, head_dim, dtype=dtype).transpose(1, 2)
    k = randn(batch, seq + 5, kv_heads, head_dim, dtype=dtype).transpose(1, 2)
    v = randn(batch, seq + 5, kv_heads, head_dim, dtype=dtype).transpose(1, 2)
    check_attention(q, k, v, True, dname)
    check_attention(q, k, v, False, dname, scale=0.3)
    # A head_dim stride of 2 (copied first).
    wide = randn(batch, heads, seq, 2 * head_dim, dtype=dtype)
    check_attention(wide[..., ::2], k, v, False, dname)
    # A slice of the sequence.
    check_attention(q[:, :, 10:150], k[:, :, 3:100], v[:, :, 3:100], True,
                    dname)


def test_attention_empty_queries():
    q = randn(2, 4, 0, 64, dtype=torch.float16)
    k = randn(2, 4, 10, 64, dtype=torch.float16)
    o, lse = tile.attention(q, k, k, return_lse=True)
    assert o.shape == q.shape and lse.shape == (2, 4, 0)


# --------------------------------------------------------------------------
# Autograd
# --------------------------------------------------------------------------

@pytest.mark.parametrize("dname,tol", (("f32", 1e-5), ("f16", 5e-3),
                                       ("bf16", 3e-2)))
@pytest.mark.parametrize("shape,dim", (((64, 300), -1), ((64, 300), 0),
                                       ((4, 33, 5), 1)),
                         ids=("rows", "dim0", "3d"))
def test_softmax_backward(dname, tol, shape, dim):
    dtype = DTYPES[dname]
    a = randn(*shape, dtype=dtype).requires_grad_()
    dy = randn(*shape, dtype=dtype)
    y = tile.softmax(a * 2, dim=dim)
    assert y.requires_grad
    y.backward(dy)
    a64 = a.detach().double().requires_grad_()
    torch.softmax(a64 * 2, dim=dim).backward(dy.double())
    assert a.grad.dtype == dtype
    err = rel_error(a.grad, a64.grad)
    assert err <= tol, f"{err:.2e}"


def test_forward_only_operations_raise_on_backward():
    x = randn(2, 16, 40).requires_grad_()
    v = randn(2, 40, 8)
    out = tile.softmax_matmul(x, v)
    assert out.requires_grad
    with pytest.raises(RuntimeError,
                       match="tile.softmax_matmul is forward only"):
        out.sum().backward()
    q = randn(1, 2, 16, 64, dtype=torch.float16).requires_grad_()
    k = randn(1, 2, 16, 64, dtype=torch.float16)
    o = tile.attention(q, k, k, causal=True)
    assert o.requires_grad
    with pytest.raises(RuntimeError, match="tile.attention is forward only"):
        o.float().sum().backward()
    o, lse = tile.attention(q, k, k, return_lse=True)
    with pytest.raises(RuntimeError, match="tile.attention is forward only"):
        lse.sum().backward()
    with torch.no_grad():
        assert not tile.attention(q, k, k).requires_grad


# --------------------------------------------------------------------------
# torch.compile and the custom operators (torch >= 2.4)
# --------------------------------------------------------------------------

def needs_custom_ops():
    if not _torch_ops.CUSTOM_OP_API:
        pytest.skip(f"torch {torch.__version__} has no torch.library."
                    "custom_op (2.4 or later)")
    assert _torch_ops.CUSTOM_OPS, _torch_ops.CUSTOM_OPS_ERROR


def pipeline(x, v, q, k, vv):
    """All three operations, with torch operations around them."""
    y = tile.softmax(x * 2.0, dim=-1)
    z = tile.softmax_matmul(y + 1.0, v, precision="ieee")
    o, lse = tile.attention(q, k, vv, causal=True, return_lse=True)
    o2 = tile.attention(q, k, vv)
    return y.sum(-1), z * 0.5, o.float() + o2.float(), lse - 1.0


def pipeline_inputs():
    return (randn(4, 16, 300), randn(4, 300, 48),
            randn(2, 4, 128, 64, dtype=torch.float16),
            randn(2, 2, 160, 64, dtype=torch.float16),
            randn(2, 2, 160, 64, dtype=torch.float16))


def compare_compiled(backend, dynamic=False):
    torch._dynamo.reset()
    compiled = torch.compile(pipeline, backend=backend, fullgraph=True,
                             dynamic=dynamic)
    inputs = pipeline_inputs()
    expected = pipeline(*inputs)
    try:
        got = compiled(*inputs)
    except Exception as exc:
        # The backend failing to build its code (a compiler or Triton
        # missing or broken) skips; a graph break or a wrong fake
        # implementation fails the aot_eager tests as well.
        if backend == "inductor" and type(exc).__name__ in (
                "BackendCompilerFailed", "InductorError"):
            pytest.skip(f"the inductor backend cannot compile here: "
                        f"{str(exc).splitlines()[0]}")
        raise
    for g, e in zip(got, expected):
        torch.testing.assert_close(g, e, rtol=1e-5, atol=1e-5)
    return compiled


def test_compile_fullgraph_aot_eager():
    needs_custom_ops()
    compare_compiled("aot_eager")


def test_compile_fullgraph_dynamic_shapes():
    needs_custom_ops()
    compiled = compare_compiled("aot_eager", dynamic=True)
    x, v = randn(3, 20, 500), randn(3, 500, 16)
    q = randn(1, 4, 100, 64, dtype=torch.float16)
    k = randn(1, 2, 90, 64, dtype=torch.float16)
    for g, e in zip(compiled(x, v, q, k, k), pipeline(x, v, q, k, k)):
        torch.testing.assert_close(g, e, rtol=1e-5, atol=1e-5)


def test_compile_fullgraph_inductor():
    needs_custom_ops()
    compare_compiled("inductor")


def test_compile_softmax_backward():
    needs_custom_ops()
    torch._dynamo.reset()

    def loss(a):
        return (tile.softmax(a * 3.0, dim=0) ** 2).sum()

    a = randn(50, 70).requires_grad_()
    torch.compile(loss, backend="aot_eager", fullgraph=True)(a).backward()
    b = a.detach().clone().requires_grad_()
    loss(b).backward()
    torch.testing.assert_close(a.grad, b.grad, rtol=1e-5, atol=1e-7)


def test_compile_forward_only_operations_with_grad():
    # The forward compiles and runs on tensors that require grad; the
    # backward raises when it runs, as in eager mode.
    needs_custom_ops()
    torch._dynamo.reset()

    def forward(x, v, q, k):
        return (tile.softmax_matmul(x, v).sum()
                + tile.attention(q, k, k, causal=True).float().sum())

    x, v = randn(2, 16, 40).requires_grad_(), randn(2, 40, 8)
    q = randn(1, 2, 16, 64, dtype=torch.float16).requires_grad_()
    k = randn(1, 2, 16, 64, dtype=torch.float16)
    compiled = torch.compile(forward, backend="aot_eager", fullgraph=True)
    loss = compiled(x, v, q, k)
    torch.testing.assert_close(loss, forward(x, v, q, k))
    assert loss.requires_grad
    with pytest.raises(RuntimeError, match="is forward only"):
        loss.backward()


def test_opcheck():
    # torch.library.opcheck: the schema (no input mutated, no aliasing),
    # the fake implementations against the real outputs (shapes, strides,
    # dtypes), the autograd registration and AOT dispatch with dynamic
    # shapes.
    needs_custom_ops()
    opcheck = getattr(torch.library, "opcheck", None)
    if opcheck is None:
        pytest.skip(f"torch {torch.__version__} has no torch.library.opcheck")
    ops = torch.ops.tile
    opcheck(ops.softmax.default, (randn(8, 33).requires_grad_(), 1))
    opcheck(ops.softmax.default,
            (randn(6, 5, 40, dtype=torch.float16).transpose(0, 2), 0))
    opcheck(ops.softmax_matmul.default,
            (randn(2, 40, 70), randn(2, 70, 24), "ieee"))
    opcheck(ops.softmax_matmul.default,
            (randn(40, 70, dtype=torch.bfloat16),
             randn(70, 24, dtype=torch.bfloat16), "tf32"))
    q = randn(1, 4, 50, 64, dtype=torch.float16)
    k = randn(1, 2, 70, 64, dtype=torch.float16)
    opcheck(ops.attention.default, (q, k, k, True, None, True))
    opcheck(ops.attention.default, (q, k, k, False, 0.25, False))


def test_eager_calls_match_the_operators():
    # Eager calls without autograd skip the operator's dispatch: the
    # results are the operators' results, bit for bit.
    needs_custom_ops()
    ops = torch.ops.tile
    x = randn(7, 300, dtype=torch.float16)
    assert torch.equal(tile.softmax(x, dim=0), ops.softmax.default(x, 0))
    v = randn(300, 24, dtype=torch.float16)
    assert torch.equal(tile.softmax_matmul(x, v),
                       ops.softmax_matmul.default(x, v, "tf32"))
    q = randn(1, 4, 50, 64, dtype=torch.bfloat16)
    k = randn(1, 2, 70, 64, dtype=torch.bfloat16)
    o, lse = tile.attention(q, k, k, causal=True, return_lse=True)
    o2, lse2 = ops.attention.default(q, k, k, True, None, True)
    assert torch.equal(o, o2) and torch.equal(lse, lse2)


def test_fake_outputs_match_real_outputs():
    needs_custom_ops()
    x = randn(5, 6, 7)
    for dim in range(3):
        real = tile.softmax(x, dim=dim)
        fake = torch.ops.tile.softmax.default(x.to("meta"), dim)
        assert real.shape == fake.shape and real.stride() == fake.stride()
    q = randn(1, 2, 9, 64, dtype=torch.bfloat16)
    for flag in (False, True):
        real = torch.ops.tile.attention.default(q, q, q, False, None, flag)
        fake = torch.ops.tile.attention.default(q.to("meta"), q.to("meta"),
                                                q.to("meta"), False, None,
                                                flag)
        for r, f in zip(real, fake):
            assert (r.shape, r.stride(), r.dtype) == (f.shape, f.stride(),
                                                       f.dtype)


# --------------------------------------------------------------------------
# Streams and devices
# --------------------------------------------------------------------------

def test_operations_run_on_the_current_stream():
    src = randn(64, 1000)
    q = randn(1, 2, 64, 64, dtype=torch.float16)
    v = randn(1, 1000, 32)
    x = torch.zeros_like(src)
    qs = torch.zeros_like(q)
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        # Work on `stream` that the operations must wait for: if they ran
        # on another stream they would read the zeros.
        if hasattr(torch.cuda, "_sleep"):
            torch.cuda._sleep(20_000_000)
        x.copy_(src)
        qs.copy_(q)
        y = tile.softmax(x)
        z = tile.softmax_matmul(x.unsqueeze(0), v, precision="ieee")
        o = tile.attention(qs, qs, qs, causal=True)
    torch.cuda.synchronize()
    assert rel_error(y, torch.softmax(src.double(), -1)) <= 1e-5
    assert rel_error(z, sm_reference(src.unsqueeze(0), v)) <= 1e-5
    ref_o, _ = attention_reference(q, q, q, True)
    assert (o.double() - ref_o).abs().max().item() <= ATTN_TOL["f16"]


@pytest.mark.skipif(torch.cuda.device_count() < 2,
                    reason="needs two CUDA devices")
def test_second_device():
    for device in ("cuda:1", "cuda:0", "cuda:1"):
        x = torch.randn(30, 500, device=device)
        y = tile.softmax(x)
        assert y.device == x.device
        torch.cuda.synchronize(device)
        assert rel_error(y, torch.softmax(x.double(), -1)) <= 1e-5
