#!/usr/bin/env bash
# Widths inside a tier (2026-12-02): blocks of whole warps (static plans) and elastic lanes
# (dynamic tiers), new tools beside an older softmax-run (.device/old/softmax-run.xz: that of
# 1822dc7, the last with power-of-two lanes, in the first four calls; that of bad76b6 in the
# sixth, before the 48-register elastic budget) in the same process sequence, fraction of a copy of the same
# bytes in the same process. 256 MiB of input a shape; static programs one process per width,
# each dynamic program one process with every shape a --case. Prints a table last.
set -u
W=/tmp/welastic; rm -rf $W; mkdir -p $W/logs $W/p
tar -C $W -xJf .device/softmax-tools.tar.xz
xz -dc .device/old/softmax-run.xz > $W/old-softmax-run; chmod +x $W/old-softmax-run
NEW=$W/softmax/bin/softmax-run; OLD=$W/old-softmax-run
cat $W/softmax/VERSION
frac() { python3 -c "
import json,sys
d=json.load(open('$1')); d=d if isinstance(d,list) else [d]
print(' '.join(f\"{r.get('fraction_of_copy') or 0:.3f}\" for r in d))" 2>/dev/null || echo "-"; }
kern() { python3 -c "
import json
d=json.load(open('$1')); d=d if isinstance(d,list) else [d]
print(' '.join(','.join(str(k) for k in r.get('plans', [])) for r in d))" 2>/dev/null; }
run() { # tool file json [cases...]
  local tool=$1 file=$2 json=$3; shift 3
  timeout 120 $tool $file "$@" --no-check --bench --reps=20 --warmup=5 --json=$json > $json.log 2>&1 || echo "exit $? for $file ($json)" >&2
}
declare -A WIDTHS=( [bf16]="${BF16_WIDTHS:-600 3000 4096 6000 8192 9000 12000}" [f16]="${F16_WIDTHS:-3000 9000}" [f32]="${F32_WIDTHS:-1025 3000 4097 6000 12000}" )
rows=()
for dt in bf16 f16 f32; do
  bytes=2; [ $dt = f32 ] && bytes=4
  cases=""
  for n in ${WIDTHS[$dt]}; do
    m=$(( (256 << 20) / bytes / n )); cases="$cases --case=${m}x$n"
    t="tensor<${m}x${n}x$dt>"
    printf 'func.func @softmax(%%x: %s) -> %s {\n  %%y = softmax.softmax %%x : %s\n  return %%y : %s\n}\n' "$t" "$t" "$t" "$t" > $W/p/st_${dt}_$n.mlir
    run $NEW $W/p/st_${dt}_$n.mlir $W/logs/new_st_${dt}_$n.json
    run $OLD $W/p/st_${dt}_$n.mlir $W/logs/old_st_${dt}_$n.json
  done
  t="tensor<?x?x$dt>"
  printf 'func.func @softmax(%%x: %s) -> %s {\n  %%y = softmax.softmax %%x : %s\n  return %%y : %s\n}\n' "$t" "$t" "$t" "$t" > $W/p/dyn_$dt.mlir
  run $NEW $W/p/dyn_$dt.mlir $W/logs/new_dyn_$dt.json $cases
  run $OLD $W/p/dyn_$dt.mlir $W/logs/old_dyn_$dt.json $cases
  read -r -a newdyn <<< "$(frac $W/logs/new_dyn_$dt.json)"
  read -r -a olddyn <<< "$(frac $W/logs/old_dyn_$dt.json)"
  i=0
  for n in ${WIDTHS[$dt]}; do
    rows+=("$(printf '%-5s %6s  %7s %7s  %7s %7s   %s' $dt $n \
      "$(frac $W/logs/old_st_${dt}_$n.json)" "$(frac $W/logs/new_st_${dt}_$n.json)" \
      "${olddyn[$i]:--}" "${newdyn[$i]:--}" "$(kern $W/logs/new_st_${dt}_$n.json)")")
    i=$((i + 1))
  done
done
mkdir -p "${OUT:-/tmp}/elastic"; cp -r $W/logs $W/p "${OUT:-/tmp}/elastic/" 2>/dev/null
echo
echo "dtype width  static: old    new  dynamic: old   new   (new static plan)"
printf '%s\n' "${rows[@]}"
