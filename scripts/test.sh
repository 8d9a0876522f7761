#!/usr/bin/env bash
# Sets up (scripts/setup.sh), builds, and runs every lit and unit test. Exits non-zero on any
# failure; the last line is a plain "N passed, N failed" summary.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
"$root/scripts/setup.sh" "$build"
jobs=$(nproc)
cmake --build "$build" --target softmax-opt SoftmaxUnitTests SoftmaxDialectDocGen -- -j"$jobs"
log=$(mktemp)
set +e
/usr/lib/llvm-22/bin/lit -v "$build/test" | tee "$log"
status=${PIPESTATUS[0]}
set -e
passed=$(grep -Eo '^ *Passed *: *[0-9]+' "$log" | grep -Eo '[0-9]+' || echo 0)
failed=$(grep -Eo '^ *(Failed|Unresolved|Timed Out) *: *[0-9]+' "$log" | grep -Eo '[0-9]+' | paste -sd+ | bc 2>/dev/null || echo 0)
unsupported=$(grep -Eo '^ *Unsupported *: *[0-9]+' "$log" | grep -Eo '[0-9]+' || echo 0)
rm -f "$log"
echo "tests: $passed passed, ${failed:-0} failed, $unsupported skipped"
exit "$status"
