//===- TileParallelDims.cpp - mixer ops to scf.forall of tiles ------------===//

#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Dialect/Mixer/Transforms/Passes.h"
#include "mixer/Dialect/Mixer/Transforms/Transforms.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

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
  (void)rowBlock;
  return {};
}

FailureOr<scf::ForallOp> mlir::mixer::tileParallelDims(RewriterBase &rewriter,
                                                        TilingInterface op,
                                                        ArrayRef<int64_t> sizes) {
  scf::SCFTilingOptions options;
  options.setLoopType(scf::SCFTilingOptions::LoopType::ForallOp);
  options.setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), sizes));
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled =
      scf::tileUsingSCF(rewriter, op, options);
  if (failed(tiled))
    return failure();
  rewriter.replaceOp(op, tiled->replacements);
  if (tiled->loops.empty())
    return failure();
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
  }
};
} // namespace
