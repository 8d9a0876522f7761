"""builder.py without a GPU: every variant's text compiles through the C API to PTX as one fused
kernel per dispatch tier, with the signature the spec announces (docs/python.md)."""
import math

import pytest

import softmax_compiler as sc
from softmax_compiler.builder import SoftmaxSpec, build_softmax_program, float_literal

# (name, spec keywords): each neighbour alone, and mixes of them. Static shapes compile in a
# fraction of a second (one kernel); the dynamic ones below cover the dispatch tiers.
VARIANTS = [
    ("plain_f32", dict(shape=(8, 100), dtype="f32")),
    ("plain_bf16", dict(shape=(8, 100), dtype="bf16")),
    ("plain_f16_rank3", dict(shape=(2, 4, 100), dtype="f16")),
    ("log", dict(shape=(8, 100), dtype="f32", log=True)),
    ("scale", dict(shape=(8, 100), dtype="bf16", scale=0.088388)),
    ("temperature", dict(shape=(8, 100), dtype="f32", temperature=True)),
    ("bias_row", dict(shape=(8, 100), dtype="f32", bias=(100,))),
    ("bias_bf16_on_f32", dict(shape=(2, 8, 100), dtype="f32", bias=(2, 1, 100),
                              bias_dtype="bf16")),
    ("bias_per_row", dict(shape=(8, 100), dtype="f16", bias=(8, 1))),
    ("causal", dict(shape=(2, 100, 100), dtype="bf16", causal=True)),
    ("causal_offset", dict(shape=(2, 64, 100), dtype="f32", causal=True, causal_offset=36)),
    ("lengths_i32", dict(shape=(2, 8, 100), dtype="f32", lengths=(2, 1))),
    ("lengths_i64", dict(shape=(8, 100), dtype="f16", lengths=(8,), lengths_dtype="i64")),
    ("mask", dict(shape=(8, 100), dtype="f32", mask=(1, 100))),
    ("mask_fill", dict(shape=(8, 100), dtype="f32", mask=(8, 100), fill=-1.0e4)),
    ("masked_rows_nan", dict(shape=(8, 100), dtype="f32", lengths=(8,), masked_rows="nan")),
    ("cast_bf16_to_f32", dict(shape=(8, 100), dtype="bf16", out_dtype="f32")),
    ("cast_f32_to_bf16", dict(shape=(8, 100), dtype="f32", out_dtype="bf16")),
    ("attention", dict(shape=(2, 100, 100), dtype="bf16", scale=0.125, causal=True,
                       bias=(1, 100, 100), out_dtype="f32")),
    ("everything", dict(shape=(2, 8, 100), dtype="bf16", out_dtype="f16", scale=0.5,
                        bias=(1, 1, 100), temperature=True, causal=True, causal_offset=-2,
                        lengths=(2, 8), mask=(2, 1, 100), fill=-30000.0, log=True,
                        masked_rows="nan")),
]


def check_signature(exe, spec):
    specs = exe.signature("softmax")
    announced = spec.arguments()
    assert len(specs) == len(announced)
    for got, (name, kind) in zip(specs, announced):
        assert got.is_output == (name == "out"), name
        if kind.startswith("tensor"):
            assert got.is_tensor, name
            assert got.dtype == kind.split()[1], name
        else:
            assert not got.is_tensor and got.dtype == "f32", name
    shapes = {"x": spec.shape, "out": spec.shape, "bias": spec.bias, "lengths": spec.lengths,
              "mask": spec.mask}
    for got, (name, _) in zip(specs, announced):
        if got.is_tensor:
            assert got.shape == shapes[name], name


def plan_values(spec, shape):
    """The plan() arguments of a call on x of `shape` (side operands at their own shapes)."""
    def concrete(pattern):
        lead = len(shape) - len(pattern)
        return tuple(shape[lead + i] if d is None else d for i, d in enumerate(pattern))
    values = [tuple(shape)]
    if spec.bias is not None:
        values.append(concrete(spec.bias))
    if spec.lengths is not None:
        lead = len(shape) - 1 - len(spec.lengths)
        values.append(tuple(shape[lead + i] if d is None else d
                            for i, d in enumerate(spec.lengths)))
    if spec.mask is not None:
        values.append(concrete(spec.mask))
    if spec.temperature:
        values.append(0.5)
    values.append(tuple(shape))
    return values


@pytest.mark.parametrize("name,options", VARIANTS, ids=[v[0] for v in VARIANTS])
def test_variant_compiles_to_one_fused_kernel(name, options):
    spec = SoftmaxSpec(**options)
    exe = sc.compile(spec.program())
    assert ".visible .entry" in exe.ptx
    # Static shapes: one plan, whose kernels are its general one and, where the plan has it, its
    # fast one (docs/strategies.md), and a call is one launch (the whole chain fused; an unfused
    # neighbour would be a kernel of its own and an intermediate tensor).
    names = [name for name, _ in exe.kernels]
    assert names in ([names[0]], [names[0], names[0] + "_general"]), names
    launches = exe.plan("softmax", *plan_values(spec, spec.shape))
    assert len(launches) == 1, launches
    check_signature(exe, spec)


