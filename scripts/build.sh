#!/usr/bin/env bash
# Configures (once) and builds mixer in ./build with clang-22, ninja and ccache.
# BUILD_DIR picks another build directory; MIXER_CMAKE_ARGS adds CMake
# options at configure time (scripts/test.sh --sanitize, scripts/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
# Paths relative to the checkout in ccache keys: clones share the cache.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
BUILD_DIR=${BUILD_DIR:-build}
if [[ ! -f "$BUILD_DIR/build.ninja" ]]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DCMAKE_C_COMPILER=/usr/lib/llvm-22/bin/clang \
    -DCMAKE_CXX_COMPILER=/usr/lib/llvm-22/bin/clang++ \
    -DLLVM_USE_LINKER=lld \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    ${MIXER_CMAKE_ARGS:-}
fi
ninja -C "$BUILD_DIR" "$@"
