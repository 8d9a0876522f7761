#!/usr/bin/env python3
"""For each kernel module of a PTX file (softmax-opt's `ptx-file`): its `.maxnreg`, what ptxas
uses and spills there, and the fewest registers (a multiple of 8 from 32) at which it assembles
without a spill. The register budgets of the kernels (TargetInfo.h) are fitted with it; ptxas's
spills are not monotone in the budget, so "fewest" says nothing of the budgets above it.

    scripts/ptxas-min-registers.py [--ptxas PATH] [--arch sm_90] FILE.ptx [NAME-SUBSTRING]
"""
import argparse
import concurrent.futures
import importlib.util
import os
import re
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("ptxas_each", os.path.join(HERE, "ptxas-each.py"))
ptxas_each = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ptxas_each)


def assemble(ptxas, arch, ptx, registers=None):
    """(registers used, bytes of spill stores) of one module, at `registers` if given."""
    if registers is not None:
        ptx = re.sub(r"\.maxnreg \d+", f".maxnreg {registers}", ptx)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "k.ptx")
        with open(path, "w") as f:
            f.write(ptx)
        out = subprocess.run([ptxas, f"-arch={arch}", "-v", path, "-o", os.path.join(d, "k.cubin")],
                             capture_output=True, text=True).stderr
    return (int(re.search(r"Used (\d+) registers", out).group(1)),
            int(re.search(r"(\d+) bytes spill stores", out).group(1)))


def probe(args, module):
    name, ptx = module
    m = re.search(r"\.maxnreg (\d+)", ptx)
    budget = int(m.group(1)) if m else None
    used, spill = assemble(args.ptxas, args.arch, ptx)
    fewest = next((r for r in range(32, 256, 8)
                   if assemble(args.ptxas, args.arch, ptx, r)[1] == 0), None)
    return name, budget, used, spill, fewest


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ptxas", default="ptxas")
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("ptx")
    parser.add_argument("filter", nargs="?", default="")
    args = parser.parse_args()
    with open(args.ptx) as f:
        modules = [m for m in ptxas_each.split_modules(f.read()) if args.filter in m[0]]
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        for name, budget, used, spill, fewest in pool.map(lambda m: probe(args, m), modules):
            print(f"{name:55s} maxnreg {budget or '-':>3} used {used:3d} spill {spill:4d} "
                  f"fewest-clean {fewest or 'none'}{'  SPILL' if spill else ''}")


if __name__ == "__main__":
    main()
