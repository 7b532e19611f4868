//===- KernelMath.cpp - the kernel and cost formulas ----------------------===//

#include "mixer/Utils/KernelMath.h"
#include "mixer/Utils/LinalgBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::mixer;

Value mlir::mixer::kernelConstantLike(OpBuilder &b, Location loc, Value like,
                                      double value) {
  Type type = like.getType();
  FloatAttr scalar = b.getFloatAttr(getElementTypeOrSelf(type), value);
  if (auto vector = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(vector, scalar));
  return arith::ConstantOp::create(b, loc, scalar);
}

Value mlir::mixer::expOfNonPositive(OpBuilder &b, Location loc, Value v) {
  Value zero = kernelConstantLike(b, loc, v, 0.0);
  return math::ExpOp::create(b, loc,
                             arith::MinimumFOp::create(b, loc, v, zero));
}

Value mlir::mixer::logSumExpMax(OpBuilder &b, Location loc, Value x,
                                Value acc) {
  Value greater =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x, acc);
  return arith::SelectOp::create(b, loc, greater, x, acc);
}

Value mlir::mixer::logSumExpShift(OpBuilder &b, Location loc, Value m) {
  Value negInf = kernelConstantLike(b, loc, m,
                                    -std::numeric_limits<double>::infinity());
  Value isNegInf =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, m, negInf);
  return arith::SelectOp::create(b, loc, isNegInf,
                                 kernelConstantLike(b, loc, m, 0.0), m);
}

Value mlir::mixer::squaredDistanceFromDot(OpBuilder &b, Location loc,
                                          Value xNorm2, Value yNorm2,
                                          Value dot) {
  Value twoDot = arith::AddFOp::create(b, loc, dot, dot);
  Value r2 = arith::SubFOp::create(
      b, loc, arith::AddFOp::create(b, loc, xNorm2, yNorm2), twoDot);
  return arith::MaximumFOp::create(b, loc, r2,
                                   kernelConstantLike(b, loc, r2, 0.0));
}

Value mlir::mixer::squaredDifference(OpBuilder &b, Location loc, Value x,
                                     Value y) {
  Value diff = arith::SubFOp::create(b, loc, x, y);
  return arith::MulFOp::create(b, loc, diff, diff);
}

bool mlir::mixer::sumsSquaredDifferences(KernelKind kind, int64_t D,
                                         bool gpu) {
  if (kind == KernelKind::laplacian || kind == KernelKind::matern32)
    return true;
  return !gpu && D <= kMaxDirectDistanceDim;
}

Value mlir::mixer::kernelCoefficient(OpBuilder &b, Location loc,
                                     KernelKind kind, Value bandwidth) {
  assert(isDistanceBased(kind) && "the linear kernel has no coefficient");
  auto over = [&](double numerator, Value denominator) -> Value {
    return arith::DivFOp::create(
        b, loc, kernelConstantLike(b, loc, denominator, numerator),
        denominator);
  };
  Value h = bandwidth;
  switch (kind) {
  case KernelKind::gaussian:
    return over(-0.5, arith::MulFOp::create(b, loc, h, h));
  case KernelKind::laplacian:
    return over(-1.0, h);
  case KernelKind::matern32:
    return over(std::sqrt(3.0), h);
  default:
    return over(1.0, arith::MulFOp::create(b, loc, h, h));
  }
}

