#!/usr/bin/env python3
"""Bandwidth table over the anchor shapes (bench/anchors/), each as a fraction of a
device-to-device copy of the same bytes measured in the same softmax-run process, beside what the
anchors measured for torch eager, torch.compile and Triton.

    bandwidth.py --runner PATH [--out DIR] [--dtypes float32,bfloat16] [--check]

Runs one case at a time (timings must not overlap). Prints the table last and writes
DIR/bandwidth.jsonl and DIR/bandwidth.md.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ANCHORS = os.path.join(HERE, "..", "..", "bench", "anchors")
DTYPE = {"float32": "f32", "bfloat16": "bf16"}


def plain(dtype, m, n):
    t = f"tensor<{m}x{n}x{dtype}>"
    return f"func.func @softmax(%x: {t}) -> {t} {{\n  %y = softmax.softmax %x : {t}\n  return %y : {t}\n}}\n", []


def fused(case, shape):
    if case.startswith("scale+causal+softmax bf16"):
        b, s, _ = shape
        t, f = f"tensor<{b}x{s}x{s}xbf16>", f"tensor<{b}x{s}x{s}xf32>"
        return (f"func.func @attention(%x: {t}) -> {t} {{\n"
                f"  %w = softmax.cast %x : {t} to {f}\n"
                f"  %s = softmax.scale %w by 0.088388 : {f}\n"
                f"  %m = softmax.mask %s, causal : {f}\n"
                f"  %p = softmax.softmax %m : {f}\n"
                f"  %y = softmax.cast %p : {f} to {t}\n  return %y : {t}\n}}\n"), []
    m, n = shape
    t = f"tensor<{m}x{n}xf32>"
    if case.startswith("padding-length mask"):
        return (f"func.func @padded(%x: {t}, %len: tensor<{m}xi32>) -> {t} {{\n"
                f"  %m = softmax.mask %x, padding %len : {t}, tensor<{m}xi32>\n"
                f"  %p = softmax.softmax %m : {t}\n  return %p : {t}\n}}\n"), []
    if case.startswith("log_softmax"):
        return (f"func.func @logsoftmax(%x: {t}) -> {t} {{\n"
                f"  %p = softmax.log_softmax %x : {t}\n  return %p : {t}\n}}\n"), []
    raise ValueError(case)


def run(runner, text, shapes, workdir, tag, check, extra=()):
    src = os.path.join(workdir, tag + ".mlir")
    out = os.path.join(workdir, tag + ".json")
    with open(src, "w") as f:
        f.write(text)
    cmd = [runner, src, "--bench", "--reps=20", "--warmup=5", f"--json={out}"]
    cmd += ["--check"] if check else ["--no-check"]
    cmd += [f"--shape={s}" for s in shapes] + list(extra)
    proc = subprocess.run(cmd, capture_output=True, text=True)
    result = {"exit": proc.returncode, "command": " ".join(cmd)}
    if os.path.exists(out):
        with open(out) as f:
            result.update(json.load(f))
    if proc.returncode != 0:
        result["log"] = (proc.stdout + proc.stderr)[-1500:]
    return result


def ratio(us, copy_us):
    return None if not us or not copy_us else copy_us / us


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runner", default=os.environ.get("SOFTMAX_RUN", "softmax-run"))
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--dtypes", default="float32,bfloat16")
    parser.add_argument("--check", action="store_true", help="also check each result (slow)")
    parser.add_argument("--jsonl-dir", default=None, help="where the .jsonl goes (default: --out)")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    workdir = tempfile.mkdtemp(prefix="softmax-bandwidth-")

    with open(os.path.join(ANCHORS, "h200-2026-11-29.json")) as f:
        anchors = json.load(f)["rows"]
    with open(os.path.join(ANCHORS, "fused-h200-2026-11-29.json")) as f:
        fused_anchors = json.load(f)

    rows, seen = [], set()
    for a in anchors:
        key = (a["dtype"], a["M"], a["N"])
        if a["dtype"] not in args.dtypes.split(",") or key in seen:
            continue
        seen.add(key)
        text, shapes = plain(DTYPE[a["dtype"]], a["M"], a["N"])
        r = run(args.runner, text, shapes, workdir, f"{DTYPE[a['dtype']]}_{a['M']}x{a['N']}", args.check)
        rows.append(dict(case=f"softmax {DTYPE[a['dtype']]}", shape=f"{a['M']}x{a['N']}", ours=r,
                         eager=ratio(a.get("eager_us"), a.get("copy_us")),
                         compile=ratio(a.get("compile_us"), a.get("copy_us")),
                         triton=ratio(a.get("triton_us"), a.get("copy_us"))))
        print(f"{rows[-1]['case']:>12} {rows[-1]['shape']:>14}: exit {r['exit']} "
              f"x copy {r.get('fraction_of_copy')}", flush=True)
    for a in fused_anchors:
        text, shapes = fused(a["case"], a["shape"])
        tag = "".join(c if c.isalnum() else "_" for c in a["case"] + str(a["shape"]))
        r = run(args.runner, text, shapes, workdir, tag, args.check)
        rows.append(dict(case=a["case"], shape="x".join(map(str, a["shape"])), ours=r,
                         eager=ratio(a.get("eager_us"), a.get("copy_us")),
                         compile=ratio(a.get("compile_us"), a.get("copy_us")),
                         triton=ratio(a.get("triton_fused_us"), a.get("copy_us"))))
        print(f"{rows[-1]['case']:>12} {rows[-1]['shape']:>14}: exit {r['exit']} "
              f"x copy {r.get('fraction_of_copy')}", flush=True)

    with open(os.path.join(args.jsonl_dir or args.out, "bandwidth.jsonl"), "w") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")

    def cell(x):
        return "-" if x is None else f"{x:.3f}"

    header = ("| case | shape | ours us | copy us | ours GB/s | ours x copy | eager x copy | "
              "torch.compile x copy | Triton x copy |")
    lines = [header, "|" + "---|" * 9]
    for row in rows:
        r = row["ours"]
        status = "" if r["exit"] == 0 else f" (exit {r['exit']})"
        lines.append(f"| {row['case']}{status} | {row['shape']} | {cell(r.get('median_us'))} | "
                     f"{cell(r.get('copy_us'))} | {cell(r.get('gbps'))} | "
                     f"{cell(r.get('fraction_of_copy'))} | {cell(row['eager'])} | "
                     f"{cell(row['compile'])} | {cell(row['triton'])} |")
    with open(os.path.join(args.out, "bandwidth.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    failed = [row for row in rows if row["ours"]["exit"] != 0]
    for row in failed:
        print(f"FAIL {row['case']} {row['shape']}: {row['ours'].get('log', '')[-600:]}")
    print("\n" + "\n".join(lines))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
