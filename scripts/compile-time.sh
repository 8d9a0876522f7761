#!/usr/bin/env bash
# Median in-process time to compile .mlir files to PTX with softmax-to-nvvm (parse, every pass,
# LLVM NVPTX codegen), as reported by MLIR's own --mlir-timing (so process start-up is excluded).
# softmax-raise runs first so that the linalg examples compile too (a no-op on the others).
#
#   scripts/compile-time.sh [REPS] [FILES...]     default: 21 runs of every examples/*.mlir
#
# SOFTMAX_OPT_FLAGS adds flags to every run, e.g. "--verify-each=0" (what the library API does
# in release builds) or "--disable-lsr" (an LLVM option, to measure its cost only). The last
# two columns are the minimum of the runs (the least disturbed by other jobs on the machine).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
opt=${SOFTMAX_OPT:-$root/build/bin/softmax-opt}
reps=${1:-21}
shift || true
files=("$@")
[ ${#files[@]} -gt 0 ] || files=("$root"/examples/*.mlir)
flags=(${SOFTMAX_OPT_FLAGS:-})
printf '%-40s %8s %12s %12s %12s %12s\n' file kernels median_ms backend_ms min_ms min_backend_ms
for f in "${files[@]}"; do
  kernels=$("$opt" "$f" --softmax-raise --softmax-to-nvvm="ptx-file=-" -o /dev/null 2>&1 | grep -c '^.visible .entry' || true)
  totals=(); backends=()
  for _ in $(seq "$reps"); do
    report=$("$opt" "$f" "${flags[@]}" --softmax-raise --softmax-to-nvvm --mlir-timing -o /dev/null 2>&1)
    totals+=("$(awk '/Total Execution Time/ {print $4 * 1000}' <<<"$report")")
    backends+=("$(awk '/GpuModuleToBinaryPass/ {print $1 * 1000}' <<<"$report")")
  done
  median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
  minimum() { printf '%s\n' "$@" | sort -g | head -1; }
  printf '%-40s %8s %12.1f %12.1f %12.1f %12.1f\n' "$(basename "$f")" "$kernels" \
    "$(median "${totals[@]}")" "$(median "${backends[@]}")" "$(minimum "${totals[@]}")" \
    "$(minimum "${backends[@]}")"
done
