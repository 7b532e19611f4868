//===- mixer-bench.cpp - time mixer ops against the reference and PyTorch -===//
//
//   mixer-bench [--suite cpu|smoke|train|scans|kernels|moe|gpu|gpu-smoke|OP]
//               [--op NAME]
//               [--filter SUBSTR,...] [--threads N] [--repeat N] [--json FILE]
//               [--isolate] [--fwd-bwd] [--calibrate] [--no-calibrate]
//               [--no-compare] [--no-alternatives] [--bench-python PATH]
//               [--mcpu CPU] [--object-dir DIR]
//
// The driver: options, suite selection, progress, and the order of the
// work. Each op family (OpBench.h, one file per op) gives its cases; for
// each case Runner compiles it through the CPU pipeline and the JIT (timed
// apart), runs it on random inputs, checks it against the fp64 reference,
// times warm calls that reuse their buffers and reads the peak memory.
// PyTorch rows of the same shapes come from the family's script in bench/
// (Torch); the libraries of the project's bench venv (scripts/setup.sh
// --bench) give rows of their own on the same inputs (Alternatives).
// Differentiable ops also get fwd+bwd rows (the forward, then its
// @op_vjp; FwdBwdRunner) beside PyTorch autograd's, each PyTorch case then
// in a process of its own. The GPU suites run each case through the NVVM
// pipeline and the CUDA runtime instead, with cuBLAS rows for the
// GEMM-shaped ones (GpuRunner). Report writes a table to stdout and, with
// --json, one row per case and implementation.
//
//===----------------------------------------------------------------------===//

#include "Alternatives.h"
#include "Calibrate.h"
#include "CodeTarget.h"
#include "ComparisonNotes.h"
#include "GpuRunner.h"
#include "OpBench.h"
#include "Report.h"
#include "Runner.h"
#include "Steadiness.h"
#include "Torch.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace mixer::bench;
namespace json = llvm::json;

