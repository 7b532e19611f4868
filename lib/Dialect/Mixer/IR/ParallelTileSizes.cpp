//===- ParallelTileSizes.cpp - one unit of independent work per tile ------===//
//
// ParallelTilingOpInterface: the tiles of mixer-tile-parallel-dims, each one
// (batch, head) of a scan (a block of a group's heads for ssd), one (batch,
// row block) of a kernel sum or one column block of a grouped GEMM, sized by
// the target.
//
//===----------------------------------------------------------------------===//

#include "MoEShapes.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Target/TargetDescription.h"

using namespace mlir;
using namespace mlir::mixer;

/// Columns per tile of a grouped GEMM's output: the largest block of at
/// most 256 columns (a multiple of two vector registers) that divides
/// `cols` into an even number of tiles, so that two threads share the work
/// evenly; else into at least two tiles; else untiled (a ragged last tile
/// would leave the contractions without static shapes). With packed
/// weights, a block is whole panels: a multiple of `panelWidth`.
static SmallVector<int64_t> columnBlockTile(Value out, int64_t panelWidth = 1) {
  int64_t cols = cast<ShapedType>(out.getType()).getDimSize(1);
  if (ShapedType::isDynamic(cols))
    return {};
  static constexpr int64_t kBlocks[] = {256, 128, 64, 32};
  auto fits = [&](int64_t block, int64_t minTiles) {
    return block % panelWidth == 0 && cols % block == 0 &&
           cols / block >= minTiles;
  };
  for (int64_t block : kBlocks)
    if (fits(block, 2) && (cols / block) % 2 == 0)
      return {block};
  for (int64_t block : kBlocks)
    if (fits(block, 2))
      return {block};
  return {};
}

/// The panel width of a forward grouped op's packed weights, else 1.
static int64_t panelWidthOf(Value weights) {
  if (!isPackedWeights(weights))
    return 1;
  return cast<RankedTensorType>(weights.getType()).getDimSize(3);
}

/// `rowBlock` rows per tile, after a unit batch entry when `batched`, then
/// `trailing` whole dims.
static SmallVector<int64_t> rowBlockTile(bool batched, int64_t rowBlock,
                                         unsigned trailing = 0) {
  SmallVector<int64_t> sizes;
  if (batched)
    sizes.push_back(1);
  sizes.push_back(rowBlock);
  sizes.append(trailing, 0);
  return sizes;
}

/// One batch entry and `block(n)` of the n heads or channels (dim 2 of
/// `members`) of a group of `b` (its dim 2) per tile; the whole dim when
/// either is dynamic or there are no groups.
static SmallVector<int64_t>
groupTile(Value members, Value b,
          function_ref<int64_t(int64_t)> block = [](int64_t n) { return n; }) {
  int64_t n = cast<ShapedType>(members.getType()).getDimSize(2);
  int64_t G = cast<ShapedType>(b.getType()).getDimSize(2);
  if (ShapedType::isDynamic(n) || ShapedType::isDynamic(G) || G == 0)
    return {1, 0};
  return {1, block(n / G)};
}

// ssd: one batch entry and the target's block of a group's heads per tile
// (they share each chunk's b and c), the whole head (value) dim. A dynamic
// batch counts as one entry: the block then never leaves a thread idle.
SmallVector<int64_t>
SsdOp::getParallelTileSizes(const TargetDescription &target) {
  int64_t H = getX().getType().getDimSize(2);
  int64_t G = getB().getType().getDimSize(2);
  if (ShapedType::isDynamic(H) || ShapedType::isDynamic(G) || G == 0)
    return {1, 1, 0};
  int64_t batch = getX().getType().getDimSize(0);
  int64_t groupTiles = (ShapedType::isDynamic(batch) ? 1 : batch) * G;
  return {1, target.scanHeadBlock(H / G, groupTiles), 0};
}

