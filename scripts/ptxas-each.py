#!/usr/bin/env python3
"""Runs ptxas on each PTX module of a file that holds several.

softmax-opt's `ptx-file` (and the C++ API's getPTX()) write one PTX module a kernel, each after a
`// gpu.binary @<name>` line: a module is what the NVPTX back end compiles and the driver loads,
and ptxas takes one at a time. This splits the file at those lines and runs ptxas on each
module with the given arguments, the file's name replaced by the module's and `-o OUT` by
`-o OUT.<n>` (the modules on every core); it prints what ptxas printed, module after module in
the file's order, and exits with the first non-zero status (0 when every module assembles).

    scripts/ptxas-each.py [--ptxas PATH] PTXAS-ARGS... FILE.ptx
"""
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

MARKER = re.compile(r"^// gpu\.binary @(\S+)\n", re.M)


def split_modules(text):
    """[(name, ptx)] in file order; a file without markers is one module named 'module'."""
    starts = list(MARKER.finditer(text))
    if not starts:
        return [("module", text)]
    modules = []
    for i, match in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        modules.append((match.group(1), text[match.start():end]))
    return modules


def main(argv):
    ptxas = "ptxas"
    if len(argv) >= 2 and argv[0] == "--ptxas":
        ptxas, argv = argv[1], argv[2:]
    inputs = [i for i, a in enumerate(argv) if a.endswith(".ptx")]
    if len(inputs) != 1:
        sys.exit("ptxas-each: expected one .ptx file among the arguments")
    index = inputs[0]
    with open(argv[index]) as f:
        modules = split_modules(f.read())
    with tempfile.TemporaryDirectory(prefix="ptxas-each-") as work:
        def assemble(n, name, ptx):
            path = os.path.join(work, f"{n}-{name}.ptx")
            with open(path, "w") as f:
                f.write(ptx)
            args = list(argv)
            args[index] = path
            for i, arg in enumerate(args[:-1]):
                if arg == "-o":
                    args[i + 1] = f"{args[i + 1]}.{n}"
            return subprocess.run([ptxas] + args, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)
        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
            results = list(pool.map(lambda m: assemble(m[0], *m[1]), enumerate(modules)))
    status = 0
    for result in results:
        sys.stdout.write(result.stdout)
        if result.returncode and not status:
            status = result.returncode
    return status

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
