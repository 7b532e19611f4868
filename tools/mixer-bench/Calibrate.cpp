//===- Calibrate.cpp - this machine's ceilings: FMA, bandwidth, exp -------===//
//
// An fp32 FMA loop with many independent accumulators (compiled, and
// hand-written), the STREAM triad, and the CPU pipeline's own exp, each on
// a given number of std::threads. The benchmark divides by these numbers
// to report fractions of the machine.
//
//===----------------------------------------------------------------------===//

#include "Calibrate.h"
#include "CodeTarget.h"
#include "HostMemory.h"
#include "OpBench.h"
#include "Timing.h"

#include "mixer/Execution/Compile.h"
#include "mixer/Execution/JitModule.h"
#include "mixer/Pipelines/Pipelines.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

using namespace mixer::bench;
namespace mc = ::mlir::mixer;

namespace {
/// The compiled loop: ACC independent vector accumulators of LANES floats,
/// one FMA each per iteration. Returns a value depending on every result so
/// that nothing is optimized away.
#define MIXER_FMA_LOOP(NAME, TARGET, LANES, ACC)                               \
  __attribute__((target(TARGET))) float NAME(int64_t iterations) {            \
    typedef float Vec __attribute__((vector_size(LANES * 4)));                 \
    constexpr int kAcc = ACC;                                                  \
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

// AVX-512: 32 zmm registers, 24 accumulators; AVX2: 16 ymm, 12 (24 would
// spill: the loop then measures loads and stores, not FMAs).
constexpr int kAccumulators512 = 24, kAccumulators256 = 12;
MIXER_FMA_LOOP(fmaLoop512, "avx512f", 16, kAccumulators512)
MIXER_FMA_LOOP(fmaLoop256, "avx2,fma", 8, kAccumulators256)

/// The hand-written loops: the same FMAs as assembly, register to register
/// (zeros: no denormals), so that the compiler cannot change the count.
__attribute__((target("avx512f"))) void handFmaLoop512(int64_t iterations) {
  asm volatile(
      "vpxord %%zmm30, %%zmm30, %%zmm30\n"
      "vpxord %%zmm31, %%zmm31, %%zmm31\n"
      "1:\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm0\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm1\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm2\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm3\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm4\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm5\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm6\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm7\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm8\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm9\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm10\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm11\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm12\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm13\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm14\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm15\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm16\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm17\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm18\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm19\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm20\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm21\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm22\n"
      "vfmadd231ps %%zmm30, %%zmm31, %%zmm23\n"
      "dec %0\n"
      "jnz 1b\n"
      : "+r"(iterations)
      :
      : "zmm0", "zmm1", "zmm2", "zmm3", "zmm4", "zmm5", "zmm6", "zmm7", "zmm8",
        "zmm9", "zmm10", "zmm11", "zmm12", "zmm13", "zmm14", "zmm15", "zmm16",
        "zmm17", "zmm18", "zmm19", "zmm20", "zmm21", "zmm22", "zmm23", "zmm30",
        "zmm31", "cc");
}

__attribute__((target("avx2,fma"))) void handFmaLoop256(int64_t iterations) {
  asm volatile(
      "vxorps %%ymm14, %%ymm14, %%ymm14\n"
      "vxorps %%ymm15, %%ymm15, %%ymm15\n"
      "1:\n"
      "vfmadd231ps %%ymm14, %%ymm15, %%ymm0\n"
      "vfmadd231ps %%ymm14, %%ymm15, %%ymm1\n"
      "vfmadd231ps %%ymm14, %%ymm15, %%ymm2\n"
      "vfmadd231ps %%ymm14, %%ymm15, %%ymm3\n"
      "vfmadd231ps %%ymm14, %%ymm15, %%ymm4\n"
      "vfmadd231ps %%ymm14, %%ymm15, %%ymm5\n"
      "vfmadd231ps %%ymm14, %%ymm15, %%ymm6\n"
      "vfmadd231ps %%ymm14, %%ymm15, %%ymm7\n"
      "vfmadd231ps %%ymm14, %%ymm15, %%ymm8\n"
      "vfmadd231ps %%ymm14, %%ymm15, %%ymm9\n"
      "vfmadd231ps %%ymm14, %%ymm15, %%ymm10\n"
      "vfmadd231ps %%ymm14, %%ymm15, %%ymm11\n"
      "dec %0\n"
      "jnz 1b\n"
      : "+r"(iterations)
      :
      : "ymm0", "ymm1", "ymm2", "ymm3", "ymm4", "ymm5", "ymm6", "ymm7", "ymm8",
        "ymm9", "ymm10", "ymm11", "ymm14", "ymm15", "cc");
}

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

FmaPeak mixer::bench::measureFmaPeak(int threads, int64_t vectorWidth,
                                     int64_t vectorRegisters) {
  FmaPeak peak;
  // The loop of the code's ISA, if this machine runs it: AVX-512's 32
  // registers of 16 lanes, or AVX2's 16 of 8.
  bool avx512 = vectorWidth == 16 && vectorRegisters == 32 &&
                __builtin_cpu_supports("avx512f");
  bool avx2 = vectorWidth == 8 && vectorRegisters == 16 &&
              __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (!avx512 && !avx2) {
    peak.isa = "none";
    return peak;
  }
  peak.isa = avx512 ? "avx512" : "avx2";
  peak.accumulators = avx512 ? kAccumulators512 : kAccumulators256;
  int lanes = avx512 ? 16 : 8;
  const int64_t iterations = 20'000'000;
  double flops = 2.0 * peak.accumulators * lanes * iterations * threads;
  std::vector<float> sink(threads);
  for (int trial = 0; trial < 3; ++trial) {
    double seconds = runOnThreads(threads, [&](int t) {
      sink[t] = avx512 ? fmaLoop512(iterations) : fmaLoop256(iterations);
    });
    peak.compiledGflops =
        std::max(peak.compiledGflops, flops / seconds * 1e-9);
    seconds = runOnThreads(threads, [&](int) {
      if (avx512)
        handFmaLoop512(iterations);
      else
        handFmaLoop256(iterations);
    });
    peak.handWrittenGflops =
        std::max(peak.handWrittenGflops, flops / seconds * 1e-9);
  }
  // Keeps the results alive.
  if (sink[0] == 12345.0f)
    std::abort();
  return peak;
}

double mixer::bench::measureTriadBandwidth(int threads) {
  // 3 x 64 MiB: far beyond the caches.
  const int64_t n = int64_t(1) << 24;
  // On the pages the ops' buffers get (HostMemory.h).
  float *a = static_cast<float *>(allocateHostBuffer(n * sizeof(float)));
  float *b = static_cast<float *>(allocateHostBuffer(n * sizeof(float)));
  float *c = static_cast<float *>(allocateHostBuffer(n * sizeof(float)));
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

llvm::Expected<double>
mixer::bench::measureExpThroughput(int threads, const CodeTarget &target) {
  constexpr int64_t n = 32768;
  const std::string type = "tensor<" + std::to_string(n) + "xf32>";
  const std::string source =
      "func.func @exp_kernel(%x: " + type + ", %y: " + type +
      " {bufferization.writable = true}) -> " + type +
      " {\n"
      "  %e = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, "
      "affine_map<(i) -> (i)>], iterator_types = [\"parallel\"]} ins(%x : " +
      type + ") outs(%y : " + type +
      ") {\n"
      "  ^bb0(%a: f32, %b: f32):\n"
      "    %zero = arith.constant 0.0 : f32\n"
      "    %m = arith.minimumf %a, %zero : f32\n"
      "    %v = math.exp %m : f32\n"
      "    linalg.yield %v : f32\n"
      "  } -> " +
      type + "\n  return %e : " + type + "\n}\n";

  mlir::DialectRegistry registry;
  mc::registerCompilerDialects(registry);
  mlir::MLIRContext context(registry);
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    if (d.getSeverity() == mlir::DiagnosticSeverity::Error &&
        diagnostics.empty())
      diagnostics = d.str();
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(source,
                                              mlir::ParserConfig(&context));
  if (!module)
    return llvm::createStringError("cannot parse the exp kernel: " +
                                   diagnostics);
  mc::CpuPipelineOptions options;
  options.numThreads = 1;
  options.targetCpu = target.cpu;
  options.targetFeatures = target.features;
  if (failed(mc::compileToLLVM(*module, options)))
    return llvm::createStringError("cannot compile the exp kernel: " +
                                   diagnostics);
  mc::JitOptions jitOptions;
  jitOptions.cpu = target.cpu;
  jitOptions.features = target.features;
  auto jit = mc::JitModule::create(*module, jitOptions);
  if (!jit)
    return jit.takeError();

  // exp(min(x, 0)) of x in [-20, 0): the form and range of the ops' exps
  // (the kernel sums' terms, the scans' decays), whose approximation
  // leaves out what x <= 0 makes redundant.
  std::vector<std::unique_ptr<Buffer>> inputs, outputs;
  // 2 x 128 KiB per thread: in every L2 (512 KiB on Zen 3), and long
  // enough that the call's own cost is small.
  for (int t = 0; t < threads; ++t) {
    inputs.push_back(std::make_unique<Buffer>(ElementType::F32,
                                              std::vector<int64_t>{n}));
    outputs.push_back(std::make_unique<Buffer>(ElementType::F32,
                                               std::vector<int64_t>{n}));
    for (int64_t i = 0; i < n; ++i)
      inputs[t]->f32()[i] = -20.0f + 20.0f * float(i) / float(n);
  }
  const int calls = 500;
  std::atomic<bool> failed{false};
  double best = 0;
  for (int trial = 0; trial < 5; ++trial) {
    double seconds = runOnThreads(threads, [&](int t) {
      for (int c = 0; c < calls; ++c)
        if (llvm::Error err = (*jit)->call(
                "exp_kernel", {inputs[t]->desc(), outputs[t]->desc()})) {
          llvm::consumeError(std::move(err));
          failed = true;
          return;
        }
    });
    best = std::max(best, double(n) * calls * threads / seconds * 1e-9);
  }
  if (failed)
    return llvm::createStringError("the exp kernel's call failed");
  // A wrong exp would make the ceiling meaningless.
  float x = inputs[0]->f32()[n / 3], y = outputs[0]->f32()[n / 3];
  if (std::fabs(y - std::exp(x)) > 1e-5f * std::exp(x))
    return llvm::createStringError("the exp kernel computes exp(" +
                                   std::to_string(x) + ") = " +
                                   std::to_string(y));
  return best;
}

Ceiling mixer::bench::chooseCeiling(const Work &work,
                                    const Ceilings &ceilings) {
  Ceiling c;
  if (work.flops > 0 && work.exps > 0) {
    if (ceilings.fmaGflops > 0 && ceilings.expGps > 0) {
      c.name = "exp-aware";
      c.rate = work.flops /
               (work.flops / ceilings.fmaGflops + work.exps / ceilings.expGps);
    }
  } else if (work.flops > 0) {
    if (ceilings.fmaGflops > 0) {
      c.name = "fma";
      c.rate = ceilings.fmaGflops;
    }
  } else if (work.bytes > 0 && ceilings.triadGbps > 0) {
    c.name = "triad";
    c.rate = ceilings.triadGbps;
  }
  return c;
}

Calibration mixer::bench::measureCalibration(int threads,
                                             const CodeTarget &target) {
  Calibration c;
  c.fma = measureFmaPeak(threads, target.description.vectorWidth,
                         target.description.vectorRegisters);
  c.triadGbps = measureTriadBandwidth(threads);
  llvm::Expected<double> exps = measureExpThroughput(threads, target);
  if (exps)
    c.expGps = *exps;
  else
    c.expError = llvm::toString(exps.takeError());
  return c;
}

Calibration mixer::bench::higherOf(const Calibration &a, const Calibration &b) {
  Calibration c = a;
  c.fma.compiledGflops = std::max(a.fma.compiledGflops, b.fma.compiledGflops);
  c.fma.handWrittenGflops =
      std::max(a.fma.handWrittenGflops, b.fma.handWrittenGflops);
  c.triadGbps = std::max(a.triadGbps, b.triadGbps);
  c.expGps = std::max(a.expGps, b.expGps);
  if (c.expGps > 0)
    c.expError.clear();
  return c;
}

llvm::json::Object mixer::bench::calibrationJson(const Calibration &c) {
  llvm::json::Object o{{"fma_peak_gflops", c.fma.gflops()},
                       {"fma_isa", c.fma.isa},
                       {"fma_accumulators", c.fma.accumulators},
                       {"fma_compiled_gflops", c.fma.compiledGflops},
                       {"fma_hand_written_gflops", c.fma.handWrittenGflops},
                       {"triad_gbps", c.triadGbps}};
  if (c.expError.empty())
    o["exp_gps"] = c.expGps;
  else
    o["exp_gps"] = nullptr;
  return o;
}

void mixer::bench::recordCalibration(const Calibration &c, int threads,
                                     llvm::json::Object &machine) {
  for (auto &field : calibrationJson(c))
    machine[field.first] = field.second;
  machine["calibration_threads"] = threads;
}

void mixer::bench::printCalibration(const Calibration &c, int threads,
                                    const std::string &label,
                                    llvm::raw_ostream &os) {
  os << label
     << llvm::format(", fp32 FMA peak %.1f GFLOP/s (%s, %d "
                     "accumulators; compiled loop %.1f, hand-written %.1f), "
                     "STREAM triad %.1f GB/s, ",
                     c.fma.gflops(), c.fma.isa.c_str(), c.fma.accumulators,
                     c.fma.compiledGflops, c.fma.handWrittenGflops,
                     c.triadGbps);
  if (c.expError.empty())
    os << llvm::format("pipeline exp %.2f G/s", c.expGps);
  else
    os << "no exp ceiling (" << c.expError << ")";
  os << " on " << threads << " threads\n";
}
