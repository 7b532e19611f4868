//===- GradientSums.h - sums of products for the backward lowerings -*- C++ -*-===//
//
// Gradients are sums over the dims an operand does not have (a gate's
// gradient sums over the state, a shared group's over its channels): one
// linalg.generic with reduction dims, accumulating into its destination.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_LIB_CONVERSION_MIXERTOLINALG_GRADIENTSUMS_H
#define MIXER_LIB_CONVERSION_MIXERTOLINALG_GRADIENTSUMS_H

#include "mixer/Utils/LinalgBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::mixer {

/// acc += sum over the `reductions` dims of body(inputs): a linalg.generic
/// over accMap.getNumDims() dims with the inputs' `maps` and `accMap`;
/// `body` maps the input scalars to the term added.
inline Value
sumInto(LinalgBuilder &lb, ValueRange inputs, ArrayRef<AffineMap> maps,
        Value acc, AffineMap accMap, ArrayRef<unsigned> reductions,
        function_ref<Value(ImplicitLocOpBuilder &, ValueRange)> body) {
  ImplicitLocOpBuilder &b = lb.builder();
  SmallVector<utils::IteratorType> iterators(accMap.getNumDims(),
                                             utils::IteratorType::parallel);
  for (unsigned d : reductions)
    iterators[d] = utils::IteratorType::reduction;
  SmallVector<AffineMap> allMaps(maps);
  allMaps.push_back(accMap);
  auto op = linalg::GenericOp::create(
      b, acc.getType(), inputs, ValueRange{acc}, allMaps, iterators,
      [&](OpBuilder &nb, Location loc, ValueRange args) {
        ImplicitLocOpBuilder ib(loc, nb);
        Value term = body(ib, args.drop_back());
        linalg::YieldOp::create(
            ib, ValueRange{arith::AddFOp::create(ib, args.back(), term)});
      });
  return op.getResult(0);
}

/// The product of the scalars `args`: the body of the sums of products.
inline Value productOf(ImplicitLocOpBuilder &b, ValueRange args) {
  Value p = args[0];
  for (Value a : args.drop_front())
    p = arith::MulFOp::create(b, p, a);
  return p;
}

} // namespace mlir::mixer

#endif // MIXER_LIB_CONVERSION_MIXERTOLINALG_GRADIENTSUMS_H
