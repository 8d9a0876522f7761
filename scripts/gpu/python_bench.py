#!/usr/bin/env python3
"""The Python package beside torch and Triton, in one process on the GPU machine (issue 9,
docs/python.md). Two parts:

1. Host overhead a call on a small shape (4x128 f32, the kernels take ~2 us there): the
   median wall time of single calls (time.perf_counter around each, the stream synchronised
   every 500 calls outside the timing) of softmax_compiler.softmax (the allocating fast path,
   and with out=), Executable.run, the torch op, torch.softmax, a torch.compile'd softmax and
   the seed's Triton kernel; and the pieces of the fast path (torch calls, the ctypes call) to
   show where the time goes. Goal: <= 10 us a call.
1b. The first call of a new program: compile up to the kernels, the launched kernels' compile
   and load, the launch (the compile time a user sees), beside a compile of every kernel.
2. Bandwidth on the same tensors (>= 256 MiB, far above the 60 MB L2), each system as a fraction
   of a device-to-device copy of the same bytes (one read of the input, one write of the
   output) measured in the same process: ours through softmax(out=) with a dynamic program
   (one compile per dtype) and a static one (a compile per shape), torch eager, torch.compile
   (default: a static graph per shape; and dynamic=True) and the seed's row-per-program Triton
   kernel; f32 and bf16 at N = 128, 1024, 4096, 16384, 32768, and the attention chain (bf16
   16x4096x4096: scale, causal mask, softmax, as compare.py). Timed with
   triton.testing.do_bench (CUDA events, median, L2 flushed before each run). Ours and each
   other system are checked once against torch eager (a coarse check: the full one is
   python_check.py).

    python_bench.py OUT.json [--commit SHA] [--budget-s 150]

Writes OUT.json ({"header": ..., "host": [...], "first": [...], "rows": [...]}) and prints the tables last.
Past the time budget the remaining torch.compile measurements are recorded as skipped.
"""
import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
import traceback

MIB256 = 1 << 28
WIDTHS = [128, 1024, 4096, 16384, 32768]
DTYPES = ["f32", "bf16"]
ELEM_BYTES = {"f32": 4, "bf16": 2}
ATTENTION_SHAPE = (16, 4096, 4096)
ATTENTION_SCALE = 0.088388
HOST_SHAPE = (4, 128)
HOST_CALLS = 5000
SYNC_EVERY = 500
SYSTEMS = ["ours-dynamic", "ours-static", "torch-eager", "torch-compile", "torch-compile-dyn",
           "triton"]


def now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def header(args, torch, triton):
    h = dict(date=now(), commit=args.commit, host=platform.node(), python=sys.version.split()[0],
             torch=torch.__version__, triton=triton.__version__, cuda=torch.version.cuda,
             gpu=torch.cuda.get_device_name(0), library=os.environ.get("SOFTMAX_C_LIBRARY"),
             command=" ".join(sys.argv), budget_s=args.budget_s)
    try:
        smi = subprocess.run(["nvidia-smi", "--query-gpu=driver_version,clocks.max.sm",
                              "--format=csv,noheader"], capture_output=True, text=True, timeout=30)
        h["nvidia_smi"] = smi.stdout.strip()
    except Exception as error:  # noqa: BLE001 - informative only
        h["nvidia_smi"] = f"error: {error}"
    return h


# ----------------------------------------------------------------------------------------------
# The seed's Triton kernels (/work/shared/seeds: one program a row, the row in one register
# tile, -inf in masked lanes), as scripts/gpu/compare.py has them.
# ----------------------------------------------------------------------------------------------


