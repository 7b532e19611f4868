//===- mixer-bench.cpp - time mixer ops against the reference and PyTorch -===//
//
//   mixer-bench [--suite cpu|ssd] [--op NAME] [--filter SUBSTR] [--threads N]
//               [--repeat N] [--json FILE] [--isolate] [--calibrate]
//               [--no-calibrate] [--no-compare]
//
// For each case (an op at given shapes through a pipeline): builds the MLIR
// text, compiles it through the CPU pipeline and the JIT (timed apart), runs
// it on random inputs, checks it against the fp64 reference, times warm
// calls that reuse their buffers and reads the peak memory. PyTorch rows of
// the same shapes come from bench/torch_ssd.py, run as a subprocess. Writes
// a table to stdout and, with --json, one row per case and implementation.
//
//===----------------------------------------------------------------------===//

#include "Calibrate.h"

#include "mixer/Execution/Compile.h"
#include "mixer/Execution/JitModule.h"
#include "mixer/Pipelines/Pipelines.h"
#include "mixer/Reference/Reference.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace mlir;
namespace json = llvm::json;
namespace mc = ::mlir::mixer;
namespace mref = ::mixer::ref;
namespace mbench = ::mixer::bench;

namespace {
/// The command line (parsed by hand: libMLIR registers global llvm::cl
/// options of the same names, such as --threads).
std::string suite = "cpu";
std::string opFilter, caseFilter, jsonFile;
int threads = 0;
int repeat = 10;
bool isolate = false, calibrateOnly = false, noCalibrate = false,
     noCompare = false;
/// Largest B*L*H*P*N run through the naive pipeline.
double naiveMaxWork = 7.0e7;
std::string torchScript = MIXER_SOURCE_DIR "/bench/torch_ssd.py";
std::string python = "/usr/bin/python3";

const char *kUsage =
    "usage: mixer-bench [options]\n"
    "  --suite cpu|ssd      cases to run (cpu: every op family that lowers)\n"
    "  --op NAME            only the cases of this op\n"
    "  --filter SUBSTR      only cases whose name contains SUBSTR\n"
    "  --threads N          threads (OMP_NUM_THREADS; default: all cores)\n"
    "  --repeat N           timed calls per case (default 10)\n"
    "  --json FILE          write the results as JSON\n"
    "  --isolate            run each case in a fresh child process\n"
    "  --calibrate          measure FMA peak and triad bandwidth, then exit\n"
    "  --no-calibrate       skip that measurement before the cases\n"
    "  --no-compare         skip the PyTorch comparison rows\n"
    "  --naive-max-work W   largest B*L*H*P*N for the naive pipeline\n"
    "  --torch-script PATH  the PyTorch comparison script\n"
    "  --python PATH        the Python that imports torch\n";

/// Parses argv into the globals above; prints the usage and returns false
/// on an unknown option or a missing value.
bool parseCommandLine(int argc, char **argv) {
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
      ok = next(suite);
    } else if (arg == "--op") {
      ok = next(opFilter);
    } else if (arg == "--filter") {
      ok = next(caseFilter);
    } else if (arg == "--json") {
      ok = next(jsonFile);
    } else if (arg == "--torch-script") {
      ok = next(torchScript);
    } else if (arg == "--python") {
      ok = next(python);
    } else if (arg == "--threads") {
      ok = next(v) && llvm::to_integer(v, threads) && threads >= 0;
    } else if (arg == "--repeat") {
      ok = next(v) && llvm::to_integer(v, repeat) && repeat >= 1;
    } else if (arg == "--naive-max-work") {
      ok = next(v) && llvm::to_float(v, naiveMaxWork);
    } else if (arg == "--isolate") {
      isolate = true;
    } else if (arg == "--calibrate") {
      calibrateOnly = true;
    } else if (arg == "--no-calibrate") {
      noCalibrate = true;
    } else if (arg == "--no-compare") {
      noCompare = true;
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

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

//===----------------------------------------------------------------------===//
// Cases
//===----------------------------------------------------------------------===//

struct SsdShape {
  int64_t B, L, H, P, G, N, Q;
  bool init;
};

struct Case {
  std::string op;
  std::string name;
  std::string impl; // mixer | mixer-naive
  SsdShape ssd;
};

std::string shapeString(const SsdShape &s) {
  std::string str;
  llvm::raw_string_ostream os(str);
  os << "B=" << s.B << " L=" << s.L << " H=" << s.H << " P=" << s.P
     << " G=" << s.G << " N=" << s.N << " Q=" << s.Q
     << (s.init ? " init" : "");
  return str;
}

/// Mamba-2-like shapes scaled to a 2-core machine: 8 heads of 64 channels,
/// state 64, chunk 64; a decode step, prefills of growing length and a
/// batch-2 length that is not a multiple of the chunk with state 128.
std::vector<std::pair<std::string, SsdShape>> ssdShapes() {
  return {
      {"ssd-decode-L1", {1, 1, 8, 64, 1, 64, 64, true}},
      {"ssd-L512", {1, 512, 8, 64, 1, 64, 64, false}},
      {"ssd-L2048", {1, 2048, 8, 64, 1, 64, 64, false}},
      {"ssd-L8192", {1, 8192, 8, 64, 1, 64, 64, false}},
      {"ssd-B2-L1000-N128", {2, 1000, 4, 64, 1, 128, 64, true}},
  };
}

/// Nominal flops of chunked SSD: per token and head 2QN (scores C B^T) +
/// 2QP (scores times x) + 4NP (chunk state and its contribution to y), with
/// Q replaced by min(Q, L).
double ssdFlops(const SsdShape &s) {
  double q = std::min(s.Q, s.L);
  return double(s.B) * s.L * s.H *
         (2 * q * s.N + 2 * q * s.P + 4.0 * s.N * s.P);
}

std::string tensorType(std::initializer_list<int64_t> dims) {
  std::string str = "tensor<";
  for (int64_t d : dims)
    str += std::to_string(d) + "x";
  return str + "f32>";
}

/// func.func @ssd(x, log_a, b, c[, init], y_out, state_out) -> (y, state)
std::string ssdModule(const SsdShape &s) {
  std::string X = tensorType({s.B, s.L, s.H, s.P});
  std::string LA = tensorType({s.B, s.L, s.H});
  std::string BC = tensorType({s.B, s.L, s.G, s.N});
  std::string S = tensorType({s.B, s.H, s.P, s.N});
  std::string w = " {bufferization.writable = true}";
  std::string str;
  llvm::raw_string_ostream os(str);
  os << "func.func @ssd(%x: " << X << ", %la: " << LA << ", %b: " << BC
     << ", %c: " << BC;
  if (s.init)
    os << ", %h: " << S;
  os << ", %y0: " << X << w << ", %s0: " << S << w << ") -> (" << X << ", "
     << S << ") {\n";
  os << "  %y, %s = mixer.ssd chunk_size(" << s.Q << ") ins(%x, %la, %b, %c : "
     << X << ", " << LA << ", " << BC << ", " << BC << ")";
  if (s.init)
    os << " init(%h : " << S << ")";
  os << " outs(%y0, %s0 : " << X << ", " << S << ") -> " << X << ", " << S
     << "\n";
  os << "  return %y, %s : " << X << ", " << S << "\n}\n";
  return str;
}

//===----------------------------------------------------------------------===//
// Buffers passed to the JIT
//===----------------------------------------------------------------------===//

/// A 64-byte aligned f32 array with its memref descriptor
/// {allocated, aligned, offset, sizes[R], strides[R]}.
class Buffer {
public:
  explicit Buffer(std::vector<int64_t> shape) : shape(std::move(shape)) {
    int64_t n = numel();
    size_t bytes = ((std::max<int64_t>(n, 1) * 4 + 63) / 64) * 64;
    data = static_cast<float *>(std::aligned_alloc(64, bytes));
    std::fill(data, data + n, 0.0f);
    int64_t rank = this->shape.size();
    descriptor.assign(3 + 2 * rank, 0);
    descriptor[0] = reinterpret_cast<int64_t>(data);
    descriptor[1] = reinterpret_cast<int64_t>(data);
    int64_t stride = 1;
    for (int64_t i = rank - 1; i >= 0; --i) {
      descriptor[3 + i] = this->shape[i];
      descriptor[3 + rank + i] = stride;
      stride *= this->shape[i];
    }
  }
  Buffer(const Buffer &) = delete;
  ~Buffer() { std::free(data); }

  int64_t numel() const {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }
  void *desc() { return descriptor.data(); }

  std::vector<int64_t> shape;
  float *data;

private:
  std::vector<int64_t> descriptor;
};

/// Fills `buffer` with uniform values and returns them as the fp64 tensor
/// the reference sees (the same float values, widened).
mref::Tensor fillUniform(Buffer &buffer, mref::Rng &rng, double lo,
                               double hi) {
  for (int64_t i = 0, e = buffer.numel(); i < e; ++i)
    buffer.data[i] = static_cast<float>(rng.uniform(lo, hi));
  return mref::fromFloats(buffer.shape, buffer.data);
}

//===----------------------------------------------------------------------===//
// Rows
//===----------------------------------------------------------------------===//

struct Row {
  std::string op, name, impl, shapes;
  std::optional<double> medianMs, q1Ms, q3Ms, compileS, gflops, peakFraction,
      relError, peakRssMb;
  std::string status = "ok", reason;
};

json::Value optNumber(const std::optional<double> &v) {
  if (!v || !std::isfinite(*v))
    return nullptr;
  return *v;
}

json::Object toJson(const Row &row) {
  return json::Object{{"op", row.op},
                      {"case", row.name},
                      {"impl", row.impl},
                      {"shapes", row.shapes},
                      {"median_ms", optNumber(row.medianMs)},
                      {"q1_ms", optNumber(row.q1Ms)},
                      {"q3_ms", optNumber(row.q3Ms)},
                      {"compile_s", optNumber(row.compileS)},
                      {"gflops", optNumber(row.gflops)},
                      {"peak_fraction", optNumber(row.peakFraction)},
                      {"rel_error", row.relError && std::isinf(*row.relError)
                                        ? json::Value("inf")
                                        : optNumber(row.relError)},
                      {"peak_rss_mb", optNumber(row.peakRssMb)},
                      {"status", row.status},
                      {"reason", row.reason}};
}

std::optional<double> getNumber(const json::Object &o, llvm::StringRef key) {
  if (std::optional<double> v = o.getNumber(key))
    return v;
  if (std::optional<llvm::StringRef> s = o.getString(key); s && *s == "inf")
    return INFINITY;
  return std::nullopt;
}

Row fromJson(const json::Object &o) {
  Row row;
  auto str = [&](llvm::StringRef key) {
    std::optional<llvm::StringRef> s = o.getString(key);
    return s ? s->str() : std::string();
  };
  row.op = str("op");
  row.name = str("case");
  row.impl = str("impl");
  row.shapes = str("shapes");
  row.status = str("status");
  row.reason = str("reason");
  row.medianMs = getNumber(o, "median_ms");
  row.q1Ms = getNumber(o, "q1_ms");
  row.q3Ms = getNumber(o, "q3_ms");
  row.compileS = getNumber(o, "compile_s");
  row.gflops = getNumber(o, "gflops");
  row.peakFraction = getNumber(o, "peak_fraction");
  row.relError = getNumber(o, "rel_error");
  row.peakRssMb = getNumber(o, "peak_rss_mb");
  return row;
}

double peakRssMb() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0; // ru_maxrss is in KiB on Linux
}

/// The value below which `fraction` of the sorted `v` lies (linear
/// interpolation between neighbours).
double quantile(const std::vector<double> &sorted, double fraction) {
  double pos = fraction * (sorted.size() - 1);
  size_t lo = static_cast<size_t>(pos);
  size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
}

//===----------------------------------------------------------------------===//
// Running one case
//===----------------------------------------------------------------------===//

/// max |out - ref| / max |ref| over several outputs together; +infinity when
/// an output is not finite.
double combinedRelativeError(
    const std::vector<std::pair<const float *, const mref::Tensor *>>
        &outputs) {
  double maxDiff = 0, maxRef = 0;
  for (auto [out, ref] : outputs)
    for (int64_t i = 0, e = ref->numel(); i < e; ++i) {
      double d = std::fabs(double(out[i]) - (*ref)[i]);
      if (!std::isfinite(d))
        return INFINITY;
      maxDiff = std::max(maxDiff, d);
      maxRef = std::max(maxRef, std::fabs((*ref)[i]));
    }
  return maxRef > 0 ? maxDiff / maxRef : maxDiff;
}

Row runSsdCase(const Case &c, double fmaPeak) {
  Row row;
  row.op = c.op;
  row.name = c.name;
  row.impl = c.impl;
  row.shapes = shapeString(c.ssd);
  const SsdShape &s = c.ssd;
  if (c.impl == "mixer-naive" &&
      double(s.B) * s.L * s.H * s.P * s.N > naiveMaxWork) {
    row.status = "skipped";
    row.reason = "skipped: naive too slow at this size";
    return row;
  }

  // Compile: parse, CPU pipeline, JIT.
  Clock::time_point compileStart = Clock::now();
  DialectRegistry registry;
  mc::registerCompilerDialects(registry);
  MLIRContext context(registry);
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error && diagnostics.empty())
      diagnostics = diag.str();
    return success();
  });
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(ssdModule(s), ParserConfig(&context));
  auto fail = [&](const std::string &why) {
    row.status = "error";
    row.reason = why + (diagnostics.empty() ? "" : ": " + diagnostics);
    return row;
  };
  if (!module)
    return fail("cannot parse the generated module");
  mc::CpuPipelineOptions options;
  options.naive = c.impl == "mixer-naive";
  options.numThreads = threads;
  if (failed(mc::compileToLLVM(*module, options)))
    return fail("compilation failed");
  auto jit = mc::JitModule::create(*module);
  if (!jit)
    return fail("JIT failed: " + llvm::toString(jit.takeError()));
  row.compileS = secondsSince(compileStart);

  // Inputs and the reference.
  mref::Rng rng(20240611);
  Buffer x({s.B, s.L, s.H, s.P}), la({s.B, s.L, s.H}), b({s.B, s.L, s.G, s.N}),
      cc({s.B, s.L, s.G, s.N}), init({s.B, s.H, s.P, s.N}),
      y({s.B, s.L, s.H, s.P}), state({s.B, s.H, s.P, s.N});
  mref::Tensor rx = fillUniform(x, rng, -1, 1);
  mref::Tensor rla = fillUniform(la, rng, -1, 0);
  mref::Tensor rb = fillUniform(b, rng, -1, 1);
  mref::Tensor rc = fillUniform(cc, rng, -1, 1);
  mref::Tensor rinit = fillUniform(init, rng, -1, 1);
  mref::ScanResult ref =
      mref::ssd(rx, rla, rb, rc, s.init ? &rinit : nullptr);

  std::vector<void *> args = {x.desc(), la.desc(), b.desc(), cc.desc()};
  if (s.init)
    args.push_back(init.desc());
  args.push_back(y.desc());
  args.push_back(state.desc());

  // Warm-up (at least one call, at most 0.2 s of them), then the check.
  Clock::time_point warmStart = Clock::now();
  for (int i = 0; i < 20 && (i == 0 || secondsSince(warmStart) < 0.2); ++i)
    if (llvm::Error err = (*jit)->call("ssd", args))
      return fail("call failed: " + llvm::toString(std::move(err)));
  row.relError = combinedRelativeError(
      {{y.data, &ref.out}, {state.data, &ref.finalState}});

  std::vector<double> times;
  for (int i = 0; i < std::max(1, repeat); ++i) {
    Clock::time_point start = Clock::now();
    if (llvm::Error err = (*jit)->call("ssd", args))
      return fail("call failed: " + llvm::toString(std::move(err)));
    times.push_back(secondsSince(start) * 1e3);
  }
  std::sort(times.begin(), times.end());
  row.medianMs = quantile(times, 0.5);
  row.q1Ms = quantile(times, 0.25);
  row.q3Ms = quantile(times, 0.75);
  row.gflops = ssdFlops(s) / (*row.medianMs * 1e-3) * 1e-9;
  if (fmaPeak > 0)
    row.peakFraction = *row.gflops / fmaPeak;
  row.peakRssMb = peakRssMb();
  if (!(*row.relError <= 1e-4)) {
    row.status = "inaccurate";
    row.reason = "rel_error above the 1e-4 tolerance of scans";
  }
  return row;
}

