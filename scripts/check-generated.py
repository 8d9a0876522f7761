#!/usr/bin/env python3
"""Property checks over generated programs (scripts/softmax_gen.py, docs/fuzzing.md).

For every seed of --compile (e.g. 1-20): the program must compile through --softmax-to-nvvm
to PTX with exit status 0 and no diagnostic at all, and, with --ptxas, every gpu.binary's PTX
must assemble for sm_90 (`ptxas -v`) without a spill.

For every seed of --evaluate (small programs: `generate(seed, small=True)`): softmax-run
--emulate-device writes the runner's float64 reference result for inputs generated here, which
must agree with this script's own float64 evaluation of the program (softmax_gen.evaluate, from
the dialect's documented semantics) to within a unit or two in the last place of the result
type. (--emulate-device copies the reference's results as the "device" results, so this checks
the reference and the runner's data handling, not the kernels.)

For every seed of --gpu (on a machine with a GPU; scripts/gpu/run.sh generated): the program of
--compile, with sizes drawn here for its dynamic dimensions (rows up to 131072 columns, at most
2^24 elements), runs on the device through softmax-run on inputs the runner generates, and its
results must match the runner's float64 reference of the unfused program (softmax-run's own
check, exit status 0). A program whose static sizes alone exceed 2^24 elements is passed over and
counted as such. --jobs runs that many programs at once.

    scripts/check-generated.py --softmax-opt build/bin/softmax-opt \\
        --softmax-run build/bin/softmax-run [--ptxas /usr/local/cuda/bin/ptxas] \\
        [--compile 1-20] [--evaluate 1-10] [--gpu 1-1000 --jobs 16] [--keep DIR] \
        [--family axis]

--family axis takes the programs of the strided_axis family (softmax_gen.generate_axis: a
softmax over an axis that is not the last) instead of the row family's.

Prints one line per program and a final `generated: ...` summary; exits 1 on any failure,
printing the program, the command and its output.
"""
import argparse
import concurrent.futures
import math
import os
import pathlib
import random
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import softmax_gen  # noqa: E402


def seeds(spec):
    """'1-5,9' -> [1, 2, 3, 4, 5, 9]."""
    out = []
    for part in filter(None, spec.split(",")):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def run(cmd, timeout=300):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    return proc.returncode, proc.stdout + proc.stderr


class Failure(Exception):
    pass


def check_compile(seed, args, work):
    program = softmax_gen.generate_family(args.family, seed)
    src = work / f"{program.name}.mlir"
    src.write_text(program.text())
    ptx = work / f"{program.name}.ptx"
    cmd = [args.softmax_opt, f"--softmax-to-nvvm=ptx-file={ptx}", str(src), "-o", os.devnull]
    status, output = run(cmd)
    if status != 0 or output.strip():
        raise Failure(f"softmax-opt exited {status} or printed a diagnostic", program, cmd, output)
    binaries = re.split(r"^// gpu\.binary @\S+\n", ptx.read_text(), flags=re.MULTILINE)[1:]
    if not binaries:
        raise Failure("no PTX was produced", program, cmd, output)
    note = f"{len(binaries)} PTX module(s)"
    if not args.ptxas:
        return note
    kernels = 0
    for i, text in enumerate(binaries):
        part = work / f"{program.name}.{i}.ptx"
        part.write_text(text)
        cmd = [args.ptxas, "-arch=sm_90", "-v", str(part), "-o", os.devnull]
        status, output = run(cmd)
        if status != 0:
            raise Failure("ptxas rejected the PTX", program, cmd, output)
        spills = [l for l in output.splitlines()
                  if re.search(r"\b[1-9]\d* bytes spill (stores|loads)", l)]
        if spills:
            raise Failure("ptxas spilled", program, cmd, output)
        kernels += len(re.findall(r"Compiling entry function", output))
    return f"{note}, {kernels} kernels assembled without spills"


# -- inputs and .npy files ------------------------------------------------------------------

NPY_DESCR = {"f32": "<f4", "f16": "<f2", "bf16": "<V2", "i32": "<i4", "i64": "<i8", "i1": "|b1"}


def write_npy(path, elem, shape, values):
    header = (f"{{'descr': '{NPY_DESCR[elem]}', 'fortran_order': False, 'shape': "
              f"({''.join(f'{d}, ' for d in shape).rstrip(' ') if len(shape) != 1 else f'{shape[0]},'}), }}")
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    data = bytearray()
    for v in values:
        if elem == "f32":
            data += struct.pack("<f", v)
        elif elem == "f16":
            data += struct.pack("<e", v)
        elif elem == "bf16":
            data += struct.pack("<H", struct.unpack("<I", struct.pack("<f", v))[0] >> 16)
        elif elem == "i32":
            data += struct.pack("<i", v)
        elif elem == "i64":
            data += struct.pack("<q", v)
        else:
            data += bytes([1 if v else 0])
    path.write_bytes(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() +
                     bytes(data))