namespace {
/// The command line (parsed by hand: libMLIR registers global llvm::cl
/// options of the same names, such as --threads).
struct Options {
  std::string suite = "cpu";
  std::string opFilter, caseFilter, jsonFile;
  int threads = 0;
  int repeat = 10;
  /// Rounds of the suite's mixer rows (mixer-bench --rounds).
  int rounds = 1;
  bool isolate = false, fwdBwd = false, calibrateOnly = false,
       noCalibrate = false, noCompare = false, noRuntimeChecks = false,
       gradFd = false, noCublas = false, compileOnly = false,
       noAlternatives = false;
  /// GPU suites with --compile-only: the chip to compile for.
  std::string chip = "sm_90a";
  /// Largest naive work checked against the fp64 reference (GPU suites).
  double referenceMaxWork = 2e9;
  /// GPU suites: measured seconds after which a case's timing stops.
  double maxCaseSeconds = 20;
  /// Largest naive work (OpBench::naiveWork) run through the naive pipeline.
  double naiveMaxWork = 7.0e7;
  std::string torchScript;
  /// The CPU to compile for (an LLVM name); empty: this machine's.
  std::string mcpu;
  /// Where the compiled cases' objects go (empty: nowhere).
  std::string objectDir;
  /// Whether the JIT writes LLVM's jitdump for perf (--perf-profile).
  bool perfProfile = false;
  /// The second build's CPU pipeline options (--ab; empty: one build).
  std::string abOptions;
  std::string python = "/usr/bin/python3";
  /// The bench venv's Python (default: .venv-bench/ of the source tree).
  std::string benchPython;
};

const char *kUsage =
    "usage: mixer-bench [options]\n"
    "  --suite NAME         cases to run: cpu (every op family that lowers),\n"
    "                       smoke (one small case per family), train (the\n"
    "                       fwd+bwd shapes of the differentiable ops), scans,\n"
    "                       kernels, moe, or an op name such as ssd;\n"
    "                       gpu (the public GPU shapes on a CUDA device,\n"
    "                       with cuBLAS for the GEMM-shaped cases) or\n"
    "                       gpu-smoke (small cases of every op on the GPU)\n"
    "  --op NAME            only the cases of this op\n"
    "  --filter SUBSTR,...  only cases whose name contains one of SUBSTRs\n"
    "  --threads N          threads (OMP_NUM_THREADS; default: all cores)\n"
    "  --repeat N           timed calls per case (default 10)\n"
    "  --rounds N           time every row but the naive ones N times, one\n"
    "                       round of the cases after another, and keep each\n"
    "                       row's median round (CPU suites; default 1)\n"
    "  --json FILE          write the results as JSON\n"
    "  --isolate            run each case in a fresh child process\n"
    "  --fwd-bwd            add fwd+bwd rows (forward, then the op's VJP) of\n"
    "                       differentiable ops (always in smoke and train)\n"
    "  --calibrate          measure the FMA peak, the triad bandwidth and the\n"
    "                       pipeline's exp throughput, then exit\n"
    "  --no-calibrate       skip that measurement (made before the cases\n"
    "                       and again after them, keeping the higher)\n"
    "  --no-compare         skip every comparison row\n"
    "  --no-alternatives    skip the rows of the bench venv's libraries\n"
    "                       (JAX, mamba2-jax, ott-jax, pykeops, geomloss,\n"
    "                       flash-linear-attention, the newest PyTorch)\n"
    "  --bench-python PATH  the bench venv's Python (default: .venv-bench/\n"
    "                       of the source tree, made by scripts/setup.sh\n"
    "                       --bench)\n"
    "  --grad-check fd      check fwd+bwd gradients by finite differences\n"
    "                       only (default: the fp64 reference's, if any)\n"
    "  --mcpu CPU           compile for CPU (LLVM's names: haswell, znver3,\n"
    "                       skylake-avx512, ...; default: this machine's),\n"
    "                       whose code must run on this machine; the\n"
    "                       FMA ceiling and PyTorch's kernels follow its\n"
    "                       vector ISA (CPU suites)\n"
    "  --object-dir DIR     write each case's machine code, as JIT-compiled,\n"
    "                       to DIR/CASE.IMPL.o (CPU suites)\n"
    "  --ab OPTIONS         also build each mixer row with these CPU\n"
    "                       pipeline options (\"target-overrides=...\"),\n"
    "                       call both builds in turn and report the median\n"
    "                       over the pairs of the first's time over the\n"
    "                       second's (CPU suites; fwd+bwd rows too)\n"
    "  --perf-profile       tell perf where the JIT-compiled code lies\n"
    "                       (jit-PID.dump under $JITDUMPDIR or ~/.debug/jit):\n"
    "                       profile with `perf record -k 1 mixer-bench\n"
    "                       --perf-profile ...`, then `perf inject --jit`\n"
    "  --no-runtime-checks  compile without the run-time checks\n"
    "                       (runtime-checks=false), to measure their cost\n"
    "  --naive-max-work W   largest naive work (inner-loop iterations, e.g.\n"
    "                       B*L*H*P*N of ssd) for the naive pipeline\n"
    "  --reference-max-work W  GPU suites: check against the fp64\n"
    "                       reference only cases of naive work up to W\n"
    "  --no-cublas          GPU suites: no cuBLAS rows\n"
    "  --max-case-seconds S GPU suites: stop timing a case after S seconds\n"
    "                       of timed calls (default 20; at least one call)\n"
    "  --compile-only       GPU suites: only compile every case (for\n"
    "                       --chip, sm_90a by default; no GPU needed)\n"
    "  --torch-script PATH  replaces every family's PyTorch script\n"
    "  --python PATH        the Python that imports torch\n";

/// Parses argv into `opts`; prints the usage and returns false on an
/// unknown option or a missing value.
bool parseCommandLine(int argc, char **argv, Options &opts) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    bool hasValue = false;
    if (size_t eq = arg.find('='); eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      hasValue = true;
    }
    auto next = [&](std::string &out) {
      if (!hasValue) {
        if (i + 1 >= argc)
          return false;
        value = argv[++i];
      }
      out = value;
      return true;
    };
    std::string v;
    bool ok = true;
    if (arg == "--help" || arg == "-h") {
      llvm::outs() << kUsage;
      std::exit(0);
    } else if (arg == "--suite") {
      ok = next(opts.suite);
    } else if (arg == "--op") {
      ok = next(opts.opFilter);
    } else if (arg == "--filter") {
      ok = next(opts.caseFilter);
    } else if (arg == "--json") {
      ok = next(opts.jsonFile);
    } else if (arg == "--torch-script") {
      ok = next(opts.torchScript);
    } else if (arg == "--python") {
      ok = next(opts.python);
    } else if (arg == "--bench-python") {
      ok = next(opts.benchPython);
    } else if (arg == "--no-alternatives") {
      opts.noAlternatives = true;
    } else if (arg == "--threads") {
      ok = next(v) && llvm::to_integer(v, opts.threads) && opts.threads >= 0;
    } else if (arg == "--repeat") {
      ok = next(v) && llvm::to_integer(v, opts.repeat) && opts.repeat >= 1;
    } else if (arg == "--rounds") {
      ok = next(v) && llvm::to_integer(v, opts.rounds) && opts.rounds >= 1;
    } else if (arg == "--naive-max-work") {
      ok = next(v) && llvm::to_float(v, opts.naiveMaxWork);
    } else if (arg == "--reference-max-work") {
      ok = next(v) && llvm::to_float(v, opts.referenceMaxWork);
    } else if (arg == "--max-case-seconds") {
      ok = next(v) && llvm::to_float(v, opts.maxCaseSeconds) &&
           opts.maxCaseSeconds > 0;
    } else if (arg == "--no-cublas") {
      opts.noCublas = true;
    } else if (arg == "--compile-only") {
      opts.compileOnly = true;
    } else if (arg == "--mcpu") {
      ok = next(opts.mcpu) && !opts.mcpu.empty();
    } else if (arg == "--object-dir") {
      ok = next(opts.objectDir) && !opts.objectDir.empty();
    } else if (arg == "--ab") {
      ok = next(opts.abOptions) && !opts.abOptions.empty();
    } else if (arg == "--perf-profile") {
      opts.perfProfile = true;
    } else if (arg == "--chip") {
      ok = next(opts.chip);
    } else if (arg == "--isolate") {
      opts.isolate = true;
    } else if (arg == "--grad-check") {
      ok = next(v) && (v == "fd" || v == "reference");
      opts.gradFd = v == "fd";
    } else if (arg == "--fwd-bwd") {
      opts.fwdBwd = true;
    } else if (arg == "--calibrate") {
      opts.calibrateOnly = true;
    } else if (arg == "--no-calibrate") {
      opts.noCalibrate = true;
    } else if (arg == "--no-compare") {
      opts.noCompare = true;
    } else if (arg == "--no-runtime-checks") {
      opts.noRuntimeChecks = true;
    } else {
      llvm::errs() << "mixer-bench: unknown option '" << argv[i] << "'\n"
                   << kUsage;
      return false;
    }
    if (!ok) {
      llvm::errs() << "mixer-bench: bad or missing value for '" << arg
                   << "'\n";
      return false;
    }
  }
  return true;
}