Value mlir::mixer::kernelOfSquaredDistance(OpBuilder &b, Location loc,
                                           KernelKind kind, Value coef,
                                           Value r2) {
  switch (kind) {
  case KernelKind::gaussian:
    return expOfNonPositive(b, loc, arith::MulFOp::create(b, loc, coef, r2));
  case KernelKind::laplacian:
    return expOfNonPositive(
        b, loc,
        arith::MulFOp::create(b, loc, coef, math::SqrtOp::create(b, loc, r2)));
  case KernelKind::matern32: {
    Value one = kernelConstantLike(b, loc, r2, 1.0);
    Value s =
        arith::MulFOp::create(b, loc, coef, math::SqrtOp::create(b, loc, r2));
    Value e = expOfNonPositive(b, loc, arith::NegFOp::create(b, loc, s));
    return arith::MulFOp::create(b, loc, arith::AddFOp::create(b, loc, one, s),
                                 e);
  }
  case KernelKind::inverse_multiquadric: {
    Value one = kernelConstantLike(b, loc, r2, 1.0);
    Value q = arith::AddFOp::create(b, loc, one,
                                    arith::MulFOp::create(b, loc, coef, r2));
    return arith::DivFOp::create(b, loc, one, math::SqrtOp::create(b, loc, q));
  }
  default:
    llvm_unreachable("not a distance-based kernel");
  }
}

/// `value` where r^2 > 0, else 0: the gradients of r at coincident points.
static Value zeroAtCoincidentPoints(OpBuilder &b, Location loc, Value r2,
                                    Value value) {
  Value zero = kernelConstantLike(b, loc, r2, 0.0);
  Value apart =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, r2, zero);
  return arith::SelectOp::create(b, loc, apart, value, zero);
}

Value mlir::mixer::kernelSlopeOfSquaredDistance(OpBuilder &b, Location loc,
                                                KernelKind kind, Value coef,
                                                Value r2) {
  auto times = [&](Value lhs, Value rhs) -> Value {
    return arith::MulFOp::create(b, loc, lhs, rhs);
  };
  switch (kind) {
  case KernelKind::gaussian:
    return times(coef, kernelOfSquaredDistance(b, loc, kind, coef, r2));
  case KernelKind::laplacian: {
    Value r = math::SqrtOp::create(b, loc, r2);
    Value k = kernelOfSquaredDistance(b, loc, kind, coef, r2);
    Value slope = arith::DivFOp::create(b, loc, times(coef, k),
                                        arith::AddFOp::create(b, loc, r, r));
    return zeroAtCoincidentPoints(b, loc, r2, slope);
  }
  case KernelKind::matern32: {
    Value s = times(coef, math::SqrtOp::create(b, loc, r2));
    Value e = expOfNonPositive(b, loc, arith::NegFOp::create(b, loc, s));
    Value halfA2 = times(kernelConstantLike(b, loc, r2, -0.5),
                         times(coef, coef));
    return times(halfA2, e);
  }
  case KernelKind::inverse_multiquadric: {
    Value k = kernelOfSquaredDistance(b, loc, kind, coef, r2);
    Value halfA = times(kernelConstantLike(b, loc, r2, -0.5), coef);
    return times(halfA, times(k, times(k, k)));
  }
  default:
    llvm_unreachable("not a distance-based kernel");
  }
}

Value mlir::mixer::costGradientFactor(OpBuilder &b, Location loc,
                                      KernelKind kind, Value r2) {
  switch (kind) {
  case KernelKind::gaussian:
    return kernelConstantLike(b, loc, r2, 1.0);
  case KernelKind::laplacian: {
    Value inv = arith::DivFOp::create(b, loc,
                                      kernelConstantLike(b, loc, r2, 1.0),
                                      math::SqrtOp::create(b, loc, r2));
    return zeroAtCoincidentPoints(b, loc, r2, inv);
  }
  default:
    return kernelConstantLike(b, loc, r2, 2.0);
  }
}

Value mlir::mixer::costOfSquaredDistance(OpBuilder &b, Location loc,
                                         KernelKind kind, Value r2) {
  switch (kind) {
  case KernelKind::gaussian:
    return arith::MulFOp::create(b, loc, r2,
                                 kernelConstantLike(b, loc, r2, 0.5));
  case KernelKind::laplacian:
    return math::SqrtOp::create(b, loc, r2);
  default:
    return r2;
  }
}

