#!/usr/bin/env bash
# The Python package's remaining GPU checks and its benchmark (2026-12-01).
A=/tmp/res5; rm -rf $A; mkdir -p $A
OUT=$A/py PYTHON_SECTIONS=compile,cupy,errors,graph timeout 110 bash scripts/gpu/run.sh python > $A/py.log 2>&1; echo "python rc $?"; tail -14 $A/py.log
OUT=$A/pb timeout 200 bash scripts/gpu/run.sh bench-python > $A/pb.log 2>&1; echo "bench-python rc $?"; tail -40 $A/pb.log
tar -C /tmp -cJf $OUT/res5.tar.xz res5
