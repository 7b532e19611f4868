//===- Report.cpp - the table, the summary and the JSON file --------------===//

#include "Report.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
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

namespace {
/// A unit of time and its size in ms.
struct TimeUnit {
  const char *name;
  double ms;
};
} // namespace

static TimeUnit getTimeUnit(double ms) {
  if (std::fabs(ms) >= 1 || ms == 0 || !std::isfinite(ms))
    return {"ms", 1};
  return {"µs", 1e-3};
}

/// Three significant digits at least: 45.3 µs, 0.850 µs, 12.345 ms.
static std::string formatIn(double ms, TimeUnit unit) {
  double value = ms / unit.ms;
  const char *format = unit.ms == 1 || std::fabs(value) < 1 ? "%.3f" : "%.1f";
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, value);
  return buffer;
}

std::string mixer::bench::formatDuration(double ms) {
  if (std::isinf(ms))
    return "inf";
  TimeUnit unit = getTimeUnit(ms);
  return formatIn(ms, unit) + " " + unit.name;
}

std::string mixer::bench::formatDurationRange(double q1, double q3,
                                              double median) {
  TimeUnit unit = getTimeUnit(median);
  return formatIn(q1, unit) + ".." + formatIn(q3, unit) + " " + unit.name;
}

static std::string formatOptionalDuration(const std::optional<double> &ms) {
  return ms ? mixer::bench::formatDuration(*ms) : "-";
}

/// Characters on screen (UTF-8 code points: µ is two bytes).
static size_t getWidth(llvm::StringRef text) {
  return llvm::count_if(text, [](char c) { return (c & 0xC0) != 0x80; });
}

/// `text` padded with spaces to `width` characters, on the left (right
/// aligned) or on the right.
static std::string pad(const std::string &text, size_t width, bool alignRight) {
  size_t used = getWidth(text);
  std::string fill(width > used ? width - used : 0, ' ');
  return alignRight ? fill + text : text + fill;
}

