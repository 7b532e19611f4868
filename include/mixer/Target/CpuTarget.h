//===- CpuTarget.h - the description of a CPU from its features -*- C++ -*-===//
//
// The vector registers of x86 CPUs decide the register tiles: 32 registers
// of 16 f32 lanes with AVX-512, 16 of 8 with AVX2. Their caches per core
// (a table of the CPUs LLVM names; this machine's from the C library when
// the table lacks it) decide the cache blocks. The features come from
// LLVM: the host's for the JIT, the TargetMachine's for mixer-compile, or a
// CPU name and feature string (mixer-set-target).
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TARGET_CPUTARGET_H
#define MIXER_TARGET_CPUTARGET_H

#include "mixer/Target/TargetDescription.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

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

/// The LLVM features (instruction sets and tunings, by LLVM's names) of the
/// CPU named `cpu` with `features` applied; for "host" or empty, this
/// machine's instruction sets (llvm::sys::getHostCPUFeatures). Fails with a
/// message in `error` when LLVM does not know the CPU.
FailureOr<llvm::StringMap<bool>>
getCpuFeatures(StringRef cpu, StringRef features, std::string &error);

/// The instruction sets of the CPU named `cpu` with `features` applied that
/// this machine lacks (its code could die here of SIGILL), sorted.
FailureOr<llvm::SmallVector<std::string>>
getFeaturesMissingHere(StringRef cpu, StringRef features, std::string &error);

/// A CPU to compile for whose code runs on this machine.
struct CpuForThisMachine {
  /// The LLVM name of the CPU, as given.
  std::string cpu;
  /// The LLVM feature string that turns off what this machine lacks of it
  /// ("-clzero,-sse4a"); empty when it lacks nothing.
  std::string features;
  /// Those features, without the '-'.
  llvm::SmallVector<std::string> dropped;
};

/// Code for the CPU named `cpu` that runs here: the CPU with the features
/// this machine lacks turned off, provided none of them changes the code of
/// mixer's ops (system instructions that only their intrinsics produce, such
/// as AMD's clzero, mwaitx and rdpru, protection keys, shadow stacks; and
/// SSE4a, whose EXTRQ/INSERTQ LLVM picks only for some i8 and i16
/// shuffles). Fails naming the CPU and the missing instruction sets
/// otherwise (an AVX-512 CPU on an AVX2 machine), or when LLVM does not
/// know the CPU.
FailureOr<CpuForThisMachine> getCpuForThisMachine(StringRef cpu,
                                                  std::string &error);

} // namespace mlir::mixer

#endif // MIXER_TARGET_CPUTARGET_H
