//===- TilingUtils.h - helpers shared by the ops' TilingInterface -*- C++ -*-===//

#ifndef MIXER_LIB_DIALECT_MIXER_IR_TILINGUTILS_H
#define MIXER_LIB_DIALECT_MIXER_IR_TILINGUTILS_H

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/TilingInterface.h"
#include <optional>

namespace mlir::mixer {

/// The tile of one dimension: offset and size. std::nullopt: the whole dim.
struct DimTile {
  OpFoldResult offset, size;
};
using OperandTile = SmallVector<std::optional<DimTile>>;

/// The iteration domain of a structured op: [0, size) with stride 1 for each
/// of `dims` of `value`.
SmallVector<Range> iterationDomainOf(OpBuilder &b, Location loc, Value value,
                                     ArrayRef<int64_t> dims);

/// Extracts the tile `tile` of `value` and records the slice op in `slices`.
Value extractTile(OpBuilder &b, Location loc, Value value,
                  const OperandTile &tile, SmallVectorImpl<Operation *> &slices);

/// Offsets and sizes of `tile` over all dims of `value` (whole dims filled in).
void tileOffsetsAndSizes(OpBuilder &b, Location loc, Value value,
                         const OperandTile &tile,
                         SmallVectorImpl<OpFoldResult> &offsets,
                         SmallVectorImpl<OpFoldResult> &sizes);

/// The groups read by the heads [headOffset, headOffset + headSize) when each
/// group serves `headsPerGroup` consecutive heads (or channels, for the
/// selective scan). Exact when the head tile lies within one group or covers
/// whole groups; `checkHeadTile` tells.
DimTile groupTileOfHeads(OpBuilder &b, Location loc, DimTile heads,
                         int64_t headsPerGroup);
/// Fails (with a message on `op`) for a head tile that would split a group
/// across tiles unevenly, or whose size is not a constant (a partial tile).
/// `members` names the heads in the message.
LogicalResult checkHeadTile(Operation *op, OpFoldResult headSize,
                            int64_t headsPerGroup, StringRef members = "heads");

} // namespace mlir::mixer

#endif // MIXER_LIB_DIALECT_MIXER_IR_TILINGUTILS_H
