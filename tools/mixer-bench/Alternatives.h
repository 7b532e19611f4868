//===- Alternatives.h - the libraries people use, beside mixer --*- C++ -*-===//
//
// The comparison rows of the libraries installed by `scripts/setup.sh
// --bench` into the project's virtual environment (.venv-bench): JAX,
// mamba2-jax, ott-jax, pykeops, geomloss, flash-linear-attention and the
// newest PyTorch. Each family's scripts get the case's inputs and fp64
// reference as .npy files (the same inputs as mixer's row), time the library
// at its fastest CPU setting and report the relative error against that
// reference.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TOOLS_MIXER_BENCH_ALTERNATIVES_H
#define MIXER_TOOLS_MIXER_BENCH_ALTERNATIVES_H

#include "OpBench.h"
#include "Row.h"
#include "TorchCpuSettings.h"

#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace mixer::bench {

/// One script of a family's comparison, run as
///   PYTHON SCRIPT ARGS... --threads N --repeat N --data DIR --case C ...
/// with C = "NAME:K=V,...,FLAG" and DIR/NAME/ holding the case's .npy
/// files. `script` empty: the family's PyTorch script (OpBench::torch())
/// under the newest PyTorch.
struct Alternative {
  std::string script;
  std::vector<std::string> args;
  /// The implementation name of an error row when the script fails.
  std::string impl;
};

/// The alternatives of the op (empty for an op without any).
std::vector<Alternative> alternativesOf(const std::string &op);

struct AlternativeSettings {
  /// The virtual environment's Python, and the source tree.
  std::string python;
  std::string sourceDir;
  int threads = 1;
  int repeat = 10;
  /// Whether the PyTorch scripts ran already under --python, with the
  /// other libraries they measure (the grouped GEMMs' OpenBLAS loop): the
  /// run under the newest PyTorch then adds PyTorch's rows only.
  bool torchScriptsRan = false;
  /// The kernels the newest PyTorch runs: those of the ISA of mixer's code
  /// (--mcpu), as for --python's.
  TorchCpuSettings torchCpu = hostTorchCpuSettings();
};

/// The Python of the bench venv under `sourceDir`, or "" without a venv.
std::string benchVenvPython(const std::string &sourceDir);

/// Writes the inputs and fp64 reference of `c` (prepared with the seed of
/// mixer's rows) under dir/NAME/: argI.npy for every argument of the call
/// in order (outputs zero-filled), referenceI.npy for the expected value of
/// argument I, and manifest.json listing them. Returns an error message, or
/// "" when written.
std::string writeCaseData(const OpBench &family, const Case &c,
                          const std::string &dir);

/// Runs every alternative of the family on `cases` and returns its rows
/// (each with its library and version; an error row with the reason when a
/// script fails without rows). Merges the versions into `versions`.
std::vector<Row> runAlternatives(const OpBench &family,
                                 const std::vector<Case> &cases,
                                 const AlternativeSettings &settings,
                                 llvm::json::Object &versions);

} // namespace mixer::bench

#endif // MIXER_TOOLS_MIXER_BENCH_ALTERNATIVES_H
