#!/usr/bin/env bash
# Second round (2026-12-01, tools of be3ffdd): one vector of 8 a thread capped at 32 registers
# (64 warps a multiprocessor) against the chosen plans, bf16 and f16, N = 512-4096.
W=/tmp/w6; rm -rf $W; mkdir -p $W/logs; tar -C $W -xJf .device/softmax-tools.tar.xz
R=$W/softmax/bin/softmax-run; E=.device/exp
bench() { # file cap
  local f=$1 cap=$2 j=$W/logs/$1-$2.json
  timeout 60 $R $E/$f.mlir --max-registers=$cap --no-check --bench --reps=20 --warmup=5 --json=$j > $W/logs/$f-$cap.log 2>&1
  printf '%-18s cap %-3s %s\n' $f $cap "$(python3 -c "import json;d=json.load(open('$j'));d=d if isinstance(d,list) else [d];print(' '.join(f\"{r.get('fraction_of_copy',0):.3f}\" for r in d))" 2>/dev/null || tail -1 $W/logs/$f-$cap.log)"
}
bench bf16_512_L32 0; bench bf16_512_L64 0; bench bf16_512_L64 32
bench bf16_1000_L32 0; bench bf16_1000_L128 0; bench bf16_1000_L128 32
bench bf16_1024_L32 0; bench bf16_1024_L128 32
bench f16_1024_L32 0; bench f16_1024_L128 32
bench bf16_2048_L256 0; bench bf16_2048_L256 32
bench bf16_4096_L256 0; bench bf16_4096_L512 32; bench f16_4096_L512 32
bench bf16_8192_L256 0; bench bf16_8192_L512 40
