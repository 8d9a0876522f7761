#!/usr/bin/env bash
# Dynamic 16-bit rows of 1025-4095 columns on finer tiers (2026-12-02, fourth session). The
# tiers' alternatives on vectors of 4 (7c3010d) have fixed lanes: 128 for 1025-2048 columns, 256
# for 2049-4096, where a static width takes the whole warps that 12-16 values a thread fill
# (96-256), so dynamic bf16 1025, 1100, 2500 and 3001 ran at 0.74-0.94 of their static twins
# (alternatives-a2260ab.txt). Per width, in one device call: the static program as chosen, the
# dynamic program as chosen at bb9d246 and the same with finer tiers of 16 values on vectors of
# 4 at 96, 160, 192 and 224 lanes (finer/dyn_*_finer.mlir, written by hand); and static plans
# written by hand (finer/st_*.mlir: one row a block, 16 values a thread). Each a fraction of a
# copy of the same bytes in the same process, 256 MiB of input; a table last.
set -u
here=$(cd "$(dirname "$0")" && pwd)
W=/tmp/wfiner; rm -rf $W; mkdir -p $W/logs $W/p
tar -C $W -xJf .device/softmax-tools.tar.xz
RUN=$W/softmax/bin/softmax-run
cat $W/softmax/VERSION
frac() { python3 -c "
import json,sys
d=json.load(open('$1')); d=d if isinstance(d,list) else [d]
print(' '.join(f\"{r.get('fraction_of_copy') or 0:.3f}\" for r in d))" 2>/dev/null || echo "-"; }
run() { # file json [cases...]
  local file=$1 json=$2; shift 2
  timeout 150 $RUN $file "$@" --no-check --bench --reps=20 --warmup=5 --json=$json > $json.log 2>&1 || echo "exit $? for $file ($json)" >&2
}
declare -A WIDTHS=( [bf16]="${FINER_BF16_WIDTHS:-1025 1100 1280 1300 1536 1537 2049 2500 2501 2560 3001 3072 3500 3584 4095}" [f16]="${FINER_F16_WIDTHS:-1100 2501 3001 3072}" )
rows=()
for dt in bf16 f16; do
  cases=""
  for n in ${WIDTHS[$dt]}; do
    m=$(( (256 << 20) / 2 / n )); cases="$cases --case=${m}x$n"
    t="tensor<${m}x${n}x$dt>"
    printf 'func.func @softmax(%%x: %s) -> %s {\n  %%y = softmax.softmax %%x : %s\n  return %%y : %s\n}\n' "$t" "$t" "$t" "$t" > $W/p/st_${dt}_$n.mlir
    run $W/p/st_${dt}_$n.mlir $W/logs/st_${dt}_$n.json
  done
  t="tensor<?x?x$dt>"
  printf 'func.func @softmax(%%x: %s) -> %s {\n  %%y = softmax.softmax %%x : %s\n  return %%y : %s\n}\n' "$t" "$t" "$t" "$t" > $W/p/dyn_$dt.mlir
  run $W/p/dyn_$dt.mlir $W/logs/dyn_$dt.json $cases
  run $here/finer/dyn_${dt}_finer.mlir $W/logs/finer_$dt.json $cases
  read -r -a dyn <<< "$(frac $W/logs/dyn_$dt.json)"
  read -r -a finer <<< "$(frac $W/logs/finer_$dt.json)"
  i=0
  for n in ${WIDTHS[$dt]}; do
    st=$(frac $W/logs/st_${dt}_$n.json)
    hand=""
    for f in $here/finer/st_${dt}_${n}_*.mlir; do
      [ -f "$f" ] || continue
      b=$(basename $f .mlir); run $f $W/logs/$b.json
      hand="$hand ${b##*_}=$(frac $W/logs/$b.json)"
    done
    rows+=("$(printf '%-5s %6s  %7s  %7s %7s  %s' $dt $n "$st" "${dyn[$i]:--}" "${finer[$i]:--}" "$hand")")
    i=$((i + 1))
  done
done
# A reference check of the finer dynamic programs at the widths off the 8-byte boundary.
checks=""
for dt in bf16 f16; do
  timeout 200 $RUN $here/finer/dyn_${dt}_finer.mlir --case=37x1025 --case=37x1537 --case=37x2501 --case=37x3001 --case=37x3583 --case=37x1100 --json=$W/logs/check_$dt.json > $W/logs/check_$dt.log 2>&1
  checks="$checks $dt: $(python3 -c "import json;d=json.load(open('$W/logs/check_$dt.json'));d=d if isinstance(d,list) else [d];print(sum(1 for r in d if r.get('pass')),'of',len(d))" 2>/dev/null || echo '-')"
done
mkdir -p "${OUT:-/tmp}"; tar -C $W -cJf "${OUT:-/tmp}/finer-logs.tar.xz" logs p 2>/dev/null
echo
echo "reference checks of the finer tiers:$checks"
echo "dtype width  static  dynamic: now   finer  static hand plans"
printf '%s\n' "${rows[@]}"
