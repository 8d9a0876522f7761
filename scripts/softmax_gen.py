#!/usr/bin/env python3
"""A generator of random valid softmax-dialect programs, and a float64 evaluator of them.

Each seed gives one program (the same on every machine: only `random.Random(seed)` decides):
a `func.func` over a tensor of random rank (1-4), static and dynamic sizes, and an element type
among f32, f16 and bf16, computing

    cast? -> prologue steps (scale by a constant or a scalar argument, add_bias, padding /
    causal / boolean masks, casts) -> softmax | log_softmax (masked_rows zero | nan) -> cast?

either as the separate ops (which softmax-fuse fuses) or, for some seeds, as one hand-written
`softmax.fused` op with a hand-written `strategies` list within the plans' limits. Every program
is meant to be valid: the compiler must compile it to PTX without a diagnostic
(scripts/check-generated.py, docs/fuzzing.md). Standard library only.

`evaluate()` computes a program's result in float64 from given inputs, following the dialect's
documented semantics (docs/dialect.md) and nothing of the compiler, so that it can check the
runner's reference evaluator independently.

    scripts/softmax_gen.py SEED [--small] [--axis]     print the program of SEED (--axis: of
                                                        the strided_axis family)
"""
import itertools
import math
import random
import struct
import sys

FLOATS = ["f32", "f16", "bf16"]
NEG_INF = float("-inf")

# Row widths worth having: tiny, around warp and vector boundaries, odd, and wide enough for
# every plan (row_registers up to 16384, row_shared up to 57856, chunked_online beyond).
WIDTHS = [1, 2, 3, 7, 8, 16, 31, 32, 33, 63, 100, 128, 255, 256, 513, 1000, 1024, 2048, 4097,
          8192, 16384, 20000, 57856, 60000]
SMALL_WIDTHS = [1, 2, 3, 5, 7, 8, 16, 31, 32, 33, 40, 64, 100]
OTHER_SIZES = [1, 2, 3, 4, 5, 8, 16, 17, 64]
SMALL_OTHER_SIZES = [1, 2, 3, 4, 5]


class Dyn:
    """A dynamic size in a shape: the size of dimension `dim` of the input, which every operand
    dimension aligned with it shares at run time."""

    def __init__(self, dim):
        self.dim = dim


def is_dyn(d):
    return isinstance(d, Dyn)


def fmt_float(value):
    """An MLIR float literal that parses back to exactly `value` (a double)."""
    if value == NEG_INF:
        return "0xFFF0000000000000"
    return repr(float(value)).replace("inf", "0x7FF0000000000000")


def fmt_shape(shape):
    return "x".join("?" if is_dyn(d) else str(d) for d in shape)


def tensor(shape, elem):
    return f"tensor<{fmt_shape(shape)}x{elem}>" if shape else f"tensor<{elem}>"


