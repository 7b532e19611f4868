//===- MixerToLoops.cpp - the convert-mixer-to-loops pass -----------------===//

#include "mixer/Conversion/MixerToLoops/MixerToLoops.h"
#include "MixerToLoopsPatterns.h"
#include "../LowerMixerOps.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::mixer {
#define GEN_PASS_DEF_CONVERTMIXERTOLOOPSPASS
#include "mixer/Conversion/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;
using namespace mlir::mixer;

void mlir::mixer::populateMixerToLoopsPatterns(RewritePatternSet &patterns) {
  populateKernelToLoopsPatterns(patterns);
  populateKernelBackwardToLoopsPatterns(patterns);
  populateSsdToLoopsPatterns(patterns);
  populateLinearAttentionToLoopsPatterns(patterns);
  populateSelectiveScanToLoopsPatterns(patterns);
  populateGatedDeltaRuleToLoopsPatterns(patterns);
  populateMoEToLoopsPatterns(patterns);
}

namespace {
struct ConvertMixerToLoopsPass
    : public mixer::impl::ConvertMixerToLoopsPassBase<ConvertMixerToLoopsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMixerToLoopsPatterns(patterns);
    // The scalar loops need no static size: only composites are left out.
    if (failed(lowerAllMixerOps(getOperation(), std::move(patterns),
                                getCompositeBlocker)))
      return signalPassFailure();
  }
};
} // namespace
