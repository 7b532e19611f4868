//===- ParallelTilePolicies.h - helpers of the tile policies ---*- C++ -*-===//
//
// The building blocks of the tile policies that the ops state in ODS
// (`parallelTilePolicy`, generated into getParallelTileSizes) and of the
// hand-written ones of ParallelTileSizes.cpp, where they are defined.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_LIB_DIALECT_MIXER_IR_PARALLELTILEPOLICIES_H
#define MIXER_LIB_DIALECT_MIXER_IR_PARALLELTILEPOLICIES_H

#include "mixer/Target/TargetDescription.h"

#include "mlir/IR/Value.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::mixer {

/// Columns per tile of a grouped GEMM's output `out` (dim 1): the largest
/// block of at most 256 columns that divides them into an even number of
/// tiles, else into at least two; else untiled. With packed weights, a
/// block is whole panels: a multiple of `panelWidth`.
SmallVector<int64_t> columnBlockTile(Value out, int64_t panelWidth = 1);

/// The panel width of a forward grouped op's packed weights, else 1.
int64_t panelWidthOf(Value weights);

/// `rowBlock` rows per tile, after a unit batch entry when `batched`, then
/// `trailing` whole dims.
SmallVector<int64_t> rowBlockTile(bool batched, int64_t rowBlock,
                                  unsigned trailing = 0);

/// One batch entry and `block(n)` of the n heads or channels (dim 2 of
/// `members`) of a group of `b` (its dim 2) per tile; the whole dim when
/// either is dynamic or there are no groups.
SmallVector<int64_t> groupTile(
    Value members, Value b,
    function_ref<int64_t(int64_t)> block = [](int64_t n) { return n; });

/// One batch entry and the target's block of the heads (dim 2 of the
/// time-major `tokens` [B, L, H, D]) per tile, whose chunk steps the
/// lowering runs inside its chunk loop (the heads' rows of a token are
/// adjacent); one head when the heads or the batch are dynamic.
SmallVector<int64_t> headBlockTile(Value tokens,
                                   const TargetDescription &target);

} // namespace mlir::mixer

#endif // MIXER_LIB_DIALECT_MIXER_IR_PARALLELTILEPOLICIES_H