class Program:
    """One generated function: its arguments, its steps and how to print and evaluate it."""

    def __init__(self, seed, small):
        self.seed = seed
        self.small = small
        self.name = f"gen_{seed}"
        self.args = []  # (name, kind, type) with kind "x", "scalar", "bias", "lengths", "mask"
        self.steps = []  # dicts, in order; see generate()
        self.hand_plans = None  # a list of strategy strings, or None: the compiler chooses

    def text(self):
        return self.fused_text() if self.hand_plans else self.ops_text()

    # -- the separate ops ------------------------------------------------------------------
    def ops_text(self):
        lines = []
        cur, cur_elem = "%x", self.in_elem
        shape = self.shape
        for i, step in enumerate(self.steps):
            new = f"%v{i}"
            t = tensor(shape, cur_elem)
            kind = step["op"]
            if kind == "cast":
                lines.append(f"{new} = softmax.cast {cur} : {t} to {tensor(shape, step['to'])}")
                cur_elem = step["to"]
            elif kind == "scale":
                lines.append(f"{new} = softmax.scale {cur} by {fmt_float(step['factor'])} : {t}")
            elif kind == "scale_by":
                lines.append(f"{new} = softmax.scale {cur} by %{step['arg']} : {t}, "
                             f"{self.arg_type(step['arg'])}")
            elif kind == "bias":
                lines.append(f"{new} = softmax.add_bias {cur}, %{step['arg']} : {t}, "
                             f"{self.arg_type(step['arg'])}")
            elif kind == "mask":
                operand = f" %{step['arg']}" if step.get("arg") else ""
                offset = f" offset = {step['offset']}" if step["mask"] == "causal" else ""
                axis = f" axis = {step['axis']}"
                fill = "" if step["fill"] == NEG_INF else f" fill = {fmt_float(step['fill'])}"
                types = t + (f", {self.arg_type(step['arg'])}" if step.get("arg") else "")
                lines.append(f"{new} = softmax.mask {cur}, {step['mask']}{operand}{offset}{axis}"
                             f"{fill} : {types}")
            elif kind in ("softmax", "log_softmax"):
                lines.append(f"{new} = softmax.{kind} {cur} axis = {step['axis']} masked_rows = "
                             f"{step['masked_rows']} : {t}")
            cur = new
        body = "\n".join("  " + l for l in lines)
        return (f"func.func @{self.name}({self.signature()}) -> {tensor(shape, cur_elem)} {{\n"
                f"{body}\n  return {cur} : {tensor(shape, cur_elem)}\n}}\n")

    # -- one hand-written softmax.fused ----------------------------------------------------
    def fused_text(self):
        """The same computation as one softmax.fused op: the first cast (if any) is the
        widening the op does anyway; middle casts are #softmax.round steps; the last cast is
        the result type."""
        side, prologue = [], []
        norm = next(s for s in self.steps if s["op"] in ("softmax", "log_softmax"))
        out_elem = self.out_elem
        for step in self.steps:
            kind = step["op"]
            if kind == "scale":
                prologue.append(f"#softmax.scale<{fmt_float(step['factor'])}>")
            elif kind in ("scale_by", "bias"):
                side.append(step["arg"])
                prologue.append(f"#softmax.{kind}<{len(side) - 1}>")
            elif kind == "mask":
                fill = fmt_float(step["fill"])
                if step["mask"] == "causal":
                    prologue.append(f"#softmax.mask<causal, offset = {step['offset']}, "
                                    f"fill = {fill}>")
                else:
                    side.append(step["arg"])
                    prologue.append(f"#softmax.mask<{step['mask']}, operand = {len(side) - 1}, "
                                    f"fill = {fill}>")
            elif kind == "cast" and step.get("round"):
                prologue.append(f"#softmax.round<{step['to']}>")
        operands = ""
        if side:
            operands = (" (" + ", ".join("%" + a for a in side) + " : " +
                        ", ".join(self.arg_type(a) for a in side) + ")")
        result = tensor(self.shape, out_elem)
        axis = norm["axis"] % len(self.shape)
        plans = ", ".join(self.hand_plans)
        return (f"func.func @{self.name}({self.signature()}) -> {result} {{\n"
                f"  %y = softmax.fused {norm['op']} %x{operands} axis = {axis} prologue "
                f"[{', '.join(prologue)}] masked_rows = {norm['masked_rows']} "
                f"{{strategies = [{plans}]}} : {tensor(self.shape, self.in_elem)} -> {result}\n"
                f"  return %y : {result}\n}}\n")

    def axis(self):
        """The softmax's axis, in [0, rank)."""
        norm = next(s for s in self.steps if s["op"] in ("softmax", "log_softmax"))
        return norm["axis"] % len(self.shape)

    def signature(self):
        return ", ".join(f"%{name}: {t}" for name, _, t in self.args)

    def arg_type(self, name):
        return next(t for n, _, t in self.args if n == name)

    # -- evaluation ------------------------------------------------------------------------
    def evaluate(self, inputs, sizes):
        """The result in float64 (a flat row-major list) for `inputs` (a dict from argument
        name to a flat list, or a float for a scalar) with the dynamic sizes `sizes`."""
        shape = concrete(self.shape, sizes)
        values = list(inputs["x"])
        for step in self.steps:
            kind = step["op"]
            if kind == "cast":
                values = [round_to(v, step["to"]) for v in values]
            elif kind == "scale":
                values = [v * step["factor"] for v in values]
            elif kind == "scale_by":
                values = [v * inputs[step["arg"]] for v in values]
            elif kind == "bias":
                bshape = concrete(self.arg_shape(step["arg"]), sizes)
                bias = inputs[step["arg"]]
                values = [v + bias[broadcast_index(idx, bshape)]
                          for v, idx in zip(values, indices(shape))]
            elif kind == "mask":
                values = self.apply_mask(step, values, shape, inputs, sizes)
            else:
                values = normalize(values, shape, step["axis"] % len(shape), kind,
                                   step["masked_rows"])
        return [round_to(v, self.out_elem) for v in values]

    def apply_mask(self, step, values, shape, inputs, sizes):
        axis = step["axis"] % len(shape)
        out = []
        if step["mask"] == "padding":
            lshape = concrete(self.arg_shape(step["arg"]), sizes)
            lengths = inputs[step["arg"]]
        elif step["mask"] == "tensor":
            mshape = concrete(self.arg_shape(step["arg"]), sizes)
            mask = inputs[step["arg"]]
        for v, idx in zip(values, indices(shape)):
            col = idx[axis]
            if step["mask"] == "padding":
                row = idx[:axis] + idx[axis + 1:]
                removed = col >= lengths[broadcast_index(row, lshape)]
            elif step["mask"] == "causal":
                removed = col > idx[axis - 1] + step["offset"]
            else:
                removed = not mask[broadcast_index(idx, mshape)]
            out.append(step["fill"] if removed else v)
        return out

    def arg_shape(self, name):
        return next(shape for n, _, _, shape in self.arg_shapes if n == name)


