//===- Report.h - the table, the summary and the JSON file ------*- C++ -*-===//

#ifndef MIXER_TOOLS_MIXER_BENCH_REPORT_H
#define MIXER_TOOLS_MIXER_BENCH_REPORT_H

#include "Row.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace mixer::bench {

/// One line per row: times, compile time, throughput, accuracy, memory.
void printTable(const std::vector<Row> &rows, llvm::raw_ostream &os);

/// Per case, the fastest other implementation's median over mixer's (above
/// 1: mixer is faster); per op the geometric mean of those ratios.
void printSummary(const std::vector<Row> &rows, llvm::raw_ostream &os);

/// Per fwd+bwd row (mixer's and PyTorch's): forward and fwd+bwd times, their
/// ratio, peak and working RSS, and the largest gradient error.
void printFwdBwdSummary(const std::vector<Row> &rows, llvm::raw_ostream &os);

/// Writes {"machine", "versions", "config", "rows"}; false (with a message)
/// when the file cannot be written.
bool writeJson(const std::string &path, llvm::json::Object machine,
               llvm::json::Object versions, llvm::json::Object config,
               const std::vector<Row> &rows);

} // namespace mixer::bench

#endif // MIXER_TOOLS_MIXER_BENCH_REPORT_H
