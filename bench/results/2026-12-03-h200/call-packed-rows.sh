#!/usr/bin/env bash
# Packed 16-bit values in the register plans of wide bf16 rows (2026-12-03, third session):
# hand-written row_registers / row_cluster plans at 32768..262144 columns, each timed with the
# values held as f32 (SOFTMAX_PACKED_ROWS=0) and packed (=1), beside the plan the selector
# chooses today; then reference checks of packed kernels (row strides: the general kernel;
# special values). Run on the GPU machine from the repository root, carrying .device.
# The tools were built from 4136033 with the packed row path of the next commit and a temporary
# SOFTMAX_PACKED_ROWS toggle (0: f32 values, 1: packed wherever the op allows), which the
# committed code does not have: it packs row_cluster plans of more than 32 values a thread.
# Output: packed-rows-experiment.txt.
set -u
W=/tmp/pk; rm -rf $W; mkdir -p $W/logs $W/p; tar -C $W -xJf .device/softmax-tools.tar.xz
R=$W/softmax/bin/softmax-run
gen() { # name M N plan (empty plan: the selector's)
  local attr=""; [ -n "$4" ] && attr=" {strategies = [#softmax.strategy<$4>]}"
  cat > $W/p/$1.mlir <<EOT
func.func @f(%x: tensor<$2x$3xbf16>) -> tensor<$2x$3xbf16> {
  %0 = softmax.fused softmax %x axis = 1 prologue []$attr : tensor<$2x$3xbf16> -> tensor<$2x$3xbf16>
  return %0 : tensor<$2x$3xbf16>
}
EOT
}
frac() { python3 -c "import json,sys;d=json.load(open('$1'));d=d if isinstance(d,list) else [d];print(' '.join(f\"{r.get('fraction_of_copy',0):.3f}\" for r in d))" 2>/dev/null || echo "FAIL $(tail -1 ${1%.json}.log)"; }
bench() { # name packed [register cap]
  SOFTMAX_PACKED_ROWS=$2 timeout 90 $R $W/p/$1.mlir --no-check --bench --reps=20 --warmup=5 --cache-dir=off \
    --max-registers=${3:-0} --json=$W/logs/$1-$2-${3:-0}.json > $W/logs/$1-$2-${3:-0}.log 2>&1
  frac $W/logs/$1-$2-${3:-0}.json
}
# The packed kernels' budget is the f32 estimate's (RowKernel.cpp); ptxas fits them in about
# values / 2 + 48 registers (ptxas -v here), so they are timed capped there too.
row() { local v=$(echo "$2" | sed -E 's/.*vector = ([0-9]+), chunks = ([0-9]+).*/\1 * \2/'); local cap=$(( ($v) / 2 + 48 ))
  printf '%-8s %-52s f32-held %s  packed %s  packed@%s %s\n' "$1" "$2" "$(bench $1 0)" "$(bench $1 1)" $cap "$(bench $1 1 $cap)"; }
plans() { # N M then name:plan...
  local n=$1 m=$2; shift 2
  gen sel$n $m $n ""; printf '%-8s %-52s %s\n' sel$n "selector's plan" "$(bench sel$n 1)"
  for p in "$@"; do gen ${p%%:*}_$n $m $n "${p#*:}"; row ${p%%:*}_$n "${p#*:}"; done
}
echo "# fraction of a copy (softmax-run --bench, 256 MiB bf16, reps 20, warmup 5)"
plans 32768 4096 "rr1024:row_registers, lanes = 1024, rows = 1, vector = 8, chunks = 4" \
  "c2x512:row_cluster, lanes = 512, rows = 1, vector = 8, chunks = 4, cluster = 2" \
  "c2x256:row_cluster, lanes = 256, rows = 1, vector = 8, chunks = 8, cluster = 2" \
  "c4x256:row_cluster, lanes = 256, rows = 1, vector = 8, chunks = 4, cluster = 4" \
  "c4x512:row_cluster, lanes = 512, rows = 1, vector = 8, chunks = 2, cluster = 4"
plans 65536 2048 "c2x1024:row_cluster, lanes = 1024, rows = 1, vector = 8, chunks = 4, cluster = 2" \
  "c4x512:row_cluster, lanes = 512, rows = 1, vector = 8, chunks = 4, cluster = 4" \
  "c4x256:row_cluster, lanes = 256, rows = 1, vector = 8, chunks = 8, cluster = 4" \
  "c8x256:row_cluster, lanes = 256, rows = 1, vector = 8, chunks = 4, cluster = 8" \
  "c8x512:row_cluster, lanes = 512, rows = 1, vector = 8, chunks = 2, cluster = 8"
plans 131072 1024 "c8x512:row_cluster, lanes = 512, rows = 1, vector = 8, chunks = 4, cluster = 8" \
  "c8x256:row_cluster, lanes = 256, rows = 1, vector = 8, chunks = 8, cluster = 8" \
  "c16x256:row_cluster, lanes = 256, rows = 1, vector = 8, chunks = 4, cluster = 16" \
  "c4x512:row_cluster, lanes = 512, rows = 1, vector = 8, chunks = 8, cluster = 4"
plans 262144 512 "c16x512:row_cluster, lanes = 512, rows = 1, vector = 8, chunks = 4, cluster = 16" \
  "c16x256:row_cluster, lanes = 256, rows = 1, vector = 8, chunks = 8, cluster = 16" \
  "c8x512:row_cluster, lanes = 512, rows = 1, vector = 8, chunks = 8, cluster = 8" \
  "c8x1024:row_cluster, lanes = 1024, rows = 1, vector = 8, chunks = 4, cluster = 8"
echo "# reference checks, packed (SOFTMAX_PACKED_ROWS=1)"
check() { # name M N plan extra-args...
  local name=$1 m=$2 n=$3 plan=$4; shift 4; gen $name $m $n "$plan"
  SOFTMAX_PACKED_ROWS=1 timeout 120 $R $W/p/$name.mlir --cache-dir=off "$@" > $W/logs/$name.check.log 2>&1
  echo "check $name $* rc $? $(grep -ciE '\bPASS' $W/logs/$name.check.log) pass: $(grep -iE 'pass|fail|mismatch' $W/logs/$name.check.log | head -2 | tr '\n' ' ')"
}
check k1 7 32768 "row_registers, lanes = 1024, rows = 1, vector = 8, chunks = 4"
check k2 7 32768 "row_registers, lanes = 1024, rows = 1, vector = 8, chunks = 4" --row-stride=32771
check k3 5 65536 "row_cluster, lanes = 512, rows = 1, vector = 8, chunks = 4, cluster = 4" --special=all
check k4 5 65000 "row_cluster, lanes = 512, rows = 1, vector = 8, chunks = 4, cluster = 4" --row-stride=65003
check k5 3 262144 "row_cluster, lanes = 256, rows = 1, vector = 8, chunks = 8, cluster = 16" --special=all
check k6 9 30001 "row_cluster, lanes = 512, rows = 1, vector = 8, chunks = 4, cluster = 2" --special=all
check k7 9 30001 "row_cluster, lanes = 256, rows = 1, vector = 8, chunks = 8, cluster = 2" --row-stride=30010
tar -C $W -cJf $OUT/packed-rows-logs.tar.xz logs p
