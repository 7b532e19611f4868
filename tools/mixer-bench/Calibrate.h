//===- Calibrate.h - this machine's ceilings: FMA, bandwidth, exp -*- C++ -*-===//
//
// The three ceilings a row's "% of peak" is a fraction of: the fp32 FMA
// peak (contractions), the STREAM triad bandwidth (byte-counted ops) and,
// for the ops that evaluate an exp per few flops (kernel sums, gated
// scans), an exp-aware ceiling built from the throughput of the CPU
// pipeline's own vectorized exp.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TOOLS_MIXER_BENCH_CALIBRATE_H
#define MIXER_TOOLS_MIXER_BENCH_CALIBRATE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace mixer::bench {

struct CodeTarget;
struct Work;

/// The fp32 FMA peak in GFLOP/s (an FMA counts as two flops) on `threads`
/// threads, measured twice: a compiled loop and a hand-written assembly
/// loop, both of the vector ISA of the code measured (`vectorWidth` f32
/// lanes and `vectorRegisters` registers: AVX-512 or AVX2), with as many
/// independent accumulators as that register file holds beside the two
/// operands (24 of AVX-512's 32 zmm, 12 of AVX2's 16 ymm): enough to cover
/// the FMA latency on two FMA ports without a spill. "none" when this
/// machine cannot run that ISA's loop.
struct FmaPeak {
  std::string isa; ///< "avx512", "avx2" or "none"
  int accumulators = 0;
  double compiledGflops = 0, handWrittenGflops = 0;
  /// The peak the rows are divided by: the better of the two loops.
  double gflops() const {
    return compiledGflops > handWrittenGflops ? compiledGflops
                                              : handWrittenGflops;
  }
};
FmaPeak measureFmaPeak(int threads, int64_t vectorWidth,
                       int64_t vectorRegisters);

/// STREAM triad a = b + s*c over three 64 MiB float arrays on `threads`
/// threads, in GB/s counting 12 bytes per element; the best of five trials.
double measureTriadBandwidth(int threads);

/// The exps per second (in G/s) of the CPU pipeline's vectorized exp: a
/// linalg.generic of math.exp over 32768 floats (in the L2), compiled
/// through the same pipeline and JIT as the ops (for the CPU `target` names),
/// called on `threads` threads at once.
llvm::Expected<double> measureExpThroughput(int threads,
                                            const CodeTarget &target);

/// The measured ceilings (0: not measured).
struct Ceilings {
  double fmaGflops = 0, triadGbps = 0, expGps = 0;
};

/// The ceiling a case is measured against and the rate it allows, in the
/// unit of the row (GFLOP/s or GB/s):
///   "fma"       flops only: the FMA peak
///   "exp-aware" flops and exps: the flops at the FMA peak plus the exps at
///               the pipeline's exp throughput, flops / (flops / fma +
///               exps / exp)
///   "triad"     bytes only: the STREAM triad
/// An empty name when the ceiling the case needs was not measured.
struct Ceiling {
  std::string name;
  double rate = 0;
};
Ceiling chooseCeiling(const Work &work, const Ceilings &ceilings);

/// One measurement of the three ceilings: both FMA loops, the triad and
/// the exp kernel (or why the exp kernel could not be measured).
struct Calibration {
  FmaPeak fma;
  double triadGbps = 0, expGps = 0;
  std::string expError;
  Ceilings ceilings() const { return {fma.gflops(), triadGbps, expGps}; }
};

/// Measures the three ceilings of code for `target` on `threads` threads.
Calibration measureCalibration(int threads, const CodeTarget &target);

/// The higher of each measurement of `a` and `b`: a ceiling is the most the
/// machine did, and a shared machine's slow minute lowers one measurement
/// (seen: the exp throughput 1.7x apart in two runs minutes apart).
Calibration higherOf(const Calibration &a, const Calibration &b);

/// Records `c` in `machine`: the ceilings, both FMA loops and `threads`.
void recordCalibration(const Calibration &c, int threads,
                       llvm::json::Object &machine);

/// Prints `c` on one line to `os`, after `label` ("machine: <cpu>").
void printCalibration(const Calibration &c, int threads,
                      const std::string &label, llvm::raw_ostream &os);

/// The ceilings and both FMA loops of `c` as a JSON object (the fields
/// recordCalibration writes into the machine object, but the threads).
llvm::json::Object calibrationJson(const Calibration &c);

} // namespace mixer::bench

#endif // MIXER_TOOLS_MIXER_BENCH_CALIBRATE_H
