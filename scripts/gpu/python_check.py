#!/usr/bin/env python3
"""The Python package on the GPU (docs/python.md): softmax_compiler.softmax and the torch op
torch.ops.softmax_compiler.softmax over the packed libsoftmax-c.so, on torch tensors, against a
float64 reference computed by torch (torch.softmax / log_softmax of the unfused chain: scale,
bias, temperature, causal / padding / boolean masks, the masked-rows policy, the cast), with the
runner's tolerances (lib/softmax/Runner/Compare.cpp). Checks, by category:

  softmax   plain softmax, f32/bf16/f16, widths 32..300000 (every plan: multi_row,
            row_registers, row_cluster (f32), row_staged (16-bit), chunked_online; the plan is checked too), on a
            non-default torch stream, into a poisoned out=
  alloc     the same through the allocating call (no out=), bf16 -> f32 out_dtype
  chain     scale, row bias, causal (bottom-right offset), log_softmax and a cast, 3-D, every
            width, f32/bf16/f16
  sampling  temperature (run-time scalar), boolean mask and padding lengths
  masked    fully masked rows: masked_rows='zero' (softmax) and 'nan' (log_softmax, as torch)
  dim       softmax over dim 0 and 1 (moved to the last axis, a documented copy)
  static    shapes='static'
  graph     captured in a CUDA graph (out= and allocating), replayed on poisoned outputs;
            a program whose first call (compile and kernel load) is inside the capture
  compile   the torch op inside torch.compile(fullgraph=True) (default and
            mode='reduce-overhead'), and the fake implementation's strides
  cupy      a CuPy array (skipped without CuPy)
  errors    a CPU tensor is refused with SoftmaxError

Prints one line a check, then a summary table last; exit 1 on any failure.

    SOFTMAX_C_LIBRARY=.../libsoftmax-c.so PYTHONPATH=python python3 scripts/gpu/python_check.py
    PYTHON_SECTIONS=compile,cupy,errors ...    (only those sections; names as in main())
"""
import math
import os
import sys
import time
import traceback

import torch

import softmax_compiler as sc
from softmax_compiler import torch_op

WIDTHS = [32, 100, 1000, 4096, 16384, 40000, 70000, 140000, 300000]
# The plan each width gets from the dynamic programs (python/tests/test_builder.py prints the
# same on the CPU; 1000 is not pinned: multi_row for f32, row_registers for 16-bit types).
PLANS = {32: "multi_row", 100: "multi_row", 4096: "row_registers", 16384: "row_registers"}
# Over 16384 columns f32 rows go to a thread-block cluster (sm_90, up to 16 blocks: 262144
# columns), 16-bit ones are staged in shared memory (row_staged: one block a row up to 115704
# columns; over a cluster past the 8-block row_cluster tier's 131072, up to 923512).
PLANS_F32 = {40000: "row_cluster", 70000: "row_cluster", 140000: "row_cluster",
             300000: "chunked_online"}
PLANS_16 = {40000: "row_staged_20", 70000: "row_staged_20", 140000: "row_staged_22",
            300000: "row_staged_22"}
DTYPES = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}
NAMES = {v: k for k, v in DTYPES.items()}
# The runner's tolerances: rtol one ulp of the storage type (f32: exp2.approx and the sum),
# an absolute floor (the smallest subnormal), and an absolute term per row proportional to its
# largest magnitude (for log-softmax at least 1).
RTOL = {"f32": 2e-6, "bf16": 8e-3, "f16": 1e-3}
ATOL_FLOOR = {"f32": 1.5e-45, "bf16": 9.2e-41, "f16": 5.97e-8}
ATOL_ROW = {False: 1e-6, True: 4e-6}
POISON = 3.0  # never a probability (<= 1) nor a log-probability (<= 0); exact in every type

results = []  # (category, name, ok, max_abs, note)


def f32(value):
    """`value` rounded to f32, as the kernels multiply by it."""
    return float(torch.tensor(value, dtype=torch.float32))


def randn(shape, dtype, seed, scale=3.0):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(*shape, device="cuda", dtype=torch.float32, generator=gen) *
            scale).to(dtype)  # never zeros


