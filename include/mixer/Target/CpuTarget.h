//===- CpuTarget.h - the description of a CPU from its features -*- C++ -*-===//
//
// The vector registers of x86 CPUs decide the register tiles: 32 registers
// of 16 f32 lanes with AVX-512, 16 of 8 with AVX2. The features come from
// LLVM: the host's for the JIT, the TargetMachine's for mixer-compile, or a
// CPU name and feature string (mixer-set-target).
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TARGET_CPUTARGET_H
#define MIXER_TARGET_CPUTARGET_H

#include "mixer/Target/TargetDescription.h"

#include <string>

namespace llvm {
class MCSubtargetInfo;
} // namespace llvm

namespace mlir::mixer {

/// The description of a CPU with the features of `subtarget` (a
/// TargetMachine's).
TargetDescription
getCpuTargetDescription(const llvm::MCSubtargetInfo &subtarget);

/// The description of this machine's CPU (llvm::sys::getHostCPUFeatures).
TargetDescription getHostCpuTargetDescription();

/// The description of the CPU named `cpu` ("host" or empty: this machine's)
/// with the LLVM feature string `features` ("+avx2,-avx512f") applied, for
/// the native LLVM target. Fails with a message in `error` when LLVM does not
/// know the CPU.
FailureOr<TargetDescription>
getCpuTargetDescription(StringRef cpu, StringRef features, std::string &error);

} // namespace mlir::mixer

#endif // MIXER_TARGET_CPUTARGET_H