def read_npy(path):
    raw = path.read_bytes()
    length = struct.unpack("<H", raw[8:10])[0]
    header = raw[10:10 + length].decode()
    descr = re.search(r"'descr':\s*'([^']+)'", header).group(1)
    data = raw[10 + length:]
    if descr == "<f4":
        return list(struct.unpack(f"<{len(data) // 4}f", data))
    if descr == "<f2":
        return list(struct.unpack(f"<{len(data) // 2}e", data))
    if descr == "<V2":
        return [struct.unpack("<f", struct.pack("<I", h << 16))[0]
                for h in struct.unpack(f"<{len(data) // 2}H", data)]
    raise ValueError(f"{path}: unexpected descr {descr}")


def make_inputs(program, rng):
    """Inputs exactly representable in their types, and the sizes of the dynamic dimensions."""
    sizes = {}
    for i, d in enumerate(program.shape):
        if softmax_gen.is_dyn(d):
            sizes[i] = rng.choice([1, 2, 3, 5, 8, 33] if i == program.axis() else [1, 2, 3])
    shape = softmax_gen.concrete(program.shape, sizes)
    width = shape[program.axis()]
    inputs, files = {}, []
    for name, kind, elem, arg_shape in program.arg_shapes:
        if kind == "scalar":
            inputs[name] = rng.choice([0.5, 2.0, -1.5, 0.75, 1.0])
            files.append(repr(inputs[name]))
            continue
        concrete = softmax_gen.concrete(arg_shape, sizes)
        count = math.prod(concrete)
        if kind in ("x", "bias"):
            etype = elem if kind == "x" else re.search(r"(f32|f16|bf16)>$", elem).group(1)
            values = [softmax_gen.round_to(rng.gauss(0, 3), etype) for _ in range(count)]
            if kind == "x" and count and rng.random() < 0.3:
                # A fully masked row (every element -inf) for the masked_rows policy.
                for j in range(width):
                    values[j * math.prod(shape[program.axis() + 1:])] = float("-inf")
        elif kind == "lengths":
            etype = "i32" if "i32" in elem else "i64"
            values = [rng.randint(-1, width + 1) for _ in range(count)]
        else:
            etype = "i1"
            values = [rng.random() < 0.8 for _ in range(count)]
        inputs[name] = values
        files.append((etype, concrete, values))
    return inputs, sizes, files


def ulp_tolerance(elem):
    return {"f32": 2.0 ** -22, "f16": 2.0 ** -9, "bf16": 2.0 ** -6}[elem]


def check_evaluate(seed, args, work):
    program = softmax_gen.generate_family(args.family, seed, small=True)
    src = work / f"eval_{seed}.mlir"
    src.write_text(program.text())
    rng = random.Random(seed * 7919 + 1)
    inputs, sizes, files = make_inputs(program, rng)
    cmd = [args.softmax_run, "--emulate-device", str(src), f"--entry={program.name}"]
    for i, spec in enumerate(files):
        if isinstance(spec, str):
            cmd.append(f"--input={spec}")
            continue
        path = work / f"eval_{seed}.in{i}.npy"
        write_npy(path, *spec)
        cmd.append(f"--input=@{path}")
    out = work / f"eval_{seed}.out.npy"
    cmd.append(f"--output=@{out}")
    status, output = run(cmd)
    if status != 0:
        raise Failure(f"softmax-run --emulate-device exited {status}", program, cmd, output)
    got = read_npy(out)
    want = program.evaluate(inputs, sizes)
    if len(got) != len(want):
        raise Failure(f"{len(got)} results, expected {len(want)}", program, cmd, output)
    tol = ulp_tolerance(program.out_elem)
    for i, (g, w) in enumerate(zip(got, want)):
        same = (math.isnan(g) and math.isnan(w)) or g == w or (
            math.isfinite(g) and math.isfinite(w) and abs(g - w) <= tol * max(abs(w), 2.0 ** -10))
        if not same:
            raise Failure(f"element {i}: the reference gives {g!r}, float64 here gives {w!r}",
                          program, cmd, output)
    return f"{len(got)} elements agree"


# Sizes of a dynamic dimension on the GPU: the last axis across the plans' boundaries (a warp,
# the register tiers, row_shared, the chunked tier), the others a few rows or many.
GPU_WIDTHS = [1, 3, 32, 33, 100, 1000, 1024, 4097, 16384, 16385, 57857, 131072]
GPU_OTHER_SIZES = [1, 2, 3, 7, 64, 129, 1000]
GPU_MAX_ELEMENTS = 1 << 24


class PassedOver(Exception):
    pass


