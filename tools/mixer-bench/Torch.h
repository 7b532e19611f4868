//===- Torch.h - the PyTorch baseline rows of a family ----------*- C++ -*-===//

#ifndef MIXER_TOOLS_MIXER_BENCH_TORCH_H
#define MIXER_TOOLS_MIXER_BENCH_TORCH_H

#include "OpBench.h"
#include "Row.h"
#include "TorchCpuSettings.h"

#include <string>
#include <vector>

namespace mixer::bench {

struct TorchSettings {
  /// The Python that imports torch, and the source tree its scripts are in.
  std::string python = "/usr/bin/python3";
  std::string sourceDir;
  /// Replaces the family's script when set (--torch-script).
  std::string scriptOverride;
  int threads = 1;
  int repeat = 10;
  /// The kernels ATen and OpenBLAS run: this machine's widest by default,
  /// those of the CPU mixer's code is for with --mcpu.
  TorchCpuSettings cpu = hostTorchCpuSettings();
  /// PyTorch's rows only (the script's --torch-only): a second run, under
  /// another PyTorch, need not repeat the other libraries' rows.
  bool torchOnly = false;
};

/// Whether settings.python can import torch.
bool torchAvailable(const TorchSettings &settings);

/// Runs the family's baseline script on `cases` (with jemalloc, OpenBLAS
/// and ATen told which kernels to run) and returns its rows; merges its version
/// line into `versions`. An error row when the script fails without rows.
/// With `fwdBwd`, the script's --mode fwd+bwd: forward and backward under
/// autograd.
std::vector<Row> runTorch(const OpBench &family, const std::vector<Case> &cases,
                          const TorchSettings &settings,
                          llvm::json::Object &versions, bool fwdBwd = false);

} // namespace mixer::bench

#endif // MIXER_TOOLS_MIXER_BENCH_TORCH_H
