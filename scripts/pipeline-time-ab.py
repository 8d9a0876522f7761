#!/usr/bin/env python3
"""Before/after of two softmax-opt binaries' compile time, in process (docs/compile-time.md).

For each file, runs `BINARY FILE --softmax-raise --softmax-to-nvvm --mlir-timing
--mlir-disable-threading --verify-each=0` (the library's release default: no verifier after each
pass) with the old and the new binary interleaved, REPS times each, and prints the minimum of
the kernels' passes ('gpu.module' Pipeline), their serialization (LLVM) and the total, ms.
Pair it with scripts/ptx-identity.sh, which checks that the two binaries' kernels are the same.

    scripts/pipeline-time-ab.py OLD-softmax-opt NEW-softmax-opt [--reps N] FILE...
"""
import argparse
import re
import subprocess
import sys

PHASES = {
    "kernel passes": re.compile(r"^\s*([0-9.]+) \(.*\)\s+'gpu.module' Pipeline$"),
    "serialize": re.compile(r"^\s*([0-9.]+) \(.*\)\s+SerializeKernelsPass$"),
    "total": re.compile(r"^\s*Total Execution Time: ([0-9.]+) seconds$"),
}


def measure(binary, path):
    run = subprocess.run(
        [binary, path, "--softmax-raise", "--softmax-to-nvvm", "--mlir-timing",
         "--mlir-disable-threading", "--verify-each=0", "-o", "/dev/null"],
        capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{binary} {path} failed:\n{run.stderr[-2000:]}")
    times = {}
    for line in run.stderr.splitlines():
        for phase, pattern in PHASES.items():
            match = pattern.match(line)
            if match and phase not in times:
                times[phase] = 1000 * float(match.group(1))
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("files", nargs="+")
    parser.add_argument("--reps", type=int, default=7)
    args = parser.parse_args()
    print(f"# minimum of {args.reps} interleaved runs, ms: kernel passes / serialize (LLVM) / total")
    print(f"{'file':<44} {'old':>26} {'new':>26} {'kernel passes':>14}")
    for path in args.files:
        best = {"old": {}, "new": {}}
        for _ in range(args.reps):
            for side, binary in (("old", args.old), ("new", args.new)):
                for phase, value in measure(binary, path).items():
                    best[side][phase] = min(best[side].get(phase, value), value)
        cells = {side: " / ".join(f"{best[side].get(p, float('nan')):.1f}" for p in PHASES)
                 for side in best}
        old, new = best["old"]["kernel passes"], best["new"]["kernel passes"]
        name = path.rsplit("/", 1)[-1]
        print(f"{name:<44} {cells['old']:>26} {cells['new']:>26} {100 * (new / old - 1):>+13.0f}%")


if __name__ == "__main__":
    main()
