#!/usr/bin/env bash
# The device check, for a machine with an NVIDIA GPU and the CUDA toolkit
# but no network, in at most 8 minutes:
#   1. builds what it needs (mixer-bench, mixer-compile, the CUDA runtime
#      and its tests) from the build directory or the sources, offline;
#   2. runs the tests that need a device (lit: REQUIRES cuda-device, and the
#      CUDA runtime's unit tests);
#   3. runs every op's GPU kernels against the fp64 reference
#      (mixer-bench --suite gpu-smoke), then every differentiable op's
#      forward and backward (--fwd-bwd), the gradients against the fp64
#      reference's;
#   4. times the public GPU shapes (mixer-bench --suite gpu), with cuBLAS
#      for the GEMM-shaped cases;
# and writes OUT_DIR/gpu-check.json with the results of every step and the
# rows of the suites (mixer-bench runs once per op, each writing
# OUT_DIR/SUITE/OP.json, so that a crash costs one op's rows).
#
#   scripts/gpu-check.sh [--out-dir DIR] [--repeat N] [--budget SECONDS]
#                        [--step-limit SECONDS] [--prebuilt DIR]
#
# BUILD_DIR picks the build directory (default build). --step-limit caps
# each step after the build (default 120 s), so that a kernel that hangs
# costs its op's rows only. --prebuilt DIR takes the tools, test programs
# and libraries from DIR, where scripts/gpu-bundle.sh's archives were
# unpacked, for a machine without LLVM 22: nothing is built, and steps 1
# and 2 run the bundle's programs of the CUDA lit tests instead of lit.
# Exits non-zero when there is no GPU, a step fails, or a case is
# inaccurate.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
OUT_DIR=gpu-check
REPEAT=10
BUDGET=480
STEP_LIMIT=120
PREBUILT=
while [[ $# -gt 0 ]]; do
  case "$1" in
    --out-dir) OUT_DIR=$2; shift 2 ;;
    --repeat) REPEAT=$2; shift 2 ;;
    --budget) BUDGET=$2; shift 2 ;;
    --step-limit) STEP_LIMIT=$2; shift 2 ;;
    --prebuilt) PREBUILT=$(realpath -m "$2"); shift 2 ;;
    *) echo "gpu-check: unknown option '$1'" >&2; exit 2 ;;
  esac
done
if [[ -n $PREBUILT && ! -x $PREBUILT/bin/mixer-bench ]]; then
  echo "gpu-check: --prebuilt '$PREBUILT' has no bin/mixer-bench: unpack a" \
    "scripts/gpu-bundle.sh archives there first" >&2
  exit 2
fi
mkdir -p "$OUT_DIR"
START=$(date +%s)
export PATH=/usr/local/cuda/bin:$PATH
# gpu-module-to-binary finds libdevice and ptxas through CUDA_HOME.
export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}

# Seconds left of the budget, less a reserve for the steps after this one.
left() { echo $(( BUDGET - ($(date +%s) - START) - ${1:-0} )); }
log() { echo "gpu-check [$(( $(date +%s) - START ))s]: $*" >&2; }

declare -A STEP_STATUS STEP_SECONDS
run_step() { # name, reserve for later steps, command...
  local name=$1 reserve=$2; shift 2
  local limit; limit=$(left "$reserve")
  if [[ $name != build ]] && (( limit > STEP_LIMIT )); then limit=$STEP_LIMIT; fi
  if (( limit < 10 )); then
    log "$name: skipped, the ${BUDGET}s budget is spent"
    STEP_STATUS[$name]="skipped: out of time"; STEP_SECONDS[$name]=0
    return 1
  fi
  log "$name (at most ${limit}s)"
  local begin; begin=$(date +%s)
  timeout --kill-after=10 "$limit" "$@" > "$OUT_DIR/$name.log" 2>&1
  local rc=$?
  STEP_SECONDS[$name]=$(( $(date +%s) - begin ))
  case $rc in
    0) STEP_STATUS[$name]=ok ;;
    124|137) STEP_STATUS[$name]="timed out after ${limit}s" ;;
    *) STEP_STATUS[$name]="failed (exit $rc)" ;;
  esac
  log "$name: ${STEP_STATUS[$name]} in ${STEP_SECONDS[$name]}s (log: $OUT_DIR/$name.log)"
  return $rc
}

