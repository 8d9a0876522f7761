#!/usr/bin/env bash
# The one script that runs on the GPU machine, in a single device call (docs/runner.md):
# unpacks .device/softmax-tools.tar.xz (made by scripts/gpu/pack.sh), runs the asked modes, and
# prints a short table last. Under $OUT (or /tmp/softmax-gpu/out; the device call returns at most
# 8 files) it leaves summary.txt, environment.txt, results.json (every case's report, an array)
# and cases.tar.xz (each case's full log and JSON).
#
#   scripts/gpu/run.sh [smoke|conformance|bench|suite|suite-quick|memcheck|pipelined|racecheck|synccheck|initcheck|bandwidth|sweep|sweep16|sweep-cluster|small-batch|split|split-wide|padding-shared|bias-one|leading-static|two-pass-side|mask-row|wide|staged|staged-cluster|narrow16|registers|compare|capi|generated|generated-compile|operand16|probe|profile|python|bench-python|axis|axis-bench|axis-alternatives|axis-anchors|axis-cluster|axis-wide16]...  (default: smoke)
#
# A mode is a shell function below that calls `case_ NAME softmax-run-arguments...` for each
# case; add modes the same way. Exit status: 0 when every case passed, else 1.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
archive=${SOFTMAX_ARCHIVE:-$root/.device/softmax-tools.tar.xz}
work=${SOFTMAX_WORK:-/tmp/softmax-gpu}
out=${OUT:-$work/out}
logs=$work/logs
rm -rf "$logs"
mkdir -p "$work" "$out" "$logs"

if [ ! -f "$archive" ]; then
  echo "run: $archive not found: run scripts/gpu/pack.sh and carry .device" >&2
  exit 2
fi
rm -rf "$work/softmax"
tar -C "$work" -xJf "$archive" || { echo "run: cannot unpack $archive" >&2; exit 2; }
run=$work/softmax/bin/softmax-run
cases=$work/softmax/cases
{
  cat "$work/softmax/VERSION"
  echo "date $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader 2>/dev/null
  "$run" --probe
} | tee "$out/environment.txt"

rows=()
failures=0
# case_ NAME ARGS...: one softmax-run invocation, its output in $out/NAME.log and $out/NAME.json.
case_() {
  local name=$1; shift
  local start=$SECONDS
  "$run" "$@" --json="$logs/$name.json" > "$logs/$name.log" 2>&1
  local code=$?
  [ "$code" = 0 ] || failures=$((failures + 1))
  local seconds=$((SECONDS - start))
  local row
  row=$(python3 - "$logs/$name.json" "$name" "$code" "$seconds" <<'PY' 2>/dev/null
import json, sys
path, name, code, secs = sys.argv[1:5]
try:
    r = json.load(open(path))
except Exception:
    print(f"{name:<22} {'NO-JSON':<13} {code:>4} {'-':>9} {'-':>9} {'-':>6} {'-':>7} {'-':>6} {'-':>6} {'-':>10} {secs:>4}")
    sys.exit()
def num(key, fmt):
    v = r.get(key)
    return format(v, fmt) if isinstance(v, (int, float)) else "-"
shape = r["shapes"][0] if r.get("shapes") else "-"
checked = [c["max_abs_error"] for c in r.get("checks", []) if c.get("checked")]
max_abs = format(max(checked), ".2e") if checked else "-"
print(f"{name:<22} {r.get('status','?'):<13} {code:>4} {num('median_us','.1f'):>9} {num('copy_us','.1f'):>9} "
      f"{num('fraction_of_copy','.3f'):>6} {num('gbps','.0f'):>7} {r.get('mismatches','-'):>6} "
      f"{r.get('unwritten','-'):>6} {max_abs:>10} {secs:>4}  {shape}")
PY
  )
  [ -n "$row" ] || row=$(printf '%-22s %-13s %4s' "$name" "?" "$code")
  rows+=("$row")
  echo "$row"
}

# The first call of a new build: a few cases of every kind, checked and timed.
smoke() {
  local s=$cases/small.mlir
  case_ f32_4096x4096      "$cases/softmax_f32.mlir" --bench
  case_ attention_bf16     "$cases/attention_scores_bf16.mlir" --bench
  case_ padded_logsm_f16   "$cases/padded_log_softmax_dynamic.mlir" --shape=2048x32000 --shape=2048 --shape=32000 --bench
  case_ temperature_f32    "$cases/temperature_sampling.mlir" --scalar=1.25 --bench
  case_ wide_chunked_f32   "$s" --entry=softmax_dyn_f32 --shape=256x131072 --bench
  case_ row_stride_f32     "$s" --entry=softmax_dyn_f32 --shape=16384x1000 --row-stride=1024 --bench
  case_ special_f32        "$cases/softmax_f32.mlir" --special=all
  case_ special_bf16_wide  "$s" --entry=softmax_wide_bf16 --special=all --row-stride=200016
  case_ special_logsm_f16  "$s" --entry=log_softmax_bias --special=all
  # The same programs through the host code softmax-opt --softmax-to-nvvm emits (every other case
  # runs through the C++ API): a static, a dynamic multi-tier and a scalar-argument program.
  case_ host_f32_4096x4096 "$cases/softmax_f32.mlir" --launcher=host-code --bench
  case_ host_padded_logsm  "$cases/padded_log_softmax_dynamic.mlir" --shape=2048x32000 --shape=2048 --shape=32000 --launcher=host-code --special=all
  case_ host_temperature   "$cases/temperature_sampling.mlir" --scalar=1.25 --launcher=host-code --bench
}

# Correctness across shapes, dtypes, dispatch tiers and special values (no timing).
conformance() {
  local s=$cases/small.mlir
  case_ odd_special        "$s" --entry=softmax_odd --special=all
  case_ odd_stride         "$s" --entry=softmax_odd --row-stride=1003
  case_ causal_small       "$s" --entry=causal_small
  for n in 1 7 32 33 300 1000 4096 5000 12289 70000 1000001; do
    case_ "dyn_1x$n"       "$s" --entry=softmax_1d --shape=$n
    case_ "dyn_64x$n"      "$s" --entry=softmax_dyn_f32 --shape=64x$n --special=all
  done
  case_ padded_narrow      "$cases/padded_log_softmax_dynamic.mlir" --shape=1000x7 --shape=1000 --shape=7 --special=all
  case_ padded_uniform     "$cases/padded_log_softmax_dynamic.mlir" --shape=300x5000 --shape=300 --shape=5000 --dist=uniform --scale=8
  case_ temperature_mask   "$cases/temperature_sampling.mlir" --mask-density=0.01 --special=all
  case_ attention_special  "$cases/attention_scores_bf16.mlir" --special=all --row-stride=1040
}

# Timing only at sizes far above the L2 cache.
bench() {
  local s=$cases/small.mlir
  for shape in 262144x128 65536x1024 16384x4096 4096x16384 1024x65536 256x262144; do
    case_ "bench_f32_$shape" "$s" --entry=softmax_dyn_f32 --shape=$shape --no-check --bench --reps=30
  done
  case_ bench_attention "$cases/attention_scores_bf16.mlir" --no-check --bench --reps=30
}

probe() { :; }

# Small batches of wide rows (issue 12's table): latency-bound, timed beside a copy of the same
# bytes. The f32 shapes run the dynamic f32 program, the bf16 one a dynamic bf16 program.
small_batch() {
  local s=$cases/small.mlir
  for shape in 1x128256 8x128256 64x128256 32x262144 1x1048576; do
    case_ "small_f32_$shape" "$s" --entry=softmax_dyn_f32 --shape=$shape --no-check --bench --reps=200
  done
  local b=$work/softmax_dyn_bf16.mlir
  softmax_file_ softmax_dyn_bf16 "tensor<?x?xbf16>" "$b"
  for shape in 1x128256 8x131072 4x4194304; do
    case_ "small_bf16_$shape" "$b" --shape=$shape --no-check --bench --reps=200
  done
}

