//===- CodeTarget.h - the CPU mixer-bench compiles for -----------*- C++ -*-===//
//
// The code of every mixer row (and of the calibration's loops) is for one
// CPU: this machine's, or the one --mcpu names, whose code must run here
// (an AVX2 CPU's on an AVX-512 machine, to measure the AVX2 code path). The
// ceilings, the PyTorch kernels and the report follow that CPU.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TOOLS_MIXER_BENCH_CODETARGET_H
#define MIXER_TOOLS_MIXER_BENCH_CODETARGET_H

#include "TorchCpuSettings.h"

#include "mixer/Target/TargetDescription.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace mixer::bench {

struct CodeTarget {
  /// The LLVM CPU name and feature changes (JitOptions, the pipeline's
  /// target-cpu and target-features); both empty: this machine.
  std::string cpu, features;
  /// What this machine lacks of `cpu`, turned off by `features`.
  std::vector<std::string> dropped;
  /// The description the lowerings tile for.
  mlir::mixer::TargetDescription description;
  /// The PyTorch and OpenBLAS kernels of the same vector ISA.
  TorchCpuSettings torch;

  bool isHost() const { return cpu.empty(); }
  /// "avx512", "avx2" or "sse": the vector ISA of the description.
  std::string isa() const;
  /// One line: the CPU the code is for, its vector registers, and that it
  /// runs on this machine.
  std::string summary() const;
  /// The same as entries of the JSON file's machine object.
  void addTo(llvm::json::Object &machine) const;
};

/// The target of this run's cases: this machine's CPU until main sets the
/// one --mcpu names (the families that shape a case for the target, such as
/// packed weights in the micro-kernel's panels, read it).
const CodeTarget &currentCodeTarget();
void setCurrentCodeTarget(const CodeTarget &target);

/// This machine's CPU for an empty `mcpu` or "host"; else the CPU it names
/// (LLVM's names: haswell, znver3, skylake-avx512, ...). Fails when LLVM
/// does not know it or when its code could not run here.
llvm::Expected<CodeTarget> resolveCodeTarget(const std::string &mcpu);

} // namespace mixer::bench

#endif // MIXER_TOOLS_MIXER_BENCH_CODETARGET_H
