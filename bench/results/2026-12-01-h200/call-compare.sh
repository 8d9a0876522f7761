#!/usr/bin/env bash
# The occupancy budget: smoke (checked) and the side-by-side benchmark, one call (2026-12-01).
A=/tmp/res3; rm -rf $A; mkdir -p $A
OUT=$A/smoke timeout 100 bash scripts/gpu/run.sh smoke > $A/smoke.log 2>&1; tail -12 $A/smoke.log
OUT=$A/cmp timeout 450 bash scripts/gpu/run.sh compare > $A/cmp.log 2>&1; echo "compare rc $?"
cat $A/cmp/compare.txt | tail -70
tar -C /tmp -cJf $OUT/res3.tar.xz res3
