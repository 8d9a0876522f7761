#!/usr/bin/env python3
"""A small interpreter of the strided_axis kernels (AxisKernel.cpp) as softmax-lower-to-gpu
emits them, for checking their results on a machine without a GPU.

It runs the printed `gpu.func` (the output of softmax-lower-to-gpu, before any other pass) for
every thread of every block of a grid, threads of a block in lock step between barriers and
shuffles (the kernels keep those uniform over the block), with f32 arithmetic in numpy and
bf16/f16 storage rounded as the GPU rounds it. Only the ops that kernel builder emits are known;
anything else is an error, not a guess.

    gpu_func_interp.py LOWERED.mlir --kernel NAME --shape 3x7x40 --axis 1 --dtype f32
        [--out-dtype bf16] [--special all] [--stride-pad N] [--check]

Without a GPU this is the check of the kernels' arithmetic, indexing and reductions
(test/Conversion/SoftmaxToGPU/strided-axis-interpreted.test); the GPU conformance suite checks
them on the device.
"""
import argparse
import math
import re
import sys

import numpy as np

SSA = re.compile(r"%[A-Za-z0-9_$.\-]+(?:#\d+)?")


def parse(lines):
    """Ops of a region: dicts with name, results, operands, text, regions."""
    ops = []
    while lines:
        line = lines[0].strip()
        if line.startswith("}"):
            return ops
        lines.pop(0)
        if not line or line.startswith("//"):
            continue
        results, rhs = [], line
        m = re.match(r"^((?:%[^=]+?))\s=\s(.*)$", line)
        if m and not line.startswith("scf.") and not line.startswith("memref.store") and \
                not line.startswith("vector.store"):
            lhs, rhs = m.group(1), m.group(2)
            for part in lhs.split(","):
                part = part.strip()
                mm = re.match(r"^(%[^:]+):(\d+)$", part)
                if mm:
                    results += [f"{mm.group(1)}#{i}" for i in range(int(mm.group(2)))]
                else:
                    results.append(part)
        name = rhs.split()[0]
        op = dict(name=name, results=results, text=rhs, regions=[])
        if rhs.endswith("{"):
            region = parse(lines)
            op["regions"].append(region)
            close = lines.pop(0).strip()
            if close.startswith("} else {"):
                op["regions"].append(parse(lines))
                lines.pop(0)
        ops.append(op)
    return ops


def bits_to_f32(text):
    return np.frombuffer(int(text, 16).to_bytes(4, "little"), dtype=np.float32)[0]


def bits_to_float(text, dtype):
    """A float constant written as its bits (MLIR prints non-finite splats so), as f32."""
    bits = int(text, 16)
    if dtype == "bf16":
        return bits_to_f32(hex(bits << 16))
    if dtype == "f16":
        return np.float32(np.frombuffer(bits.to_bytes(2, "little"), dtype=np.float16)[0])
    return bits_to_f32(text)


def round_to(value, dtype):
    v = np.float32(value)
    if dtype == "f32":
        return v
    if dtype == "f16":
        return np.float32(np.float16(v))
    if dtype == "bf16":
        b = np.array([v], dtype=np.float32).view(np.uint32)[0]
        if np.isnan(v):
            return np.float32(np.nan)
        b = (int(b) + 0x7FFF + ((int(b) >> 16) & 1)) & 0xFFFF0000
        return np.array([b], dtype=np.uint32).view(np.float32)[0]
    raise ValueError(dtype)


class MemRef:
    def __init__(self, data, offset, sizes, strides, dtype):
        self.data, self.offset, self.sizes, self.strides, self.dtype = data, offset, sizes, strides, dtype

    def index(self, idx):
        for i, s in zip(idx, self.sizes):
            if not 0 <= i < s:
                raise IndexError(f"index {idx} out of bounds {self.sizes}")
        linear = self.offset + sum(i * s for i, s in zip(idx, self.strides))
        if not 0 <= linear < len(self.data):
            raise IndexError(f"index {idx} of a view at {self.offset} is outside the buffer")
        return linear


def element_type(text):
    m = re.search(r"(bf16|f16|f32)\s+(?:from|to)\s", text)
    return m


class Block:
    def __init__(self, func, args, block_id, threads, grid):
        self.func, self.args, self.block_id, self.threads, self.grid = func, args, block_id, threads, grid


