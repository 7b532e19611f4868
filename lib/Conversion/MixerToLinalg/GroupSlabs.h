//===- GroupSlabs.h - row groups in static slabs, shared by the MoE ops -*- C++ -*-===//
//
// The grouped GEMMs (forward and backward) walk the experts in order with a
// running row offset (the prefix sum of the run-time group sizes) and cover
// each group's rows with static-height slabs: count / slabRows full slabs,
// then at most one slab of each smaller power of two, or one slab of the
// rest's own height. Defined in MoEToLinalg.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_LIB_CONVERSION_MIXERTOLINALG_GROUPSLABS_H
#define MIXER_LIB_CONVERSION_MIXERTOLINALG_GROUPSLABS_H

#include "mixer/Utils/LinalgBuilder.h"

namespace mlir::mixer {

struct TargetDescription;

/// One slab of `rows` rows starting at row `r0`: returns the updated state
/// (the tensors the slabs write, carried through the loops).
using SlabSteps = function_ref<SmallVector<Value>(
    LinalgBuilder &lb, int64_t rows, Value r0, ValueRange state)>;

/// Covers rows [begin, begin + count) with static slabs, carrying `state`.
/// With `exactRest`, the rows the full slabs leave go in one slab of their
/// own height, not in one slab per power of two of their count.
SmallVector<Value> forEachSlabCarrying(ImplicitLocOpBuilder &b,
                                       int64_t slabRows, Value begin,
                                       Value count, ValueRange state,
                                       SlabSteps step, bool exactRest = false);

/// One group: `group(lb, e, offset, size, state)` returns the next state.
using GroupSteps = function_ref<SmallVector<Value>(
    LinalgBuilder &, Value e, Value offset, Value size, ValueRange state)>;

/// Walks the groups in order, carrying `state`; returns the state and, last,
/// the number of rows the groups cover. Sizes are data: a negative one
/// counts as 0 and none reaches past `rowsTotal`.
SmallVector<Value> walkGroups(ImplicitLocOpBuilder &b, Value groupSizes,
                              Value rowsTotal, ValueRange state,
                              GroupSteps group);

/// Zeroes rows [begin, begin + count) of `out` (`cols` columns) in place,
/// in static slabs.
Value zeroRows(ImplicitLocOpBuilder &b, int64_t slabRows, Value begin,
               Value count, OpFoldResult cols, Value out);

/// The static size of `ofr`, or dynamic.
int64_t staticSize(OpFoldResult ofr);

/// out = the rows of each group of `lhs` [T, K] times `weightOf(lb, e)`
/// [K, N], rows past the groups zero: the grouped GEMM, whose weights the
/// backward passes transposed.
Value groupedMatmulRows(ImplicitLocOpBuilder &b, int64_t slabRows, Value lhs,
                        Value groupSizes, OpFoldResult K, OpFoldResult N,
                        Value out,
                        function_ref<Value(LinalgBuilder &, Value e)> weightOf);

/// On a CPU target: out = the rows of each group of `lhs` [T, N] times
/// weightsT[e]^T, weightsT [E, K, N], rows past the groups zero, by the
/// forward grouped GEMM's packed panels and micro-kernel (the backward's
/// dlhs). Defined in MoEToLinalg.cpp.
Value groupedMatmulTransposedCpu(ImplicitLocOpBuilder &b,
                                 const TargetDescription &target, Value lhs,
                                 Value groupSizes, Value weightsT, Value out);

/// The logistic function of `g`, from exp(-|g|) so that the exp never
/// overflows.
Value sigmoidOf(ImplicitLocOpBuilder &b, Value g);

} // namespace mlir::mixer

#endif // MIXER_LIB_CONVERSION_MIXERTOLINALG_GROUPSLABS_H
