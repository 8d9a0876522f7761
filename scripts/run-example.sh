#!/usr/bin/env bash
# The main job: set up, build, compile an example through the whole pipeline to PTX, and, where
# a GPU and its driver are present, run it and check it against the float64 reference.
#
#   scripts/run-example.sh [examples/NAME.mlir] [softmax-run options...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
example=${1:-$root/examples/attention_scores_bf16.mlir}
shift || true
"$root/scripts/setup.sh" "$build"
cmake --build "$build" --target softmax-opt softmax-run -- -j"$(nproc)"

ptx=$build/$(basename "${example%.mlir}").ptx
echo "== compiling $example to PTX"
# softmax-raise first: the linalg examples are raised into the dialect, the others left as they are.
"$build/bin/softmax-opt" "$example" --softmax-raise --softmax-to-nvvm="ptx-file=$ptx" \
  -o "${ptx%.ptx}.host.mlir"
echo "   kernels: $(grep -c '^.visible .entry' "$ptx")  ->  $ptx ($(wc -c <"$ptx") bytes of PTX)"
grep '^.visible .entry' "$ptx" | sed 's/^/     /'

echo "== running on the GPU (softmax-run)"
set +e
"$build/bin/softmax-run" "$example" --check --bench "$@"
status=$?
set -e
if [ $status -eq 3 ]; then
  echo "   (no GPU here: compiled only; see docs/runner.md to run it on one)"
  exit 0
fi
exit $status
