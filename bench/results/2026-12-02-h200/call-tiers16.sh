#!/usr/bin/env bash
# 16-bit dynamic tiers for 4097-16383 columns (2026-12-02, tools of 32f0d33): the chosen tiers
# (dyn.mlir: 512 x 8, 512 x 16, 512 x 32 up to 4096, 8192, 16384) against hand-written ones
# (tiers.mlir: 512 x 8, then 1024 x 8 up to 8192, 512 x 24 up to 12288, 512 x 32), both with
# elastic lanes, the hand-written ones also with every budget capped at 64 registers (ptxas: the
# 512 x 24 fast kernel fits 64 without spilling; the 512 x 32 one spills there, and so does the
# 1024-lane general kernel, which aligned rows do not run). bf16, 2^27 elements a shape,
# fraction of a copy in the same process; then the static 12000 (512 x 24) at its budget and at
# 64; then a reference check of the hand-written tiers on small shapes.
set -u
W=/tmp/wtiers; rm -rf $W; mkdir -p $W/logs; tar -C $W -xJf .device/softmax-tools.tar.xz
R=$W/softmax/bin/softmax-run; D=bench/results/2026-12-02-h200/tiers16
frac() { python3 -c "import json;d=json.load(open('$1'));d=d if isinstance(d,list) else [d];print(' '.join(f\"{r.get('fraction_of_copy') or 0:.3f}\" for r in d))" 2>/dev/null || echo "-"; }
cases=""; for n in 6000 7000 9000 10000 12000; do cases="$cases --case=$(( (1 << 27) / n ))x$n"; done
B="--no-check --bench --reps=20 --warmup=5"
timeout 90 $R $D/dyn.mlir $cases $B --json=$W/logs/dyn.json > $W/logs/dyn.log 2>&1
timeout 90 $R $D/tiers.mlir $cases $B --json=$W/logs/tiers.json > $W/logs/tiers.log 2>&1
timeout 90 $R $D/tiers.mlir $cases $B --max-registers=64 --json=$W/logs/tiers64.json > $W/logs/tiers64.log 2>&1
t="tensor<11184x12000xbf16>"
printf 'func.func @softmax(%%x: %s) -> %s {\n  %%y = softmax.softmax %%x : %s\n  return %%y : %s\n}\n' "$t" "$t" "$t" "$t" > $W/st.mlir
timeout 60 $R $W/st.mlir $B --json=$W/logs/st.json > $W/logs/st.log 2>&1
timeout 60 $R $W/st.mlir $B --max-registers=64 --json=$W/logs/st64.json > $W/logs/st64.log 2>&1
timeout 90 $R $D/tiers.mlir --case=37x6000 --case=64x7000 --case=33x9000 --case=64x12000 --case=5x12288 --case=7x16000 --max-registers=64 --json=$W/logs/check.json > $W/logs/check.log 2>&1
echo "check (tiers.mlir, max-registers=64): exit $? $(python3 -c "import json;d=json.load(open('$W/logs/check.json'));d=d if isinstance(d,list) else [d];print(' '.join(('pass' if r.get('pass') else 'FAIL')+':'+r['shapes'][0] for r in d))")"
mkdir -p "${OUT:-/tmp}/tiers16"; cp $W/logs/* "${OUT:-/tmp}/tiers16/" 2>/dev/null
echo "widths                       6000  7000  9000 10000 12000"
echo "chosen tiers               $(frac $W/logs/dyn.json)"
echo "hand tiers                 $(frac $W/logs/tiers.json)"
echo "hand tiers, 64 registers   $(frac $W/logs/tiers64.json)"
echo "static 12000 (512 x 24): plan budget $(frac $W/logs/st.json), 64 registers $(frac $W/logs/st64.json)"
