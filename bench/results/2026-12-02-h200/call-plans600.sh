#!/usr/bin/env bash
# Static bf16 223696 x 600 (256 MiB) on hand-written register plans (2026-12-02, the sixth
# call): the chosen 96 lanes x 2 rows of one vector of 8 (80-register budget, ptxas 37) against
# 128 x 2 (32 registers, no spill: 64 warps), vectors of 4 on 160 lanes (29-32 registers), 96 x 4
# and 64 x 4 x 3 chunks of 4; each also capped at 32 registers (ptxas: 96-lane plans spill 4
# bytes there, 64 x 4 x 3 20). Fraction of a copy of the same bytes in the same process,
# unchecked (inputs filled on the device); then each plan checked against the reference once,
# at 32 registers, at its own (static) shape.
set -u
W=/tmp/wp600; rm -rf $W; mkdir -p $W/logs; tar -C $W -xJf .device/softmax-tools.tar.xz
R=$W/softmax/bin/softmax-run; D=bench/results/2026-12-02-h200/plans600
frac() { python3 -c "import json;d=json.load(open('$1'));d=d if isinstance(d,list) else [d];print(' '.join(f\"{r.get('fraction_of_copy') or 0:.3f}\" for r in d))" 2>/dev/null || echo "-"; }
ok() { python3 -c "import json;d=json.load(open('$1'));d=d if isinstance(d,list) else [d];print(' '.join('pass' if r.get('pass') else 'FAIL' for r in d))" 2>/dev/null || echo "-"; }
rows=()
for f in $D/*.mlir; do
  b=$(basename $f .mlir)
  for mr in 0 32; do
    timeout 90 $R $f --no-check --bench --reps=20 --warmup=5 --max-registers=$mr --json=$W/logs/$b-$mr.json > $W/logs/$b-$mr.log 2>&1
  done
  timeout 120 $R $f --max-registers=32 --json=$W/logs/$b-check.json > $W/logs/$b-check.log 2>&1
  rows+=("$(printf '%-16s %s  %s  %s' $b "$(frac $W/logs/$b-0.json)" "$(frac $W/logs/$b-32.json)" "$(ok $W/logs/$b-check.json)")")
done
mkdir -p "${OUT:-/tmp}/plans600"; cp $W/logs/* "${OUT:-/tmp}/plans600/" 2>/dev/null
echo "plan (bf16 223696x600)  budget  32 regs  check"
printf '%s\n' "${rows[@]}"
