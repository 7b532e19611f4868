//===- Steadiness.h - whether a run's machine stayed steady ---*- C++ -*-===//
//
// A shared machine slows down for minutes at a time: the FMA peak measured
// before a run's cases and the one measured after them then differ, and so
// do times measured minutes apart. The run says so in words, so that its
// times are not read as steady ones (--ab pairs stay comparable: their two
// builds meet the same moments).
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TOOLS_MIXER_BENCH_STEADINESS_H
#define MIXER_TOOLS_MIXER_BENCH_STEADINESS_H

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace mixer::bench {

/// The drift past which a run's times are called unsteady: more than the
/// 1-2% two calibrations of a quiet machine differ by.
constexpr double kUnsteadyDrift = 0.10;

/// How far apart two measurements of one ceiling are, as a fraction of the
/// higher; 0 when either is missing (not positive).
inline double ceilingDrift(double before, double after) {
  if (!(before > 0) || !(after > 0))
    return 0;
  return std::fabs(before - after) / std::max(before, after);
}

/// What the run prints when its FMA peak drifted past kUnsteadyDrift
/// between the calibrations before and after the cases; empty otherwise.
inline std::string unsteadyMachineNote(double beforeGflops,
                                       double afterGflops) {
  double drift = ceilingDrift(beforeGflops, afterGflops);
  if (drift <= kUnsteadyDrift)
    return "";
  char text[320];
  std::snprintf(text, sizeof(text),
                "unsteady machine: the FMA peak %s %.0f%% between the "
                "calibrations before and after the cases (%.1f, then %.1f "
                "GFLOP/s); times measured minutes apart are not comparable "
                "(compare builds with --ab)",
                afterGflops < beforeGflops ? "fell" : "rose", 100 * drift,
                beforeGflops, afterGflops);
  return text;
}

} // namespace mixer::bench

#endif // MIXER_TOOLS_MIXER_BENCH_STEADINESS_H
