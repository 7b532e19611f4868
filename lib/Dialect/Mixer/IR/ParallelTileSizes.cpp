//===- ParallelTileSizes.cpp - one unit of independent work per tile ------===//
//
// ParallelTilingOpInterface: the tiles of mixer-tile-parallel-dims, each one
// batch entry and a block of heads of a chunked scan (of a group's heads for
// ssd), one (batch, channel block) of the selective scan, one (batch, row
// block) of a kernel sum or one column block of a grouped GEMM, sized by the
// target. Most ops state their policy in ODS (`parallelTilePolicy`)
// over the helpers defined here; the ones that need more are written here.
//
//===----------------------------------------------------------------------===//

#include "MoEShapes.h"
#include "ParallelTilePolicies.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Target/TargetDescription.h"

using namespace mlir;
using namespace mlir::mixer;

// Columns per tile of a grouped GEMM's output: an even number of tiles
// lets two threads share the work evenly; a ragged last tile would leave the
// contractions without static shapes.
SmallVector<int64_t> mlir::mixer::columnBlockTile(Value out,
                                                  int64_t panelWidth) {
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

int64_t mlir::mixer::panelWidthOf(Value weights) {
  if (!isPackedWeights(weights))
    return 1;
  return cast<RankedTensorType>(weights.getType()).getDimSize(3);
}

SmallVector<int64_t> mlir::mixer::rowBlockTile(bool batched, int64_t rowBlock,
                                               unsigned trailing) {
  SmallVector<int64_t> sizes;
  if (batched)
    sizes.push_back(1);
  sizes.push_back(rowBlock);
  sizes.append(trailing, 0);
  return sizes;
}

SmallVector<int64_t>
mlir::mixer::groupTile(Value members, Value b,
                       function_ref<int64_t(int64_t)> block) {
  int64_t n = cast<ShapedType>(members.getType()).getDimSize(2);
  int64_t G = cast<ShapedType>(b.getType()).getDimSize(2);
  if (ShapedType::isDynamic(n) || ShapedType::isDynamic(G) || G == 0)
    return {1, 0};
  return {1, block(n / G)};
}

SmallVector<int64_t>
mlir::mixer::headBlockTile(Value tokens, const TargetDescription &target) {
  auto type = cast<ShapedType>(tokens.getType());
  int64_t batch = type.getDimSize(0), H = type.getDimSize(2);
  if (ShapedType::isDynamic(batch) || ShapedType::isDynamic(H))
    return {1, 1, 0};
  return {1, target.scanHeadBlock(H, batch), 0};
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

// Selective scan: one (batch, channel block) per tile, the block that
// convert-mixer-to-linalg scans as one head.
SmallVector<int64_t>
SelectiveScanOp::getParallelTileSizes(const TargetDescription &target) {
  return groupTile(getU(), getB(), [&](int64_t channels) {
    return target.selectiveScanChannelBlock(channels);
  });
}

// The tile policies of the other ops are stated in ODS (`parallelTilePolicy`).
