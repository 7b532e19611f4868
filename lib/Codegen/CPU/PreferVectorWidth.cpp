//===- PreferVectorWidth.cpp - LLVM's vector width from the target --------===//
//
// LLVM's loop and SLP vectorizers pick their vector width from the CPU's
// tuning, and LLVM tunes the AVX-512 CPUs (Intel's from Skylake on, AMD's
// Zen 4 and 5) for 256-bit vectors. The loops the lowerings leave scalar
// then run at half the width of the vectors the lowerings build
// themselves; the function attribute `prefer-vector-width` makes LLVM use
// the target description's width for them too.
//
//===----------------------------------------------------------------------===//

#include "mixer/Codegen/CPU/Passes.h"
#include "mixer/Target/TargetDescription.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <string>

namespace mlir::mixer {
#define GEN_PASS_DEF_MIXERPREFERVECTORWIDTHPASS
#include "mixer/Codegen/CPU/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;

namespace {
struct MixerPreferVectorWidthPass
    : public mixer::impl::MixerPreferVectorWidthPassBase<
          MixerPreferVectorWidthPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    mixer::TargetDescription target = mixer::lookupTargetDescription(module);
    if (target.isGpu())
      return;
    // The description counts f32 lanes.
    std::string bits = std::to_string(target.vectorWidth * 32);
    module.walk([&](LLVM::LLVMFuncOp func) {
      if (!func.isExternal() && !func.getPreferVectorWidth())
        func.setPreferVectorWidth(bits);
    });
  }
};
} // namespace
