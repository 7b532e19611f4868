//===- Torch.cpp - the PyTorch baseline rows of a family ------------------===//

#include "Torch.h"
#include "ScriptOutput.h"
#include "TorchCpuSettings.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/wait.h>

using namespace mixer::bench;
namespace json = llvm::json;

bool mixer::bench::torchAvailable(const TorchSettings &settings) {
  std::string cmd = settings.python + " -c 'import torch' >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

std::vector<Row> mixer::bench::runTorch(const OpBench &family,
                                        const std::vector<Case> &cases,
                                        const TorchSettings &settings,
                                        json::Object &versions,
                                        bool fwdBwd) {
  std::vector<Row> rows;
  TorchBaseline baseline = family.torch();
  if (cases.empty() ||
      (baseline.script.empty() && settings.scriptOverride.empty()))
    return rows;
  std::string script = !settings.scriptOverride.empty()
                           ? settings.scriptOverride
                           : settings.sourceDir + "/" + baseline.script;
  std::string cmd = "env";
  const char *jemalloc = "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2";
  // jemalloc keeps the pages it frees (first touches are expensive here,
  // and mixer's rows reuse their buffers).
  if (llvm::sys::fs::exists(jemalloc))
    cmd += std::string(" LD_PRELOAD=") + jemalloc +
           " MALLOC_CONF=dirty_decay_ms:-1,muzzy_decay_ms:-1";
  // Kernels this CPU can run (AVX-512 ones would SIGILL on AVX2 only), of
  // the vector ISA of mixer's code.
  const TorchCpuSettings &cpu = settings.cpu;
  if (!cpu.openblasCoreType.empty())
    cmd += " OPENBLAS_CORETYPE=" + cpu.openblasCoreType;
  if (!cpu.mklInstructions.empty())
    cmd += " MKL_ENABLE_INSTRUCTIONS=" + cpu.mklInstructions;
  cmd += " ATEN_CPU_CAPABILITY=" + cpu.atenCapability +
         " OPENBLAS_NUM_THREADS=" +
         std::to_string(baseline.blasThreads ? settings.threads : 1) +
         " OMP_NUM_THREADS=" + std::to_string(settings.threads) + " " +
         settings.python + " " + script;
  for (const std::string &arg : baseline.args)
    cmd += " " + arg;
  cmd += " --threads " + std::to_string(settings.threads) + " --repeat " +
         std::to_string(std::max(1, settings.repeat));
  if (fwdBwd)
    cmd += " --mode fwd+bwd";
  if (settings.torchOnly)
    cmd += " --torch-only";
  for (const Case &c : cases)
    cmd += " --case " + family.torchCase(c);

  std::string output;
  int status = runCommand(cmd, output);
  if (status == -1)
    return rows;
  rows = parseScriptOutput(output, versions);
  if (status != 0 && rows.empty()) {
    Row row;
    row.op = family.op();
    row.name = cases.size() == 1 ? cases[0].name : "*";
    row.impl = baseline.impl + (fwdBwd ? "-fwd+bwd" : "");
    row.status = "error";
    row.reason =
        "the PyTorch script failed (" + describeWaitStatus(status) + ")";
    rows.push_back(row);
  }
  return rows;
}