Row runCase(const Case &c, double fmaPeak) {
  if (c.op == "ssd")
    return runSsdCase(c, fmaPeak);
  Row row;
  row.op = c.op;
  row.name = c.name;
  row.impl = c.impl;
  row.status = "error";
  row.reason = "no runner for op '" + c.op + "'";
  return row;
}

/// Runs `c` in a forked child that sends its row back through a pipe; the
/// row's peak memory is the child's.
Row runCaseIsolated(const Case &c, double fmaPeak) {
  int fds[2];
  if (pipe(fds) != 0)
    return runCase(c, fmaPeak);
  fflush(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    std::string text;
    llvm::raw_string_ostream os(text);
    os << json::Value(toJson(runCase(c, fmaPeak)));
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
    row.op = c.op;
    row.name = c.name;
    row.impl = c.impl;
    row.shapes = shapeString(c.ssd);
    row.status = "error";
    row.reason = WIFSIGNALED(status)
                     ? "crashed with signal " +
                           std::to_string(WTERMSIG(status))
                     : "the child process sent no result";
  }
  if (row.status == "ok" || row.status == "inaccurate")
    row.peakRssMb = usage.ru_maxrss / 1024.0;
  return row;
}

//===----------------------------------------------------------------------===//
// PyTorch comparison
//===----------------------------------------------------------------------===//

