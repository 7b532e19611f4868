#!/usr/bin/env bash
# The benchmark run: installs the comparison packages (Debian's and the
# bench venv's), builds, runs the cpu suite (every op family that lowers,
# beside PyTorch and the venv's libraries), the decode benchmark, and
# regenerates the figures and docs/Benchmarks.md. Takes a while on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
scripts/setup.sh --bench
BUILD_DIR="$BUILD_DIR" scripts/build.sh -j2 mixer-bench MixerCAPI
mkdir -p bench/results
# Three rounds of mixer's rows, each row its median round: a shared
# machine's slow minute then lands in one round of a case, not in its row.
"$BUILD_DIR"/bin/mixer-bench --suite cpu --isolate --rounds 3 \
  --json bench/results/cpu.json "$@"
# Cached decode, per token, beside mamba2-jax's (the venv's Python has it).
python=.venv-bench/bin/python
[[ -x $python ]] || python=/usr/bin/python3
MIXER_LIBRARY="$BUILD_DIR"/lib/libMixerCAPI.so "$python" bench/decode.py \
  --json bench/results/decode.json
# The fwd+bwd rows of the train suite, when it has been run.
train=()
for f in bench/results/train*.json; do [[ -f $f ]] && train+=(--train "$f"); done
# Runs of the cpu suite compiled for other CPUs (--mcpu) or taken on other
# machines, kept as bench/results/cpu-NAME.json: a column each.
targets=()
for f in bench/results/cpu-*.json; do [[ -f $f ]] && targets+=(--target-run "$f"); done
/usr/bin/python3 python/mixer_bench_plot.py bench/results/cpu.json \
  "${train[@]}" "${targets[@]}" --decode bench/results/decode.json \
  --figures bench/figures --doc docs/Benchmarks.md
