#!/usr/bin/env bash
# Dynamic rows off the 16-byte boundary (2026-12-02): each dynamic tier serving such widths lists
# its plan on narrower vectors after its own (the tier's alternatives, docs/strategies.md rule 7).
# Per width, in one device call: the static program, the dynamic program as
# softmax-select-strategy now plans it, and the same dynamic program with the plans it had
# before the alternatives (alternatives/dyn_*_before.mlir, written by hand: the list without
# them), each as a fraction of a copy of the same bytes in the same process. 256 MiB of input a
# shape; static programs one process per width, each dynamic program one process with every
# shape a --case. Prints a table last.
set -u
here=$(cd "$(dirname "$0")" && pwd)
W=/tmp/walternatives; rm -rf $W; mkdir -p $W/logs $W/p
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
# 16-bit: vectors of 4 (700, 1100, 1500, 2500, 3500), of neither 8 nor 4 (1001, 1002: the last
# alternative's general kernel), whole vectors of 8 (1024, 3000: unchanged). f32: vectors of 1
# (513, 1025, 1537, 2047) and 2 (514, 1026), of 4 (1000, 1100: unchanged).
# Where alternatives/st_<type>_<width>_before.mlir exists (16-bit widths that no vector of 4
# divides, whose static plan moved to vectors of 4 after 7c3010d), its static program with the
# plan of before too. ALT_<type>_WIDTHS overrides a type's widths.
declare -A WIDTHS=( [bf16]="${ALT_BF16_WIDTHS:-700 1001 1002 1024 1100 1500 2500 3000 3500}" [f16]="${ALT_F16_WIDTHS:-1002 1100 3500}" [f32]="${ALT_F32_WIDTHS:-513 514 1000 1025 1026 1100 1537 2047}" )
rows=()
for dt in bf16 f16 f32; do
  bytes=2; [ $dt = f32 ] && bytes=4
  cases=""
  for n in ${WIDTHS[$dt]}; do
    m=$(( (256 << 20) / bytes / n )); cases="$cases --case=${m}x$n"
    t="tensor<${m}x${n}x$dt>"
    printf 'func.func @softmax(%%x: %s) -> %s {\n  %%y = softmax.softmax %%x : %s\n  return %%y : %s\n}\n' "$t" "$t" "$t" "$t" > $W/p/st_${dt}_$n.mlir
    run $W/p/st_${dt}_$n.mlir $W/logs/st_${dt}_$n.json
    [ -f $here/alternatives/st_${dt}_${n}_before.mlir ] &&
      run $here/alternatives/st_${dt}_${n}_before.mlir $W/logs/stbefore_${dt}_$n.json
  done
  t="tensor<?x?x$dt>"
  printf 'func.func @softmax(%%x: %s) -> %s {\n  %%y = softmax.softmax %%x : %s\n  return %%y : %s\n}\n' "$t" "$t" "$t" "$t" > $W/p/dyn_$dt.mlir
  run $W/p/dyn_$dt.mlir $W/logs/dyn_$dt.json $cases
  run $here/alternatives/dyn_${dt}_before.mlir $W/logs/before_$dt.json $cases
  read -r -a dyn <<< "$(frac $W/logs/dyn_$dt.json)"
  read -r -a before <<< "$(frac $W/logs/before_$dt.json)"
  i=0
  for n in ${WIDTHS[$dt]}; do
    st=$(frac $W/logs/st_${dt}_$n.json)
    ratio=$(python3 -c "s,d='$st','${dyn[$i]:-}'
print(f'{float(d)/float(s):.3f}' if s not in ('-','') and d not in ('-','') and float(s) > 0 else '-')")
    stb=-; [ -f $W/logs/stbefore_${dt}_$n.json ] && stb=$(frac $W/logs/stbefore_${dt}_$n.json)
    rows+=("$(printf '%-5s %6s  %7s %7s  %7s %7s  %7s' $dt $n "$stb" "$st" "${before[$i]:--}" \
      "${dyn[$i]:--}" "$ratio")")
    i=$((i + 1))
  done
done
mkdir -p "${OUT:-/tmp}"; tar -C $W -cJf "${OUT:-/tmp}/alternatives-logs.tar.xz" logs p 2>/dev/null
echo
echo "dtype width  static: before    now  dynamic: before   now  now/static"
printf '%s\n' "${rows[@]}"
