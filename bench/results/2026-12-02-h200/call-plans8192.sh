#!/usr/bin/env bash
# Prepared for the next session (not run yet): 16-bit 8192 columns on 1024 lanes of 8 values
# (plans8192/, 32 registers) beside the plan chosen now (512 lanes of 16 at 40), static, one
# device call, fractions of a copy of the same bytes in the same process, 256 MiB; a table last.
set -u
here=$(cd "$(dirname "$0")" && pwd)
W=/tmp/wplans8192; rm -rf $W; mkdir -p $W/logs $W/p
tar -C $W -xJf .device/softmax-tools.tar.xz
RUN=$W/softmax/bin/softmax-run
cat $W/softmax/VERSION
frac() { python3 -c "
import json
d=json.load(open('$1')); d=d if isinstance(d,list) else [d]
print(' '.join(f\"{r.get('fraction_of_copy') or 0:.3f}\" for r in d))" 2>/dev/null || echo "-"; }
run() { local file=$1 json=$2; shift 2
  timeout 120 $RUN $file "$@" --no-check --bench --reps=20 --warmup=5 --json=$json > $json.log 2>&1 || echo "exit $? for $file ($json)" >&2; }
for dt in bf16 f16; do
  t="tensor<16384x8192x$dt>"
  printf 'func.func @softmax(%%x: %s) -> %s {\n  %%y = softmax.softmax %%x : %s\n  return %%y : %s\n}\n' "$t" "$t" "$t" "$t" > $W/p/st_$dt.mlir
  for rep in 1 2; do
    run $W/p/st_$dt.mlir $W/logs/now_${dt}_$rep.json
    run $here/plans8192/st_${dt}_8192_1024x8.mlir $W/logs/wide_${dt}_$rep.json
  done
  timeout 120 $RUN $here/plans8192/st_${dt}_8192_1024x8.mlir > $W/logs/check_$dt.log 2>&1; echo "check $dt 1024x8: exit $?" >> $W/checks.txt
done
mkdir -p "${OUT:-/tmp}"; tar -C $W -cJf "${OUT:-/tmp}/plans8192-logs.tar.xz" logs p 2>/dev/null
echo; echo "dtype  512x16 (now), two runs   1024x8, two runs"
for dt in bf16 f16; do echo "$dt    $(frac $W/logs/now_${dt}_1.json) $(frac $W/logs/now_${dt}_2.json)    $(frac $W/logs/wide_${dt}_1.json) $(frac $W/logs/wide_${dt}_2.json)"; done
cat $W/checks.txt