def gpu_sizes(program, rng):
    """Sizes for the dynamic dimensions, within GPU_MAX_ELEMENTS where the static sizes allow."""
    axis = program.axis()
    static = math.prod(1 if softmax_gen.is_dyn(d) else d for d in program.shape)
    if static > GPU_MAX_ELEMENTS:
        raise PassedOver(f"{static} elements in its static sizes alone")
    sizes = {}
    for i, d in enumerate(program.shape):
        if softmax_gen.is_dyn(d):
            sizes[i] = rng.choice(GPU_WIDTHS if i == axis else GPU_OTHER_SIZES)
    # Shrink the largest dynamic size until the tensor fits.
    while math.prod(softmax_gen.concrete(program.shape, sizes)) > GPU_MAX_ELEMENTS:
        i = max(sizes, key=lambda k: sizes[k])
        sizes[i] = max(1, sizes[i] // 4)
    return sizes


def check_gpu(seed, args, work):
    program = softmax_gen.generate_family(args.family, seed)
    rng = random.Random(seed * 104729 + 3)
    sizes = gpu_sizes(program, rng)
    src = work / f"gpu_{program.name}.mlir"
    src.write_text(program.text())
    # Every property that applies is checked besides the reference (docs/runner.md, "Properties").
    cmd = [args.softmax_run, *args.runner_arg, str(src), f"--entry={program.name}", f"--seed={seed}",
           f"--scalar={rng.choice([0.5, 2.0, -1.5, 0.75, 1.0])}", "--property=all"]
    for _, kind, _, arg_shape in program.arg_shapes:
        if kind != "scalar" and any(softmax_gen.is_dyn(d) for d in arg_shape):
            cmd.append("--shape=" + "x".join(map(str, softmax_gen.concrete(arg_shape, sizes))))
    status, output = run(cmd, timeout=600)
    if status != 0:
        raise Failure(f"softmax-run exited {status}", program, cmd, output)
    shape = "x".join(map(str, softmax_gen.concrete(program.shape, sizes))) or "scalar"
    plans = sorted(set(re.findall(r"\b(multi_row|row_registers|row_cluster|row_staged|row_shared|"
                                  r"chunked_online|row_split|strided_axis)\b", output)))
    held = len(re.findall(r"^property: .*: holds", output, re.M))
    applied = ", ".join(sorted(set(re.findall(r"^property: (\S+) .*: holds", output, re.M))))
    return (f"{shape} {program.in_elem}->{program.out_elem} checked (plans compiled: "
            f"{', '.join(plans) or '?'}; properties held: {held}{' (' + applied + ')' if applied else ''})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--softmax-opt")
    parser.add_argument("--softmax-run")
    parser.add_argument("--ptxas")
    parser.add_argument("--compile", default="", help="seeds to compile, e.g. 1-20")
    parser.add_argument("--evaluate", default="", help="seeds to evaluate, e.g. 1-10")
    parser.add_argument("--gpu", default="", help="seeds to run on the GPU, e.g. 1-1000")
    parser.add_argument("--jobs", type=int, default=1, help="programs at once (--gpu)")
    parser.add_argument("--runner-arg", action="append", default=[],
                        help="an extra softmax-run argument of --gpu (repeat it); "
                             "--runner-arg=--emulate-device checks the commands on a machine "
                             "without a GPU")
    parser.add_argument("--keep", help="write the programs and files here (default: a temp dir)")
    parser.add_argument("--family", choices=["rows", "axis"], default="rows",
                        help="the generator's family: softmaxes over the last axis (rows) or "
                             "over another (axis: the strided_axis kernels)")
    args = parser.parse_args()
    if (args.evaluate or args.gpu) and not args.softmax_run:
        parser.error("--evaluate and --gpu need --softmax-run")
    if (args.compile or args.evaluate) and not args.softmax_opt:
        parser.error("--compile and --evaluate need --softmax-opt")
    failures = compiled = evaluated = ran = passed_over = 0
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(args.keep or tmp)
        work.mkdir(parents=True, exist_ok=True)
        jobs = [("compile", s, check_compile) for s in seeds(args.compile)]
        jobs += [("evaluate", s, check_evaluate) for s in seeds(args.evaluate)]
        jobs += [("gpu", s, check_gpu) for s in seeds(args.gpu)]

        def one(job):
            what, seed, check = job
            try:
                return what, seed, "ok", check(seed, args, work)
            except PassedOver as why:
                return what, seed, "passed over", why.args[0]
            except Failure as failure:
                return what, seed, "FAIL", failure.args
            except subprocess.TimeoutExpired as timeout:
                return what, seed, "FAIL", (f"timed out after {timeout.timeout} s",
                                            softmax_gen.generate_family(args.family, seed), timeout.cmd, "")

        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            # Printed as they finish, so that a run stopped early keeps what it checked.
            done = concurrent.futures.as_completed([pool.submit(one, job) for job in jobs])
            for what, seed, result, note in (future.result() for future in done):
                if result == "ok":
                    print(f"ok: {what} seed {seed}: {note}", flush=True)
                    if what == "compile":
                        compiled += 1
                    elif what == "evaluate":
                        evaluated += 1
                    else:
                        ran += 1
                elif result == "passed over":
                    passed_over += 1
                    print(f"passed over: {what} seed {seed}: {note}", flush=True)
                else:
                    failures += 1
                    reason, program, cmd, output = note
                    print(f"FAIL: {what} seed {seed}: {reason}\n--- program\n{program.text()}"
                          f"--- command\n{' '.join(map(str, cmd))}\n--- output\n{output}---",
                          flush=True)
    print(f"generated: {compiled} compiled{' and assembled' if args.ptxas else ''}, "
          f"{evaluated} evaluated, {failures} failed"
          + (f"; on the GPU {ran} ran checked, {passed_over} passed over (too large)"
             if args.gpu else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
