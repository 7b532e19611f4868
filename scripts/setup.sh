#!/usr/bin/env bash
# Installs the Debian packages mixer needs (LLVM/MLIR 22, OpenMP, GoogleTest,
# numpy/matplotlib/torch for python/ and the benchmark comparisons).
# Idempotent: packages already present are skipped.
set -euo pipefail

PACKAGES=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 lld-22
  libomp-22-dev ninja-build cmake ccache libgtest-dev
  python3-numpy python3-matplotlib
)
# Comparisons only (mixer-bench): PyTorch CPU, jemalloc for a fair allocator
# and OpenBLAS (Debian's PyTorch calls libblas.so.3, the slow reference BLAS
# unless OpenBLAS provides it).
BENCH_PACKAGES=(python3-torch libjemalloc2 libopenblas0-pthread)

# Sanitizer and libFuzzer runtimes (scripts/test.sh --sanitize, scripts/fuzz.sh).
SANITIZER_PACKAGES=(libclang-rt-22-dev)

want=("${PACKAGES[@]}")
case "${1:-}" in
  --bench) want+=("${BENCH_PACKAGES[@]}") ;;
  --sanitize) want+=("${SANITIZER_PACKAGES[@]}") ;;
esac

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO=sudo
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
