//===- CudaRuntimeLibrary.h - libMixerCudaRuntime.so, loaded on demand ----===//
//
// The C API and mixer-bench run GPU code through the JIT, which resolves the
// mgpu* functions from libMixerCudaRuntime.so. That library needs the NVIDIA
// driver (libcuda.so.1) to load, so these tools do not link it: they load it
// here when they first run GPU code, and where it or a device is missing
// they get an error that says which.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_EXECUTION_CUDARUNTIMELIBRARY_H
#define MIXER_EXECUTION_CUDARUNTIMELIBRARY_H

#include "mixer/Runtime/CudaRuntime.h"

#include "llvm/Support/Error.h"

#include <string>

namespace mlir::mixer {

/// The functions of the runtime library that the tools call themselves.
struct CudaRuntimeLibrary {
  /// The path it was loaded from, for JitOptions::sharedLibPaths.
  std::string path;
  const char *(*getFailure)();
  void (*clearFailure)();
  int (*getDeviceInfo)(MixerCudaDeviceInfo *);
  void *(*memAlloc)(uint64_t, void *, bool);
  void (*memFree)(void *, void *);
  void (*memcpy)(void *, void *, size_t, void *);
  void *(*eventCreateTimed)();
  void (*eventRecord)(void *, void *);
  float (*eventElapsedMs)(void *, void *);
  void (*eventDestroy)(void *);
  void (*synchronize)();

  /// Loads the library once per process (MIXER_CUDA_RUNTIME_LIBRARY in the
  /// environment replaces the path found at build time) and checks that
  /// the default device can run kernels. The error says what is missing:
  /// a build without CUDA, the NVIDIA driver, or a device.
  static llvm::Expected<const CudaRuntimeLibrary &> get();
};

} // namespace mlir::mixer

#endif // MIXER_EXECUTION_CUDARUNTIMELIBRARY_H
