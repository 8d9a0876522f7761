#!/usr/bin/env bash
# Hand-written plans for the dynamic tiers that keep their budget (2026-12-01): time and check.
W=/tmp/w4; rm -rf $W; mkdir -p $W/logs; tar -C $W -xJf .device/softmax-tools.tar.xz
R=$W/softmax/bin/softmax-run; E=.device/exp
bench() { # file shape-args...
  local f=$1; shift
  timeout 60 $R $E/$f.mlir "$@" --no-check --bench --reps=20 --warmup=5 --json=$W/logs/$f.json > $W/logs/$f.log 2>&1
  printf '%-28s %s\n' $f "$(python3 -c "import json,sys;d=json.load(open('$W/logs/$f.json'));d=d if isinstance(d,list) else [d];print(' '.join(f\"{r.get('fraction_of_copy',0):.3f}\" for r in d))" 2>/dev/null || tail -2 $W/logs/$f.log)"
}
check() { local f=$1; shift; timeout 60 $R $E/$f.mlir "$@" > $W/logs/$f.check.log 2>&1; echo "check $f rc $? $(grep -c PASS $W/logs/$f.check.log) pass"; }
for v in a2 a4; do bench att_st_$v; bench att_dyn_$v --case=16x4096x4096 --case=64x2048x2048 --case=256x1024x1024; done
for d in bf16 f16; do for n in softmax log_softmax; do for v in w2 w4; do
  bench ${n}_${d}_st_$v; bench ${n}_${d}_dyn_$v --case=8192x16384 --case=16384x9000 --case=8192x12000; done; done; done
for f in att_dyn_a2 softmax_bf16_dyn_w2 log_softmax_f16_dyn_w2; do
  case $f in att*) s="--case=3x2100x2100 --case=2x4096x4096 --case=5x3001x3001";; *) s="--case=37x16384 --case=41x9001 --case=7x12345";; esac
  check $f $s; done
tar -C $W -cJf $OUT/w4.tar.xz logs
