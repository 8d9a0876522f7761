#!/usr/bin/env python3
"""Which of LLVM's O3 passes change the kernels' PTX, and what each costs (docs/compile-time.md).

Takes every STRIDE-th kernel of the given programs (the kernels' LLVM dialect just before
softmax-serialize-kernels, translated with mlir-translate), runs LLVM's `default<O3>` as the
serializer does (opt, then llc -O3 for the chip), and then O3 with each named pass replaced by a
no-op: prints, per pass, how many kernels keep the PTX of O3 exactly (comments and blank lines
aside) and the pass's share of O3's time over the sample (`-time-passes`). A pass whose removal
leaves every kernel's PTX alone costs compile time for nothing on these kernels; one that changes
a kernel is doing work that ptxas and the GPU would see.

    scripts/llvm-pass-ablation.py --softmax-opt build/bin/softmax-opt [--stride 8] \
        [--passes loop-load-elim,slp-vectorizer,...] FILE...
"""
import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

LLVM = "/usr/lib/llvm-22/bin"
TRIPLE = "nvptx64-nvidia-cuda"
DATALAYOUT = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
# Passes of O3 that find little to do in straight-line GPU kernels, and the costly ones.
DEFAULT_PASSES = ("loop-load-elim,slp-vectorizer,loop-vectorize,loop-distribute,chr,"
                  "aggressive-instcombine,libcalls-shrinkwrap,tailcallelim,memcpyopt,dse,"
                  "jump-threading,loop-idiom,bdce,adce,mldst-motion,float2int,callsite-splitting,"
                  "called-value-propagation,openmp-opt,correlated-propagation,"
                  "constraint-elimination,ipsccp,sccp,vector-combine,loop-unroll,"
                  "speculative-execution")
# Each pass's name in `-time-passes` (its class, without "Pass").
CLASS_NAMES = {
    "loop-load-elim": "LoopLoadElimination", "slp-vectorizer": "SLPVectorizer",
    "loop-vectorize": "LoopVectorize", "loop-distribute": "LoopDistribute",
    "chr": "ControlHeightReduction", "aggressive-instcombine": "AggressiveInstCombine",
    "libcalls-shrinkwrap": "LibCallsShrinkWrap", "tailcallelim": "TailCallElim",
    "memcpyopt": "MemCpyOpt", "dse": "DSE", "jump-threading": "JumpThreading",
    "loop-idiom": "LoopIdiomRecognize", "bdce": "BDCE", "adce": "ADCE",
    "mldst-motion": "MergedLoadStoreMotion", "float2int": "Float2Int",
    "callsite-splitting": "CallSiteSplitting", "called-value-propagation": "CalledValuePropagation",
    "openmp-opt": "OpenMPOpt", "correlated-propagation": "CorrelatedValuePropagation",
    "constraint-elimination": "ConstraintElimination", "ipsccp": "IPSCCP", "sccp": "SCCP",
    "vector-combine": "VectorCombine", "loop-unroll": "LoopUnroll",
    "speculative-execution": "SpeculativeExecution", "instcombine": "InstCombine", "gvn": "GVN",
}
LOOP_PASSES = {"loop-idiom", "loop-deletion", "indvars", "loop-unroll-full", "loop-instsimplify",
               "loop-simplifycfg"}
MODULE_PASSES = {"ipsccp", "called-value-propagation", "openmp-opt", "globalopt", "deadargelim",
                 "constmerge", "globaldce", "elim-avail-extern", "rpo-function-attrs"}


def kernels_of(softmax_opt, path, chip, stride):
    """The LLVM IR text of every `stride`-th kernel module of `path` (all of them when it has
    four or fewer), {name: text}."""
    dump = subprocess.run(
        [softmax_opt, path, "--softmax-raise", f"--softmax-to-nvvm=chip={chip}",
         "--mlir-print-ir-before=softmax-serialize-kernels", "-o", "/dev/null"],
        capture_output=True, text=True)
    if dump.returncode:
        sys.exit(f"{path}: softmax-opt failed:\n{dump.stderr[-2000:]}")
    lines, modules, i = dump.stderr.split("\n"), {}, 0
    while i < len(lines):
        match = re.match(r"  gpu\.module @(\w+) ", lines[i])
        i += 1
        if not match:
            continue
        body = []
        while lines[i] != "  }":
            body.append(lines[i])
            i += 1
        modules[match.group(1)] = body
    found = {}
    for index, (name, body) in enumerate(sorted(modules.items())):
        if index % stride and len(modules) > 4:
            continue
        translated = subprocess.run([f"{LLVM}/mlir-translate", "--mlir-to-llvmir"],
                                    input="module {\n" + "\n".join(body) + "\n}\n",
                                    capture_output=True, text=True, check=True).stdout
        found[name] = (f'target datalayout = "{DATALAYOUT}"\n'
                                 f'target triple = "{TRIPLE}"\n' + translated)
    return found


