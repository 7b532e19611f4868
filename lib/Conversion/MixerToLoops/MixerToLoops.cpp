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

/// Why convert-mixer-to-loops cannot lower `op`, or std::nullopt.
static std::optional<std::string> getLoopsLoweringBlocker(Operation *op) {
  if (std::optional<std::string> reason = getCompositeBlocker(op))
    return reason;
  if (isa<SsdBackwardOp>(op))
    return std::string("the scalar loops have no backward of ssd: run "
                       "mixer-decompose-composites{ssd-backward-to-scans=1} "
                       "first");
  if (auto ssd = dyn_cast<SsdOp>(op); ssd && ssd.getChunkStates())
    return std::string("the scalar loops do not record 'chunk_states'");
  if (auto la = dyn_cast<LinearAttentionOp>(op); la && la.getChunkStates())
    return std::string("the scalar loops do not record 'chunk_states'");
  return std::nullopt;
}

namespace {
struct ConvertMixerToLoopsPass
    : public mixer::impl::ConvertMixerToLoopsPassBase<ConvertMixerToLoopsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMixerToLoopsPatterns(patterns);
    // The scalar loops need no static size: composites are left out, and
    // the residual and backward of ssd, which they do not implement.
    if (failed(lowerAllMixerOps(getOperation(), std::move(patterns),
                                getLoopsLoweringBlocker)))
      return signalPassFailure();
  }
};
} // namespace
