//===- ScanOps.cpp - verifiers, builders and tiling of the scans ----------===//

#include "ShapeVerifier.h"
#include "TilingUtils.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::mixer;

/// Heads per group of a grouped scan, or failure when H or G is dynamic.
static FailureOr<int64_t> headsPerGroup(Value perHead, int64_t headDim,
                                        Value perGroup, int64_t groupDim) {
  auto h = cast<RankedTensorType>(perHead.getType()).getDimSize(headDim);
  auto g = cast<RankedTensorType>(perGroup.getType()).getDimSize(groupDim);
  if (ShapedType::isDynamic(h) || ShapedType::isDynamic(g) || g == 0)
    return failure();
  return h / g;
}

//===----------------------------------------------------------------------===//
// SsdOp
//===----------------------------------------------------------------------===//

void SsdOp::build(OpBuilder &builder, OperationState &state, Value x,
                  Value logA, Value b, Value c, Value init, Value yInit,
                  Value stateInit, int64_t chunkSize) {
  build(builder, state, TypeRange{yInit.getType(), stateInit.getType()}, x,
        logA, b, c, init, ValueRange{yInit, stateInit}, chunkSize);
}

LogicalResult SsdOp::verify() {
  if (getChunkSize() <= 0)
    return emitOpError() << "attribute 'chunk_size' must be positive, got "
                         << getChunkSize();
  ShapeVerifier v(*this);
  if (failed(v.check(getX(), "x", {"B", "L", "H", "P"})) ||
      failed(v.check(getLogA(), "log_a", {"B", "L", "H"})) ||
      failed(v.check(getB(), "b", {"B", "L", "G", "N"})) ||
      failed(v.check(getC(), "c", {"B", "L", "G", "N"})))
    return failure();
  if (getInit() && failed(v.check(getInit(), "init", {"B", "H", "P", "N"})))
    return failure();
  if (failed(verifyOutsAndResults(*this, getOuts(), 2)) ||
      failed(v.check(getOuts()[0], "y", {"B", "L", "H", "P"})) ||
      failed(v.check(getOuts()[1], "final_state", {"B", "H", "P", "N"})))
    return failure();
  auto heads = v.size("H"), groups = v.size("G");
  if (groups && *groups == 0)
    return emitOpError() << "operand 'b' must have at least one group";
  if (heads && groups && *heads % *groups != 0)
    return emitOpError() << "heads H = " << *heads
                         << " of 'x' must be a multiple of groups G = "
                         << *groups << " of 'b' and 'c'";
  return success();
}

// Iteration domain: (B, H, P), all parallel. Each head reads its group's
// b and c, so a head tile maps to a group tile.
SmallVector<utils::IteratorType> SsdOp::getLoopIteratorTypes() {
  return SmallVector<utils::IteratorType>(3, utils::IteratorType::parallel);
}

SmallVector<Range> SsdOp::getIterationDomain(OpBuilder &b) {
  return iterationDomainOf(b, getLoc(), getX(), {0, 2, 3});
}

FailureOr<TilingResult>
SsdOp::getTiledImplementation(OpBuilder &b, ArrayRef<OpFoldResult> offsets,
                              ArrayRef<OpFoldResult> sizes) {
  Location loc = getLoc();
  FailureOr<int64_t> perGroup = headsPerGroup(getX(), 2, getB(), 2);
  if (failed(perGroup))
    return emitOpError() << "cannot tile with a dynamic number of heads or "
                            "groups";
  if (failed(checkHeadTile(*this, sizes[1], *perGroup)))
    return failure();
  DimTile batch{offsets[0], sizes[0]}, heads{offsets[1], sizes[1]},
      rows{offsets[2], sizes[2]};
  DimTile groups = groupTileOfHeads(b, loc, heads, *perGroup);

  SmallVector<Operation *> slices;
  auto tile = [&](Value v, OperandTile t) {
    return extractTile(b, loc, v, t, slices);
  };
  Value x = tile(getX(), {batch, std::nullopt, heads, rows});
  Value logA = tile(getLogA(), {batch, std::nullopt, heads});
  Value bTile = tile(getB(), {batch, std::nullopt, groups, std::nullopt});
  Value cTile = tile(getC(), {batch, std::nullopt, groups, std::nullopt});
  Value init = getInit() ? tile(getInit(), {batch, heads, rows, std::nullopt})
                         : Value();
  Value yInit = tile(getOuts()[0], {batch, std::nullopt, heads, rows});
  Value stateInit = tile(getOuts()[1], {batch, heads, rows, std::nullopt});
  auto tiled = SsdOp::create(b, loc, x, logA, bTile, cTile, init, yInit,
                             stateInit, getChunkSize());
  return TilingResult{{tiled}, SmallVector<Value>(tiled->getResults()),
                      slices};
}

LogicalResult SsdOp::getResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  DimTile batch{offsets[0], sizes[0]}, heads{offsets[1], sizes[1]},
      rows{offsets[2], sizes[2]};
  Value out = getOuts()[resultNumber];
  OperandTile t = resultNumber == 0
                      ? OperandTile{batch, std::nullopt, heads, rows}
                      : OperandTile{batch, heads, rows, std::nullopt};
  tileOffsetsAndSizes(b, getLoc(), out, t, resultOffsets, resultSizes);
  return success();
}
