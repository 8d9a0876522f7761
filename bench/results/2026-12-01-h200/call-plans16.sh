#!/usr/bin/env bash
# 16-bit plans at N = 1024-16384 under register caps, static bf16 (2026-12-01, tools of be3ffdd):
# each hand-written plan (.device/exp/*.mlir: lanes x values) timed with softmax-run --bench at
# its budget (cap 0) and capped, fraction of a copy of the same bytes in the same process.
W=/tmp/w5; rm -rf $W; mkdir -p $W/logs; tar -C $W -xJf .device/softmax-tools.tar.xz
R=$W/softmax/bin/softmax-run; E=.device/exp
bench() { # file cap
  local f=$1 cap=$2 j=$W/logs/$1-$2.json
  timeout 60 $R $E/$f.mlir --max-registers=$cap --no-check --bench --reps=20 --warmup=5 --json=$j > $W/logs/$f-$cap.log 2>&1
  printf '%-18s cap %-3s %s\n' $f $cap "$(python3 -c "import json;d=json.load(open('$j'));d=d if isinstance(d,list) else [d];print(' '.join(f\"{r.get('fraction_of_copy',0):.3f}\" for r in d))" 2>/dev/null || tail -1 $W/logs/$f-$cap.log)"
}
for c in 0 64; do bench bf16_8192_L256 $c; done
for c in 0 48 40; do bench bf16_8192_L512 $c; done
for c in 0 48 32; do bench bf16_8192_L1024 $c; done
for c in 0 40; do bench bf16_4096_L256 $c; done
for c in 0 48 32; do bench bf16_4096_L512 $c; done
bench bf16_4096_L128 0
bench bf16_16384_L512 0
for c in 0 48 40; do bench bf16_16384_L1024 $c; done
bench bf16_1024_L32 0
for c in 0 48 40; do bench bf16_1024_L64 $c; done
for c in 0 48 32; do bench bf16_1024_L128 $c; done