def reference(x, *, scale=None, bias=None, temperature=None, causal_offset=None, lengths=None,
              mask=None, log=False, masked_rows="zero", fill=float("-inf"), dim=-1):
    """The unfused chain in float64 by torch, in the order builder.py documents."""
    v = x.double()
    if dim != -1 and dim != x.dim() - 1:
        v = v.movedim(dim, -1)
    if scale is not None:
        v = v * f32(scale)
    if bias is not None:
        v = v + bias.double()
    if temperature is not None:
        v = v * f32(1.0 / temperature)
    removed = torch.zeros(v.shape, dtype=torch.bool, device=v.device)
    columns = torch.arange(v.shape[-1], device=v.device)
    if causal_offset is not None:
        queries = torch.arange(v.shape[-2], device=v.device)[:, None]
        removed |= columns[None, :] > queries + causal_offset
    if lengths is not None:
        removed |= columns >= lengths.long().unsqueeze(-1)
    if mask is not None:
        removed |= ~mask
    v = v.masked_fill(removed, fill)
    y = torch.log_softmax(v, dim=-1) if log else torch.softmax(v, dim=-1)
    if masked_rows == "zero":
        full = torch.isneginf(v).all(dim=-1, keepdim=True)
        y = torch.where(full, torch.full_like(y, float("-inf") if log else 0.0), y)
    if dim != -1 and dim != x.dim() - 1:
        y = y.movedim(-1, dim)
    return y


def compare(got, want64, log, dim=-1):
    """(mismatches, max_abs) of `got` against the float64 reference rounded to got's type; rows
    run along `dim`."""
    name = NAMES[got.dtype]
    want = want64.to(got.dtype).double().movedim(dim, -1)
    out = got.double().movedim(dim, -1)
    finite_want = torch.isfinite(want)
    magnitude = torch.where(finite_want, want.abs(), torch.zeros_like(want))
    row = magnitude.amax(dim=-1, keepdim=True)
    if log:
        row = row.clamp(min=1.0)
    atol = ATOL_FLOOR[name] + ATOL_ROW[log] * row
    both_nan = torch.isnan(out) & torch.isnan(want)
    same_inf = (torch.isinf(out) | torch.isinf(want)) & (out == want)
    finite = torch.isfinite(out) & finite_want
    diff = torch.where(finite, (out - want).abs(), torch.zeros_like(out))
    ok = both_nan | same_inf | (finite & (diff <= atol + RTOL[name] * want.abs()))
    return int((~ok).sum().item()), float(diff.max().item()) if diff.numel() else 0.0


def record(category, name, ok, max_abs=float("nan"), note=""):
    results.append((category, name, ok, max_abs, note))
    print(f"{'PASS' if ok else 'FAIL'} {category}/{name} max_abs {max_abs:.2e}"
          f"{'  ' + note if note else ''}", flush=True)


def check(category, name, got, want, log=False, note="", dim=-1):
    torch.cuda.synchronize()
    bad, max_abs = compare(got, want, log, dim)
    poisoned = int((got.double() == POISON).sum().item())
    notes = [note] if note else []
    if bad:
        notes.append(f"{bad} of {got.numel()} mismatches")
    if poisoned:
        notes.append(f"{poisoned} unwritten (poison)")
    record(category, name, bad == 0 and poisoned == 0, max_abs, ", ".join(notes))


def guarded(category, name, fn):
    """Runs one check; an exception is a failure of that check, not of the script."""
    try:
        fn()
    except Exception as error:  # noqa: BLE001 - every error is a reported failure
        detail = "".join(traceback.format_exception_only(type(error), error)).strip()
        record(category, name, False, note=f"{detail[:300]}")
        traceback.print_exc(limit=4)
        try:
            torch.cuda.synchronize()
        except Exception:  # noqa: BLE001 - a sticky error fails every later check anyway
            pass


def poisoned_like(x, dtype=None):
    return torch.full(x.shape, POISON, dtype=dtype or x.dtype, device=x.device)


def plan_of(spec_dtype, width, rows=37):
    """The kernel the plain dynamic program's plan picks at this width."""
    exe = sc.compile(sc.build_softmax_program(shape=(None, None), dtype=spec_dtype))
    return exe.plan("softmax", (rows, width), (rows, width))[0]["kernel"]


# ---------------------------------------------------------------------------------------------


