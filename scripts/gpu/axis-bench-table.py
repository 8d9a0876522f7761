#!/usr/bin/env python3
"""The table of a `scripts/gpu/run.sh axis-bench` call, from the cases.tar.xz it returns: one
line a case (its shape, the median time, the copy of the same bytes in the same process, the
fraction of copy, the plan softmax-run printed), then, for each C measured both ways, the static
and the dynamic program side by side. The records under bench/results/*/axis-bench-*.txt are
written with it.

    scripts/gpu/axis-bench-table.py CASES.tar.xz [--title LINE]... [--anchors AXIS-ANCHORS.json]
                                    [--baseline BASELINE-CASES.tar.xz]

--baseline adds, last, each case against the same case of another set of tools run in the same
device call (run.sh with SOFTMAX_ARCHIVE pointing at the other archive): a before/after.
"""
import argparse
import json
import re
import tarfile


def parse(log):
    """(shape, median_us, copy_us, fraction, plan) of one softmax-run --bench log, or None."""
    bench = re.search(r"^bench:\s+median ([\d.]+) us.*?copy ([\d.]+) us; fraction of copy ([\d.]+)",
                      log, re.M)
    if not bench:
        return None
    plan = re.search(r"^plan:\s+.*?: (.*)$", log, re.M)
    plans = re.findall(r"#softmax\.strategy<strided_axis, ([^>]*)>", plan.group(1)) if plan else []
    shape = re.search(r"(\d+(?:x\d+)+x(?:f32|bf16|f16))", log)
    return (shape.group(1) if shape else "-", float(bench.group(1)), float(bench.group(2)),
            float(bench.group(3)), ", ".join(f"[{p}]" for p in plans))


def load(path):
    """Each case's parse() of the logs in a run.sh cases.tar.xz."""
    rows = {}
    with tarfile.open(path) as tar:
        for member in tar.getmembers():
            name = member.name.rsplit("/", 1)[-1]
            if not name.endswith(".log"):
                continue
            parsed = parse(tar.extractfile(member).read().decode(errors="replace"))
            if parsed:
                rows[name[:-4]] = parsed
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases")
    parser.add_argument("--title", action="append", default=[],
                        help="a line for the header (repeat it)")
    parser.add_argument("--anchors", help="axis-anchors.json of the same call")
    parser.add_argument("--baseline", help="cases.tar.xz of other tools in the same call")
    args = parser.parse_args()
    anchors = {}
    if args.anchors:
        with open(args.anchors) as f:
            data = json.load(f)
        for r in data["records"]:
            anchors[(r["case"], r["system"], r["variant"])] = r
    rows = load(args.cases)
    for line in args.title:
        print(f"# {line}")
    print(f"{'case':<24} {'shape':<22} {'median_us':>9} {'copy_us':>8} {'frac':>6}  plan")
    for case in sorted(rows):
        shape, median, copy, frac, plan = rows[case]
        print(f"{case:<24} {shape:<22} {median:>9.2f} {copy:>8.2f} {frac:>6.3f}  {plan}")
    print()
    systems = [("torch-eager", "static", "eager"), ("torch-compile", "static", "compile"),
               ("torch-compile", "dynamic", "compile-dyn"), ("triton", "static", "triton")]
    print("static / dynamic, fraction of copy" + (" (the others: of torch's copy)" if anchors
                                                  else ""))
    print(f"{'case':<18} {'static':>7} {'dynamic':>8} {'dyn/static':>10}" +
          ("".join(f" {s[2]:>11}" for s in systems) + f" {'best other':>10} {'ours/best':>9}"
           if anchors else ""))
    for case in sorted(rows):
        match = re.fullmatch(r"axis_(?!dyn_)(\w+)_(f32|bf16|f16)", case)
        if not match:
            continue
        dynamic = f"axis_dyn_{match.group(1)}_{match.group(2)}"
        s, d = rows[case][3], rows[dynamic][3] if dynamic in rows else None
        if d is None and not anchors:
            continue
        line = (f"{match.group(1) + ' ' + match.group(2):<18} {s:>7.3f} " +
                (f"{d:>8.3f} {d / s:>10.3f}" if d is not None else f"{'-':>8} {'-':>10}"))
        if anchors:
            key = f"{match.group(1)}_{match.group(2)}"
            fracs = []
            for system in systems:
                r = anchors.get((key, system[0], system[1]))
                f = r.get("fraction") if r and not r.get("error") else None
                fracs.append(f)
                line += f" {'-' if f is None else f'{f:.3f}':>11}"
            best = max((f for f in fracs if f is not None), default=None)
            ours = min(s, d) if d is not None else s
            line += (f" {best:>10.3f} {ours / best:>9.3f}" if best else
                     f" {'-':>10} {'-':>9}")
        print(line)
    if args.baseline:
        base = load(args.baseline)
        print()
        print("against the baseline, fraction of copy")
        print(f"{'case':<28} {'baseline':>8} {'this':>8} {'change':>8}")
        for case in sorted(rows):
            if case in base:
                b, t = base[case][3], rows[case][3]
                print(f"{case:<28} {b:>8.3f} {t:>8.3f} {t - b:>+8.3f}")


if __name__ == "__main__":
    main()
