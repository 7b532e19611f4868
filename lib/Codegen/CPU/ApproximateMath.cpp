//===- ApproximateMath.cpp - vectorizable polynomial math -----------------===//

#include "mixer/Codegen/CPU/Passes.h"
#include "mixer/Codegen/CPU/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mixer {
#define GEN_PASS_DEF_MIXERAPPROXIMATEMATHPASS
#include "mixer/Codegen/CPU/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;

void mlir::mixer::populateApproximateMathPatterns(RewritePatternSet &patterns) {
  // Approximate on f32 (after widening f16/bf16) every function that has a
  // polynomial; libm calls would scalarize the vector loops.
  auto all = [](StringRef) { return true; };
  populateMathF32ExpansionPatterns(patterns, all);
  populateMathPolynomialApproximationPatterns(patterns, all);
}

namespace {
struct MixerApproximateMathPass
    : public mixer::impl::MixerApproximateMathPassBase<
          MixerApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    mixer::populateApproximateMathPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