bool torchAvailable() {
  std::string cmd = python + " -c 'import torch' >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

/// Runs the comparison script on the ssd shapes of `cases`; one JSON row per
/// line of its output. `versions` receives the script's version line.
std::vector<Row> runTorch(const std::vector<Case> &cases, int numThreads,
                          json::Object &versions) {
  std::string cmd = "env";
  const char *jemalloc = "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2";
  if (llvm::sys::fs::exists(jemalloc))
    cmd += std::string(" LD_PRELOAD=") + jemalloc;
  cmd += " OPENBLAS_CORETYPE=SkylakeX ATEN_CPU_CAPABILITY=avx512"
         " OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=" +
         std::to_string(numThreads) + " " + python + " " + torchScript +
         " --threads " + std::to_string(numThreads) + " --repeat " +
         std::to_string(std::max(1, repeat));
  std::vector<std::string> seen;
  for (const Case &c : cases) {
    if (c.op != "ssd" ||
        std::find(seen.begin(), seen.end(), c.name) != seen.end())
      continue;
    seen.push_back(c.name);
    const SsdShape &s = c.ssd;
    cmd += " --case " + c.name + ":" + std::to_string(s.B) + "," +
           std::to_string(s.L) + "," + std::to_string(s.H) + "," +
           std::to_string(s.P) + "," + std::to_string(s.G) + "," +
           std::to_string(s.N) + "," + std::to_string(s.Q) + "," +
           (s.init ? "1" : "0");
  }
  std::vector<Row> rows;
  if (seen.empty())
    return rows;
  FILE *pipe = popen(cmd.c_str(), "r");
  if (!pipe)
    return rows;
  std::string output;
  char chunk[4096];
  for (size_t n; (n = fread(chunk, 1, sizeof(chunk), pipe)) > 0;)
    output.append(chunk, n);
  int status = pclose(pipe);
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(output).split(lines, '\n', -1, false);
  for (llvm::StringRef line : lines) {
    llvm::Expected<json::Value> parsed = json::parse(line);
    if (!parsed) {
      llvm::consumeError(parsed.takeError());
      continue;
    }
    json::Object *o = parsed->getAsObject();
    if (!o)
      continue;
    if (json::Object *v = o->getObject("versions")) {
      for (auto &kv : *v)
        versions[kv.first] = kv.second;
      continue;
    }
    rows.push_back(fromJson(*o));
  }
  if (status != 0 && rows.empty()) {
    Row row;
    row.op = "ssd";
    row.name = "*";
    row.impl = "torch-chunked";
    row.status = "error";
    row.reason = "the PyTorch script failed (exit status " +
                 std::to_string(status) + ")";
    rows.push_back(row);
  }
  return rows;
}

//===----------------------------------------------------------------------===//
// Output
//===----------------------------------------------------------------------===//

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

std::string fmt(const std::optional<double> &v, const char *format) {
  if (!v)
    return "-";
  if (std::isinf(*v))
    return "inf";
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, *v);
  return buffer;
}

