//===- MixerToLinalg.cpp - the convert-mixer-to-linalg pass -----------------===//

#include "mixer/Conversion/MixerToLinalg/MixerToLinalg.h"
#include "MixerToLinalgPatterns.h"
#include "../LowerMixerOps.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Target/TargetDescription.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::mixer {
#define GEN_PASS_DEF_CONVERTMIXERTOLINALGPASS
#include "mixer/Conversion/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;
using namespace mlir::mixer;

void mlir::mixer::populateMixerToLinalgPatterns(RewritePatternSet &patterns,
                                                int64_t recurrentThreshold) {
  populateKernelToLinalgPatterns(patterns);
  populateSsdToLinalgPatterns(patterns, recurrentThreshold);
  populateSsdBackwardToLinalgPatterns(patterns);
  populateLinearAttentionToLinalgPatterns(patterns, recurrentThreshold);
  populateSelectiveScanToLinalgPatterns(patterns);
  populateSelectiveScanBackwardToLinalgPatterns(patterns);
  populateGatedDeltaRuleToLinalgPatterns(patterns, recurrentThreshold);
  populateGatedDeltaRuleBackwardToLinalgPatterns(patterns);
  populateMoEToLinalgPatterns(patterns);
  populateKernelBackwardToLinalgPatterns(patterns);
  populateMoEBackwardToLinalgPatterns(patterns);
}

namespace {
struct ConvertMixerToLinalgPass
    : public mixer::impl::ConvertMixerToLinalgPassBase<ConvertMixerToLinalgPass> {
  using Base::Base;
  void runOnOperation() override {
    // The patterns read the block sizes from the module's target: check it
    // once here.
    FailureOr<TargetDescription> target = getTargetDescription(getOperation());
    if (failed(target))
      return signalPassFailure();
    llvm::DenseSet<Operation *> inputAllocs;
    getOperation().walk(
        [&](bufferization::AllocTensorOp alloc) { inputAllocs.insert(alloc); });
    RewritePatternSet patterns(&getContext());
    populateMixerToLinalgPatterns(patterns, recurrentThreshold);
    if (failed(lowerAllMixerOps(getOperation(), std::move(patterns),
                                getLinalgLoweringBlocker)))
      return signalPassFailure();
    // The lowerings' temporaries live in the target's memory space. A
    // GPU's shared memory is budgeted per block: which temporaries fit is
    // decided after bufferization, where every size is known
    // (mixer-map-forall-to-gpu).
    if (target->tempMemorySpace && !target->isGpu())
      getOperation().walk([&](bufferization::AllocTensorOp alloc) {
        if (!inputAllocs.contains(alloc) && !alloc.getMemorySpaceAttr())
          alloc.setMemorySpaceAttr(target->tempMemorySpace);
      });
  }
};
} // namespace
