#!/usr/bin/env bash
# Builds the libFuzzer targets in ./build-fuzz (-DMIXER_FUZZ=ON: ASan, UBSan
# and coverage) and runs one of them for SECONDS on one core:
#
#   scripts/fuzz.sh mixer-fuzz-parse-verify 600
#   scripts/fuzz.sh mixer-fuzz-pipeline 600 [extra libFuzzer flags]
#
# The corpus lives in build-fuzz/corpus/TARGET; parse-verify starts from the
# lit tests split at `// -----` (scripts/fuzz-corpus.py) and uses the
# dictionary tools/mixer-fuzz/mixer.dict. Crashes, leaks and timeouts are
# written to build-fuzz/findings/TARGET. Reproduce one with
# `build-fuzz/bin/TARGET FILE`.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -lt 2 ]]; then
  echo "usage: scripts/fuzz.sh mixer-fuzz-parse-verify|mixer-fuzz-pipeline SECONDS [libFuzzer flags]" >&2
  exit 2
fi
target=$1 seconds=$2
shift 2
scripts/setup.sh --sanitize
BUILD_DIR=build-fuzz MIXER_CMAKE_ARGS="-DMIXER_FUZZ=ON" scripts/build.sh "$target"

corpus=build-fuzz/corpus/$target
findings=build-fuzz/findings/$target
mkdir -p "$corpus" "$findings"
flags=(-max_total_time="$seconds" -artifact_prefix="$findings/" -timeout=60
       -rss_limit_mb=4096 -print_final_stats=1)
seeds=()
if [[ $target == mixer-fuzz-parse-verify ]]; then
  seeds=(build-fuzz/corpus/lit-seeds)
  scripts/fuzz-corpus.py test "${seeds[0]}"
  flags+=(-dict=tools/mixer-fuzz/mixer.dict -max_len=8192)
else
  # The bytes are a random source: all of them count from the start.
  flags+=(-max_len=256 -len_control=0)
fi
# A context serves many inputs (what it uniques stays allocated between
# them), so libFuzzer's per-input leak check would stop every run; leaks are
# the sanitized test run's job (scripts/test.sh --sanitize).
# allow_user_poisoning=0: see test/lit.cfg.py (LLVM's allocator inlined into
# instrumented code poisons memory the uninstrumented libMLIR hands out).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allow_user_poisoning=0}
exec nice -n 10 "build-fuzz/bin/$target" "${flags[@]}" "$@" "$corpus" "${seeds[@]}"
