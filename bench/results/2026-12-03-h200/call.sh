#!/usr/bin/env bash
# The device calls of 2026-12-03 (one gpu.module a kernel, kernels compiled on first use):
#   call.sh 1   smoke (9 cases through the C++ API, 3 through the host code), the C API check
#               (each case's first launch inside a CUDA graph capture), shard 1 of 2 of the
#               conformance suite
#   call.sh 2   shard 2 of 2, memcheck, the pipelined cases and racecheck
#   call.sh 3   the Python package on the GPU (python_check.py) and its benchmark (python_bench.py:
#               host time a call, the first call of a new program, bandwidth beside torch,
#               torch.compile and Triton)
# The tables to $OUT (at most 8 files), every log in one archive.
set -u
k=${1:?call.sh 1|2|3}
o=/tmp/o$k; rm -rf $o; mkdir -p $o
export SUITE_JOBS=16
case $k in
  1) SUITE_SHARD=1/2 OUT=$o bash scripts/gpu/run.sh smoke capi suite > $o/log.txt 2>&1 ;;
  2) SUITE_SHARD=2/2 OUT=$o bash scripts/gpu/run.sh suite memcheck pipelined > $o/log.txt 2>&1 ;;
  3) OUT=$o bash scripts/gpu/run.sh python bench-python > $o/log.txt 2>&1 ;;
esac
echo "run.sh exit $?" >> $o/log.txt
mkdir -p "$OUT"
for f in summary.txt capi.txt python.txt python-bench.txt python-bench.json \
         conformance-shard${k}of2.md memcheck.md conformance-pipelined.md racecheck-pipelined.md; do
  [ -f $o/$f ] && cp $o/$f "$OUT/$k-$f"
done
ls "$OUT" | wc -l
tar -C /tmp -cJf "$OUT/logs-$k.tar.xz" o$k /tmp/softmax-gpu/logs 2>/dev/null
tail -40 $o/log.txt