def check_softmax(stream):
    for dname, dtype in DTYPES.items():
        for n in WIDTHS:
            def one(dname=dname, dtype=dtype, n=n):
                x = randn((37, n), dtype, seed=n)
                y = poisoned_like(x)
                want = reference(x)
                stream.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(stream):
                    # The package must take torch's current stream: this one.
                    handle = sc._torch_stream(0)
                    if handle != stream.cuda_stream:
                        raise AssertionError(f"launch stream {handle:#x}, torch's current "
                                             f"{stream.cuda_stream:#x}")
                    sc.softmax(x, out=y)
                stream.synchronize()
                kernel = plan_of(dname, n)
                expected = PLANS.get(n) or (PLANS_F32 if dname == "f32" else PLANS_16).get(n)
                note = kernel.split("softmax_0_")[-1]
                if expected and expected not in kernel:
                    record("softmax", f"plan/{dname}/{n}", False, note=f"{kernel}, expected "
                           f"{expected}")
                check("softmax", f"stream/{dname}/37x{n}", y, want, note=note)
            guarded("softmax", f"stream/{dname}/37x{n}", one)


def check_alloc():
    for dname, dtype in DTYPES.items():
        for n in (100, 4096, 70000):
            def one(dtype=dtype, n=n):
                x = randn((4, 9, n), dtype, seed=10 + n)
                # A freed poisoned block of the same size: the allocator is likely to hand it
                # to the output, so an unwritten element would show.
                del_me = poisoned_like(x)
                del del_me
                y = sc.softmax(x)
                if y.shape != x.shape or y.dtype != x.dtype or not y.is_contiguous():
                    raise AssertionError(f"output {tuple(y.shape)} {y.dtype} "
                                         f"contiguous={y.is_contiguous()}")
                check("alloc", f"{NAMES[dtype]}/4x9x{n}", y, reference(x))
            guarded("alloc", f"{dname}/4x9x{n}", one)

    def widen():
        x = randn((37, 4096), torch.bfloat16, seed=7)
        y = sc.softmax(x, out_dtype=torch.float32)
        if y.dtype != torch.float32:
            raise AssertionError(f"dtype {y.dtype}")
        check("alloc", "bf16->f32/37x4096", y, reference(x))
    guarded("alloc", "bf16->f32/37x4096", widen)


def check_chain():
    # scale, a bias per column, a causal mask aligned bottom-right (offset N - Q), log_softmax,
    # and a cast (f32 -> bf16, 16-bit -> f32).
    for dname, dtype in DTYPES.items():
        out_dtype = torch.bfloat16 if dtype == torch.float32 else torch.float32
        for n in WIDTHS:
            def one(dtype=dtype, out_dtype=out_dtype, n=n):
                b, q = 2, 16
                x = randn((b, q, n), dtype, seed=100 + n)
                bias = randn((n,), dtype, seed=200 + n, scale=1.0)
                options = dict(scale=0.3, bias=bias, causal=True, causal_offset=n - q, log=True,
                               out_dtype=out_dtype)
                y = poisoned_like(x, out_dtype)
                sc.softmax(x, out=y, **options)
                want = reference(x, scale=0.3, bias=bias, causal_offset=n - q, log=True)
                check("chain", f"{NAMES[dtype]}->{NAMES[out_dtype]}/{b}x{q}x{n}", y, want,
                      log=True)
            guarded("chain", f"{dname}/2x16x{n}", one)

    def attention():
        x = randn((4, 1024, 1024), torch.bfloat16, seed=5)
        y = poisoned_like(x)
        sc.softmax(x, out=y, scale=0.125, causal=True)
        check("chain", "attention-bf16/4x1024x1024", y, reference(x, scale=0.125,
                                                                  causal_offset=0))
    guarded("chain", "attention-bf16/4x1024x1024", attention)


def check_sampling():
    for n in (1000, 70000):
        def one(n=n):
            m = 37
            x = randn((m, n), torch.float32, seed=300 + n)
            gen = torch.Generator(device="cuda").manual_seed(n)
            mask = torch.rand((1, n), device="cuda", generator=gen) < 0.9
            lengths = torch.randint(1, n + 1, (m,), device="cuda", dtype=torch.int32,
                                    generator=gen)
            y = poisoned_like(x)
            sc.softmax(x, out=y, temperature=0.7, mask=mask, lengths=lengths)
            want = reference(x, temperature=0.7, mask=mask, lengths=lengths)
            check("sampling", f"f32/{m}x{n}", y, want)
            # Another temperature: the same compiled program (a run-time scalar).
            classes = len(sc.softmax_cache_info())
            sc.softmax(x, out=y, temperature=1.9, mask=mask, lengths=lengths)
            check("sampling", f"f32/{m}x{n}/T=1.9", y,
                  reference(x, temperature=1.9, mask=mask, lengths=lengths),
                  note="" if len(sc.softmax_cache_info()) == classes else "RECOMPILED")
            if len(sc.softmax_cache_info()) != classes:
                record("sampling", f"f32/{m}x{n}/no-recompile", False, note="a new temperature "
                       "compiled another program")
        guarded("sampling", f"f32/37x{n}", one)


