#!/usr/bin/env bash
# Full kernels for the pipelined 16-bit tiers whose fast kernel takes its lanes from the launch
# (RowKernel.cpp, hasFullVariant; fifth session of 2026-12-02): per width at the top of such a
# tier the static program and the dynamic one (every shape a --case), with a reference check of
# the dynamic program at those widths; fractions of a copy of the same bytes in the same process,
# 256 MiB of input; a table last.
set -u
W=/tmp/wfull; rm -rf $W; mkdir -p $W/logs $W/p
tar -C $W -xJf .device/softmax-tools.tar.xz
RUN=$W/softmax/bin/softmax-run
cat $W/softmax/VERSION
frac() { python3 -c "
import json,sys
d=json.load(open('$1')); d=d if isinstance(d,list) else [d]
print(' '.join(f\"{r.get('fraction_of_copy') or 0:.3f}\" for r in d))" 2>/dev/null || echo "-"; }
run() { local file=$1 json=$2; shift 2
  timeout 120 $RUN $file "$@" --no-check --bench --reps=20 --warmup=5 --json=$json > $json.log 2>&1 || echo "exit $? for $file ($json)" >&2; }
prog() { printf 'func.func @softmax(%%x: %s) -> %s {\n  %%y = softmax.softmax %%x : %s\n  return %%y : %s\n}\n' "$2" "$2" "$2" "$2" > $W/p/$1.mlir; }
WIDTHS="256 512 1024 2048 4096 12288"
rows=()
for dt in bf16 f16; do
  cases=""; checks=""
  for n in $WIDTHS; do m=$(( (256 << 20) / 2 / n )); cases="$cases --case=${m}x$n"; checks="$checks --case=3001x$n"
    prog st_${dt}_$n "tensor<${m}x${n}x$dt>"; run $W/p/st_${dt}_$n.mlir $W/logs/st_${dt}_$n.json; done
  prog dyn_$dt "tensor<?x?x$dt>"
  run $W/p/dyn_$dt.mlir $W/logs/dyn_$dt.json $cases
  timeout 120 $RUN $W/p/dyn_$dt.mlir $checks > $W/logs/check_$dt.log 2>&1; echo "check dynamic $dt at 3001 rows: exit $?" >> $W/checks.txt
  read -r -a dyn <<< "$(frac $W/logs/dyn_$dt.json)"
  i=0
  for n in $WIDTHS; do rows+=("$(printf '%-5s %6s  %7s %7s' $dt $n "$(frac $W/logs/st_${dt}_$n.json)" "${dyn[$i]:--}")"); i=$((i+1)); done
done
mkdir -p "${OUT:-/tmp}"; tar -C $W -cJf "${OUT:-/tmp}/full-logs.tar.xz" logs p 2>/dev/null
echo; echo "dtype width   static dynamic"; printf '%s\n' "${rows[@]}"; cat $W/checks.txt
