#!/usr/bin/env python3
"""Registers, spills and blocks a multiprocessor of the kernels that two PTX files differ in:
the second half of the check that a kernel change keeps occupancy (scripts/ptx-identity.sh
writes the pairs; ptxas takes the registers a budget leaves, so the registers used, not the
budgets, say how many blocks fit).

    scripts/ptx-registers-diff.py [--ptxas PTXAS] [--arch sm_90] OUT-DIR
    scripts/ptx-registers-diff.py [--ptxas PTXAS] [--arch sm_90] OLD.ptx NEW.ptx

OUT-DIR holds NAME.old.ptx and NAME.new.ptx pairs. Prints one line a differing kernel:
budget (.maxnreg), registers used, spill bytes and blocks a multiprocessor by registers
(65,536 a multiprocessor, allocated 256 a warp at a time, at most 2,048 threads), old | new,
and a final count of kernels that spill more or fit fewer blocks. Exits 1 when any does.
Shared memory also limits blocks; it is not counted here.
"""
import argparse
import glob
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


compare = load("compare_ptx", os.path.join(HERE, "compare-ptx.py"))
each = load("ptxas_each", os.path.join(HERE, "ptxas-each.py"))


def assemble(ptxas, arch, module):
    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
        f.write(module)
    try:
        run = subprocess.run([ptxas, f"-arch={arch}", "-v", f.name, "-o", os.devnull],
                             capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    out = run.stderr + run.stdout
    if run.returncode != 0:
        raise RuntimeError(out)
    registers = int(re.search(r"Used (\d+) registers", out).group(1))
    spill = int(re.search(r"(\d+) bytes spill stores", out).group(1))
    return registers, spill


def blocks(registers, threads):
    warps = -(-threads // 32)
    per_warp = -(-registers * 32 // 256) * 256
    by_registers = 65536 // (per_warp * warps) if registers else 32
    return min(by_registers, 2048 // threads, 32)


def facts(ptxas, arch, modules, name):
    module = modules[name]
    budget = re.search(r"\.maxnreg\s+(\d+)", module)
    threads = re.search(r"\.maxntid\s+(\d+),\s*(\d+),\s*(\d+)", module)
    count = 1
    for size in threads.groups() if threads else ("1024",):
        count *= int(size)
    registers, spill = assemble(ptxas, arch, module)
    return (budget.group(1) if budget else "-", registers, spill, blocks(registers, count), count)


def pairs(args):
    if len(args.paths) == 2:
        yield os.path.basename(args.paths[1]), args.paths[0], args.paths[1]
        return
    for new in sorted(glob.glob(os.path.join(args.paths[0], "*.new.ptx"))):
        old = new[: -len(".new.ptx")] + ".old.ptx"
        if os.path.exists(old):
            yield os.path.basename(new)[: -len(".new.ptx")], old, new


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ptxas", default="/usr/local/cuda/bin/ptxas")
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args()
    worse = changed = 0
    print("kernel (threads): budget registers spill blocks, old | new")
    for label, old_path, new_path in pairs(args):
        arch = "sm_80" if "sm80" in label else args.arch
        old_text, new_text = compare.kernels(old_path), compare.kernels(new_path)
        old_modules = dict(each.split_modules(open(old_path).read()))
        new_modules = dict(each.split_modules(open(new_path).read()))
        for name in sorted(set(old_text) & set(new_text)):
            if old_text[name] == new_text[name]:
                continue
            changed += 1
            before = facts(args.ptxas, arch, old_modules, name)
            after = facts(args.ptxas, arch, new_modules, name)
            flag = ""
            if after[2] > before[2] or after[3] < before[3]:
                worse += 1
                flag = "  <- worse"
            print(f"{name} ({after[4]}): {' '.join(map(str, before[:4]))} | "
                  f"{' '.join(map(str, after[:4]))}{flag}")
    print(f"{changed} kernels differ; {worse} spill more or fit fewer blocks")
    return 1 if worse else 0


if __name__ == "__main__":
    sys.exit(main())