# 0. A device.
if ! nvidia-smi -L > "$OUT_DIR/devices.txt" 2>&1 || ! grep -q GPU "$OUT_DIR/devices.txt"; then
  log "no NVIDIA GPU: nvidia-smi -L says: $(head -1 "$OUT_DIR/devices.txt")"
  STEP_STATUS[device]="no GPU"
else
  STEP_STATUS[device]=ok
  log "device: $(head -1 "$OUT_DIR/devices.txt")"
fi

# Runs a program of a CUDA lit test and checks that its output has every
# pattern (grep -E) given after "--".
run_program() { # command... -- patterns...
  local command=() patterns=()
  while [[ $1 != -- ]]; do command+=("$1"); shift; done; shift
  patterns=("$@")
  local output rc=0
  output=$("${command[@]}" 2>&1) || rc=$?
  echo "$output"
  (( rc == 0 )) || { echo "exit status $rc"; return 1; }
  for pattern in "${patterns[@]}"; do
    grep -qE "$pattern" <<< "$output" || { echo "missing: $pattern"; return 1; }
  done
}
export -f run_program
PROGRAM=(bash -c 'run_program "$@"' run_program)

STEPS="device"
if [[ -z $PREBUILT ]]; then
  # 1. Build, offline, what the check runs (incremental where a build exists).
  TARGETS="mixer-bench mixer-compile MixerCudaRuntime MixerCudaRuntimeShared MixerCudaRuntimeTests MixerCAPI"
  if [[ -f "$BUILD_DIR/build.ninja" ]]; then
    run_step build 300 nice ninja -C "$BUILD_DIR" $TARGETS
  else
    run_step build 300 env BUILD_DIR="$BUILD_DIR" scripts/build.sh $TARGETS
  fi
  STEPS+=" build"
  # 2. The tests that need a device, and the runtime's unit tests.
  if [[ ${STEP_STATUS[build]} == ok ]]; then
    LIT_TESTS=$(grep -rl -e "cuda-device" -e "cuda-runtime" test | grep -v lit.cfg.py | sed "s|^test/|$BUILD_DIR/test/|")
    run_step lit 280 /usr/lib/llvm-22/bin/lit -sv $LIT_TESTS
    STEPS+=" lit"
  fi
  BENCH="$BUILD_DIR/bin/mixer-bench"
else
  # 1 and 2 from the bundle: its libraries in place of LLVM 22's, and the
  # programs of cuda-object-run.test, capi_cuda.c and Python/cuda.py.
  export LD_LIBRARY_PATH="$PREBUILT/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export MIXER_CUDA_RUNTIME_LIBRARY="$PREBUILT/lib/libMixerCudaRuntime.so"
  export MIXER_OMP_LIBRARY="$PREBUILT/lib/libomp.so"
  export MIXER_C_RUNNER_UTILS_LIBRARY="$PREBUILT/lib/libmlir_c_runner_utils.so"
  run_step runtime-unit-tests 400 "$PREBUILT/bin/MixerCudaRuntimeTests"
  run_step cuda-object-run 400 "${PROGRAM[@]}" "$PREBUILT/bin/cuda-object-run" -- \
    "gmm: relative error [0-9.e+-]+ ok" "lse: relative error [0-9.e+-]+ ok"
  run_step capi-cuda 400 "${PROGRAM[@]}" "$PREBUILT/bin/capi-cuda" -- \
    "call: status 0, relative error" "none needed, the GPU ran it"
  run_step python-cuda 400 "${PROGRAM[@]}" env PYTHONPATH=python \
    MIXER_LIBRARY="$PREBUILT/lib/libMixerCAPI.so" python3 test/Python/cuda.py -- \
    "ran on the GPU" "none needed"
  STEPS+=" runtime-unit-tests cuda-object-run capi-cuda python-cuda"
  BENCH="$PREBUILT/bin/mixer-bench"
fi

# 3 and 4, one process per op: a compiler crash costs that op's rows only.
# The ops of mixer-bench's families, in suite order.
OPS="ssd linear_attention selective_scan gated_delta_rule kernel_lse kernel_mv
     transport_cost sinkhorn grouped_matmul grouped_swiglu topk_router
     moe_dispatch moe_combine"