def concrete(shape, sizes):
    """`shape` with each dynamic size replaced by `sizes[input dimension]`."""
    return [sizes[d.dim] if is_dyn(d) else d for d in shape]


def indices(shape):
    return itertools.product(*[range(d) for d in shape])


def broadcast_index(idx, bshape):
    """The flat index into a tensor of shape `bshape` broadcast (NumPy, trailing) to idx's."""
    lead = len(idx) - len(bshape)
    flat = 0
    for i, d in enumerate(bshape):
        flat = flat * d + (0 if d == 1 else idx[lead + i])
    return flat


def normalize(values, shape, axis, kind, masked_rows):
    out = list(values)
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    others = [range(d) for i, d in enumerate(shape) if i != axis]
    for rest in itertools.product(*others):
        base = sum(r * strides[i] for i, r in zip([i for i in range(len(shape)) if i != axis],
                                                   rest))
        idx = [base + j * strides[axis] for j in range(shape[axis])]
        row = [values[k] for k in idx]
        for k, v in zip(idx, softmax_row(row, kind, masked_rows)):
            out[k] = v
    return out


def softmax_row(row, kind, masked_rows):
    if any(math.isnan(v) for v in row):
        return [math.nan] * len(row)
    m = max(row)
    if m == NEG_INF:  # a fully masked row: the masked_rows policy
        if masked_rows == "nan":
            return [math.nan] * len(row)
        return [0.0 if kind == "softmax" else NEG_INF] * len(row)
    if m == math.inf:
        return [math.nan] * len(row)
    exps = [math.exp(v - m) for v in row]
    total = math.fsum(exps)
    if kind == "softmax":
        return [e / total for e in exps]
    log_total = math.log(total)
    return [(v - m) - log_total for v in row]