void printTable(const std::vector<Row> &rows, llvm::raw_ostream &os) {
  os << llvm::format("%-20s %-14s %10s %19s %9s %8s %7s %9s %8s  %s\n", "case",
                     "impl", "median ms", "q1..q3 ms", "compile s", "GFLOP/s",
                     "%peak", "rel err", "RSS MB", "status");
  for (const Row &r : rows) {
    std::string iqr = fmt(r.q1Ms, "%.3f") + ".." + fmt(r.q3Ms, "%.3f");
    std::optional<double> pct;
    if (r.peakFraction)
      pct = *r.peakFraction * 100;
    std::string status = r.status;
    if (!r.reason.empty())
      status += " (" + r.reason + ")";
    os << llvm::format("%-20s %-14s %10s %19s %9s %8s %7s %9s %8s  %s\n",
                       r.name.c_str(), r.impl.c_str(),
                       fmt(r.medianMs, "%.3f").c_str(), iqr.c_str(),
                       fmt(r.compileS, "%.2f").c_str(),
                       fmt(r.gflops, "%.1f").c_str(), fmt(pct, "%.1f").c_str(),
                       fmt(r.relError, "%.1e").c_str(),
                       fmt(r.peakRssMb, "%.0f").c_str(), status.c_str());
  }
}

