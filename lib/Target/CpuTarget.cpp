//===- CpuTarget.cpp - the description of a CPU from its features ---------===//

#include "mixer/Target/CpuTarget.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
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

/// The subtarget of the CPU named `cpu` ("host" or empty: this machine's,
/// with its own features) with `features` applied, for the native target.
static std::unique_ptr<llvm::MCSubtargetInfo>
createSubtarget(StringRef cpu, StringRef features, std::string &error) {
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
    return nullptr;
  // Created without a CPU first: asking an unknown CPU prints a warning.
  std::unique_ptr<llvm::MCSubtargetInfo> generic(
      target->createMCSubtargetInfo(triple, "", ""));
  if (!generic || !generic->isCPUStringValid(cpuName)) {
    error = "unknown CPU '" + cpuName + "' for " + triple.str();
    return nullptr;
  }
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(triple, cpuName, featureString));
  if (!subtarget)
    error = "cannot describe CPU '" + cpuName + "' for " + triple.str();
  return subtarget;
}

FailureOr<TargetDescription>
mlir::mixer::getCpuTargetDescription(StringRef cpu, StringRef features,
                                     std::string &error) {
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget =
      createSubtarget(cpu, features, error);
  if (!subtarget)
    return failure();
  return getCpuTargetDescription(*subtarget);
}

FailureOr<llvm::StringMap<bool>>
mlir::mixer::getCpuFeatures(StringRef cpu, StringRef features,
                            std::string &error) {
  if ((cpu.empty() || cpu == "host") && features.empty())
    return llvm::sys::getHostCPUFeatures();
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget =
      createSubtarget(cpu, features, error);
  if (!subtarget)
    return failure();
  llvm::StringMap<bool> all;
  for (const llvm::SubtargetFeatureKV &feature :
       subtarget->getAllProcessorFeatures())
    all[feature.Key] = subtarget->checkFeatures(
        (llvm::Twine("+") + feature.Key).str());
  return all;
}

FailureOr<SmallVector<std::string>>
mlir::mixer::getFeaturesMissingHere(StringRef cpu, StringRef features,
                                    std::string &error) {
  FailureOr<llvm::StringMap<bool>> wanted =
      getCpuFeatures(cpu, features, error);
  if (failed(wanted))
    return failure();
  // The host map names every instruction set LLVM can detect, present or
  // not; tunings (fast-*, slow-*) are not in it and need nothing.
  llvm::StringMap<bool> host = llvm::sys::getHostCPUFeatures();
  SmallVector<std::string> missing;
  for (const auto &feature : *wanted) {
    auto it = host.find(feature.first());
    if (feature.second && it != host.end() && !it->second)
      missing.push_back(feature.first().str());
  }
  llvm::sort(missing);
  return missing;
}

/// Instruction sets that the code of mixer's ops never contains: system
/// instructions only their intrinsics produce, and SSE4a, whose EXTRQ and
/// INSERTQ LLVM picks only for some shuffles of i8 and i16 vectors.
static bool isOutsideOpCode(StringRef feature) {
  return llvm::is_contained({"clzero", "mwaitx", "rdpru", "wbnoinvd", "pku",
                             "shstk", "sse4a", "lwp", "invpcid", "rdpid",
                             "sgx", "waitpkg", "ptwrite", "uintr"},
                            feature);
}

FailureOr<CpuForThisMachine>
mlir::mixer::getCpuForThisMachine(StringRef cpu, std::string &error) {
  FailureOr<SmallVector<std::string>> missing =
      getFeaturesMissingHere(cpu, "", error);
  if (failed(missing))
    return failure();
  SmallVector<std::string> needed;
  for (const std::string &feature : *missing)
    if (!isOutsideOpCode(feature))
      needed.push_back(feature);
  if (!needed.empty()) {
    error = "code for CPU '" + cpu.str() + "' needs " +
            llvm::join(needed, ", ") + ", which this machine (" +
            llvm::sys::getHostCPUName().str() + ") lacks";
    return failure();
  }
  CpuForThisMachine out;
  out.cpu = cpu.str();
  out.dropped = std::move(*missing);
  for (const std::string &feature : out.dropped)
    out.features += (out.features.empty() ? "-" : ",-") + feature;
  return out;
}
