"""Builds the MLIR text of a softmax and its fused neighbours for a shape class (no GPU, no torch).

A `SoftmaxSpec` names everything that changes the program: the input's rank, element type and
which sizes are static, the output type, and the neighbours (scale, bias, temperature, masks,
log-softmax, the masked-rows policy). Two calls with equal specs share one compiled program
(`softmax_compiler.softmax` caches on the spec); everything else (the sizes of dynamic
dimensions, the temperature's value, the data) is an argument of the call.

The program is the unfused chain of dialect ops (docs/dialect.md), in this order, which is the
order the torch reference applies them in too (scripts/gpu/python_check.py):

    y = x                         (widened to f32 first when the output type differs)
    y = y * scale                 softmax.scale by a constant (a compile-time attribute)
    y = y + bias                  softmax.add_bias, bias broadcast like NumPy
    y = y * inv_temperature       softmax.scale by a run-time f32 scalar (1 / temperature)
    y = causal / padding / boolean masks, removed elements set to `fill`
    softmax or log_softmax over the last axis, with the masked-rows policy
    cast to the output type       softmax.cast (when it differs)

`softmax-fuse` folds it into one kernel per dispatch tier (python/tests/test_builder.py checks
that every variant plans a single launch).

The function's arguments are always, in order: x, bias?, lengths?, mask?, inv_temperature?, and
the output last (`SoftmaxSpec.arguments()` lists them).
"""
import math
import struct
from collections import namedtuple

__all__ = ["SoftmaxSpec", "build_softmax_program", "FLOAT_TYPES", "float_literal"]

FLOAT_TYPES = ("f32", "f16", "bf16")
INDEX_TYPES = ("i32", "i64")
MASKED_ROWS = ("zero", "nan")
FUNCTION = "softmax"

_Spec = namedtuple("_Spec", "shape dtype out_dtype scale bias bias_dtype lengths lengths_dtype "
                            "mask causal causal_offset temperature fill log masked_rows")


def float_literal(value):
    """An MLIR float attribute for `value`, exact: 17 significant digits (with the '.' MLIR's
    grammar requires; repr's '1e-05' is not a float literal there), or the IEEE double's bits in
    hex for infinities and NaN."""
    value = float(value)
    if math.isfinite(value):
        return f"{value:.17e}"
    return "0x%016X" % struct.unpack("<Q", struct.pack("<d", value))[0]


def _check_pattern(what, pattern):
    if pattern is None:
        return None
    pattern = tuple(None if d is None else int(d) for d in pattern)
    if not pattern:
        raise ValueError(f"{what}: a rank-0 shape is not allowed (the dialect needs rank >= 1)")
    for d in pattern:
        if d is not None and d < 0:
            raise ValueError(f"{what}: negative size {d} in {pattern}")
    return pattern


class SoftmaxSpec(_Spec):
    """A shape class and its options: the key of one compiled program.

    shape:        the input's sizes, None where dynamic (its length is the rank, >= 1)
    dtype:        the input's element type, 'f32', 'f16' or 'bf16'
    out_dtype:    the output's element type (default: dtype)
    scale:        a constant factor (a Python float baked into the program), or None
    bias:         the bias's shape pattern (None where dynamic, broadcast like NumPy), or None
    bias_dtype:   its element type (default: dtype)
    lengths:      the padding lengths' shape pattern (broadcast to the row shape, the input's
                  shape without its last axis), or None
    lengths_dtype: 'i32' or 'i64'
    mask:         the boolean mask's shape pattern (i1, broadcast to the input), or None
    causal:       remove column j of query i when j > i + causal_offset (query = the axis before
                  the last)
    temperature:  True: the program takes the inverse temperature as an f32 scalar argument
    fill:         the value removed elements get (default -inf; a finite one never triggers the
                  masked-rows policy)
    log:          log_softmax instead of softmax
    masked_rows:  'zero' (fully masked rows give 0, or -inf for log) or 'nan' (as torch)
    """
    __slots__ = ()

    def __new__(cls, shape, dtype, out_dtype=None, scale=None, bias=None, bias_dtype=None,
                lengths=None, lengths_dtype="i32", mask=None, causal=False, causal_offset=0,
                temperature=False, fill=float("-inf"), log=False, masked_rows="zero"):
        shape = _check_pattern("shape", shape)
        if shape is None:
            raise ValueError("shape is required")
        if dtype not in FLOAT_TYPES:
            raise ValueError(f"dtype {dtype!r}: the kernels take {', '.join(FLOAT_TYPES)}")
        out_dtype = dtype if out_dtype is None else out_dtype
        if out_dtype not in FLOAT_TYPES:
            raise ValueError(f"out_dtype {out_dtype!r}: the kernels write {', '.join(FLOAT_TYPES)}")
        bias = _check_pattern("bias", bias)
        bias_dtype = (dtype if bias_dtype is None else bias_dtype) if bias is not None else None
        if bias is not None and bias_dtype not in FLOAT_TYPES:
            raise ValueError(f"bias_dtype {bias_dtype!r}: a bias is {', '.join(FLOAT_TYPES)}")
        lengths = _check_pattern("lengths", lengths)
        lengths_dtype = lengths_dtype if lengths is not None else None
        if lengths is not None and lengths_dtype not in INDEX_TYPES:
            raise ValueError(f"lengths_dtype {lengths_dtype!r}: lengths are i32 or i64")
        mask = _check_pattern("mask", mask)
        if masked_rows not in MASKED_ROWS:
            raise ValueError(f"masked_rows {masked_rows!r}: one of {', '.join(MASKED_ROWS)}")
        if causal and len(shape) < 2:
            raise ValueError("a causal mask needs rank >= 2 (the query axis before the last)")
        for what, pattern in (("bias", bias), ("mask", mask)):
            if pattern is None:
                continue
            if len(pattern) > len(shape):
                raise ValueError(f"{what} of rank {len(pattern)} does not broadcast to rank "
                                 f"{len(shape)}")
            # Sizes known on both sides must be equal or 1 (the verifier says so too; here the
            # message names the spec).
            for size, full in zip(pattern, shape[len(shape) - len(pattern):]):
                if size is not None and full is not None and size not in (1, full):
                    raise ValueError(f"{what} {pattern} does not broadcast to {shape}")
        if lengths is not None and len(lengths) > len(shape) - 1:
            raise ValueError(f"lengths of rank {len(lengths)} do not broadcast to the row shape "
                             f"(rank {len(shape) - 1})")
        if scale is not None:
            scale = float(scale)
            if not math.isfinite(scale):
                raise ValueError(f"scale {scale}: must be finite")
        return super().__new__(cls, shape, dtype, out_dtype, scale, bias, bias_dtype, lengths,
                               lengths_dtype, mask, bool(causal), int(causal_offset) if causal else 0,
                               bool(temperature), float(fill), bool(log), masked_rows)

    @property
    def rank(self):
        return len(self.shape)

    def arguments(self):
        """(name, kind) of each argument of the program's function, in order, the output last:
        kind is 'tensor <dtype>' or 'scalar f32'."""
        args = [("x", f"tensor {self.dtype}")]
        if self.bias is not None:
            args.append(("bias", f"tensor {self.bias_dtype}"))
        if self.lengths is not None:
            args.append(("lengths", f"tensor {self.lengths_dtype}"))
        if self.mask is not None:
            args.append(("mask", "tensor i1"))
        if self.temperature:
            args.append(("inv_temperature", "scalar f32"))
        args.append(("out", f"tensor {self.out_dtype}"))
        return args

    def program(self, name=FUNCTION):
        """The MLIR text of function @name (see the module's docstring for its meaning)."""
        return build_softmax_program(self, name=name)


