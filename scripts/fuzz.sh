#!/usr/bin/env bash
# Builds the instrumented fuzz target (clang-22, ASan + UBSan + libFuzzer, build-fuzz/) and runs
# it on the seed corpus for a bounded time (docs/fuzzing.md).
#
#   scripts/fuzz.sh [SECONDS] [libFuzzer options...]   fuzz for SECONDS (default 600)
#
# The seeds are the examples and the lit tests' programs (scripts/fuzz-corpus.py), rewritten on
# every run; what libFuzzer finds interesting accumulates in build-fuzz/fuzz/corpus across runs.
# A finding (crash, sanitizer report, timeout, out-of-memory) is written to
# build-fuzz/fuzz/findings-<date>/ and printed, and the script exits 1. Replay one with
# `build-fuzz/bin/softmax-fuzz FILE` (or the uninstrumented `build/bin/softmax-fuzz FILE`).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${SOFTMAX_FUZZ_BUILD:-$root/build-fuzz}
seconds=${1:-600}
[ $# -gt 0 ] && shift

start=$(date +%s)
SOFTMAX_FUZZ=1 "$root/scripts/setup.sh" "$build"
cmake --build "$build" --target softmax-fuzz -- -j"$(nproc)"
echo "fuzz: built softmax-fuzz in $(( $(date +%s) - start )) s"

work=$build/fuzz
findings=$work/findings-$(date -u +%Y%m%d-%H%M%S)
rm -rf "$work/seeds"
mkdir -p "$work/corpus" "$findings"
# SOFTMAX_FUZZ_QUICK=1 (CI): static programs only as seeds (scripts/fuzz-corpus.py --quick).
quick=()
[ "${SOFTMAX_FUZZ_QUICK:-0}" = 1 ] && quick=(--quick)
/usr/bin/python3 "$root/scripts/fuzz-corpus.py" "${quick[@]}" "$work/seeds"

# -timeout: a program that takes two minutes to compile is a finding (the slowest seeds, dynamic
# programs with a kernel per width tier, take 10-70 s instrumented on a busy machine, 2-7 s
# uninstrumented). -rss_limit_mb: a compile that needs 3 GB is one too. Leaks are reported like
# crashes. ASan's allocator costs most of the instrumented slowdown (LLVM allocates a lot): a
# smaller quarantine and shorter allocation stacks than the defaults (256 MB, 30 frames) halve
# it, and a use after free is still caught unless 64 MB were freed in between.
# allow_user_poisoning=0: llvm::BumpPtrAllocator poisons the rest of each new slab and unpoisons
# what it hands out, but only where it is compiled with ASan. MLIR's attribute storage is one
# allocator shared by our instrumented inline copies and libMLIR.so's uninstrumented ones, so an
# attribute that libMLIR.so allocates in a slab our code opened stays poisoned, and reading it
# was reported as a use-after-poison (a false positive, the first run's only "finding").
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:quarantine_size_mb=64:malloc_context_size=5:allow_user_poisoning=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-22/bin/llvm-symbolizer
# Without CUDA_HOME the pipeline does not link libdevice into every kernel module: the kernels
# need none (softmax-check-ptx fails a compile that would), and parsing it costs each input.
unset CUDA_HOME CUDA_PATH CUDA_ROOT
set +e
# SOFTMAX_FUZZ_SEED / SOFTMAX_FUZZ_RUNS (CI): a fixed seed and number of inputs make the run the
# same on every machine, so CI's verdict does not depend on what a random run stumbles on (the
# first random CI runs met a crash in upstream MLIR's linalg.broadcast parser: docs/fuzzing.md).
fixed=()
[ -n "${SOFTMAX_FUZZ_SEED:-}" ] && fixed+=(-seed="$SOFTMAX_FUZZ_SEED")
[ -n "${SOFTMAX_FUZZ_RUNS:-}" ] && fixed+=(-runs="$SOFTMAX_FUZZ_RUNS")
"$build/bin/softmax-fuzz" "${fixed[@]}" -max_total_time="$seconds" -timeout=120 -rss_limit_mb=3072 \
  -dict="$root/tools/softmax-fuzz/softmax.dict" -artifact_prefix="$findings/" \
  -print_final_stats=1 "$@" "$work/corpus" "$work/seeds"
status=$?
set -e
# 72: libFuzzer's exit status when interrupted (SIGINT, to end a long run early); its final
# stats are printed, and what it found before is in $findings like any other finding.
if [ "$status" -eq 72 ] && [ -z "$(ls "$findings" | grep -v '^slow-unit-')" ]; then
  echo "fuzz: interrupted, no finding ($(( $(date +%s) - start )) s in all)"
  exit 0
fi
if [ "$status" -ne 0 ]; then
  echo "fuzz: FINDING (libFuzzer exited $status)"
  ours=0
  for finding in "$findings"/*; do
    # slow-unit-*: inputs slower than any before (not findings; libFuzzer keeps them).
    case $(basename "$finding") in slow-unit-*) continue ;; esac
    [ -f "$finding" ] || continue
    echo "=== reproducer $finding (replay: $build/bin/softmax-fuzz $finding)"
    head -c 4000 "$finding" | cat -v
    echo
    # A crash that upstream's own mlir-opt meets by only parsing the input is upstream's
    # (docs/fuzzing.md lists those met so far): reported, not counted against this project.
    # mlir-opt does not know the softmax dialect, so an input that uses it never counts as
    # upstream's, nor does a hang or a memory blow-up (mlir-opt exits, not dies, on those).
    set +e
    timeout 60 /usr/lib/llvm-22/bin/mlir-opt "$finding" > /dev/null 2>&1
    upstream=$?
    set -e
    if [ "$upstream" -gt 128 ] && [ "$upstream" -ne 137 ]; then
      echo "=== upstream: /usr/lib/llvm-22/bin/mlir-opt dies on it too (exit $upstream), with no" \
        "code of this project; add it to docs/fuzzing.md and to hitsKnownUpstreamCrash"
    else
      ours=1
    fi
  done
  [ "$ours" = 1 ] && exit 1
  echo "fuzz: every finding is upstream's: not failing; the run stopped at the first of them"
  exit 0
fi
echo "fuzz: no finding (${SOFTMAX_FUZZ_RUNS:+$SOFTMAX_FUZZ_RUNS inputs, }at most $seconds s; $(( $(date +%s) - start )) s in all)"