def check_masked_rows():
    def zero():
        x = randn((64, 1000), torch.float16, seed=11)
        lengths = torch.arange(64, device="cuda", dtype=torch.int64) * 20 - 200  # <= 0: masked
        y = poisoned_like(x)
        sc.softmax(x, out=y, lengths=lengths)
        check("masked", "zero/softmax/f16/64x1000", y, reference(x, lengths=lengths),
              note=f"{int((lengths <= 0).sum())} rows fully masked")

    def nan():
        x = randn((64, 1000), torch.float32, seed=12)
        lengths = torch.arange(64, device="cuda", dtype=torch.int32) * 20 - 200
        y = poisoned_like(x)
        sc.softmax(x, out=y, lengths=lengths, log=True, masked_rows="nan")
        want = reference(x, lengths=lengths, log=True, masked_rows="nan")
        if not torch.isnan(want).any():
            raise AssertionError("the reference has no NaN row: the case tests nothing")
        check("masked", "nan/log_softmax/f32/64x1000", y, want, log=True)
    guarded("masked", "zero/softmax/f16/64x1000", zero)
    guarded("masked", "nan/log_softmax/f32/64x1000", nan)


def check_dim():
    for dim in (0, 1):
        def one(dim=dim):
            x = randn((64, 48, 100), torch.float32, seed=20 + dim)
            y = sc.softmax(x, dim)
            fake = torch_op.output_like(x, dim)
            if y.shape != x.shape or y.stride() != fake.stride():
                raise AssertionError(f"shape {tuple(y.shape)} strides {y.stride()}, the fake "
                                     f"implementation says {fake.stride()}")
            check("dim", f"dim={dim}/f32/64x48x100", y, reference(x, dim=dim), dim=dim)
            out = poisoned_like(x)
            sc.softmax(x, dim, out=out)
            check("dim", f"dim={dim}/out=/f32/64x48x100", out, reference(x, dim=dim), dim=dim)
        guarded("dim", f"dim={dim}", one)


def check_static():
    for dtype, n in ((torch.float32, 1000), (torch.bfloat16, 32), (torch.float16, 40000)):
        def one(dtype=dtype, n=n):
            x = randn((37, n), dtype, seed=30 + n)
            y = poisoned_like(x)
            sc.softmax(x, out=y, shapes="static")
            check("static", f"{NAMES[dtype]}/37x{n}", y, reference(x))
        guarded("static", f"{NAMES[dtype]}/37x{n}", one)


