//===- ComparisonNotes.cpp - what the PyTorch comparison lacks ------------===//

#include "ComparisonNotes.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>

using namespace mixer::bench;

void mixer::bench::printComparisonNotes(const std::vector<Row> &rows,
                                        const std::string &notRun,
                                        llvm::raw_ostream &os) {
  std::vector<std::string> ops;
  for (const Row &r : rows)
    if (r.impl == "mixer" &&
        std::find(ops.begin(), ops.end(), r.op) == ops.end())
      ops.push_back(r.op);
  std::vector<std::string> notes;
  for (const std::string &op : ops) {
    std::vector<std::string> failures;
    bool anyOk = false, any = false;
    for (const Row &r : rows) {
      if (r.op != op || !llvm::StringRef(r.impl).starts_with("torch"))
        continue;
      any = true;
      if (r.status == "ok")
        anyOk = true;
      else
        failures.push_back((r.name == "*" ? std::string("every case")
                                          : r.name) +
                           ": " + (r.reason.empty() ? r.status : r.reason));
    }
    std::string note;
    if (!any)
      note = "no PyTorch comparison (" +
             (notRun.empty() ? std::string("its script gave no rows")
                             : notRun) +
             ")";
    else if (!anyOk)
      note = "the PyTorch comparison failed: " + failures.front();
    else if (!failures.empty())
      note = "the PyTorch comparison failed for some cases: " +
             failures.front();
    if (note.empty())
      continue;
    if (!anyOk)
      note += "; its ratio above is against mixer's naive lowering only";
    notes.push_back("  " + op + ": " + note);
  }
  if (notes.empty())
    return;
  os << "\nPyTorch comparison missing:\n";
  for (const std::string &n : notes)
    os << n << "\n";
}
