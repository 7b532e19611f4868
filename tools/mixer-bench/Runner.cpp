//===- Runner.cpp - compile, check and time one case ----------------------===//
//
// With FwdBwdRunner.cpp, the only part of mixer-bench that sees MLIR:
// parses a family's module (adding its @op_vjp for fwd+bwd), lowers it with
// the CPU pipeline (naive or not), JIT-compiles it and calls it on the
// family's buffers.
//
//===----------------------------------------------------------------------===//

#include "Runner.h"

#include "mixer/Execution/Compile.h"
#include "mixer/Execution/JitModule.h"
#include "mixer/Pipelines/Pipelines.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace ::mixer::bench;
using mlir::ModuleOp, mlir::ParserConfig;
namespace json = llvm::json;
namespace mc = ::mlir::mixer;
namespace mref = ::mixer::ref;

namespace {
/// The value below which `fraction` of the sorted values lies (linear
/// interpolation between neighbours).
double quantile(const std::vector<double> &sorted, double fraction) {
  double pos = fraction * (sorted.size() - 1);
  size_t lo = static_cast<size_t>(pos);
  size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
}
} // namespace

namespace mixer::bench {

void setPeakFraction(Row &row, const Work &work, const RunSettings &settings) {
  Ceiling ceiling = chooseCeiling(work, settings.ceilings);
  std::optional<double> rate = ceiling.name == "triad" ? row.gbps : row.gflops;
  if (ceiling.name.empty() || !rate)
    return;
  row.peak = ceiling.name;
  row.peakFraction = *rate / ceiling.rate;
}

llvm::Expected<CompiledCase> compileCase(const Job &job,
                                         const RunSettings &settings,
                                         bool withVjp,
                                         llvm::StringRef extraOptions) {
  const OpBench &family = *job.family;
  Clock::time_point compileStart = Clock::now();
  CompiledCase out;
  out.context = newCompilerContext();
  std::string diagnostics;
  FirstErrorRecorder recorder(out.context.get(), diagnostics);
  auto fail = [&](const std::string &why) {
    return llvm::createStringError(
        why + (diagnostics.empty() ? "" : ": " + diagnostics));
  };
  out.module = mlir::parseSourceString<ModuleOp>(
      family.module(job.c), ParserConfig(out.context.get()));
  if (!out.module)
    return fail("cannot parse the generated module");
  if (withVjp) {
    llvm::Expected<VjpInputs> vjp = addVjpFunction(*out.module, family.op());
    if (!vjp)
      return fail(llvm::toString(vjp.takeError()));
    out.vjp = std::move(*vjp);
  }
  mc::CpuPipelineOptions options;
  options.naive = job.impl == "mixer-naive";
  options.numThreads = settings.threads;
  options.runtimeChecks = settings.runtimeChecks;
  options.targetCpu = settings.targetCpu;
  options.targetFeatures = settings.targetFeatures;
  std::string optionError;
  if (!extraOptions.empty() &&
      failed(mc::parsePipelineOptions(extraOptions, options, optionError)))
    return fail("invalid pipeline options '" + extraOptions.str() +
                "': " + optionError);
  if (failed(mc::compileToLLVM(*out.module, options)))
    return fail("compilation failed");
  mc::JitOptions jitOptions;
  jitOptions.cpu = settings.targetCpu;
  jitOptions.features = settings.targetFeatures;
  jitOptions.enableObjectDump = !settings.objectDir.empty();
  jitOptions.enablePerfProfiling = settings.perfProfile;
  auto jit = mc::JitModule::create(*out.module, jitOptions);
  if (!jit)
    return fail("JIT failed: " + llvm::toString(jit.takeError()));
  out.jit = std::move(*jit);
  if (!settings.objectDir.empty())
    out.jit->dumpToObjectFile(settings.objectDir + "/" + job.c.name + "." +
                              job.impl + ".o");
  out.compileS = secondsSince(compileStart);
  return out;
}

Row runJob(const Job &job, const RunSettings &settings) {
  if (job.impl == kFwdBwdImpl)
    return runFwdBwdJob(job, settings);
  const OpBench &family = *job.family;
  Row row = emptyRow(job);
  bool naive = job.impl == "mixer-naive";
  if (naive && family.naiveWork(job.c) > settings.naiveMaxWork) {
    row.status = "skipped";
    row.reason = "skipped: naive too slow at this size";
    return row;
  }

  auto fail = [&](const std::string &why) {
    row.status = "error";
    row.reason = why;
    return row;
  };
  llvm::Expected<CompiledCase> compiled = compileCase(job, settings, false);
  if (!compiled)
    return fail(llvm::toString(compiled.takeError()));
  row.compileS = compiled->compileS;
  const mc::JitModule &jit = *compiled->jit;

  // Inputs and the reference.
  mref::Rng rng(20240611);
  Instance instance = family.prepare(job.c, rng);
  std::string fn = family.op();

  // Warm-up (at least one call, at most 0.2 s of them), then the check.
  Clock::time_point warmStart = Clock::now();
  for (int i = 0; i < 20 && (i == 0 || secondsSince(warmStart) < 0.2); ++i)
    if (llvm::Error err = jit.call(fn, instance.args))
      return fail("call failed: " + llvm::toString(std::move(err)));
  row.relError = instance.relativeError();

  // --ab: the second build, checked as the first, then called in turn
  // with it, so that both meet the same moments of a noisy machine.
  std::optional<CompiledCase> secondCase;
  const mc::JitModule *second = nullptr;
  if (!settings.abOptions.empty() && !naive) {
    llvm::Expected<CompiledCase> built =
        compileCase(job, settings, false, settings.abOptions);
    if (!built)
      return fail("--ab build: " + llvm::toString(built.takeError()));
    secondCase = std::move(*built);
    second = secondCase->jit.get();
    if (llvm::Error err = second->call(fn, instance.args))
      return fail("--ab call failed: " + llvm::toString(std::move(err)));
    row.abOptions = settings.abOptions;
    row.abRelError = instance.relativeError();
  }

  auto timeCall = [&](const mc::JitModule &module) -> TimedCall {
    return [&, called = &module]() -> llvm::Expected<double> {
      Clock::time_point start = Clock::now();
      if (llvm::Error err = called->call(fn, instance.args))
        return std::move(err);
      return secondsSince(start) * 1e3;
    };
  };
  llvm::Expected<TimesInTurn> times = timeInTurn(
      settings.repeat, timeCall(jit), second ? timeCall(*second) : TimedCall());
  if (!times)
    return fail(llvm::toString(times.takeError()));
  setMedian(row, times->first);
  if (second)
    setAbMedians(row, *times);
  Work work = family.work(job.c);
  double seconds = *row.medianMs * 1e-3;
  if (work.flops > 0)
    row.gflops = work.flops / seconds * 1e-9;
  else if (work.bytes > 0)
    row.gbps = work.bytes / seconds * 1e-9;
  setPeakFraction(row, work, settings);
  row.peakRssMb = peakRssMb();
  checkTolerance(row, family, "rel_error");
  return row;
}

void setMedian(Row &row, std::vector<double> times) {
  std::sort(times.begin(), times.end());
  row.medianMs = quantile(times, 0.5);
  row.q1Ms = quantile(times, 0.25);
  row.q3Ms = quantile(times, 0.75);
}

void setAbMedians(Row &row, const TimesInTurn &times) {
  row.abMedianMs = medianOf(times.second);
  row.abRatio = medianOf(times.ratios);
}

Row medianRound(const std::vector<Row> &rounds) {
  std::vector<size_t> timed;
  for (size_t i = 0; i < rounds.size(); ++i) {
    if (rounds[i].status != "ok")
      return rounds[i];
    if (rounds[i].medianMs)
      timed.push_back(i);
  }
  if (timed.empty())
    return rounds.front();
  std::sort(timed.begin(), timed.end(), [&](size_t a, size_t b) {
    return *rounds[a].medianMs < *rounds[b].medianMs;
  });
  Row row = rounds[timed[timed.size() / 2]];
  row.roundMediansMs.clear();
  for (const Row &round : rounds)
    if (round.medianMs)
      row.roundMediansMs.push_back(*round.medianMs);
  return row;
}

double medianOf(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  return quantile(times, 0.5);
}

void checkTolerance(Row &row, const OpBench &family, const std::string &what) {
  if (*row.relError <= family.tolerance())
    return;
  char tol[32];
  std::snprintf(tol, sizeof(tol), "%g", family.tolerance());
  row.status = "inaccurate";
  row.reason = what + " above the " + std::string(tol) + " tolerance of " +
               family.toleranceName();
}

std::unique_ptr<mlir::MLIRContext> newCompilerContext() {
  mlir::DialectRegistry registry;
  mc::registerCompilerDialects(registry);
  return std::make_unique<mlir::MLIRContext>(registry);
}

Row emptyRow(const Job &job) {
  Row row;
  row.op = job.family->op();
  row.name = job.c.name;
  row.impl = job.impl;
  row.shapes = job.c.shape.str();
  return row;
}

double peakRssMb() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0; // ru_maxrss is in KiB on Linux
}