def check_graph():
    for dname, dtype in DTYPES.items():
        for n in WIDTHS:
            def one(dtype=dtype, n=n):
                x = randn((37, n), dtype, seed=40 + n)
                want = reference(x)
                y = poisoned_like(x)
                sc.softmax(x, out=y)  # compiled and loaded before the capture
                sc.softmax(x)
                torch.cuda.synchronize()
                graph = torch.cuda.CUDAGraph()
                with torch.cuda.graph(graph):
                    sc.softmax(x, out=y)
                    allocated = sc.softmax(x)  # from the graph's memory pool
                y.fill_(POISON)
                allocated.fill_(POISON)
                x.copy_(randn((37, n), dtype, seed=50 + n))  # new data, same buffers
                want = reference(x)
                graph.replay()
                torch.cuda.synchronize()
                check("graph", f"{NAMES[dtype]}/37x{n}/out=", y, want)
                check("graph", f"{NAMES[dtype]}/37x{n}/alloc", allocated, want)
            guarded("graph", f"{dname}/37x{n}", one)

    def chain():
        x = randn((2, 16, 4096), torch.bfloat16, seed=60)
        bias = randn((4096,), torch.bfloat16, seed=61, scale=1.0)
        options = dict(scale=0.3, bias=bias, causal=True, causal_offset=4096 - 16, log=True,
                       out_dtype=torch.float32)
        y = poisoned_like(x, torch.float32)
        sc.softmax(x, out=y, **options)
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            sc.softmax(x, out=y, **options)
        y.fill_(POISON)
        graph.replay()
        check("graph", "chain-bf16->f32/2x16x4096", y,
              reference(x, scale=0.3, bias=bias, causal_offset=4096 - 16, log=True), log=True)
    guarded("graph", "chain-bf16->f32/2x16x4096", chain)

    def first_launch():
        # Nothing compiled or loaded before the capture: a program no other check uses (its
        # scale) is compiled, and its kernel compiled and loaded, inside torch.cuda.graph's
        # capture (global mode; the module is loaded in the relaxed capture mode).
        x = randn((37, 777), torch.float32, seed=95)
        y = poisoned_like(x)
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            sc.softmax(x, scale=0.777, out=y)
        y.fill_(POISON)
        graph.replay()
        torch.cuda.synchronize()
        check("graph", "first-launch-in-capture/f32/37x777", y, reference(x, scale=0.777))
    guarded("graph", "first-launch-in-capture/f32/37x777", first_launch)


def check_compile():
    op = sc.register_torch_op()
    torch._dynamo.reset()

    def attention(s, bias):
        # torch ops around the custom op: Inductor compiles them and calls ours as a kernel.
        p = op(s * 2.0, -1, scale=0.0625, bias=bias, causal=True, out_dtype=torch.float32)
        return p, p.sum(dim=-1)

    def moved(x):
        return op(x, 0, log=True)

    compiled = torch.compile(attention, fullgraph=True)
    for n in (1000, 4096, 70000):
        def one(n=n):
            s = randn((2, 64, n), torch.bfloat16, seed=70 + n)
            bias = randn((1, 64, n), torch.float32, seed=80 + n, scale=1.0)
            got, sums = compiled(s, bias)
            p = reference(s.double() * 2.0, scale=0.0625, bias=bias, causal_offset=0)
            check("compile", f"fullgraph/bf16->f32/2x64x{n}", got, p)
            # The torch op after ours in the same graph: row sums, 1 within f32 rounding.
            err = float((sums.double() - p.sum(dim=-1)).abs().max())
            record("compile", f"fullgraph/row-sums/2x64x{n}", err <= 1e-4, err)
            direct = op(s * 2.0, -1, scale=0.0625, bias=bias, causal=True,
                        out_dtype=torch.float32)
            check("compile", f"eager-op/bf16->f32/2x64x{n}", direct, p)
        guarded("compile", f"fullgraph/2x64x{n}", one)

    def explain():
        s = randn((2, 64, 1000), torch.bfloat16, seed=90)
        bias = randn((1, 64, 1000), torch.float32, seed=91, scale=1.0)
        result = torch._dynamo.explain(attention)(s, bias)
        ok = result.graph_break_count == 0 and result.graph_count == 1
        record("compile", "explain/no-graph-break", ok,
               note=f"graphs {result.graph_count}, breaks {result.graph_break_count}")
    guarded("compile", "explain/no-graph-break", explain)

    def dim0():
        x = randn((48, 8, 1000), torch.float32, seed=92)
        got = torch.compile(moved, fullgraph=True)(x)
        check("compile", "fullgraph/dim=0/log/f32/48x8x1000", got, reference(x, dim=0, log=True),
              log=True, dim=0)
    guarded("compile", "fullgraph/dim=0/log", dim0)

    def cudagraphs():
        x = randn((64, 4096), torch.float16, seed=93)

        def f(x):
            return op(x, -1, temperature=0.5)
        g = torch.compile(f, mode="reduce-overhead", fullgraph=True)
        for _ in range(3):  # warm-up, record, replay
            got = g(x)
        got = got.clone()
        check("compile", "reduce-overhead/f16/64x4096", got, reference(x, temperature=0.5))
    guarded("compile", "reduce-overhead/f16/64x4096", cudagraphs)


