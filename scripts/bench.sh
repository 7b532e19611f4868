#!/usr/bin/env bash
# The benchmark run: installs the comparison packages, builds, runs the cpu
# suite (every op family that lowers) and regenerates the figures and
# docs/Benchmarks.md. Takes a few minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
scripts/setup.sh --bench
BUILD_DIR="$BUILD_DIR" scripts/build.sh -j2 mixer-bench
mkdir -p bench/results
"$BUILD_DIR"/bin/mixer-bench --suite cpu --isolate --json bench/results/cpu.json "$@"
# The fwd+bwd rows of the train suite, when it has been run.
train=()
for f in bench/results/train*.json; do [[ -f $f ]] && train+=(--train "$f"); done
/usr/bin/python3 python/mixer_bench_plot.py bench/results/cpu.json \
  "${train[@]}" --figures bench/figures --doc docs/Benchmarks.md
