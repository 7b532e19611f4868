//===- PipelineFuzzer.cpp - mixer-fuzz-pipeline ---------------------------===//
//
// Uses the input bytes as a random source: builds a small module with one
// mixer op (ModuleGenerator), verifies it, and lowers it with the CPU
// pipeline to the LLVM dialect with random pipeline options. A module the
// verifier rejects is skipped; a crash, or a pipeline failure on a module
// that verified, is a finding: the target prints the module and aborts.
// Known failures (isKnownFailure) are skipped.
// MIXER_FUZZ_PRINT=1 in the environment prints every generated module.
//
//===----------------------------------------------------------------------===//

#include "FuzzContext.h"
#include "ModuleGenerator.h"

#include "mixer/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>

using namespace mlir;

/// The failures already reported in docs/Fuzzing.md, skipped so that the
/// fuzzer looks for new ones:
/// - MLIR 22's tensor.extract_slice verifier rejects a slice at offset 0 of
///   a dimension of size 0, which the lowering of an op with a zero-size
///   dimension can create (an upstream limitation);
/// - convert-mixer-to-linalg needs some sizes static and non-zero (the
///   per-head dims it slices) and says so ("cannot be lowered: ..."), even
///   where another operand has the size static.
/// - mixer-tile-parallel-dims rejects a grouped scan whose numbers of heads
///   or groups are dynamic, with a clear error (a limitation of the CPU
///   lowering that the verifier does not check).
static bool isKnownFailure(const std::string &diagnostics,
                           const std::string &module) {
  if (diagnostics.find("is out-of-bounds: 0 >= 0") != std::string::npos)
    return true;
  if (diagnostics.find("cannot tile with a dynamic number of") !=
      std::string::npos)
    return true;
  return diagnostics.find("op cannot be lowered: ") != std::string::npos;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzedDataProvider bytes(data, size);
  mixer::CpuPipelineOptions options;
  options.naive = bytes.ConsumeBool();
  options.numThreads = bytes.ConsumeIntegralInRange<int64_t>(0, 2);
  options.recurrentThreshold = bytes.ConsumeIntegralInRange<int64_t>(0, 24);
  static const int64_t widths[] = {4, 8, 16};
  options.vectorWidth = widths[bytes.ConsumeIntegralInRange<int>(0, 2)];
  std::string text = mixer::fuzz::generateModule(bytes);
  static const bool print = std::getenv("MIXER_FUZZ_PRINT") != nullptr;
  if (print)
    llvm::errs() << text;

  static mixer::fuzz::RecycledContext contexts(200);
  MLIRContext *context = &contexts.get();
  mixer::fuzz::CollectedDiagnostics diagnostics(*context);
  // Parsed without verification first: a parse error is a generator bug.
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      text, ParserConfig(context, /*verifyAfterParse=*/false));
  if (!module) {
    llvm::errs() << "generated module does not parse\n"
                 << text << diagnostics.text();
    std::abort();
  }
  // Out-of-range attributes on purpose, or dynamic sizes the verifier
  // cannot accept.
  if (failed(verify(*module))) {
    if (print)
      llvm::errs() << "rejected: " << diagnostics.text();
    return 0;
  }

  PassManager pm(context);
  mixer::buildLowerToCpuPipeline(pm, options);
  if (succeeded(pm.run(*module)))
    return 0;
  if (isKnownFailure(diagnostics.text(), text)) {
    if (print)
      llvm::errs() << "known failure (docs/Fuzzing.md): " << diagnostics.text();
    return 0;
  }
  llvm::errs() << "the CPU pipeline failed on a verified module\n"
               << "--- options: naive=" << options.naive
               << " num-threads=" << options.numThreads
               << " recurrent-threshold=" << options.recurrentThreshold
               << " vector-width=" << options.vectorWidth << "\n--- module\n"
               << text << "--- diagnostics\n"
               << diagnostics.text();
  std::abort();
}