Row runJobIsolated(const Job &job, const RunSettings &settings) {
  int fds[2];
  if (pipe(fds) != 0)
    return runJob(job, settings);
  fflush(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    std::string text;
    llvm::raw_string_ostream os(text);
    os << json::Value(toJson(runJob(job, settings)));
    for (size_t done = 0; done < text.size();) {
      ssize_t n = write(fds[1], text.data() + done, text.size() - done);
      if (n <= 0)
        break;
      done += n;
    }
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char chunk[4096];
  for (ssize_t n; (n = read(fds[0], chunk, sizeof(chunk))) > 0;)
    text.append(chunk, n);
  close(fds[0]);
  int status = 0;
  struct rusage usage;
  wait4(pid, &status, 0, &usage);
  Row row;
  llvm::Expected<json::Value> parsed = json::parse(text);
  if (parsed && parsed->getAsObject()) {
    row = fromJson(*parsed->getAsObject());
  } else {
    if (!parsed)
      llvm::consumeError(parsed.takeError());
    row = emptyRow(job);
    row.status = "error";
    row.reason = WIFSIGNALED(status)
                     ? "the child process was " + describeWaitStatus(status)
                     : "the child process sent no result";
  }
  if (row.status == "ok" || row.status == "inaccurate")
    row.peakRssMb = usage.ru_maxrss / 1024.0;
  return row;
}

} // namespace mixer::bench
