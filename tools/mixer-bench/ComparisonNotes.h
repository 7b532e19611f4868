//===- ComparisonNotes.h - what the PyTorch comparison lacks -----*- C++ -*-===//

#ifndef MIXER_TOOLS_MIXER_BENCH_COMPARISONNOTES_H
#define MIXER_TOOLS_MIXER_BENCH_COMPARISONNOTES_H

#include "Row.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace mixer::bench {

/// For each op with mixer rows whose PyTorch rows are missing or failed,
/// one line saying so and why, so that the summary's ratio for that op is
/// not read as a comparison with PyTorch (it is then against mixer's naive
/// lowering only). `notRun` says why no PyTorch script ran at all (empty
/// when they ran). Prints nothing when every op has its PyTorch rows.
void printComparisonNotes(const std::vector<Row> &rows,
                          const std::string &notRun, llvm::raw_ostream &os);

} // namespace mixer::bench

#endif // MIXER_TOOLS_MIXER_BENCH_COMPARISONNOTES_H
