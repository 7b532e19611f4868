#!/usr/bin/env bash
# Packs what scripts/gpu-check.sh runs into one archive, for a GPU machine
# that has the NVIDIA driver and the CUDA toolkit but neither LLVM 22 nor a
# network: the built tools, the programs of the tests that need a device
# (linked here), and every shared library they load that is not the C or
# C++ runtime (libMLIR, libLLVM and their dependencies). There:
#
#   tar -xf mixer-gpu.tar.xz -C DIR && scripts/gpu-check.sh --prebuilt DIR
#
#   scripts/gpu-bundle.sh [OUTPUT]      (default gpu-bundle/mixer-gpu.tar.xz)
#
# BUILD_DIR picks the build directory (default build); it must have been
# configured with the CUDA toolkit (MIXER_ENABLE_CUDA).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=$(realpath "${BUILD_DIR:-build}")
OUTPUT=$(realpath -m "${1:-gpu-bundle/mixer-gpu.tar.xz}")
LLVM_LIB=/usr/lib/llvm-22/lib
CUDA_STUBS=${CUDA_HOME:-/usr/local/cuda}/lib64/stubs

ninja -C "$BUILD_DIR" mixer-bench mixer-compile MixerCudaRuntime \
  MixerCudaRuntimeShared MixerCudaRuntimeTests MixerCAPI MixerReference \
  MixerRuntime >/dev/null

STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
mkdir -p "$STAGE/bin" "$STAGE/lib"
cp "$BUILD_DIR"/bin/{mixer-bench,mixer-compile,MixerCudaRuntimeTests} "$STAGE/bin/"
# The JIT's default libraries (JitOptions::getDefaultSharedLibraries) too,
# each under the name it is loaded by; the loop below adds their sonames.
for lib in "$BUILD_DIR"/lib/libMixerCudaRuntime.so "$BUILD_DIR"/lib/libMixerCAPI.so \
  "$LLVM_LIB"/libomp.so "$LLVM_LIB"/libmlir_c_runner_utils.so; do
  cp -L "$lib" "$STAGE/lib/"
done

# The programs of cuda-object-run.test and capi_cuda.c, linked here.
INPUTS=test/Tools/mixer-compile/Inputs
"$BUILD_DIR/bin/mixer-compile" --target=cuda --chip=sm_90a "$INPUTS/cuda-ops.mlir" \
  -o "$STAGE/ops.o" --header "$STAGE/ops.h"
clang++-22 -std=c++17 -O1 -I"$STAGE" -Iinclude "$INPUTS/cuda_main.cpp" "$STAGE/ops.o" \
  "$BUILD_DIR"/lib/Reference/libMixerReference.a "$BUILD_DIR"/lib/libMixerCudaRuntime.a \
  "$BUILD_DIR"/lib/libMixerRuntime.a -L"$CUDA_STUBS" -lcuda -lpthread -lm \
  -o "$STAGE/bin/cuda-object-run"
clang-22 -O1 -Iinclude test/Integration/GPU/capi_cuda.c -L"$BUILD_DIR/lib" -lMixerCAPI \
  -Wl,-rpath,'$ORIGIN/../lib' -lm -o "$STAGE/bin/capi-cuda"
rm "$STAGE"/ops.{o,h}

# Every shared library the binaries need, but the C and C++ runtimes (the
# GPU machine's own are as new or newer) and the CUDA driver (its own);
# found where they were built, since $ORIGIN now leads into the stage.
SKIP='^(linux-vdso|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread|librt\.so|libstdc\+\+|libgcc_s|libcuda\.so)'
for binary in "$STAGE"/bin/* "$STAGE"/lib/*.so*; do
  { LD_LIBRARY_PATH="$BUILD_DIR/lib:$LLVM_LIB" ldd "$binary" 2>/dev/null || true; } | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}'
done | sort -u | while read -r name path; do
  [[ $name =~ $SKIP || -e "$STAGE/lib/$name" ]] || cp -L "$path" "$STAGE/lib/$name"
done

mkdir -p "$(dirname "$OUTPUT")"
tar -C "$STAGE" -cf - . | xz -T0 -9e > "$OUTPUT"
echo "gpu-bundle: $OUTPUT ($(du -h "$OUTPUT" | cut -f1); $(ls "$STAGE/lib" | wc -l) libraries)"
