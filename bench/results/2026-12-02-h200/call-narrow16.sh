#!/usr/bin/env bash
# Register plans of 16-bit rows of 600-3500 columns and f32 1025 (2026-12-02, the seventh
# call): each static program (2^27 elements of bf16, 2^26 of f32) on its chosen plan and on
# hand-written ones (narrow16/: vectors of 4 in 2-4 chunks, vectors of 8 in 2 chunks, f32
# vectors of 1), fraction of a copy of the same bytes in the same process, unchecked (inputs
# filled on the device), then each checked against the reference once. Widths that are not a
# multiple of 8 (700, 1100, 1500, 2500, 3500) have rows off 16-byte boundaries: the chosen
# vector of 8 runs them in the general kernel. Then the static bf16 widths whose 16-value
# plans spilled at 32 registers (4608, 5632, 6656, 7168, 7680; 40-48 now) beside the tools of
# bad76b6 (.device/old/softmax-run.xz).
set -u
W=/tmp/wnarrow; rm -rf $W; mkdir -p $W/logs; tar -C $W -xJf .device/softmax-tools.tar.xz
R=$W/softmax/bin/softmax-run; D=bench/results/2026-12-02-h200/narrow16
xz -dc .device/old/softmax-run.xz > $W/old; chmod +x $W/old
frac() { python3 -c "import json;d=json.load(open('$1'));d=d if isinstance(d,list) else [d];print(' '.join(f\"{r.get('fraction_of_copy') or 0:.3f}\" for r in d))" 2>/dev/null || echo "-"; }
ok() { python3 -c "import json;d=json.load(open('$1'));d=d if isinstance(d,list) else [d];print(' '.join('pass' if r.get('pass') else 'FAIL' for r in d))" 2>/dev/null || echo "-"; }
kern() { python3 -c "import json;d=json.load(open('$1'));d=d if isinstance(d,list) else [d];print(' '.join(','.join(k.get('name','?') if isinstance(k,dict) else str(k) for k in r.get('kernels_run', r.get('launched', []))) for r in d))" 2>/dev/null; }
rows=()
for f in $D/*.mlir; do
  b=$(basename $f .mlir)
  timeout 60 $R $f --no-check --bench --reps=20 --warmup=5 --json=$W/logs/$b.json > $W/logs/$b.log 2>&1
  rows+=("$(printf '%-24s %s' $b "$(frac $W/logs/$b.json)")")
done
checks=""
for f in $D/*.mlir; do
  b=$(basename $f .mlir)
  timeout 60 $R $f --json=$W/logs/$b-check.json > $W/logs/$b-check.log 2>&1
  checks="$checks $(ok $W/logs/$b-check.json)"
done
spill=()
for n in 4608 5632 6656 7168 7680; do
  m=$(( (1 << 27) / n )); t="tensor<${m}x${n}xbf16>"
  printf 'func.func @f(%%x: %s) -> %s {\n  %%y = softmax.softmax %%x : %s\n  return %%y : %s\n}\n' $t $t $t $t > $W/s$n.mlir
  timeout 60 $W/old $W/s$n.mlir --no-check --bench --reps=20 --warmup=5 --json=$W/logs/old-s$n.json > $W/logs/old-s$n.log 2>&1
  timeout 60 $R $W/s$n.mlir --no-check --bench --reps=20 --warmup=5 --json=$W/logs/new-s$n.json > $W/logs/new-s$n.log 2>&1
  timeout 60 $R $W/s$n.mlir --json=$W/logs/check-s$n.json > $W/logs/check-s$n.log 2>&1
  spill+=("$(printf 'bf16 static %5s  old %s  new %s  %s' $n "$(frac $W/logs/old-s$n.json)" "$(frac $W/logs/new-s$n.json)" "$(ok $W/logs/check-s$n.json)")")
done
mkdir -p "${OUT:-/tmp}/narrow16"; cp $W/logs/* "${OUT:-/tmp}/narrow16/" 2>/dev/null
echo "reference checks:$checks"
echo "program                  fraction of copy"
printf '%s\n' "${rows[@]}"
printf '%s\n' "${spill[@]}"