def execute(ops, env, ctx):
    """A generator: yields ('barrier',) or ('shuffle', value, offset) and receives results."""
    for op in ops:
        name, text, res = op["name"], op["text"], op["results"]
        operands = [t for t in SSA.findall(text)]

        def val(i):
            return env[operands[i]]

        if name == "arith.constant":
            m = re.match(r"arith\.constant\s+(\S+)\s*(?::\s*(\S+))?", text)
            lit, ty = m.group(1), m.group(2)
            if lit == "true":
                env[res[0]] = True
            elif lit == "false":
                env[res[0]] = False
            elif ty in ("index", "i32", "i64"):
                env[res[0]] = int(lit)
            elif ty == "f32":
                env[res[0]] = bits_to_f32(lit) if lit.startswith("0x") else np.float32(float(lit))
            elif lit.startswith("dense<") and ty and ty.startswith("vector<"):
                splat = re.match(r"dense<([^>]+)>", lit).group(1)
                n, elem = re.match(r"vector<(\d+)x(\w+)>", ty).groups()
                env[res[0]] = [bits_to_float(splat, elem) if splat.startswith("0x")
                               else np.float32(float(splat))] * int(n)
            else:
                raise NotImplementedError(text)
        elif name in ("arith.addi", "arith.muli", "arith.divui", "arith.remui", "arith.ceildivui",
                      "arith.subi", "arith.andi", "arith.ori", "arith.minui", "arith.maxui",
                      "arith.minsi", "arith.maxsi"):
            a, b = val(0), val(1)
            env[res[0]] = {
                "arith.addi": lambda: a + b, "arith.muli": lambda: a * b,
                "arith.divui": lambda: a // b, "arith.remui": lambda: a % b,
                "arith.ceildivui": lambda: -(-a // b), "arith.subi": lambda: a - b,
                "arith.andi": lambda: a and b if isinstance(a, bool) else a & b,
                "arith.ori": lambda: a or b if isinstance(a, bool) else a | b,
                "arith.minui": lambda: min(a, b), "arith.maxui": lambda: max(a, b),
                "arith.minsi": lambda: min(a, b), "arith.maxsi": lambda: max(a, b),
            }[name]()
        elif name == "arith.cmpi":
            pred = text.split()[1].rstrip(",")
            a, b = val(0), val(1)
            env[res[0]] = {"eq": a == b, "ne": a != b, "ult": a < b, "ule": a <= b,
                           "ugt": a > b, "uge": a >= b, "slt": a < b, "sle": a <= b,
                           "sgt": a > b, "sge": a >= b}[pred]
        elif name == "arith.cmpf":
            pred = text.split()[1].rstrip(",")
            a, b = val(0), val(1)
            # Ordered predicates: false where either side is NaN (Python's comparisons agree).
            ordered = {"oeq": lambda: a == b, "oge": lambda: a >= b, "ogt": lambda: a > b,
                       "ole": lambda: a <= b, "olt": lambda: a < b}
            if pred not in ordered:
                raise NotImplementedError(text)
            env[res[0]] = bool(ordered[pred]())
        elif name == "arith.select":
            env[res[0]] = val(1) if val(0) else val(2)
        elif name == "arith.maximumf" and isinstance(val(0), list):
            # Elementwise on vectors (16-bit values held as the f32 they widen to exactly).
            env[res[0]] = [np.float32(np.nan) if (np.isnan(a) or np.isnan(b)) else max(a, b)
                           for a, b in zip(val(0), val(1))]
        elif name in ("arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.maximumf"):
            a, b = np.float32(val(0)), np.float32(val(1))
            with np.errstate(all="ignore"):
                if name == "arith.maximumf":
                    r = np.float32(np.nan) if (np.isnan(a) or np.isnan(b)) else max(a, b)
                else:
                    r = {"arith.addf": a + b, "arith.subf": a - b, "arith.mulf": a * b,
                         "arith.divf": a / b}[name]
            env[res[0]] = np.float32(r)
        elif name == "arith.extf":
            v = val(0)
            env[res[0]] = [np.float32(x) for x in v] if isinstance(v, list) else np.float32(v)
        elif name == "arith.truncf":
            to = re.search(r"to\s+(?:vector<\d+x)?(bf16|f16|f32)", text).group(1)
            v = val(0)
            env[res[0]] = [round_to(x, to) for x in v] if isinstance(v, list) else round_to(v, to)
        elif name == "llvm.call_intrinsic":
            fn = re.search(r'"([^"]+)"', text).group(1)
            x = np.float32(val(0))
            with np.errstate(all="ignore"):
                if fn == "llvm.nvvm.ex2.approx.ftz.f":
                    r = np.exp2(x)
                elif fn == "llvm.nvvm.lg2.approx.f":
                    r = np.log2(x)
                else:
                    raise NotImplementedError(text)
            env[res[0]] = np.float32(r)
        elif name == "memref.extract_strided_metadata":
            m, rank = val(0), len(val(0).sizes)
            env[res[0]] = m  # the base buffer: only passed on
            env[res[1]] = m.offset
            for i in range(rank):
                env[res[2 + i]] = m.sizes[i]
                env[res[2 + rank + i]] = m.strides[i]
        elif name == "memref.reinterpret_cast":
            # A view of the same data: the source's offset is replaced, not added to.
            m = val(0)

            def listed(key):
                items = re.search(key + r":\s*\[([^\]]*)\]", text).group(1).split(",")
                return [env[t.strip()] if t.strip().startswith("%") else int(t) for t in items]
            env[res[0]] = MemRef(m.data, listed("offset")[0], listed("sizes"), listed("strides"),
                                 m.dtype)
        elif name == "memref.dim":
            env[res[0]] = val(0).sizes[val(1)]
        elif name == "memref.load":
            m = val(0)
            env[res[0]] = np.float32(m.data[m.index([env[o] for o in operands[1:]])])
        elif name == "memref.store":
            m = env[operands[1]]
            m.data[m.index([env[o] for o in operands[2:]])] = round_to(env[operands[0]], m.dtype)
        elif name == "vector.load":
            m = val(0)
            n = int(re.search(r"vector<(\d+)x", text).group(1))
            idx = [env[o] for o in operands[1:]]
            start = m.index(idx)
            m.index(idx[:-1] + [idx[-1] + n - 1])
            env[res[0]] = [np.float32(x) for x in m.data[start:start + n]]
        elif name == "vector.store":
            v, m = env[operands[0]], env[operands[1]]
            idx = [env[o] for o in operands[2:]]
            start = m.index(idx)
            m.index(idx[:-1] + [idx[-1] + len(v) - 1])
            for i, x in enumerate(v):
                m.data[start + i] = round_to(x, m.dtype)
        elif name == "vector.extract":
            pos = int(re.search(r"\[(\d+)\]", text).group(1))
            env[res[0]] = val(0)[pos]
        elif name == "vector.bitcast":
            # Only the packing of 16-bit elements into 32-bit words and back is modelled: a word
            # is the pair of elements it holds, so a round trip is exact.
            m = re.search(r":\s*vector<(\d+)x(\w+)>\s+to\s+vector<(\d+)x(\w+)>", text)
            src, dst = m.group(2), m.group(4)
            v = val(0)
            if src in ("bf16", "f16") and dst == "i32":
                env[res[0]] = [(v[i], v[i + 1]) for i in range(0, len(v), 2)]
            elif src == "i32" and dst in ("bf16", "f16"):
                env[res[0]] = [x for word in v for x in word]
            else:
                raise NotImplementedError(text)
        elif name == "llvm.inline_asm":
            # The kernels use inline assembly only as an opaque copy of a register (mov.b32).
            if '"mov.b32 $0, $1;"' not in text:
                raise NotImplementedError(text)
            env[res[0]] = val(0)
        elif name == "vector.from_elements":
            env[res[0]] = [env[o] for o in operands]
        elif name == "vector.broadcast":
            n = int(re.search(r"to vector<(\d+)x", text).group(1))
            env[res[0]] = [val(0)] * n
        elif name == "gpu.thread_id":
            env[res[0]] = ctx["tid"]
        elif name == "gpu.block_id":
            env[res[0]] = ctx["bid"]
        elif name == "gpu.grid_dim":
            env[res[0]] = ctx["grid"]
        elif name == "gpu.barrier":
            yield ("barrier",)
        elif name == "gpu.shuffle":
            mode = text.split()[1]
            if mode != "xor" or env[operands[2]] != 32:
                raise NotImplementedError(text)
            got = yield ("shuffle", val(0), env[operands[1]])
            env[res[0]] = got
            if len(res) > 1:
                env[res[1]] = True
        elif name == "scf.if":
            region = op["regions"][0] if val(0) else (op["regions"][1] if len(op["regions"]) > 1 else [])
            yielded = yield from execute(region, env, ctx)
            for r, v in zip(res, yielded or []):
                env[r] = v
        elif name == "scf.for":
            m = re.match(r"scf\.for\s+(%\S+)\s*=\s*(%\S+)\s+to\s+(%\S+)\s+step\s+(%\S+)", text)
            iv, lo, hi, st = m.group(1), env[m.group(2)], env[m.group(3)], env[m.group(4)]
            iters = re.findall(r"(%[^\s=,()]+)\s*=\s*(%[^\s,()]+)", text.split("iter_args", 1)[1]) \
                if "iter_args" in text else []
            carried = [env[init] for _, init in iters]
            i = lo
            while i < hi:
                env[iv] = i
                for (arg, _), v in zip(iters, carried):
                    env[arg] = v
                carried = (yield from execute(op["regions"][0], env, ctx)) or []
                i += st
            for r, v in zip(res, carried):
                env[r] = v
        elif name == "scf.yield":
            return [env[o] for o in operands]
        elif name == "gpu.return":
            return None
        else:
            raise NotImplementedError(f"op not modelled: {text}")
    return None


def run_block(body, args, params, smem_name, smem_size, bid, threads, grid):
    gens, envs = [], []
    smem = MemRef(np.zeros(smem_size, dtype=np.float32), 0, [smem_size], [1], "f32") if smem_name else None
    for t in range(threads):
        env = dict(zip(params, args))
        if smem_name:
            env[smem_name] = smem
        gens.append(execute(body, env, dict(tid=t, bid=bid, grid=grid)))
    pending = [None] * threads
    sends = [None] * threads
    alive = set(range(threads))
    while alive:
        events = {}
        for t in sorted(alive):
            try:
                events[t] = gens[t].send(sends[t])
            except StopIteration:
                events[t] = ("done",)
        kinds = {e[0] for e in events.values()}
        if len(kinds) != 1:
            raise RuntimeError(f"block {bid}: threads diverge at a barrier or shuffle: {kinds}")
        kind = kinds.pop()
        if kind == "done":
            return
        sends = [None] * threads
        if kind == "shuffle":
            for t, e in events.items():
                partner = (t % 32) ^ e[2]
                sends[t] = events[(t - t % 32) + partner][1] if partner < 32 else e[1]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("mlir")
    p.add_argument("--kernel", required=True)
    p.add_argument("--shape", required=True)
    p.add_argument("--axis", type=int, required=True)
    p.add_argument("--dtype", default="f32")
    p.add_argument("--out-dtype", default=None)
    p.add_argument("--normalization", default="softmax", choices=["softmax", "log_softmax", "none"])
    p.add_argument("--masked-rows", default="zero")
    p.add_argument("--scale", type=float, default=1.0)
    p.add_argument("--special", action="store_true", help="-inf columns, +inf, NaN, large values")
    p.add_argument("--pad", type=int, default=0, help="elements of padding after each last-dim row")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    out_dtype = args.out_dtype or args.dtype

    text = open(args.mlir).read().splitlines()
    start = next(i for i, l in enumerate(text) if re.search(rf"gpu\.func @{re.escape(args.kernel)}\(", l))
    header = text[start]
    body_lines = text[start + 1:]
    body = parse(list(body_lines))
    threads = int(re.search(r"known_block_size = array<i32: (\d+)", header).group(1))
    params = re.findall(r"(%arg\d+)\s*:", header.split(") workgroup")[0].split(") kernel")[0])
    smem = re.search(r"workgroup\((%arg\d+) : memref<(\d+)xf32", header)

    shape = [int(s) for s in args.shape.split("x")]
    rank, axis = len(shape), args.axis % len(shape)
    rng = np.random.default_rng(args.seed)
    x = (rng.standard_normal(shape) * 3).astype(np.float32)
    if args.special:
        flat = np.moveaxis(x, axis, -1).reshape(-1, shape[axis])
        n = flat.shape[0]
        for j in range(0, n, 7):
            flat[j, :] = -np.inf  # every value of the column -inf
        for j in range(3, n, 11):
            flat[j, 0] = 1e30
        for j in range(5, n, 13):
            flat[j, -1] = -np.inf
        x = np.moveaxis(flat.reshape([s for i, s in enumerate(shape) if i != axis] + [shape[axis]]), -1, axis)
        x = np.ascontiguousarray(x)
    x = np.vectorize(lambda v: round_to(v, args.dtype), otypes=[np.float32])(x)

    # Storage: rows of the last dimension padded by --pad elements, offset 0.
    last = shape[-1]
    row = last + args.pad
    strides = [0] * rank
    strides[-1] = 1
    if rank > 1:
        strides[-2] = row
    for d in range(rank - 3, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    size = strides[0] * shape[0] if rank > 1 else last
    xin = np.full(size, np.nan, dtype=np.float32)
    yout = np.full(size, 12345.0, dtype=np.float32)
    for idx in np.ndindex(*shape):
        xin[sum(i * s for i, s in zip(idx, strides))] = x[idx]

    # The [outer, C, mid, last] view, as buildAxisView makes it.
    outer = int(np.prod(shape[:axis])) if axis > 0 else 1
    mid = int(np.prod(shape[axis + 1:rank - 1])) if axis + 1 < rank - 1 else 1
    sC = strides[axis]
    sO = strides[axis - 1] if axis > 0 else shape[axis] * sC
    sM = strides[rank - 2] if axis + 1 < rank - 1 else last
    view = lambda data, dt: MemRef(data, 0, [outer, shape[axis], mid, last], [sO, sC, sM, 1], dt)
    kargs = [view(xin, args.dtype), view(yout, out_dtype)]
    # The host launches the vector kernel only where every vector is whole and aligned
    # (AxisKernel.cpp, buildVectorCondition); the buffers here start aligned, at offset 0.
    kernel_end = next((i for i, l in enumerate(body_lines) if "gpu.func @" in l), len(body_lines))
    loaded = re.search(r"vector\.load .*vector<(\d+)x", "\n".join(body_lines[:kernel_end]))
    if loaded:
        v = int(loaded.group(1))
        if any(n % v for n in (sO, sC, sM, last)):
            print(f"kernel {args.kernel}: not launched for {args.shape} (the host takes the "
                  f"scalar kernel: strides or last dimension not multiples of {v})")
            return 0
    if len(params) > 2:
        kargs.append(np.float32(args.scale))
    m = re.search(r"arith\.ceildivui %\S+, %(c\d+)", "\n".join(body_lines))
    # The grid as lowerStridedAxis computes it: outer * ceil(inner / (lanes * vector)).
    columns = int(re.search(r"%(?:c)(\d+)", m.group(0).split(",")[1]).group(1)) if m else 1
    inner = mid * last
    grid = outer * -(-inner // columns)
    for bid in range(grid):
        run_block(body, kargs, params, smem.group(1) if smem else None,
                  int(smem.group(2)) if smem else 0, bid, threads, grid)

    # The reference, float64, on the rounded inputs.
    xs = x.astype(np.float64) * args.scale
    with np.errstate(all="ignore"):
        mx = np.max(xs, axis=axis, keepdims=True)
        masked = np.isneginf(mx)
        safe = np.where(masked, 0.0, mx)
        e = np.exp(xs - safe)
        s = np.sum(e, axis=axis, keepdims=True)
        if args.normalization == "softmax":
            ref = e / s
        elif args.normalization == "log_softmax":
            ref = xs - safe - np.log(s)
        else:
            ref = xs
        if args.normalization != "none":
            policy = np.nan if args.masked_rows == "nan" else 0.0
            ref = np.where(masked, policy if args.normalization == "softmax" else
                           (np.nan if args.masked_rows == "nan" else -np.inf), ref)
    got = np.zeros(shape, dtype=np.float64)
    for idx in np.ndindex(*shape):
        got[idx] = yout[sum(i * s for i, s in zip(idx, strides))]
    # Padding untouched.
    written = np.zeros(size, dtype=bool)
    for idx in np.ndindex(*shape):
        written[sum(i * s for i, s in zip(idx, strides))] = True
    untouched = bool(np.all(yout[~written] == 12345.0))
    tol = {"f32": 2e-5, "f16": 2e-3, "bf16": 1.6e-2}[out_dtype]
    both_nan = np.isnan(got) & np.isnan(ref)
    same_inf = np.isinf(got) & np.isinf(ref) & (np.sign(got) == np.sign(ref))
    with np.errstate(all="ignore"):
        err = np.abs(got - ref) / np.maximum(1.0, np.abs(ref))
    bad = ~(both_nan | same_inf | (err <= tol))
    print(f"kernel {args.kernel}: {args.shape} axis {axis} {args.dtype}->{out_dtype} "
          f"{args.normalization}: {int(bad.sum())} mismatches of {bad.size}, "
          f"max err {np.nanmax(np.where(both_nan | same_inf, 0, err)):.2e}, "
          f"padding {'untouched' if untouched else 'TOUCHED'}")
    if bad.any():
        where = np.argwhere(bad)[:5]
        for w in where:
            print(f"  at {tuple(w)}: got {got[tuple(w)]} expected {ref[tuple(w)]}")
    return 0 if not bad.any() and untouched else 1


if __name__ == "__main__":
    sys.exit(main())
