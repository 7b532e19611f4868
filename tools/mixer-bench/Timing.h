//===- Timing.h - wall time, and calls timed in turn ------------*- C++ -*-===//

#ifndef MIXER_TOOLS_MIXER_BENCH_TIMING_H
#define MIXER_TOOLS_MIXER_BENCH_TIMING_H

#include "llvm/Support/Error.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

namespace mixer::bench {

using Clock = std::chrono::steady_clock;

/// Seconds of the steady clock since `start`.
inline double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// The times (ms) of a row's timed calls and, with --ab, of its second
/// build's, called in turn with them so that both meet the same moments of
/// a noisy machine.
struct TimesInTurn {
  std::vector<double> first, second;
  /// first / second of each pair.
  std::vector<double> ratios;
};

/// A timed call: its ms, or the error that stopped it.
using TimedCall = std::function<llvm::Expected<double>()>;

/// `repeat` calls of `first` (at least one), each followed by one of
/// `second` when it is given; stops at the first error, its message after
/// "call failed: " or, from `second`, "--ab call failed: ".
inline llvm::Expected<TimesInTurn>
timeInTurn(int repeat, const TimedCall &first, const TimedCall &second) {
  auto failed = [](const char *which, llvm::Error err) {
    return llvm::createStringError(which + llvm::toString(std::move(err)));
  };
  TimesInTurn times;
  for (int i = 0; i < std::max(1, repeat); ++i) {
    llvm::Expected<double> ms = first();
    if (!ms)
      return failed("call failed: ", ms.takeError());
    times.first.push_back(*ms);
    if (!second)
      continue;
    llvm::Expected<double> other = second();
    if (!other)
      return failed("--ab call failed: ", other.takeError());
    times.second.push_back(*other);
    times.ratios.push_back(*ms / *other);
  }
  return times;
}

} // namespace mixer::bench

#endif // MIXER_TOOLS_MIXER_BENCH_TIMING_H
