//===- RoutingVjp.cpp - the VJPs of the MoE routing ops -------------------===//
//
// The routing ops move rows and pick experts; their vector-Jacobian
// products need no backward op of their own:
//
// - mixer.moe_dispatch gathers rows, sorted[r] = x[permutation[r] / k], so
//   d x[t] = sum_j d sorted[r] over the slots r of token t: a
//   mixer.moe_combine of d sorted with unit weights.
// - mixer.topk_router's weights w[t, j] are p[t, ids[t, j]] with
//   p = softmax(logits[t]); with `normalize` they are the softmax over the
//   k selected logits. With s[t] = sum_j d w[t, j] w[t, j]:
//     normalize:  d logits[t, e] = sum_{j: ids[t, j] = e} w[t, j] (d w[t, j] - s[t])
//     otherwise:  d logits[t, e] = sum_{j: ids[t, j] = e} d w[t, j] w[t, j]
//                                  - p[t, e] s[t]
//   The expert ids are not differentiated.
//
//===----------------------------------------------------------------------===//

#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Dialect/Mixer/Transforms/Transforms.h"
#include "mixer/Utils/LinalgBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace mlir::mixer;

namespace {
using utils::IteratorType;

/// A linalg.generic with one output.
Value generic(ImplicitLocOpBuilder &b, ValueRange inputs, Value init,
              ArrayRef<AffineMap> maps, ArrayRef<IteratorType> iterators,
              function_ref<Value(ImplicitLocOpBuilder &, ValueRange)> body) {
  return linalg::GenericOp::create(
             b, init.getType(), inputs, ValueRange{init}, maps, iterators,
             [&](OpBuilder &nb, Location loc, ValueRange args) {
               ImplicitLocOpBuilder ib(loc, nb);
               linalg::YieldOp::create(ib, body(ib, args));
             })
      .getResult(0);
}

FailureOr<SmallVector<Value>> buildDispatchVjp(ImplicitLocOpBuilder &b,
                                               MoeDispatchOp op,
                                               ArrayRef<Value> cotangents) {
  SmallVector<Value> result(op->getNumOperands());
  if (!cotangents[0])
    return result;
  LinalgBuilder lb(b);
  auto x = cast<RankedTensorType>(op.getX().getType());
  Value ones = lb.filled(lb.sizesOf(op.getExpertIds()), x.getElementType(), 1.0);
  Value init = lb.empty(lb.sizesOf(op.getX()), x.getElementType());
  result[0] = MoeCombineOp::create(b, cotangents[0], op.getPermutation(), ones,
                                   init)
                  .getResult();
  return result;
}

FailureOr<SmallVector<Value>> buildRouterVjp(ImplicitLocOpBuilder &b,
                                             TopkRouterOp op,
                                             ArrayRef<Value> cotangents) {
  SmallVector<Value> result(op->getNumOperands());
  Value dw = cotangents[0];
  if (!dw)
    return result;
  LinalgBuilder lb(b);
  Value logits = op.getLogits(), w = op.getWeights(), ids = op.getExpertIds();
  Type f = cast<RankedTensorType>(logits.getType()).getElementType();
  Type idType = cast<RankedTensorType>(ids.getType()).getElementType();
  SmallVector<OpFoldResult> rows{lb.sizesOf(logits)[0]};
  auto par = IteratorType::parallel, red = IteratorType::reduction;

  // s[t] = sum_j dw[t, j] w[t, j], over loops (t, j).
  AffineMap tj = lb.dims(2, {0, 1}), t2 = lb.dims(2, {0});
  Value s = generic(b, {dw, w}, lb.filled(rows, f, 0.0), {tj, tj, t2},
                    {par, red}, [](ImplicitLocOpBuilder &ib, ValueRange a) {
                      Value m = arith::MulFOp::create(ib, a[0], a[1]);
                      return arith::AddFOp::create(ib, a[2], m).getResult();
                    });

  // The scatter of the selected entries, over loops (t, e, j).
  bool normalize = op.getNormalize();
  AffineMap t3j = lb.dims(3, {0, 2}), t3 = lb.dims(3, {0}),
            te = lb.dims(3, {0, 1});
  Value scattered = generic(
      b, {ids, w, dw, s}, lb.filled(lb.sizesOf(logits), f, 0.0),
      {t3j, t3j, t3j, t3, te}, {par, par, red},
      [&](ImplicitLocOpBuilder &ib, ValueRange a) {
        Value e = arith::IndexCastOp::create(
            ib, idType, linalg::IndexOp::create(ib, 1));
        Value picked =
            arith::CmpIOp::create(ib, arith::CmpIPredicate::eq, a[0], e);
        Value term =
            normalize
                ? arith::MulFOp::create(
                      ib, a[1], arith::SubFOp::create(ib, a[2], a[3]))
                : arith::MulFOp::create(ib, a[1], a[2]);
        Value zero = arith::ConstantOp::create(ib, ib.getFloatAttr(f, 0.0));
        Value add = arith::SelectOp::create(ib, picked, term, zero);
        return arith::AddFOp::create(ib, a[4], add).getResult();
      });
  if (normalize) {
    result[0] = scattered;
    return result;
  }

  // - p[t, e] s[t], p = softmax(logits[t]) recomputed the stable way.
  AffineMap te2 = lb.dims(2, {0, 1}), id2 = te2;
  Value max = generic(
      b, {logits}, lb.filled(rows, f, -std::numeric_limits<double>::infinity()),
      {te2, t2}, {par, red}, [](ImplicitLocOpBuilder &ib, ValueRange a) {
        return arith::MaximumFOp::create(ib, a[0], a[1]).getResult();
      });
  Value sum = generic(b, {logits, max}, lb.filled(rows, f, 0.0),
                      {te2, t2, t2}, {par, red},
                      [](ImplicitLocOpBuilder &ib, ValueRange a) {
                        Value d = arith::SubFOp::create(ib, a[0], a[1]);
                        Value e = math::ExpOp::create(ib, d);
                        return arith::AddFOp::create(ib, a[2], e).getResult();
                      });
  result[0] = generic(
      b, {scattered, logits, max, sum, s}, lb.empty(lb.sizesOf(logits), f),
      {id2, id2, t2, t2, t2, id2}, {par, par},
      [](ImplicitLocOpBuilder &ib, ValueRange a) {
        Value d = arith::SubFOp::create(ib, a[1], a[2]);
        Value p = arith::DivFOp::create(ib, math::ExpOp::create(ib, d), a[3]);
        Value ps = arith::MulFOp::create(ib, p, a[4]);
        return arith::SubFOp::create(ib, a[0], ps).getResult();
      });
  return result;
}

} // namespace

FailureOr<SmallVector<Value>>
mlir::mixer::buildRoutingVjp(ImplicitLocOpBuilder &b, Operation *op,
                             ArrayRef<Value> cotangents) {
  if (auto dispatch = dyn_cast<MoeDispatchOp>(op))
    return buildDispatchVjp(b, dispatch, cotangents);
  if (auto router = dyn_cast<TopkRouterOp>(op))
    return buildRouterVjp(b, router, cotangents);
  return failure();
}
