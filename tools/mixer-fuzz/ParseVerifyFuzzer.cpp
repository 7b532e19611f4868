//===- ParseVerifyFuzzer.cpp - mixer-fuzz-parse-verify --------------------===//
//
// Parses the input as MLIR with every mixer-opt dialect registered and
// verifies it. Rejecting the input with diagnostics is fine; crashing is a
// bug. IR that parsed and verified must round-trip: its custom and its
// generic printed forms must parse and verify again.
//
//===----------------------------------------------------------------------===//

#include "FuzzContext.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>

using namespace mlir;

/// Prints `module` (in the generic form if asked) and parses the text again
/// in another context; aborts with both texts when that fails.
static void checkRoundTrip(ModuleOp module, bool generic,
                           llvm::StringRef input) {
  std::string printed;
  llvm::raw_string_ostream os(printed);
  OpPrintingFlags flags;
  if (generic)
    flags.printGenericOpForm();
  module->print(os, flags);

  static mixer::fuzz::RecycledContext contexts(1000);
  MLIRContext &context = contexts.get();
  mixer::fuzz::CollectedDiagnostics diagnostics(context);
  OwningOpRef<ModuleOp> reparsed =
      parseSourceString<ModuleOp>(printed, ParserConfig(&context));
  if (reparsed)
    return;
  llvm::errs() << "round trip failed (" << (generic ? "generic" : "custom")
               << " form)\n--- input\n"
               << input << "\n--- printed\n"
               << printed << "\n--- diagnostics\n"
               << diagnostics.text();
  std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // The parser wants a null-terminated buffer.
  std::string input(reinterpret_cast<const char *>(data), size);
  static mixer::fuzz::RecycledContext contexts(1000);
  MLIRContext &context = contexts.get();
  mixer::fuzz::CollectedDiagnostics diagnostics(context);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(input, ParserConfig(&context));
  if (!module)
    return 0;
  checkRoundTrip(*module, /*generic=*/false, input);
  checkRoundTrip(*module, /*generic=*/true, input);
  return 0;
}
