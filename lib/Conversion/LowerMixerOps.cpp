//===- LowerMixerOps.cpp - the driver of the mixer conversions ------------===//

#include "LowerMixerOps.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"

#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::mixer;

std::optional<std::string> mlir::mixer::getCompositeBlocker(Operation *op) {
  if (isa<SinkhornOp, LinearAttentionBackwardOp, KernelMvBackwardOp,
          KernelLseBackwardOp>(op))
    return std::string("it is a composite op: run mixer-decompose-composites "
                       "first");
  return std::nullopt;
}

std::optional<std::string> mlir::mixer::requireStaticDim(Value value,
                                                         unsigned dim,
                                                         StringRef what,
                                                         StringRef operand) {
  int64_t size = cast<ShapedType>(value.getType()).getDimSize(dim);
  if (size != 0 && !ShapedType::isDynamic(size))
    return std::nullopt;
  return ("the " + what + " (dim " + Twine(dim) + " of '" + operand +
          (size == 0 ? "') must not be 0" : "') must be static"))
      .str();
}

/// Whether `type` is a tensor with a static size of 0.
static bool isStaticallyEmpty(Type type) {
  auto shaped = dyn_cast<RankedTensorType>(type);
  return shaped && llvm::is_contained(shaped.getShape(), 0);
}

/// A mixer op whose every result is statically empty computes nothing: its
/// results are its (as empty) `outs`. Replacing it first spares the
/// lowerings slices of empty dimensions, which MLIR's tensor.extract_slice
/// verifier rejects at offset 0.
static void replaceEmptyOps(Operation *root) {
  SmallVector<DestinationStyleOpInterface> empty;
  root->walk([&](DestinationStyleOpInterface op) {
    if (isa<MixerDialect>(op->getDialect()) && op->getNumResults() > 0 &&
        llvm::all_of(op->getResultTypes(), isStaticallyEmpty))
      empty.push_back(op);
  });
  for (DestinationStyleOpInterface op : empty) {
    op->replaceAllUsesWith(op.getDpsInits());
    op->erase();
  }
}

LogicalResult mlir::mixer::lowerAllMixerOps(Operation *root,
                                            RewritePatternSet &&patterns,
                                            LoweringBlocker blocker) {
  replaceEmptyOps(root);
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
