#!/usr/bin/env bash
# Packs what scripts/gpu-check.sh runs, for a GPU machine that has the
# NVIDIA driver and the CUDA toolkit but neither LLVM 22 nor a network, into
# two archives in OUTPUT_DIR (default gpu-bundle):
#   mixer.tar.xz      the built tools and libraries, and the programs of the
#                     tests that need a device (linked here);
#   libraries.tar.xz  every other shared library they load but the C and C++
#                     runtimes (libMLIR, libLLVM and their dependencies):
#                     about 55 MB and minutes of xz, so it is packed again
#                     only when those libraries change.
# There:
#
#   for a in OUTPUT_DIR/*.tar.xz; do tar -xJf $a -C DIR; done
#   scripts/gpu-check.sh --prebuilt DIR
#
#   scripts/gpu-bundle.sh [OUTPUT_DIR]
#
# BUILD_DIR picks the build directory (default build); it must have been
# configured with the CUDA toolkit (MIXER_ENABLE_CUDA).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=$(realpath "${BUILD_DIR:-build}")
OUTPUT_DIR=$(realpath -m "${1:-gpu-bundle}")
LLVM_LIB=/usr/lib/llvm-22/lib
CUDA_STUBS=${CUDA_HOME:-/usr/local/cuda}/lib64/stubs

ninja -C "$BUILD_DIR" mixer-bench mixer-compile MixerCudaRuntime \
  MixerCudaRuntimeShared MixerCudaRuntimeTests MixerCAPI MixerReference \
  MixerRuntime >/dev/null

STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
mkdir -p "$STAGE/bin" "$STAGE/lib"
cp "$BUILD_DIR"/bin/{mixer-bench,mixer-compile,MixerCudaRuntimeTests} "$STAGE/bin/"
# The project's libraries and the JIT's default ones
# (JitOptions::getDefaultSharedLibraries), each under the name it is loaded
# by; the loop below adds the sonames the binaries ask for.
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

# The project's files, then the rest, unless it is packed already: the
# manifest lists each library's name and checksum.
mkdir -p "$OUTPUT_DIR"
(cd "$STAGE" && tar -cf - bin lib/libMixer*) | xz -T0 -9e > "$OUTPUT_DIR/mixer.tar.xz"
rm "$STAGE"/lib/libMixer*
(cd "$STAGE/lib" && md5sum *) > "$STAGE/manifest"
if ! cmp -s "$STAGE/manifest" "$OUTPUT_DIR/libraries.manifest" ||
   [[ ! -f $OUTPUT_DIR/libraries.tar.xz ]]; then
  (cd "$STAGE" && tar -cf - lib) | xz -T0 -9e > "$OUTPUT_DIR/libraries.tar.xz"
  cp "$STAGE/manifest" "$OUTPUT_DIR/libraries.manifest"
fi
echo "gpu-bundle: $OUTPUT_DIR: $(cd "$OUTPUT_DIR" && du -h *.tar.xz | tr '\t\n' ' ')"
