#!/usr/bin/env python3
"""Compile time, per plan and per kernel, as an embedder and as softmax-opt see it (issue 11,
docs/compile-time.md). No GPU needed.

For each program (one plan each, every plan in f32 and 16 bits, the fused chains, dynamic
programs and the examples), the minimum of REPS runs of:

- through the library (libsoftmax-c.so from Python's ctypes, in process, warm: the process has
  compiled the program before, each run with the caches emptied and the disk cache off):
  `compile` (the pipeline's first half: fusion, plans, host code, one module a kernel) and each
  kernel the program's calls launch, compiled on its own (getKernelImage: the kernel's passes
  and LLVM's NVPTX back end) - the fast kernel (aligned rows) and the general one;
- the caches: a second compile (memory hit), and in a new process with an entry on disk the
  compile and the fast kernel's image read back (cubin included with --bin);
- softmax-opt --softmax-to-nvvm as a process (cold: start-up, every kernel, in parallel on the
  machine's cores), and its in-process time by phase (MLIR's --mlir-timing with threading off,
  so that the phases add up): the first half, the kernels' passes, their serialization (LLVM),
  the host's lowering.

    scripts/compile-time.py [--reps N] [--json FILE] [--only SUBSTRING] [--bin]

Prints a table last and writes one JSON record per program to FILE (the commit, the date, the
machine and the command included).
"""
import argparse
import ctypes
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
os.environ.setdefault("SOFTMAX_C_LIBRARY", os.path.join(ROOT, "build", "lib", "libsoftmax-c.so"))
os.environ.setdefault("SOFTMAX_VERIFY_PASSES", "0")  # the library's release default
import softmax_compiler as sc  # noqa: E402

OPT = os.path.join(ROOT, "build", "bin", "softmax-opt")


def program(shape, dtype, body="%y = softmax.softmax %x : T", out=None):
    t = f"tensor<{'x'.join('?' if d is None else str(d) for d in shape)}x{dtype}>"
    o = t.replace(dtype, out) if out else t
    body = body.replace("T", t).replace("O", o)
    return (f"func.func @f(%x: {t}) -> {o} {{\n  {body}\n  return %y : {o}\n}}\n")


ATTENTION = ("%s = softmax.scale %x by 0.125 : T\n  %m = softmax.mask %s, causal : T\n"
             "  %y = softmax.softmax %m : T")
LOG = "%y = softmax.log_softmax %x : T"

# (name, source or example file, the input shape of the call whose kernels are timed)
PROGRAMS = [
    ("multi_row f32 4096x128", program((4096, 128), "f32"), (4096, 128)),
    ("multi_row bf16 8192x256", program((8192, 256), "bf16"), (8192, 256)),
    ("row_registers f32 1024x4096", program((1024, 4096), "f32"), (1024, 4096)),
    ("row_registers bf16 1024x4096", program((1024, 4096), "bf16"), (1024, 4096)),
    ("row_registers f16 512x8192", program((512, 8192), "f16"), (512, 8192)),
    ("row_cluster f32 64x65536", program((64, 65536), "f32"), (64, 65536)),
    ("row_shared bf16 64x32768", program((64, 32768), "bf16"), (64, 32768)),
    ("chunked_online f32 8x1000000", program((8, 1000000), "f32"), (8, 1000000)),
    ("strided_axis f32 8x512x1024 axis 1",
     program((8, 512, 1024), "f32", "%y = softmax.softmax %x axis = 1 : T"), (8, 512, 1024)),
    ("log_softmax f32 4096x4096", program((4096, 4096), "f32", LOG), (4096, 4096)),
    ("attention bf16 16x1024x1024", program((16, 1024, 1024), "bf16", ATTENTION),
     (16, 1024, 1024)),
    ("dynamic f32 ?x?", program((None, None), "f32"), (64, 4096)),
    ("dynamic bf16 ?x?", program((None, None), "bf16"), (64, 3000)),
    ("dynamic attention bf16 ?x?x?", program((None, None, None), "bf16", ATTENTION),
     (4, 2048, 2048)),
] + [(f"example {f}", f, None) for f in sorted(os.listdir(os.path.join(ROOT, "examples")))
     if f.endswith(".mlir")]

