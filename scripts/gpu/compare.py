#!/usr/bin/env python3
"""Our softmax side by side with torch eager, torch.compile (static and dynamic) and Triton, on the
GPU machine, in one call (docs/performance.md).

    compare.py --runner PATH --out DIR [--logs DIR] [--budget-s 420] [--only SUBSTRING]
               [--dry-run]

For every program and shape (row widths 32 to 262144, M chosen so that the tensor is 256 MiB; f32,
bf16, and f16 up to 16384 columns; four fused chains):
  - ours, static: one `softmax-run --no-check --bench` process per shape (the shape is in the
    program);
  - ours, dynamic: one softmax-run process per program with every shape as a `--case`;
  - in this process: a device-to-device copy of the same bytes, torch eager, torch.compile (static,
    and dynamic=True), and a Triton kernel (the row-per-program softmax; a fused one for the
    attention chain), each as copy time / its time, the copy measured here.
Our fractions are against the copy softmax-run measures in its own process; torch's copy is recorded
beside them. A failing system on one shape records its error and the run goes on. Past the time
budget the remaining torch measurements are recorded as skipped.

Writes DIR/compare.json ({"header": {...}, "records": [...]}) and DIR/compare.txt (the table,
printed last). --dry-run (no GPU needed) compiles every program and calls its host code on every
case with softmax-run --jit-without-gpu, to check the programs and case lists.
"""
import argparse
import datetime
import json
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import time

MIB256 = 1 << 28
# 1100 and 3001: widths off the 16-byte vector (rows of 1100 16-bit elements start 8 bytes off
# it every other row, 3001 at every 2 bytes), which dynamic programs (and static 16-bit 3001)
# run in the general kernel (docs/performance.md, 2026-12-02).
WIDTHS = [32, 128, 512, 1000, 1024, 1100, 2048, 3001, 4096, 8192, 16384, 32768, 50257, 65536,
          128256, 262144]
F16_MAX_WIDTH = 16384
ELEM_BYTES = {"f32": 4, "bf16": 2, "f16": 2}
TORCH_DTYPE = {"f32": "float32", "bf16": "bfloat16", "f16": "float16"}
ATTENTION_SHAPES = [(256, 1024, 1024), (64, 2048, 2048), (16, 4096, 4096), (4, 8192, 8192)]
ATTENTION_SCALE = 0.088388
CHAIN_SHAPE = (16384, 4096)
INV_TEMPERATURE = 0.7  # softmax-run's default --scalar
REPS = ["--reps=20", "--warmup=5"]


