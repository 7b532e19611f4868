#!/usr/bin/env bash
# Installs the Debian packages mixer needs (LLVM/MLIR 22, OpenMP, GoogleTest,
# numpy/matplotlib/torch for python/ and the benchmark comparisons).
# Idempotent: packages already present are skipped.
#
# --bench also makes .venv-bench/, a virtual environment of the libraries
# mixer-bench compares with (JAX, mamba2-jax, ott-jax, pykeops, geomloss,
# flash-linear-attention, the newest PyTorch), from PyPI at the versions of
# bench/requirements.txt. It is for the comparisons only: the compiler and
# its tests need nothing from it.
set -euo pipefail

PACKAGES=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22 lld-22
  libomp-22-dev ninja-build cmake ccache libgtest-dev
  python3-numpy python3-matplotlib
)
# Comparisons only (mixer-bench): PyTorch CPU, jemalloc for a fair allocator
# and OpenBLAS (Debian's PyTorch calls libblas.so.3, the slow reference BLAS
# unless OpenBLAS provides it).
BENCH_PACKAGES=(python3-torch libjemalloc2 libopenblas0-pthread
  python3-venv g++ curl)

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

# The bench venv. PyTorch's CPU-only wheels come from its own index where
# that is reachable (PyPI's Linux wheel bundles the CUDA libraries).
if [[ "${1:-}" == --bench ]]; then
  cd "$(dirname "$0")/.."
  venv=.venv-bench
  [[ -x $venv/bin/python ]] || /usr/bin/python3 -m venv "$venv"
  "$venv/bin/python" -m pip install -q --upgrade pip
  torch_index=()
  if curl -sf --max-time 10 -o /dev/null https://download.pytorch.org/whl/cpu/torch/; then
    torch_index=(--extra-index-url https://download.pytorch.org/whl/cpu)
  fi
  "$venv/bin/python" -m pip install -q "${torch_index[@]}" \
    -r bench/requirements.txt -c bench/constraints.txt
  echo "setup: $venv ready ($("$venv/bin/python" -c 'import jax, torch; print("jax", jax.__version__, "torch", torch.__version__)'))"
fi
