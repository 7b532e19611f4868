//===- GpuRunner.h - compile, check and time one case on a GPU --*- C++ -*-===//
//
// The GPU suites: each case compiles with mixer-lower-to-nvvm-pipeline for
// the chip of the device, runs through libMixerCudaRuntime, is checked
// against the fp64 reference where that is affordable, and is timed with
// CUDA events on device buffers; GEMM-shaped cases are also timed with
// cuBLAS. With --fwd-bwd, differentiable ops also get a row of the forward
// and its @op_vjp on the device, the gradients checked like the CPU's
// fwd+bwd rows (Runner.h).
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TOOLS_MIXER_BENCH_GPURUNNER_H
#define MIXER_TOOLS_MIXER_BENCH_GPURUNNER_H

#include "OpBench.h"
#include "Row.h"
#include "Runner.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>

namespace mixer::bench {

/// The device and the peaks the rows are compared with.
struct GpuDevice {
  std::string name;
  /// sm_80, sm_90a: what the kernels are compiled for.
  std::string chip;
  int multiprocessors = 0;
  /// TF32 tensor-core, FP32 and memory peaks, from the device's clocks.
  double tensorTflops = 0, fp32Tflops = 0, memoryTbps = 0;
  /// How the peaks were found, for the JSON.
  std::string peakSource;

  llvm::json::Object toJson() const;
};

/// The device, or why none can run the suite (no CUDA build, no driver, no
/// device, an unsupported chip).
llvm::Expected<GpuDevice> getGpuDevice();

/// The impl of the GPU rows that run the forward, then @op_vjp.
inline constexpr const char *kGpuFwdBwdImpl = "mixer-cuda-fwd+bwd";

struct GpuSettings {
  int repeat = 10;
  /// The timed calls of a case stop after this much measured time (at
  /// least one call), so that a slow kernel does not hold up the suite.
  double maxCaseSeconds = 20;
  /// Cases whose OpBench::naiveWork exceeds this are not checked against
  /// the fp64 reference (it would take longer than the whole suite).
  double referenceMaxWork = 2e9;
  bool runtimeChecks = true;
  bool compareCublas = true;
};

/// Compiles, checks and times one case on the device. Never aborts: a case
/// that cannot run gets a row that says why. A kGpuFwdBwdImpl job compiles
/// the module with @op_vjp and checks and times the forward and backward.
Row runGpuJob(const Job &job, const GpuDevice &device,
              const GpuSettings &settings);

/// Only compiles the case for `chip` (no device needed): the module
/// through the NVVM pipeline with both entry points, kernels in a fatbin,
/// translated to LLVM IR; with @op_vjp for kGpuFwdBwdImpl jobs. The row
/// has compile_s, or the error.
Row compileGpuJob(const Job &job, const std::string &chip,
                  const GpuSettings &settings);

/// The cuBLAS row of a GEMM-shaped case (OpBench::gemms): the same GEMMs
/// as one TF32 cublasSgemm each, timed like runGpuJob. A row with status
/// "skipped" and the reason when cuBLAS cannot be loaded.
Row runCublasJob(const Job &job, const GpuDevice &device,
                 const GpuSettings &settings);

/// Sets peak_fraction (and the peak's name) of a GPU row.
void setGpuPeakFraction(Row &row, const OpBench &family,
                        const GpuDevice &device);

} // namespace mixer::bench

#endif // MIXER_TOOLS_MIXER_BENCH_GPURUNNER_H