def rows_for(n, dtype):
    """M such that an M x n tensor of dtype holds at least 256 MiB."""
    return -(-MIB256 // (n * ELEM_BYTES[dtype]))


def dims(shape):
    return "x".join(str(d) for d in shape)


# ----------------------------------------------------------------------------------------------
# The programs. Each has a static text (its shape written in), a dynamic text (every dimension ?),
# the --case shapes of the dynamic one, and its ideal bytes (one read of each input, one write of
# the output), which is what both copies move.
# ----------------------------------------------------------------------------------------------


class Program:
    def __init__(self, name, dtype, shapes, static_text, dynamic_text, case_shapes, ideal_bytes):
        self.name, self.dtype, self.shapes = name, dtype, shapes
        self.static_text, self.dynamic_text = static_text, dynamic_text
        self.case_shapes, self.ideal_bytes = case_shapes, ideal_bytes

    @property
    def key(self):
        return f"{self.name}-{self.dtype}"


def softmax_program(dtype):
    def text(t):
        return (f"func.func @softmax(%x: {t}) -> {t} {{\n"
                f"  %y = softmax.softmax %x : {t}\n  return %y : {t}\n}}\n")
    shapes = [(rows_for(n, dtype), n) for n in WIDTHS if dtype != "f16" or n <= F16_MAX_WIDTH]
    return Program("softmax", dtype, shapes,
                   lambda s: text(f"tensor<{dims(s)}x{dtype}>"), text(f"tensor<?x?x{dtype}>"),
                   lambda s: [dims(s)], lambda s: 2 * s[0] * s[1] * ELEM_BYTES[dtype])


def attention_program():
    def text(t, f):
        return (f"func.func @attention(%x: {t}) -> {t} {{\n"
                f"  %w = softmax.cast %x : {t} to {f}\n"
                f"  %s = softmax.scale %w by {ATTENTION_SCALE} : {f}\n"
                f"  %m = softmax.mask %s, causal : {f}\n"
                f"  %p = softmax.softmax %m : {f}\n"
                f"  %y = softmax.cast %p : {f} to {t}\n  return %y : {t}\n}}\n")
    return Program("attention", "bf16", ATTENTION_SHAPES,
                   lambda s: text(f"tensor<{dims(s)}xbf16>", f"tensor<{dims(s)}xf32>"),
                   text("tensor<?x?x?xbf16>", "tensor<?x?x?xf32>"),
                   lambda s: [dims(s)], lambda s: 2 * s[0] * s[1] * s[2] * 2)


def padded_program():
    def text(t, lengths):
        return (f"func.func @padded(%x: {t}, %len: {lengths}) -> {t} {{\n"
                f"  %m = softmax.mask %x, padding %len : {t}, {lengths}\n"
                f"  %p = softmax.softmax %m : {t}\n  return %p : {t}\n}}\n")
    return Program("padded", "f32", [CHAIN_SHAPE],
                   lambda s: text(f"tensor<{dims(s)}xf32>", f"tensor<{s[0]}xi32>"),
                   text("tensor<?x?xf32>", "tensor<?xi32>"),
                   lambda s: [dims(s), str(s[0])], lambda s: 2 * s[0] * s[1] * 4 + s[0] * 4)


def log_softmax_program():
    def text(t):
        return (f"func.func @logsoftmax(%x: {t}) -> {t} {{\n"
                f"  %p = softmax.log_softmax %x : {t}\n  return %p : {t}\n}}\n")
    return Program("log_softmax", "f32", [CHAIN_SHAPE],
                   lambda s: text(f"tensor<{dims(s)}xf32>"), text("tensor<?x?xf32>"),
                   lambda s: [dims(s)], lambda s: 2 * s[0] * s[1] * 4)


def bias_temperature_program():
    def text(t, b):
        return (f"func.func @bias_temperature(%x: {t}, %b: {b}, %inv_t: f32) -> {t} {{\n"
                f"  %a = softmax.add_bias %x, %b : {t}, {b}\n"
                f"  %s = softmax.scale %a by %inv_t : {t}, f32\n"
                f"  %p = softmax.softmax %s : {t}\n  return %p : {t}\n}}\n")
    return Program("bias_temperature", "f32", [CHAIN_SHAPE],
                   lambda s: text(f"tensor<{dims(s)}xf32>", f"tensor<1x{s[1]}xf32>"),
                   text("tensor<?x?xf32>", "tensor<1x?xf32>"),
                   lambda s: [dims(s), f"1x{s[1]}"], lambda s: 2 * s[0] * s[1] * 4 + s[1] * 4)


def all_programs():
    return ([softmax_program(d) for d in ("f32", "bf16", "f16")] +
            [attention_program(), padded_program(), log_softmax_program(),
             bias_temperature_program()])


# ----------------------------------------------------------------------------------------------
# Ours: softmax-run processes
# ----------------------------------------------------------------------------------------------


def record(system, variant, program, shape, time_us=None, copy_us=None, error=None, **extra):
    fraction = copy_us / time_us if time_us and copy_us else None
    r = dict(system=system, variant=variant, program=program.name, dtype=program.dtype,
             shape=list(shape), time_us=time_us, copy_us=copy_us, fraction=fraction, error=error,
             ideal_bytes=program.ideal_bytes(shape))
    r.update(extra)
    return r


def run_runner(args, src, extra, timeout, log_name):
    """Runs softmax-run; returns (exit code, parsed JSON or None, log tail)."""
    out = os.path.join(args.logs, log_name + ".json")
    if os.path.exists(out):
        os.remove(out)
    cmd = [args.runner, src, "--no-check", "--bench", *REPS, f"--json={out}", *extra]
    if args.dry_run:
        # No GPU: compile, JIT the host code and call it with null buffers for every case.
        cmd = [args.runner, src, "--jit-without-gpu", "--no-check", f"--json={out}", *extra]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        code, log = proc.returncode, proc.stdout + proc.stderr
    except subprocess.TimeoutExpired as e:
        code, log = "timeout", f"timed out after {timeout} s: {e}"
    with open(os.path.join(args.logs, log_name + ".log"), "w") as f:
        f.write(" ".join(shlex.quote(c) for c in cmd) + "\n" + log)
    data = None
    if os.path.exists(out):
        try:
            with open(out) as f:
                data = json.load(f)
        except ValueError:
            data = None
    return code, data, log[-800:]


def ours_record(variant, program, shape, report, code, log):
    if report is None:
        return record("ours", variant, program, shape, error=f"exit {code}: {log.strip()[-400:]}")
    error = None
    if report.get("status") != "PASS" or not report.get("median_us"):
        error = f"{report.get('status')} (exit {code}): " + "; ".join(report.get("errors", []))[:400]
    return record("ours", variant, program, shape, report.get("median_us"), report.get("copy_us"),
                  error, inputs_on_device=report.get("inputs_on_device"),
                  launches_per_call=report.get("launches_per_call"),
                  kernels=report.get("kernels"))


def run_ours(args, programs, workdir):
    records = []
    for program in programs:
        # Dynamic: every shape of the program as a --case of one process.
        src = os.path.join(workdir, f"{program.key}-dynamic.mlir")
        with open(src, "w") as f:
            f.write(program.dynamic_text)
        cases = [f"--case={','.join(program.case_shapes(s))}" for s in program.shapes]
        start = time.time()
        code, data, log = run_runner(args, src, cases, 180, f"{program.key}-dynamic")
        reports = data if isinstance(data, list) else []
        for i, shape in enumerate(program.shapes):
            report = reports[i] if i < len(reports) else None
            if args.dry_run:
                records.append(record("ours", "dynamic", program, shape,
                                      error=None if code == 0 else f"exit {code}: {log[-400:]}"))
            else:
                records.append(ours_record("dynamic", program, shape, report, code, log))
        print(f"ours dynamic {program.key}: exit {code}, {len(program.shapes)} case(s), "
              f"{time.time() - start:.1f} s", flush=True)
        # Static: one process per shape.
        for shape in program.shapes:
            src = os.path.join(workdir, f"{program.key}-{dims(shape)}.mlir")
            with open(src, "w") as f:
                f.write(program.static_text(shape))
            start = time.time()
            code, report, log = run_runner(args, src, [], 90, f"{program.key}-{dims(shape)}")
            if args.dry_run:
                records.append(record("ours", "static", program, shape,
                                      error=None if code == 0 else f"exit {code}: {log[-400:]}"))
            else:
                records.append(ours_record("static", program, shape, report, code, log))
            r = records[-1]
            print(f"ours static {program.key} {dims(shape)}: exit {code}, "
                  f"x copy {fmt(r['fraction'])}, {time.time() - start:.1f} s", flush=True)
    return records


# ----------------------------------------------------------------------------------------------
# torch, torch.compile and Triton, in this process
# ----------------------------------------------------------------------------------------------


def torch_side(args, programs, deadline, records, copies):
    """Appends a record per system x program x shape to `records` (kept when this raises) and
    torch's copy time per (program key, shape) to `copies`."""
    import torch
    import triton
    import triton.language as tl
    from triton.testing import do_bench

    # Static means one graph per shape: no automatic dynamic shapes after a second shape, and
    # room for every shape in dynamo's caches.
    torch._dynamo.config.automatic_dynamic_shapes = False
    torch._dynamo.config.cache_size_limit = 1024
    if hasattr(torch._dynamo.config, "accumulated_cache_size_limit"):
        torch._dynamo.config.accumulated_cache_size_limit = 4096

    @triton.jit
    def row_softmax_kernel(out_ptr, in_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
        # The seed's row-per-program kernel: the row in one register tile, -inf in masked lanes.
        row = tl.program_id(0).to(tl.int64)
        offsets = tl.arange(0, BLOCK_SIZE)
        mask = offsets < n_cols
        x = tl.load(in_ptr + row * n_cols + offsets, mask=mask, other=-float("inf"))
        x = x.to(tl.float32)
        x = x - tl.max(x, axis=0)
        numerator = tl.exp(x)
        denominator = tl.sum(numerator, axis=0)
        y = numerator / denominator
        tl.store(out_ptr + row * n_cols + offsets, y.to(out_ptr.dtype.element_ty), mask=mask)

    @triton.jit
    def attention_row_kernel(out_ptr, in_ptr, n_cols, seq, scale, BLOCK_SIZE: tl.constexpr):
        # The attention chain fused the same way: cast, scale, causal mask, softmax, cast.
        row = tl.program_id(0).to(tl.int64)
        query = row % seq
        offsets = tl.arange(0, BLOCK_SIZE)
        mask = offsets < n_cols
        x = tl.load(in_ptr + row * n_cols + offsets, mask=mask, other=-float("inf"))
        x = x.to(tl.float32) * scale
        x = tl.where(offsets > query, -float("inf"), x)
        x = x - tl.max(x, axis=0)
        numerator = tl.exp(x)
        y = numerator / tl.sum(numerator, axis=0)
        tl.store(out_ptr + row * n_cols + offsets, y.to(tl.bfloat16), mask=mask)

    def warps_for(block):
        return 16 if block >= 4096 else 8 if block >= 2048 else 4

    def triton_row_softmax(x, out):
        n = x.shape[-1]
        block = triton.next_power_of_2(n)
        row_softmax_kernel[(x.numel() // n,)](out, x, n, BLOCK_SIZE=block,
                                              num_warps=warps_for(block))
        return out

    def triton_attention(x, out):
        b, s, n = x.shape
        block = triton.next_power_of_2(n)
        attention_row_kernel[(b * s,)](out, x, n, s, ATTENTION_SCALE, BLOCK_SIZE=block,
                                       num_warps=warps_for(block))
        return out

    # The torch programs, as the .mlir ones: one function for eager and static compile, a
    # separate one (another code object, so another dynamo cache) for dynamic=True.
    def make_fns(program):
        if program.name == "softmax":
            def f(x):
                return torch.softmax(x, dim=-1)

            def g(x):
                return torch.softmax(x, dim=-1)
        elif program.name == "log_softmax":
            def f(x):
                return torch.log_softmax(x, dim=-1)

            def g(x):
                return torch.log_softmax(x, dim=-1)
        elif program.name == "attention":
            def f(x):
                s, n = x.shape[-2], x.shape[-1]
                q = torch.arange(s, device=x.device)[:, None]
                k = torch.arange(n, device=x.device)[None, :]
                y = torch.where(k > q, float("-inf"), x.float() * ATTENTION_SCALE)
                return torch.softmax(y, dim=-1).to(torch.bfloat16)

            def g(x):
                s, n = x.shape[-2], x.shape[-1]
                q = torch.arange(s, device=x.device)[:, None]
                k = torch.arange(n, device=x.device)[None, :]
                y = torch.where(k > q, float("-inf"), x.float() * ATTENTION_SCALE)
                return torch.softmax(y, dim=-1).to(torch.bfloat16)
        elif program.name == "padded":
            def f(x, lengths):
                cols = torch.arange(x.shape[-1], device=x.device)[None, :]
                return torch.softmax(x.masked_fill(cols >= lengths[:, None], float("-inf")), -1)

            def g(x, lengths):
                cols = torch.arange(x.shape[-1], device=x.device)[None, :]
                return torch.softmax(x.masked_fill(cols >= lengths[:, None], float("-inf")), -1)
        elif program.name == "bias_temperature":
            def f(x, bias):
                return torch.softmax((x + bias) * INV_TEMPERATURE, dim=-1)

            def g(x, bias):
                return torch.softmax((x + bias) * INV_TEMPERATURE, dim=-1)
        else:
            raise ValueError(program.name)
        return f, g

    def make_inputs(program, shape):
        dtype = getattr(torch, TORCH_DTYPE[program.dtype])
        gen = torch.Generator(device="cuda").manual_seed(1)
        x = torch.randn(*shape, device="cuda", dtype=dtype, generator=gen)  # never zeros
        if program.name == "padded":
            return [x, torch.randint(0, shape[1] + 1, (shape[0],), device="cuda",
                                     dtype=torch.int32, generator=gen)]
        if program.name == "bias_temperature":
            return [x, torch.randn(1, shape[1], device="cuda", dtype=dtype, generator=gen)]
        return [x]

    def bench_us(fn):
        return do_bench(fn, return_mode="median") * 1000.0

    def make_inputs_or_record(system, variant, program, shape):
        try:
            return make_inputs(program, shape)
        except Exception as e:
            records.append(record(system, variant, program, shape,
                                  error=f"inputs: {type(e).__name__}: {str(e)[:400]}"))
            torch.cuda.empty_cache()
            return None

    def measure(system, variant, program, shape, fn):
        if time.time() > deadline:
            records.append(record(system, variant, program, shape, error="skipped: time budget"))
            return
        try:
            fn()  # compiles where it has to, outside the timing
            torch.cuda.synchronize()
            us = bench_us(fn)
            records.append(record(system, variant, program, shape, us,
                                  copies.get((program.key, tuple(shape)))))
        except Exception as e:  # one failing system on one shape must not stop the run
            records.append(record(system, variant, program, shape,
                                  error=f"{type(e).__name__}: {str(e)[:400]}"))
            torch.cuda.synchronize()
        print(f"{system} {variant} {program.key} {dims(shape)}: "
              f"x copy {fmt(records[-1]['fraction'])}", flush=True)

    fns = {program.key: make_fns(program) for program in programs}
    # Cheap first, so that a run out of time loses the compiles, not the copies: copy, eager and
    # Triton for every shape of every program.
    for program in programs:
        f, _ = fns[program.key]
        for shape in program.shapes:
            try:
                inputs = make_inputs(program, shape)
                copy_bytes = (program.ideal_bytes(shape) // 2) & ~15
                src = torch.empty(copy_bytes, dtype=torch.uint8, device="cuda").fill_(0x3F)
                dst = torch.empty_like(src)
                copy_us = bench_us(lambda: dst.copy_(src))
                copies[(program.key, tuple(shape))] = copy_us
                records.append(record("copy", "torch", program, shape, copy_us, copy_us))
                del src, dst
            except Exception as e:
                records.append(record("copy", "torch", program, shape,
                                      error=f"{type(e).__name__}: {str(e)[:400]}"))
                continue
            measure("torch-eager", "static", program, shape, lambda: f(*inputs))
            if program.name in ("softmax", "attention"):
                out = torch.empty_like(inputs[0])
                kernel = triton_row_softmax if program.name == "softmax" else triton_attention
                measure("triton", "static", program, shape, lambda: kernel(inputs[0], out))
                del out
            del inputs
            torch.cuda.empty_cache()
    # torch.compile, dynamic=True: one compile for every shape of a program.
    for program in programs:
        _, g = fns[program.key]
        torch._dynamo.reset()
        compiled_dynamic = torch.compile(g, dynamic=True)
        for shape in program.shapes:
            inputs = make_inputs_or_record("torch-compile", "dynamic", program, shape)
            if inputs is None:
                continue
            measure("torch-compile", "dynamic", program, shape,
                    lambda: compiled_dynamic(*inputs))
            del inputs
            torch.cuda.empty_cache()
    # torch.compile, static: a fresh compile per shape.
    for program in programs:
        f, _ = fns[program.key]
        for shape in program.shapes:
            torch._dynamo.reset()
            compiled_static = torch.compile(f, dynamic=False)
            inputs = make_inputs_or_record("torch-compile", "static", program, shape)
            if inputs is None:
                continue
            measure("torch-compile", "static", program, shape, lambda: compiled_static(*inputs))
            del inputs
            torch.cuda.empty_cache()


# ----------------------------------------------------------------------------------------------
# Header, table, main
# ----------------------------------------------------------------------------------------------


def fmt(x):
    return "-" if x is None else f"{x:.3f}"


def header(args):
    version = {}
    version_file = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(args.runner))),
                                "VERSION")
    if os.path.exists(version_file):
        with open(version_file) as f:
            for line in f:
                key, _, value = line.strip().partition(" ")
                version[key] = value
    h = dict(record="header",
             date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
             command=" ".join(shlex.quote(a) for a in sys.argv), host=platform.node(),
             commit=version.get("commit"), packed=version.get("packed"),
             dirty="working" in version, reps=REPS)
    try:
        smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                              "--format=csv,noheader"], capture_output=True, text=True, timeout=30)
        name, _, driver = smi.stdout.strip().splitlines()[0].partition(",")
        h.update(gpu=name.strip(), driver=driver.strip())
    except Exception as e:
        h.update(gpu=None, driver=None, gpu_error=str(e))
    if not args.dry_run:
        try:
            import torch
            import triton
            h.update(torch=torch.__version__, triton=triton.__version__,
                     cuda=torch.version.cuda, gpu=h.get("gpu") or torch.cuda.get_device_name())
        except Exception as e:
            h.update(torch_error=str(e))
    return h