std::string cpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      return llvm::StringRef(line).substr(colon + 1).trim().str();
    }
  return "unknown";
}

/// Beside a chunked form's count at the case's chunk_size (the same for
/// every row of a case, as the PyTorch scripts count it), what it means for
/// mixer's forward rows when their code runs shorter chunks (the backward
/// keeps the op's chunk): "" where it does not.
std::string chunkCountNote(const OpBench &family,
                           const mlir::mixer::TargetDescription &target) {
  int64_t limit = target.scanChunkLimit;
  if (!family.countsOpChunk() || limit <= 0)
    return "";
  return " (nominal for mixer's forward rows, whose code runs chunks of at "
         "most " +
         std::to_string(limit) + " tokens: fewer flops where Q > " +
         std::to_string(limit) +
         ", so their % peak is a rate of this count, not the share of the "
         "FMA units kept busy)";
}

/// The suites some family has cases in, for the error message.
std::vector<std::string>
knownSuites(const std::vector<std::unique_ptr<OpBench>> &families) {
  std::vector<std::string> candidates = {"cpu",     "smoke", "train", "scans",
                                         "kernels", "moe",   "gpu",   "gpu-smoke"};
  for (const auto &f : families)
    candidates.push_back(f->op());
  std::vector<std::string> known;
  for (const std::string &s : candidates)
    for (const auto &f : families)
      if (!f->cases(s == "gpu-smoke" ? "smoke" : s).empty()) {
        known.push_back(s);
        break;
      }
  return known;
}

