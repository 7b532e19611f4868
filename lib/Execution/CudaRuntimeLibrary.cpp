//===- CudaRuntimeLibrary.cpp - libMixerCudaRuntime.so, loaded on demand --===//

#include "mixer/Execution/CudaRuntimeLibrary.h"

#include "llvm/Support/FileSystem.h"

#include <cstdlib>
#include <dlfcn.h>

using namespace mlir::mixer;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Loads the library and its functions, or says why not.
static llvm::Error load(CudaRuntimeLibrary &lib) {
#ifndef MIXER_CUDA_RUNTIME_LIBRARY
  (void)lib;
  return makeError("mixer was built without the CUDA toolkit "
                   "(MIXER_ENABLE_CUDA=OFF): it cannot run GPU code");
#else
  const char *override = std::getenv("MIXER_CUDA_RUNTIME_LIBRARY");
  lib.path = override && *override ? override : MIXER_CUDA_RUNTIME_LIBRARY;
  if (!llvm::sys::fs::exists(lib.path))
    return makeError("the CUDA runtime library '" + lib.path +
                     "' does not exist");
  // RTLD_GLOBAL: the JIT resolves the mgpu* functions of the compiled code
  // from the same copy, whose failure record these functions read.
  void *handle = dlopen(lib.path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!handle) {
    const char *why = dlerror();
    return makeError("no CUDA device: cannot load the CUDA runtime library "
                     "(is the NVIDIA driver, libcuda.so.1, installed?): " +
                     llvm::Twine(why ? why : "unknown reason"));
  }
  bool complete = true;
  auto bind = [&](auto &function, const char *name) {
    function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(
        dlsym(handle, name));
    complete &= function != nullptr;
  };
  bind(lib.getFailure, "mixerCudaGetFailure");
  bind(lib.clearFailure, "mixerCudaClearFailure");
  bind(lib.getDeviceInfo, "mixerCudaGetDeviceInfo");
  bind(lib.memAlloc, "mgpuMemAlloc");
  bind(lib.memFree, "mgpuMemFree");
  bind(lib.memcpy, "mgpuMemcpy");
  bind(lib.eventCreateTimed, "mixerCudaEventCreateTimed");
  bind(lib.eventRecord, "mgpuEventRecord");
  bind(lib.eventElapsedMs, "mixerCudaEventElapsedMs");
  bind(lib.eventDestroy, "mgpuEventDestroy");
  bind(lib.synchronize, "mixerCudaSynchronize");
  const char *(*getDeviceError)() = nullptr;
  bind(getDeviceError, "mixerCudaGetDeviceError");
  if (!complete)
    return makeError("'" + lib.path +
                     "' lacks functions of the CUDA runtime library");
  if (const char *error = getDeviceError())
    return makeError("no CUDA device: " + llvm::Twine(error));
  return llvm::Error::success();
#endif
}

llvm::Expected<const CudaRuntimeLibrary &> CudaRuntimeLibrary::get() {
  // Loaded once; the outcome (library or message) is kept for every caller.
  static CudaRuntimeLibrary lib;
  static const std::string failure = [] {
    std::string message;
    if (llvm::Error error = load(lib))
      message = llvm::toString(std::move(error));
    return message;
  }();
  if (!failure.empty())
    return makeError(failure);
  return lib;
}
