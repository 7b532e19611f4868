//===- Row.h - one result row of mixer-bench and its JSON form --*- C++ -*-===//

#ifndef MIXER_TOOLS_MIXER_BENCH_ROW_H
#define MIXER_TOOLS_MIXER_BENCH_ROW_H

#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace mixer::bench {

/// One case through one implementation (mixer, mixer-naive, torch-...).
struct Row {
  std::string op, name, impl, shapes;
  std::optional<double> medianMs, q1Ms, q3Ms, compileS, gflops, gbps,
      peakFraction, relError, peakRssMb;
  /// fwd+bwd rows only: the forward alone and the backward alone (median
  /// ms), the growth of the RSS during the timed calls (MB), and what
  /// rel_error (there the largest gradient error) was measured against.
  std::optional<double> fwdMs, bwdMs, workRssMb;
  std::string gradCheck;
  /// ok, inaccurate, skipped or error; `reason` says why when not ok.
  std::string status = "ok", reason;
  /// The peak peak_fraction is a fraction of, where it is not the CPU
  /// calibration's: "tf32-tensor", "fp32" or "memory" (GPU rows).
  std::string peak;
  /// Comparison rows of another library: its name and version.
  std::string library, version;
  /// mixer-bench --rounds: the median time (ms) of each round of the row's
  /// case, in the order run; the row is that of their median round.
  std::vector<double> roundMediansMs;
  /// mixer-bench --ab: the second build's pipeline options, its median
  /// time and error, and the median over the pairs of calls (one of each
  /// build, in turn) of the first's time over the second's: > 1 when the
  /// second build is faster.
  std::string abOptions;
  std::optional<double> abMedianMs, abRelError, abRatio;
};

/// Why a child process ended, from its wait status: "exit status 2",
/// "killed by SIGILL (illegal instruction)". An exit status above 128 is
/// taken as a shell's report of a command killed by signal status - 128
/// (popen runs the command through sh).
std::string describeWaitStatus(int status);

/// The row as a JSON object (`gbps` only where it is set, the fwd+bwd
/// fields only in fwd+bwd rows: other rows keep the fields they always had). A non-finite rel_error is "inf".
llvm::json::Object toJson(const Row &row);
/// The inverse of toJson, also for the rows of the PyTorch scripts.
Row fromJson(const llvm::json::Object &o);

} // namespace mixer::bench

#endif // MIXER_TOOLS_MIXER_BENCH_ROW_H