CHILD = """
import ctypes, os, sys, time
sys.path.insert(0, sys.argv[1])
import softmax_compiler as sc
lib = sc._library()  # loaded outside the timed region
source = open(sys.argv[2]).read()
t0 = time.perf_counter()
exe = sc.compile(source, raise_linalg=True, cache_dir=sys.argv[3], format=sys.argv[4])
t1 = time.perf_counter()
image, size = ctypes.c_void_p(), ctypes.c_size_t()
sc._check(lib.softmax_executable_kernel_image(exe._handle, int(sys.argv[5]), ctypes.byref(image),
                                              ctypes.byref(size)))
t2 = time.perf_counter()
print((t1 - t0) * 1e3, (t2 - t1) * 1e3)
"""


def source_of(entry):
    name, src, _ = entry
    if src.endswith(".mlir") and "\n" not in src:
        with open(os.path.join(ROOT, "examples", src)) as f:
            return f.read()
    return src


def kernel_image_ms(lib, exe, k):
    image, size = ctypes.c_void_p(), ctypes.c_size_t()
    t0 = time.perf_counter()
    sc._check(lib.softmax_executable_kernel_image(exe._handle, k, ctypes.byref(image),
                                                  ctypes.byref(size)))
    return (time.perf_counter() - t0) * 1e3


def launched(exe, shape):
    """The kernels a call of shape `shape` launches (the fast kernel: aligned rows), and its
    general twin where there is one; every kernel for an example without a shape."""
    names = [n for n, _ in exe.kernels]
    function = exe.functions[0]
    if shape is None:
        return [0]
    specs = exe.signature(function)
    values = [shape if s.is_tensor else 1.0 for s in specs]
    fast = names.index(exe.plan(function, *values)[0]["kernel"])
    general = names.index(names[fast] + "_general") if names[fast] + "_general" in names else None
    return [fast] + ([general] if general is not None else [])


def measure_library(entry, reps, fmt, lib):
    source = source_of(entry)
    exe = sc.compile(source, raise_linalg=True, cache_dir="off", format=fmt)  # warm up
    kernels = launched(exe, entry[2])
    for k in kernels:
        kernel_image_ms(lib, exe, k)
    best = {"compile_ms": 1e9, "kernels_ms": [1e9] * len(kernels)}
    for _ in range(reps):
        sc.cache_clear()
        t0 = time.perf_counter()
        exe = sc.compile(source, raise_linalg=True, cache_dir="off", format=fmt)
        best["compile_ms"] = min(best["compile_ms"], (time.perf_counter() - t0) * 1e3)
        for i, k in enumerate(kernels):
            best["kernels_ms"][i] = min(best["kernels_ms"][i], kernel_image_ms(lib, exe, k))
    hits = []
    for _ in range(reps):
        t0 = time.perf_counter()
        sc.compile(source, raise_linalg=True, cache_dir="off", format=fmt)
        hits.append((time.perf_counter() - t0) * 1e3)
    names = [n for n, _ in exe.kernels]
    result = dict(kernels=len(names), timed_kernels=[names[k] for k in kernels],
                  memory_hit_ms=min(hits), **best)
    with tempfile.TemporaryDirectory() as directory, tempfile.NamedTemporaryFile(
            "w", suffix=".mlir") as file:
        file.write(source)
        file.flush()
        sc.cache_clear()
        exe = sc.compile(source, raise_linalg=True, cache_dir=directory, format=fmt)
        kernel_image_ms(lib, exe, kernels[0])  # the program's entry and the kernel's, on disk
        samples = []
        for _ in range(reps):
            out = subprocess.run([sys.executable, "-c", CHILD, os.path.join(ROOT, "python"),
                                  file.name, directory, fmt, str(kernels[0])],
                                 check=True, capture_output=True, text=True).stdout.split()
            samples.append((float(out[0]), float(out[1])))
        result["disk_hit_new_process_ms"] = min(a + b for a, b in samples)
        result["disk_entry_bytes"] = sum(os.path.getsize(os.path.join(directory, f))
                                         for f in os.listdir(directory))
    return result


PHASES = [
    # softmax-raise, fusion and plans, softmax-lower-to-gpu and the host's clean-up (nested on
    # func.func), outlining and the targets.
    ("first_half_ms", ("Parser", "'func.func' Pipeline", "LowerToGPUPass",
                       "GpuKernelOutliningPass", "GpuNVVMAttachTarget")),
    ("kernel_passes_ms", ("'gpu.module' Pipeline",)),
    ("serialize_ms", ("SerializeKernelsPass",)),
]


