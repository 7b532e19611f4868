//===- GroupedPanels.h - grouped GEMMs over packed weight panels -*- C++ -*-===//
//
// The forward grouped GEMMs multiply each group's rows by its expert's
// weights one column panel at a time. A panel (the register tile's width of
// columns, 2 vectors) is first copied into a contiguous [K, width] buffer:
// the micro-kernel then reads it row after row from consecutive cache lines
// instead of one line per row of the [K, N] weight, whose rows, a power of
// two apart, fall into the same few L1 sets. An expert's weights are packed
// once; then each slab of its rows sweeps every panel, or each panel is
// swept by every slab, so that the operand the inner loop reuses stays in
// L1. Each slab holds its register tile across the whole K.
// Experts with too few rows to repay that pass read their panels in place;
// weights packed beforehand are read in their panels, and the micro-kernel
// prefetches the next expert's.
// Defined in GroupedPanels.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_LIB_CONVERSION_MIXERTOLINALG_GROUPEDPANELS_H
#define MIXER_LIB_CONVERSION_MIXERTOLINALG_GROUPEDPANELS_H

#include "mixer/Utils/LinalgBuilder.h"

namespace mlir::mixer {

/// The tile of `dest` ([rows, width], a slice of the output) computed from
/// `lhs` (the slab's rows, [rows, K]) and one packed panel per weight
/// ([K, width]), whose micro-kernel prefetches each panel's rows
/// `panelPrefetchRows` ahead into L1 (0: the panels stay in L1).
using PanelSlabStep =
    function_ref<Value(LinalgBuilder &lb, Value lhs, ValueRange panels,
                       Value dest, int64_t panelPrefetchRows)>;

/// out[rows of group e, panel] = step(lhs rows, the panels of weights[i][e],
/// out tile) for every group and column panel of `panelCols` columns (the
/// last one narrower when N is not a multiple; with `panelCols` <= 0, the
/// weights are used in place, one panel of all N). Each expert's panels are
/// packed once when `packPanels`, else read in place from its [K, N]
/// weight; its rows go in static slabs of at most `slabRows`. Each slab
/// sweeps every packed panel when one step's panels exceed half of
/// `l1CacheBytes` (the slab stays in L1), else each panel is swept by every
/// slab (the panel stays in L1, or in L2 when read in place; always with
/// `l1CacheBytes` 0, as on a GPU); on CPUs, a panel that does not stay in
/// L1 is prefetched into L1 a few rows ahead by the step. With `exactRest`,
/// a group's rows past its full slabs go in one slab of their own height,
/// which streams the panels once, not once per power of two of their count.
/// Rows past the groups are zero. Each weight is [E, K, N], or packed already
/// ([E, P, K, W], mixer.pack_weights: then its panels of W columns are read
/// as they are and `panelCols` is ignored), or, with `transposedWeights`,
/// [E, N, K], each expert's transpose packed (the backward's dlhs; needs
/// `packPanels` and a static N); `lhs` is [T, K] and `out` [T, N].
Value groupedPanelRows(ImplicitLocOpBuilder &b, int64_t slabRows,
                       int64_t panelCols, bool packPanels, int64_t l1CacheBytes,
                       bool exactRest, Value lhs, Value groupSizes,
                       ValueRange weights, Value out, PanelSlabStep step,
                       bool transposedWeights = false);

/// `packed` [E, P, K, W] (static W) with the panels of `weights` [E, K, N]:
/// packed[e, p, :, j] = weights[e, :, p * W + j], zero past N. The packing
/// of groupedPanelRows, over every expert.
Value packWeightPanels(ImplicitLocOpBuilder &b, Value weights, Value packed);

/// acc += lhs [rows, K] x panel [K, width], asking mixer-vectorize-cpu for
/// register blocks of `tileRows` rows, or of all of them when fewer (when
/// `tileRows` > 0: a slab of 13 rows is one block of 13, not 13 of one):
/// the micro-kernel, whose accumulators stay in registers across the whole
/// K. With `prefetchRows` > 0, each step k of its K loop also prefetches
/// row k + prefetchRows of the panel's buffer into L2 (mixer-prefetch-rows):
/// the same panel of the next expert's packed weights, which then comes
/// from memory while this one computes. With `panelPrefetchRows` > 0, it also
/// prefetches row k + panelPrefetchRows of the panel itself into L1.
Value contractPanel(LinalgBuilder &lb, Value lhs, Value panel, Value acc,
                    int64_t tileRows, int64_t prefetchRows = 0,
                    int64_t panelPrefetchRows = 0);

/// Whether the grouped GEMMs pack an expert's [K, N] weights into panels
/// before multiplying: when its panels are reused by enough slabs of rows
/// (`rows` / `experts` per expert on average, T static) to repay the extra
/// pass over the weights that packing costs. Fewer rows read the panels in
/// place.
bool groupedPanelsPacked(int64_t rows, int64_t experts, int64_t slabRows);

/// Rows of a panel's buffer from a row of expert e's panel to the same row
/// of expert e + 1's in weights packed by mixer.pack_weights ([E, P, K, W]):
/// P * K, those of the whole tensor when `weights` is a slice of it (a
/// thread's tile); 0 when dynamic. (Weights read in place are not
/// prefetched across experts.)
int64_t nextExpertPanelRows(Value weights);

/// Rows ahead of the micro-kernel's K step that it prefetches into L1 of a
/// packed panel of `panelBytes` that slab after slab sweeps: none when the
/// panel stays in L1 (at most half of `l1CacheBytes`) or the target has no
/// L1 size (GPUs), else kPanelPrefetchRows.
constexpr int64_t kPanelPrefetchRows = 16;
int64_t panelPrefetchRows(int64_t panelBytes, int64_t l1CacheBytes);

/// Rows of a block of the grouped GEMMs' left-hand side ([rows, K] f32)
/// that stays in a quarter of L2: a multiple of `slabRows`, at least one
/// slab; 0 (no blocks) when K is dynamic.
int64_t groupedRowBlock(int64_t l2CacheBytes, int64_t slabRows, int64_t K);

} // namespace mlir::mixer

#endif // MIXER_LIB_CONVERSION_MIXERTOLINALG_GROUPEDPANELS_H
