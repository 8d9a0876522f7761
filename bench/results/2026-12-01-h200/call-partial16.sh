#!/usr/bin/env bash
# Widths inside a dynamic tier (2026-12-01, tools of 1822dc7): bf16 static programs of 3000, 6000,
# 9000 and 12000 columns (2^27 elements) beside the dynamic program at the same shapes (one
# process, every shape a --case), fraction of a copy of the same bytes in the same process.
W=/tmp/w7; rm -rf $W; mkdir -p $W/logs; tar -C $W -xJf .device/softmax-tools.tar.xz
R=$W/softmax/bin/softmax-run; E=.device/exp2
frac() { python3 -c "import json;d=json.load(open('$1'));d=d if isinstance(d,list) else [d];print(' '.join(f\"{r.get('fraction_of_copy',0):.3f}\" for r in d))" 2>/dev/null; }
cases=""
for n in 3000 6000 9000 12000; do
  m=$(( (1 << 27) / n )); cases="$cases --case=${m}x$n"
  timeout 40 $R $E/st_$n.mlir --no-check --bench --reps=20 --warmup=5 --json=$W/logs/st_$n.json > $W/logs/st_$n.log 2>&1
  echo "static  $n $(frac $W/logs/st_$n.json)"
done
timeout 60 $R $E/dyn.mlir $cases --no-check --bench --reps=20 --warmup=5 --json=$W/logs/dyn.json > $W/logs/dyn.log 2>&1
echo "dynamic 3000 6000 9000 12000: $(frac $W/logs/dyn.json)"
