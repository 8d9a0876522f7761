#!/usr/bin/env bash
# The grid of the pipelined (16-bit) register plans, by compile-time knobs of an
# experimental build (grid-experiment-9ccea6e.patch applied to 9ccea6e; fifth session of 2026-12-02): per mode the static bf16/f16 programs of
# 1024-16384 columns, the attention chain at 16x4096x4096 and 64x2048x2048, and the dynamic
# bf16 program over the same widths; fractions of a copy of the same bytes in the same process,
# 256 MiB of input; a table last. Modes:
#   cap4    the grid of 9ccea6e: up to 4 row groups a block once there are 16 a multiprocessor
#   fill1   one resident wave: min(groups, 132 x the blocks a multiprocessor holds)
#   fill2   two such waves
#   one     one row group a block (no pipelining across rows)
#   sfill1  fill1, each block taking groups blockId, blockId + grid, ... (grid-stride)
#   scap4   cap4, grid-stride
set -u
W=/tmp/wgrid; rm -rf $W; mkdir -p $W/logs $W/p
tar -C $W -xJf .device/softmax-tools.tar.xz
RUN=$W/softmax/bin/softmax-run
cat $W/softmax/VERSION
frac() { python3 -c "
import json,sys
d=json.load(open('$1')); d=d if isinstance(d,list) else [d]
print(' '.join(f\"{r.get('fraction_of_copy') or 0:.3f}\" for r in d))" 2>/dev/null || echo "-"; }
run() { # file json [cases...]
  local file=$1 json=$2; shift 2
  timeout 120 $RUN $file "$@" --no-check --bench --reps=20 --warmup=5 --json=$json > $json.log 2>&1 || echo "exit $? for $file ($json)" >&2
}
prog() { # name type
  printf 'func.func @softmax(%%x: %s) -> %s {\n  %%y = softmax.softmax %%x : %s\n  return %%y : %s\n}\n' "$2" "$2" "$2" "$2" > $W/p/$1.mlir
}
attn() { # name type
  local t=$2 f=${2/bf16/f32}
  printf 'func.func @attention(%%x: %s) -> %s {\n  %%a = softmax.cast %%x : %s to %s\n  %%s = softmax.scale %%a by 0.088388 : %s\n  %%m = softmax.mask %%s, causal : %s\n  %%p = softmax.softmax %%m : %s\n  %%y = softmax.cast %%p : %s to %s\n  return %%y : %s\n}\n' "$t" "$t" "$t" "$f" "$f" "$f" "$f" "$f" "$t" "$t" > $W/p/$1.mlir
}
BF16=${GRID_BF16_WIDTHS:-1024 2048 3001 4096 8192 12288 16384}
F16=${GRID_F16_WIDTHS:-4096 8192 16384}
MODES=${GRID_MODES:-cap4 fill1 fill2 one sfill1 scap4}
cases=""
for n in $BF16; do m=$(( (256 << 20) / 2 / n )); cases="$cases --case=${m}x$n"; prog st_bf16_$n "tensor<${m}x${n}xbf16>"; done
for n in $F16; do m=$(( (256 << 20) / 2 / n )); prog st_f16_$n "tensor<${m}x${n}xf16>"; done
prog dyn_bf16 "tensor<?x?xbf16>"
attn attn_4096 "tensor<16x4096x4096xbf16>"; attn attn_2048 "tensor<64x2048x2048xbf16>"
attn attn_dyn "tensor<?x?x?xbf16>"
prog check_st "tensor<3000x8192xbf16>"
for mode in $MODES; do
  unset SOFTMAX_X_GRID SOFTMAX_X_WAVES SOFTMAX_X_STRIDE
  case $mode in
    fill1) export SOFTMAX_X_GRID=fill ;;
    fill2) export SOFTMAX_X_GRID=fill SOFTMAX_X_WAVES=2 ;;
    one) export SOFTMAX_X_GRID=one ;;
    sfill1) export SOFTMAX_X_GRID=fill SOFTMAX_X_STRIDE=1 ;;
    scap4) export SOFTMAX_X_STRIDE=1 ;;
  esac
  for n in $BF16; do run $W/p/st_bf16_$n.mlir $W/logs/${mode}_st_bf16_$n.json; done
  for n in $F16; do run $W/p/st_f16_$n.mlir $W/logs/${mode}_st_f16_$n.json; done
  run $W/p/dyn_bf16.mlir $W/logs/${mode}_dyn_bf16.json $cases
  run $W/p/attn_4096.mlir $W/logs/${mode}_attn_4096.json
  run $W/p/attn_2048.mlir $W/logs/${mode}_attn_2048.json
  run $W/p/attn_dyn.mlir $W/logs/${mode}_attn_dyn.json --case=16x4096x4096 --case=64x2048x2048
  # The reference check of each mode (rows enough for several groups a block).
  timeout 120 $RUN $W/p/check_st.mlir > $W/logs/${mode}_check_st.log 2>&1; echo "check $mode static: exit $?" >> $W/checks.txt
  timeout 120 $RUN $W/p/dyn_bf16.mlir --case=3000x3001 --case=5000x1024 --case=2000x12288 > $W/logs/${mode}_check_dyn.log 2>&1; echo "check $mode dynamic: exit $?" >> $W/checks.txt
done
mkdir -p "${OUT:-/tmp}"; tar -C $W -cJf "${OUT:-/tmp}/grid-logs.tar.xz" logs p 2>/dev/null
echo
printf '%-22s' program; for mode in $MODES; do printf ' %7s' $mode; done; echo
line() { printf '%-22s' "$1"; shift; for v in "$@"; do printf ' %7s' "$v"; done; echo; }
for n in $BF16; do vals=(); for mode in $MODES; do vals+=("$(frac $W/logs/${mode}_st_bf16_$n.json)"); done; line "bf16 static $n" "${vals[@]}"; done
i=0
for n in $BF16; do vals=(); for mode in $MODES; do read -r -a d <<< "$(frac $W/logs/${mode}_dyn_bf16.json)"; vals+=("${d[$i]:--}"); done; line "bf16 dynamic $n" "${vals[@]}"; i=$((i+1)); done
for n in $F16; do vals=(); for mode in $MODES; do vals+=("$(frac $W/logs/${mode}_st_f16_$n.json)"); done; line "f16 static $n" "${vals[@]}"; done
for s in 4096 2048; do vals=(); for mode in $MODES; do vals+=("$(frac $W/logs/${mode}_attn_$s.json)"); done; line "attention static $s" "${vals[@]}"; done
vals=(); for mode in $MODES; do vals+=("$(frac $W/logs/${mode}_attn_dyn.json | tr ' ' '/')"); done; line "attention dyn 4096/2048" "${vals[@]}"
cat $W/checks.txt
