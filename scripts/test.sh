#!/usr/bin/env bash
# Sets up (scripts/setup.sh), builds, and runs every lit and unit test. Exits non-zero on any
# failure; the last line is a plain "N passed, N failed" summary.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
"$root/scripts/setup.sh" "$build"
jobs=$(nproc)
cmake --build "$build" --target check-softmax-deps -- -j"$jobs"
log=$(mktemp)
set +e
/usr/lib/llvm-22/bin/lit -v --show-skipped --show-unsupported "$build/test" | tee "$log"
status=${PIPESTATUS[0]}
set -e
# lit's summary lines look like "  Passed: 12 (100.00%)" or "  Passed     : 55 (90.16%)".
count() {
  awk -v k="$1" '$0 ~ "^ *" k " *: *[0-9]+" { split($0, part, ":"); n += part[2] + 0 }
                 END { print n + 0 }' "$log"
}
passed=$(count Passed)
failed=$(( $(count Failed) + $(count Unresolved) + $(count "Timed Out") ))
skipped=$(( $(count Skipped) + $(count Unsupported) + $(count Excluded) ))
rm -f "$log"
echo "tests: $passed passed, $failed failed, $skipped skipped"
exit "$status"
