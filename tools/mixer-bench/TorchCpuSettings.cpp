//===- TorchCpuSettings.cpp - PyTorch and OpenBLAS settings for a CPU -----===//

#include "TorchCpuSettings.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"

using namespace mixer::bench;

TorchCpuSettings mixer::bench::chooseTorchCpuSettings(
    llvm::function_ref<bool(llvm::StringRef feature)> has) {
  TorchCpuSettings settings;
  bool avx512 =
      has("avx512f") && has("avx512bw") && has("avx512vl") && has("avx512dq");
  bool avx2 = has("avx2") && has("fma");
  if (avx512) {
    settings.atenCapability = "avx512";
    // SkylakeX kernels run on every AVX-512 CPU with BW, VL and DQ (Zen 4
    // and 5, Ice Lake, Sapphire Rapids); the newer core types need
    // versions of OpenBLAS that older installations lack.
    settings.openblasCoreType = "SkylakeX";
    settings.mklInstructions = "AVX512";
  } else if (avx2) {
    settings.atenCapability = "avx2";
    settings.openblasCoreType = "Haswell";
    settings.mklInstructions = "AVX2";
  } else {
    settings.atenCapability = "default";
    if (has("avx")) {
      settings.openblasCoreType = "Sandybridge";
      settings.mklInstructions = "AVX";
    }
  }
  return settings;
}

TorchCpuSettings mixer::bench::hostTorchCpuSettings() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  return chooseTorchCpuSettings(
      [&](llvm::StringRef feature) { return features.lookup(feature); });
}