def round_to(value, elem):
    """`value` rounded to nearest even in f32, f16 or bf16 (overflow gives infinity)."""
    if math.isnan(value) or math.isinf(value):
        return value
    if elem == "f16":
        try:
            return struct.unpack("<e", struct.pack("<e", value))[0]
        except OverflowError:
            return math.copysign(math.inf, value)
    try:
        f32 = struct.unpack("<f", struct.pack("<f", value))[0]
    except OverflowError:
        f32 = math.copysign(math.inf, value)
    if elem == "f32" or math.isinf(f32):
        return f32
    bits = struct.unpack("<I", struct.pack("<f", f32))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return struct.unpack("<f", struct.pack("<I", bits))[0]


# -- generation ------------------------------------------------------------------------------

def generate(seed, small=False):
    """The program of `seed`. `small`: static sizes small enough to evaluate in Python, and no
    hand-written plans (the evaluation compares the reference, which ignores plans)."""
    rng = random.Random(seed)
    p = Program(seed, small)
    rank = rng.randint(1, 4)
    # The last axis, spelled either way: the generator's masks and biases are along the last
    # axis, and softmax-lower-to-gpu rejects them over other axes (the strided_axis kernels take
    # scales and roundings only; test/Runner/strided-axis.test and the GPU conformance suite
    # cover those axes).
    axis = rng.choice([-1, rank - 1])
    naxis = axis % rank
    shape = []
    for i in range(rank):
        if rng.random() < 0.3:
            shape.append(Dyn(i))
        elif i == naxis:
            shape.append(rng.choice(SMALL_WIDTHS if small else WIDTHS))
        else:
            shape.append(rng.choice(SMALL_OTHER_SIZES if small else OTHER_SIZES))
    p.shape = shape
    p.in_elem = rng.choice(FLOATS)
    p.args.append(("x", "x", tensor(shape, p.in_elem)))
    p.arg_shapes = [("x", "x", p.in_elem, shape)]

    def add_arg(kind, type_text, arg_shape=None):
        name = f"a{len(p.args)}"
        p.args.append((name, kind, type_text))
        p.arg_shapes.append((name, kind, type_text, arg_shape))
        return name

    def broadcast_shape(target):
        """A shape that broadcasts to `target`: a trailing part, each size 1 or the same."""
        keep = rng.randint(1, len(target)) if target else 0
        return [1 if rng.random() < 0.3 else d for d in target[len(target) - keep:]]

    elem = p.in_elem
    if rng.random() < 0.5 and elem != "f32":
        p.steps.append({"op": "cast", "to": "f32"})
        elem = "f32"
    for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 4])):
        kind = rng.choice(["scale", "scale_by", "bias", "padding", "causal", "tensor", "cast"])
        if kind == "scale":
            p.steps.append({"op": "scale", "factor": rng.choice(
                [0.125, 0.5, 2.0, -1.0, 0.088388, 3.0e-3, 10.0, 1.0e4])})
        elif kind == "scale_by":
            stype = rng.choice(["f16", "bf16", "f32", "f64"])
            p.steps.append({"op": "scale_by", "arg": add_arg("scalar", stype, [])})
        elif kind == "bias":
            belem = rng.choice(FLOATS)
            bshape = broadcast_shape(shape)
            p.steps.append({"op": "bias", "arg": add_arg("bias", tensor(bshape, belem), bshape)})
        elif kind in ("padding", "causal", "tensor"):
            if kind == "causal" and naxis == 0:
                continue
            if kind == "padding" and rank == 1:
                continue  # the row shape is empty: the lengths would be rank 0
            step = {"op": "mask", "mask": kind, "axis": axis,
                    "fill": rng.choice([NEG_INF, NEG_INF, -1.0e4, -30000.0, 0.0])}
            if kind == "padding":
                row = shape[:naxis] + shape[naxis + 1:]
                lshape = broadcast_shape(row)
                step["arg"] = add_arg("lengths", tensor(lshape, rng.choice(["i32", "i64"])),
                                      lshape)
            elif kind == "causal":
                step["offset"] = rng.choice([0, 0, 1, -1, 3, -4, 100])
            else:
                mshape = broadcast_shape(shape)
                step["arg"] = add_arg("mask", tensor(mshape, "i1"), mshape)
            p.steps.append(step)
        else:
            to = rng.choice([t for t in FLOATS if t != elem])
            p.steps.append({"op": "cast", "to": to, "round": True})
            elem = to
    add_normalization(p, rng, elem, axis, ["softmax", "log_softmax"], cast_chance=0.5)
    if not small and rng.random() < 0.25 and fusable_by_hand(p):
        p.hand_plans = hand_plans(rng, shape[naxis], p.out_elem, p.in_elem)
    return p


