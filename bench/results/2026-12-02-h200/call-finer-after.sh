#!/usr/bin/env bash
# The finer 16-bit tiers and the static rule of 16 values a thread on whole warps, as chosen
# (2026-12-02, fourth session), beside the plans of bb9d246 in the same device call: per width
# the static program as chosen now, the same on the plan chosen at bb9d246 where it differs
# (finer/st_<type>_<width>_bb9d246.mlir, written by hand), the dynamic program as chosen now and
# with the plans of bb9d246 (finer/dyn_<type>_bb9d246.mlir); fractions of a copy of the same
# bytes in the same process, 256 MiB of input; a table last.
set -u
here=$(cd "$(dirname "$0")" && pwd)
W=/tmp/wfiner2; rm -rf $W; mkdir -p $W/logs $W/p
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
    [ -f $here/finer/st_${dt}_${n}_bb9d246.mlir ] &&
      run $here/finer/st_${dt}_${n}_bb9d246.mlir $W/logs/stbefore_${dt}_$n.json
  done
  t="tensor<?x?x$dt>"
  printf 'func.func @softmax(%%x: %s) -> %s {\n  %%y = softmax.softmax %%x : %s\n  return %%y : %s\n}\n' "$t" "$t" "$t" "$t" > $W/p/dyn_$dt.mlir
  run $W/p/dyn_$dt.mlir $W/logs/dyn_$dt.json $cases
  run $here/finer/dyn_${dt}_bb9d246.mlir $W/logs/before_$dt.json $cases
  read -r -a dyn <<< "$(frac $W/logs/dyn_$dt.json)"
  read -r -a before <<< "$(frac $W/logs/before_$dt.json)"
  i=0
  for n in ${WIDTHS[$dt]}; do
    st=$(frac $W/logs/st_${dt}_$n.json)
    stb=-; [ -f $W/logs/stbefore_${dt}_$n.json ] && stb=$(frac $W/logs/stbefore_${dt}_$n.json)
    ratio=$(python3 -c "s,d='$st','${dyn[$i]:-}'
print(f'{float(d)/float(s):.3f}' if s not in ('-','') and d not in ('-','') and float(s) > 0 else '-')")
    rows+=("$(printf '%-5s %6s  %7s %7s  %7s %7s  %7s' $dt $n "$stb" "$st" "${before[$i]:--}" \
      "${dyn[$i]:--}" "$ratio")")
    i=$((i + 1))
  done
done
mkdir -p "${OUT:-/tmp}"; tar -C $W -cJf "${OUT:-/tmp}/finer-after-logs.tar.xz" logs p 2>/dev/null
echo
echo "dtype width  static: bb9d246   now  dynamic: bb9d246   now  now/static"
printf '%s\n' "${rows[@]}"
