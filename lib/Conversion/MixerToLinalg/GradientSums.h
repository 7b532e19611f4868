//===- GradientSums.h - sums of products for the backward lowerings -*- C++ -*-===//
//
// Gradients are sums over the dims an operand does not have (a gate's
// gradient sums over the state, a shared group's over its channels): one
// linalg.generic with reduction dims, accumulating into its destination
// (LinalgBuilder::sumInto).
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_LIB_CONVERSION_MIXERTOLINALG_GRADIENTSUMS_H
#define MIXER_LIB_CONVERSION_MIXERTOLINALG_GRADIENTSUMS_H

#include "mixer/Utils/LinalgBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::mixer {

/// The product of the scalars `args`: the body of the sums of products.
inline Value productOf(ImplicitLocOpBuilder &b, ValueRange args) {
  Value p = args[0];
  for (Value a : args.drop_front())
    p = arith::MulFOp::create(b, p, a);
  return p;
}

/// acc += the sum of `x` over the dims `reductions`: a sum of one input,
/// which the CPU vectorizer turns into vector adds. (A sum of the products
/// of two inputs becomes a vector.contract, which the outer-product lowering
/// unrolls lane by lane when both operands carry the lane dim: form such
/// products first.)
inline Value sumOf(LinalgBuilder &lb, Value x, AffineMap xMap, Value acc,
                   AffineMap accMap, ArrayRef<unsigned> reductions) {
  return lb.sumInto(
      {x}, {xMap}, acc, accMap, reductions,
      [](ImplicitLocOpBuilder &, ValueRange args) { return args[0]; });
}

/// acc[...] += sum_d x[..., d] over the last dim d of x, which lies along
/// the vector lanes. With `lanes` dividing the last dim, x is first summed
/// a vector at a time (d = j * lanes + w), then the `lanes` partial sums:
/// each output then takes `lanes` dependent scalar adds, not one per d.
inline Value sumOverLastDim(LinalgBuilder &lb, Value x, Value acc,
                            int64_t lanes) {
  ImplicitLocOpBuilder &b = lb.builder();
  Type f32 = b.getF32Type();
  auto type = cast<RankedTensorType>(x.getType());
  unsigned rank = type.getRank();
  SmallVector<unsigned> all, lead;
  for (unsigned d = 0; d < rank; ++d)
    all.push_back(d);
  lead.assign(all.begin(), all.end() - 1);
  int64_t D = type.getDimSize(rank - 1);
  AffineMap accMap = lb.dims(rank, lead);
  if (lanes <= 1 || D % lanes != 0 || D == lanes)
    return sumOf(lb, x, lb.dims(rank, all), acc, accMap, {rank - 1});
  // x viewed as [lead..., D / lanes, lanes], summed over D / lanes.
  SmallVector<int64_t> split(type.getShape());
  split.back() = D / lanes;
  split.push_back(lanes);
  SmallVector<ReassociationIndices> groups;
  for (unsigned d = 0; d + 1 < rank; ++d)
    groups.push_back({d});
  groups.push_back({rank - 1, rank});
  Value xSplit = tensor::ExpandShapeOp::create(
      b, RankedTensorType::get(split, f32), x, groups);
  SmallVector<OpFoldResult> partialSizes = lb.sizesOf(acc);
  partialSizes.push_back(b.getIndexAttr(lanes));
  SmallVector<unsigned> allSplit(all), partialDims(lead);
  allSplit.push_back(rank);
  partialDims.push_back(rank);
  Value partial = sumOf(lb, xSplit, lb.dims(rank + 1, allSplit),
                        lb.filled(partialSizes, f32, 0.0),
                        lb.dims(rank + 1, partialDims), {rank - 1});
  return sumOf(lb, partial, lb.dims(rank, all), acc, accMap, {rank - 1});
}

/// acc[...] += sum_d x[..., d] y[..., d] over the last dim d of x (see
/// sumOverLastDim), with y of x's shape or without its middle dims (y
/// [lead, d] for x [lead, mid..., d]).
inline Value sumOfProductsOverLastDim(LinalgBuilder &lb, Value x, Value y,
                                      Value acc, int64_t lanes) {
  Type f32 = lb.builder().getF32Type();
  auto type = cast<RankedTensorType>(x.getType());
  unsigned rank = type.getRank(), yRank =
      cast<RankedTensorType>(y.getType()).getRank();
  SmallVector<unsigned> all, yDims = {0};
  for (unsigned d = 0; d < rank; ++d)
    all.push_back(d);
  if (yRank == rank)
    yDims = all;
  else
    yDims.push_back(rank - 1);
  Value prod = lb.map({x, y}, {lb.dims(rank, all), lb.dims(rank, yDims)},
                      lb.empty(lb.sizesOf(x), f32),
                      [](ImplicitLocOpBuilder &ib, ValueRange args) {
                        return productOf(ib, args.take_front(2));
                      });
  return sumOverLastDim(lb, prod, acc, lanes);
}

} // namespace mlir::mixer

#endif // MIXER_LIB_CONVERSION_MIXERTOLINALG_GRADIENTSUMS_H
