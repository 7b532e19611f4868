//===- CpuTarget.cpp - the description of a CPU from its features ---------===//

#include "mixer/Target/CpuTarget.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>

using namespace mlir;
using namespace mlir::mixer;

/// The widest vector ISA among `has`'s features (LLVM names).
static CpuVectorIsa
getVectorIsa(llvm::function_ref<bool(StringRef feature)> has) {
  if (has("avx512f"))
    return CpuVectorIsa::AVX512;
  if (has("avx2") || has("avx"))
    return CpuVectorIsa::AVX2;
  return CpuVectorIsa::SSE;
}

TargetDescription
mlir::mixer::getCpuTargetDescription(const llvm::MCSubtargetInfo &subtarget) {
  return getCpuTargetDescription(getVectorIsa([&](StringRef feature) {
    return subtarget.checkFeatures(("+" + feature).str());
  }));
}

TargetDescription mlir::mixer::getHostCpuTargetDescription() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  return getCpuTargetDescription(getVectorIsa(
      [&](StringRef feature) { return features.lookup(feature); }));
}

FailureOr<TargetDescription>
mlir::mixer::getCpuTargetDescription(StringRef cpu, StringRef features,
                                     std::string &error) {
  std::string cpuName = cpu.str();
  std::string featureString = features.str();
  if (cpu.empty() || cpu == "host") {
    cpuName = llvm::sys::getHostCPUName().str();
    // The host's own features first, so that `features` can change them.
    llvm::SubtargetFeatures all;
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      all.AddFeature(feature.first(), feature.second);
    if (!features.empty())
      all.addFeaturesVector(llvm::SubtargetFeatures(features).getFeatures());
    featureString = all.getString();
  }
  llvm::InitializeNativeTarget();
  llvm::Triple triple(llvm::sys::getProcessTriple());
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return failure();
  // Created without a CPU first: asking an unknown CPU prints a warning.
  std::unique_ptr<llvm::MCSubtargetInfo> generic(
      target->createMCSubtargetInfo(triple, "", ""));
  if (!generic || !generic->isCPUStringValid(cpuName)) {
    error = "unknown CPU '" + cpuName + "' for " + triple.str();
    return failure();
  }
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(triple, cpuName, featureString));
  if (!subtarget) {
    error = "cannot describe CPU '" + cpuName + "' for " + triple.str();
    return failure();
  }
  return getCpuTargetDescription(*subtarget);
}
