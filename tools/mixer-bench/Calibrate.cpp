//===- Calibrate.cpp - this machine's FMA peak and memory bandwidth -------===//
//
// Plain C++ (no MLIR): an fp32 FMA loop with many independent accumulators
// and the STREAM triad, each on a given number of std::threads. The
// benchmark divides by these numbers to report fractions of the machine.
//
//===----------------------------------------------------------------------===//

#include "Calibrate.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

using namespace mixer::bench;

namespace {
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// 24 independent accumulators hide the FMA latency (4 cycles) on two FMA
/// ports with room to spare. Returns a value depending on every result so
/// that nothing is optimized away.
#define MIXER_FMA_LOOP(NAME, TARGET, LANES)                                    \
  __attribute__((target(TARGET))) float NAME(int64_t iterations) {            \
    typedef float Vec __attribute__((vector_size(LANES * 4)));                 \
    constexpr int kAcc = 24;                                                   \
    Vec acc[kAcc];                                                             \
    Vec mul, add;                                                              \
    for (int l = 0; l < LANES; ++l) {                                          \
      mul[l] = 0.999999f;                                                      \
      add[l] = 1e-7f;                                                          \
    }                                                                          \
    for (int k = 0; k < kAcc; ++k)                                             \
      for (int l = 0; l < LANES; ++l)                                          \
        acc[k][l] = 1.0f + 0.01f * k + 0.001f * l;                             \
    for (int64_t i = 0; i < iterations; ++i) {                                 \
      _Pragma("clang loop unroll(full)") for (int k = 0; k < kAcc; ++k)        \
          acc[k] = __builtin_elementwise_fma(acc[k], mul, add);                \
    }                                                                          \
    float sum = 0;                                                             \
    for (int k = 0; k < kAcc; ++k)                                             \
      for (int l = 0; l < LANES; ++l)                                          \
        sum += acc[k][l];                                                      \
    return sum;                                                                \
  }

MIXER_FMA_LOOP(fmaLoop512, "avx512f", 16)
MIXER_FMA_LOOP(fmaLoop256, "avx2,fma", 8)

/// Runs `body(t)` on `threads` threads started together; returns the wall
/// time from the common start to the last one finishing.
template <typename F> double runOnThreads(int threads, F body) {
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      ready.fetch_add(1);
      while (!go.load())
        ;
      body(t);
    });
  while (ready.load() != threads)
    ;
  Clock::time_point start = Clock::now();
  go.store(true);
  for (std::thread &th : pool)
    th.join();
  return secondsSince(start);
}
} // namespace

double mixer::bench::measureFmaPeak(int threads) {
  bool avx512 = __builtin_cpu_supports("avx512f");
  int lanes = avx512 ? 16 : 8;
  const int64_t iterations = 20'000'000;
  std::vector<float> sink(threads);
  double best = 0;
  for (int trial = 0; trial < 3; ++trial) {
    double seconds = runOnThreads(threads, [&](int t) {
      sink[t] = avx512 ? fmaLoop512(iterations) : fmaLoop256(iterations);
    });
    double flops = 2.0 * 24 * lanes * iterations * threads;
    best = std::max(best, flops / seconds * 1e-9);
  }
  // Keeps the results alive.
  if (sink[0] == 12345.0f)
    std::abort();
  return best;
}

double mixer::bench::measureTriadBandwidth(int threads) {
  // 3 x 64 MiB: far beyond the caches.
  const int64_t n = int64_t(1) << 24;
  float *a = static_cast<float *>(std::aligned_alloc(64, n * sizeof(float)));
  float *b = static_cast<float *>(std::aligned_alloc(64, n * sizeof(float)));
  float *c = static_cast<float *>(std::aligned_alloc(64, n * sizeof(float)));
  auto range = [&](int t, int64_t &begin, int64_t &end) {
    begin = n * t / threads;
    end = n * (t + 1) / threads;
  };
  // First touch by the thread that uses each part.
  runOnThreads(threads, [&](int t) {
    int64_t begin, end;
    range(t, begin, end);
    for (int64_t i = begin; i < end; ++i) {
      a[i] = 0;
      b[i] = 1;
      c[i] = 2;
    }
  });
  const float scalar = 3.0f;
  double best = 0;
  for (int trial = 0; trial < 6; ++trial) {
    double seconds = runOnThreads(threads, [&](int t) {
      int64_t begin, end;
      range(t, begin, end);
      for (int64_t i = begin; i < end; ++i)
        a[i] = b[i] + scalar * c[i];
    });
    // STREAM's convention: two reads and one write per element.
    if (trial > 0)
      best = std::max(best, 3.0 * sizeof(float) * n / seconds * 1e-9);
  }
  if (a[n / 2] != 7.0f)
    std::abort();
  std::free(a);
  std::free(b);
  std::free(c);
  return best;
}
