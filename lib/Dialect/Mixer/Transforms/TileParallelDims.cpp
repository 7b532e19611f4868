//===- TileParallelDims.cpp - mixer ops to scf.forall of tiles ------------===//

#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Dialect/Mixer/Transforms/Passes.h"
#include "mixer/Dialect/Mixer/Transforms/Transforms.h"
#include "mixer/Utils/ChunkedScan.h"

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

/// Columns per tile of a grouped GEMM's output: the largest block of at
/// most 256 columns (a multiple of two vector registers) that divides
/// `cols` into an even number of tiles, so that two threads share the work
/// evenly; else into at least two tiles; else 0 (untiled: a ragged last
/// tile would leave the contractions without static shapes).
static int64_t columnBlock(int64_t cols) {
  if (ShapedType::isDynamic(cols))
    return 0;
  static constexpr int64_t kBlocks[] = {256, 128, 64, 32};
  for (int64_t block : kBlocks)
    if (cols % block == 0 && (cols / block) % 2 == 0)
      return block;
  for (int64_t block : kBlocks)
    if (cols % block == 0 && cols / block >= 2)
      return block;
  return 0;
}

/// The static size of dim `dim` of `value`'s type.
static int64_t dimOf(Value value, unsigned dim) {
  return cast<ShapedType>(value.getType()).getDimSize(dim);
}

SmallVector<int64_t> mlir::mixer::parallelTileSizes(Operation *op,
                                                    int64_t rowBlock) {
  // Scans: one (batch, head) per tile, the whole head dimension P.
  if (isa<SsdOp>(op))
    return {1, 1, 0};
  // Linear attention and the gated delta rule: one (batch, head) per tile,
  // the whole value dim Dv.
  if (isa<LinearAttentionOp, GatedDeltaRuleOp>(op))
    return {1, 1, 0};
  // Selective scan: one (batch, channel block) per tile, the block that
  // convert-mixer-to-linalg scans as one head.
  if (auto scan = dyn_cast<SelectiveScanOp>(op)) {
    auto u = cast<RankedTensorType>(scan.getU().getType());
    auto b = cast<RankedTensorType>(scan.getB().getType());
    int64_t D = u.getDimSize(2), G = b.getDimSize(2);
    if (ShapedType::isDynamic(D) || ShapedType::isDynamic(G) || G == 0)
      return {1, 0};
    return {1, selectiveScanChannelBlock(D / G)};
  }
  // Kernel sums: one (batch, row block) per tile; kernel_mv keeps all C
  // columns of v in the tile (the column loop over y is the lowering's).
  if (auto lse = dyn_cast<KernelLseOp>(op))
    return lse.isBatched() ? SmallVector<int64_t>{1, rowBlock}
                           : SmallVector<int64_t>{rowBlock};
  if (auto cost = dyn_cast<TransportCostOp>(op))
    return cost.isBatched() ? SmallVector<int64_t>{1, rowBlock}
                            : SmallVector<int64_t>{rowBlock};
  if (auto mv = dyn_cast<KernelMvOp>(op))
    return mv.isBatched() ? SmallVector<int64_t>{1, rowBlock, 0}
                          : SmallVector<int64_t>{rowBlock, 0};
  // Grouped GEMMs and the combine: column blocks of the output (rows are
  // tied to groups and tokens by run-time values). Dispatch is a global
  // sort and stays whole.
  std::optional<int64_t> block;
  if (auto matmul = dyn_cast<GroupedMatmulOp>(op))
    block = columnBlock(dimOf(matmul.getOuts()[0], 1));
  else if (auto swiglu = dyn_cast<GroupedSwigluOp>(op))
    block = columnBlock(dimOf(swiglu.getOuts()[0], 1));
  else if (auto combine = dyn_cast<MoeCombineOp>(op))
    block = columnBlock(dimOf(combine.getOuts()[0], 1));
  if (block)
    return *block ? SmallVector<int64_t>{*block} : SmallVector<int64_t>{};
  // The router: blocks of tokens.
  if (isa<TopkRouterOp>(op))
    return {rowBlock};
  return {};
}

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
    IRRewriter rewriter(&getContext());
    for (TilingInterface op : ops) {
      SmallVector<int64_t> sizes = parallelTileSizes(op, rowBlock);
      if (sizes.empty() || hasZeroSizedOperand(op))
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