void mixer::bench::printTable(const std::vector<Row> &rows,
                              llvm::raw_ostream &os) {
  struct Column {
    const char *title;
    bool alignRight;
    std::function<std::string(const Row &)> cell;
  };
  std::vector<Column> columns = {
      {"case", false, [](const Row &r) { return r.name; }},
      {"impl", false, [](const Row &r) { return r.impl; }},
      {"shapes", false, [](const Row &r) { return r.shapes; }},
      {"median", true,
       [](const Row &r) { return formatOptionalDuration(r.medianMs); }},
      {"q1..q3", true,
       [](const Row &r) {
         return r.q1Ms && r.q3Ms && r.medianMs
                    ? formatDurationRange(*r.q1Ms, *r.q3Ms, *r.medianMs)
                    : std::string("-");
       }},
      {"compile s", true, [](const Row &r) { return fmt(r.compileS, "%.2f"); }},
      // One unit per column: a byte-counted op has GB/s and no GFLOP/s.
      {"GFLOP/s", true, [](const Row &r) { return fmt(r.gflops, "%.1f"); }},
      {"GB/s", true, [](const Row &r) { return fmt(r.gbps, "%.1f"); }},
      {"%peak", true,
       [](const Row &r) {
         std::optional<double> percent;
         if (r.peakFraction)
           percent = *r.peakFraction * 100;
         return fmt(percent, "%.1f");
       }},
      {"rel err", true, [](const Row &r) { return fmt(r.relError, "%.1e"); }},
      {"RSS MB", true, [](const Row &r) { return fmt(r.peakRssMb, "%.0f"); }},
      {"status", false,
       [](const Row &r) {
         return r.reason.empty() ? r.status : r.status + " (" + r.reason + ")";
       }},
  };
  std::vector<std::vector<std::string>> cells;
  std::vector<size_t> widths;
  for (const Column &column : columns)
    widths.push_back(getWidth(column.title));
  for (const Row &r : rows) {
    cells.emplace_back();
    for (size_t i = 0; i < columns.size(); ++i) {
      cells.back().push_back(columns[i].cell(r));
      widths[i] = std::max(widths[i], getWidth(cells.back().back()));
    }
  }
  auto printLine = [&](llvm::ArrayRef<std::string> line) {
    std::string text;
    for (size_t i = 0; i < columns.size(); ++i) {
      bool last = i + 1 == columns.size();
      text += last ? line[i] : pad(line[i], widths[i], columns[i].alignRight);
      if (!last)
        text += "  ";
    }
    os << llvm::StringRef(text).rtrim() << "\n";
  };
  std::vector<std::string> titles;
  for (const Column &column : columns)
    titles.push_back(column.title);
  printLine(titles);
  for (const std::vector<std::string> &line : cells)
    printLine(line);
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
    // The fastest other library's row; mixer's own naive lowering only
    // for a case that has none.
    const Row *mixer = nullptr, *best = nullptr, *bestOwn = nullptr;
    for (const Row &r : rows) {
      if (r.name != name || r.status != "ok" || !r.medianMs || isFwdBwd(r))
        continue;
      // mixer's own rows: the CPU pipeline's, or the GPU's.
      if (r.impl == "mixer" || r.impl == "mixer-cuda") {
        mixer = &r;
        continue;
      }
      const Row *&slot =
          llvm::StringRef(r.impl).starts_with("mixer") ? bestOwn : best;
      if (!slot || *r.medianMs < *slot->medianMs)
        slot = &r;
    }
    if (!best)
      best = bestOwn;
    if (!mixer || !best)
      continue;
    double ratio = *best->medianMs / *mixer->medianMs;
    perOp[mixer->op].push_back(ratio);
    os << llvm::format(
        "  %-20s %-14s %s / %s = %6.2fx\n", name.c_str(), best->impl.c_str(),
        pad(formatDuration(*best->medianMs), 11, true).c_str(),
        pad(formatDuration(*mixer->medianMs), 11, true).c_str(), ratio);
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
  os << "\nfwd+bwd: forward, forward + backward (median), their ratio, "
        "peak RSS of the case's process and its growth during the timed calls (MB), "
        "the gradients' largest relative deviation from their check\n";
  os << llvm::format("  %-20s %-21s %11s %11s %6s %9s %9s %9s  %s\n", "case",
                     "impl", "fwd", "fwd+bwd", "ratio", "peak MB", "work MB",
                     "grad err", "status");
  for (const Row &r : rows) {
    if (!isFwdBwd(r))
      continue;
    std::optional<double> ratio;
    if (r.medianMs && r.fwdMs && *r.fwdMs > 0)
      ratio = *r.medianMs / *r.fwdMs;
    std::string status = r.status;
    if (!r.reason.empty())
      status += " (" + r.reason + ")";
    os << llvm::format(
        "  %-20s %-21s %s %s %6s %9s %9s %9s  %s\n", r.name.c_str(),
        r.impl.c_str(), pad(formatOptionalDuration(r.fwdMs), 11, true).c_str(),
        pad(formatOptionalDuration(r.medianMs), 11, true).c_str(),
        fmt(ratio, "%.2f").c_str(), fmt(r.peakRssMb, "%.0f").c_str(),
        fmt(r.workRssMb, "%.0f").c_str(), fmt(r.relError, "%.1e").c_str(),
        status.c_str());
  }
}

void mixer::bench::printAbSummary(const std::vector<Row> &rows,
                                  llvm::raw_ostream &os) {
  auto first = llvm::find_if(rows, [](const Row &r) { return r.abRatio; });
  if (first == rows.end())
    return;
  os << "\nA/B: each row built as usual (A) and with \"" << first->abOptions
     << "\" (B), called in turn; A/B is the median over the pairs of calls "
        "(above 1: B is faster); fwd+bwd rows time the forward and backward "
        "together and give the gradients' errors\n";
  os << llvm::format("  %-28s %-14s %11s %11s %7s %9s %9s\n", "case", "impl",
                     "A", "B", "A/B", "A error", "B error");
  for (const Row &r : rows) {
    if (!r.abRatio)
      continue;
    os << llvm::format(
        "  %-28s %-14s %s %s %7.3f %9s %9s\n", r.name.c_str(), r.impl.c_str(),
        pad(formatOptionalDuration(r.medianMs), 11, true).c_str(),
        pad(formatOptionalDuration(r.abMedianMs), 11, true).c_str(), *r.abRatio,
        fmt(r.relError, "%.1e").c_str(), fmt(r.abRelError, "%.1e").c_str());
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
