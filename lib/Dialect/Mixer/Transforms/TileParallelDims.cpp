//===- TileParallelDims.cpp - mixer ops to scf.forall of tiles ------------===//

#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Dialect/Mixer/Transforms/Passes.h"
#include "mixer/Dialect/Mixer/Transforms/Transforms.h"

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

SmallVector<int64_t> mlir::mixer::parallelTileSizes(Operation *op,
                                                    int64_t rowBlock) {
  // Scans: one (batch, head) per tile, the whole head dimension P.
  if (isa<SsdOp>(op))
    return {1, 1, 0};
  // Linear attention and the gated delta rule: one (batch, head) per tile,
  // the whole value dim Dv.
  if (isa<LinearAttentionOp, GatedDeltaRuleOp>(op))
    return {1, 1, 0};
  // Selective scan: one (batch, channel block) per tile, the block being the
  // largest power of two up to 64 that divides the channels of a group (the
  // block convert-mixer-to-linalg picks), so that a tile reads one group.
  if (auto scan = dyn_cast<SelectiveScanOp>(op)) {
    auto u = cast<RankedTensorType>(scan.getU().getType());
    auto b = cast<RankedTensorType>(scan.getB().getType());
    int64_t D = u.getDimSize(2), G = b.getDimSize(2);
    if (ShapedType::isDynamic(D) || ShapedType::isDynamic(G) || G == 0)
      return {1, 0};
    int64_t block = 1;
    for (int64_t size : {64, 32, 16, 8, 4, 2})
      if ((D / G) % size == 0) {
        block = size;
        break;
      }
    return {1, block};
  }
  (void)rowBlock;
  return {};
}

/// Elementwise linalg producers (dt scaling of x, gates) are computed per
/// tile inside the forall instead of whole before it.
static bool isElementwise(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.getNumLoops() == linalgOp.getNumParallelLoops() &&
         !isa<linalg::FillOp>(op);
}

FailureOr<scf::ForallOp> mlir::mixer::tileParallelDims(RewriterBase &rewriter,
                                                        TilingInterface op,
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
    IRRewriter rewriter(&getContext());
    for (TilingInterface op : ops) {
      SmallVector<int64_t> sizes = parallelTileSizes(op, rowBlock);
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
