#!/usr/bin/env bash
# Hardware counters of a few kernels with Nsight Compute (the measurements behind
# docs/strategies.md's fast variant and masked-row rules; bench/results/2026-11-30-h200/README.md):
# per kernel, its duration, DRAM throughput, warps active, issue utilisation, warp instructions
# per element, registers, and the stall reasons above 0.1 per issued instruction. Clocks are left
# alone (--clock-control none, as METHOD.md says). Called by `scripts/gpu/run.sh profile`.
#
#   profile.sh RUNNER WORKDIR OUT     (PROFILE_CASES=name,name... for a subset)
set -uo pipefail
run=$1 work=$2 out=$3
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
mkdir -p "$work/profile"
# name | tensor type | program body (%x the input, %p the result, T the type, ops split by ';')
# | element count
cases=(
  "attention_bf16|16x4096x4096xbf16|%s = softmax.scale %x by 0.088388 : T; %m = softmax.mask %s, causal : T; %p = softmax.softmax %m : T|268435456"
  "softmax_bf16_1024|131072x1024xbf16|%p = softmax.softmax %x : T|134217728"
  "softmax_bf16_32|4194304x32xbf16|%p = softmax.softmax %x : T|134217728"
  "softmax_bf16_16384|8192x16384xbf16|%p = softmax.softmax %x : T|134217728"
  "softmax_f32_4096|16384x4096xf32|%p = softmax.softmax %x : T|67108864"
  "softmax_f32_50257|1336x50257xf32|%p = softmax.softmax %x : T|67143352"
  "axis_c8_f32|2048x8x4096xf32|%p = softmax.softmax %x axis = 1 : T|67108864"
  "axis_c8_bf16|4096x8x4096xbf16|%p = softmax.softmax %x axis = 1 : T|134217728"
  "axis_c64_f32|256x64x4096xf32|%p = softmax.softmax %x axis = 1 : T|67108864"
  "axis_c64_bf16|512x64x4096xbf16|%p = softmax.softmax %x axis = 1 : T|134217728"
  "axis_c512_bf16|64x512x4096xbf16|%p = softmax.softmax %x axis = 1 : T|134217728"
  "axis_c1024_bf16|32x1024x4096xbf16|%p = softmax.softmax %x axis = 1 : T|134217728"
  "axis_c2048_bf16|16x2048x4096xbf16|%p = softmax.softmax %x axis = 1 : T|134217728"
  "axis_c4096_bf16|8x4096x4096xbf16|%p = softmax.softmax %x axis = 1 : T|134217728"
  "axis_c2048_f32|8x2048x4096xf32|%p = softmax.softmax %x axis = 1 : T|67108864"
  "axis_c4096_f32|4x4096x4096xf32|%p = softmax.softmax %x axis = 1 : T|67108864"
)
# The pipes' shares (xu: the transcendentals, ex2; fma; alu; lsu) tell whether a kernel's
# arithmetic, not its memory, sets its time.
metrics=smsp__inst_executed.sum,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
metrics+=,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,launch__occupancy_limit_registers
for entry in "${cases[@]}"; do
  IFS='|' read -r name shape body elements <<<"$entry"
  if [ -n "${PROFILE_CASES:-}" ] && [[ ",$PROFILE_CASES," != *",$name,"* ]]; then continue; fi
  type="tensor<$shape>"
  src=$work/profile/$name.mlir
  body=${body//T/$type}
  printf 'func.func @%s(%%x: %s) -> %s {\n  %s\n  return %%p : %s\n}\n' \
    "$name" "$type" "$type" "${body//; /$'\n  '}" "$type" > "$src"
  echo "== $name ($type)"
  "$ncu" --clock-control none -k "regex:^${name}_0_" --launch-skip 2 --launch-count 1 \
    --metrics "$metrics" "$run" "$src" --no-check --bench --reps=1 --warmup=2 2>&1 |
    awk -v n="$elements" '/^ +[a-z_]+__/ { print; if ($1 == "smsp__inst_executed.sum") {
        gsub(",", "", $NF); printf "    warp instructions per element %28.3f\n", $NF / n } }'
  "$ncu" --clock-control none -k "regex:^${name}_0_" --launch-skip 2 --launch-count 1 \
    --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\\.ratio" \
    "$run" "$src" --no-check --bench --reps=1 --warmup=2 2>&1 |
    awk '/^ +smsp__average_warps_issue_stalled/ && $NF + 0 > 0.1 {
        sub("smsp__average_warps_issue_stalled_", "stall ", $1);
        sub("_per_issue_active.ratio", "", $1); printf "    %-40s %8s\n", $1, $NF }'
done 2>&1 | tee "$out/profile.txt"
