//===- Report.cpp - the table, the summary and the JSON file --------------===//

#include "Report.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <string>

using namespace mixer::bench;
namespace json = llvm::json;

static bool isFwdBwd(const Row &r) {
  llvm::StringRef impl = r.impl;
  return impl.ends_with("fwd+bwd");
}

static std::string fmt(const std::optional<double> &v, const char *format) {
  if (!v)
    return "-";
  if (std::isinf(*v))
    return "inf";
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, *v);
  return buffer;
}

void mixer::bench::printTable(const std::vector<Row> &rows,
                              llvm::raw_ostream &os) {
  os << llvm::format("%-20s %-21s %10s %19s %9s %8s %7s %9s %8s  %s\n", "case",
                     "impl", "median ms", "q1..q3 ms", "compile s", "GFLOP/s",
                     "%peak", "rel err", "RSS MB", "status");
  for (const Row &r : rows) {
    std::string iqr = fmt(r.q1Ms, "%.3f") + ".." + fmt(r.q3Ms, "%.3f");
    std::optional<double> pct;
    if (r.peakFraction)
      pct = *r.peakFraction * 100;
    // Byte-counted ops show GB/s in the same column, marked with a B.
    std::string rate = r.gbps ? fmt(r.gbps, "%.1fB") : fmt(r.gflops, "%.1f");
    std::string status = r.status;
    if (!r.reason.empty())
      status += " (" + r.reason + ")";
    os << llvm::format("%-20s %-21s %10s %19s %9s %8s %7s %9s %8s  %s\n",
                       r.name.c_str(), r.impl.c_str(),
                       fmt(r.medianMs, "%.3f").c_str(), iqr.c_str(),
                       fmt(r.compileS, "%.2f").c_str(), rate.c_str(),
                       fmt(pct, "%.1f").c_str(),
                       fmt(r.relError, "%.1e").c_str(),
                       fmt(r.peakRssMb, "%.0f").c_str(), status.c_str());
  }
}

void mixer::bench::printSummary(const std::vector<Row> &rows,
                                llvm::raw_ostream &os) {
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
      if (r.name != name || r.status != "ok" || !r.medianMs || isFwdBwd(r))
        continue;
      // mixer's own rows: the CPU pipeline's, or the GPU's.
      if (r.impl == "mixer" || r.impl == "mixer-cuda")
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

void mixer::bench::printFwdBwdSummary(const std::vector<Row> &rows,
                                      llvm::raw_ostream &os) {
  os << "\nfwd+bwd: forward, forward + backward (ms), their ratio, peak RSS "
        "of the case's process and its growth during the timed calls (MB), "
        "the gradients' largest relative deviation from their check\n";
  os << llvm::format("  %-20s %-21s %10s %10s %6s %9s %9s %9s  %s\n", "case",
                     "impl", "fwd ms", "fwd+bwd ms", "ratio", "peak MB",
                     "work MB", "grad err", "status");
  for (const Row &r : rows) {
    if (!isFwdBwd(r))
      continue;
    std::optional<double> ratio;
    if (r.medianMs && r.fwdMs && *r.fwdMs > 0)
      ratio = *r.medianMs / *r.fwdMs;
    std::string status = r.status;
    if (!r.reason.empty())
      status += " (" + r.reason + ")";
    os << llvm::format("  %-20s %-21s %10s %10s %6s %9s %9s %9s  %s\n",
                       r.name.c_str(), r.impl.c_str(),
                       fmt(r.fwdMs, "%.3f").c_str(),
                       fmt(r.medianMs, "%.3f").c_str(),
                       fmt(ratio, "%.2f").c_str(),
                       fmt(r.peakRssMb, "%.0f").c_str(),
                       fmt(r.workRssMb, "%.0f").c_str(),
                       fmt(r.relError, "%.1e").c_str(), status.c_str());
  }
}

bool mixer::bench::writeJson(const std::string &path, json::Object machine,
                             json::Object versions, json::Object config,
                             const std::vector<Row> &rows) {
  json::Array jsonRows;
  for (const Row &r : rows)
    jsonRows.push_back(toJson(r));
  json::Object root{{"machine", std::move(machine)},
                    {"versions", std::move(versions)},
                    {"config", std::move(config)},
                    {"rows", std::move(jsonRows)}};
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec);
  if (ec) {
    llvm::errs() << "mixer-bench: cannot write '" << path
                 << "': " << ec.message() << "\n";
    return false;
  }
  out << llvm::formatv("{0:2}", json::Value(std::move(root))) << "\n";
  return true;
}