/// Per case: the fastest other implementation's median over mixer's (above
/// 1: mixer is faster); per op the geometric mean of those ratios.
void printSummary(const std::vector<Row> &rows, llvm::raw_ostream &os) {
  std::map<std::string, std::vector<double>> perOp;
  os << "\nfastest alternative / mixer (median time; > 1 means mixer is "
        "faster)\n";
  std::vector<std::string> names;
  for (const Row &r : rows)
    if (std::find(names.begin(), names.end(), r.name) == names.end())
      names.push_back(r.name);
  for (const std::string &name : names) {
    const Row *mixer = nullptr, *best = nullptr;
    for (const Row &r : rows) {
      if (r.name != name || r.status != "ok" || !r.medianMs)
        continue;
      if (r.impl == "mixer")
        mixer = &r;
      else if (!best || *r.medianMs < *best->medianMs)
        best = &r;
    }
    if (!mixer || !best)
      continue;
    double ratio = *best->medianMs / *mixer->medianMs;
    perOp[mixer->op].push_back(ratio);
    os << llvm::format("  %-20s %-14s %8.3f ms / %8.3f ms = %6.2fx\n",
                       name.c_str(), best->impl.c_str(), *best->medianMs,
                       *mixer->medianMs, ratio);
  }
  for (auto &[op, ratios] : perOp) {
    double logSum = 0;
    for (double r : ratios)
      logSum += std::log(r);
    os << llvm::format("  %s: geometric mean %.2fx over %zu cases\n",
                       op.c_str(), std::exp(logSum / ratios.size()),
                       ratios.size());
  }
}
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (!parseCommandLine(argc, argv))
    return 1;

  int numThreads = threads > 0 ? int(threads)
                               : int(std::max(1u,
                                              std::thread::hardware_concurrency()));
  // Read by the OpenMP runtime when the JIT loads it, hence before any case.
  setenv("OMP_NUM_THREADS", std::to_string(numThreads).c_str(), 1);

  json::Object machine{{"cpu", cpuModel()},
                       {"cores", int64_t(std::thread::hardware_concurrency())}};
  double fmaPeak = 0;
  if (calibrateOnly || !noCalibrate) {
    if (isatty(2))
      llvm::errs() << "calibrating on " << numThreads << " threads...\n";
    fmaPeak = mbench::measureFmaPeak(numThreads);
    double triad = mbench::measureTriadBandwidth(numThreads);
    machine["fma_peak_gflops"] = fmaPeak;
    machine["triad_gbps"] = triad;
    machine["calibration_threads"] = numThreads;
    llvm::outs() << llvm::format(
        "machine: %s, fp32 FMA peak %.1f GFLOP/s, STREAM triad %.1f GB/s on "
        "%d threads\n",
        cpuModel().c_str(), fmaPeak, triad, numThreads);
    if (calibrateOnly)
      return 0;
  } else {
    machine["fma_peak_gflops"] = nullptr;
    machine["triad_gbps"] = nullptr;
  }

  if (suite != "cpu" && suite != "ssd") {
    llvm::errs() << "mixer-bench: unknown suite '" << suite
                 << "' (known: cpu, ssd)\n";
    return 1;
  }
  std::vector<Case> cases;
  for (auto &[name, shape] : ssdShapes())
    for (const char *impl : {"mixer", "mixer-naive"}) {
      Case c{"ssd", name, impl, shape};
      if (!opFilter.empty() && c.op != opFilter)
        continue;
      if (!caseFilter.empty() && name.find(caseFilter) == std::string::npos)
        continue;
      cases.push_back(c);
    }

  std::vector<Row> rows;
  Clock::time_point suiteStart = Clock::now();
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case &c = cases[i];
    if (isatty(2)) {
      double elapsed = secondsSince(suiteStart);
      llvm::errs() << "case " << (i + 1) << "/" << cases.size() << " "
                   << c.name << " " << c.impl << " ...";
      if (i > 0)
        llvm::errs() << " ~"
                     << int(elapsed / i * (cases.size() - i) + 0.5)
                     << "s left";
      llvm::errs() << "\n";
    }
    rows.push_back(isolate ? runCaseIsolated(c, fmaPeak) : runCase(c, fmaPeak));
  }

  json::Object versions{{"llvm", LLVM_VERSION_STRING},
                        {"compiler", __VERSION__}};
  if (!noCompare && !cases.empty()) {
    if (torchAvailable()) {
      if (isatty(2))
        llvm::errs() << "running the PyTorch comparison...\n";
      std::vector<Row> torchRows = runTorch(cases, numThreads, versions);
      for (Row &r : torchRows) {
        if (r.peakFraction || !r.gflops || fmaPeak <= 0)
          continue;
        r.peakFraction = *r.gflops / fmaPeak;
      }
      rows.insert(rows.end(), torchRows.begin(), torchRows.end());
    } else {
      llvm::errs() << "mixer-bench: no comparison rows (" << python
                   << " cannot import torch)\n";
    }
  }
  // Cases together, in suite order (rows of one case keep their order).
  auto caseIndex = [&](const std::string &name) {
    for (size_t i = 0; i < cases.size(); ++i)
      if (cases[i].name == name)
        return i;
    return cases.size();
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

  if (!jsonFile.empty()) {
    json::Array jsonRows;
    for (const Row &r : rows)
      jsonRows.push_back(toJson(r));
    json::Object config{{"suite", suite},
                        {"op", opFilter},
                        {"filter", caseFilter},
                        {"threads", numThreads},
                        {"repeat", repeat},
                        {"isolate", isolate},
                        {"naive_max_work", naiveMaxWork},
                        {"flops_ssd", "B*L*H*(2*q*N + 2*q*P + 4*N*P), "
                                      "q = min(Q, L)"}};
    json::Object root{{"machine", std::move(machine)},
                      {"versions", std::move(versions)},
                      {"config", std::move(config)},
                      {"rows", std::move(jsonRows)}};
    std::error_code ec;
    llvm::raw_fd_ostream out(jsonFile, ec);
    if (ec) {
      llvm::errs() << "mixer-bench: cannot write '" << jsonFile
                   << "': " << ec.message() << "\n";
      return 1;
    }
    out << llvm::formatv("{0:2}", json::Value(std::move(root))) << "\n";
  }
  return 0;
}
