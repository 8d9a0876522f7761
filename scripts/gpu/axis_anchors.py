#!/usr/bin/env python3
"""The other systems on a softmax over a non-last axis, in one process on the GPU machine: the
anchors of `scripts/gpu/run.sh axis-bench` (issue 13; docs/performance.md).

    axis_anchors.py OUT.json [--commit C] [--budget-s 240] [--only SUBSTRING]

For each shape of axis-bench (a tensor of about 256 MiB, [B, C, inner] over C and [B, H, S] over
the heads, f32, bf16 and f16), in this process:
  - a device-to-device copy of the same bytes (torch `copy_`);
  - torch eager, `torch.softmax(x, dim)`;
  - torch.compile of the same function, static (a compile a shape) and dynamic=True (one compile
    for every shape of a dtype);
  - a Triton kernel written for the layout (`column_softmax`, below): a program takes a block of
    contiguous columns and walks the axis, the column in registers where it fits a tile, else
    two passes (an online max and sum, then the normalisation); its tile is the fastest of a few
    configurations measured here, as triton.autotune would pick it.
Every time is do_bench's median; every fraction is the copy's time / the system's. Each output is
compared with torch eager's (max abs error recorded) so that a fast wrong kernel shows. Past the
time budget the remaining measurements are recorded as skipped. Prints a table last.
"""
import argparse
import datetime
import json
import platform
import sys
import time

MIB256 = 1 << 28
ELEM_BYTES = {"f32": 4, "bf16": 2, "f16": 2}
TORCH_DTYPE = {"f32": "float32", "bf16": "bfloat16", "f16": "float16"}


INV_TEMPERATURE = 0.7  # softmax-run's default --scalar