// The other scans: one (batch, head) per tile, the whole head (value) dim.
SmallVector<int64_t>
LinearAttentionOp::getParallelTileSizes(const TargetDescription &) {
  return {1, 1, 0};
}
SmallVector<int64_t>
GatedDeltaRuleOp::getParallelTileSizes(const TargetDescription &) {
  return {1, 1, 0};
}

// Backward scans: one batch entry and one group of heads per tile (the
// gradients of b and c sum over a group's heads).
SmallVector<int64_t>
SsdBackwardOp::getParallelTileSizes(const TargetDescription &) {
  return groupTile(getX(), getB());
}
SmallVector<int64_t>
LinearAttentionBackwardOp::getParallelTileSizes(const TargetDescription &) {
  return {1, 1};
}

// Selective scan: one (batch, channel block) per tile, the block that
// convert-mixer-to-linalg scans as one head.
SmallVector<int64_t>
SelectiveScanOp::getParallelTileSizes(const TargetDescription &target) {
  return groupTile(getU(), getB(), [&](int64_t channels) {
    return target.selectiveScanChannelBlock(channels);
  });
}

// Kernel sums: one (batch, row block) per tile; kernel_mv keeps all C
// columns of v in the tile (the column loop over y is the lowering's).
SmallVector<int64_t>
KernelLseOp::getParallelTileSizes(const TargetDescription &target) {
  return rowBlockTile(isBatched(), target.parallelRowBlock);
}
SmallVector<int64_t>
TransportCostOp::getParallelTileSizes(const TargetDescription &target) {
  return rowBlockTile(isBatched(), target.parallelRowBlock);
}
SmallVector<int64_t>
KernelMvOp::getParallelTileSizes(const TargetDescription &target) {
  return rowBlockTile(isBatched(), target.parallelRowBlock, 1);
}

// The point gradients of the kernel sums: one (batch, row block) per tile,
// like the forward sums.
SmallVector<int64_t>
KernelMvPointGradOp::getParallelTileSizes(const TargetDescription &target) {
  return rowBlockTile(isBatched(), target.parallelRowBlock);
}
SmallVector<int64_t>
KernelLsePointGradOp::getParallelTileSizes(const TargetDescription &target) {
  return rowBlockTile(isBatched(), target.parallelRowBlock);
}

// Grouped GEMMs: column blocks of the output (rows are tied to groups by
// run-time values).
SmallVector<int64_t>
GroupedMatmulOp::getParallelTileSizes(const TargetDescription &) {
  return columnBlockTile(getOuts()[0], panelWidthOf(getRhs()));
}
SmallVector<int64_t>
GroupedSwigluOp::getParallelTileSizes(const TargetDescription &) {
  return columnBlockTile(getOuts()[0], panelWidthOf(getWGate()));
}
// The combine is not tiled here: its lowering is a parallel gather over the
// tokens (after inverting the permutation, which every tile would repeat).
SmallVector<int64_t>
MoeCombineOp::getParallelTileSizes(const TargetDescription &) {
  return {};
}

// The grouped GEMM's backward: column blocks of dlhs (K, the rows of every
// drhs[e]).
SmallVector<int64_t>
GroupedMatmulBackwardOp::getParallelTileSizes(const TargetDescription &) {
  return columnBlockTile(getOuts()[0]);
}

// The router: blocks of tokens.
SmallVector<int64_t>
TopkRouterOp::getParallelTileSizes(const TargetDescription &target) {
  return {target.parallelRowBlock};
}

// Selective scan backward: one (batch, group) per tile: the gradients of b
// and c sum over the channels of a group.
SmallVector<int64_t>
SelectiveScanBackwardOp::getParallelTileSizes(const TargetDescription &) {
  return groupTile(getU(), getB());
}

// Gated delta rule backward: one (batch, head) per tile.
SmallVector<int64_t>
GatedDeltaRuleBackwardOp::getParallelTileSizes(const TargetDescription &) {
  return {1, 1};
}
