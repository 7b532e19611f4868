//===- Runner.h - compile, check and time one case --------------*- C++ -*-===//

#ifndef MIXER_TOOLS_MIXER_BENCH_RUNNER_H
#define MIXER_TOOLS_MIXER_BENCH_RUNNER_H

#include "OpBench.h"
#include "Row.h"

namespace mixer::bench {

/// A case of a family through one of mixer's pipelines.
struct Job {
  const OpBench *family;
  Case c;
  /// "mixer" (the optimized CPU pipeline) or "mixer-naive".
  std::string impl;
};

struct RunSettings {
  int threads = 0; ///< 0: the pipeline's default
  int repeat = 10;
  double naiveMaxWork = 7.0e7;
  /// Compile with the run-time checks of the pipeline (its default).
  bool runtimeChecks = true;
  /// The calibration (0: not measured); the denominators of peak_fraction.
  double fmaPeakGflops = 0, triadGbps = 0;
};

/// Compiles the case's module (timed apart), runs it on the family's inputs,
/// checks it against the reference, then times `repeat` warm calls that
/// reuse their buffers. Never aborts on a failure: the row says what failed.
Row runJob(const Job &job, const RunSettings &settings);

/// runJob in a forked child that sends its row back through a pipe; the
/// row's peak memory is the child's, and a crash becomes an error row.
Row runJobIsolated(const Job &job, const RunSettings &settings);

/// Sets peak_fraction from gflops (or gbps) and the calibration.
void setPeakFraction(Row &row, const RunSettings &settings);

} // namespace mixer::bench

#endif // MIXER_TOOLS_MIXER_BENCH_RUNNER_H
