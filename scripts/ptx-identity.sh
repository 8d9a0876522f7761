#!/usr/bin/env bash
# Compares the PTX of two softmax-opt binaries kernel by kernel (scripts/compare-ptx.py) over the
# examples and the programs of test/Pipelines/ptxas-no-spills*.mlir: the check that a change meant
# to leave the kernels alone (a pipeline's structure, compile-time work) does so.
#
#   scripts/ptx-identity.sh OLD-softmax-opt NEW-softmax-opt [OUT-DIR]
#
# Prints one line a file (scripts/compare-ptx.py) and a total; exits 1 when any kernel differs.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
old=${1:?usage: ptx-identity.sh OLD-softmax-opt NEW-softmax-opt [OUT-DIR]}
new=${2:?usage: ptx-identity.sh OLD-softmax-opt NEW-softmax-opt [OUT-DIR]}
out=${3:-$(mktemp -d)}
mkdir -p "$out"
status=0
for file in "$root"/examples/*.mlir "$root"/test/Pipelines/ptxas-no-spills*.mlir; do
  name=$(basename "$file" .mlir)
  chip=sm_90
  case "$name" in *sm80*) chip=sm_80 ;; esac
  for side in old new; do
    binary=$old
    [ "$side" = new ] && binary=$new
    if ! "$binary" "$file" --softmax-raise \
        --softmax-to-nvvm="chip=$chip ptx-file=$out/$name.$side.ptx" -o /dev/null 2> "$out/$name.$side.err"; then
      echo "$name: the $side binary failed: $(head -3 "$out/$name.$side.err")"
      status=1
      continue 2
    fi
  done
  python3 "$root/scripts/compare-ptx.py" "$out/$name.old.ptx" "$out/$name.new.ptx" \
      "${file#"$root"/}" || status=1
done
[ "$status" = 0 ] && echo "ptx-identity: every kernel identical" || echo "ptx-identity: differences (files under $out)"
exit "$status"
