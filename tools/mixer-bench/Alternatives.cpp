//===- Alternatives.cpp - the libraries people use, beside mixer ----------===//

#include "Alternatives.h"

#include "ScriptOutput.h"
#include "Torch.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <map>
#include <set>
#include <sys/wait.h>

using namespace mixer::bench;
namespace json = llvm::json;
namespace fs = llvm::sys::fs;

std::vector<Alternative> mixer::bench::alternativesOf(const std::string &op) {
  // Every family also gets its PyTorch script under the newest PyTorch.
  static const std::map<std::string, std::vector<Alternative>> table = {
      {"ssd", {{"bench/jax_scans.py", {"ssd"}, "jax"}}},
      {"selective_scan", {{"bench/jax_scans.py", {"selective_scan"}, "jax"}}},
      {"linear_attention",
       {{"bench/fla_scans.py", {"linear_attention"}, "fla"}}},
      {"gated_delta_rule",
       {{"bench/fla_scans.py", {"gated_delta_rule"}, "fla"}}},
      {"kernel_mv", {{"bench/keops_kernels.py", {"kernel_mv"}, "pykeops"}}},
      {"kernel_lse", {{"bench/keops_kernels.py", {"kernel_lse"}, "pykeops"}}},
      {"sinkhorn",
       {{"bench/jax_ot.py", {"sinkhorn"}, "ott-jax"},
        {"bench/keops_kernels.py", {"sinkhorn"}, "geomloss"}}},
      {"grouped_matmul",
       {{"bench/jax_moe.py", {"grouped_matmul"}, "jax-ragged-dot"}}},
      {"grouped_swiglu",
       {{"bench/jax_moe.py", {"grouped_swiglu"}, "jax-ragged-dot"}}},
  };
  std::vector<Alternative> out;
  if (auto it = table.find(op); it != table.end())
    out = it->second;
  out.push_back({"", {}, "torch"});
  return out;
}

std::string mixer::bench::benchVenvPython(const std::string &sourceDir) {
  std::string python = sourceDir + "/.venv-bench/bin/python";
  return fs::can_execute(python) ? python : "";
}

static const char *npyDescr(ElementType type) {
  switch (type) {
  case ElementType::F32:
    return "<f4";
  case ElementType::I32:
    return "<i4";
  case ElementType::I64:
    return "<i8";
  }
  return "<f4";
}

static size_t elementBytes(ElementType type) {
  return type == ElementType::I64 ? 8 : 4;
}

std::string mixer::bench::writeCaseData(const OpBench &family, const Case &c,
                                        const std::string &dir) {
  std::string caseDir = dir + "/" + c.name;
  if (std::error_code ec = fs::create_directories(caseDir))
    return "cannot create " + caseDir + ": " + ec.message();
  // The seed of mixer's rows (Runner.cpp): the same inputs.
  ref::Rng rng(20240611);
  Instance in = family.prepare(c, rng);
  std::map<const Buffer *, const ref::Tensor *> references;
  for (const auto &[buffer, tensor] : in.expected)
    references[buffer] = &tensor;

  json::Array args;
  for (size_t i = 0; i < in.buffers.size(); ++i) {
    const Buffer &b = *in.buffers[i];
    std::string file = "arg" + std::to_string(i) + ".npy";
    // f32() is the buffer's data whatever its element type.
    if (!writeNpy(caseDir + "/" + file, npyDescr(b.type), b.shape, b.f32(),
                  b.numel() * elementBytes(b.type)))
      return "cannot write " + caseDir + "/" + file;
    json::Object entry{{"file", file}, {"reference", nullptr}};
    if (auto it = references.find(&b); it != references.end()) {
      std::string refFile = "reference" + std::to_string(i) + ".npy";
      const ref::Tensor &t = *it->second;
      if (!writeNpy(caseDir + "/" + refFile, "<f8", t.shape, t.data.data(),
                    t.data.size() * sizeof(double)))
        return "cannot write " + caseDir + "/" + refFile;
      entry["reference"] = refFile;
    }
    args.push_back(std::move(entry));
  }
  json::Object manifest{{"op", family.op()},
                        {"case", c.name},
                        {"shapes", c.shape.str()},
                        {"tolerance", family.tolerance()},
                        {"tolerance_name", family.toleranceName()},
                        {"args", std::move(args)}};
  std::error_code ec;
  llvm::raw_fd_ostream out(caseDir + "/manifest.json", ec);
  if (ec)
    return "cannot write the manifest of " + c.name + ": " + ec.message();
  out << json::Value(std::move(manifest)) << "\n";
  return "";
}

/// The last non-empty line of a file (a script's stderr), or "".
static std::string lastLine(const std::string &path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buf =
      llvm::MemoryBuffer::getFile(path);
  if (!buf)
    return "";
  llvm::StringRef text = (*buf)->getBuffer().rtrim();
  size_t nl = text.rfind('\n');
  return (nl == llvm::StringRef::npos ? text : text.substr(nl + 1))
      .trim()
      .str();
}

/// GFLOP/s or GB/s from the family's nominal work, for rows that lack them.
static void setThroughput(Row &row, const OpBench &family, const Case &c) {
  if (!row.medianMs || *row.medianMs <= 0 || row.gflops || row.gbps)
    return;
  Work w = family.work(c);
  if (w.flops > 0)
    row.gflops = w.flops / (*row.medianMs * 1e-3) * 1e-9;
  else if (w.bytes > 0)
    row.gbps = w.bytes / (*row.medianMs * 1e-3) * 1e-9;
}