# Those whose families are differentiable (OpBench::differentiable).
FWD_BWD_OPS="ssd linear_attention selective_scan gated_delta_rule kernel_lse
     kernel_mv sinkhorn grouped_matmul grouped_swiglu moe_combine"
if [[ -x "$BENCH" ]]; then
  mkdir -p "$OUT_DIR/gpu-smoke" "$OUT_DIR/gpu-smoke-fwd-bwd" "$OUT_DIR/gpu"
  # 3. Every op's kernels against the fp64 reference, at small shapes.
  for op in $OPS; do
    run_step "gpu-smoke-$op" 360 "$BENCH" --suite gpu-smoke --op "$op" \
      --repeat 3 --no-cublas --json "$OUT_DIR/gpu-smoke/$op.json"
    STEPS+=" gpu-smoke-$op"
  done
  # Their forward and backward, the gradients against the fp64 reference.
  for op in $FWD_BWD_OPS; do
    run_step "gpu-smoke-fwd-bwd-$op" 240 "$BENCH" --suite gpu-smoke --fwd-bwd \
      --op "$op" --repeat 3 --no-cublas \
      --json "$OUT_DIR/gpu-smoke-fwd-bwd/$op.json"
    STEPS+=" gpu-smoke-fwd-bwd-$op"
  done
  # 4. The public GPU shapes, timed, against cuBLAS where GEMM-shaped.
  for op in $OPS; do
    run_step "gpu-$op" 0 "$BENCH" --suite gpu --op "$op" --repeat "$REPEAT" \
      --json "$OUT_DIR/gpu/$op.json"
    STEPS+=" gpu-$op"
  done
fi

# The summary: every step's status and time, and the rows of both suites.
STEPS_JSON="{"
for name in $STEPS; do
  STEPS_JSON+="\"$name\": {\"status\": \"${STEP_STATUS[$name]:-not run}\", \"seconds\": ${STEP_SECONDS[$name]:-0}},"
done
STEPS_JSON="${STEPS_JSON%,}}"
/usr/bin/python3 - "$OUT_DIR" "$STEPS_JSON" "$(( $(date +%s) - START ))" <<'EOF_PY'
import glob, json, os, sys
out_dir, steps, elapsed = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
summary = {"elapsed_s": elapsed, "steps": steps}
bad = [f"{name}: {step['status']}" for name, step in steps.items()
       if step["status"] != "ok"]
SUITES = ("gpu-smoke", "gpu-smoke-fwd-bwd", "gpu")
for suite in SUITES:
    rows, machine = [], None
    for path in sorted(glob.glob(os.path.join(out_dir, suite, "*.json"))):
        with open(path) as f:
            report = json.load(f)
        machine = machine or report.get("machine")
        rows += report.get("rows", [])
    summary[suite] = {"machine": machine, "rows": rows}
    for row in rows:
        if row.get("status") in ("inaccurate", "error"):
            bad.append(f"{suite}: {row.get('case')} {row.get('impl')}: "
                       f"{row.get('status')} ({row.get('reason')})")
summary["problems"] = bad
with open(os.path.join(out_dir, "gpu-check.json"), "w") as f:
    json.dump(summary, f, indent=1)

def number(value, form):
    return form % value if isinstance(value, (int, float)) else "-"

# The rows, one line each, for a reader of the console.
for suite in SUITES:
    for row in summary[suite]["rows"]:
        rate = (number(row.get("gflops"), "%.1f GFLOP/s") if row.get("gflops")
                else number(row.get("gbps"), "%.1f GB/s"))
        print(f"{suite:17} {row.get('case', ''):26} {row.get('impl', ''):18} "
              f"{number(row.get('median_ms'), '%.4f ms'):>12} {rate:>16} "
              f"{number(row.get('peak_fraction'), '%.3f'):>6} {row.get('peak', '')} "
              f"err {number(row.get('rel_error'), '%.1e')} {row.get('status')}")
for line in bad:
    print("gpu-check: " + line, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF_PY
rc=$?
log "done in $(( $(date +%s) - START ))s: $OUT_DIR/gpu-check.json"
exit $rc