# Axis sizes of the strided_axis family: around a vector and a warp, the tiers of a dynamic C
# (capacities 16, 32, ..., 4096) and past the largest (the online path).
AXIS_SIZES = [1, 2, 3, 7, 8, 12, 16, 17, 33, 64, 100, 256, 513, 1000, 2048, 2049, 4096, 4097]
SMALL_AXIS_SIZES = [1, 2, 3, 5, 8, 12, 16, 17, 33]
# Sizes after the axis (the contiguous columns): off and on the vector, 7x7 spatial maps, wide.
INNER_SIZES = [1, 3, 4, 7, 8, 16, 49, 64, 1024]
SMALL_INNER_SIZES = [1, 3, 4, 7, 8]


def generate_axis(seed, small=False):
    """The program of `seed` in the strided_axis family: a softmax or log_softmax over an axis
    that is not the last (rank 2-4, the axis spelled either way), static and dynamic sizes,
    and the steps those kernels take (scales by a constant or a scalar argument, roundings,
    casts); for some seeds one hand-written softmax.fused with a strided_axis plan, or for a
    dynamic axis size a list of tiers and a general plan. Seeds of this family are drawn from
    their own random stream, so the row family's programs (`generate`) do not change."""
    rng = random.Random(f"axis-{seed}")
    p = Program(seed, small)
    p.name = f"gen_axis_{seed}"
    rank = rng.randint(2, 4)
    naxis = rng.randint(0, rank - 2)
    axis = rng.choice([naxis, naxis - rank])
    shape = []
    for i in range(rank):
        if rng.random() < 0.3:
            shape.append(Dyn(i))
        elif i == naxis:
            shape.append(rng.choice(SMALL_AXIS_SIZES if small else AXIS_SIZES))
        elif i > naxis:
            shape.append(rng.choice(SMALL_INNER_SIZES if small else INNER_SIZES))
        else:
            shape.append(rng.choice(SMALL_OTHER_SIZES if small else OTHER_SIZES))
    # Static sizes of at most 2^24 elements: the outer dimensions shrink first.
    for i in range(rank):
        while (not is_dyn(shape[i]) and shape[i] > 1 and
               math.prod(1 if is_dyn(d) else d for d in shape) > (1 << 24)):
            shape[i] //= 2
    p.shape = shape
    p.in_elem = rng.choice(FLOATS)
    p.args.append(("x", "x", tensor(shape, p.in_elem)))
    p.arg_shapes = [("x", "x", p.in_elem, shape)]
    elem = p.in_elem
    if rng.random() < 0.5 and elem != "f32":
        p.steps.append({"op": "cast", "to": "f32"})
        elem = "f32"
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        kind = rng.choice(["scale", "scale_by", "cast"])
        if kind == "scale":
            p.steps.append({"op": "scale", "factor": rng.choice(
                [0.125, 0.5, 2.0, -1.0, 0.088388, 10.0])})
        elif kind == "scale_by":
            name = f"a{len(p.args)}"
            stype = rng.choice(["f16", "bf16", "f32", "f64"])
            p.args.append((name, "scalar", stype))
            p.arg_shapes.append((name, "scalar", stype, []))
            p.steps.append({"op": "scale_by", "arg": name})
        else:
            to = rng.choice([t for t in FLOATS if t != elem])
            p.steps.append({"op": "cast", "to": to, "round": True})
            elem = to
    add_normalization(p, rng, elem, axis, ["softmax", "softmax", "log_softmax"],
                      cast_chance=0.4)
    if not small and rng.random() < 0.3 and fusable_by_hand(p):
        p.hand_plans = axis_hand_plans(rng, shape[naxis], p.out_elem, p.in_elem)
    return p


