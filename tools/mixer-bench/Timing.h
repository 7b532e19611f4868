//===- Timing.h - wall time on the steady clock -----------------*- C++ -*-===//

#ifndef MIXER_TOOLS_MIXER_BENCH_TIMING_H
#define MIXER_TOOLS_MIXER_BENCH_TIMING_H

#include <chrono>

namespace mixer::bench {

using Clock = std::chrono::steady_clock;

/// Seconds of the steady clock since `start`.
inline double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

} // namespace mixer::bench

#endif // MIXER_TOOLS_MIXER_BENCH_TIMING_H
