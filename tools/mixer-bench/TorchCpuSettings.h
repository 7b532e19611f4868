//===- TorchCpuSettings.h - PyTorch and OpenBLAS settings for a CPU -*- C++ -*-===//
//
// The environment PyTorch runs in for the comparison rows: the ATen kernel
// set and the OpenBLAS core type, chosen from the CPU's features so that
// neither runs instructions the CPU lacks (AVX-512 kernels on an AVX2-only
// CPU end in SIGILL).
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TOOLS_MIXER_BENCH_TORCHCPUSETTINGS_H
#define MIXER_TOOLS_MIXER_BENCH_TORCHCPUSETTINGS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mixer::bench {

struct TorchCpuSettings {
  /// ATEN_CPU_CAPABILITY: "avx512", "avx2" or "default".
  std::string atenCapability;
  /// OPENBLAS_CORETYPE ("SkylakeX", "Haswell", "Sandybridge"), empty where
  /// OpenBLAS is left to detect the CPU itself.
  std::string openblasCoreType;
  /// MKL_ENABLE_INSTRUCTIONS ("AVX512", "AVX2", "AVX"): the widest ISA
  /// MKL's kernels (the BLAS of PyTorch's wheels) may use; left alone, MKL
  /// picks the machine's widest even when mixer's code is for a narrower
  /// one.
  std::string mklInstructions;
};

/// The settings for a CPU with the features `has` says it has (LLVM's
/// names: "avx512f", "avx512bw", "avx2", "fma", ...). ATen's avx512 kernels
/// need AVX-512 F, BW, VL and DQ; its avx2 kernels AVX2 and FMA.
TorchCpuSettings chooseTorchCpuSettings(
    llvm::function_ref<bool(llvm::StringRef feature)> has);

/// The settings for this machine (its features as LLVM detects them, which
/// includes whether the OS saves the AVX-512 registers).
TorchCpuSettings hostTorchCpuSettings();

} // namespace mixer::bench

#endif // MIXER_TOOLS_MIXER_BENCH_TORCHCPUSETTINGS_H
