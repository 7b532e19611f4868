//===- TilingUtils.cpp - helpers shared by the ops' TilingInterface -------===//

#include "TilingUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::mixer;

SmallVector<Range> mlir::mixer::iterationDomainOf(OpBuilder &b, Location loc,
                                                  Value value,
                                                  ArrayRef<int64_t> dims) {
  SmallVector<Range> domain;
  for (int64_t d : dims)
    domain.push_back(Range{b.getIndexAttr(0),
                           tensor::getMixedSize(b, loc, value, d),
                           b.getIndexAttr(1)});
  return domain;
}

void mlir::mixer::tileOffsetsAndSizes(OpBuilder &b, Location loc, Value value,
                                      const OperandTile &tile,
                                      SmallVectorImpl<OpFoldResult> &offsets,
                                      SmallVectorImpl<OpFoldResult> &sizes) {
  int64_t rank = cast<RankedTensorType>(value.getType()).getRank();
  assert(static_cast<int64_t>(tile.size()) == rank && "one entry per dim");
  for (int64_t d = 0; d < rank; ++d) {
    if (tile[d]) {
      offsets.push_back(tile[d]->offset);
      sizes.push_back(tile[d]->size);
    } else {
      offsets.push_back(b.getIndexAttr(0));
      sizes.push_back(tensor::getMixedSize(b, loc, value, d));
    }
  }
}

Value mlir::mixer::extractTile(OpBuilder &b, Location loc, Value value,
                               const OperandTile &tile,
                               SmallVectorImpl<Operation *> &slices) {
  SmallVector<OpFoldResult> offsets, sizes;
  tileOffsetsAndSizes(b, loc, value, tile, offsets, sizes);
  SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
  auto slice =
      tensor::ExtractSliceOp::create(b, loc, value, offsets, sizes, strides);
  slices.push_back(slice);
  return slice.getResult();
}

DimTile mlir::mixer::groupTileOfHeads(OpBuilder &b, Location loc, DimTile heads,
                                      int64_t headsPerGroup) {
  if (headsPerGroup == 1)
    return heads;
  AffineExpr d0 = getAffineDimExpr(0, b.getContext());
  OpFoldResult offset = affine::makeComposedFoldedAffineApply(
      b, loc, d0.floorDiv(headsPerGroup), {heads.offset});
  OpFoldResult size = affine::makeComposedFoldedAffineApply(
      b, loc, d0.ceilDiv(headsPerGroup), {heads.size});
  return DimTile{offset, size};
}

LogicalResult mlir::mixer::checkHeadTile(Operation *op, OpFoldResult headSize,
                                         int64_t headsPerGroup,
                                         StringRef members) {
  if (headsPerGroup == 1)
    return success();
  // A size that is not a constant is the partial last tile of a tile size
  // that does not divide the heads: it may split a group.
  std::optional<int64_t> size = getConstantIntValue(headSize);
  if (!size)
    return op->emitOpError()
           << "cannot tile " << members << " by a size that does not divide "
           << "them (" << headsPerGroup << " " << members << " per group)";
  if (headsPerGroup % *size == 0 || *size % headsPerGroup == 0)
    return success();
  return op->emitOpError() << "cannot tile " << members << " by " << *size
                           << ": a tile must lie within one group or cover "
                           << "whole groups (" << headsPerGroup << " "
                           << members << " per group)";
}
