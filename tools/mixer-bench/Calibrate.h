//===- Calibrate.h - this machine's FMA peak and memory bandwidth -*- C++ -*-===//

#ifndef MIXER_TOOLS_MIXER_BENCH_CALIBRATE_H
#define MIXER_TOOLS_MIXER_BENCH_CALIBRATE_H

namespace mixer::bench {

/// fp32 FMA throughput in GFLOP/s (an FMA counts as two flops) of an
/// AVX-512 (or AVX2) loop with 24 independent accumulators per thread, on
/// `threads` threads; the best of three trials.
double measureFmaPeak(int threads);

/// STREAM triad a = b + s*c over three 64 MiB float arrays on `threads`
/// threads, in GB/s counting 12 bytes per element; the best of five trials.
double measureTriadBandwidth(int threads);

} // namespace mixer::bench

#endif // MIXER_TOOLS_MIXER_BENCH_CALIBRATE_H
