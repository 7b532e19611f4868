//===- ScriptOutput.h - what a comparison script prints -------*- C++ -*-===//
//
// The protocol of the comparison scripts in bench/: they read a case's
// inputs and its fp64 reference from .npy files that mixer-bench writes, and
// print one JSON object per line: {"versions": {...}}, then one row per case.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TOOLS_MIXER_BENCH_SCRIPTOUTPUT_H
#define MIXER_TOOLS_MIXER_BENCH_SCRIPTOUTPUT_H

#include "Row.h"

#include "llvm/Support/JSON.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mixer::bench {

/// Runs the shell command `cmd`, appending what it prints to `output`;
/// returns its wait status, or -1 when it cannot be started.
int runCommand(const std::string &cmd, std::string &output);

/// The rows a script printed; its {"versions": ...} lines are merged into
/// `versions`. Lines that are not a JSON object (warnings) are skipped.
std::vector<Row> parseScriptOutput(llvm::StringRef output,
                                   llvm::json::Object &versions);

/// The header of a version 1.0 .npy file holding a C-order array of
/// `shape` with numpy dtype `descr` ("<f4", "<f8", "<i8"): magic, length,
/// and the dict padded with spaces to a multiple of 64 bytes, newline last.
std::string npyHeader(llvm::StringRef descr, const std::vector<int64_t> &shape);

/// Writes the header and `bytes` bytes of `data` to `path`; false on error.
bool writeNpy(const std::string &path, llvm::StringRef descr,
              const std::vector<int64_t> &shape, const void *data,
              size_t bytes);

} // namespace mixer::bench

#endif // MIXER_TOOLS_MIXER_BENCH_SCRIPTOUTPUT_H