def axis_hand_plans(rng, c, out_elem, in_elem):
    """strided_axis plans within their limits: whole warps, the rows' shared memory, and a
    thread's values (the f32 budget, vector * chunks + 4 vector + 56, 16 under the block's
    register limit, which the scalar kernel takes); for a dynamic C, tiers of increasing
    capacity before the general plan, or the general plan alone."""
    wide = max(4 if e == "f32" else 2 for e in (in_elem, out_elem))

    def plan(min_capacity=0):
        for _ in range(50):
            lanes = rng.choice([1, 2, 4, 8, 16, 32, 64, 128, 256])
            rows = rng.choice([r for r in (1, 2, 4, 8, 16, 32, 64, 128, 256)
                               if lanes * r % 32 == 0 and lanes * r <= 1024] or [0])
            vector = rng.choice([v for v in (1, 2, 4, 8) if v * wide <= 16])
            chunks = rng.choice([1, 2, 4, 8, 16])
            threads = lanes * rows
            if rows == 0 or rows * chunks < min_capacity:
                continue
            limit = 255 if threads <= 256 else 65536 // threads
            if vector * chunks + 4 * vector + 56 > limit - 16:
                continue
            per_warp = min(rows, max(1, 32 // lanes))
            if rows > 1 and 2 * (rows // per_warp) * lanes * vector * 4 > 48 * 1024:
                continue
            return (lanes, rows, vector, chunks)
        return None

    def text(p):
        cluster = f", cluster = {p[4]}" if len(p) > 4 and p[4] > 1 else ""
        return (f"#softmax.strategy<strided_axis, lanes = {p[0]}, rows = {p[1]}, "
                f"vector = {p[2]}, chunks = {p[3]}{cluster}>")

    general = plan()
    if general is None:
        return None
    plans = []
    if is_dyn(c) and rng.random() < 0.6:
        capacity = 0
        for _ in range(rng.randint(1, 3)):
            tier = plan(capacity + 1)
            if tier is None or tier[2] == 1:
                break
            plans.append(tier)
            capacity = tier[1] * tier[3]
    # Columns over a cluster (a static C's plan, a dynamic C's last tier), from a stream of
    # their own so that the programs without one are those of before (2026-12-05): the fewest
    # blocks, up to 16, that hold a static C its plan does not, else 2-8 blocks; within the shared memory bound
    # (the exchange's 4 * lanes * vector f32 slots beside the rows').
    crng = random.Random(f"cluster-{c}-{plans + [general]}")

    def clustered(p, blocks):
        lanes, rows, vector, chunks = p[:4]
        per_warp = min(rows, max(1, 32 // lanes))
        shared = (2 * (rows // per_warp) * lanes * vector * 4 if rows > 1 else 0) + \
            4 * lanes * vector * 4
        return (lanes, rows, vector, chunks, blocks) if shared <= 48 * 1024 else p

    if crng.random() < 0.3:
        if not is_dyn(c):
            capacity = general[1] * general[3]
            blocks = next((q for q in (2, 4, 8, 16) if capacity * q >= c), None)
            if capacity >= c:
                blocks = crng.choice([2, 4, 8])  # the last blocks' slices lie past C
            if blocks is not None:
                general = clustered(general, blocks)
        elif plans:
            plans[-1] = clustered(plans[-1], crng.choice([2, 4, 8]))
    return [text(p) for p in plans + [general]]


def add_normalization(p, rng, elem, axis, kinds, cast_chance):
    """The steps both families end with: a softmax or log_softmax (one of `kinds`) over `axis`
    on values of `elem`, then with probability `cast_chance` a cast to another float type;
    sets p.out_elem. The random draws are those the row family always made, in that order."""
    p.steps.append({"op": rng.choice(kinds), "axis": axis,
                    "masked_rows": rng.choice(["zero", "zero", "nan"])})
    if rng.random() < cast_chance:
        elem = rng.choice([t for t in FLOATS if t != elem])
        p.steps.append({"op": "cast", "to": elem})
    p.out_elem = elem


def fusable_by_hand(p):
    """Whether one softmax.fused can say what the steps say: a widening first cast is what the
    op does anyway, later casts before the softmax are round steps, one cast may follow."""
    seen_norm = False
    for i, step in enumerate(p.steps):
        if step["op"] in ("softmax", "log_softmax"):
            seen_norm = True
        elif step["op"] == "cast" and not step.get("round") and i != 0 and not seen_norm:
            return False
    first = p.steps[0]
    if first["op"] == "cast" and not first.get("round") and first["to"] != "f32":
        return False
    return True


def hand_plans(rng, width, out_elem, in_elem):
    """A `strategies` list within the plans' limits: register plans of at most 64 values a
    thread whose block's registers (values + 48 a thread) fit the 65536 of a multiprocessor,
    then, for a dynamic width (or at random), a final chunked_online entry."""
    plans = []

    def block(lanes):
        rows_choices = [r for r in (1, 2, 4, 8, 16, 32)
                        if lanes * r % 32 == 0 and lanes * r <= 1024]
        return rng.choice(rows_choices)

    def register_plan(vector, chunks, lanes):
        rows = block(lanes)
        if lanes * rows * (vector * chunks + 48) > 65536:
            return None
        plan = "multi_row" if lanes <= 32 else "row_registers"
        return (f"#softmax.strategy<{plan}, lanes = {lanes}, rows = {rows}, vector = {vector}, "
                f"chunks = {chunks}>")

    if not is_dyn(width) and rng.random() < 0.6:
        vector = rng.choice([1, 2, 4, 8])
        chunks = rng.choice([1, 2, 4, 8])
        lanes = 1
        while lanes * vector * chunks < width:
            lanes *= 2
        if lanes <= 1024:
            plan = register_plan(vector, chunks, lanes)
            if plan:
                plans.append(plan)
    if not is_dyn(width) and width <= 57856 and rng.random() < 0.3:
        lanes = rng.choice([32, 128, 256, 512])
        plans.append(f"#softmax.strategy<row_shared, lanes = {lanes}, rows = 1, vector = "
                     f"{rng.choice([1, 2, 4])}, chunks = {rng.choice([1, 2, 4])}>")
    if is_dyn(width) or not plans or rng.random() < 0.3:
        lanes = rng.choice([32, 64, 256, 512, 1024])
        rows = 1024 // lanes if lanes > 32 and rng.random() < 0.2 else 1
        vector, chunks = rng.choice([1, 2, 4, 8]), rng.choice([1, 2, 4, 8])
        # The lowering rejects a two-pass plan whose span does not fit a block's registers
        # (getRowKernelRegisterNeed: values / 2 + 48, values past 32 whole; side operands up
        # to a quarter more): fewer chunks until it fits, the random draws unchanged.
        while chunks > 1:
            values = vector * chunks
            need = values // 2 + 48 + max(0, values - 32) // 2 + values // 4
            if lanes * rows * need <= 65536:
                break
            chunks //= 2
        plans.append(f"#softmax.strategy<chunked_online, lanes = {lanes}, rows = {rows}, "
                     f"vector = {vector}, chunks = {chunks}>")
    return plans


def generate_family(family, seed, small=False):
    """The program of `seed` in `family`: "rows" (generate) or "axis" (generate_axis)."""
    return (generate_axis if family == "axis" else generate)(seed, small)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        sys.exit(__doc__)
    family = "axis" if "--axis" in sys.argv else "rows"
    print(generate_family(family, int(args[0]), small="--small" in sys.argv).text(), end="")


if __name__ == "__main__":
    main()
