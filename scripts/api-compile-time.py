#!/usr/bin/env python3
"""Compile time through the library API (libsoftmax-c.so, as an embedder or Python sees it), per
example: a compile (miss), a second compile in process (memory hit), a compile with an empty
in-memory cache read from the disk cache, in this process and in a fresh one, each the minimum
of REPS. Wall and CPU (process) time, in ms. A miss is measured with verification after every
pass on and off (SOFTMAX_VERIFY_PASSES), and with and without CUDA_HOME (libdevice).

  scripts/api-compile-time.py [--reps N] [--json FILE] [--bin] [FILES...]

Writes one JSON record per measurement to FILE (with the commit, date and machine). --bin also
measures format=bin (cubin through ptxas) for softmax_f32.mlir.
"""
import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
os.environ.setdefault("SOFTMAX_C_LIBRARY", os.path.join(ROOT, "build", "lib", "libsoftmax-c.so"))
import softmax_compiler as sc  # noqa: E402

CHILD = """
import sys, time
sys.path.insert(0, sys.argv[1])
import softmax_compiler as sc
sc._library()  # load the library outside the timed region
source = open(sys.argv[2]).read()
w, c = time.perf_counter(), time.process_time()
sc.compile(source, raise_linalg=True, cache_dir=sys.argv[3], format=sys.argv[4])
print((time.perf_counter() - w) * 1e3, (time.process_time() - c) * 1e3)
"""


def timed(fn):
    w, c = time.perf_counter(), time.process_time()
    fn()
    return (time.perf_counter() - w) * 1e3, (time.process_time() - c) * 1e3


def best(samples):
    return min(s[0] for s in samples), min(s[1] for s in samples)


def measure(path, reps, fmt):
    source = open(path).read()
    rows = {}

    def miss(**env):
        saved = {k: os.environ.get(k) for k in env}
        for k, v in env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        try:
            samples = []
            for _ in range(reps):
                sc.cache_clear()
                samples.append(timed(lambda: sc.compile(source, raise_linalg=True,
                                                        cache_dir="off", format=fmt)))
            return best(samples)
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v

    sc.compile(source, raise_linalg=True, cache_dir="off", format=fmt)  # warm up
    rows["miss_verify"] = miss(SOFTMAX_VERIFY_PASSES="1")
    rows["miss"] = miss(SOFTMAX_VERIFY_PASSES="0")
    if fmt == "isa":
        rows["miss_no_cuda_home"] = miss(SOFTMAX_VERIFY_PASSES="0", CUDA_HOME=None)
    rows["memory_hit"] = best([timed(lambda: sc.compile(source, raise_linalg=True,
                                                        cache_dir="off", format=fmt))
                               for _ in range(reps)])
    with tempfile.TemporaryDirectory() as directory:
        sc.cache_clear()
        sc.compile(source, raise_linalg=True, cache_dir=directory, format=fmt)  # writes
        samples = []
        for _ in range(reps):
            sc.cache_clear()
            samples.append(timed(lambda: sc.compile(source, raise_linalg=True,
                                                    cache_dir=directory, format=fmt)))
        rows["disk_hit"] = best(samples)
        samples = []
        for _ in range(reps):
            out = subprocess.run([sys.executable, "-c", CHILD, os.path.join(ROOT, "python"), path,
                                  directory, fmt], check=True, capture_output=True, text=True)
            samples.append(tuple(float(x) for x in out.stdout.split()))
        rows["disk_hit_new_process"] = best(samples)
        entry = [f for f in os.listdir(directory) if f.endswith(".smxc")]
        rows["entry_bytes"] = os.path.getsize(os.path.join(directory, entry[0])) if entry else 0
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--json")
    parser.add_argument("--bin", action="store_true")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    files = args.files or sorted(os.path.join(ROOT, "examples", f)
                                 for f in os.listdir(os.path.join(ROOT, "examples"))
                                 if f.endswith(".mlir"))
    jobs = [(f, "isa") for f in files]
    if args.bin:
        jobs.append((os.path.join(ROOT, "examples", "softmax_f32.mlir"), "bin"))
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    meta = {"commit": commit + ("+dirty" if dirty else ""),
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "machine": f"{platform.node()} {os.cpu_count()} cpus",
            "load": os.getloadavg()[0], "reps": args.reps}
    out = open(args.json, "a") if args.json else None
    keys = ["miss_verify", "miss", "miss_no_cuda_home", "memory_hit", "disk_hit",
            "disk_hit_new_process"]
    print("wall / cpu ms, min of %d; %s" % (args.reps, json.dumps(meta)))
    print("%-36s %-4s " % ("file", "fmt") + " ".join("%20s" % k for k in keys) + "  entry_KB")
    for path, fmt in jobs:
        rows = measure(path, args.reps, fmt)
        cells = " ".join("%20s" % ("%.2f/%.2f" % rows[k] if k in rows else "-") for k in keys)
        print("%-36s %-4s %s %9.1f" % (os.path.basename(path), fmt, cells,
                                       rows["entry_bytes"] / 1024))
        if out:
            out.write(json.dumps(dict(meta, file=os.path.basename(path), format=fmt,
                                      **{k: list(v) if isinstance(v, tuple) else v
                                         for k, v in rows.items()})) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