# Few, wide rows split over many blocks (row_split, issue 12): each shape as a static program
# (the selection's plan: row_split where one block a row would leave the GPU idle), as the
# dynamic program (the host splits where the rows are fewer than the multiprocessors), and the
# static program with the dependent launches off (SOFTMAX_DEPENDENT_LAUNCHES=0: the three
# phases one after the other); with SPLIT_HAND=1 also row_split written by hand: in three
# launches, spans of 1, 2, 4 and 8 vectors a lane (c1-c8), and in one launch over a cluster of
# 8 or 16 blocks (k8, k16: 512 lanes of 8 vectors a span). Each checked against the reference
# and timed beside a copy of the same bytes (median of 200 calls); 64x1048576 f32 and
# 128x1048576 bf16 are 256 MiB, the wide-row shapes of issue 12 with fewer rows than SMs.
split() {
  local dir=$work/split spec dtype shape t v c
  mkdir -p "$dir"
  for spec in f32:1x128256 f32:8x128256 f32:64x128256 f32:32x262144 f32:1x1048576 \
              f32:8x1048576 f32:64x1048576 bf16:1x128256 bf16:8x131072 bf16:1x1048576 \
              bf16:4x4194304 bf16:128x1048576; do
    dtype=${spec%%:*}; shape=${spec#*:}
    t="tensor<${shape}x$dtype>"
    softmax_file_ st "$t" "$dir/st_${dtype}_$shape.mlir"
    softmax_file_ dyn "tensor<?x?x$dtype>" "$dir/dyn_$dtype.mlir"
    case_ "split_${dtype}_$shape" "$dir/st_${dtype}_$shape.mlir" --bench --reps=200
    case_ "split_dyn_${dtype}_$shape" "$dir/dyn_$dtype.mlir" --shape=$shape --bench --reps=200
    # The same launches one after the other (row_split's dependent launches off).
    SOFTMAX_DEPENDENT_LAUNCHES=0 case_ "split_serial_${dtype}_$shape" \
      "$dir/st_${dtype}_$shape.mlir" --bench --reps=200
    [ -n "${SPLIT_HAND:-}" ] || continue
    [ "$dtype" = f32 ] && v=4 || v=8
    for c in 1 2 4 8; do
      printf 'func.func @hand(%%x: %s) -> %s {\n  %%y = softmax.fused softmax %%x axis = 1 prologue [] {strategies = [#softmax.strategy<row_split, lanes = 256, rows = 1, vector = %s, chunks = %s>]} : %s -> %s\n  return %%y : %s\n}\n' \
        "$t" "$t" "$v" "$c" "$t" "$t" "$t" > "$dir/hand_${dtype}_${shape}_$c.mlir"
      case_ "split_c${c}_${dtype}_$shape" "$dir/hand_${dtype}_${shape}_$c.mlir" --bench --reps=200
    done
    for c in 8 16; do
      printf 'func.func @hand(%%x: %s) -> %s {\n  %%y = softmax.fused softmax %%x axis = 1 prologue [] {strategies = [#softmax.strategy<row_split, lanes = 512, rows = 1, vector = %s, chunks = 8, cluster = %s>]} : %s -> %s\n  return %%y : %s\n}\n' \
        "$t" "$t" "$v" "$c" "$t" "$t" "$t" > "$dir/hand_${dtype}_${shape}_k$c.mlir"
      case_ "split_k${c}_${dtype}_$shape" "$dir/hand_${dtype}_${shape}_k$c.mlir" --bench --reps=200
    done
  done
}

# Many wide rows split over a thread-block cluster (issue 12's widths past what a cluster holds in
# registers): row_split with `cluster = K` written by hand (one launch, each cluster normalising its
# row right after reducing it, so that the second read may come from L2) beside the plan the
# selection gives (chunked_online's two reads from memory, or row_cluster / row_staged), 256 MiB
# tensors, timed beside a copy; the first hand-written case of each shape checked against the
# reference. SPLIT_WIDE_SHAPES overrides the shapes (dtype:MxN ...).
split_wide() {
  local dir=$work/split-wide spec dtype shape t v k lanes chunks nocheck
  mkdir -p "$dir"
  for spec in ${SPLIT_WIDE_SHAPES:-f32:64x1048576 f32:128x524288 f32:256x262144 bf16:128x1048576 bf16:256x524288 bf16:512x262144}; do
    dtype=${spec%%:*}; shape=${spec#*:}
    t="tensor<${shape}x$dtype>"
    [ "$dtype" = f32 ] && v=4 || v=8
    softmax_file_ st "$t" "$dir/st_${dtype}_$shape.mlir"
    case_ "sw_sel_${dtype}_$shape" "$dir/st_${dtype}_$shape.mlir" --no-check --bench --reps=20
    nocheck=
    for plan in 512:8:16 512:8:8 256:8:16 512:4:16; do
      IFS=: read -r lanes chunks k <<< "$plan"
      printf 'func.func @hand(%%x: %s) -> %s {\n  %%y = softmax.fused softmax %%x axis = 1 prologue [] {strategies = [#softmax.strategy<row_split, lanes = %s, rows = 1, vector = %s, chunks = %s, cluster = %s>]} : %s -> %s\n  return %%y : %s\n}\n' \
        "$t" "$t" "$lanes" "$v" "$chunks" "$k" "$t" "$t" "$t" > "$dir/k_${dtype}_${shape}_$lanes-$chunks-$k.mlir"
      case_ "sw_k${k}_l${lanes}c${chunks}_${dtype}_$shape" "$dir/k_${dtype}_${shape}_$lanes-$chunks-$k.mlir" \
        $nocheck --bench --reps=20
      nocheck=--no-check
    done
  done
}

# one_element_ NAME OPERAND STEP NOCHECK SPEC...: a softmax after one prologue STEP (a printf
# fragment of %x and %a) whose operand %a has type OPERAND, one element, read once a kernel since
# the twenty-first session; for each SPEC (dtype:MxN) the static and the dynamic program, 256
# MiB tensors, timed beside a copy and checked against the reference unless NOCHECK is set. Run
# over two archives (SOFTMAX_ARCHIVE) it compares the kernels before and after; the runner draws
# the operand from its seed, so both archives read the same columns.
one_element_() {
  local name=$1 operand=$2 step=$3 nocheck=${4:+--no-check} dir=$work/$1 spec dtype shape t
  shift 4
  mkdir -p "$dir"
  for spec in "$@"; do
    dtype=${spec%%:*}; shape=${spec#*:}
    for t in "tensor<${shape}x$dtype>" "tensor<?x?x$dtype>"; do
      printf "func.func @%s(%%x: %s, %%a: %s) -> %s {\n  %%v = $step : %s, %s\n  %%y = softmax.softmax %%v : %s\n  return %%y : %s\n}\n" \
        "$name" "$t" "$operand" "$t" "$t" "$operand" "$t" "$t" > "$dir/p.mlir"
      case "$t" in *\?*) cp "$dir/p.mlir" "$dir/dyn_${dtype}_$shape.mlir"
        case_ "${name}_dyn_${dtype}_$shape" "$dir/dyn_${dtype}_$shape.mlir" --shape=$shape $nocheck --bench --reps=20 ;;
      *) cp "$dir/p.mlir" "$dir/st_${dtype}_$shape.mlir"
        case_ "${name}_${dtype}_$shape" "$dir/st_${dtype}_$shape.mlir" $nocheck --bench --reps=20 ;;
      esac
    done
  done
}

# Static leading sizes as constants in the row kernels (generated seed 11866's fix): static
# rank-3 and rank-4 programs whose kernels compute a row's index in a leading dimension (a causal
# mask's row, a side operand broadcast over a leading dimension), 256 MiB or more, timed beside
# a copy; the first of each checked against the reference (LEADING_STATIC_NOCHECK=1: none). Run
# over two archives (SOFTMAX_ARCHIVE) it compares the kernels before and after.
leading_static() {
  local dir=$work/leading nocheck=${LEADING_STATIC_NOCHECK:+--no-check} t shape
  mkdir -p "$dir"
  for shape in 256x1024x1024 16x4096x4096; do
    t="tensor<${shape}x"
    cat > "$dir/attention_$shape.mlir" <<MLIR
func.func @attention(%s: ${t}bf16>) -> ${t}bf16> {
  %x = softmax.cast %s : ${t}bf16> to ${t}f32>
  %c = softmax.scale %x by 0.125 : ${t}f32>
  %m = softmax.mask %c, causal : ${t}f32>
  %p = softmax.softmax %m : ${t}f32>
  %y = softmax.cast %p : ${t}f32> to ${t}bf16>
  return %y : ${t}bf16>
}
MLIR
    case_ "ls_attention_$shape" "$dir/attention_$shape.mlir" $nocheck --bench --reps=20
  done
  # A padding length for each index of dimension 1, broadcast over dimension 2 (seed 11866's
  # operand shape), over rows of 1024 and 100 columns.
  for spec in f16:16x8x1024x1024 f32:16x8x512x1024 bf16:64x8x1310x100; do
    t="tensor<${spec#*:}x${spec%%:*}>"
    cat > "$dir/padded_${spec/:/_}.mlir" <<MLIR
func.func @padded(%x: $t, %n: tensor<8x1xi32>) -> $t {
  %m = softmax.mask %x, padding %n : $t, tensor<8x1xi32>
  %y = softmax.softmax %m : $t
  return %y : $t
}
MLIR
    case_ "ls_padded_${spec/:/_}" "$dir/padded_${spec/:/_}.mlir" $nocheck --bench --reps=20
  done
}

# A side operand along the row beside another step in the two-pass plans (generated seeds 7016
# and 10373): dynamic f16 rows, an f32 bias along them and a scale, log_softmax to f32, at
# widths of the row_shared tier of 512 x 32 values, and examples/padded_log_softmax_dynamic.mlir
# in its row_shared tier; 256 MiB of input, timed beside a copy, the first of each program
# checked (TWO_PASS_SIDE_NOCHECK=1: none). Over two archives it compares before and after.
two_pass_side() {
  local dir=$work/two-pass-side nocheck=${TWO_PASS_SIDE_NOCHECK:+--no-check} shape
  mkdir -p "$dir"
  cat > "$dir/p.mlir" <<'MLIR'
func.func @two_pass_side(%x: tensor<?x?xf16>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %c = softmax.cast %x : tensor<?x?xf16> to tensor<?x?xf32>
  %v = softmax.add_bias %c, %b : tensor<?x?xf32>, tensor<?xf32>
  %s = softmax.scale %v by 10.0 : tensor<?x?xf32>
  %y = softmax.log_softmax %s : tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
MLIR
  for shape in 8192x16384 11184x12000; do
    case_ "tps_$shape" "$dir/p.mlir" --shape=$shape --shape=${shape#*x} $nocheck --bench --reps=20
    nocheck=--no-check
  done
  # The example's row_shared tier (8193-16384 columns) takes the same 8 (its budget was 72).
  case_ tps_padded_logsm_8192x16384 "$cases/padded_log_softmax_dynamic.mlir" --shape=8192x16384 \
    --shape=8192 --shape=16384 ${TWO_PASS_SIDE_NOCHECK:+--no-check} --bench --reps=20
}

# A boolean mask along the row (a397313: a vector's mask bytes at one widened column, no
# clamp), static and dynamic, 256 MiB or more, each shape's static program checked against the
# reference (MASK_ROW_NOCHECK=1: timed only). Over two archives (SOFTMAX_ARCHIVE) it compares
# the kernels before and after.
mask_row() {
  local dir=$work/mask-row nocheck=${MASK_ROW_NOCHECK:+--no-check} spec dtype m n
  mkdir -p "$dir"
  for spec in f16:8192x16384 bf16:32768x4096 f32:16384x4096 bf16:131072x1024 bf16:128x1048576; do
    dtype=${spec%%:*}; m=${spec#*:}; n=${m#*x}; m=${m%x*}
    cat > "$dir/st_${dtype}_${m}x$n.mlir" <<MLIR
func.func @mask_row(%x: tensor<${m}x${n}x$dtype>, %k: tensor<${n}xi1>) -> tensor<${m}x${n}x$dtype> {
  %v = softmax.mask %x, tensor %k : tensor<${m}x${n}x$dtype>, tensor<${n}xi1>
  %y = softmax.softmax %v : tensor<${m}x${n}x$dtype>
  return %y : tensor<${m}x${n}x$dtype>
}
MLIR
    cat > "$dir/dyn_${dtype}_${m}x$n.mlir" <<MLIR
func.func @mask_row(%x: tensor<?x?x$dtype>, %k: tensor<?xi1>) -> tensor<?x?x$dtype> {
  %v = softmax.mask %x, tensor %k : tensor<?x?x$dtype>, tensor<?xi1>
  %y = softmax.softmax %v : tensor<?x?x$dtype>
  return %y : tensor<?x?x$dtype>
}
MLIR
    case_ "mask_row_${dtype}_${m}x$n" "$dir/st_${dtype}_${m}x$n.mlir" $nocheck --bench --reps=20
    case_ "mask_row_dyn_${dtype}_${m}x$n" "$dir/dyn_${dtype}_${m}x$n.mlir" --shape=${m}x$n \
      --shape=$n --no-check --bench --reps=20
  done
}

# A padding mask of one length for every row (PADDING_SHARED_NOCHECK=1: timed only).
padding_shared() {
  one_element_ pad1 'tensor<1xi32>' 'softmax.mask %%x, padding %%a' "${PADDING_SHARED_NOCHECK:-}" \
    f16:65536x2048 bf16:32768x4096 bf16:8192x16384 f32:16384x4096 f16:131072x1000
}

# A bias of one element beside 16-bit and f32 rows (BIAS_ONE_NOCHECK=1: timed only).
bias_one() {
  one_element_ bias1 'tensor<1x1xbf16>' 'softmax.add_bias %%x, %%a' "${BIAS_ONE_NOCHECK:-}" \
    f16:8192x16384 bf16:32768x4096 f16:65536x2048 f32:16384x4096
}

# softmax_file_ NAME TYPE PATH: a program @NAME(%x: TYPE) -> TYPE of one softmax over the last
# axis (TYPE a tensor type, static or dynamic), written to PATH.
softmax_file_() {
  printf 'func.func @%s(%%x: %s) -> %s {\n  %%y = softmax.softmax %%x : %s\n  return %%y : %s\n}\n' \
    "$1" "$2" "$2" "$2" "$2" > "$3"
}

# Wide rows (the row_cluster widths and odd widths between its tiers), static and dynamic
# programs, 256 MiB tensors, timed beside a copy (no check: the suite checks these plans).
wide() {
  local dir=$work/wide dtype n m t
  mkdir -p "$dir"
  for dtype in f32 bf16; do
    softmax_file_ dyn "tensor<?x?x$dtype>" "$dir/dyn_$dtype.mlir"
    for n in 32768 50257 65536 100000 128256 200000 262144; do
      [ "$dtype" = f32 ] && m=$(( (1 << 28) / (n * 4) + 1 )) || m=$(( (1 << 28) / (n * 2) + 1 ))
      t="tensor<${m}x${n}x${dtype}>"
      softmax_file_ st "$t" "$dir/st_${dtype}_$n.mlir"
      case_ "wide_${dtype}_${n}" "$dir/st_${dtype}_$n.mlir" --no-check --bench --reps=20
      case_ "wide_dyn_${dtype}_${n}" "$dir/dyn_$dtype.mlir" --shape=${m}x$n --no-check --bench --reps=20
    done
  done
}

# 16-bit rows staged in shared memory by a bulk copy (row_staged, 16385-115704 columns): the
# static and dynamic programs the selection now gives, beside the plans they replace written by
# hand (`old_*`: row_cluster over ceil(N / 16384) blocks of 256 lanes x 64 packed values for
# softmax, row_shared / chunked_online for log_softmax), 256 MiB tensors, timed beside a copy
# (no check: the suite checks these plans).
staged() {
  local dir=$work/staged dtype n m t blocks old
  mkdir -p "$dir"
  for dtype in bf16 f16; do
    softmax_file_ dyn "tensor<?x?x$dtype>" "$dir/dyn_$dtype.mlir"
    for n in 20000 32768 50257 65536 100000 115704; do
      m=$(( (1 << 28) / (n * 2) + 1 ))
      t="tensor<${m}x${n}x${dtype}>"
      softmax_file_ st "$t" "$dir/st_${dtype}_$n.mlir"
      blocks=$(( (n + 16383) / 16384 ))
      old="#softmax.strategy<row_cluster, lanes = 256, rows = 1, vector = 8, chunks = 8, cluster = $blocks>"
      printf 'func.func @old(%%x: %s) -> %s {\n  %%y = softmax.fused softmax %%x axis = 1 prologue [] {strategies = [%s]} : %s -> %s\n  return %%y : %s\n}\n' \
        "$t" "$t" "$old" "$t" "$t" "$t" > "$dir/old_${dtype}_$n.mlir"
      case_ "staged_${dtype}_$n" "$dir/st_${dtype}_$n.mlir" --no-check --bench --reps=20
      case_ "staged_dyn_${dtype}_$n" "$dir/dyn_$dtype.mlir" --shape=${m}x$n --no-check --bench --reps=20
      case_ "old_${dtype}_$n" "$dir/old_${dtype}_$n.mlir" --no-check --bench --reps=20
    done
  done
  for n in 32768 50257 100000; do
    m=$(( (1 << 28) / (n * 2) + 1 ))
    t="tensor<${m}x${n}xbf16>"
    [ "$n" -le 57856 ] && old="row_shared" || old="chunked_online"
    for plan in "row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1" \
                "$old, lanes = 512, rows = 1, vector = 8, chunks = 4"; do
      printf 'func.func @log(%%x: %s) -> %s {\n  %%y = softmax.fused log_softmax %%x axis = 1 prologue [] {strategies = [#softmax.strategy<%s>]} : %s -> %s\n  return %%y : %s\n}\n' \
        "$t" "$t" "$plan" "$t" "$t" "$t" > "$dir/log_${plan%%,*}_$n.mlir"
      case_ "log_${plan%%,*}_bf16_$n" "$dir/log_${plan%%,*}_$n.mlir" --no-check --bench --reps=20
    done
  done
}

# Rows staged over a thread-block cluster (row_staged with cluster > 1): the static and dynamic
# programs the selection gives for 16-bit rows of 20000-1048576 columns, beside the plans the
# selection gave before (`prev_*`: row_staged on one block up to 115704 columns, row_cluster of
# ceil(N / 16384) blocks up to 262144, chunked_online beyond), and f32 rows staged over a
# cluster by hand beside the f32 selection; 256 MiB tensors, timed beside a copy (no check: the
# suite checks these plans).
staged_cluster() {
  local dir=$work/staged-cluster dtype n m t prev blocks
  mkdir -p "$dir"
  hand_() { # name, tensor type, plan
    printf 'func.func @hand(%%x: %s) -> %s {\n  %%y = softmax.fused softmax %%x axis = 1 prologue [] {strategies = [#softmax.strategy<%s>]} : %s -> %s\n  return %%y : %s\n}\n' \
      "$2" "$2" "$3" "$2" "$2" "$2" > "$dir/$1.mlir"
  }
  for dtype in bf16 f16; do
    softmax_file_ dyn "tensor<?x?x$dtype>" "$dir/dyn_$dtype.mlir"
    for n in 20000 32768 50257 65536 100000 128256 262144 524288 1048576; do
      m=$(( (1 << 28) / (n * 2) + 1 ))
      t="tensor<${m}x${n}x${dtype}>"
      softmax_file_ st "$t" "$dir/st_${dtype}_$n.mlir"
      blocks=$(( (n + 16383) / 16384 ))
      if [ "$n" -le 115704 ]; then prev="row_staged, lanes = 512, rows = 1, vector = 8, chunks = 1"
      elif [ "$blocks" -le 16 ]; then prev="row_cluster, lanes = 256, rows = 1, vector = 8, chunks = 8, cluster = $blocks"
      else prev="chunked_online, lanes = 512, rows = 1, vector = 8, chunks = 4"; fi
      hand_ "prev_${dtype}_$n" "$t" "$prev"
      case_ "sc_${dtype}_$n" "$dir/st_${dtype}_$n.mlir" --no-check --bench --reps=20
      case_ "sc_dyn_${dtype}_$n" "$dir/dyn_$dtype.mlir" --shape=${m}x$n --no-check --bench --reps=20
      case_ "prev_${dtype}_$n" "$dir/prev_${dtype}_$n.mlir" --no-check --bench --reps=20
    done
  done
  softmax_file_ dyn "tensor<?x?xf32>" "$dir/dyn_f32.mlir"
  for n in 32768 65536 131072 262144 524288; do
    m=$(( (1 << 28) / (n * 4) + 1 ))
    t="tensor<${m}x${n}xf32>"
    softmax_file_ st "$t" "$dir/st_f32_$n.mlir"
    hand_ "staged_f32_$n" "$t" "row_staged, lanes = 512, rows = 1, vector = 4, chunks = 1, cluster = 16"
    case_ "sel_f32_$n" "$dir/st_f32_$n.mlir" --no-check --bench --reps=20
    case_ "staged_f32_$n" "$dir/staged_f32_$n.mlir" --no-check --bench --reps=20
  done
}

# Narrow 16-bit rows (N = 32, 64), static and dynamic programs, 256 MiB tensors, timed beside a
# copy; then the plans they had before (one or two lanes a row of 32 values: general kernels
# only) written by hand (`old_*`). No check: the suite checks these plans.
narrow16() {
  local dir=$work/narrow16 dtype n m t
  mkdir -p "$dir"
  for dtype in bf16 f16; do
    softmax_file_ dyn "tensor<?x?x$dtype>" "$dir/dyn_$dtype.mlir"
    for n in 32 64; do
      m=$(( (1 << 27) / n ))
      t="tensor<${m}x${n}x${dtype}>"
      softmax_file_ st "$t" "$dir/st_${dtype}_$n.mlir"
      printf 'func.func @old(%%x: %s) -> %s {\n  %%y = softmax.fused softmax %%x axis = 1 prologue [] {strategies = [#softmax.strategy<multi_row, lanes = %s, rows = %s, vector = 8, chunks = 4>]} : %s -> %s\n  return %%y : %s\n}\n' \
        "$t" "$t" $((n / 32)) $((256 * 32 / n)) "$t" "$t" "$t" > "$dir/old_${dtype}_$n.mlir"
      case_ "narrow_${dtype}_$n" "$dir/st_${dtype}_$n.mlir" --no-check --bench --reps=20
      case_ "narrow_dyn_${dtype}_$n" "$dir/dyn_$dtype.mlir" --shape=${m}x$n --no-check --bench --reps=20
      case_ "old_${dtype}_$n" "$dir/old_${dtype}_$n.mlir" --no-check --bench --reps=20
    done
  done
}

# The axis modes' cases, each a program written to $dir (the caller's).
# axis_case_ NAME DTYPE AXIS DIMS...: a static softmax over AXIS of tensor<DIMSxDTYPE>.
axis_case_() {
  local name=$1 dtype=$2 axis=$3; shift 3
  local dims; dims=$(IFS=x; echo "$*")
  local t="tensor<${dims}x${dtype}>"
  printf 'func.func @%s(%%x: %s) -> %s {\n  %%y = softmax.softmax %%x axis = %s : %s\n  return %%y : %s\n}\n' \
    "$name" "$t" "$t" "$axis" "$t" "$t" > "$dir/$name.mlir"
  case_ "$name" "$dir/$name.mlir" --no-check --bench --reps=30
}
# axis_dyn_ NAME DTYPE SHAPE: the same over axis 1 of a dynamic rank-3 tensor.
axis_dyn_() {
  local name=$1 dtype=$2 shape=$3
  local t="tensor<?x?x?x${dtype}>"
  printf 'func.func @%s(%%x: %s) -> %s {\n  %%y = softmax.softmax %%x axis = 1 : %s\n  return %%y : %s\n}\n' \
    "$name" "$t" "$t" "$t" "$t" > "$dir/$name.mlir"
  case_ "$name" "$dir/$name.mlir" --shape="$shape" --no-check --bench --reps=30
}
# axis_plan_ NAME DTYPE B C INNER PLAN: a hand-written strided_axis plan over axis 1 of
# [B, C, INNER] (alternatives to the chosen plans, for the thresholds: docs/strategies.md).
axis_plan_() {
  axis_plan_op_ "$1" "$2" "$3" "$4" "$5" softmax "" "$6"
}

# axis_chain_ NAME BODY IN OUT B C: a chain over axis 1 of [B, C, 4096] (BODY reads %x, an f32
# scalar %t, and defines %y; T is the input's type, O the output's), static as NAME and as a
# dynamic `?x?x?` program as NAME with `axis_` -> `axis_dyn_`.
axis_chain_() {
  local name=$1 body=$2 in=$3 outt=$4 b=$5 c=$6 variant t o
  for variant in static dynamic; do
    if [ $variant = static ]; then t="tensor<${b}x${c}x4096x${in}>"; o="tensor<${b}x${c}x4096x${outt}>"
    else t="tensor<?x?x?x${in}>"; o="tensor<?x?x?x${outt}>"; fi
    local text=${body//T/$t}
    text=${text//O/$o}
    local n=$name; [ $variant = dynamic ] && n=${name/axis_/axis_dyn_}
    printf 'func.func @%s(%%x: %s, %%t: f32) -> %s {\n  %b\n  return %%y : %s\n}\n' \
      "$n" "$t" "$o" "$text" "$o" > "$dir/$n.mlir"
    if [ $variant = static ]; then
      case_ "$n" "$dir/$n.mlir" --no-check --bench --reps=30
    else
      case_ "$n" "$dir/$n.mlir" --shape="${b}x${c}x4096" --no-check --bench --reps=30
    fi
  done
}
# axis_plan_op_ NAME DTYPE B C INNER KIND PROLOGUE PLAN: a hand-written strided_axis plan over
# axis 1 of [B, C, INNER], for a normalisation KIND (softmax, log_softmax) after a PROLOGUE
# (e.g. `#softmax.scale<0.125>`, or empty) of the fused op; axis_plan_ is its plain softmax.
axis_plan_op_() {
  local name=$1 t="tensor<${3}x${4}x${5}x${2}>" kind=$6 prologue=$7 plan=$8
  printf 'func.func @%s(%%x: %s) -> %s {\n  %%y = softmax.fused %s %%x axis = 1 prologue [%s] {strategies = [#softmax.strategy<strided_axis, %s>]} : %s -> %s\n  return %%y : %s\n}\n' \
    "$name" "$t" "$t" "$kind" "$prologue" "$plan" "$t" "$t" "$t" > "$dir/$name.mlir"
  case_ "$name" "$dir/$name.mlir" --no-check --bench --reps=30
}

# Softmax over a non-last axis (the strided_axis plan, docs/strategies.md), timed against a copy
# of the same bytes: [B, C, H*W] over C (axis 1) for C = 8 to 16384 with H*W = 4096 (and 1024 at
# C = 512), and [B, H, S] over the heads (axis -2) with H = 16, S = 4096 and H = 12, S = 1024;
# every tensor 256 MiB, f32, bf16 and f16, each C static and as a dynamic `?x?x?` program; then
# the fused chains over C (a scale before a bf16 softmax, a bf16 softmax to f32 after a
# temperature by a scalar, an f32 log_softmax), static and dynamic. The `frac` column is the
# fraction of copy; scripts/gpu/axis-bench-table.py puts static and dynamic side by side and,
# given axis-anchors.json (the `axis-anchors` mode, in the same call), torch and Triton beside
# them. The results are checked by the `axis` mode (and `suite`), not here.
axis_bench() {
  local dir=$work/axis-bench
  mkdir -p "$dir"
  # 256 MiB: 2^26 f32 or 2^27 16-bit elements.
  local dtype scale
  for dtype in f32 bf16 f16; do
    scale=1; [ "$dtype" != f32 ] && scale=2
    axis_case_ "axis_c8_${dtype}"      $dtype 1 $((2048 * scale)) 8 4096
    axis_case_ "axis_c64_${dtype}"     $dtype 1 $((256 * scale)) 64 4096
    axis_case_ "axis_c512_${dtype}"    $dtype 1 $((32 * scale)) 512 4096
    axis_case_ "axis_c512i1k_${dtype}" $dtype 1 $((128 * scale)) 512 1024
    axis_case_ "axis_c1024_${dtype}"   $dtype 1 $((16 * scale)) 1024 4096
    axis_case_ "axis_c1500_${dtype}"   $dtype 1 $((11 * scale)) 1500 4096
    axis_case_ "axis_c2048_${dtype}"   $dtype 1 $((8 * scale)) 2048 4096
    axis_case_ "axis_c3000_${dtype}"   $dtype 1 $((6 * scale)) 3000 4096
    axis_case_ "axis_c4096_${dtype}"   $dtype 1 $((4 * scale)) 4096 4096
    axis_case_ "axis_c16384_${dtype}"  $dtype 1 $((1 * scale)) 16384 4096
    axis_case_ "axis_h16_${dtype}"     $dtype -2 $((1024 * scale)) 16 4096
    axis_case_ "axis_h12_${dtype}"     $dtype -2 $((5462 * scale)) 12 1024
    axis_dyn_ "axis_dyn_c8_${dtype}"    $dtype "$((2048 * scale))x8x4096"
    axis_dyn_ "axis_dyn_c64_${dtype}"   $dtype "$((256 * scale))x64x4096"
    axis_dyn_ "axis_dyn_c512_${dtype}"  $dtype "$((32 * scale))x512x4096"
    axis_dyn_ "axis_dyn_c512i1k_${dtype}" $dtype "$((128 * scale))x512x1024"
    axis_dyn_ "axis_dyn_c1024_${dtype}" $dtype "$((16 * scale))x1024x4096"
    axis_dyn_ "axis_dyn_c1500_${dtype}" $dtype "$((11 * scale))x1500x4096"
    axis_dyn_ "axis_dyn_c2048_${dtype}" $dtype "$((8 * scale))x2048x4096"
    axis_dyn_ "axis_dyn_c3000_${dtype}" $dtype "$((6 * scale))x3000x4096"
    axis_dyn_ "axis_dyn_c4096_${dtype}" $dtype "$((4 * scale))x4096x4096"
    axis_dyn_ "axis_dyn_c16384_${dtype}" $dtype "$((1 * scale))x16384x4096"
  done
  # Fused chains over C = 64, 512, 2048 and 4096 (inner 4096), static and dynamic: `scaled` bf16
  # scaled by 0.125 (attention's 1/sqrt(d)); `temp` bf16 times a scalar inverse temperature, to
  # f32 (the bytes: 2 read + 4 written an element, the copy of 256 MiB); `log` f32 log_softmax.
  local c b body
  for c in 64 512 2048 4096; do
    b=$((16384 / c))
    body='%s = softmax.scale %x by 0.125 : T\n  %y = softmax.softmax %s axis = 1 : T'
    axis_chain_ "axis_scaled_c${c}_bf16" "$body" bf16 bf16 $((b * 2)) $c
    body='%c = softmax.cast %x : T to O\n  %s = softmax.scale %c by %t : O, f32\n  %y = softmax.softmax %s axis = 1 : O'
    axis_chain_ "axis_temp_c${c}_bf16" "$body" bf16 f32 $((b * 2)) $c
    body='%y = softmax.log_softmax %x axis = 1 : T'
    axis_chain_ "axis_log_c${c}_f32" "$body" f32 f32 $b $c
  done
}

# Hand-written alternatives to the chosen strided_axis plans (the sweep's knobs; their results
# are in bench/results/*/axis-bench-*.txt up to 2026-12-06): wider or narrower slices, the
# online path, clusters. About 2 minutes.
axis_alternatives() {
  local dir=$work/axis-alternatives
  mkdir -p "$dir"
  local dtype scale
  # Alternatives (lanes L, rows R, chunks K = axis values a thread): wider slices in registers
  # (more registers, fewer blocks a multiprocessor) and the online path at C = 512; one read
  # (K = 16 in 128 registers: f32 64 values a thread; bf16 128 held packed, the chosen plan
  # since 2026-12-03) against two with wider slices at C = 4096; bf16 with 64 values a thread
  # (the plans chosen before 16-bit values were held packed: `_K8`). Those over their block's
  # register limit spill a little: the numbers say what more registers would buy.
  local v
  for dtype in f32 bf16; do
    scale=1; v=4; [ "$dtype" = bf16 ] && { scale=2; v=8; }
    axis_plan_ "alt_c512_L8_${dtype}"     $dtype $((32 * scale)) 512 4096 "lanes = 8, rows = 32, vector = $v, chunks = 16"
    axis_plan_ "alt_c512_L16_${dtype}"    $dtype $((32 * scale)) 512 4096 "lanes = 16, rows = 32, vector = $v, chunks = 16"
    axis_plan_ "alt_c512_L8on_${dtype}"   $dtype $((32 * scale)) 512 4096 "lanes = 8, rows = 32, vector = $v, chunks = 4"
    if [ "$dtype" = bf16 ]; then
      axis_plan_ "alt_c64_K8_${dtype}"    $dtype $((256 * scale)) 64 4096 "lanes = 32, rows = 8, vector = $v, chunks = 8"
      axis_plan_ "alt_c512_K8_${dtype}"   $dtype $((32 * scale)) 512 4096 "lanes = 4, rows = 64, vector = $v, chunks = 8"
    fi
    # The online plan of C = 4096 (f32's chosen plan until the lean kernels held its 64 values in
    # blocks of 512; bf16 packed holds them in registers), and f32 C = 2048's plan of before
    # (2 lanes in blocks of 256) against the chosen 4 lanes in blocks of 512.
    axis_plan_ "alt_c4096_on_${dtype}"  $dtype $((4 * scale)) 4096 4096 "lanes = 2, rows = 256, vector = $v, chunks = $((16 / v))"
    axis_plan_ "alt_c4096_K16_${dtype}"   $dtype $((4 * scale)) 4096 4096 "lanes = 2, rows = 256, vector = $v, chunks = 16"
    # Columns over a cluster (hand-written only: chosen for C above 512 at 5231d7c, measured
    # slower than one block a column and withdrawn, docs/strategies.md): slices of 256, 512
    # (8 blocks of K = 8) and 1024, one block a column at C = 1024 (the chosen plan), and
    # clusters at C = 512 (slices of 64 and 128).
    axis_plan_ "alt_c4096_Q16_${dtype}"   $dtype $((4 * scale)) 4096 4096 "lanes = 16, rows = 16, vector = $v, chunks = 16, cluster = 16"
    axis_plan_ "alt_c4096_Q4_${dtype}"    $dtype $((4 * scale)) 4096 4096 "lanes = 4, rows = 64, vector = $v, chunks = 16, cluster = 4"
    axis_plan_ "alt_c4096_Q8K8_${dtype}"  $dtype $((4 * scale)) 4096 4096 "lanes = 8, rows = 64, vector = $v, chunks = 8, cluster = 8"
    axis_plan_ "alt_c1024_Q1_${dtype}"    $dtype $((16 * scale)) 1024 4096 "lanes = 4, rows = 64, vector = $v, chunks = 16"
    axis_plan_ "alt_c512_Q8_${dtype}"     $dtype $((32 * scale)) 512 4096 "lanes = 64, rows = 4, vector = $v, chunks = 16, cluster = 8"
    axis_plan_ "alt_c512_Q4_${dtype}"     $dtype $((32 * scale)) 512 4096 "lanes = 32, rows = 8, vector = $v, chunks = 16, cluster = 4"
    axis_plan_ "alt_c4096_L8on_${dtype}"  $dtype $((4 * scale)) 4096 4096 "lanes = 8, rows = 64, vector = $v, chunks = 4"
    axis_plan_ "alt_c4096_L32on_${dtype}" $dtype $((4 * scale)) 4096 4096 "lanes = 32, rows = 8, vector = $v, chunks = 4"
    # Smaller blocks with narrower slices (2026-12-06): a block of 64-256 threads holding 16 or
    # 32 bytes of each C slice (half a sector at one lane: the neighbouring block, launched next
    # to it, reads the other half), so that two to eight blocks share a multiprocessor and one
    # block's reductions overlap another's loads; one read at C = 4096 in blocks of 256.
    # Measured slower on an H100 (bench/results/2026-12-06-h100/axis-bench-bdb8e7b.txt): two
    # lanes 0.79 against 0.90-0.91 at C = 1024, one lane 0.23-0.33.
    axis_plan_ "alt_c1024_L2_${dtype}"    $dtype $((16 * scale)) 1024 4096 "lanes = 2, rows = 64, vector = $v, chunks = 16"
    axis_plan_ "alt_c1024_L1_${dtype}"    $dtype $((16 * scale)) 1024 4096 "lanes = 1, rows = 64, vector = $v, chunks = 16"
    axis_plan_ "alt_c2048_L2_${dtype}"    $dtype $((8 * scale)) 2048 4096 "lanes = 2, rows = 128, vector = $v, chunks = 16"
    axis_plan_ "alt_c2048_L1_${dtype}"    $dtype $((8 * scale)) 2048 4096 "lanes = 1, rows = 128, vector = $v, chunks = 16"
    axis_plan_ "alt_c4096_L1_${dtype}"    $dtype $((4 * scale)) 4096 4096 "lanes = 1, rows = 256, vector = $v, chunks = 16"
    axis_plan_ "alt_c4096_L1K8_${dtype}"  $dtype $((4 * scale)) 4096 4096 "lanes = 1, rows = 512, vector = $v, chunks = 8"
  done
}

# The anchors of axis-bench (scripts/gpu/axis_anchors.py): a copy, torch eager, torch.compile
# (static and dynamic=True) and a Triton kernel written for the layout, on axis-bench's shapes
# and chains, in one process: axis-anchors.json and axis-anchors.txt go to $out. About 4 minutes.
axis_anchors() {
  local commit
  commit=$(sed -n 's/^commit //p' "$work/softmax/VERSION" 2>/dev/null)
  python3 "$root/scripts/gpu/axis_anchors.py" "$out/axis-anchors.json" --commit "${commit:-unknown}" \
    --budget-s "${AXIS_ANCHORS_BUDGET:-240}" 2>&1 | tee "$out/axis-anchors.txt"
  [ "${PIPESTATUS[0]}" = 0 ] || failures=$((failures + 1))
}

# Columns over a thread-block cluster against one block a column, on the lean kernels of a
# static C (AxisKernel.cpp, usesLeanAddressing): f32 C = 1024-4096 with 64- and 128-byte slices
# over 2-8 blocks, and bf16 (packed values) at C = 2048 and 4096. About 40 s.
axis_cluster() {
  local dir=$work/axis-cluster
  mkdir -p "$dir"
  axis_plan_ clu_c1024_L4_f32     f32 16 1024 4096 "lanes = 4, rows = 64, vector = 4, chunks = 16"
  axis_plan_ clu_c1024_L8Q2_f32   f32 16 1024 4096 "lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 2"
  axis_plan_ clu_c2048_L4_f32     f32 8 2048 4096 "lanes = 4, rows = 128, vector = 4, chunks = 16"
  axis_plan_ clu_c2048_L4Q2_f32   f32 8 2048 4096 "lanes = 4, rows = 64, vector = 4, chunks = 16, cluster = 2"
  axis_plan_ clu_c2048_L8Q4_f32   f32 8 2048 4096 "lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 4"
  axis_plan_ clu_c2048_L4Q4K8_f32 f32 8 2048 4096 "lanes = 4, rows = 64, vector = 4, chunks = 8, cluster = 4"
  axis_plan_ clu_c4096_L2_f32     f32 4 4096 4096 "lanes = 2, rows = 256, vector = 4, chunks = 16"
  axis_plan_ clu_c4096_L4Q4_f32   f32 4 4096 4096 "lanes = 4, rows = 64, vector = 4, chunks = 16, cluster = 4"
  axis_plan_ clu_c4096_L4Q2_f32   f32 4 4096 4096 "lanes = 4, rows = 128, vector = 4, chunks = 16, cluster = 2"
  axis_plan_ clu_c4096_L8Q8_f32   f32 4 4096 4096 "lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 8"
  axis_plan_ clu_c4096_L4Q8K8_f32 f32 4 4096 4096 "lanes = 4, rows = 64, vector = 4, chunks = 8, cluster = 8"
  axis_plan_ clu_c2048_L4_bf16    bf16 16 2048 4096 "lanes = 4, rows = 128, vector = 8, chunks = 16"
  axis_plan_ clu_c2048_L4Q2_bf16  bf16 16 2048 4096 "lanes = 4, rows = 64, vector = 8, chunks = 16, cluster = 2"
  axis_plan_ clu_c4096_L4Q4_bf16  bf16 8 4096 4096 "lanes = 4, rows = 64, vector = 8, chunks = 16, cluster = 4"
  axis_plan_ clu_c4096_L4Q2_bf16  bf16 8 4096 4096 "lanes = 4, rows = 128, vector = 8, chunks = 16, cluster = 2"
  # bf16 with rule 5's slices (8 lanes x 32 rows x 16 packed values: 128 bytes, blocks of 256)
  # and 4 lanes in blocks of 256 over 2-4 blocks, at C off a power of two too (2026-12-06,
  # twelfth session: one block a column ran at 0.70-0.82 from C = 1500 to 4096).
  axis_plan_ clu_c1500_L8Q3_bf16  bf16 22 1500 4096 "lanes = 8, rows = 32, vector = 8, chunks = 16, cluster = 3"
  axis_plan_ clu_c1500_L4Q2_bf16  bf16 22 1500 4096 "lanes = 4, rows = 64, vector = 8, chunks = 12, cluster = 2"
  axis_plan_ clu_c1500_L4_bf16    bf16 22 1500 4096 "lanes = 4, rows = 128, vector = 8, chunks = 12"
  axis_plan_ clu_c2048_L8Q4_bf16  bf16 16 2048 4096 "lanes = 8, rows = 32, vector = 8, chunks = 16, cluster = 4"
  axis_plan_ clu_c3000_L8Q6_bf16  bf16 12 3000 4096 "lanes = 8, rows = 32, vector = 8, chunks = 16, cluster = 6"
  axis_plan_ clu_c3000_L4Q3_bf16  bf16 12 3000 4096 "lanes = 4, rows = 64, vector = 8, chunks = 16, cluster = 3"
  axis_plan_ clu_c3000_L2_bf16    bf16 12 3000 4096 "lanes = 2, rows = 256, vector = 8, chunks = 12"
  axis_plan_ clu_c4096_L8Q8_bf16  bf16 8 4096 4096 "lanes = 8, rows = 32, vector = 8, chunks = 16, cluster = 8"
  axis_plan_ clu_c4096_L2_bf16    bf16 8 4096 4096 "lanes = 2, rows = 256, vector = 8, chunks = 16"
  # C = 16384 in one read over clusters of 8 and 16 blocks (non-portable 16; blocks of 512
  # spill 4-8 bytes at 128), against the online plans (32-byte slices chosen, 128-byte here);
  # log_softmax and a scaled bf16 softmax over clusters at C = 4096 (rule 5 takes plain f32
  # softmax only; both ran the online or the one-block plan at 0.53-0.69).
  axis_plan_ clu_c16384_L4Q8_f32   f32 1 16384 4096 "lanes = 4, rows = 128, vector = 4, chunks = 16, cluster = 8"
  axis_plan_ clu_c16384_L4Q16_f32  f32 1 16384 4096 "lanes = 4, rows = 64, vector = 4, chunks = 16, cluster = 16"
  axis_plan_ clu_c16384_L8Q16_f32  f32 1 16384 4096 "lanes = 8, rows = 64, vector = 4, chunks = 16, cluster = 16"
  axis_plan_ clu_c16384_L8on_f32   f32 1 16384 4096 "lanes = 8, rows = 32, vector = 4, chunks = 16"
  axis_plan_ clu_c16384_L4Q8_bf16  bf16 2 16384 4096 "lanes = 4, rows = 128, vector = 8, chunks = 16, cluster = 8"
  axis_plan_ clu_c16384_L4Q16_bf16 bf16 2 16384 4096 "lanes = 4, rows = 64, vector = 8, chunks = 16, cluster = 16"
  axis_plan_ clu_c16384_L8Q16_bf16 bf16 2 16384 4096 "lanes = 8, rows = 64, vector = 8, chunks = 16, cluster = 16"
  axis_plan_op_ clu_log_c4096_L8Q8_f32 f32 4 4096 4096 log_softmax "" "lanes = 8, rows = 32, vector = 4, chunks = 16, cluster = 8"
  axis_plan_op_ clu_log_c4096_L8Q16K8_f32 f32 4 4096 4096 log_softmax "" "lanes = 8, rows = 32, vector = 4, chunks = 8, cluster = 16"
  axis_plan_op_ clu_log_c4096_L2on_f32 f32 4 4096 4096 log_softmax "" "lanes = 2, rows = 256, vector = 4, chunks = 4"
  axis_plan_op_ clu_scaled_c4096_L4Q8K8_bf16 bf16 8 4096 4096 softmax "#softmax.scale<0.125>" "lanes = 4, rows = 64, vector = 8, chunks = 8, cluster = 8"
  axis_plan_op_ clu_scaled_c4096_L8Q8_bf16 bf16 8 4096 4096 softmax "#softmax.scale<0.125>" "lanes = 8, rows = 32, vector = 8, chunks = 16, cluster = 8"
  axis_plan_op_ clu_scaled_c4096_L4Q4_bf16 bf16 8 4096 4096 softmax "#softmax.scale<0.125>" "lanes = 4, rows = 64, vector = 8, chunks = 16, cluster = 4"
  axis_plan_op_ clu_scaled_c4096_L2_bf16 bf16 8 4096 4096 softmax "#softmax.scale<0.125>" "lanes = 2, rows = 256, vector = 8, chunks = 16"
  axis_plan_op_ clu_scaled_c512_L8_bf16 bf16 64 512 4096 softmax "#softmax.scale<0.125>" "lanes = 8, rows = 32, vector = 8, chunks = 16"
}

# 16-bit columns wider than one block holds (C = 8192, 16384: the online plan chosen, 0.41x
# copy at 16384 on an H100) over clusters of packed plans in blocks of 256 and 512 that
# assemble without a spill at 128 registers (2026-12-06, thirteenth session), beside the
# chosen plans and 4 lanes x 128 rows over 8 (8 bytes of spill; 0.537 in the twelfth).
axis_wide16() {
  local dir=$work/axis-wide16
  mkdir -p "$dir"
  axis_case_ w16_c16384_chosen_bf16 bf16 1 2 16384 4096
  axis_plan_ w16_c16384_L2Q8R128_bf16 bf16 2 16384 4096 "lanes = 2, rows = 128, vector = 8, chunks = 16, cluster = 8"
  axis_plan_ w16_c16384_L2Q8K8_bf16   bf16 2 16384 4096 "lanes = 2, rows = 256, vector = 8, chunks = 8, cluster = 8"
  axis_plan_ w16_c16384_L4Q16_bf16    bf16 2 16384 4096 "lanes = 4, rows = 64, vector = 8, chunks = 16, cluster = 16"
  axis_plan_ w16_c16384_L4Q8_bf16     bf16 2 16384 4096 "lanes = 4, rows = 128, vector = 8, chunks = 16, cluster = 8"
  axis_case_ w16_c16384_chosen_f16 f16 1 2 16384 4096
  axis_plan_ w16_c16384_L2Q8R128_f16  f16 2 16384 4096 "lanes = 2, rows = 128, vector = 8, chunks = 16, cluster = 8"
  axis_case_ w16_c8192_chosen_bf16 bf16 1 4 8192 4096
  axis_plan_ w16_c8192_L2Q4R128_bf16  bf16 4 8192 4096 "lanes = 2, rows = 128, vector = 8, chunks = 16, cluster = 4"
  axis_plan_ w16_c8192_L4Q4_bf16      bf16 4 8192 4096 "lanes = 4, rows = 128, vector = 8, chunks = 16, cluster = 4"
}

# The conformance cases of a softmax over a non-last axis only (scripts/gpu/conformance.py
# --axis), checked against the reference and timed; then compute-sanitizer memcheck and
# racecheck on their small subset.
axis() {
  python3 "$root/scripts/gpu/conformance.py" --axis --jobs "${SUITE_JOBS:-12}" --runner "$run" \
    --out "$out" --jsonl-dir "$logs" || failures=$((failures + 1))
  python3 "$root/scripts/gpu/conformance.py" --axis --memcheck --jobs 8 --runner "$run" \
    --out "$out" --jsonl-dir "$logs" || failures=$((failures + 1))
  python3 "$root/scripts/gpu/conformance.py" --axis --memcheck --tool racecheck --jobs 8 \
    --runner "$run" --out "$out" --jsonl-dir "$logs" || failures=$((failures + 1))
}

# The Python package (python/softmax_compiler) on torch tensors: scripts/gpu/python_check.py.
python_() {
  SOFTMAX_C_LIBRARY=$work/softmax/lib/libsoftmax-c.so PYTHONPATH=$root/python \
    python3 "$root/scripts/gpu/python_check.py" 2>&1 | tee "$out/python.txt"
  [ "${PIPESTATUS[0]}" = 0 ] || failures=$((failures + 1))
}

# The Python package beside torch eager, torch.compile (static and dynamic=True) and the seed's
# Triton kernel, in one process (scripts/gpu/python_bench.py): host time a call on 4x128, and
# bandwidth as a fraction of a copy of the same bytes (f32/bf16 softmax at N = 128..32768, the
# bf16 attention chain). About 3 minutes; python-bench.json and python-bench.txt go to $out.
bench_python() {
  local commit
  commit=$(sed -n 's/^commit //p' "$work/softmax/VERSION" 2>/dev/null)
  SOFTMAX_C_LIBRARY=$work/softmax/lib/libsoftmax-c.so PYTHONPATH=$root/python \
    python3 "$root/scripts/gpu/python_bench.py" "$out/python-bench.json" \
    --commit "${commit:-unknown}" 2>&1 | tee "$out/python-bench.txt"
  [ "${PIPESTATUS[0]}" = 0 ] || failures=$((failures + 1))
}

# Nsight Compute counters and stall reasons of a few kernels (scripts/gpu/profile.sh), to
# $out/profile.txt; PROFILE_CASES=name,... for a subset.
profile() {
  bash "$root/scripts/gpu/profile.sh" "$run" "$work" "$out" || failures=$((failures + 1))
}

# The C API (libsoftmax-c.so) from C, through softmax-capi-check (docs/api.md): every plan, static
# and dynamic, f32/bf16/f16 and fused chains, on caller-owned buffers and a non-blocking stream,
# directly and captured in a CUDA graph, checked against a float64 reference; then softmax_run's
# host time per call (goal <= 10 us). Its full output goes to $out/capi.txt; CAPI_ARGS adds
# arguments (e.g. --filter=bf16). Its row: median_us is softmax_run's host time per call, mism
# the failed checks, max_abs the largest error of any checked output.
# Generated programs (scripts/softmax_gen.py, docs/fuzzing.md) run on the device, each checked
# by softmax-run against its float64 reference: GEN_SEEDS (default 1-1200), GEN_JOBS at once
# (default 16), stopped after GEN_TIMEOUT seconds (default 480; then the row counts the
# programs that finished); GEN_FAMILY=axis takes the strided_axis family (a softmax over
# another axis than the last) instead of the rows. Every program's line in generated.txt; the
# failures and the summary here.
generated() {
  local start=$SECONDS code summary status=PASS
  timeout "${GEN_TIMEOUT:-480}" python3 "$root/scripts/check-generated.py" --softmax-run "$run" \
    --gpu "${GEN_SEEDS:-1-1200}" --jobs "${GEN_JOBS:-16}" --keep "$work/generated" \
    --family "${GEN_FAMILY:-rows}" > "$out/generated.txt" 2>&1
  code=$?
  [ "$code" = 124 ] && echo "generated: stopped after ${GEN_TIMEOUT:-480} s with $(grep -c '^ok: ' \
    "$out/generated.txt") programs checked" | tee -a "$out/generated.txt"
  grep -vE '^ok: ' "$out/generated.txt" | head -200
  [ "$code" = 0 ] || { status=FAIL; failures=$((failures + 1)); }
  summary=$(sed -n 's/^generated: .*on the GPU //p; s/^generated: \(stopped.*\)/\1/p' \
    "$out/generated.txt" | tail -1)
  local row
  row=$(printf '%-22s %-13s %4s %9s %9s %6s %7s %6s %6s %10s %4s  %s' generated "$status" "$code" \
    - - - - "$(grep -c '^FAIL: gpu seed' "$out/generated.txt")" - - $((SECONDS - start)) \
    "${summary:-see generated.txt} (${GEN_FAMILY:-rows} seeds ${GEN_SEEDS:-1-1200})")
  rows+=("$row")
  echo "$row"
}

# The generator's CPU check (docs/fuzzing.md: every program compiles to PTX that ptxas assembles
# without a spill, or is rejected with a diagnostic) on this machine's cores, with the packed
# softmax-opt and the ptxas packed beside it (pack.sh with SOFTMAX_PACK_PTXAS): no GPU involved.
# GEN_COMPILE_SEEDS, GEN_COMPILE_TIMEOUT, GEN_JOBS and GEN_FAMILY (the generated mode's are
# GEN_SEEDS, ...).
generated_compile() {
  local start=$SECONDS code status=PASS ptxas=$work/softmax/bin/ptxas
  [ -x "$ptxas" ] || { echo "generated-compile: no bin/ptxas in the archive (pack.sh with SOFTMAX_PACK_PTXAS)"; failures=$((failures + 1)); return; }
  timeout "${GEN_COMPILE_TIMEOUT:-480}" python3 "$root/scripts/check-generated.py" \
    --softmax-opt "$work/softmax/bin/softmax-opt" --ptxas "$ptxas" \
    --compile "${GEN_COMPILE_SEEDS:-1-1200}" --jobs "${GEN_JOBS:-16}" --family "${GEN_FAMILY:-rows}" \
    > "$out/generated-compile.txt" 2>&1
  code=$?
  [ "$code" = 124 ] && echo "generated-compile: stopped after ${GEN_COMPILE_TIMEOUT:-480} s with $(grep -c '^ok: ' \
    "$out/generated-compile.txt") programs checked" | tee -a "$out/generated-compile.txt"
  grep -E '^(FAIL|generated)' "$out/generated-compile.txt" | head -50
  [ "$code" = 0 ] || { status=FAIL; failures=$((failures + 1)); }
  local row
  row=$(printf '%-22s %-13s %4s %9s %9s %6s %7s %6s %6s %10s %4s  %s' generated-compile "$status" \
    "$code" - - - - "$(grep -c '^FAIL: compile seed' "$out/generated-compile.txt")" - - \
    $((SECONDS - start)) "$(grep -c '^ok: ' "$out/generated-compile.txt") ok (${GEN_FAMILY:-rows} seeds ${GEN_COMPILE_SEEDS:-1-1200})")
  rows+=("$row")
  echo "$row"
}

capi() {
  local bin=$work/softmax/bin/softmax-capi-check start=$SECONDS code
  # The run path ($ORIGIN/../lib) finds libsoftmax-c.so; LD_LIBRARY_PATH as well, to be sure.
  # shellcheck disable=SC2086
  LD_LIBRARY_PATH=$work/softmax/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$bin" ${CAPI_ARGS:-} \
    > "$out/capi.txt" 2>&1
  code=$?
  cp "$out/capi.txt" "$logs/capi.log"
  # The failures, the timings and the summary here; every check in capi.txt.
  grep -E '^(FAIL|TIME|device:|compiled|summary:|softmax-capi-check:)|^PASS time\.|^     ' "$out/capi.txt"
  local status=PASS
  case $code in 0) ;; 3) status=SKIPPED ;; *) status=FAIL ;; esac
  [ "$code" = 0 ] || failures=$((failures + 1))
  local host max_abs checks failed
  host=$(sed -n 's/.*host time median <= \([0-9.]*\) us.*/\1/p' "$out/capi.txt" | tail -1)
  failed=$(grep -c '^FAIL' "$out/capi.txt")
  max_abs=$(awk '/^(PASS|FAIL) (run|graph)\// { if ($4 + 0 > m) m = $4 + 0; n++ }
                 END { if (n) printf "%.2e", m }' "$out/capi.txt")
  checks=$(sed -n 's/^summary: .*: \([0-9]* checks, [0-9]* passed, [0-9]* failed\).*/\1/p' "$out/capi.txt")
  local row
  row=$(printf '%-22s %-13s %4s %9s %9s %6s %7s %6s %6s %10s %4s  %s' capi "$status" "$code" \
    "${host:--}" - - - "$failed" - "${max_abs:--}" $((SECONDS - start)) \
    "${checks:-see capi.txt} (median_us: softmax_run host us/call)")
  rows+=("$row")
  echo "$row"
}

# The conformance suite (docs/conformance.md): scripts/gpu/conformance.py, in parallel, checked,
# timed one at a time. Its table goes to $out/conformance.md, every result to the logs.
# SUITE_MATCH=REGEX (suite and the sanitizer modes): only the cases whose name matches (a change's subset).
# SUITE_SHARD=K/N (suite): the K-th of N interleaved parts. The whole suite (1650 cases) takes
# about 9-10 minutes at 15-16 jobs, the limit of one device call: run it as 1/2 and 2/2.
suite() {
  python3 "$root/scripts/gpu/conformance.py" --jobs "${SUITE_JOBS:-12}" --runner "$run" --out "$out" \
    --jsonl-dir "$logs" ${SUITE_MATCH:+--match "$SUITE_MATCH"} ${SUITE_SHARD:+--shard "$SUITE_SHARD"} ||
    failures=$((failures + 1))
}

# The suite at fewer widths (1, 33, 1000, 4097, 50257): every variant and hand-written plan.
suite_quick() {
  python3 "$root/scripts/gpu/conformance.py" --quick --jobs "${SUITE_JOBS:-12}" --runner "$run" \
    --out "$out" --jsonl-dir "$logs" || failures=$((failures + 1))
}

# compute-sanitizer memcheck on one case per plan and per fused variant.
memcheck() {
  python3 "$root/scripts/gpu/conformance.py" --memcheck --jobs 8 --runner "$run" --out "$out" \
    --jsonl-dir "$logs" ${SUITE_MATCH:+--match "$SUITE_MATCH"} || failures=$((failures + 1))
}

# The row counts that pipeline the 16-bit register plans (several row groups a block), checked,
# and racecheck on one of them (the reductions' shared slots reused group after group).
pipelined() {
  python3 "$root/scripts/gpu/conformance.py" --pipelined --jobs 6 --runner "$run" --out "$out" \
    --jsonl-dir "$logs" || failures=$((failures + 1))
  python3 "$root/scripts/gpu/conformance.py" --pipelined --memcheck --tool racecheck --jobs 1 \
    --runner "$run" --out "$out" --jsonl-dir "$logs" || failures=$((failures + 1))
}

# The other compute-sanitizer tools on the same subset: shared-memory races (the reductions'
# slots, reused by each row group of a block), barriers, reads of uninitialised memory.
racecheck() { sanitizer_tool racecheck; }
synccheck() { sanitizer_tool synccheck; }
initcheck() { sanitizer_tool initcheck; }
sanitizer_tool() {
  python3 "$root/scripts/gpu/conformance.py" --memcheck --tool "$1" --jobs 8 --runner "$run" \
    --out "$out" --jsonl-dir "$logs" ${SUITE_MATCH:+--match "$SUITE_MATCH"} ||
    failures=$((failures + 1))
}

# Hand-written plans side by side: the numbers behind the thresholds (docs/strategies.md).
sweep16() {
  # Values a thread for 16-bit register plans, up to 64 (the fast kernels need fewer registers).
  python3 "$root/scripts/gpu/sweep.py" --runner "$run" --out "$out" --jsonl-dir "$logs" \
    --types bf16 --widths 128,512,1024,2048,4096,8192,16384 --values 8,16,32,64 --no-chunked
}

# row_cluster plans (blocks a cluster, lanes, values a thread) beside the chunked plan.
sweep_cluster() {
  python3 "$root/scripts/gpu/sweep.py" --runner "$run" --out "$out" --jsonl-dir "$logs" \
    --types f32,bf16 --widths 32768,65536,131072 --cluster
}

sweep() {
  python3 "$root/scripts/gpu/sweep.py" --runner "$run" --out "$out" --jsonl-dir "$logs"
}

# Occupancy against registers: the 16-bit softmax programs at 2048-16384 columns and the
# attention chain, static and dynamic, with every kernel's register budget capped
# (softmax-run --max-registers; REGISTER_CAPS, 0: the plans' own; REGISTER_EXTRA: softmax-run
# flags added to every run, e.g. --disable-lsr). registers[-REGISTER_TAG].txt goes to $out.
registers() {
  python3 "$root/scripts/gpu/registers.py" --runner "$run" --out "$out" --logs "$logs" \
    --caps "${REGISTER_CAPS:-0,64,56,48}" ${REGISTER_ONLY:+--only "$REGISTER_ONLY"} \
    ${REGISTER_WIDTHS:+--widths "$REGISTER_WIDTHS"} ${REGISTER_TAG:+--tag "$REGISTER_TAG"} \
    ${REGISTER_EXTRA:+--extra="$REGISTER_EXTRA"} || failures=$((failures + 1))
}

# Static 16-bit rows of 16384 beside a step with an operand at their budget (64: 4 bytes of
# spill, two blocks a multiprocessor) and at 72 (no spill, one block; --max-registers caps the
# budget, so 72 needs a budget above it: it was the budget at f2360b9), beside the plain softmax.
operand16() {
  local f=$cases/operand-16384.mlir
  case_ plain_bf16_16384        "$f" --entry=plain_bf16 --bench
  case_ scale_by_bf16_16384     "$f" --entry=scale_by_bf16 --scalar=0.7 --bench
  case_ scale_by_bf16_16384_r64 "$f" --entry=scale_by_bf16 --scalar=0.7 --max-registers=64 --bench
  case_ bias1_f16_16384         "$f" --entry=bias1_f16 --bench
  case_ bias1_f16_16384_r64     "$f" --entry=bias1_f16 --max-registers=64 --bench
}

# The bandwidth table over the anchors' shapes (docs/performance.md).
bandwidth() {
  python3 "$root/scripts/gpu/bandwidth.py" --runner "$run" --out "$out" --jsonl-dir "$logs" ||
    failures=$((failures + 1))
}

# Ours (static and dynamic programs) beside torch eager, torch.compile (static and dynamic) and
# Triton over row widths 32 to 262144 and four fused chains (docs/performance.md): under 8 minutes.
# compare.json and compare.txt go to $out, softmax-run's logs into cases.tar.xz.
compare() {
  python3 "$root/scripts/gpu/compare.py" --runner "$run" --out "$out" --logs "$logs" ||
    failures=$((failures + 1))
}

modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(smoke)
header=$(printf '%-22s %-13s %4s %9s %9s %6s %7s %6s %6s %10s %4s  %s' \
  case status exit median_us copy_us frac GB/s mism unwrit max_abs sec shape)
echo "$header"
for mode in "${modes[@]}"; do
  asked=$mode
  [ "$mode" = python ] && mode=python_
  mode=${mode//-/_}    # bench-python -> bench_python: a mode's function
  if ! declare -F "$mode" > /dev/null; then
    echo "run: unknown mode '$asked' (smoke, conformance, bench, suite, suite-quick, memcheck, pipelined, racecheck, synccheck, initcheck, bandwidth, sweep, sweep16, sweep-cluster, small-batch, split, split-wide, padding-shared, bias-one, leading-static, two-pass-side, wide, staged, staged-cluster, narrow16, registers, compare, capi, generated, generated-compile, operand16, probe, profile, python, bench-python, axis, axis-bench, axis-alternatives, axis-anchors, axis-cluster, axis-wide16)" >&2
    exit 2
  fi
  "$mode"
done

# The table last (the device call returns the end of the output); the suite, memcheck,
# bandwidth, sweep and compare modes print their own tables above.
[ ${#rows[@]} -gt 0 ] && {
  echo
  echo "== softmax-run on $(sed -n 's/^gpu: //p' "$out/environment.txt" | head -1)"
  echo "$header"
  printf '%s\n' "${rows[@]}"
  echo "cases: ${#rows[@]}, failed: $failures (summary, results.json and cases.tar.xz in $out)"
} | tee "$out/summary.txt"
python3 - "$logs" "$out/results.json" <<'PY' 2>/dev/null
import glob, json, os, sys
reports = []
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json")), key=os.path.getmtime):
    try:
        data = json.load(open(path))
    except Exception:
        continue
    # softmax-run --case writes an array of reports.
    for report in data if isinstance(data, list) else [data]:
        if isinstance(report, dict):
            report["case"] = os.path.basename(path)[:-5]
            reports.append(report)
json.dump(reports, open(sys.argv[2], "w"), indent=1)
PY
tar -C "$work" -cJf "$out/cases.tar.xz" logs
[ "$failures" = 0 ]