def triton_kernels(triton, tl):
    @triton.jit
    def row_softmax_kernel(out_ptr, in_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
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

    def softmax(x, out):
        n = x.shape[-1]
        block = triton.next_power_of_2(n)
        row_softmax_kernel[(x.numel() // n,)](out, x, n, BLOCK_SIZE=block,
                                              num_warps=warps_for(block))
        return out

    def attention(x, out):
        b, s, n = x.shape
        block = triton.next_power_of_2(n)
        attention_row_kernel[(b * s,)](out, x, n, s, ATTENTION_SCALE, BLOCK_SIZE=block,
                                       num_warps=warps_for(block))
        return out

    return softmax, attention


# ----------------------------------------------------------------------------------------------
# 1. Host overhead
# ----------------------------------------------------------------------------------------------


def per_call_us(torch, fn, calls=HOST_CALLS):
    """(median, p90) wall microseconds of single calls, after a warm-up."""
    for _ in range(200):
        fn()
    torch.cuda.synchronize()
    times = []
    perf = time.perf_counter
    for i in range(calls):
        if i % SYNC_EVERY == 0:
            torch.cuda.synchronize()  # the queue never fills: host time, not device time
        t0 = perf()
        fn()
        times.append(perf() - t0)
    torch.cuda.synchronize()
    times.sort()
    return times[len(times) // 2] * 1e6, times[len(times) * 9 // 10] * 1e6


def loop_us(fn, calls=20000):
    """Mean microseconds a call of a host-only function (no launch), timed as one loop."""
    for _ in range(100):
        fn()
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - t0) / calls * 1e6


def host_overhead(torch, sc, op, triton_softmax):
    x = torch.randn(*HOST_SHAPE, device="cuda")
    y = torch.empty_like(x)
    exe = sc.compile(sc.build_softmax_program(shape=(None, None), dtype="f32"))
    sc.softmax(x)  # compiles the shape class (the fast path needs an entry)

    def eager_softmax(t):
        return torch.softmax(t, -1)
    compiled = torch.compile(eager_softmax)
    from softmax_compiler import _softmax
    entry = _softmax._cache[(torch.float32, None, False, "zero")]
    launcher = entry.launcher
    stream = torch._C._cuda_getCurrentRawStream(0)

    def raw_launch():
        with launcher.lock:
            error = launcher.launch2d(x.data_ptr(), y.data_ptr(), 4, 128, stream)
        if error:
            sc._check(error)

    calls = [
        ("softmax_compiler.softmax(x)", lambda: sc.softmax(x)),
        ("softmax_compiler.softmax(x, out=y)", lambda: sc.softmax(x, out=y)),
        ("Executable.run('softmax', x, y)", lambda: exe.run("softmax", x, y)),
        ("torch.ops.softmax_compiler.softmax(x)", lambda: op(x)),
        ("launcher.launch2d (ctypes + C API only)", raw_launch),
        ("torch.softmax(x, -1)", lambda: torch.softmax(x, -1)),
        ("torch.compile(softmax)(x)", lambda: compiled(x)),
        ("triton seed kernel", lambda: triton_softmax(x, y)),
    ]
    rows = []
    for label, fn in calls:
        try:
            median, p90 = per_call_us(torch, fn)
            rows.append(dict(call=label, kind="call", median_us=median, p90_us=p90))
        except Exception as error:  # noqa: BLE001 - one failing row must not stop the bench
            traceback.print_exc(limit=3)
            rows.append(dict(call=label, kind="call", error=f"{type(error).__name__}: "
                                                             f"{str(error)[:300]}"))
        print(f"host {label}: {rows[-1]}", flush=True)

    def lock_round_trip():
        with launcher.lock:
            pass

    # Where the fast path's time goes: its pieces on their own (no launch).
    pieces = [
        ("x.is_contiguous()", lambda: x.is_contiguous()),
        ("x.numel()", lambda: x.numel()),
        ("x.get_device()", lambda: x.get_device()),
        ("x.data_ptr()", lambda: x.data_ptr()),
        ("torch.empty_like(x, dtype=)", lambda: torch.empty_like(x, dtype=torch.float32)),
        ("_cuda_getCurrentRawStream(0)", lambda: torch._C._cuda_getCurrentRawStream(0)),
        ("cache key + dict lookup", lambda: _softmax._cache.get((x.dtype, None, False, "zero"))),
        ("launcher.lock acquire/release", lock_round_trip),
    ]
    for label, fn in pieces:
        try:
            rows.append(dict(call=label, kind="piece", median_us=loop_us(fn), p90_us=None))
        except Exception as error:  # noqa: BLE001
            rows.append(dict(call=label, kind="piece", error=str(error)[:300]))
    torch.cuda.synchronize()
    return rows


# ----------------------------------------------------------------------------------------------
# 1b. The first call of a new program (compile time as a user sees it)
# ----------------------------------------------------------------------------------------------

FIRST_CALLS = [
    # (label, build_softmax_program options, the call's input shape, its dtype)
    ("f32 dynamic softmax, 64x4096", dict(shape=(None, None), dtype="f32"), (64, 4096), "f32"),
    ("bf16 dynamic softmax, 64x3000", dict(shape=(None, None), dtype="bf16"), (64, 3000), "bf16"),
    ("bf16 dynamic attention (scale, causal), 2x1024x1024",
     dict(shape=(None, None, None), dtype="bf16", scale=0.125, causal=True), (2, 1024, 1024),
     "bf16"),
    ("f32 static softmax, 4096x4096", dict(shape=(4096, 4096), dtype="f32"), (4096, 4096), "f32"),
]


def first_calls(torch, sc):
    """Wall time of a program's first call (compile() up to the kernels, the launched kernels'
    compile and module load, the launch, a synchronisation), with the in-memory cache emptied
    and the disk cache off, the minimum of 3; beside it the second call, and a compile of every
    kernel (compile() and then the PTX: what a first call cost before kernels were compiled on
    first use, the driver's load of every module not counted)."""
    torch_types = {"f32": torch.float32, "bf16": torch.bfloat16}
    rows = []
    for label, options, shape, dname in FIRST_CALLS:
        try:
            source = sc.build_softmax_program(**options)
            x = torch.randn(*shape, device="cuda", dtype=torch_types[dname])
            y = torch.empty_like(x)
            first, second, every = [], [], []
            for _ in range(3):
                sc.cache_clear()
                t0 = time.perf_counter()
                exe = sc.compile(source, cache_dir="off")
                exe.run("softmax", x, y)
                torch.cuda.synchronize()
                t1 = time.perf_counter()
                exe.run("softmax", x, y)
                torch.cuda.synchronize()
                t2 = time.perf_counter()
                first.append((t1 - t0) * 1e3)
                second.append((t2 - t1) * 1e3)
                sc.cache_clear()
                t0 = time.perf_counter()
                kernels = len(sc.compile(source, cache_dir="off").ptx.split("// gpu.binary @")) - 1
                every.append((time.perf_counter() - t0) * 1e3)
            rows.append(dict(call=label, first_ms=min(first), second_ms=min(second),
                             all_kernels_ms=min(every), kernels=kernels))
        except Exception as error:  # noqa: BLE001 - one failing row must not stop the bench
            traceback.print_exc(limit=3)
            rows.append(dict(call=label, error=f"{type(error).__name__}: {str(error)[:300]}"))
        print(f"first call {label}: {rows[-1]}", flush=True)
    return rows


# ----------------------------------------------------------------------------------------------
# 2. Bandwidth
# ----------------------------------------------------------------------------------------------


def bandwidth(torch, sc, do_bench, triton_softmax, triton_attention, deadline):
    torch._dynamo.config.automatic_dynamic_shapes = False  # static: a graph per shape
    torch._dynamo.config.cache_size_limit = 64
    if hasattr(torch._dynamo.config, "accumulated_cache_size_limit"):
        torch._dynamo.config.accumulated_cache_size_limit = 256

    def softmax_static(x):
        return torch.softmax(x, -1)

    def softmax_dynamic(x):  # another code object: another dynamo cache
        return torch.softmax(x, -1)

    def attention_static(x):
        s, n = x.shape[-2], x.shape[-1]
        q = torch.arange(s, device=x.device)[:, None]
        k = torch.arange(n, device=x.device)[None, :]
        y = torch.where(k > q, float("-inf"), x.float() * ATTENTION_SCALE)
        return torch.softmax(y, dim=-1).to(torch.bfloat16)

    def attention_dynamic(x):
        s, n = x.shape[-2], x.shape[-1]
        q = torch.arange(s, device=x.device)[:, None]
        k = torch.arange(n, device=x.device)[None, :]
        y = torch.where(k > q, float("-inf"), x.float() * ATTENTION_SCALE)
        return torch.softmax(y, dim=-1).to(torch.bfloat16)

    compiled = {"softmax": (torch.compile(softmax_static, dynamic=False),
                            torch.compile(softmax_dynamic, dynamic=True)),
                "attention": (torch.compile(attention_static, dynamic=False),
                              torch.compile(attention_dynamic, dynamic=True))}
    torch_dtype = {"f32": torch.float32, "bf16": torch.bfloat16}

    cases = [("softmax", d, (-(-MIB256 // (n * ELEM_BYTES[d])), n)) for d in DTYPES
             for n in WIDTHS]
    cases.append(("attention", "bf16", ATTENTION_SHAPE))
    rows = []
    for program, dname, shape in cases:
        dtype = torch_dtype[dname]
        numel = 1
        for size in shape:
            numel *= size
        ideal = 2 * numel * ELEM_BYTES[dname]  # one read, one write
        gen = torch.Generator(device="cuda").manual_seed(len(rows) + 1)
        x = (torch.randn(*shape, device="cuda", dtype=torch.float32, generator=gen) * 3).to(dtype)
        y = torch.empty_like(x)
        src = torch.empty(ideal // 2, dtype=torch.uint8, device="cuda").fill_(0x3F)
        dst = torch.empty_like(src)
        copy_us = do_bench(lambda: dst.copy_(src), return_mode="median") * 1e3
        src = dst = None  # freed (the lambdas above are done with them)
        if program == "softmax":
            reference = torch.softmax(x, -1)
            options = {}
            seed = triton_softmax
            static_fn, dynamic_fn = compiled["softmax"]
            eager = lambda: torch.softmax(x, -1)  # noqa: E731
        else:
            reference = attention_static(x)
            options = dict(scale=ATTENTION_SCALE, causal=True)
            seed = triton_attention
            static_fn, dynamic_fn = compiled["attention"]
            eager = lambda: attention_static(x)  # noqa: E731
        tolerance = 1e-5 if dname == "f32" else 2e-2
        systems = [
            ("ours-dynamic", lambda: sc.softmax(x, out=y, **options), y, False),
            ("ours-static", lambda: sc.softmax(x, out=y, shapes="static", **options), y, False),
            ("torch-eager", eager, None, False),
            ("triton", lambda: seed(x, y), y, False),
            ("torch-compile", lambda: static_fn(x), None, True),
            ("torch-compile-dyn", lambda: dynamic_fn(x), None, True),
        ]
        for system, fn, out, is_compile in systems:
            row = dict(program=program, dtype=dname, shape=list(shape), system=system,
                       ideal_bytes=ideal, copy_us=copy_us, time_us=None, fraction=None,
                       gbps=None, max_abs_vs_eager=None, error=None)
            if is_compile and time.time() > deadline:
                row["error"] = "skipped: time budget"
                rows.append(row)
                continue
            try:
                if out is not None:
                    out.fill_(float("nan"))
                t0 = time.time()
                result = fn()  # compiles where it must, outside the timing
                torch.cuda.synchronize()
                row["first_call_s"] = time.time() - t0
                got = out if out is not None else result
                err = float((got.float() - reference.float()).abs().max())
                row["max_abs_vs_eager"] = err
                if not err <= tolerance:  # NaN fails too
                    row["error"] = f"MISMATCH vs torch eager: max abs {err:.3g}"
                result = got = None
                us = do_bench(fn, return_mode="median") * 1e3
                row.update(time_us=us, fraction=copy_us / us, gbps=ideal / us / 1e3)
            except Exception as error:  # noqa: BLE001 - one failing system must not stop the run
                traceback.print_exc(limit=3)
                row["error"] = f"{type(error).__name__}: {str(error)[:300]}"
                torch.cuda.synchronize()
            rows.append(row)
            print(f"{program} {dname} {'x'.join(map(str, shape))} {system}: "
                  f"{fmt(row['fraction'])} x copy{'  ' + row['error'] if row['error'] else ''}",
                  flush=True)
        x = y = reference = None  # freed before the next case's tensors
        torch.cuda.empty_cache()
    return rows


def fmt(value, spec=".3f"):
    return "-" if value is None else format(value, spec)


def print_tables(result):
    h = result["header"]
    print()
    print(f"== python_bench: softmax_compiler on {h['gpu']}, commit {h['commit']}, "
          f"{h['date']}, torch {h['torch']}, triton {h['triton']}, {h.get('seconds', 0):.0f} s")
    print(f"host time a call, {HOST_SHAPE[0]}x{HOST_SHAPE[1]} f32 (median / p90 us of "
          f"{HOST_CALLS} single calls; pieces: mean of a loop, no launch):")
    for r in result["host"]:
        value = (f"{fmt(r.get('median_us'), '7.2f')} / {fmt(r.get('p90_us'), '7.2f')}"
                 if "error" not in r else r["error"][:60])
        print(f"  {r['kind']:<5} {r['call']:<42} {value}")
    print("first call of a new program (compile, kernel load, launch, sync; ms, min of 3), the "
          "second call, and a compile of every kernel:")
    for r in result.get("first", []):
        value = (f"{r['first_ms']:8.1f} {r['second_ms']:8.3f} {r['all_kernels_ms']:8.1f} "
                 f"({r['kernels']} kernels)" if "error" not in r else r["error"][:60])
        print(f"  {r['call']:<54} {value}")
    print("bandwidth, fraction of a device-to-device copy of the same bytes (higher is "
          "better; * = mismatch or error, see JSON):")
    print(f"  {'case':<10} {'dtype':<5} {'shape':<16} {'copy_us':>8} " +
          " ".join(f"{s:>17}" for s in SYSTEMS))
    by_case = {}
    for r in result["rows"]:
        by_case.setdefault((r["program"], r["dtype"], tuple(r["shape"])), {})[r["system"]] = r
    for (program, dname, shape), systems in by_case.items():
        copy_us = next(iter(systems.values()))["copy_us"]
        cells = []
        for s in SYSTEMS:
            r = systems.get(s)
            if r is None:
                cells.append(f"{'':>17}")
                continue
            mark = "*" if r["error"] else ""
            cells.append(f"{fmt(r['fraction']) + mark:>17}")
        print(f"  {program:<10} {dname:<5} {'x'.join(map(str, shape)):<16} "
              f"{fmt(copy_us, '8.1f')} " + " ".join(cells))
    errors = [r for r in result["rows"] if r["error"]]
    print(f"rows: {len(result['rows'])}, with errors or skipped: {len(errors)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", help="the JSON file to write")
    parser.add_argument("--commit", default=os.environ.get("SOFTMAX_COMMIT", "unknown"))
    parser.add_argument("--budget-s", type=float, default=150.0,
                        help="past this many seconds, skip the remaining torch.compile rows")
    args = parser.parse_args()
    start = time.time()
    deadline = start + args.budget_s

    import torch
    import triton
    import triton.language as tl
    from triton.testing import do_bench

    import softmax_compiler as sc
    op = sc.register_torch_op()
    triton_softmax, triton_attention = triton_kernels(triton, tl)
    result = dict(header=header(args, torch, triton), host=[], first=[], rows=[])
    status = 0
    # Each part on its own: a failure in one still leaves the other's numbers.
    try:
        result["host"] = host_overhead(torch, sc, op, triton_softmax)
    except Exception:  # noqa: BLE001 - write what there is
        traceback.print_exc()
        status = 1
    try:
        result["first"] = first_calls(torch, sc)
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        status = 1
    try:
        result["rows"] = bandwidth(torch, sc, do_bench, triton_softmax, triton_attention,
                                   deadline)
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        status = 1
    result["header"]["seconds"] = time.time() - start
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
    print(f"wrote {args.out}")
    print_tables(result)
    mismatches = [r for r in result["rows"] if r["error"] and r["error"].startswith("MISMATCH")
                  and r["system"].startswith("ours")]
    return 1 if status or mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