/// A family's cases in the suite that pass --op and --filter (a comma-
/// separated list of substrings, one of which the name contains).
std::vector<Case> selectedCases(const OpBench &family, const Options &opts) {
  std::vector<Case> out;
  if (!opts.opFilter.empty() && family.op() != opts.opFilter)
    return out;
  // The GPU check runs the smoke cases, unless a family has its own.
  std::vector<Case> cases = family.cases(opts.suite);
  if (cases.empty() && opts.suite == "gpu-smoke")
    cases = family.cases("smoke");
  llvm::SmallVector<llvm::StringRef> alternatives;
  llvm::StringRef(opts.caseFilter).split(alternatives, ',', -1, false);
  for (Case &c : cases)
    if (alternatives.empty() ||
        llvm::any_of(alternatives, [&](llvm::StringRef a) {
          return llvm::StringRef(c.name).contains(a);
        }))
      out.push_back(std::move(c));
  return out;
}
bool isGpuSuite(const std::string &suite) {
  return suite == "gpu" || suite == "gpu-smoke";
}

/// The GPU suites: every case on the CUDA device, then cuBLAS for the
/// GEMM-shaped ones, then with --fwd-bwd the forward and backward of the
/// differentiable ops. Without a device every case is a skipped row saying
/// why, the message goes to stderr and the exit status is 1.
int runGpuSuite(const Options &opts,
                const std::vector<std::unique_ptr<OpBench>> &families) {
  std::vector<Job> jobs;
  for (const auto &family : families)
    for (const Case &c : selectedCases(*family, opts)) {
      jobs.push_back({family.get(), c, "mixer-cuda"});
      if (opts.fwdBwd && family->differentiable())
        jobs.push_back({family.get(), c, kGpuFwdBwdImpl});
    }

  GpuSettings settings;
  settings.repeat = opts.repeat;
  settings.referenceMaxWork = opts.referenceMaxWork;
  settings.runtimeChecks = !opts.noRuntimeChecks;
  settings.compareCublas = !opts.noCublas;
  settings.maxCaseSeconds = opts.maxCaseSeconds;

  json::Object machine{{"cpu", cpuModel()},
                       {"cores", int64_t(std::thread::hardware_concurrency())}};
  std::vector<Row> rows;
  if (opts.compileOnly) {
    for (const Job &job : jobs)
      rows.push_back(compileGpuJob(job, opts.chip, settings));
    printTable(rows, llvm::outs());
    bool allCompiled = llvm::all_of(
        rows, [](const Row &row) { return row.status == "ok"; });
    return allCompiled ? 0 : 1;
  }
  llvm::Expected<GpuDevice> device = getGpuDevice();
  std::string noDevice;
  if (!device) {
    noDevice = llvm::toString(device.takeError());
    llvm::errs() << "mixer-bench: the " << opts.suite
                 << " suite cannot run: " << noDevice << "\n";
    machine["gpu"] = nullptr;
    for (const Job &job : jobs) {
      Row row;
      row.op = job.family->op();
      row.name = job.c.name;
      row.impl = job.impl;
      row.shapes = job.c.shape.str();
      row.status = "skipped";
      row.reason = noDevice;
      rows.push_back(std::move(row));
    }
  } else {
    machine["gpu"] = device->toJson();
    llvm::outs() << llvm::format(
        "device: %s (%s, %d SMs): TF32 tensor peak %.0f TFLOP/s, FP32 %.1f "
        "TFLOP/s, memory %.2f TB/s\n",
        device->name.c_str(), device->chip.c_str(), device->multiprocessors,
        device->tensorTflops, device->fp32Tflops, device->memoryTbps);
    Clock::time_point suiteStart = Clock::now();
    for (size_t i = 0; i < jobs.size(); ++i) {
      const Job &job = jobs[i];
      if (isatty(2))
        llvm::errs() << "case " << (i + 1) << "/" << jobs.size() << " "
                     << job.c.name << " (" << int(secondsSince(suiteStart))
                     << "s so far)\n";
      rows.push_back(runGpuJob(job, *device, settings));
      if (job.impl != kGpuFwdBwdImpl && settings.compareCublas &&
          !job.family->gemms(job.c).empty())
        rows.push_back(runCublasJob(job, *device, settings));
    }
  }

  printTable(rows, llvm::outs());
  printSummary(rows, llvm::outs());
  if (opts.fwdBwd)
    printFwdBwdSummary(rows, llvm::outs());
  if (!opts.jsonFile.empty()) {
    json::Object versions{{"llvm", LLVM_VERSION_STRING},
                          {"compiler", __VERSION__}};
    json::Object config{{"suite", opts.suite},
                        {"op", opts.opFilter},
                        {"filter", opts.caseFilter},
                        {"repeat", opts.repeat},
                        {"reference_max_work", opts.referenceMaxWork},
                        {"max_case_seconds", opts.maxCaseSeconds},
                        {"fwd_bwd", opts.fwdBwd},
                        {"timing", "CUDA events on the default stream around "
                                   "each call of the device-pointer entry "
                                   "point (median of --repeat calls after "
                                   "one warm-up, fewer after "
                                   "--max-case-seconds)"}};
    if (!noDevice.empty())
      config["error"] = noDevice;
    for (const auto &family : families)
      config["flops_" + family->op()] = family->workFormula();
    if (!writeJson(opts.jsonFile, std::move(machine), std::move(versions),
                   std::move(config), rows))
      return 1;
  }
  return noDevice.empty() ? 0 : 1;
}

