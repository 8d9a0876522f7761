#!/usr/bin/env python3
"""The measurements behind softmax-select-strategy's thresholds: for f32 and bf16 rows of many
widths (2^27 elements each, as the anchors), time hand-written plans that differ in values per
thread, lanes and plan kind, each as a fraction of a device-to-device copy of the same bytes
measured in the same process. One case at a time.

    sweep.py --runner PATH [--out DIR] [--jsonl-dir DIR] [--types f32,bf16] [--widths 32,512]
             [--values 8,16,32] [--no-chunked | --cluster]

Prints, per (type, width), every candidate and the best last; writes DIR/sweep.md.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

WIDTHS = [32, 512, 1000, 2048, 4096, 8192, 16384, 32768, 50257, 65536]
ELEMENTS = 1 << 27


def pow2ceil(x):
    p = 1
    while p < x:
        p *= 2
    return p


def candidates(n, elem_bytes, values_list=(8, 16, 32), chunked=True):
    widest = 16 // elem_bytes
    out = []
    for values in values_list:
        lanes = min(1024, pow2ceil(max(1, -(-n // values))))
        vector = widest
        if lanes < widest:
            while vector > 1 and n % vector:
                vector //= 2
        per = -(-n // lanes)
        per = -(-per // vector) * vector
        if per > max(values_list) or per // vector > 64:
            continue
        rows = max(1, 256 // lanes) if lanes < 256 else 1
        rows = max(rows, 32 // min(lanes, 32))
        plan = "multi_row" if lanes <= 32 else "row_registers"
        out.append(f"#softmax.strategy<{plan}, lanes = {lanes}, rows = {rows}, vector = {vector}, "
                   f"chunks = {per // vector}>")
    if n >= 8192 and chunked:
        for lanes, values in ((1024, 16), (1024, 32), (512, 32)):
            chunks = max(1, values // widest)
            if n * 4 <= 227 * 1024 - 1024:
                out.append(f"#softmax.strategy<row_shared, lanes = {lanes}, rows = 1, "
                           f"vector = {widest}, chunks = {chunks}>")
            out.append(f"#softmax.strategy<chunked_online, lanes = {lanes}, rows = 1, "
                       f"vector = {widest}, chunks = {chunks}>")
    return list(dict.fromkeys(out))


def cluster_candidates(n, elem_bytes):
    """row_cluster plans for a row of n: 2 to 16 blocks of 256 to 1024 lanes, each block holding
    ceil(n / blocks) columns in as few values a thread as fit; the chunked plan beside them."""
    widest = 16 // elem_bytes
    out = []
    for blocks in (2, 4, 8, 16):
        per_block = -(-n // blocks)
        for lanes in (256, 512, 1024):
            values = -(-per_block // lanes)
            values = -(-values // widest) * widest
            if values > 64 or values < widest or values // widest > 64:
                continue
            out.append(f"#softmax.strategy<row_cluster, lanes = {lanes}, rows = 1, vector = {widest}, "
                       f"chunks = {values // widest}, cluster = {blocks}>")
    out.append(f"#softmax.strategy<chunked_online, lanes = 512, rows = 1, vector = {widest}, "
               f"chunks = {max(1, 32 // widest)}>")
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runner", default=os.environ.get("SOFTMAX_RUN", "softmax-run"))
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--jsonl-dir", default=None)
    parser.add_argument("--types", default="f32,bf16", help="element types, comma-separated")
    parser.add_argument("--widths", default=",".join(map(str, WIDTHS)))
    parser.add_argument("--values", default="8,16,32", help="values a thread, comma-separated")
    parser.add_argument("--no-chunked", action="store_true", help="register plans only")
    parser.add_argument("--cluster", action="store_true",
                        help="row_cluster plans (2 to 8 blocks) and the chunked plan instead")
    args = parser.parse_args()
    type_bytes = {"f32": 4, "bf16": 2, "f16": 2}
    types = [(t, type_bytes[t]) for t in args.types.split(",")]
    widths = [int(w) for w in args.widths.split(",")]
    values_list = tuple(int(v) for v in args.values.split(","))
    work = tempfile.mkdtemp(prefix="softmax-sweep-")
    results = []
    lines = ["| type | width | plan | us | x copy | best |", "|---|---|---|---|---|---|"]
    for dtype, elem_bytes in types:
        for n in widths:
            m = max(1, ELEMENTS // n)
            t = f"tensor<{m}x{n}x{dtype}>"
            rows = []
            plans = (cluster_candidates(n, elem_bytes) if args.cluster else
                     candidates(n, elem_bytes, values_list, not args.no_chunked))
            for strategy in plans:
                src = os.path.join(work, "case.mlir")
                with open(src, "w") as f:
                    f.write(f"func.func @sweep(%x: {t}) -> {t} {{\n"
                            f"  %y = softmax.fused softmax %x axis = 1 prologue [] "
                            f"{{strategies = [{strategy}]}} : {t} -> {t}\n"
                            f"  return %y : {t}\n}}\n")
                out = os.path.join(work, "case.json")
                if os.path.exists(out):
                    os.remove(out)
                proc = subprocess.run([args.runner, src, "--no-check", "--bench", "--reps=10",
                                       "--warmup=3", f"--json={out}"], capture_output=True, text=True)
                r = {"dtype": dtype, "n": n, "m": m, "strategy": strategy, "exit": proc.returncode}
                if os.path.exists(out):
                    with open(out) as f:
                        j = json.load(f)
                    r.update({k: j.get(k) for k in ("median_us", "copy_us", "fraction_of_copy")})
                if proc.returncode:
                    r["log"] = (proc.stdout + proc.stderr)[-400:]
                rows.append(r)
                results.append(r)
            ok = [r for r in rows if r.get("fraction_of_copy")]
            best = max(ok, key=lambda r: r["fraction_of_copy"]) if ok else None
            for r in rows:
                plan = r["strategy"].replace("#softmax.strategy", "")
                frac = r.get("fraction_of_copy")
                us = r.get("median_us")
                lines.append(f"| {dtype} | {n} | {plan} | {'-' if us is None else f'{us:.1f}'} | "
                             f"{'-' if frac is None else f'{frac:.3f}'} | "
                             f"{'**best**' if r is best else ('exit %d' % r['exit'] if r['exit'] else '')} |")
            if best:
                print(f"{dtype:>5} {n:>7}: best {best['fraction_of_copy']:.3f} "
                      f"{best['strategy'].replace('#softmax.strategy', '')}", flush=True)
    with open(os.path.join(args.jsonl_dir or args.out, "sweep.jsonl"), "w") as f:
        for r in results:
            f.write(json.dumps(r) + "\n")
    with open(os.path.join(args.out, "sweep.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines[-40:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
