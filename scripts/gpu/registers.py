#!/usr/bin/env python3
"""Occupancy against registers: compare.py's programs (ours only, static and dynamic) compiled
with every kernel's register budget capped (`softmax-run --max-registers=N`; 0: each plan's own),
each as a fraction of a device-to-device copy of the same bytes measured in the same process.

    registers.py --runner PATH --out DIR [--logs DIR] [--caps 0,64,56,48]
                 [--only softmax-bf16,attention] [--widths 4096,8192] [--tag T]
                 [--extra="--disable-lsr"] [--dry-run]

A cap below what a kernel needs makes ptxas spill (scripts/gpu/registers.py does not see that:
check the PTX with `softmax-opt --softmax-to-nvvm="max-registers=N ptx-file=F"` and ptxas -v).
--extra adds softmax-run flags to every run (an LLVM back-end option, say), so that one call
compares the same programs with and without it (run once with and once without, two tags).
Writes DIR/registers[-TAG].json and DIR/registers[-TAG].txt (the table, one column a cap, printed last).
"""
import argparse
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402  (the programs, the runner call and the record format)


def write_table(args, caps, extra, records):
    """Writes what has been measured so far (each program's runs), so that a call cut short by
    its time limit still leaves its table; returns the table."""
    stem = "registers" + (f"-{args.tag}" if args.tag else "")
    with open(os.path.join(args.out, stem + ".json"), "w") as f:
        json.dump({"caps": caps, "extra": extra, "records": records}, f, indent=1)
    lines = [f"{'program':<18} {'dtype':<5} {'shape':<16} {'variant':<8} " +
             " ".join(f"{'cap ' + str(c) if c else 'plan':>8}" for c in caps)]
    keys = []
    for r in records:
        key = (r["program"], r["dtype"], tuple(r["shape"]), r["variant"])
        if key not in keys:
            keys.append(key)
    for key in keys:
        cells = []
        for cap in caps:
            match = [r for r in records
                     if (r["program"], r["dtype"], tuple(r["shape"]), r["variant"]) == key and
                     r["cap"] == cap]
            cells.append(compare.fmt(match[0]["fraction"]) if match else "-")
        lines.append(f"{key[0]:<18} {key[1]:<5} {compare.dims(key[2]):<16} {key[3]:<8} " +
                     " ".join(f"{c:>8}" for c in cells))
    if extra:
        lines.append(f"(every run with {' '.join(extra)})")
    table = "\n".join(lines)
    with open(os.path.join(args.out, stem + ".txt"), "w") as f:
        f.write(table + "\n")
    return table


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runner", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--logs")
    parser.add_argument("--caps", default="0,64,56,48")
    parser.add_argument("--only", default="softmax-bf16,softmax-f16,attention")
    parser.add_argument("--widths", default="2048,4096,8192,16384",
                        help="row widths of the softmax programs")
    parser.add_argument("--tag", default="", help="written to registers[-TAG].json/.txt")
    parser.add_argument("--extra", default="",
                        help="softmax-run flags added to every run, space-separated")
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    args.logs = args.logs or tempfile.mkdtemp(prefix="registers-logs-")
    os.makedirs(args.out, exist_ok=True)
    os.makedirs(args.logs, exist_ok=True)
    caps = [int(c) for c in args.caps.split(",")]
    widths = {int(w) for w in args.widths.split(",")}
    only = args.only.split(",")
    extra = args.extra.split()

    programs = [p for p in compare.all_programs() if any(o in p.key for o in only)]
    for p in programs:
        if p.name == "softmax":
            p.shapes = [s for s in p.shapes if s[-1] in widths]

    records = []
    workdir = tempfile.mkdtemp(prefix="registers-")
    for program in programs:
        dynamic = os.path.join(workdir, f"{program.key}-dynamic.mlir")
        with open(dynamic, "w") as f:
            f.write(program.dynamic_text)
        cases = [f"--case={','.join(program.case_shapes(s))}" for s in program.shapes]
        for cap in caps:
            start = time.time()
            name = f"{program.key}-dynamic-r{cap}{args.tag}"
            code, data, log = compare.run_runner(args, dynamic, cases + [f"--max-registers={cap}"] + extra,
                                                 240, name)
            reports = data if isinstance(data, list) else []
            for i, shape in enumerate(program.shapes):
                report = reports[i] if i < len(reports) else None
                r = compare.ours_record("dynamic", program, shape, report, code, log)
                r["cap"] = cap
                records.append(r)
            print(f"{name}: exit {code}, {time.time() - start:.1f} s", flush=True)
            for shape in program.shapes:
                src = os.path.join(workdir, f"{program.key}-{compare.dims(shape)}.mlir")
                with open(src, "w") as f:
                    f.write(program.static_text(shape))
                name = f"{program.key}-{compare.dims(shape)}-r{cap}{args.tag}"
                code, report, log = compare.run_runner(args, src, [f"--max-registers={cap}"] + extra, 90,
                                                       name)
                r = compare.ours_record("static", program, shape, report, code, log)
                r["cap"] = cap
                records.append(r)
                print(f"{name}: exit {code}, x copy {compare.fmt(r['fraction'])}", flush=True)
            write_table(args, caps, extra, records)

    print(write_table(args, caps, extra, records))


if __name__ == "__main__":
    main()
