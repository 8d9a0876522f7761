#!/usr/bin/env python3
"""Mutation testing: does the CPU test suite catch deliberate one-line bugs?

Each mutation of scripts/mutations.txt (a snippet of source text and its replacement) is applied
alone to a copy of the working tree, the copy is rebuilt incrementally and the lit suite runs
there without a GPU. A mutation is CAUGHT when a test fails (or the build breaks), SURVIVED when
the suite still passes, STALE when its snippet is no longer in the source.

    scripts/mutate.py                      every mutation
    scripts/mutate.py NAME...              only these
    scripts/mutate.py --list               the mutations and whether their snippets apply
    scripts/mutate.py --tests Dialect,Conversion NAME...   run only these lit directories

The copy lives in build-mutate/ (ignored by git) with its build directory at the same relative
place as build/ in the tree, so ccache serves the unchanged translation units; the checkout
itself is never modified. Each mutation costs one incremental rebuild (a translation unit and
the links, about a minute on two cores) and one run of the suite, which stops at the first
failing test unless --all-failures asks for every test that catches the mutation.
"""

import argparse
import configparser
import os
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIT = "/usr/lib/llvm-22/bin/lit"


def load_mutations(path):
    parser = configparser.RawConfigParser(comment_prefixes=("#",), inline_comment_prefixes=None,
                                          strict=True, empty_lines_in_values=False)
    parser.optionxform = str
    with open(path, encoding="utf-8") as f:
        parser.read_file(f)
    mutations = []
    for name in parser.sections():
        section = parser[name]
        missing = [k for k in ("file", "what", "find", "replace") if k not in section]
        if missing:
            sys.exit(f"mutate: [{name}] lacks {', '.join(missing)}")
        mutations.append({
            "name": name,
            "file": section["file"].strip(),
            "what": section["what"].strip(),
            "find": section["find"].strip(),
            "replace": section["replace"].strip(),
            "occurrence": int(section.get("occurrence", "0")),
        })
    return mutations


def mutate_text(text, mutation):
    """The mutated text, or a reason why the snippet does not apply."""
    find, occurrence = mutation["find"], mutation["occurrence"]
    positions = []
    start = text.find(find)
    while start != -1:
        positions.append(start)
        start = text.find(find, start + 1)
    if not positions:
        return None, "snippet not found"
    if occurrence == 0 and len(positions) > 1:
        return None, f"snippet occurs {len(positions)} times; set 'occurrence'"
    if occurrence > len(positions):
        return None, f"snippet occurs {len(positions)} times, not {occurrence}"
    at = positions[(occurrence or 1) - 1]
    return text[:at] + mutation["replace"] + text[at + len(find):], None


def tracked_files():
    out = subprocess.run(["git", "-C", ROOT, "ls-files", "-z", "--cached", "--others",
                          "--exclude-standard"], check=True, capture_output=True).stdout
    return [p for p in out.decode().split("\0") if p]


def sync_copy(copy):
    """Makes `copy` hold the working tree's files, touching only those that differ."""
    for rel in tracked_files():
        src = os.path.join(ROOT, rel)
        dst = os.path.join(copy, rel)
        if not os.path.isfile(src):
            continue
        with open(src, "rb") as f:
            data = f.read()
        if os.path.isfile(dst):
            with open(dst, "rb") as f:
                if f.read() == data:
                    continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "wb") as f:
            f.write(data)
        shutil.copymode(src, dst)


def run(cmd, **kwargs):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          **kwargs)


def build(copy, jobs):
    return run(["nice", "-n", "10", "ninja", "-C", os.path.join(copy, "build"), f"-j{jobs}",
                "check-softmax-deps"])


