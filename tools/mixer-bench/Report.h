//===- Report.h - the table, the summary and the JSON file ------*- C++ -*-===//

#ifndef MIXER_TOOLS_MIXER_BENCH_REPORT_H
#define MIXER_TOOLS_MIXER_BENCH_REPORT_H

#include "Row.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace mixer::bench {

/// A duration given in ms, in the unit that shows it: "12.345 ms",
/// "45.3 µs", "0.850 µs" (never 0.000 ms).
std::string formatDuration(double ms);

/// q1..q3 in the unit formatDuration picks for `median`: "44.9..46.0 µs".
std::string formatDurationRange(double q1, double q3, double median);

/// One line per row: case, impl, shapes, times, compile time, throughput
/// (GFLOP/s for flop-counted ops, GB/s for byte-counted ones, each in its
/// own column), accuracy, memory, status.
void printTable(const std::vector<Row> &rows, llvm::raw_ostream &os);

/// Per case, the fastest other implementation's median over mixer's (above
/// 1: mixer is faster); per op the geometric mean of those ratios.
void printSummary(const std::vector<Row> &rows, llvm::raw_ostream &os);

/// Per fwd+bwd row (mixer's and PyTorch's): forward and fwd+bwd times, their
/// ratio, peak and working RSS, and the largest gradient error.
void printFwdBwdSummary(const std::vector<Row> &rows, llvm::raw_ostream &os);

/// mixer-bench --ab: per row built twice, both medians, their errors and
/// the median over the pairs of calls of the first's time over the
/// second's (above 1: the second build is faster). Nothing without --ab.
void printAbSummary(const std::vector<Row> &rows, llvm::raw_ostream &os);

/// Writes {"machine", "versions", "config", "rows"}; false (with a message)
/// when the file cannot be written.
bool writeJson(const std::string &path, llvm::json::Object machine,
               llvm::json::Object versions, llvm::json::Object config,
               const std::vector<Row> &rows);

} // namespace mixer::bench

#endif // MIXER_TOOLS_MIXER_BENCH_REPORT_H
