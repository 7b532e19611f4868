//===- Row.cpp - one result row of mixer-bench and its JSON form ----------===//

#include "Row.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <csignal>
#include <cstring>
#include <sys/wait.h>

using namespace mixer::bench;
namespace json = llvm::json;

static json::Value optNumber(const std::optional<double> &v) {
  if (!v || !std::isfinite(*v))
    return nullptr;
  return *v;
}

static std::optional<double> getNumber(const json::Object &o,
                                       llvm::StringRef key) {
  if (std::optional<double> v = o.getNumber(key))
    return v;
  if (std::optional<llvm::StringRef> s = o.getString(key); s && *s == "inf")
    return INFINITY;
  return std::nullopt;
}

static std::string describeSignal(int signal) {
  const char *abbreviation = sigabbrev_np(signal);
  if (!abbreviation)
    return "killed by signal " + std::to_string(signal);
  return "killed by SIG" + std::string(abbreviation) + " (" +
         llvm::StringRef(strsignal(signal)).lower() + ")";
}

std::string mixer::bench::describeWaitStatus(int status) {
  if (WIFSIGNALED(status))
    return describeSignal(WTERMSIG(status));
  if (!WIFEXITED(status))
    return "wait status " + std::to_string(status);
  int code = WEXITSTATUS(status);
  if (code > 128 && code - 128 < NSIG)
    return describeSignal(code - 128);
  return "exit status " + std::to_string(code);
}

json::Object mixer::bench::toJson(const Row &row) {
  json::Object o{{"op", row.op},
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
  if (row.gbps)
    o["gbps"] = optNumber(row.gbps);
  if (!row.peak.empty())
    o["peak"] = row.peak;
  if (!row.library.empty()) {
    o["library"] = row.library;
    o["version"] = row.version;
  }
  if (!row.roundMediansMs.empty())
    o["round_medians_ms"] = json::Array(row.roundMediansMs);
  if (!row.abOptions.empty()) {
    o["ab_options"] = row.abOptions;
    o["ab_median_ms"] = optNumber(row.abMedianMs);
    o["ab_rel_error"] = optNumber(row.abRelError);
    o["ab_ratio"] = optNumber(row.abRatio);
  }
  if (llvm::StringRef(row.impl).ends_with("fwd+bwd")) {
    o["fwd_ms"] = optNumber(row.fwdMs);
    o["bwd_ms"] = optNumber(row.bwdMs);
    o["work_rss_mb"] = optNumber(row.workRssMb);
    o["grad_check"] = row.gradCheck;
  }
  return o;
}

Row mixer::bench::fromJson(const json::Object &o) {
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
  row.peak = str("peak");
  row.library = str("library");
  row.version = str("version");
  row.medianMs = getNumber(o, "median_ms");
  row.q1Ms = getNumber(o, "q1_ms");
  row.q3Ms = getNumber(o, "q3_ms");
  row.compileS = getNumber(o, "compile_s");
  row.gflops = getNumber(o, "gflops");
  row.gbps = getNumber(o, "gbps");
  row.peakFraction = getNumber(o, "peak_fraction");
  row.relError = getNumber(o, "rel_error");
  row.peakRssMb = getNumber(o, "peak_rss_mb");
  row.fwdMs = getNumber(o, "fwd_ms");
  row.bwdMs = getNumber(o, "bwd_ms");
  row.workRssMb = getNumber(o, "work_rss_mb");
  row.gradCheck = str("grad_check");
  row.abOptions = str("ab_options");
  row.abMedianMs = getNumber(o, "ab_median_ms");
  row.abRelError = getNumber(o, "ab_rel_error");
  row.abRatio = getNumber(o, "ab_ratio");
  if (const json::Array *rounds = o.getArray("round_medians_ms"))
    for (const json::Value &v : *rounds)
      if (std::optional<double> ms = v.getAsNumber())
        row.roundMediansMs.push_back(*ms);
  return row;
}