def failing_tests(copy, dirs, timeout, max_failures=0):
    """lit's exit status and the names of the tests that failed (lit -q lists them under
    "Failed Tests (N):" and the like, one "  SUITE :: path" a line). With `max_failures`, lit
    stops after that many: one failure settles a mutation, and the rest of the suite (about
    nine minutes on two cores) need not run."""
    env = dict(os.environ, SOFTMAX_TEST_GPU="0")
    paths = [os.path.join(copy, "build", "test", d) for d in dirs] or [
        os.path.join(copy, "build", "test")]
    try:
        limit = [f"--max-failures={max_failures}"] if max_failures else []
        result = run([LIT, "-q"] + limit + paths, env=env, timeout=timeout)
    except FileNotFoundError:
        sys.exit(f"mutate: {LIT} not found")
    except subprocess.TimeoutExpired:
        return 124, [f"the suite ran past {timeout} s"]
    failed, listing = [], False
    for line in result.stdout.splitlines():
        if line.startswith(("Failed Tests", "Unresolved Tests", "Timed Out Tests")):
            listing = True
        elif listing and "::" in line and line.startswith(" "):
            failed.append(line.split("::", 1)[1].strip())
        elif not line.strip() or line.startswith("*"):
            listing = False
    return result.returncode, failed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="mutations to run (default: all)")
    parser.add_argument("--mutations", default=os.path.join(ROOT, "scripts", "mutations.txt"))
    parser.add_argument("--copy", default=os.path.join(ROOT, "build-mutate"),
                        help="where the copy of the tree lives (default: build-mutate/)")
    parser.add_argument("--list", action="store_true", help="list the mutations and exit")
    parser.add_argument("--tests", default="",
                        help="comma-separated lit directories under test/ (default: all)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--all-failures", action="store_true",
                        help="run the whole suite on each mutation and list every test that "
                             "catches it (default: stop at the first)")
    parser.add_argument("--timeout", type=int, default=1200,
                        help="for one run of the suite, seconds")
    args = parser.parse_args()
    # A terminated run restores the mutated file as an interrupted one does (the `finally`
    # below); the next run's sync_copy would restore it anyway.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    mutations = load_mutations(args.mutations)
    names = {m["name"] for m in mutations}
    unknown = [n for n in args.names if n not in names]
    if unknown:
        sys.exit(f"mutate: unknown mutation(s): {', '.join(unknown)}")
    if args.names:
        mutations = [m for m in mutations if m["name"] in args.names]

    if args.list:
        for m in mutations:
            with open(os.path.join(ROOT, m["file"]), encoding="utf-8") as f:
                _, problem = mutate_text(f.read(), m)
            status = f"STALE ({problem})" if problem else "applies"
            print(f"{m['name']:32} {status:40} {m['file']}: {m['what']}")
        return 0

    copy = args.copy
    os.makedirs(copy, exist_ok=True)
    sync_copy(copy)
    if not os.path.isfile(os.path.join(copy, "build", "build.ninja")):
        setup = run([os.path.join(copy, "scripts", "setup.sh"), os.path.join(copy, "build")])
        if setup.returncode != 0:
            sys.exit("mutate: configuring the copy failed:\n" + setup.stdout)
    print(f"mutate: building the unmutated copy in {copy}/build", flush=True)
    base = build(copy, args.jobs)
    if base.returncode != 0:
        sys.exit("mutate: the unmutated copy does not build:\n" + base.stdout[-4000:])
    dirs = [d for d in args.tests.split(",") if d]
    status, failed = failing_tests(copy, dirs, args.timeout)
    if status != 0 or failed:
        sys.exit(f"mutate: the unmutated suite fails (lit exit {status}: {', '.join(failed)}); "
                 "fix that first")

    results = []
    for m in mutations:
        path = os.path.join(copy, m["file"])
        with open(path, encoding="utf-8") as f:
            original = f.read()
        mutated, problem = mutate_text(original, m)
        if problem:
            results.append((m, "STALE", problem, 0.0))
            print(f"{m['name']:32} STALE     {problem}", flush=True)
            continue
        started = time.time()
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(mutated)
            built = build(copy, args.jobs)
            if built.returncode != 0:
                outcome, detail = "CAUGHT", "the build fails"
            else:
                status, failed = failing_tests(copy, dirs, args.timeout,
                                               0 if args.all_failures else 1)
                if failed or status != 0:
                    outcome = "CAUGHT"
                    detail = ", ".join(failed) if failed else f"lit exited {status}"
                else:
                    outcome, detail = "SURVIVED", "every test passes"
        finally:
            with open(path, "w", encoding="utf-8") as f:
                f.write(original)
        elapsed = time.time() - started
        results.append((m, outcome, detail, elapsed))
        print(f"{m['name']:32} {outcome:9} {detail} ({elapsed:.0f} s)", flush=True)

    # Leave the copy built from unmutated sources.
    build(copy, args.jobs)
    caught = sum(1 for _, o, _, _ in results if o == "CAUGHT")
    survived = [m["name"] for m, o, _, _ in results if o == "SURVIVED"]
    stale = [m["name"] for m, o, _, _ in results if o == "STALE"]
    print(f"mutations: {caught} caught, {len(survived)} survived, {len(stale)} stale")
    if survived:
        print("survived: " + ", ".join(survived))
    if stale:
        print("stale (update scripts/mutations.txt): " + ", ".join(stale))
    return 1 if survived or stale else 0


if __name__ == "__main__":
    sys.exit(main())
