#!/usr/bin/env bash
# The first call at eb86788 (softmax-run through the C++ API): smoke (9 cases through the API, 3
# through the host code), the C API check, shard K of 2 of the conformance suite, and (shard 1)
# memcheck; the tables to $OUT, every log in one archive. Usage: call-api-suite.sh K
set -u
k=${1:-1}
o=/tmp/o$k; rm -rf $o; mkdir -p $o/a $o/b
if [ "$k" = 1 ]; then
  SUITE_JOBS=16 SUITE_SHARD=1/2 OUT=$o/a bash scripts/gpu/run.sh smoke capi suite > $o/a/log.txt 2>&1
  OUT=$o/b bash scripts/gpu/run.sh memcheck > $o/b/log.txt 2>&1
else
  SUITE_JOBS=16 SUITE_SHARD=2/2 OUT=$o/a bash scripts/gpu/run.sh pipelined suite > $o/a/log.txt 2>&1
fi
mkdir -p "$OUT"
cp $o/a/conformance.md "$OUT/conformance-shard${k}of2.md" 2>/dev/null
cp $o/a/summary.txt "$OUT/summary-$k.txt" 2>/dev/null
cp $o/a/capi.txt "$OUT/capi.txt" 2>/dev/null
cp $o/b/memcheck.md "$OUT/memcheck.md" 2>/dev/null
cp $o/a/pipelined.md "$OUT/pipelined.md" 2>/dev/null
tar -C /tmp -cJf "$OUT/logs-$k.tar.xz" o$k
ls $o/a $o/b
tail -5 $o/b/log.txt 2>/dev/null
grep -E "^(passed|failed|cases|total)|of [0-9]+ (cases|passed)" $o/a/log.txt | tail -5
tail -25 $o/a/log.txt