def check_cupy():
    try:
        import cupy
    except ImportError:
        record("cupy", "skipped", True, note="no CuPy")
        return

    def one():
        x = cupy.random.default_rng(1).standard_normal((37, 4096), dtype=cupy.float32) * 3
        y = sc.softmax(x)
        cupy.cuda.get_current_stream().synchronize()
        got = torch.as_tensor(y, device="cuda")
        check("cupy", "f32/37x4096", got, reference(torch.as_tensor(x, device="cuda")))
    guarded("cupy", "f32/37x4096", one)


def check_errors():
    def cpu():
        try:
            sc.softmax(torch.randn(4, 100))
        except sc.SoftmaxError as error:
            record("errors", "cpu-tensor", "CPU" in str(error), note=str(error)[:80])
        else:
            record("errors", "cpu-tensor", False, note="no error")
    guarded("errors", "cpu-tensor", cpu)


def host_time():
    """Host time a call, small shape, the stream synchronised only at the end."""
    x = torch.randn(4, 128, device="cuda")
    y = torch.empty_like(x)
    exe = sc.compile(sc.build_softmax_program(shape=(None, None), dtype="f32"))
    rows = []
    for label, fn in (("softmax_compiler.softmax(x)", lambda: sc.softmax(x)),
                      ("softmax_compiler.softmax(x, out=y)", lambda: sc.softmax(x, out=y)),
                      ("Executable.run", lambda: exe.run("softmax", x, y)),
                      ("torch.softmax(x, -1)", lambda: torch.softmax(x, -1))):
        for _ in range(200):
            fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(2000):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        torch.cuda.synchronize()
        times.sort()
        rows.append((label, times[len(times) // 2] * 1e6, times[len(times) * 9 // 10] * 1e6))
    for label, median, p90 in rows:
        print(f"TIME host us/call 4x128 f32 {label:<36} median {median:6.1f} p90 {p90:6.1f}")
    return rows


def main():
    if not torch.cuda.is_available():
        print("python_check: torch sees no CUDA device", file=sys.stderr)
        return 2
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name(0)}, "
          f"library {os.environ.get('SOFTMAX_C_LIBRARY', '(default)')}", flush=True)
    start = time.time()
    stream = torch.cuda.Stream()
    sections = [("softmax", lambda: check_softmax(stream)), ("alloc", check_alloc),
                ("chain", check_chain), ("sampling", check_sampling),
                ("masked", check_masked_rows), ("dim", check_dim), ("static", check_static),
                ("graph", check_graph), ("compile", check_compile), ("cupy", check_cupy),
                ("errors", check_errors)]
    # PYTHON_SECTIONS=compile,cupy (say) runs only those sections (a call short of device time).
    only = [n for n in os.environ.get("PYTHON_SECTIONS", "").split(",") if n]
    unknown = [n for n in only if n not in dict(sections)]
    if unknown:
        print(f"python_check: unknown PYTHON_SECTIONS {unknown}; sections: "
              f"{', '.join(n for n, _ in sections)}", file=sys.stderr)
        return 2
    if only:
        sections = [(n, f) for n, f in sections if n in only]
    seconds = {}
    for name, section in sections:
        t0 = time.time()
        guarded(name, "section", section)
        seconds[name] = time.time() - t0
    timing = []
    try:
        timing = host_time()
    except Exception:  # noqa: BLE001 - timing is informative, not a check
        traceback.print_exc(limit=4)

    print()
    print(f"== python_check: softmax_compiler on {torch.cuda.get_device_name(0)}, "
          f"{time.time() - start:.0f} s")
    print(f"{'category':<10} {'checks':>6} {'passed':>6} {'failed':>6} {'max_abs':>10} {'sec':>5}")
    for name, _ in sections:
        rows = [r for r in results if r[0] == name]
        failed = sum(1 for r in rows if not r[2])
        errors = [r[3] for r in rows if r[2] and not math.isnan(r[3])]
        max_abs = f"{max(errors):.2e}" if errors else "-"
        print(f"{name:<10} {len(rows):>6} {len(rows) - failed:>6} {failed:>6} {max_abs:>10} "
              f"{seconds.get(name, 0):>5.0f}")
    for label, median, p90 in timing:
        print(f"host us/call (4x128 f32) {label:<36} median {median:6.1f} p90 {p90:6.1f}")
    failed = [r for r in results if not r[2]]
    for r in failed:
        print(f"FAILED {r[0]}/{r[1]}: {r[4]}")
    print(f"summary: {len(results)} checks, {len(results) - len(failed)} passed, "
          f"{len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
