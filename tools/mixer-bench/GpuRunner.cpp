//===- GpuRunner.cpp - compile, check and time one case on a GPU ----------===//
//
// Every CUDA call goes through libMixerCudaRuntime, loaded on demand
// (CudaRuntimeLibrary): mixer-bench itself does not need the driver, so the
// CPU suites run anywhere. cuBLAS is loaded with dlopen for the same reason.
//
//===----------------------------------------------------------------------===//

#include "GpuRunner.h"
#include "TimingBudget.h"

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
#include <variant>

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

/// The milliseconds of each of `phases` (called in order) between timed
/// events on the default stream, per timed iteration: up to `repeat`
/// iterations after one warm-up, fewer once `maxSeconds` of measured time
/// have passed (at least one). The first failure stops.
llvm::Expected<std::vector<std::vector<double>>>
timePhases(const mc::CudaRuntimeLibrary &cuda, int repeat, double maxSeconds,
           const std::vector<std::function<llvm::Error()>> &phases) {
  std::vector<void *> events(phases.size() + 1);
  for (void *&event : events)
    event = cuda.eventCreateTimed();
  auto destroy = [&] {
    for (void *event : events)
      cuda.eventDestroy(event);
  };
  std::vector<std::vector<double>> times(phases.size());
  double measuredMs = 0;
  // i = -1: the warm-up.
  for (int i = -1; i < 0 || takeAnotherTimedCall(size_t(i), repeat,
                                                 measuredMs * 1e-3, maxSeconds);
       ++i) {
    cuda.eventRecord(events[0], nullptr);
    for (size_t p = 0; p < phases.size(); ++p) {
      if (llvm::Error error = phases[p]()) {
        destroy();
        return std::move(error);
      }
      cuda.eventRecord(events[p + 1], nullptr);
    }
    std::vector<float> ms(phases.size());
    for (size_t p = 0; p < phases.size(); ++p)
      ms[p] = cuda.eventElapsedMs(events[p], events[p + 1]);
    if (const char *failure = cuda.getFailure()) {
      std::string message = failure;
      destroy();
      return makeError("CUDA: " + message);
    }
    if (i < 0)
      continue;
    for (size_t p = 0; p < phases.size(); ++p) {
      times[p].push_back(ms[p]);
      measuredMs += ms[p];
    }
  }
  destroy();
  return times;
}

/// timePhases of one call.
llvm::Expected<std::vector<double>>
timeCalls(const mc::CudaRuntimeLibrary &cuda, const GpuSettings &settings,
          const std::function<llvm::Error()> &call) {
  auto times =
      timePhases(cuda, settings.repeat, settings.maxCaseSeconds, {call});
  if (!times)
    return times.takeError();
  return std::move((*times)[0]);
}

/// Appends `text` to the row's reason ("; " between).
void addReason(Row &row, const std::string &text) {
  row.reason += (row.reason.empty() ? "" : "; ") + text;
}

