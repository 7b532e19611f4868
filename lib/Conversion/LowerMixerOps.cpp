//===- LowerMixerOps.cpp - the driver of the mixer conversions ------------===//

#include "LowerMixerOps.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"

#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::mixer;

std::optional<std::string> mlir::mixer::getCompositeBlocker(Operation *op) {
  if (isa<SinkhornOp>(op))
    return std::string("it is a composite op: run mixer-decompose-composites "
                       "first");
  return std::nullopt;
}

std::optional<std::string> mlir::mixer::requireStaticDim(Value value,
                                                         unsigned dim,
                                                         StringRef what,
                                                         StringRef operand) {
  if (!cast<ShapedType>(value.getType()).isDynamicDim(dim))
    return std::nullopt;
  return ("the " + what + " (dim " + Twine(dim) + " of '" + operand +
          "') must be static")
      .str();
}

LogicalResult mlir::mixer::lowerAllMixerOps(Operation *root,
                                            RewritePatternSet &&patterns,
                                            LoweringBlocker blocker) {
  bool blocked = false;
  root->walk([&](Operation *op) {
    if (!isa<MixerDialect>(op->getDialect()))
      return;
    if (std::optional<std::string> reason = blocker(op)) {
      op->emitOpError("cannot be lowered: ") << *reason;
      blocked = true;
    }
  });
  if (blocked)
    return failure();
  ConversionTarget target(*root->getContext());
  target.addIllegalDialect<MixerDialect>();
  // The ops the patterns create (arith, linalg, scf, tensor, ...) are legal.
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  if (failed(applyPartialConversion(root, target, std::move(patterns))))
    return failure();
  // Fold the constant sizes and index arithmetic of the new loops and drop
  // what is dead, so that the lowered IR reads as the algorithm.
  return applyPatternsGreedily(root, RewritePatternSet(root->getContext()));
}
