//===- TimingBudget.h - when a GPU case stops timing ---------- -*- C++ -*-===//
//
// A slow kernel (kernel_mv at N = 1M takes seconds a call) would hold up
// the GPU suites for --repeat calls; its timing stops once --max-case-seconds
// of measured time have passed, after at least one timed call, and the row
// says how many were timed.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TOOLS_MIXER_BENCH_TIMINGBUDGET_H
#define MIXER_TOOLS_MIXER_BENCH_TIMINGBUDGET_H

#include <cstddef>
#include <cstdio>
#include <string>

namespace mixer::bench {

/// Whether to take another timed call after `timed` of them took
/// `measuredSeconds` together.
inline bool takeAnotherTimedCall(size_t timed, int repeat,
                                 double measuredSeconds, double maxSeconds) {
  if (timed >= size_t(repeat))
    return false;
  return timed == 0 || measuredSeconds < maxSeconds;
}

/// What a row's reason says when fewer than `repeat` calls were timed;
/// empty when all were.
inline std::string timedCallsNote(size_t timed, int repeat, double maxSeconds) {
  if (timed >= size_t(repeat))
    return "";
  char text[128];
  std::snprintf(text, sizeof(text),
                "timed %zu of %d calls (--max-case-seconds %g reached)", timed,
                repeat, maxSeconds);
  return text;
}

} // namespace mixer::bench

#endif // MIXER_TOOLS_MIXER_BENCH_TIMINGBUDGET_H
