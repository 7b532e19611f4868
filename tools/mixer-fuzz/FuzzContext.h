//===- FuzzContext.h - contexts of the fuzz targets ------------*- C++ -*-===//
//
// Both fuzz targets see every dialect mixer-opt registers. Making a context
// with all of them costs more than parsing most inputs, so a context serves
// many inputs and is replaced now and then to bound what it accumulates
// (uniqued types and attributes).
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_TOOLS_MIXER_FUZZ_FUZZCONTEXT_H
#define MIXER_TOOLS_MIXER_FUZZ_FUZZCONTEXT_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <memory>
#include <string>

namespace mlir::mixer::fuzz {

/// A single-threaded context with the dialects and extensions of mixer-opt.
std::unique_ptr<MLIRContext> makeContext();

/// A context that is replaced by a fresh one every `inputs` calls of get().
class RecycledContext {
public:
  explicit RecycledContext(unsigned inputs) : inputs(inputs) {}
  MLIRContext &get();

private:
  unsigned inputs, used = 0;
  std::unique_ptr<MLIRContext> context;
};

/// Collects the diagnostics of a context as text instead of printing them:
/// rejected input is the normal case and must stay quiet.
class CollectedDiagnostics {
public:
  explicit CollectedDiagnostics(MLIRContext &context);
  const std::string &text() const { return collected; }

private:
  std::string collected;
  ScopedDiagnosticHandler handler;
};

} // namespace mlir::mixer::fuzz

#endif // MIXER_TOOLS_MIXER_FUZZ_FUZZCONTEXT_H
