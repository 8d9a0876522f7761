#!/usr/bin/env python3
"""The table of a `scripts/gpu/run.sh axis-bench` call, from the cases.tar.xz it returns: one
line a case (its shape, the median time, the copy of the same bytes in the same process, the
fraction of copy, the plan softmax-run printed), then, for each C measured both ways, the static
and the dynamic program side by side. The records under bench/results/*/axis-bench-*.txt are
written with it.

    scripts/gpu/axis-bench-table.py CASES.tar.xz [--title LINE]...
"""
import argparse
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases")
    parser.add_argument("--title", action="append", default=[],
                        help="a line for the header (repeat it)")
    args = parser.parse_args()
    rows = {}
    with tarfile.open(args.cases) as tar:
        for member in tar.getmembers():
            name = member.name.rsplit("/", 1)[-1]
            if not name.endswith(".log"):
                continue
            parsed = parse(tar.extractfile(member).read().decode(errors="replace"))
            if parsed:
                rows[name[:-4]] = parsed
    for line in args.title:
        print(f"# {line}")
    print(f"{'case':<24} {'shape':<22} {'median_us':>9} {'copy_us':>8} {'frac':>6}  plan")
    for case in sorted(rows):
        shape, median, copy, frac, plan = rows[case]
        print(f"{case:<24} {shape:<22} {median:>9.2f} {copy:>8.2f} {frac:>6.3f}  {plan}")
    print()
    print("static / dynamic, fraction of copy")
    print(f"{'C':<14} {'static':>7} {'dynamic':>8} {'dyn/static':>10}")
    for case in sorted(rows):
        match = re.fullmatch(r"axis_(c\w+)_(f32|bf16|f16)", case)
        dynamic = f"axis_dyn_{match.group(1)}_{match.group(2)}" if match else None
        if dynamic in rows:
            s, d = rows[case][3], rows[dynamic][3]
            print(f"{match.group(1) + ' ' + match.group(2):<14} {s:>7.3f} {d:>8.3f} {d / s:>10.3f}")


if __name__ == "__main__":
    main()
