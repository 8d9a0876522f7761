#!/usr/bin/env bash
# softmax-run through the C++ API (eb86788 and after): shard 1: smoke (9 cases through the API,
# 3 through the host code), the C API check, shard 1 of 2 of the conformance suite and memcheck;
# shard 2: one 16-bit case under compute-sanitizer with its whole output, memcheck, the
# pipelined cases and racecheck, shard 2 of 2. The tables to $OUT, every log in one archive.
# Usage: call-api-suite.sh K
set -u
k=${1:-1}
o=/tmp/o$k; rm -rf $o; mkdir -p $o/a $o/b
if [ "$k" = 1 ]; then
  SUITE_JOBS=16 SUITE_SHARD=1/2 OUT=$o/a bash scripts/gpu/run.sh smoke capi suite > $o/a/log.txt 2>&1
  OUT=$o/b bash scripts/gpu/run.sh memcheck > $o/b/log.txt 2>&1
else
  # The 2 errors every 16-bit case had at eb86788 (the checks passed): what the sanitizer says.
  w=/tmp/diag; rm -rf $w; mkdir -p $w; tar -C $w -xJf .device/softmax-tools.tar.xz
  printf 'func.func @f(%%x: tensor<?x?xf16>) -> tensor<?x?xf16> {\n  %%y = softmax.softmax %%x : tensor<?x?xf16>\n  return %%y : tensor<?x?xf16>\n}\n' > $w/f16.mlir
  compute-sanitizer --tool memcheck $w/softmax/bin/softmax-run $w/f16.mlir --shape=5x100 > $o/b/sanitizer-f16.txt 2>&1
  grep -v "^kernel:" $o/b/sanitizer-f16.txt | head -40
  OUT=$o/b bash scripts/gpu/run.sh memcheck > $o/b/log.txt 2>&1
  SUITE_JOBS=16 SUITE_SHARD=2/2 OUT=$o/a bash scripts/gpu/run.sh pipelined suite > $o/a/log.txt 2>&1
fi
mkdir -p "$OUT"
cp $o/a/conformance-shard${k}of2.md "$OUT/" 2>/dev/null
cp $o/a/summary.txt "$OUT/summary-$k.txt" 2>/dev/null
cp $o/a/capi.txt "$OUT/capi.txt" 2>/dev/null
cp $o/b/memcheck.md "$OUT/memcheck.md" 2>/dev/null
cp $o/a/conformance-pipelined.md $o/a/racecheck-pipelined.md "$OUT/" 2>/dev/null
tar -C /tmp -cJf "$OUT/logs-$k.tar.xz" o$k
ls $o/a $o/b
tail -5 $o/b/log.txt 2>/dev/null
grep -E "^(passed|failed|cases|total)|of [0-9]+ (cases|passed)" $o/a/log.txt | tail -5
tail -25 $o/a/log.txt
