//===- FuzzContext.cpp - contexts and diagnostics of the fuzz targets -----===//

#include "FuzzContext.h"

#include "mixer/Dialect/Mixer/IR/MixerOps.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static const DialectRegistry &registry() {
  static const DialectRegistry *instance = [] {
    auto *r = new DialectRegistry();
    r->insert<mixer::MixerDialect>();
    registerAllDialects(*r);
    registerAllExtensions(*r);
    return r;
  }();
  return *instance;
}

std::unique_ptr<MLIRContext> mixer::fuzz::makeContext() {
  return std::make_unique<MLIRContext>(registry(),
                                       MLIRContext::Threading::DISABLED);
}

MLIRContext &mixer::fuzz::RecycledContext::get() {
  if (!context || ++used == inputs) {
    context = makeContext();
    used = 0;
  }
  return *context;
}

mixer::fuzz::CollectedDiagnostics::CollectedDiagnostics(MLIRContext &context)
    : handler(&context, [this](Diagnostic &diag) {
        llvm::raw_string_ostream os(collected);
        os << diag.getLocation() << ": " << diag << "\n";
        return success();
      }) {}

// The run-time options every run of the targets needs, so that a finding
// reproduces with just `TARGET FILE`. allow_user_poisoning=0: LLVM's
// BumpPtrAllocator inlined into mixer's instrumented code poisons slabs that
// the uninstrumented libMLIR then hands out without unpoisoning. No leak
// check: a context serves many inputs and keeps what it uniques.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0:detect_leaks=0";
}
