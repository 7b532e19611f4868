//===- GpuRunner.cpp - compile, check and time one case on a GPU ----------===//
//
// Every CUDA call goes through libMixerCudaRuntime, loaded on demand
// (CudaRuntimeLibrary): mixer-bench itself does not need the driver, so the
// CPU suites run anywhere. cuBLAS is loaded with dlopen for the same reason.
//
//===----------------------------------------------------------------------===//

#include "GpuRunner.h"

#include "mixer/Execution/Compile.h"
#include "mixer/Execution/CudaCompile.h"
#include "mixer/Execution/CudaRuntimeLibrary.h"
#include "mixer/Execution/JitModule.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <dlfcn.h>

using namespace ::mixer::bench;
using mlir::MLIRContext, mlir::ModuleOp, mlir::OwningOpRef, mlir::ParserConfig;
namespace json = llvm::json;
namespace mc = ::mlir::mixer;
namespace mref = ::mixer::ref;

namespace {
llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

Row emptyRowFor(const Job &job, const std::string &impl) {
  Row row;
  row.op = job.family->op();
  row.name = job.c.name;
  row.impl = impl;
  row.shapes = job.c.shape.str();
  return row;
}

Row failedRow(Row row, const std::string &status, const std::string &why) {
  row.status = status;
  row.reason = why;
  return row;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

double quantile(std::vector<double> values, double fraction) {
  std::sort(values.begin(), values.end());
  double pos = fraction * (values.size() - 1);
  size_t lo = static_cast<size_t>(pos);
  size_t hi = std::min(lo + 1, values.size() - 1);
  return values[lo] + (pos - lo) * (values[hi] - values[lo]);
}

/// The milliseconds of `call` between two timed events on the default
/// stream, `repeat` times after one warm-up; the first failure stops.
llvm::Expected<std::vector<double>>
timeCalls(const mc::CudaRuntimeLibrary &cuda, int repeat,
          const std::function<llvm::Error()> &call) {
  void *start = cuda.eventCreateTimed(), *end = cuda.eventCreateTimed();
  auto destroy = [&] {
    cuda.eventDestroy(start);
    cuda.eventDestroy(end);
  };
  std::vector<double> times;
  for (int i = -1; i < repeat; ++i) {
    cuda.eventRecord(start, nullptr);
    if (llvm::Error error = call()) {
      destroy();
      return std::move(error);
    }
    cuda.eventRecord(end, nullptr);
    float ms = cuda.eventElapsedMs(start, end);
    if (const char *failure = cuda.getFailure()) {
      std::string message = failure;
      destroy();
      return makeError("CUDA: " + message);
    }
    if (i >= 0)
      times.push_back(ms);
  }
  destroy();
  return times;
}

void setTimes(Row &row, const std::vector<double> &times, const Work &work) {
  row.medianMs = median(times);
  row.q1Ms = quantile(times, 0.25);
  row.q3Ms = quantile(times, 0.75);
  double seconds = *row.medianMs * 1e-3;
  if (work.flops > 0)
    row.gflops = work.flops / seconds * 1e-9;
  else if (work.bytes > 0)
    row.gbps = work.bytes / seconds * 1e-9;
}

unsigned elementBytes(ElementType type) {
  return type == ElementType::I64 ? 8 : 4;
}

/// Device copies of an Instance's buffers, with descriptors that point to
/// them, freed on destruction.
class DeviceBuffers {
public:
  DeviceBuffers(const mc::CudaRuntimeLibrary &cuda, const Instance &instance)
      : cuda(cuda) {
    for (const auto &buffer : instance.buffers) {
      size_t rank = buffer->shape.size();
      std::vector<int64_t> descriptor(3 + 2 * rank);
      std::memcpy(descriptor.data(), buffer->desc(),
                  descriptor.size() * sizeof(int64_t));
      size_t bytes = buffer->numel() * elementBytes(buffer->type);
      void *device = bytes ? cuda.memAlloc(bytes, nullptr, false) : nullptr;
      if (device)
        cuda.memcpy(device, reinterpret_cast<void **>(buffer->desc())[1], bytes,
                    nullptr);
      std::memcpy(&descriptor[0], &device, sizeof(void *));
      std::memcpy(&descriptor[1], &device, sizeof(void *));
      pointers.push_back(device);
      descriptors.push_back(std::move(descriptor));
    }
    for (auto &descriptor : descriptors)
      args.push_back(descriptor.data());
    cuda.synchronize();
  }
  ~DeviceBuffers() {
    for (void *pointer : pointers)
      cuda.memFree(pointer, nullptr);
    cuda.synchronize();
  }

  std::vector<void *> args;

private:
  const mc::CudaRuntimeLibrary &cuda;
  std::vector<void *> pointers;
  std::vector<std::vector<int64_t>> descriptors;
};
} // namespace

namespace mixer::bench {

json::Object GpuDevice::toJson() const {
  return json::Object{{"gpu", name},
                      {"chip", chip},
                      {"multiprocessors", multiprocessors},
                      {"tf32_tensor_peak_tflops", tensorTflops},
                      {"fp32_peak_tflops", fp32Tflops},
                      {"memory_peak_tbps", memoryTbps},
                      {"peaks_from", peakSource}};
}

llvm::Expected<GpuDevice> getGpuDevice() {
  auto cuda = mc::CudaRuntimeLibrary::get();
  if (!cuda)
    return cuda.takeError();
  MixerCudaDeviceInfo info;
  if (cuda->getDeviceInfo(&info) != 0) {
    const char *failure = cuda->getFailure();
    return makeError(std::string("cannot read the CUDA device: ") +
                     (failure ? failure : "unknown failure"));
  }
  GpuDevice device;
  device.name = info.name;
  device.multiprocessors = info.multiprocessors;
  int major = info.computeMajor, minor = info.computeMinor;
  if (major == 9 && minor == 0)
    device.chip = "sm_90a";
  else if (major == 8)
    device.chip = "sm_80";
  else
    return makeError("the CUDA device " + device.name +
                     " has compute capability " + llvm::Twine(major) + "." +
                     llvm::Twine(minor) + "; the GPU pipeline compiles for " +
                     mc::getSupportedCudaChips());
  // Per SM and clock: 128 FP32 FMAs; dense TF32 tensor-core flops of the
  // A100 (sm_80: 1024), of the consumer Ampere/Ada parts (512) and of
  // Hopper (2048).
  double clockHz = info.clockKHz * 1e3;
  double tensorPerClock = major == 9 ? 2048 : minor == 0 ? 1024 : 512;
  device.fp32Tflops = info.multiprocessors * 256.0 * clockHz * 1e-12;
  device.tensorTflops = info.multiprocessors * tensorPerClock * clockHz * 1e-12;
  device.memoryTbps =
      2.0 * info.memoryClockKHz * 1e3 * (info.memoryBusBits / 8.0) * 1e-12;
  device.peakSource = "the device's SM count, SM clock (" +
                      std::to_string(info.clockKHz / 1000) +
                      " MHz) and memory clock and bus";
  if (device.memoryTbps <= 0) {
    // Drivers that no longer report the memory clock: the datasheet's.
    llvm::StringRef name = device.name;
    device.memoryTbps = name.contains("H200")   ? 4.8
                        : name.contains("H100") ? 3.35
                        : name.contains("A100") ? 2.0
                                                : 0;
    device.peakSource += device.memoryTbps > 0
                             ? "; memory bandwidth from the datasheet"
                             : "; memory bandwidth unknown";
  }
  return device;
}

void setGpuPeakFraction(Row &row, const OpBench &family,
                        const GpuDevice &device) {
  if (row.gflops) {
    bool tensor = family.usesTensorCores();
    double peak = tensor ? device.tensorTflops : device.fp32Tflops;
    row.peak = tensor ? "tf32-tensor" : "fp32";
    if (peak > 0)
      row.peakFraction = *row.gflops * 1e-3 / peak;
  } else if (row.gbps) {
    row.peak = "memory";
    if (device.memoryTbps > 0)
      row.peakFraction = *row.gbps * 1e-3 / device.memoryTbps;
  }
}

/// The case's module lowered for `chip` with both entry points; null after
/// recording the first error in `diagnostics`.
static OwningOpRef<ModuleOp> compileForCuda(const Job &job,
                                            const std::string &chip,
                                            const GpuSettings &settings,
                                            MLIRContext &context,
                                            std::string &diagnostics) {
  FirstErrorRecorder recorder(&context, diagnostics);
  OwningOpRef<ModuleOp> module = mlir::parseSourceString<ModuleOp>(
      job.family->module(job.c), ParserConfig(&context));
  if (!module)
    return nullptr;
  mc::CudaCompileOptions options;
  options.chip = chip;
  if (!settings.runtimeChecks)
    options.pipelineOptions = "runtime-checks=false";
  if (failed(mc::compileToLLVMForCuda(*module, options)))
    return nullptr;
  return module;
}

Row compileGpuJob(const Job &job, const std::string &chip,
                  const GpuSettings &settings) {
  Row row = emptyRowFor(job, "mixer-cuda");
  Clock::time_point start = Clock::now();
  std::unique_ptr<MLIRContext> context = newCompilerContext();
  std::string diagnostics;
  OwningOpRef<ModuleOp> module =
      compileForCuda(job, chip, settings, *context, diagnostics);
  if (!module)
    return failedRow(row, "error",
                     "compilation for " + chip + " failed: " + diagnostics);
  // The translation embeds the fatbin and lowers the launches.
  llvm::LLVMContext llvmContext;
  if (!mlir::translateModuleToLLVMIR(*module, llvmContext))
    return failedRow(row, "error", "translation to LLVM IR failed");
  row.compileS = secondsSince(start);
  row.reason = "compiled for " + chip + " only (--compile-only)";
  return row;
}

Row runGpuJob(const Job &job, const GpuDevice &device,
              const GpuSettings &settings) {
  const OpBench &family = *job.family;
  Row row = emptyRowFor(job, "mixer-cuda");
  auto cudaOr = mc::CudaRuntimeLibrary::get();
  if (!cudaOr)
    return failedRow(row, "skipped", llvm::toString(cudaOr.takeError()));
  const mc::CudaRuntimeLibrary &cuda = *cudaOr;
  cuda.clearFailure();

  // Compilation: parse, NVVM pipeline, JIT (which loads the kernels).
  Clock::time_point compileStart = Clock::now();
  std::unique_ptr<MLIRContext> context = newCompilerContext();
  std::string diagnostics;
  OwningOpRef<ModuleOp> module =
      compileForCuda(job, device.chip, settings, *context, diagnostics);
  auto fail = [&](const std::string &why) {
    return failedRow(row, "error",
                     why + (diagnostics.empty() ? "" : ": " + diagnostics));
  };
  if (!module)
    return fail("compilation for " + device.chip + " failed");
  mc::JitOptions jitOptions;
  jitOptions.sharedLibPaths.push_back(cuda.path);
  auto jit = mc::JitModule::create(*module, jitOptions);
  if (!jit)
    return fail("JIT failed: " + llvm::toString(jit.takeError()));
  if (const char *failure = cuda.getFailure())
    return fail(std::string("loading the kernels failed: ") + failure);
  row.compileS = secondsSince(compileStart);

  // Inputs, and the reference where it is affordable.
  bool check = family.naiveWork(job.c) <= settings.referenceMaxWork;
  mref::Rng rng(20240611);
  ReferenceScope scope(check);
  Instance instance = family.prepare(job.c, rng);
  std::string fn = family.op();

  // The check, through the entry point on host arrays.
  if (llvm::Error error = (*jit)->call(fn, instance.args))
    return fail("call failed: " + llvm::toString(std::move(error)));
  if (const char *failure = cuda.getFailure())
    return fail(std::string("CUDA: ") + failure);
  if (check)
    row.relError = instance.relativeError();

  // The timing, through the entry point on device buffers.
  std::vector<double> times;
  {
    DeviceBuffers buffers(cuda, instance);
    std::string deviceFn = fn + mc::kDeviceEntrySuffix.str();
    auto timed = timeCalls(cuda, settings.repeat, [&] {
      return (*jit)->call(deviceFn, buffers.args);
    });
    if (!timed)
      return fail(llvm::toString(timed.takeError()));
    times = std::move(*timed);
  }
  setTimes(row, times, family.work(job.c));
  setGpuPeakFraction(row, family, device);
  if (!check) {
    char work[32];
    std::snprintf(work, sizeof(work), "%.3g", family.naiveWork(job.c));
    row.reason = "not checked against the fp64 reference at this size (its "
                 "work " +
                 std::string(work) +
                 " is above --reference-max-work); the gpu-smoke suite "
                 "checks this op";
  } else if (!(*row.relError <= family.tolerance())) {
    char tol[32];
    std::snprintf(tol, sizeof(tol), "%g", family.tolerance());
    row.status = "inaccurate";
    row.reason = "rel_error above the " + std::string(tol) + " tolerance of " +
                 family.toleranceName();
  }
  return row;
}

//===----------------------------------------------------------------------===//
// cuBLAS
//===----------------------------------------------------------------------===//

namespace {
/// The cuBLAS functions the comparison calls (cublas_api.h), by dlopen.
struct Cublas {
  int (*create)(void **handle) = nullptr;
  int (*destroy)(void *handle) = nullptr;
  int (*setMathMode)(void *handle, int mode) = nullptr;
  int (*sgemm)(void *handle, int transa, int transb, int m, int n, int k,
               const float *alpha, const float *a, int lda, const float *b,
               int ldb, const float *beta, float *c, int ldc) = nullptr;