def o3_pipeline(ll, chip):
    """O3's pipeline as text (opt -print-pipeline-passes), to take passes out of."""
    text = subprocess.run(
        [f"{LLVM}/opt", f"-mtriple={TRIPLE}", f"-mcpu={chip}", "-passes=default<O3>",
         "-print-pipeline-passes", ll, "-o", "/dev/null"],
        capture_output=True, text=True).stdout.strip()
    # opt prints the pipeline, then fails to parse it back for its own bitcode writer.
    return text.removesuffix(",BitcodeWriterPass")


def without(pipeline, name):
    kind = "loop" if name in LOOP_PASSES else "module" if name in MODULE_PASSES else "function"
    edited = re.sub(r"(?<=[,(])" + re.escape(name) + r"(<[^>]*>)?(?=[,)])", f"no-op-{kind}",
                    pipeline)
    if edited == pipeline:
        sys.exit(f"llvm-pass-ablation: no pass '{name}' in O3's pipeline")
    return edited


def compile_kernel(ll, chip, pipeline, time_passes=False):
    """(normalized PTX, {pass: seconds} when time_passes)."""
    opt = subprocess.run(
        [f"{LLVM}/opt", f"-mtriple={TRIPLE}", f"-mcpu={chip}", "-mattr=+ptx80",
         f"-passes={pipeline}", ll, "-o", "-"] + (["-time-passes"] if time_passes else []),
        capture_output=True, check=True)
    llc = subprocess.run(
        [f"{LLVM}/llc", "-O3", f"-mcpu={chip}", "-mattr=+ptx80", "-asm-verbose=false", "-o", "-"],
        input=opt.stdout, capture_output=True, check=True)
    ptx = [re.sub(r"//.*", "", line).rstrip() for line in llc.stdout.decode().split("\n")]
    times = collections.Counter()
    for line in opt.stderr.decode().split("\n") if time_passes else []:
        columns = re.findall(r"([0-9.]+) \(\s*[0-9.]+%\)", line)
        name = re.split(r"\)\s+", line.strip())[-1]
        if columns and "Total" not in name:
            times[re.sub(r"Pass$", "", name)] += float(columns[-1])
    return "\n".join(line for line in ptx if line), times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--softmax-opt", required=True)
    parser.add_argument("--stride", type=int, default=8)
    parser.add_argument("--passes", default=DEFAULT_PASSES)
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="llvm-pass-ablation-")
    sample = []
    for path in args.files:
        chip = "sm_80" if "sm80" in os.path.basename(path) else "sm_90"
        for name, text in kernels_of(args.softmax_opt, path, chip, args.stride).items():
            ll = os.path.join(work, name + ".ll")
            open(ll, "w").write(text)
            sample.append((ll, chip))
    pipeline = o3_pipeline(sample[0][0], sample[0][1])
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        base = list(pool.map(lambda k: compile_kernel(*k, pipeline, True), sample))
        total = collections.Counter()
        for _, times in base:
            total.update(times)
        o3_seconds = sum(total.values())
        print(f"# {len(sample)} kernels (every {args.stride}th of {len(args.files)} programs); "
              f"O3 {1000 * o3_seconds / len(sample):.1f} ms a kernel (opt -time-passes, "
              f"all passes and analyses)")
        print(f"{'pass taken out':<28} {'kernels with O3s PTX':>21} {'share of O3':>12}")
        for name in args.passes.split(","):
            edited = without(pipeline, name)
            results = list(pool.map(lambda k: compile_kernel(*k, edited)[0], sample))
            same = sum(ptx == old for ptx, (old, _) in zip(results, base))
            key = CLASS_NAMES.get(name)
            share = f"{100 * total[key] / o3_seconds:.1f}%" if key in total else "?"
            print(f"{name:<28} {same:>10} of {len(sample):<8} {share:>12}")
    print("# top of O3's time:")
    for name, seconds in total.most_common(8):
        print(f"#   {name:<40} {100 * seconds / o3_seconds:5.1f}%")


if __name__ == "__main__":
    main()
