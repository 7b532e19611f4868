//===- TileParallelDims.cpp - mixer ops to scf.forall of tiles ------------===//

#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Dialect/Mixer/Transforms/Passes.h"
#include "mixer/Dialect/Mixer/Transforms/Transforms.h"
#include "mixer/Target/TargetDescription.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::mixer {
#define GEN_PASS_DEF_MIXERTILEPARALLELDIMSPASS
#include "mixer/Dialect/Mixer/Transforms/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;
using namespace mlir::mixer;

/// Elementwise linalg producers (dt scaling of x, gates) are computed per
/// tile inside the forall instead of whole before it.
static bool isElementwise(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.getNumLoops() == linalgOp.getNumParallelLoops() &&
         !isa<linalg::FillOp>(op);
}

FailureOr<scf::ForallOp>
mlir::mixer::tileParallelDims(RewriterBase &rewriter, TilingInterface op,
                              ArrayRef<int64_t> sizes) {
  scf::SCFTilingOptions tiling;
  tiling.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  tiling.setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), sizes));
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  options.setFusionControlFn(
      [](tensor::ExtractSliceOp, OpResult producer, bool isDestination)
          -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        if (isDestination || !isElementwise(producer.getOwner()))
          return std::nullopt;
        return scf::SCFTileAndFuseOptions::ControlFnResult{};
      });
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTileAndFuseResult> tiled =
      scf::tileConsumerAndFuseProducersUsingSCF(rewriter, op, options);
  if (failed(tiled) || tiled->loops.empty())
    return failure();
  for (OpResult result : op->getResults())
    rewriter.replaceAllUsesWith(result, tiled->replacements.lookup(result));
  rewriter.eraseOp(op);
  return cast<scf::ForallOp>(tiled->loops.front().getOperation());
}

namespace {
/// Whether an operand of `op` has a static size of 0. There is nothing to
/// distribute then, and the slices of the tiles would not verify: MLIR 22's
/// tensor.extract_slice verifier rejects a slice at offset 0 of a dimension
/// of size 0 ("offset 1 is out-of-bounds: 0 >= 0").
static bool hasZeroSizedOperand(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return shaped && shaped.hasRank() &&
           llvm::is_contained(shaped.getShape(), 0);
  });
}

struct MixerTileParallelDimsPass
    : public mixer::impl::MixerTileParallelDimsPassBase<
          MixerTileParallelDimsPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<TilingInterface> ops;
    getOperation().walk([&](TilingInterface op) {
      // Tile only top-level mixer ops: a tiled op inside a forall stays.
      if (isa<MixerDialect>(op->getDialect()) &&
          !op->getParentOfType<scf::ForallOp>())
        ops.push_back(op);
    });
    FailureOr<TargetDescription> target = getTargetDescription(getOperation());
    if (failed(target))
      return signalPassFailure();
    if (rowBlock.hasValue())
      target->parallelRowBlock = rowBlock;
    IRRewriter rewriter(&getContext());
    for (TilingInterface op : ops) {
      auto parallel = dyn_cast<ParallelTilingOpInterface>(op.getOperation());
      if (!parallel || hasZeroSizedOperand(op))
        continue;
      SmallVector<int64_t> sizes = parallel.getParallelTileSizes(*target);
      if (sizes.empty())
        continue;
      if (failed(tileParallelDims(rewriter, op, sizes)))
        return signalPassFailure();
    }
    // Fused producers, and the slices of them that tiling left, are dead:
    // the greedy driver with no patterns erases them.
    (void)applyPatternsGreedily(getOperation(),
                                RewritePatternSet(&getContext()));
  }
};
} // namespace
