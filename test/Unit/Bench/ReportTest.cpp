//===- ReportTest.cpp - mixer-bench's table and failure descriptions -----===//
//
// The table has one column per unit (GFLOP/s for flop-counted rows, GB/s for
// byte-counted ones), prints times below 1 ms in µs, shows each row's
// shapes, and a comparison that died says by which signal.
//
//===----------------------------------------------------------------------===//

#include "Report.h"
#include "Row.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <gtest/gtest.h>

#include <csignal>
#include <string>
#include <vector>

using namespace mixer::bench;

namespace {

/// The table's lines, each split at runs of two or more spaces into cells.
std::vector<std::vector<std::string>> printCells(const std::vector<Row> &rows) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printTable(rows, os);
  std::vector<std::vector<std::string>> lines;
  llvm::SmallVector<llvm::StringRef> split;
  llvm::StringRef(text).split(split, '\n', -1, false);
  for (llvm::StringRef line : split) {
    std::vector<std::string> cells;
    while (!(line = line.ltrim(' ')).empty()) {
      size_t gap = line.find("  ");
      cells.push_back(line.substr(0, gap).str());
      line = gap == llvm::StringRef::npos ? "" : line.substr(gap);
    }
    lines.push_back(cells);
  }
  return lines;
}

Row makeRow(std::string name, std::string shapes) {
  Row row;
  row.op = "op";
  row.name = std::move(name);
  row.impl = "mixer";
  row.shapes = std::move(shapes);
  row.medianMs = 2.5;
  row.q1Ms = 2.25;
  row.q3Ms = 2.75;
  row.compileS = 0.5;
  row.relError = 1e-7;
  row.peakRssMb = 100;
  return row;
}

TEST(ReportTest, OneColumnPerUnit) {
  Row flops = makeRow("matmul-case", "M=64 N=64 K=64");
  flops.gflops = 123.4;
  Row bytes = makeRow("topk-case", "T=4096 E=8 k=2");
  bytes.gbps = 2.3;
  std::vector<std::vector<std::string>> lines = printCells({flops, bytes});
  ASSERT_EQ(lines.size(), 3u);
  const std::vector<std::string> &titles = lines[0];
  std::vector<std::string> expected = {
      "case",    "impl", "shapes", "median",  "q1..q3", "compile s",
      "GFLOP/s", "GB/s", "%peak",  "rel err", "RSS MB", "status"};
  EXPECT_EQ(titles, expected);
  auto column = [&](const char *title) {
    return std::find(titles.begin(), titles.end(), title) - titles.begin();
  };
  ASSERT_EQ(lines[1].size(), titles.size());
  ASSERT_EQ(lines[2].size(), titles.size());
  EXPECT_EQ(lines[1][column("GFLOP/s")], "123.4");
  EXPECT_EQ(lines[1][column("GB/s")], "-");
  // The byte-counted row: nothing in the GFLOP/s column, no "B" suffix.
  EXPECT_EQ(lines[2][column("GFLOP/s")], "-");
  EXPECT_EQ(lines[2][column("GB/s")], "2.3");
  EXPECT_EQ(lines[1][column("shapes")], "M=64 N=64 K=64");
  EXPECT_EQ(lines[2][column("shapes")], "T=4096 E=8 k=2");
  EXPECT_EQ(lines[1][column("median")], "2.500 ms");
  EXPECT_EQ(lines[1][column("q1..q3")], "2.250..2.750 ms");
}

TEST(ReportTest, ShortTimesInMicroseconds) {
  EXPECT_EQ(formatDuration(12.345), "12.345 ms");
  EXPECT_EQ(formatDuration(1.0), "1.000 ms");
  EXPECT_EQ(formatDuration(0.0453), "45.3 µs");
  EXPECT_EQ(formatDuration(0.00085), "0.850 µs");
  EXPECT_EQ(formatDurationRange(0.0449, 0.046, 0.0453), "44.9..46.0 µs");
  // The range takes the median's unit even where a quartile crosses 1 ms.
  EXPECT_EQ(formatDurationRange(0.95, 1.05, 0.99), "950.0..1050.0 µs");

  Row fast = makeRow("decode", "B=1 L=1");
  fast.medianMs = 0.0153;
  fast.q1Ms = 0.0138;
  fast.q3Ms = 0.0169;
  std::vector<std::vector<std::string>> lines = printCells({fast});
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1][3], "15.3 µs");
  EXPECT_EQ(lines[1][4], "13.8..16.9 µs");
}

TEST(ReportTest, ColumnsAlignWithMicroseconds) {
  // µ is two bytes but one character: the columns after it still line up.
  Row slow = makeRow("slow", "B=1");
  Row fast = makeRow("fast", "B=1");
  fast.medianMs = 0.0153;
  std::string text;
  llvm::raw_string_ostream os(text);
  printTable({slow, fast}, os);
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(text).split(lines, '\n', -1, false);
  ASSERT_EQ(lines.size(), 3u);
  auto statusColumn = [](llvm::StringRef line) {
    size_t characters = 0;
    for (size_t i = 0, e = line.find(" ok"); i < e; ++i)
      characters += (line[i] & 0xC0) != 0x80;
    return characters;
  };
  EXPECT_EQ(statusColumn(lines[1]), statusColumn(lines[2]));
}

TEST(ReportTest, DeadComparisonSaysWhy) {
  // popen's shell exits with 128 + the signal of the command it ran:
  // 33792 is exit status 132, SIGILL.
  EXPECT_EQ(describeWaitStatus(33792),
            "killed by SIGILL (illegal instruction)");
  EXPECT_EQ(describeWaitStatus(SIGSEGV),
            "killed by SIGSEGV (segmentation fault)");
  EXPECT_EQ(describeWaitStatus(2 << 8), "exit status 2");
  EXPECT_EQ(describeWaitStatus(0), "exit status 0");
}

} // namespace
