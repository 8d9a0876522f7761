#!/usr/bin/env python3
"""Plots a bandwidth.jsonl (scripts/gpu/bandwidth.py) as fraction of a device copy against the row
width, ours beside the anchors, for the rows of 2^27 elements (one panel a type).

    scripts/plot-bandwidth.py bench/results/2026-11-29-h200/bandwidth.jsonl docs/img/bandwidth-h200.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

rows = [json.loads(line) for line in open(sys.argv[1])]
fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), sharey=True)
for ax, dtype in zip(axes, ("f32", "bf16")):
    points = []
    for r in rows:
        if r["case"] != f"softmax {dtype}":
            continue
        m, n = map(int, r["shape"].split("x"))
        if m * n < (1 << 26):  # the small-batch shapes are plotted nowhere: latency, not bandwidth
            continue
        points.append((n, r["ours"].get("fraction_of_copy"), r["eager"], r["compile"], r["triton"]))
    points.sort()
    widths = [p[0] for p in points]
    for i, (label, style) in enumerate([("ours (softmax-to-nvvm)", "o-"), ("torch eager", "s--"),
                                        ("torch.compile", "^--"), ("Triton row-per-program", "v:")]):
        ax.plot(widths, [p[i + 1] for p in points], style, label=label, linewidth=2 if i == 0 else 1)
    ax.set_xscale("log", base=2)
    ax.set_title(f"softmax {dtype}, M x N = 2^27, H200")
    ax.set_xlabel("row width N")
    ax.axhline(1.0, color="gray", linewidth=0.5)
    ax.grid(True, alpha=0.3)
axes[0].set_ylabel("fraction of a device-to-device copy (same bytes, same run)")
axes[0].legend(loc="lower left", fontsize=8)
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
