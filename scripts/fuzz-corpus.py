#!/usr/bin/env python3
"""Writes softmax-fuzz's seed corpus: every program of examples/ and of the lit tests' .mlir
inputs, split at `// -----` as -split-input-file does, with full-line comments (RUN and CHECK
lines, expected-error annotations) removed so that seeds stay small. Files are named by the
SHA-1 of their contents, as libFuzzer names its own, so duplicates collapse. A piece of more
than two functions (the lit tests' collections of cases) becomes one seed a function: a
mutation of a collection would recompile every case in it, and libFuzzer runs every seed once
before it starts mutating.

    scripts/fuzz-corpus.py [--quick] OUT_DIR

--quick leaves out programs with a dynamic size: each compiles a kernel per width tier, seconds
even uninstrumented, so they dominate the time of a bounded run (CI); mutations still reach
dynamic sizes through the dictionary's `?x`.
"""
import hashlib
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SPLIT = re.compile(r"^// -----\s*$", re.MULTILINE)
TOP_LEVEL_FUNC = re.compile(r"^(?=func\.func )", re.MULTILINE)
DYNAMIC = re.compile(r"tensor<([^>]*x)?\?")


def programs():
    for directory in ("examples", "test"):
        for path in sorted((ROOT / directory).rglob("*.mlir")):
            # Open findings (test/Fuzz/Open) are known crashes and spills, not seeds: the upstream
            # parser crash there would end every run at once.
            if "Open" in path.relative_to(ROOT).parts:
                continue
            # Inputs of upstream crashes (Fuzz/Inputs/upstream-*) are skipped by the target.
            if path.name.startswith("upstream-"):
                continue
            for piece in SPLIT.split(path.read_text()):
                lines = [l for l in piece.splitlines() if not l.lstrip().startswith("//")]
                text = "\n".join(lines).strip()
                if not text:
                    continue
                functions = [f for f in TOP_LEVEL_FUNC.split(text) if f.strip()]
                # What precedes the first function (attribute aliases) goes with each.
                prefix = "" if functions[0].startswith("func.func") else functions.pop(0)
                if len(functions) <= 2:
                    yield text + "\n"
                    continue
                for function in functions:
                    yield prefix + function.strip() + "\n"


def main():
    args = [a for a in sys.argv[1:] if a != "--quick"]
    if len(args) != 1:
        sys.exit(__doc__)
    quick = "--quick" in sys.argv
    out = pathlib.Path(args[0])
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for text in programs():
        if quick and DYNAMIC.search(text):
            continue
        data = text.encode()
        (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
        count += 1
    print(f"fuzz-corpus: {count} seeds ({len(list(out.iterdir()))} distinct) in {out}")


if __name__ == "__main__":
    main()