def measure_opt(entry, reps, fmt):
    with tempfile.NamedTemporaryFile("w", suffix=".mlir") as file:
        file.write(source_of(entry))
        file.flush()
        walls, phases = [], []
        for _ in range(reps):
            t0 = time.perf_counter()
            subprocess.run([OPT, file.name, "--softmax-raise", f"--softmax-to-nvvm=format={fmt}",
                            "-o", os.devnull], check=True)
            walls.append((time.perf_counter() - t0) * 1e3)
            report = subprocess.run([OPT, file.name, "--softmax-raise",
                                     f"--softmax-to-nvvm=format={fmt}", "--mlir-timing",
                                     "--mlir-disable-threading", "--verify-each=0", "-o",
                                     os.devnull], check=True, capture_output=True,
                                    text=True).stderr
            row = {}
            total = 0.0
            for line in report.splitlines():
                m = re.match(r"\s+([0-9.]+) \(\s*[0-9.]+%\)(\s+)(.*)$", line)
                if not m:
                    continue
                seconds, indent, name = float(m.group(1)), len(m.group(2)), m.group(3).strip()
                if name == "Total":
                    total = seconds
                if indent != 2:  # top-level entries only
                    continue
                for key, names in PHASES:
                    if name in names:
                        row[key] = row.get(key, 0.0) + seconds * 1e3
            row["total_ms"] = total * 1e3
            row["host_and_rest_ms"] = row["total_ms"] - sum(row.get(k, 0.0) for k, _ in PHASES)
            phases.append(row)
        best = min(phases, key=lambda r: r["total_ms"])
        return dict(process_wall_ms=min(walls), in_process=best)


def machine():
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    cpu = "unknown"
    try:
        cpu = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                   if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return dict(host=platform.node(), cpu=cpu, cores=os.cpu_count(), load_average=load,
                system=platform.platform())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--json")
    parser.add_argument("--only", help="programs whose name contains this")
    parser.add_argument("--bin", action="store_true", help="format=bin (cubin through ptxas)")
    args = parser.parse_args()
    fmt = "bin" if args.bin else "isa"
    lib = sc._library()
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    meta = dict(commit=commit + ("+dirty" if dirty else ""),
                date=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                machine=machine(), reps=args.reps, format=fmt,
                command=" ".join(["scripts/compile-time.py"] + sys.argv[1:]))
    records = []
    for entry in PROGRAMS:
        if args.only and args.only not in entry[0]:
            continue
        record = dict(meta, program=entry[0])
        record.update(measure_library(entry, args.reps, fmt, lib))
        record.update(measure_opt(entry, args.reps, fmt))
        records.append(record)
        print(json.dumps(record), file=sys.stderr, flush=True)
    if args.json:
        with open(args.json, "w") as f:
            for r in records:
                f.write(json.dumps(r) + "\n")
    print(f"compile time (ms, minimum of {args.reps}), {meta['commit']}, {meta['date']}, "
          f"{meta['machine']['cpu']} x{meta['machine']['cores']}, load {meta['machine']['load_average']}")
    print(f"{'program':<38} {'kern':>4} {'compile':>8} {'fast':>7} {'general':>8} {'hit':>6} "
          f"{'disk':>6} | {'opt proc':>8} {'1st half':>8} {'kpasses':>8} {'llvm':>7} {'rest':>6}")
    for r in records:
        k = r["kernels_ms"] + [None]
        p = r["in_process"]
        print(f"{r['program']:<38} {r['kernels']:>4} {r['compile_ms']:8.1f} {k[0]:7.1f} "
              f"{(k[1] if k[1] is not None else float('nan')):8.1f} {r['memory_hit_ms']:6.3f} "
              f"{r['disk_hit_new_process_ms']:6.2f} | {r['process_wall_ms']:8.0f} "
              f"{p.get('first_half_ms', 0):8.1f} {p.get('kernel_passes_ms', 0):8.1f} "
              f"{p.get('serialize_ms', 0):7.1f} {p.get('host_and_rest_ms', 0):6.1f}")


if __name__ == "__main__":
    main()