COLUMNS = [("ours", "static", "ours"), ("ours", "dynamic", "ours-dyn"),
           ("torch-eager", "static", "eager"), ("torch-compile", "static", "compile"),
           ("torch-compile", "dynamic", "compile-dyn"), ("triton", "static", "triton")]


def table(records):
    """Rows: program/dtype/shape; columns: each system's fraction of its copy."""
    cells, rows = {}, []
    for r in records:
        row = (r["program"], r["dtype"], dims(r["shape"]))
        if row not in rows:
            rows.append(row)
        if r["system"] == "copy":
            cells[row + ("copy",)] = r["time_us"]
            continue
        value = fmt(r["fraction"]) if not r.get("error") else (
            "skip" if r["error"].startswith("skipped") else "err")
        cells[row + (r["system"], r["variant"])] = value
    lines = [f"{'program':<17} {'dtype':<5} {'shape':<16} {'copy_us':>8} " +
             " ".join(f"{c[2]:>11}" for c in COLUMNS)]
    for row in rows:
        copy_us = cells.get(row + ("copy",))
        lines.append(f"{row[0]:<17} {row[1]:<5} {row[2]:<16} {fmt(copy_us) if copy_us else '-':>8} " +
                     " ".join(f"{cells.get(row + c[:2], '-'):>11}" for c in COLUMNS))
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runner", required=True, help="softmax-run")
    parser.add_argument("--out", required=True, help="where compare.json and compare.txt go")
    parser.add_argument("--logs", default=None, help="softmax-run logs (default: OUT/compare-logs)")
    parser.add_argument("--budget-s", type=float, default=420,
                        help="after this many seconds, skip the remaining torch measurements")
    parser.add_argument("--only", default=None,
                        help="only programs whose key (e.g. softmax-f32, attention-bf16) has this")
    parser.add_argument("--dry-run", action="store_true",
                        help="write the programs and compile them only (--compile-only)")
    args = parser.parse_args()
    start = time.time()
    os.makedirs(args.out, exist_ok=True)
    args.logs = args.logs or os.path.join(args.out, "compare-logs")
    os.makedirs(args.logs, exist_ok=True)
    workdir = tempfile.mkdtemp(prefix="softmax-compare-")
    programs = [p for p in all_programs() if not args.only or args.only in p.key]

    head = header(args)
    records = run_ours(args, programs, workdir)
    if not args.dry_run:
        torch_records, copies = [], {}
        try:
            torch_side(args, programs, start + args.budget_s, torch_records, copies)
        except Exception as e:  # no torch, or a failure outside one measurement: keep the rest
            head["torch_error"] = f"{type(e).__name__}: {e}"
            print(f"error: the torch side stopped: {head['torch_error']}", flush=True)
        # Both copies beside our figures.
        for r in records:
            key = (f"{r['program']}-{r['dtype']}", tuple(r["shape"]))
            r["torch_copy_us"] = copies.get(key)
            r["fraction_of_torch_copy"] = (copies[key] / r["time_us"]
                                           if copies.get(key) and r["time_us"] else None)
        records += torch_records
    head["seconds"] = round(time.time() - start, 1)
    with open(os.path.join(args.out, "compare.json"), "w") as f:
        json.dump({"header": head, "records": records}, f, indent=1)
    text = table(records)
    with open(os.path.join(args.out, "compare.txt"), "w") as f:
        f.write(text + "\n")
    errors = [r for r in records if r.get("error") and not r["error"].startswith("skipped")]
    for r in errors[:20]:
        print(f"error: {r['system']} {r['variant']} {r['program']} {r['dtype']} "
              f"{dims(r['shape'])}: {r['error'][:300]}")
    print(f"\n== fraction of a copy of the same bytes (ours: softmax-run's copy; others: torch's), "
          f"{head.get('gpu')}, commit {head.get('commit')}, {head['seconds']} s")
    print(text)
    print(f"records: {len(records)}, errors: {len(errors)}; {args.out}/compare.json")
    return 1 if any(r["system"] == "ours" and r.get("error") for r in records) else 0


if __name__ == "__main__":
    sys.exit(main())
