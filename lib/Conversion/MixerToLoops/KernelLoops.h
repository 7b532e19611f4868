//===- KernelLoops.h - point loops of the kernel sums' scalar forms -*- C++
//-*-===//
//
// What the scalar loops of the kernel sums and of their point gradients
// share: indices with an optional batch index, the directly summed squared
// distance of two points and the bounds of the loops over the points.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_LIB_CONVERSION_MIXERTOLOOPS_KERNELLOOPS_H
#define MIXER_LIB_CONVERSION_MIXERTOLOOPS_KERNELLOOPS_H

#include "LoopBuilder.h"
#include "mixer/Utils/KernelMath.h"

namespace mlir::mixer::loops {

/// Indices with the batch index `bi` in front when `batched`.
inline SmallVector<Value> at(bool batched, Value bi,
                             std::initializer_list<Value> rest) {
  SmallVector<Value> result;
  if (batched)
    result.push_back(bi);
  result.append(rest.begin(), rest.end());
  return result;
}

/// sum_d (x[.., i, d] - y[.., j, d])^2.
inline Value squaredDistance(OpBuilder &b, Location loc, bool batched, Value bi,
                             Value x, Value i, Value y, Value j, Value dims,
                             Value zero) {
  return buildSum(b, loc, dims, zero, [&](OpBuilder &b, Location loc, Value d) {
    return squaredDifference(b, loc, load(b, loc, x, at(batched, bi, {i, d})),
                             load(b, loc, y, at(batched, bi, {j, d})));
  });
}

/// The bounds of the loops over the points: the rows of x (after the batch
/// when batched), the M rows of y and the D coordinates.
struct PointLoopSizes {
  PointLoopSizes(OpBuilder &b, Location loc, bool batched, Value x, Value y) {
    unsigned rowDim = batched ? 1 : 0;
    if (batched)
      rows.push_back(dimSize(b, loc, x, 0));
    rows.push_back(dimSize(b, loc, x, rowDim));
    M = dimSize(b, loc, y, rowDim);
    dims = dimSize(b, loc, x, rowDim + 1);
  }
  SmallVector<Value> rows;
  Value M, dims;

  /// outs = body(b, loc, bi, i, outs) for every row i of x (of batch entry
  /// bi, null when unbatched).
  SmallVector<Value>
  overRows(OpBuilder &builder, Location loc, bool batched, ValueRange outs,
           function_ref<SmallVector<Value>(OpBuilder &, Location, Value, Value,
                                           ValueRange)>
               body) {
    return buildLoopNest(builder, loc, rows, outs,
                         [&](OpBuilder &b, Location loc, ValueRange ivs,
                             ValueRange outer) -> SmallVector<Value> {
                           return body(b, loc, batched ? ivs[0] : Value(),
                                       ivs.back(), outer);
                         });
  }

  /// acc = body(b, loc, j, r2, acc) for every row j of y, with r2 the
  /// squared distance of x_i and y_j (of batch entry bi): the inner loop of
  /// the sums over the pairs of points.
  SmallVector<Value>
  overPointsOfY(OpBuilder &builder, Location loc, bool batched, Value bi,
                Value x, Value i, Value y, ValueRange inits, Value zero,
                function_ref<SmallVector<Value>(OpBuilder &, Location, Value,
                                                Value, ValueRange)>
                    body) {
    return buildLoopNest(builder, loc, M, inits,
                         [&](OpBuilder &b, Location loc, ValueRange jv,
                             ValueRange acc) -> SmallVector<Value> {
                           Value r2 = squaredDistance(b, loc, batched, bi, x, i,
                                                      y, jv[0], dims, zero);
                           return body(b, loc, jv[0], r2, acc);
                         });
  }

  /// out[bi, i] = rowValue(b, loc, bi, i) for every row i of x: the sums
  /// with one value per row.
  SmallVector<Value> storeEachRow(
      OpBuilder &builder, Location loc, bool batched, Value out,
      function_ref<Value(OpBuilder &, Location, Value, Value)> rowValue) {
    return overRows(builder, loc, batched, out,
                    [&](OpBuilder &b, Location loc, Value bi, Value i,
                        ValueRange outer) -> SmallVector<Value> {
                      Value value = rowValue(b, loc, bi, i);
                      return {
                          store(b, loc, value, outer[0], at(batched, bi, {i}))};
                    });
  }
};

} // namespace mlir::mixer::loops

#endif // MIXER_LIB_CONVERSION_MIXERTOLOOPS_KERNELLOOPS_H
