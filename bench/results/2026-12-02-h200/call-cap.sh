#!/usr/bin/env bash
# The row groups a block of the pipelined (16-bit) plans take (kPipelinedGroups, 4 at 9ccea6e)
# with the grid-stride walk of rows of 8 KB or more, by a compile-time knob of an experimental
# build (cap-experiment.patch); then Nsight Compute on the static bf16 16384x8192 kernel and
# on the seed's Triton kernel of the same shape (fifth session of 2026-12-02). Fractions of a
# copy of the same bytes in the same process, 256 MiB of input; a table last.
set -u
W=/tmp/wcap; rm -rf $W; mkdir -p $W/logs $W/p
tar -C $W -xJf .device/softmax-tools.tar.xz
RUN=$W/softmax/bin/softmax-run
cat $W/softmax/VERSION
frac() { python3 -c "
import json,sys
d=json.load(open('$1')); d=d if isinstance(d,list) else [d]
print(' '.join(f\"{r.get('fraction_of_copy') or 0:.3f}\" for r in d))" 2>/dev/null || echo "-"; }
run() { local file=$1 json=$2; shift 2
  timeout 120 $RUN $file "$@" --no-check --bench --reps=20 --warmup=5 --json=$json > $json.log 2>&1 || echo "exit $? for $file ($json)" >&2; }
prog() { printf 'func.func @softmax(%%x: %s) -> %s {\n  %%y = softmax.softmax %%x : %s\n  return %%y : %s\n}\n' "$2" "$2" "$2" "$2" > $W/p/$1.mlir; }
BF16="2048 3001 4096 8192 12288 16384"
CAPS=${CAP_MODES:-2 3 4 6 8}
cases=""
for n in $BF16; do m=$(( (256 << 20) / 2 / n )); cases="$cases --case=${m}x$n"; prog st_bf16_$n "tensor<${m}x${n}xbf16>"; done
prog st_f16_8192 "tensor<16384x8192xf16>"
prog dyn_bf16 "tensor<?x?xbf16>"
for cap in $CAPS; do
  export SOFTMAX_X_CAP=$cap
  for n in $BF16; do run $W/p/st_bf16_$n.mlir $W/logs/c${cap}_st_bf16_$n.json; done
  run $W/p/st_f16_8192.mlir $W/logs/c${cap}_st_f16_8192.json
  run $W/p/dyn_bf16.mlir $W/logs/c${cap}_dyn_bf16.json $cases
done
unset SOFTMAX_X_CAP
# Nsight Compute: one launch of each kernel (after warm-ups), clocks left alone.
NCU="ncu --clock-control none --launch-skip 3 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis"
timeout 150 $NCU -k regex:row_registers $RUN $W/p/st_bf16_8192.mlir --no-check --bench --reps=5 --warmup=2 > $W/logs/ncu_ours.txt 2>&1
cat > $W/p/triton8192.py <<'PY'
import torch, triton, triton.language as tl
@triton.jit
def row_softmax_kernel(out_ptr, in_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_cols
    x = tl.load(in_ptr + row * n_cols + offsets, mask=mask, other=-float("inf"))
    x = x.to(tl.float32)
    x = x - tl.max(x, axis=0)
    numerator = tl.exp(x)
    y = numerator / tl.sum(numerator, axis=0)
    tl.store(out_ptr + row * n_cols + offsets, y.to(out_ptr.dtype.element_ty), mask=mask)
x = torch.randn(16384, 8192, device="cuda", dtype=torch.bfloat16); y = torch.empty_like(x)
for _ in range(6):
    k = row_softmax_kernel[(16384,)](y, x, 8192, BLOCK_SIZE=8192, num_warps=16)
torch.cuda.synchronize()
print("triton registers", k.n_regs, "spills", k.n_spills)
PY
timeout 150 $NCU -k regex:row_softmax python3 $W/p/triton8192.py > $W/logs/ncu_triton.txt 2>&1
mkdir -p "${OUT:-/tmp}"; tar -C $W -cJf "${OUT:-/tmp}/cap-logs.tar.xz" logs p 2>/dev/null
cp $W/logs/ncu_ours.txt $W/logs/ncu_triton.txt "${OUT:-/tmp}/" 2>/dev/null
echo
printf '%-20s' program; for c in $CAPS; do printf ' %7s' cap$c; done; echo
line() { printf '%-20s' "$1"; shift; for v in "$@"; do printf ' %7s' "$v"; done; echo; }
for n in $BF16; do vals=(); for c in $CAPS; do vals+=("$(frac $W/logs/c${c}_st_bf16_$n.json)"); done; line "bf16 static $n" "${vals[@]}"; done
vals=(); for c in $CAPS; do vals+=("$(frac $W/logs/c${c}_st_f16_8192.json)"); done; line "f16 static 8192" "${vals[@]}"
i=0
for n in $BF16; do vals=(); for c in $CAPS; do read -r -a d <<< "$(frac $W/logs/c${c}_dyn_bf16.json)"; vals+=("${d[$i]:--}"); done; line "bf16 dynamic $n" "${vals[@]}"; i=$((i+1)); done
for f in ours triton; do echo "== ncu $f"; grep -E "DRAM Throughput|Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit|Issued Ipc|No Eligible|Warp Cycles Per Issued|Memory Throughput|Grid Size|Block Size|triton registers|Stall" $W/logs/ncu_$f.txt | head -30; done
