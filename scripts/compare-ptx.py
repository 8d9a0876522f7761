#!/usr/bin/env python3
"""Compares the kernels of two PTX files (softmax-opt's ptx-file: one module a kernel, or one
module of them all, as before 2026-12-03) kernel by kernel, for changes meant to leave the code
alone (a pipeline's structure, compile-time work).

    scripts/compare-ptx.py OLD.ptx NEW.ptx [LABEL]

Each `.entry` function is compared as text, with its basic-block labels renumbered
(`$L__BB<function>_<n>` counts functions within a module) and the declaration of the dynamic
shared memory (`__dynamic_shmem__0`) left out: LLVM declares it in the kernel when one kernel of
the module uses it ("demoted"), in the module otherwise. Prints one line: the kernels in each
file and how many are identical; exits 1 when any kernel differs or is missing.
"""
import re
import sys

IGNORED = {"// demoted variable", ".shared .align 16 .b8 __dynamic_shmem__0;", ""}


def kernels(path):
    found, name, body = {}, None, []
    for line in open(path).read().split("\n"):
        entry = re.match(r"\.(?:visible )?\.?entry\s+([A-Za-z0-9_$]+)\(", line)
        if entry:
            name, body = entry.group(1), [line]
            continue
        if name is None or line.strip() in IGNORED:
            continue
        body.append(line)
        if line == "}":
            found[name] = re.sub(r"\$L__BB\d+_", "$L__BB_", "\n".join(body))
            name = None
    return found


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    old, new = kernels(argv[0]), kernels(argv[1])
    label = argv[2] if len(argv) > 2 else argv[1]
    same = [k for k in old if new.get(k) == old[k]]
    differ = [k for k in old if k in new and new[k] != old[k]]
    missing = [k for k in old if k not in new] + [k for k in new if k not in old]
    print(f"{label}: {len(old)} kernels before, {len(new)} after, {len(same)} identical"
          + (f", differ: {' '.join(differ)}" if differ else "")
          + (f", in one only: {' '.join(missing)}" if missing else ""))
    return 1 if differ or missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
