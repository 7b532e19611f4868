//===- CodeTarget.cpp - the CPU mixer-bench compiles for ------------------===//

#include "CodeTarget.h"

#include "mixer/Target/CpuTarget.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/TargetParser/Host.h"

using namespace mixer::bench;
namespace mc = ::mlir::mixer;

std::string CodeTarget::isa() const {
  return description.vectorWidth >= 16  ? "avx512"
         : description.vectorWidth >= 8 ? "avx2"
                                        : "sse";
}

std::string CodeTarget::summary() const {
  std::string hostName = llvm::sys::getHostCPUName().str();
  std::string out =
      "code for " +
      (isHost() ? "this machine's CPU (" + hostName + ")" : "CPU " + cpu) +
      ": " + isa() + ", " + std::to_string(description.vectorRegisters) +
      " registers of " + std::to_string(description.vectorWidth) +
      " f32 lanes, " + std::to_string(description.l1CacheBytes / 1024) +
      " KiB L1d and " + std::to_string(description.l2CacheBytes / 1024) +
      " KiB L2 per core";
  if (!dropped.empty())
    out += ", without " + llvm::join(dropped, ", ") +
           " (this machine lacks them; the ops' code never uses them)";
  if (!isHost())
    out += "; run on this machine (" + hostName + ")";
  return out;
}

void CodeTarget::addTo(llvm::json::Object &machine) const {
  machine["host_cpu_name"] = llvm::sys::getHostCPUName().str();
  machine["target_cpu"] = isHost() ? "host" : cpu;
  machine["target_features"] = features;
  machine["target_isa"] = isa();
  machine["target_vector_width"] = description.vectorWidth;
  machine["target_vector_registers"] = description.vectorRegisters;
  machine["target_l1_cache_bytes"] = description.l1CacheBytes;
  machine["target_l2_cache_bytes"] = description.l2CacheBytes;
  machine["aten_cpu_capability"] = torch.atenCapability;
  machine["openblas_coretype"] = torch.openblasCoreType;
  machine["mkl_enable_instructions"] = torch.mklInstructions;
}

static CodeTarget &current() {
  static CodeTarget target = [] {
    llvm::Expected<CodeTarget> host = resolveCodeTarget("");
    if (host)
      return *host;
    llvm::consumeError(host.takeError());
    return CodeTarget{};
  }();
  return target;
}

const CodeTarget &mixer::bench::currentCodeTarget() { return current(); }

void mixer::bench::setCurrentCodeTarget(const CodeTarget &target) {
  current() = target;
}

llvm::Expected<CodeTarget> mixer::bench::resolveCodeTarget(
    const std::string &mcpu) {
  CodeTarget target;
  std::string error;
  if (!mcpu.empty() && mcpu != "host") {
    mlir::FailureOr<mc::CpuForThisMachine> cpu =
        mc::getCpuForThisMachine(mcpu, error);
    if (mlir::failed(cpu))
      return llvm::createStringError(error);
    target.cpu = cpu->cpu;
    target.features = cpu->features;
    target.dropped.assign(cpu->dropped.begin(), cpu->dropped.end());
  }
  mlir::FailureOr<mc::TargetDescription> description =
      mc::getCpuTargetDescription(target.cpu, target.features, error);
  mlir::FailureOr<llvm::StringMap<bool>> features =
      mc::getCpuFeatures(target.cpu, target.features, error);
  if (mlir::failed(description) || mlir::failed(features))
    return llvm::createStringError(error);
  target.description = *description;
  target.torch = chooseTorchCpuSettings(
      [&](llvm::StringRef feature) { return features->lookup(feature); });
  return target;
}