def test_text_applies_the_neighbours_in_the_documented_order():
    text = build_softmax_program(shape=(None, None, None), dtype="bf16", out_dtype="f32",
                                 scale=0.125, bias=(1, None, None), temperature=True,
                                 causal=True, causal_offset=3, lengths=(None, None),
                                 mask=(None, 1, None), fill=-1e4, log=True, masked_rows="nan")
    order = ["softmax.cast %x", "softmax.scale", "softmax.add_bias", "by %inv_temperature",
             "causal offset = 3", "padding %lengths", "tensor %mask",
             "softmax.log_softmax", "masked_rows = nan", "return %v8"]
    positions = [text.index(s) for s in order]
    assert positions == sorted(positions), text
    assert text.count("fill = -1.00000000000000000e+04") == 3
    assert text.startswith("func.func @softmax(%x: tensor<?x?x?xbf16>, %bias: tensor<1x?x?xbf16>"
                           ", %lengths: tensor<?x?xi32>, %mask: tensor<?x1x?xi1>, "
                           "%inv_temperature: f32) -> tensor<?x?x?xf32>")


def test_same_input_and_output_type_has_no_cast():
    text = build_softmax_program(shape=(None, None), dtype="bf16")
    assert "softmax.cast" not in text
    assert "softmax.softmax %x : tensor<?x?xbf16>" in text


DYNAMIC = [
    dict(shape=(None, None), dtype="f32"),
    dict(shape=(None, None, None), dtype="bf16", out_dtype="f32", scale=0.125, causal=True,
         bias=(1, 1, None), temperature=True, lengths=(None, None), mask=(None, 1, None),
         log=True),
]


@pytest.mark.parametrize("options", DYNAMIC, ids=["plain_f32", "chain_bf16"])
def test_dynamic_program_serves_every_plan(options):
    spec = SoftmaxSpec(**options)
    exe = sc.compile(spec.program())
    check_signature(exe, spec)
    # The widths of scripts/gpu/python_check.py; the tiers' boundaries are docs/strategies.md's.
    # 70000 and 200000 columns: a cluster of blocks a row for f32 (sm_90, up to 16 blocks of
    # 16384 columns); 16-bit inputs are not clustered.
    # The chain's bias and boolean mask along the row take registers too: its widest row in
    # registers is narrower (softmax-select-strategy), and 16384 columns go to shared memory.
    cluster = "row_cluster" if spec.dtype == "f32" else "chunked_online"
    widest = "row_registers" if spec.dtype == "f32" else "row_shared"
    expected = {32: "multi_row", 1000: "", 4096: "row_registers", 16384: widest,
                70000: cluster, 200000: cluster, 300000: "chunked_online"}
    for width, plan in expected.items():
        shape = (3, 5, width)[-spec.rank:]
        launches = exe.plan("softmax", *plan_values(spec, shape))
        assert len(launches) == 1, (width, launches)
        assert plan in launches[0]["kernel"], (width, launches)


def test_float_literal_is_exact_and_parses():
    for value in (0.1, 1e-5, 0.088388, 1 / 3, -1e4, 2.0 ** -126, 3.4e38):
        text = float_literal(value)
        assert "." in text and float(text) == value
    assert float_literal(float("-inf")) == "0xFFF0000000000000"
    assert float_literal(float("inf")) == "0x7FF0000000000000"
    assert float_literal(math.nan).startswith("0x7FF8")


@pytest.mark.parametrize("options,message", [
    (dict(shape=(8, 100), dtype="f64"), "dtype 'f64'"),
    (dict(shape=(8, 100), dtype="f32", out_dtype="i32"), "out_dtype 'i32'"),
    (dict(shape=(), dtype="f32"), "rank-0"),
    (dict(shape=(100,), dtype="f32", causal=True), "causal mask needs rank >= 2"),
    (dict(shape=(8, 100), dtype="f32", bias=(1, 8, 100)), "does not broadcast"),
    (dict(shape=(2, 8, 100), dtype="f32", bias=(8, 1, 100)), "does not broadcast"),
    (dict(shape=(2, 8, 100), dtype="f32", mask=(None, 7, 1)), "does not broadcast"),
    (dict(shape=(8, 100), dtype="f32", lengths=(8, 1)), "do not broadcast"),
    (dict(shape=(8, 100), dtype="f32", lengths=(8,), lengths_dtype="i16"), "i32 or i64"),
    (dict(shape=(8, 100), dtype="f32", masked_rows="keep"), "masked_rows"),
    (dict(shape=(8, 100), dtype="f32", scale=float("inf")), "finite"),
    (dict(shape=(8, -1), dtype="f32"), "negative"),
])
def test_spec_rejects(options, message):
    with pytest.raises(ValueError, match=message):
        SoftmaxSpec(**options)


def test_verifier_errors_reach_python():
    # Finite as a double, not as a float: the dialect's verifier rejects it (docs/dialect.md).
    with pytest.raises(sc.SoftmaxError, match="finite"):
        sc.compile(build_softmax_program(shape=(8, 100), dtype="f32", scale=1.0e39))
