#!/usr/bin/env python3
"""The Python benchmark's results (scripts/gpu/python_bench.py's JSON) as a plot and markdown
tables for docs/python.md: the fraction of a device-to-device copy against the row width, one
line per system (this package's dynamic and static programs, torch eager, torch.compile static
and dynamic=True, the seed's Triton kernel), f32 and bf16 side by side; the host time a call;
the first call of a new program.

    scripts/python-bench-report.py RESULTS.json [--plot docs/img/python-bench-h200.png]

Prints the markdown; with --plot also writes the PNG (python3-matplotlib).
"""
import argparse
import json

SYSTEMS = [("ours-dynamic", "ours, dynamic"), ("ours-static", "ours, static"),
           ("torch-eager", "torch eager"), ("torch-compile", "torch.compile"),
           ("torch-compile-dyn", "torch.compile dynamic=True"), ("triton", "Triton (seed)")]


def rows_by(result, program, dtype):
    """{system: [(width, fraction)]} for softmax rows of `dtype`, widths ascending."""
    out = {}
    for r in result["rows"]:
        if r["program"] != program or r["dtype"] != dtype or r.get("fraction") is None:
            continue
        out.setdefault(r["system"], []).append((r["shape"][-1], r["fraction"]))
    return {s: sorted(v) for s, v in out.items()}


def markdown(result):
    h = result["header"]
    lines = [f"{h['gpu']}, {h['date']}, commit {h['commit'][:7]}, torch {h['torch']}, "
             f"Triton {h['triton']} (`{h['command'].split('/')[-1]}`)", ""]
    lines.append("Fraction of a device-to-device copy of the same bytes (256 MiB; higher is "
                 "better):")
    lines.append("")
    lines.append("| program | dtype | shape | " + " | ".join(n for _, n in SYSTEMS) + " |")
    lines.append("|---|---|---|" + "---|" * len(SYSTEMS))
    cases = {}
    for r in result["rows"]:
        cases.setdefault((r["program"], r["dtype"], tuple(r["shape"])), {})[r["system"]] = r
    for (program, dtype, shape), systems in cases.items():
        cells = []
        for key, _ in SYSTEMS:
            r = systems.get(key)
            if r is None:
                cells.append("")
            elif r.get("error"):
                cells.append("(" + r["error"].split(":")[0].lower() + ")")
            else:
                cells.append(f"{r['fraction']:.3f}")
        lines.append(f"| {program} | {dtype} | {'x'.join(map(str, shape))} | " +
                     " | ".join(cells) + " |")
    if result.get("host"):
        lines += ["", "Host time a call, 4x128 f32 (median / p90 µs):", "",
                  "| call | median | p90 |", "|---|---|---|"]
        for r in result["host"]:
            if r.get("kind") != "call":
                continue
            if "error" in r:
                lines.append(f"| {r['call']} | {r['error'][:40]} | |")
            else:
                lines.append(f"| `{r['call']}` | {r['median_us']:.1f} | {r['p90_us']:.1f} |")
    if result.get("first"):
        lines += ["", "A new program's first call (compile, the launched kernels' compile and "
                      "load, launch, sync; ms, min of 3), the second call, and a compile of every "
                      "kernel:", "",
                  "| program | first call | second call | every kernel compiled |",
                  "|---|---|---|---|"]
        for r in result["first"]:
            if "error" in r:
                lines.append(f"| {r['call']} | {r['error'][:40]} | | |")
            else:
                lines.append(f"| {r['call']} | {r['first_ms']:.0f} | {r['second_ms']:.3f} | "
                             f"{r['all_kernels_ms']:.0f} ({r['kernels']} kernels) |")
    return "\n".join(lines)


def plot(result, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    h = result["header"]
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), sharey=True)
    for ax, dtype in zip(axes, ["f32", "bf16"]):
        data = rows_by(result, "softmax", dtype)
        for key, label in SYSTEMS:
            if key in data:
                xs, ys = zip(*data[key])
                style = "-o" if key.startswith("ours") else "--."
                ax.plot(xs, ys, style, label=label, linewidth=2 if key.startswith("ours") else 1)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("row width N (columns)")
        ax.set_title(f"softmax, {dtype}, 256 MiB")
        ax.axhline(1.0, color="grey", linewidth=0.5)
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("fraction of a device-to-device copy")
    axes[0].set_ylim(0, 1.1)
    axes[1].legend(loc="lower left", fontsize=8)
    fig.suptitle(f"softmax_compiler from Python beside torch and Triton: {h['gpu']}, "
                 f"{h['date'][:10]}, commit {h['commit'][:7]}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results")
    parser.add_argument("--plot")
    args = parser.parse_args()
    with open(args.results) as f:
        result = json.load(f)
    print(markdown(result))
    if args.plot:
        plot(result, args.plot)


if __name__ == "__main__":
    main()
