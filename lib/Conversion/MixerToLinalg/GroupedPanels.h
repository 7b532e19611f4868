//===- GroupedPanels.h - grouped GEMMs over packed weight panels -*- C++ -*-===//
//
// The forward grouped GEMMs multiply each group's rows by its expert's
// weights one column panel at a time. A panel (the register tile's width of
// columns, 2 vectors) is first copied into a contiguous [K, width] buffer:
// the micro-kernel then reads it row after row from consecutive cache lines
// instead of one line per row of the [K, N] weight, whose rows, a power of
// two apart, fall into the same few L1 sets. Every slab of the group's rows
// then runs over the whole packed panel with its register tile held across
// K. Defined in GroupedPanels.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_LIB_CONVERSION_MIXERTOLINALG_GROUPEDPANELS_H
#define MIXER_LIB_CONVERSION_MIXERTOLINALG_GROUPEDPANELS_H

#include "mixer/Utils/LinalgBuilder.h"

namespace mlir::mixer {

/// The tile of `dest` ([rows, width], a slice of the output) computed from
/// `lhs` (the slab's rows, [rows, K]) and one packed panel per weight
/// ([K, width]).
using PanelSlabStep = function_ref<Value(LinalgBuilder &lb, Value lhs,
                                         ValueRange panels, Value dest)>;

/// out[rows of group e, panel] = step(lhs rows, the panels of weights[i][e],
/// out tile) for every group and column panel of `panelCols` columns (the
/// last one narrower when N is not a multiple), the rows in static slabs of
/// at most `slabRows`; rows past the groups zero. Each weight is [E, K, N];
/// `lhs` is [T, K] and `out` [T, N].
Value groupedPanelRows(ImplicitLocOpBuilder &b, int64_t slabRows,
                       int64_t panelCols, Value lhs, Value groupSizes,
                       ValueRange weights, Value out, PanelSlabStep step);

} // namespace mlir::mixer

#endif // MIXER_LIB_CONVERSION_MIXERTOLINALG_GROUPEDPANELS_H
