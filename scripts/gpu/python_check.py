#!/usr/bin/env python3
"""The Python package on the GPU (docs/python.md): softmax_compiler over the packed
libsoftmax-c.so, on torch tensors, against torch.softmax, on a non-default stream and replayed
from a captured CUDA graph. Prints one line a check and a summary; exit 1 on any failure.

    SOFTMAX_C_LIBRARY=.../libsoftmax-c.so PYTHONPATH=python python3 scripts/gpu/python_check.py
"""
import sys

import torch

import softmax_compiler as sc

PROGRAM = """func.func @f(%x: tensor<?x?xT>) -> tensor<?x?xT> {
  %p = softmax.softmax %x : tensor<?x?xT>
  return %p : tensor<?x?xT>
}
"""
DTYPES = {"f32": (torch.float32, 2e-6), "bf16": (torch.bfloat16, 1e-2), "f16": (torch.float16, 2e-3)}
WIDTHS = [32, 100, 1000, 4096, 16384, 40000, 70000]


def check(name, got, want, tol):
    err = (got.float() - want.float()).abs().max().item()
    ok = err <= tol and torch.isfinite(got.float()).all().item()
    print(f"{'PASS' if ok else 'FAIL'} {name} max_abs {err:.2e}", flush=True)
    return ok


def main():
    torch.manual_seed(0)
    results = []
    stream = torch.cuda.Stream()
    for dname, (dtype, tol) in DTYPES.items():
        exe = sc.compile(PROGRAM.replace("T", dname))
        for n in WIDTHS:
            m = 37
            x = torch.randn(m, n, device="cuda", dtype=dtype)
            want = torch.softmax(x.float(), dim=-1).to(dtype)
            y = torch.full_like(x, float("nan"))
            with torch.cuda.stream(stream):
                exe.run("f", x, y)  # torch's current stream: `stream`
            stream.synchronize()
            results.append(check(f"stream/{dname}/{m}x{n}", y, want, tol))
            # Captured in a CUDA graph, then replayed on a fresh output.
            y2 = torch.full_like(x, float("nan"))
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                exe.run("f", x, y2)
            y2.fill_(float("nan"))
            graph.replay()
            torch.cuda.synchronize()
            results.append(check(f"graph/{dname}/{m}x{n}", y2, want, tol))
    # Host time a call on a small shape, the stream synchronised only at the end.
    exe = sc.compile(PROGRAM.replace("T", "f32"))
    x = torch.randn(64, 1000, device="cuda")
    y = torch.empty_like(x)
    for _ in range(100):
        exe.run("f", x, y)
    import time
    times = []
    for _ in range(1000):
        t0 = time.perf_counter()
        exe.run("f", x, y)
        times.append(time.perf_counter() - t0)
    torch.cuda.synchronize()
    times.sort()
    print(f"TIME python run host us/call: median {times[500] * 1e6:.1f} p90 {times[900] * 1e6:.1f}")
    failed = results.count(False)
    print(f"summary: {len(results)} checks, {len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
