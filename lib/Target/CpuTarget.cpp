//===- CpuTarget.cpp - the description of a CPU from its features ---------===//

#include "mixer/Target/CpuTarget.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>
#include <optional>

#include <unistd.h>

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

namespace {
/// The L1 data cache and the L2 cache of one core, in bytes.
struct CoreCaches {
  int64_t l1, l2;
};
} // namespace

/// The caches of one core of the x86 CPUs LLVM names (their vendors'
/// figures), for the CPUs whose caches differ from their vector ISA's
/// defaults or that the project is measured on.
static std::optional<CoreCaches> knownCachesOf(StringRef cpu) {
  constexpr int64_t KiB = 1024;
  return llvm::StringSwitch<std::optional<CoreCaches>>(cpu)
      .Cases({"haswell", "broadwell", "skylake"},
             CoreCaches{32 * KiB, 256 * KiB})
      .Cases({"skylake-avx512", "cascadelake", "cooperlake"},
             CoreCaches{32 * KiB, 1024 * KiB})
      .Cases({"icelake-server", "icelake-client", "tigerlake"},
             CoreCaches{48 * KiB, 1280 * KiB})
      .Cases({"sapphirerapids", "emeraldrapids", "graniterapids"},
             CoreCaches{48 * KiB, 2048 * KiB})
      .Cases({"znver1", "znver2", "znver3"}, CoreCaches{32 * KiB, 512 * KiB})
      .Case("znver4", CoreCaches{32 * KiB, 1024 * KiB})
      .Case("znver5", CoreCaches{48 * KiB, 1024 * KiB})
      .Default(std::nullopt);
}

/// The caches of one core of this machine, as the C library reports them.
static std::optional<CoreCaches> hostCaches() {
#if defined(_SC_LEVEL1_DCACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE)
  long l1 = sysconf(_SC_LEVEL1_DCACHE_SIZE);
  long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (l1 > 0 && l2 > 0)
    return CoreCaches{l1, l2};
#endif
  return std::nullopt;
}

/// The description of the CPU named `cpu` with the vector ISA of `has`:
/// the ISA's registers, and the CPU's own caches where they are known (the
/// table for the CPUs it names, the C library's figures for this machine's
/// CPU when the table lacks it), else the ISA's defaults.
static TargetDescription
describeCpu(StringRef cpu, llvm::function_ref<bool(StringRef feature)> has) {
  TargetDescription target = getCpuTargetDescription(getVectorIsa(has));
  std::optional<CoreCaches> caches = knownCachesOf(cpu);
  if (!caches && cpu == llvm::sys::getHostCPUName())
    caches = hostCaches();
  if (caches) {
    target.l1CacheBytes = caches->l1;
    target.l2CacheBytes = caches->l2;
  }
  return target;
}

TargetDescription
mlir::mixer::getCpuTargetDescription(const llvm::MCSubtargetInfo &subtarget) {
  return describeCpu(subtarget.getCPU(), [&](StringRef feature) {
    return subtarget.checkFeatures(("+" + feature).str());
  });
}

TargetDescription mlir::mixer::getHostCpuTargetDescription() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  return describeCpu(llvm::sys::getHostCPUName(), [&](StringRef feature) {
    return features.lookup(feature);
  });
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