Value mlir::mixer::negCostCoefficient(OpBuilder &b, Location loc,
                                      KernelKind kind, Value eps) {
  double numerator = kind == KernelKind::gaussian ? -0.5 : -1.0;
  return arith::DivFOp::create(
      b, loc, kernelConstantLike(b, loc, eps, numerator), eps);
}

Value mlir::mixer::negScaledCost(OpBuilder &b, Location loc, KernelKind kind,
                                 Value coef, Value r2) {
  Value base = kind == KernelKind::laplacian
                   ? math::SqrtOp::create(b, loc, r2).getResult()
                   : r2;
  return arith::MulFOp::create(b, loc, coef, base);
}

Value mlir::mixer::squaredNorms(LinalgBuilder &lb, Value block,
                                unsigned reducedDim) {
  ImplicitLocOpBuilder &b = lb.builder();
  auto type = cast<RankedTensorType>(block.getType());
  int64_t kept = type.getDimSize(1 - reducedDim);
  Value acc = lb.filled({b.getIndexAttr(kept)}, type.getElementType(), 0.0);
  return lb.sumInto(
      {block}, {lb.dims(2, {0, 1})}, acc, lb.dims(2, {1 - reducedDim}),
      {reducedDim}, [](ImplicitLocOpBuilder &ib, ValueRange args) {
        return arith::MulFOp::create(ib, args[0], args[0]).getResult();
      });
}

Value mlir::mixer::meanPoint(LinalgBuilder &lb, Value points, bool batched) {
  ImplicitLocOpBuilder &b = lb.builder();
  auto type = cast<RankedTensorType>(points.getType());
  unsigned rank = type.getRank(), rowDim = batched ? 1 : 0;
  // Sum over the rows into [(Bt,) D].
  SmallVector<OpFoldResult> sizes = lb.sizesOf(points);
  sizes.erase(sizes.begin() + rowDim);
  Value acc = lb.filled(sizes, type.getElementType(), 0.0);
  SmallVector<unsigned> kept;
  for (unsigned d = 0; d < rank; ++d)
    if (d != rowDim)
      kept.push_back(d);
  SmallVector<unsigned> all = llvm::to_vector(llvm::seq<unsigned>(0, rank));
  Value sum = lb.sumInto(
      {points}, {lb.dims(rank, all)}, acc, lb.dims(rank, kept), {rowDim},
      [](ImplicitLocOpBuilder &, ValueRange args) { return args[0]; });
  // Divided by max(M, 1).
  Value rows = tensor::DimOp::create(b, points, rowDim);
  rows = arith::MaxUIOp::create(b, rows, arith::ConstantIndexOp::create(b, 1));
  Value count = arith::UIToFPOp::create(
      b, type.getElementType(),
      arith::IndexCastUIOp::create(b, b.getI64Type(), rows));
  return lb.map({}, {}, sum, [&](ImplicitLocOpBuilder &ib, ValueRange args) {
    return arith::DivFOp::create(ib, args[0], count).getResult();
  });
}

Value mlir::mixer::centred(LinalgBuilder &lb, Value block, Value centre,
                           unsigned pointDim) {
  auto type = cast<RankedTensorType>(block.getType());
  Value init = lb.empty(lb.sizesOf(block), type.getElementType());
  return lb.map(
      {block, centre}, {lb.dims(2, {0, 1}), lb.dims(2, {pointDim})}, init,
      [](ImplicitLocOpBuilder &ib, ValueRange args) {
        return arith::SubFOp::create(ib, args[0], args[1]).getResult();
      });
}

Value mlir::mixer::sumOfSquaredDifferences(OpBuilder &b, Location loc,
                                           ValueRange x, ValueRange y) {
  assert(!x.empty() && x.size() == y.size() && "one y per x");
  Value sum;
  for (auto [xd, yd] : llvm::zip_equal(x, y)) {
    Value sq = squaredDifference(b, loc, xd, yd);
    sum = sum ? arith::AddFOp::create(b, loc, sum, sq).getResult() : sq;
  }
  return sum;
}