static Row errorRow(const OpBench &family, const Case &c,
                    const std::string &impl, const std::string &library,
                    const std::string &reason) {
  Row row;
  row.op = family.op();
  row.name = c.name;
  row.impl = impl;
  row.shapes = c.shape.str();
  row.library = library;
  row.status = "error";
  row.reason = reason;
  return row;
}

/// How long one script may take on all its cases (a KeOps or XLA build
/// that hangs must not stop the run).
constexpr int kScriptTimeoutS = 1800;

/// The rows of one script of ours on `cases`, whose data is under dataDir.
static std::vector<Row>
runScript(const OpBench &family, const std::vector<Case> &cases,
          const Alternative &alt, const AlternativeSettings &settings,
          const std::string &dataDir, json::Object &versions) {
  std::string stderrFile = dataDir + "/stderr-" + llvm::join(alt.args, "-") +
                           "-" + alt.impl + ".txt";
  std::string cmd = "timeout " + std::to_string(kScriptTimeoutS) +
                    " env OMP_NUM_THREADS=" + std::to_string(settings.threads) +
                    " " + settings.python + " " + settings.sourceDir + "/" +
                    alt.script;
  for (const std::string &arg : alt.args)
    cmd += " " + arg;
  cmd += " --threads " + std::to_string(settings.threads) + " --repeat " +
         std::to_string(std::max(1, settings.repeat)) + " --data " + dataDir;
  for (const Case &c : cases)
    cmd += " --case " + family.OpBench::torchCase(c);
  cmd += " 2>" + stderrFile;

  std::vector<Row> rows;
  std::string output;
  int status = runCommand(cmd, output);
  if (status == -1) {
    for (const Case &c : cases)
      rows.push_back(errorRow(family, c, alt.impl, alt.impl,
                              "cannot start " + alt.script));
    return rows;
  }
  rows = parseScriptOutput(output, versions);
  // A case the script printed nothing for (it died on the way): say why.
  std::string why =
      alt.script + " failed (" +
      (WIFEXITED(status) && WEXITSTATUS(status) == 124
           ? "timed out after " + std::to_string(kScriptTimeoutS) + " s"
           : describeWaitStatus(status)) +
      ")";
  if (std::string last = lastLine(stderrFile); !last.empty())
    why += ": " + last;
  std::set<std::string> seen;
  for (const Row &r : rows)
    seen.insert(r.name);
  for (const Case &c : cases)
    if (!seen.count(c.name))
      rows.push_back(errorRow(family, c, alt.impl, alt.impl, why));
  for (Row &r : rows)
    for (const Case &c : cases)
      if (c.name == r.name)
        setThroughput(r, family, c);
  return rows;
}

/// The family's PyTorch script under the newest PyTorch: impl
/// "torchMAJOR.MINOR-..." beside the system PyTorch's "torch-...".
static std::vector<Row> runNewestTorch(const OpBench &family,
                                       const std::vector<Case> &cases,
                                       const AlternativeSettings &settings,
                                       json::Object &versions) {
  TorchSettings torch;
  torch.python = settings.python;
  torch.sourceDir = settings.sourceDir;
  torch.threads = settings.threads;
  torch.repeat = settings.repeat;
  torch.torchOnly = settings.torchScriptsRan;
  torch.cpu = settings.torchCpu;
  json::Object own;
  std::vector<Row> rows = runTorch(family, cases, torch, own);
  std::string version;
  if (std::optional<llvm::StringRef> v = own.getString("torch"))
    version = v->str();
  versions["torch_newest"] = version;
  // "2.9.1+cpu" -> "2.9".
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::StringRef(version).split(parts, '.');
  std::string short_ =
      parts.size() >= 2 ? (parts[0] + "." + parts[1]).str() : version;
  for (Row &r : rows) {
    // Rows of another library the script also runs (the grouped GEMMs'
    // OpenBLAS loop, when --python's run did not) name it themselves.
    if (!r.library.empty())
      continue;
    llvm::StringRef impl(r.impl);
    if (impl.consume_front("torch"))
      r.impl = "torch" + short_ + impl.str();
    r.library = "torch";
    r.version = version;
  }
  return rows;
}

std::vector<Row> mixer::bench::runAlternatives(
    const OpBench &family, const std::vector<Case> &cases,
    const AlternativeSettings &settings, json::Object &versions) {
  std::vector<Row> rows;
  if (cases.empty())
    return rows;
  llvm::SmallString<128> dataDir;
  if (std::error_code ec =
          fs::createUniqueDirectory("mixer-bench-" + family.op(), dataDir)) {
    for (const Case &c : cases)
      rows.push_back(
          errorRow(family, c, "alternatives", "",
                   "cannot create a data directory: " + ec.message()));
    return rows;
  }
  std::vector<Alternative> alternatives = alternativesOf(family.op());
  bool needsData = llvm::any_of(
      alternatives, [](const Alternative &a) { return !a.script.empty(); });
  std::vector<Case> written;
  for (const Case &c : cases) {
    if (needsData && !family.inputsPortable(c))
      continue;
    std::string error =
        needsData ? writeCaseData(family, c, dataDir.str().str()) : "";
    if (error.empty())
      written.push_back(c);
    else
      rows.push_back(errorRow(family, c, "alternatives", "", error));
  }
  for (const Alternative &alt : alternatives) {
    std::vector<Row> more =
        alt.script.empty() ? runNewestTorch(family, cases, settings, versions)
                           : runScript(family, written, alt, settings,
                                       dataDir.str().str(), versions);
    for (Row &r : more)
      rows.push_back(std::move(r));
  }
  fs::remove_directories(dataDir);
  return rows;
}