def _tensor(pattern, element):
    dims = "x".join("?" if d is None else str(d) for d in pattern)
    return f"tensor<{dims}x{element}>" if dims else f"tensor<{element}>"


def build_softmax_program(spec=None, *, name=FUNCTION, **options):
    """MLIR text of one function computing a (log-)softmax with its neighbours over the last axis.

    Pass a SoftmaxSpec, or its fields as keywords: `build_softmax_program(shape=(None, None),
    dtype='bf16', scale=0.125, causal=True)`. Raises ValueError on an inconsistent spec; the
    compiler's verifier checks the rest (softmax_compiler.compile raises SoftmaxError)."""
    if spec is None:
        spec = SoftmaxSpec(**options)
    elif options:
        spec = spec._replace(**options)
    # Where the output type differs from the input's, widen first: the chain then runs in f32
    # explicitly and rounds once, at the final cast (docs/dialect.md, Precision). Where they are
    # the same, the chain stays in the input's type, which the lowering computes in f32 all the
    # same, as the benchmarked programs of docs/performance.md are written.
    work = spec.dtype if spec.out_dtype == spec.dtype else "f32"
    x_type = _tensor(spec.shape, spec.dtype)
    w_type = _tensor(spec.shape, work)
    out_type = _tensor(spec.shape, spec.out_dtype)

    params = [f"%x: {x_type}"]
    if spec.bias is not None:
        bias_type = _tensor(spec.bias, spec.bias_dtype)
        params.append(f"%bias: {bias_type}")
    if spec.lengths is not None:
        lengths_type = _tensor(spec.lengths, spec.lengths_dtype)
        params.append(f"%lengths: {lengths_type}")
    if spec.mask is not None:
        mask_type = _tensor(spec.mask, "i1")
        params.append(f"%mask: {mask_type}")
    if spec.temperature:
        params.append("%inv_temperature: f32")

    body = []
    counter = [0]

    def step(text):
        counter[0] += 1
        result = f"%v{counter[0]}"
        body.append(f"  {result} = {text}")
        return result

    v = "%x"
    if work != spec.dtype:
        v = step(f"softmax.cast {v} : {x_type} to {w_type}")
    if spec.scale is not None:
        v = step(f"softmax.scale {v} by {float_literal(spec.scale)} : {w_type}")
    if spec.bias is not None:
        v = step(f"softmax.add_bias {v}, %bias : {w_type}, {bias_type}")
    if spec.temperature:
        v = step(f"softmax.scale {v} by %inv_temperature : {w_type}, f32")
    fill = "" if spec.fill == float("-inf") else f" fill = {float_literal(spec.fill)}"
    if spec.causal:
        offset = f" offset = {spec.causal_offset}" if spec.causal_offset else ""
        v = step(f"softmax.mask {v}, causal{offset}{fill} : {w_type}")
    if spec.lengths is not None:
        v = step(f"softmax.mask {v}, padding %lengths{fill} : {w_type}, {lengths_type}")
    if spec.mask is not None:
        v = step(f"softmax.mask {v}, tensor %mask{fill} : {w_type}, {mask_type}")
    op = "softmax.log_softmax" if spec.log else "softmax.softmax"
    policy = " masked_rows = nan" if spec.masked_rows == "nan" else ""
    v = step(f"{op} {v}{policy} : {w_type}")
    if work != spec.out_dtype:
        v = step(f"softmax.cast {v} : {w_type} to {out_type}")
    return (f"func.func @{name}({', '.join(params)}) -> {out_type} {{\n" + "\n".join(body) +
            f"\n  return {v} : {out_type}\n}}\n")