/// Says in the row when --max-case-seconds cut the timed calls short.
void noteTimedCalls(Row &row, size_t timed, const GpuSettings &settings) {
  std::string note =
      timedCallsNote(timed, settings.repeat, settings.maxCaseSeconds);
  if (!note.empty())
    addReason(row, note);
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

/// Device copies of host buffers, with descriptors that point to them (in
/// `args`, in order), freed on destruction.
class DeviceBuffers {
public:
  DeviceBuffers(const mc::CudaRuntimeLibrary &cuda,
                const std::vector<Buffer *> &buffers)
      : cuda(cuda) {
    for (Buffer *buffer : buffers) {
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

/// The case's module, with @op_vjp where `vjp` is given (which then gets
/// @op's inputs), lowered for `chip` with both entry points of every
/// function. The error names what failed, with the first diagnostic; it
/// starts with kNoBackward when the op cannot be differentiated.
static llvm::Expected<OwningOpRef<ModuleOp>>
compileForCuda(const Job &job, const std::string &chip,
               const GpuSettings &settings, MLIRContext &context,
               VjpInputs *vjp) {
  std::string diagnostics;
  FirstErrorRecorder recorder(&context, diagnostics);
  auto fail = [&](const std::string &why) {
    return makeError(why + (diagnostics.empty() ? "" : ": " + diagnostics));
  };
  OwningOpRef<ModuleOp> module = mlir::parseSourceString<ModuleOp>(
      job.family->module(job.c), ParserConfig(&context));
  if (!module)
    return fail("cannot parse the generated module");
  if (vjp) {
    llvm::Expected<VjpInputs> added = addVjpFunction(*module, job.family->op());
    if (!added)
      return fail(llvm::toString(added.takeError()));
    *vjp = std::move(*added);
  }
  mc::CudaCompileOptions options;
  options.chip = chip;
  if (!settings.runtimeChecks)
    options.pipelineOptions = "runtime-checks=false";
  if (failed(mc::compileToLLVMForCuda(*module, options)))
    return fail("compilation for " + chip + " failed");
  return module;
}

/// A compile error as a row: skipped when the op has no backward.
static Row compileFailedRow(Row row, llvm::Error error) {
  std::string why = llvm::toString(std::move(error));
  return failedRow(row, why.rfind(kNoBackward, 0) == 0 ? "skipped" : "error",
                   why);
}

Row compileGpuJob(const Job &job, const std::string &chip,
                  const GpuSettings &settings) {
  Row row = emptyRowFor(job, job.impl);
  Clock::time_point start = Clock::now();
  std::unique_ptr<MLIRContext> context = newCompilerContext();
  VjpInputs vjp;
  auto module = compileForCuda(job, chip, settings, *context,
                               job.impl == kGpuFwdBwdImpl ? &vjp : nullptr);
  if (!module)
    return compileFailedRow(row, module.takeError());
  // The translation embeds the fatbin and lowers the launches.
  llvm::LLVMContext llvmContext;
  if (!mlir::translateModuleToLLVMIR(**module, llvmContext))
    return failedRow(row, "error", "translation to LLVM IR failed");
  row.compileS = secondsSince(start);
  row.reason = "compiled for " + chip + " only (--compile-only)";
  return row;
}

namespace {
/// A case compiled for the device and JIT-loaded (the context outlives
/// the JIT).
struct GpuCase {
  const mc::CudaRuntimeLibrary *cuda = nullptr;
  std::unique_ptr<MLIRContext> context;
  std::unique_ptr<mc::JitModule> jit;
  VjpInputs vjp;
};

/// Loads the CUDA runtime library, parses, lowers for the device's chip
/// (with @op_vjp for kGpuFwdBwdImpl jobs) and JIT-compiles the case, which
/// loads the kernels; sets compile_s, or returns the row of the failure
/// (skipped without the library).
std::variant<GpuCase, Row> loadGpuCase(const Job &job, const GpuDevice &device,
                                       const GpuSettings &settings, Row &row) {
  bool withVjp = job.impl == kGpuFwdBwdImpl;
  auto cudaOr = mc::CudaRuntimeLibrary::get();
  if (!cudaOr)
    return failedRow(row, "skipped", llvm::toString(cudaOr.takeError()));
  const mc::CudaRuntimeLibrary &cuda = *cudaOr;
  cuda.clearFailure();
  Clock::time_point start = Clock::now();
  GpuCase out;
  out.cuda = &cuda;
  out.context = newCompilerContext();
  auto module = compileForCuda(job, device.chip, settings, *out.context,
                               withVjp ? &out.vjp : nullptr);
  if (!module)
    return compileFailedRow(row, module.takeError());
  mc::JitOptions jitOptions;
  jitOptions.sharedLibPaths.push_back(cuda.path);
  auto jit = mc::JitModule::create(**module, jitOptions);
  if (!jit)
    return failedRow(row, "error",
                     "JIT failed: " + llvm::toString(jit.takeError()));
  if (const char *failure = cuda.getFailure())
    return failedRow(row, "error",
                     std::string("loading the kernels failed: ") + failure);
  out.jit = std::move(*jit);
  row.compileS = secondsSince(start);
  return std::move(out);
}

/// The case's inputs, with the fp64 reference where it is affordable (then
/// `check` is set).
Instance prepareInputs(const Job &job, const GpuSettings &settings,
                       mref::Rng &rng, bool &check) {
  check = job.family->naiveWork(job.c) <= settings.referenceMaxWork;
  ReferenceScope scope(check);
  return job.family->prepare(job.c, rng);
}

/// The reason of a row whose case is too large for the fp64 reference.
std::string uncheckedReason(const OpBench &family, const Case &c) {
  char work[32];
  std::snprintf(work, sizeof(work), "%.3g", family.naiveWork(c));
  return "not checked against the fp64 reference at this size (its work " +
         std::string(work) +
         " is above --reference-max-work); the gpu-smoke suite checks this op";
}

/// Calls `fn` of the JIT on host arrays; the error names the call.
llvm::Error callOnHost(const mc::JitModule &jit,
                       const mc::CudaRuntimeLibrary &cuda,
                       const std::string &fn, std::vector<void *> &args) {
  if (llvm::Error error = jit.call(fn, args))
    return makeError("call of @" + fn +
                     " failed: " + llvm::toString(std::move(error)));
  if (const char *failure = cuda.getFailure())
    return makeError("@" + fn + ": CUDA: " + failure);
  return llvm::Error::success();
}
} // namespace

/// The rest of a kGpuFwdBwdImpl row once its case is loaded: @op, then
/// @op_vjp on host arrays with the CPU fwd+bwd rows' cotangents, the
/// gradients against the fp64 reference's (the row says so where the
/// reference has none, or the case is above referenceMaxWork), then both
/// timed apart on device buffers (fwd_ms, bwd_ms, their sum in median_ms).
static Row runFwdBwdOnGpu(const Job &job, const GpuSettings &settings,
                          const GpuCase &compiled, Row row) {
  const OpBench &family = *job.family;
  const mc::JitModule &jit = *compiled.jit;
  const mc::CudaRuntimeLibrary &cuda = *compiled.cuda;
  auto fail = [&](const std::string &why) {
    return failedRow(row, "error", why);
  };

  // Inputs and cotangents as the CPU's fwd+bwd rows draw them.
  bool check;
  mref::Rng rng(20240611);
  Instance in = prepareInputs(job, settings, rng, check);
  llvm::Expected<VjpCall> call = makeVjpCall(family, in, compiled.vjp, rng);
  if (!call)
    return fail(llvm::toString(call.takeError()));
  std::string fn = family.op(), vjp = fn + "_vjp";

  // The check: forward and backward on host arrays, the gradients against
  // the fp64 reference's.
  if (llvm::Error error = callOnHost(jit, cuda, fn, in.args))
    return fail(llvm::toString(std::move(error)));
  if (llvm::Error error = callOnHost(jit, cuda, vjp, call->args))
    return fail(llvm::toString(std::move(error)));
  if (check) {
    llvm::Expected<bool> checked = checkReferenceGradients(row, job, in, *call);
    if (!checked)
      return fail(llvm::toString(checked.takeError()));
    if (!*checked)
      row.reason =
          "gradients not checked: the fp64 reference has none for " + fn;
  } else {
    row.reason = uncheckedReason(family, job.c);
  }

  // The timing: forward, then backward, on device buffers.
  std::vector<std::vector<double>> times;
  {
    std::vector<Buffer *> hostBuffers;
    for (auto &buffer : in.buffers)
      hostBuffers.push_back(buffer.get());
    for (auto &buffer : call->owned)
      hostBuffers.push_back(buffer.get());
    DeviceBuffers buffers(cuda, hostBuffers);
    size_t numBuffers = in.buffers.size(),
           numInputs = compiled.vjp.inputs.size();
    std::vector<void *> fwdArgs(buffers.args.begin(),
                                buffers.args.begin() + numBuffers);
    std::vector<void *> vjpArgs(buffers.args.begin(),
                                buffers.args.begin() + numInputs);
    vjpArgs.insert(vjpArgs.end(), buffers.args.begin() + numBuffers,
                   buffers.args.end());
    std::string suffix = mc::kDeviceEntrySuffix.str();
    auto timed = timePhases(cuda, settings.repeat, settings.maxCaseSeconds,
                            {[&] { return jit.call(fn + suffix, fwdArgs); },
                             [&] { return jit.call(vjp + suffix, vjpArgs); }});
    if (!timed)
      return fail(llvm::toString(timed.takeError()));
    times = std::move(*timed);
  }
  std::vector<double> total(times[0].size());
  for (size_t i = 0; i < total.size(); ++i)
    total[i] = times[0][i] + times[1][i];
  row.medianMs = median(total);
  row.q1Ms = quantile(total, 0.25);
  row.q3Ms = quantile(total, 0.75);
  row.fwdMs = median(times[0]);
  row.bwdMs = median(times[1]);
  noteTimedCalls(row, total.size(), settings);
  return row;
}

Row runGpuJob(const Job &job, const GpuDevice &device,
              const GpuSettings &settings) {
  const OpBench &family = *job.family;
  Row row = emptyRowFor(job, job.impl);
  auto loaded = loadGpuCase(job, device, settings, row);
  if (Row *failed = std::get_if<Row>(&loaded))
    return *failed;
  const GpuCase &compiled = std::get<GpuCase>(loaded);
  if (job.impl == kGpuFwdBwdImpl)
    return runFwdBwdOnGpu(job, settings, compiled, row);
  const mc::JitModule &jit = *compiled.jit;
  const mc::CudaRuntimeLibrary &cuda = *compiled.cuda;

  // Inputs, and the reference where it is affordable.
  bool check;
  mref::Rng rng(20240611);
  Instance instance = prepareInputs(job, settings, rng, check);
  std::string fn = family.op();

  // The check, through the entry point on host arrays.
  if (llvm::Error error = callOnHost(jit, cuda, fn, instance.args))
    return failedRow(row, "error", llvm::toString(std::move(error)));
  if (check)
    row.relError = instance.relativeError();

  // The timing, through the entry point on device buffers.
  std::vector<double> times;
  {
    std::vector<Buffer *> hostBuffers;
    for (auto &buffer : instance.buffers)
      hostBuffers.push_back(buffer.get());
    DeviceBuffers buffers(cuda, hostBuffers);
    std::string deviceFn = fn + mc::kDeviceEntrySuffix.str();
    auto timed = timeCalls(cuda, settings,
                           [&] { return jit.call(deviceFn, buffers.args); });
    if (!timed)
      return failedRow(row, "error", llvm::toString(timed.takeError()));
    times = std::move(*timed);
  }
  setTimes(row, times, family.work(job.c));
  setGpuPeakFraction(row, family, device);
  if (!check) {
    row.reason = uncheckedReason(family, job.c);
  } else if (!(*row.relError <= family.tolerance())) {
    char tol[32];
    std::snprintf(tol, sizeof(tol), "%g", family.tolerance());
    row.status = "inaccurate";
    row.reason = "rel_error above the " + std::string(tol) + " tolerance of " +
                 family.toleranceName();
  }
  noteTimedCalls(row, times.size(), settings);
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
  auto timed = timeCalls(cuda, settings, [&]() -> llvm::Error {
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
  noteTimedCalls(row, timed->size(), settings);
  return row;
}

} // namespace mixer::bench