/// Calibrates again after the cases and keeps the highest of each ceiling
/// over that, the calibration before them and those `between` rounds (the
/// JSON's machine fields; the measurements beside them as
/// calibration_before, calibration_between_rounds and calibration_after),
/// then makes every row's fraction one of the kept ceilings: a slow minute
/// of a shared machine during one calibration would otherwise raise every
/// fraction of the run. Returns the unsteady-machine note (empty when the
/// FMA peak held), also kept in the JSON as `unsteady`, beside the drift
/// `fma_drift`.
std::string recalibrateAfterCases(
    const Calibration &before, llvm::ArrayRef<Calibration> between, int threads,
    const CodeTarget &target,
    const std::vector<std::pair<const OpBench *, std::vector<Case>>> &perFamily,
    json::Object &machine, RunSettings &run, std::vector<Row> &rows) {
  if (isatty(2))
    llvm::errs() << "calibrating again after the cases...\n";
  Calibration after = measureCalibration(threads, target);
  printCalibration(after, threads, "after the cases", llvm::outs());
  Calibration kept = higherOf(before, after);
  json::Array betweenJson;
  for (const Calibration &c : between) {
    kept = higherOf(kept, c);
    betweenJson.push_back(calibrationJson(c));
  }
  recordCalibration(kept, threads, machine);
  machine["calibration_before"] = calibrationJson(before);
  if (!between.empty())
    machine["calibration_between_rounds"] = std::move(betweenJson);
  machine["calibration_after"] = calibrationJson(after);
  printCalibration(kept, threads,
                   between.empty()
                       ? "ceilings (the higher of both)"
                       : "ceilings (the highest of all " +
                             std::to_string(between.size() + 2) + ")",
                   llvm::outs());
  machine["fma_drift"] = ceilingDrift(before.fma.gflops(), after.fma.gflops());
  std::string unsteady =
      unsteadyMachineNote(before.fma.gflops(), after.fma.gflops());
  if (!unsteady.empty())
    machine["unsteady"] = unsteady;
  run.ceilings = kept.ceilings();
  for (Row &row : rows) {
    if (row.peak.empty())
      continue;
    for (const auto &[family, cases] : perFamily)
      for (const Case &c : cases)
        if (family->op() == row.op && c.name == row.name) {
          row.peak.clear();
          row.peakFraction.reset();
          setPeakFraction(row, family->work(c), run);
        }
  }
  return unsteady;
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  Options opts;
  if (!parseCommandLine(argc, argv, opts))
    return 1;

  int numThreads =
      opts.threads > 0
          ? opts.threads
          : int(std::max(1u, std::thread::hardware_concurrency()));
  // Read by the OpenMP runtime when the JIT loads it, hence before any case.
  setenv("OMP_NUM_THREADS", std::to_string(numThreads).c_str(), 1);

  if (isGpuSuite(opts.suite) && !opts.calibrateOnly) {
    if (!opts.mcpu.empty()) {
      llvm::errs() << "mixer-bench: --mcpu is an option of the CPU suites\n";
      return 1;
    }
    return runGpuSuite(opts, allFamilies());
  }

  llvm::Expected<CodeTarget> target = resolveCodeTarget(opts.mcpu);
  if (!target) {
    llvm::errs() << "mixer-bench: --mcpu " << opts.mcpu << ": "
                 << llvm::toString(target.takeError()) << "\n";
    return 1;
  }
  setCurrentCodeTarget(*target);
  llvm::outs() << target->summary() << "\n";

  RunSettings run;
  run.threads = opts.threads;
  run.repeat = opts.repeat;
  run.naiveMaxWork = opts.naiveMaxWork;
  run.runtimeChecks = !opts.noRuntimeChecks;
  run.finiteDifferenceOnly = opts.gradFd;
  run.targetCpu = target->cpu;
  run.targetFeatures = target->features;
  run.objectDir = opts.objectDir;
  run.perfProfile = opts.perfProfile;
  run.abOptions = opts.abOptions;

  json::Object machine{{"cpu", cpuModel()},
                       {"cores", int64_t(std::thread::hardware_concurrency())}};
  target->addTo(machine);
  Calibration before;
  if (opts.calibrateOnly || !opts.noCalibrate) {
    if (isatty(2))
      llvm::errs() << "calibrating on " << numThreads << " threads...\n";
    before = measureCalibration(numThreads, *target);
    recordCalibration(before, numThreads, machine);
    printCalibration(before, numThreads, "machine: " + cpuModel(),
                     llvm::outs());
    run.ceilings = before.ceilings();
    if (opts.calibrateOnly)
      return 0;
  } else {
    machine["fma_peak_gflops"] = nullptr;
    machine["triad_gbps"] = nullptr;
    machine["exp_gps"] = nullptr;
  }

  // Suite selection: per family its cases, each through both pipelines.
  std::vector<std::unique_ptr<OpBench>> families = allFamilies();
  std::vector<std::string> suites = knownSuites(families);
  if (std::find(suites.begin(), suites.end(), opts.suite) == suites.end()) {
    llvm::errs() << "mixer-bench: unknown suite '" << opts.suite
                 << "' (known: " << llvm::join(suites, ", ") << ")\n";
    return 1;
  }
  // The train suite times mixer's forward beside fwd+bwd (no naive rows).
  bool train = opts.suite == "train";
  bool fwdBwd = opts.fwdBwd || train || opts.suite == "smoke";
  std::vector<Job> jobs;
  std::vector<std::pair<const OpBench *, std::vector<Case>>> perFamily;
  for (const auto &family : families) {
    std::vector<Case> cases = selectedCases(*family, opts);
    for (const Case &c : cases) {
      jobs.push_back({family.get(), c, "mixer"});
      if (!train)
        jobs.push_back({family.get(), c, "mixer-naive"});
      if (fwdBwd && family->differentiable())
        jobs.push_back({family.get(), c, kFwdBwdImpl});
    }
    if (!cases.empty())
      perFamily.push_back({family.get(), std::move(cases)});
  }

  // With --rounds, the cases run round after round (the naive rows in the
  // first only), so that a slow minute of a shared machine lands in one
  // round of a case, which its median round then leaves out.
  std::vector<std::vector<Row>> rounds(jobs.size());
  Clock::time_point suiteStart = Clock::now();
  auto roundsOf = [&](const Job &job) {
    return job.impl == "mixer-naive" ? 1 : opts.rounds;
  };
  size_t runs = 0, total = 0;
  for (const Job &job : jobs)
    total += roundsOf(job);
  // Between rounds the ceilings are measured again: the exp rate of a
  // shared machine can stay low for a minute, and the ceilings kept are
  // the highest measured.
  std::vector<Calibration> between;
  for (int round = 0; round < opts.rounds; ++round) {
    if (round > 0 && !opts.noCalibrate && !jobs.empty()) {
      between.push_back(measureCalibration(numThreads, *target));
      printCalibration(between.back(), numThreads,
                       "before round " + std::to_string(round + 1),
                       llvm::outs());
    }
    for (size_t i = 0; i < jobs.size(); ++i) {
      const Job &job = jobs[i];
      if (round >= roundsOf(job))
        continue;
      if (isatty(2)) {
        double elapsed = secondsSince(suiteStart);
        llvm::errs() << "case " << (runs + 1) << "/" << total << " "
                     << job.c.name << " " << job.impl << " ...";
        if (runs > 0)
          llvm::errs() << " ~" << int(elapsed / runs * (total - runs) + 0.5)
                       << "s left";
        llvm::errs() << "\n";
      }
      rounds[i].push_back(opts.isolate ? runJobIsolated(job, run)
                                       : runJob(job, run));
      ++runs;
    }
  }
  std::vector<Row> rows;
  for (const std::vector<Row> &jobRounds : rounds)
    rows.push_back(jobRounds.size() > 1 ? medianRound(jobRounds)
                                        : jobRounds.front());

  json::Object versions{{"llvm", LLVM_VERSION_STRING},
                        {"compiler", __VERSION__}};
  std::string comparisonNotRun = opts.noCompare ? "--no-compare" : "";
  bool torchScriptsRan = false;
  if (!opts.noCompare && !jobs.empty()) {
    TorchSettings torch;
    torch.python = opts.python;
    torch.sourceDir = MIXER_SOURCE_DIR;
    torch.scriptOverride = opts.torchScript;
    torch.threads = numThreads;
    torch.repeat = opts.repeat;
    torch.cpu = target->torch;
    torchScriptsRan = torchAvailable(torch);
    if (torchScriptsRan) {
      for (auto &[family, cases] : perFamily) {
        if (isatty(2))
          llvm::errs() << "running the PyTorch comparison of " << family->op()
                       << "...\n";
        std::vector<Row> torchRows;
        if (!fwdBwd || !family->differentiable()) {
          torchRows = runTorch(*family, cases, torch, versions);
        } else {
          // One process per case and mode: each peak RSS is its case's.
          for (const Case &c : cases)
            for (bool backward : {false, true})
              for (Row &r : runTorch(*family, {c}, torch, versions, backward))
                torchRows.push_back(std::move(r));
        }
        for (Row &r : torchRows) {
          for (const Case &c : cases)
            if (!r.peakFraction && c.name == r.name)
              setPeakFraction(r, family->work(c), run);
          rows.push_back(std::move(r));
        }
      }
    } else {
      comparisonNotRun = opts.python + " cannot import torch";
      llvm::errs() << "mixer-bench: no comparison rows (" << comparisonNotRun
                   << ")\n";
    }
  }
  bool alternatives = !opts.noCompare && !opts.noAlternatives && !train;
  if (alternatives && !jobs.empty()) {
    AlternativeSettings alt;
    alt.python = opts.benchPython.empty() ? benchVenvPython(MIXER_SOURCE_DIR)
                                          : opts.benchPython;
    alt.sourceDir = MIXER_SOURCE_DIR;
    alt.threads = numThreads;
    alt.repeat = opts.repeat;
    alt.torchScriptsRan = torchScriptsRan;
    alt.torchCpu = target->torch;
    if (alt.python.empty()) {
      llvm::errs() << "mixer-bench: no alternatives' rows (no bench venv: "
                      "scripts/setup.sh --bench)\n";
    } else {
      for (auto &[family, cases] : perFamily) {
        if (isatty(2))
          llvm::errs() << "running the alternatives of " << family->op()
                       << "...\n";
        for (Row &r : runAlternatives(*family, cases, alt, versions)) {
          for (const Case &c : cases)
            if (!r.peakFraction && c.name == r.name)
              setPeakFraction(r, family->work(c), run);
          rows.push_back(std::move(r));
        }
      }
    }
  }
  std::string unsteady;
  if (!opts.noCalibrate && !jobs.empty())
    unsteady = recalibrateAfterCases(before, between, numThreads, *target,
                                     perFamily, machine, run, rows);

  // Cases together, in suite order (rows of one case keep their order).
  auto caseIndex = [&](const std::string &name) {
    for (size_t i = 0; i < jobs.size(); ++i)
      if (jobs[i].c.name == name)
        return i;
    return jobs.size();
  };
  std::vector<std::pair<size_t, size_t>> order;
  for (size_t i = 0; i < rows.size(); ++i)
    order.push_back({caseIndex(rows[i].name), i});
  std::sort(order.begin(), order.end());
  std::vector<Row> sorted;
  for (auto [caseIdx, i] : order)
    sorted.push_back(rows[i]);
  rows = std::move(sorted);

  printTable(rows, llvm::outs());
  printSummary(rows, llvm::outs());
  printComparisonNotes(rows, comparisonNotRun, llvm::outs());
  if (fwdBwd)
    printFwdBwdSummary(rows, llvm::outs());
  printAbSummary(rows, llvm::outs());
  if (!unsteady.empty())
    llvm::outs() << "\n" << unsteady << "\n";

  if (!opts.jsonFile.empty()) {
    json::Object config{{"suite", opts.suite},
                        {"op", opts.opFilter},
                        {"filter", opts.caseFilter},
                        {"threads", numThreads},
                        {"repeat", opts.repeat},
                        {"rounds", opts.rounds},
                        {"ab_options", opts.abOptions},
                        {"mcpu", opts.mcpu.empty() ? "host" : opts.mcpu},
                        {"isolate", opts.isolate},
                        {"fwd_bwd", fwdBwd},
                        {"alternatives", alternatives},
                        {"grad_check", opts.gradFd ? "fd" : "reference"},
                        {"naive_max_work", opts.naiveMaxWork}};
    for (auto &[family, cases] : perFamily)
      config["flops_" + family->op()] =
          family->workFormula() + chunkCountNote(*family, target->description);
    if (!writeJson(opts.jsonFile, std::move(machine), std::move(versions),
                   std::move(config), rows))
      return 1;
  }
  return 0;
}