def shapes(dtype):
    """(name, shape, dim, kind) as axis-bench's cases: the same sizes, 256 MiB of `dtype`, and
    its fused chains over C = 64, 512, 2048 and 4096: `scaled` (bf16 by 0.125), `temp` (bf16 by
    the inverse temperature, to f32), `log` (f32 log_softmax)."""
    s = 4 // ELEM_BYTES[dtype]
    cases = [(f"c{c}", (b * s, c, inner), 1, "softmax") for c, b, inner in [
        (8, 2048, 4096), (64, 256, 4096), (512, 32, 4096), (1024, 16, 4096), (1500, 11, 4096),
        (2048, 8, 4096), (3000, 6, 4096), (4096, 4, 4096), (16384, 1, 4096)]]
    cases.insert(3, ("c512i1k", (128 * s, 512, 1024), 1, "softmax"))
    cases += [("h16", (1024 * s, 16, 4096), -2, "softmax"),
              ("h12", (5462 * s, 12, 1024), -2, "softmax")]
    for c in (64, 512, 2048, 4096):
        b = 16384 // c
        if dtype == "bf16":
            cases += [(f"scaled_c{c}", (2 * b, c, 4096), 1, "scaled"),
                      (f"temp_c{c}", (2 * b, c, 4096), 1, "temp")]
        if dtype == "f32":
            cases.append((f"log_c{c}", (b, c, 4096), 1, "log"))
    return cases


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--commit", default=None)
    parser.add_argument("--budget-s", type=float, default=240)
    parser.add_argument("--only", default=None, help="cases whose name (e.g. c512_bf16) has this")
    args = parser.parse_args()
    start = time.time()

    import torch
    import triton
    import triton.language as tl
    from triton.testing import do_bench

    torch._dynamo.config.automatic_dynamic_shapes = False
    torch._dynamo.config.cache_size_limit = 1024
    if hasattr(torch._dynamo.config, "accumulated_cache_size_limit"):
        torch._dynamo.config.accumulated_cache_size_limit = 4096

    @triton.jit
    def column_softmax(out_ptr, in_ptr, C, inner, scale, BLOCK_C: tl.constexpr,
                       BLOCK_N: tl.constexpr, ONE_TILE: tl.constexpr, LOG: tl.constexpr):
        # Program (column block, outer index): BLOCK_N contiguous columns, the axis in tiles of
        # BLOCK_C rows; f32 arithmetic; a column of -inf would give NaN (inputs here are finite).
        cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
        base = tl.program_id(1).to(tl.int64) * C * inner
        col_ok = cols < inner
        rows = tl.arange(0, BLOCK_C)
        if ONE_TILE:
            mask = (rows[:, None] < C) & col_ok[None, :]
            offs = base + rows[:, None].to(tl.int64) * inner + cols[None, :]
            x = tl.load(in_ptr + offs, mask=mask, other=-float("inf")).to(tl.float32) * scale
            d = x - tl.max(x, axis=0)[None, :]
            e = tl.exp(d)
            if LOG:
                y = d - tl.log(tl.sum(e, axis=0))[None, :]
            else:
                y = e / tl.sum(e, axis=0)[None, :]
            tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=mask)
        else:
            m = tl.full([BLOCK_N], -float("inf"), tl.float32)
            s = tl.zeros([BLOCK_N], tl.float32)
            for c0 in range(0, C, BLOCK_C):
                r = c0 + rows
                mask = (r[:, None] < C) & col_ok[None, :]
                offs = base + r[:, None].to(tl.int64) * inner + cols[None, :]
                x = tl.load(in_ptr + offs, mask=mask, other=-float("inf")).to(tl.float32) * scale
                new_m = tl.maximum(m, tl.max(x, axis=0))
                s = s * tl.exp(m - new_m) + tl.sum(tl.exp(x - new_m[None, :]), axis=0)
                m = new_m
            inv = 1.0 / s
            log_s = tl.log(s)
            for c0 in range(0, C, BLOCK_C):
                r = c0 + rows
                mask = (r[:, None] < C) & col_ok[None, :]
                offs = base + r[:, None].to(tl.int64) * inner + cols[None, :]
                x = tl.load(in_ptr + offs, mask=mask, other=-float("inf")).to(tl.float32) * scale
                if LOG:
                    y = x - m[None, :] - log_s[None, :]
                else:
                    y = tl.exp(x - m[None, :]) * inv[None, :]
                tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=mask)

    def triton_configs(c, elem):
        """(BLOCK_C, BLOCK_N, warps, one tile) to try: one tile holding the column where it
        fits 16K values a program, else tiles of the axis; slices of 64 and 128 bytes."""
        configs = []
        whole = triton.next_power_of_2(c)
        for slice_bytes in (64, 128):
            n = slice_bytes // elem
            if whole * n <= 16384:
                configs += [(whole, n, 4, True), (whole, n, 8, True)]
            else:
                configs += [(bc, n, 4, False) for bc in (16, 64) if bc * n <= 8192]
        return configs

    def run_triton(x, out, dim, cfg, scale=1.0, log=False):
        bc, n, warps, one = cfg
        shape = x.shape
        d = dim % x.dim()
        outer = 1
        for v in shape[:d]:
            outer *= v
        c = shape[d]
        inner = x.numel() // (outer * c)
        grid = (triton.cdiv(inner, n), outer)
        column_softmax[grid](out, x, c, inner, scale, BLOCK_C=bc, BLOCK_N=n, ONE_TILE=one,
                             LOG=log, num_warps=warps)
        return out

    def bench_us(fn):
        return do_bench(fn, return_mode="median") * 1000.0

    records = []

    def rec(system, variant, name, dtype, shape, dim, us=None, copy_us=None, **extra):
        r = dict(system=system, variant=variant, case=f"{name}_{dtype}", dtype=dtype,
                 shape=list(shape), dim=dim, time_us=us, copy_us=copy_us,
                 fraction=(copy_us / us) if us and copy_us else None)
        r.update(extra)
        records.append(r)
        frac = r["fraction"]
        print(f"{system:<14} {variant:<8} {r['case']:<14} "
              f"{'-' if frac is None else f'{frac:.3f}'} {extra.get('error', '')}", flush=True)

    def measure(system, variant, name, dtype, shape, dim, fn, ref, copy_us, **extra):
        if time.time() > start + args.budget_s:
            rec(system, variant, name, dtype, shape, dim, copy_us=copy_us,
                error="skipped: time budget")
            return
        try:
            y = fn()
            torch.cuda.synchronize()
            err = (y.float() - ref.float()).abs().max().item()
            rec(system, variant, name, dtype, shape, dim, bench_us(fn), copy_us,
                max_abs_error_vs_eager=err, **extra)
        except Exception as e:
            rec(system, variant, name, dtype, shape, dim, copy_us=copy_us,
                error=f"{type(e).__name__}: {str(e)[:300]}")
            torch.cuda.synchronize()

    def inputs(shape, tdtype):
        gen = torch.Generator(device="cuda").manual_seed(1)
        return torch.randn(*shape, device="cuda", dtype=tdtype, generator=gen)  # never zeros

    # The programs, as axis-bench's: one function for eager and static compile, another code
    # object (a dynamo cache of its own) for dynamic=True.
    def make_fns(kind):
        def f(x, dim):
            if kind == "scaled":
                return torch.softmax(x * 0.125, dim=dim)
            if kind == "temp":
                return torch.softmax(x.float() * INV_TEMPERATURE, dim=dim)
            if kind == "log":
                return torch.log_softmax(x, dim=dim)
            return torch.softmax(x, dim=dim)

        def g(x, dim):
            return f(x, dim)
        return f, g

    fns = {kind: make_fns(kind) for kind in ("softmax", "scaled", "temp", "log")}
    triton_args = {"softmax": (1.0, False), "scaled": (0.125, False),
                   "temp": (INV_TEMPERATURE, False), "log": (1.0, True)}

    # Cheap first, so that a run out of time loses the compiles: per dtype, the copy, eager,
    # Triton and torch.compile(dynamic=True) (one compile for all the shapes) on each shape; then
    # torch.compile static, a fresh compile a shape.
    copies = {}
    for dtype in ("f32", "bf16", "f16"):
        tdtype = getattr(torch, TORCH_DTYPE[dtype])
        cases = [c for c in shapes(dtype) if not args.only or args.only in f"{c[0]}_{dtype}"]
        torch._dynamo.reset()
        compiled = {kind: torch.compile(fns[kind][1], dynamic=True) for kind in fns}
        for name, shape, dim, kind in cases:
            eager = fns[kind][0]
            scale, log = triton_args[kind]
            x = inputs(shape, tdtype)
            out_size = 4 if kind == "temp" else x.element_size()
            nbytes = (x.numel() * (x.element_size() + out_size) // 2) & ~15
            src = torch.empty(nbytes, dtype=torch.uint8, device="cuda").fill_(0x3F)
            dst = torch.empty_like(src)
            copy_us = copies[(name, dtype)] = bench_us(lambda: dst.copy_(src))
            del src, dst
            rec("copy", "torch", name, dtype, shape, dim, copy_us, copy_us)
            ref = eager(x, dim)
            measure("torch-eager", "static", name, dtype, shape, dim, lambda: eager(x, dim), ref,
                    copy_us)
            out = torch.empty_like(x, dtype=torch.float32 if kind == "temp" else x.dtype)
            best = None
            for cfg in triton_configs(shape[dim % 3], x.element_size()):
                if time.time() > start + args.budget_s:
                    break
                try:
                    run_triton(x, out, dim, cfg, scale, log)
                    torch.cuda.synchronize()
                    us = bench_us(lambda: run_triton(x, out, dim, cfg, scale, log))
                    if best is None or us < best[0]:
                        best = (us, cfg)
                except Exception:  # a tile past the registers or shared memory: not a candidate
                    torch.cuda.synchronize()
            if best:
                cfg = best[1]
                measure("triton", "static", name, dtype, shape, dim,
                        lambda: run_triton(x, out, dim, cfg, scale, log), ref, copy_us,
                        config=dict(block_c=cfg[0], block_n=cfg[1], warps=cfg[2],
                                    one_tile=cfg[3]))
            else:
                rec("triton", "static", name, dtype, shape, dim, copy_us=copy_us,
                    error="no configuration ran" if time.time() <= start + args.budget_s
                    else "skipped: time budget")
            measure("torch-compile", "dynamic", name, dtype, shape, dim,
                    lambda: compiled[kind](x, dim), ref, copy_us)
            del x, out, ref
            torch.cuda.empty_cache()
    for dtype in ("f32", "bf16", "f16"):
        tdtype = getattr(torch, TORCH_DTYPE[dtype])
        for name, shape, dim, kind in shapes(dtype):
            if (name, dtype) not in copies:
                continue
            eager = fns[kind][0]
            x = inputs(shape, tdtype)
            ref = eager(x, dim)
            torch._dynamo.reset()
            compiled_static = torch.compile(eager, dynamic=False)
            measure("torch-compile", "static", name, dtype, shape, dim,
                    lambda: compiled_static(x, dim), ref, copies[(name, dtype)])
            del x, ref
            torch.cuda.empty_cache()

    header = dict(record="header",
                  date=datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                  commit=args.commit, host=platform.node(), gpu=torch.cuda.get_device_name(),
                  torch=torch.__version__, triton=triton.__version__, cuda=torch.version.cuda,
                  command=" ".join(sys.argv), seconds=round(time.time() - start, 1))
    with open(args.out, "w") as f:
        json.dump({"header": header, "records": records}, f, indent=1)
    systems = [("torch-eager", "static", "eager"), ("torch-compile", "static", "compile"),
               ("torch-compile", "dynamic", "compile-dyn"), ("triton", "static", "triton")]
    cells = {}
    for r in records:
        cells[(r["case"], r["system"], r["variant"])] = r
    print(f"\n== softmax over a non-last axis, the anchors: fraction of torch's copy, "
          f"{header['gpu']}, {header['seconds']} s")
    print(f"{'case':<14} {'shape':<18} {'copy_us':>8} " + " ".join(f"{s[2]:>11}" for s in systems))
    for case in dict.fromkeys(r["case"] for r in records):
        copy = cells.get((case, "copy", "torch"))
        row = []
        for s in systems:
            r = cells.get((case, s[0], s[1]))
            row.append("-" if not r else "err" if r.get("error") and not r["error"].startswith(
                "skipped") else "skip" if r.get("error") else f"{r['fraction']:.3f}")
        print(f"{case:<14} {'x'.join(map(str, copy['shape'])) if copy else '-':<18} "
              f"{copy['time_us'] if copy else 0:>8.1f} " + " ".join(f"{c:>11}" for c in row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