  /// Loaded once; the error says why not.
  static llvm::Expected<const Cublas &> get() {
    static Cublas cublas;
    static const std::string failure = [] {
      void *handle = nullptr;
      std::string tried;
      for (const char *name :
           {"libcublas.so.13", "libcublas.so.12", "libcublas.so",
            "/usr/local/cuda/lib64/libcublas.so"}) {
        handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
        if (handle)
          break;
        tried += std::string(tried.empty() ? "" : ", ") + name;
      }
      if (!handle)
        return "cuBLAS not found (tried " + tried + ")";
      cublas.create = reinterpret_cast<decltype(cublas.create)>(
          dlsym(handle, "cublasCreate_v2"));
      cublas.destroy = reinterpret_cast<decltype(cublas.destroy)>(
          dlsym(handle, "cublasDestroy_v2"));
      cublas.setMathMode = reinterpret_cast<decltype(cublas.setMathMode)>(
          dlsym(handle, "cublasSetMathMode"));
      cublas.sgemm = reinterpret_cast<decltype(cublas.sgemm)>(
          dlsym(handle, "cublasSgemm_v2"));
      if (!cublas.create || !cublas.destroy || !cublas.setMathMode ||
          !cublas.sgemm)
        return std::string("cuBLAS lacks cublasCreate_v2, cublasSgemm_v2 or "
                           "cublasSetMathMode");
      return std::string();
    }();
    if (!failure.empty())
      return makeError(failure);
    return cublas;
  }
};

constexpr int kCublasOpN = 0;
constexpr int kCublasTf32TensorOpMath = 3;
} // namespace

Row runCublasJob(const Job &job, const GpuDevice &device,
                 const GpuSettings &settings) {
  const OpBench &family = *job.family;
  Row row = emptyRowFor(job, "cublas-tf32");
  std::vector<OpBench::Gemm> gemms = family.gemms(job.c);
  auto cudaOr = mc::CudaRuntimeLibrary::get();
  if (!cudaOr)
    return failedRow(row, "skipped", llvm::toString(cudaOr.takeError()));
  auto cublasOr = Cublas::get();
  if (!cublasOr)
    return failedRow(row, "skipped", llvm::toString(cublasOr.takeError()));
  const mc::CudaRuntimeLibrary &cuda = *cudaOr;
  const Cublas &cublas = *cublasOr;
  cuda.clearFailure();

  // One buffer each for every GEMM's A, B and C, side by side, filled with
  // values in [-1, 1).
  size_t aSize = 0, bSize = 0, cSize = 0;
  for (const OpBench::Gemm &g : gemms) {
    aSize += g.m * g.k;
    bSize += g.k * g.n;
    cSize += g.m * g.n;
  }
  mref::Rng rng(7);
  std::vector<float> host(std::max({aSize, bSize, cSize}));
  for (float &v : host)
    v = static_cast<float>(rng.uniform(-1, 1));
  float *a = static_cast<float *>(cuda.memAlloc(aSize * 4, nullptr, false));
  float *b = static_cast<float *>(cuda.memAlloc(bSize * 4, nullptr, false));
  float *c = static_cast<float *>(cuda.memAlloc(cSize * 4, nullptr, false));
  auto release = [&] {
    cuda.memFree(a, nullptr);
    cuda.memFree(b, nullptr);
    cuda.memFree(c, nullptr);
    cuda.synchronize();
  };
  if (a && b && c) {
    cuda.memcpy(a, host.data(), aSize * 4, nullptr);
    cuda.memcpy(b, host.data(), bSize * 4, nullptr);
    cuda.synchronize();
  }
  if (const char *failure = cuda.getFailure()) {
    std::string message = failure;
    release();
    return failedRow(row, "error", "CUDA: " + message);
  }
  void *handle = nullptr;
  if (cublas.create(&handle) != 0) {
    release();
    return failedRow(row, "error", "cublasCreate failed");
  }
  cublas.setMathMode(handle, kCublasTf32TensorOpMath);
  // Row-major C = A B is column-major C^T = B^T A^T.
  float alpha = 1.0f, beta = 0.0f;
  int status = 0;
  auto timed = timeCalls(cuda, settings.repeat, [&]() -> llvm::Error {
    size_t ai = 0, bi = 0, ci = 0;
    for (const OpBench::Gemm &g : gemms) {
      if (g.m > 0)
        status |= cublas.sgemm(handle, kCublasOpN, kCublasOpN, int(g.n),
                               int(g.m), int(g.k), &alpha, b + bi, int(g.n),
                               a + ai, int(g.k), &beta, c + ci, int(g.n));
      ai += g.m * g.k;
      bi += g.k * g.n;
      ci += g.m * g.n;
    }
    if (status != 0)
      return makeError("cublasSgemm failed with status " + llvm::Twine(status));
    return llvm::Error::success();
  });
  cublas.destroy(handle);
  release();
  if (!timed)
    return failedRow(row, "error", llvm::toString(timed.takeError()));
  setTimes(row, *timed, family.work(job.c));
  setGpuPeakFraction(row, family, device);
  row.reason = std::to_string(gemms.size()) +
               " cublasSgemm calls (TF32 tensor cores), the GEMMs only";
  return row;
}

} // namespace mixer::bench
