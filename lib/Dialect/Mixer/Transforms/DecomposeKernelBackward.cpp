//===- DecomposeKernelBackward.cpp - kernel backward ops to row-blocked sums ===//
//
// Each gradient of a kernel sum reduces over the other point set, so the
// composite backward ops become one row-blocked sum per gradient, each tiled
// over its own rows by mixer-tile-parallel-dims:
//
//   kernel_mv_backward:
//     dx = kernel_mv_point_grad(x, y, v, dout)
//     dy = kernel_mv_point_grad(y, x, dout, v)   (w_ij = <dout_i, v_j> is symmetric)
//     dv = kernel_mv(y, x, dout)                 (the forward op)
//     dh = -(1/h) (sum_i <x_i - c, dx_i> + sum_j <y_j - c, dy_j>),
//          c the mean of y (the kernels depend on x / h and y / h only;
//          the gradients sum to 0, so any centre c gives dh, and the mean
//          keeps the sums free of cancellation); 0 for the linear kernel
//   kernel_lse_backward, with P_ij = exp(-c_ij / eps + g_j - out_i):
//     dx = dout * kernel_lse_point_grad(x, y; a = -out, b = g, w = 1).grad
//     dy, dg = kernel_lse_point_grad(y, x; a = g, b = -out, w = dout)
//
//===----------------------------------------------------------------------===//

#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Dialect/Mixer/Transforms/Transforms.h"
#include "mixer/Utils/BuildReplacement.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::mixer;

/// A linalg.generic over `loops` loops with `iterators`, reading `inputs`
/// through `maps` (then `init`, last map); `body` maps the input scalars and
/// the init scalar (last) to the yielded value.
static Value generic(ImplicitLocOpBuilder &b, ValueRange inputs, Value init,
                     ArrayRef<AffineMap> maps,
                     ArrayRef<utils::IteratorType> iterators,
                     function_ref<Value(ImplicitLocOpBuilder &, ValueRange)> body) {
  return linalg::GenericOp::create(
             b, TypeRange{init.getType()}, inputs, ValueRange{init}, maps,
             iterators,
             [&](OpBuilder &nb, Location loc, ValueRange args) {
               ImplicitLocOpBuilder ib(loc, nb);
               linalg::YieldOp::create(ib, body(ib, args));
             })
      .getResult(0);
}

/// A tensor of `sizes` filled with `value`.
static Value filled(ImplicitLocOpBuilder &b, ArrayRef<OpFoldResult> sizes,
                    double value) {
  Value empty = tensor::EmptyOp::create(b, sizes, b.getF32Type());
  Value c = arith::ConstantOp::create(b, b.getF32FloatAttr(value));
  return linalg::FillOp::create(b, c, empty).getResult(0);
}

/// The sizes of `points` [(Bt,) M, D] without D: those of a per-point
/// vector.
static SmallVector<OpFoldResult> pointVectorSizes(ImplicitLocOpBuilder &b,
                                                  Value points) {
  SmallVector<OpFoldResult> sizes =
      tensor::getMixedSizes(b, b.getLoc(), points);
  sizes.pop_back();
  return sizes;
}

static SmallVector<Value> decomposeKernelMvBackward(KernelMvBackwardOp op,
                                                    ImplicitLocOpBuilder &b) {
  KernelKind kind = op.getKernel();
  Value x = op.getX(), y = op.getY(), v = op.getV(), h = op.getBandwidth(),
        dout = op.getDout();
  ValueRange outs = op.getOuts();
  Value dx = KernelMvPointGradOp::create(b, kind, x, y, v, dout, h, outs[0])
                 .getResult();
  Value dy = KernelMvPointGradOp::create(b, kind, y, x, dout, v, h, outs[1])
                 .getResult();
  Value dv = KernelMvOp::create(b, kind, y, x, dout, h, outs[2]).getResult();
  Value zero = arith::ConstantOp::create(b, b.getF32FloatAttr(0.0));
  if (!isDistanceBased(kind)) {
    Value dh = linalg::FillOp::create(b, zero, outs[3]).getResult(0);
    return {dx, dy, dv, dh};
  }

  bool batched = op.isBatched();
  unsigned rank = batched ? 3 : 2;
  MLIRContext *ctx = b.getContext();
  auto map = [&](ArrayRef<unsigned> dims) {
    SmallVector<AffineExpr> exprs;
    for (unsigned d : dims)
      exprs.push_back(getAffineDimExpr(d, ctx));
    return AffineMap::get(rank, 0, exprs, ctx);
  };
  AffineMap points = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap centreMap = batched ? map({0, 2}) : map({1});
  AffineMap scalar = AffineMap::get(rank, 0, {}, ctx);
  using utils::IteratorType;
  SmallVector<IteratorType> overPoints(rank, IteratorType::parallel);
  overPoints[rank - 2] = IteratorType::reduction;

  // c = the mean of y per batch entry (the sum over M divided by max(M, 1)).
  SmallVector<OpFoldResult> centreSizes =
      tensor::getMixedSizes(b, b.getLoc(), y);
  centreSizes.erase(centreSizes.end() - 2);
  Value count = arith::MaxUIOp::create(b, tensor::DimOp::create(b, y, rank - 2),
                                       arith::ConstantIndexOp::create(b, 1));
  Value invCount = arith::DivFOp::create(
      b, arith::ConstantOp::create(b, b.getF32FloatAttr(1.0)),
      arith::UIToFPOp::create(
          b, b.getF32Type(),
          arith::IndexCastUIOp::create(b, b.getI64Type(), count)));
  Value centre = generic(
      b, {y}, filled(b, centreSizes, 0.0), {points, centreMap}, overPoints,
      [&](ImplicitLocOpBuilder &ib, ValueRange args) {
        return arith::AddFOp::create(
                   ib, args[1], arith::MulFOp::create(ib, args[0], invCount))
            .getResult();
      });

  // q = sum <p - c, dp> over the points p of one set.
  SmallVector<IteratorType> all(rank, IteratorType::reduction);
  auto moment = [&](Value pts, Value grad) {
    return generic(b, {pts, grad, centre}, filled(b, {}, 0.0),
                   {points, points, centreMap, scalar}, all,
                   [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                     Value rel = arith::SubFOp::create(ib, args[0], args[2]);
                     return arith::AddFOp::create(
                                ib, args[3],
                                arith::MulFOp::create(ib, rel, args[1]))
                         .getResult();
                   });
  };
  Value qx = moment(x, dx), qy = moment(y, dy);
  AffineMap none = AffineMap::get(0, 0, {}, ctx);
  Value dh = generic(b, {qx, qy, h}, outs[3], {none, none, none, none}, {},
                     [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                       Value q = arith::AddFOp::create(ib, args[0], args[1]);
                       return arith::NegFOp::create(
                                  ib, arith::DivFOp::create(ib, q, args[2]))
                           .getResult();
                     });
  return {dx, dy, dv, dh};
}

static SmallVector<Value> decomposeKernelLseBackward(KernelLseBackwardOp op,
                                                     ImplicitLocOpBuilder &b) {
  KernelKind kind = op.getKernel();
  Value x = op.getX(), y = op.getY(), eps = op.getEps(), dout = op.getDout();
  ValueRange outs = op.getOuts();
  Type f32 = b.getF32Type();
  MLIRContext *ctx = b.getContext();
  unsigned rank = op.isBatched() ? 2 : 1;
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
  SmallVector<utils::IteratorType> parallel(rank,
                                            utils::IteratorType::parallel);

  SmallVector<OpFoldResult> rowSizes = pointVectorSizes(b, x);
  SmallVector<OpFoldResult> colSizes = pointVectorSizes(b, y);
  Value negOut = generic(
      b, {op.getOut()}, tensor::EmptyOp::create(b, rowSizes, f32), {id, id},
      parallel, [](ImplicitLocOpBuilder &ib, ValueRange args) {
        return arith::NegFOp::create(ib, args[0]).getResult();
      });
  Value g = op.getG() ? op.getG() : filled(b, colSizes, 0.0);

  // dx_i = dout_i * grad_i with a = -out, b = g and unit weights.
  auto rows = KernelLsePointGradOp::create(
      b, kind, x, y, eps, negOut, g, filled(b, colSizes, 1.0),
      tensor::EmptyOp::create(b, tensor::getMixedSizes(b, b.getLoc(), x), f32),
      tensor::EmptyOp::create(b, rowSizes, f32));
  SmallVector<AffineExpr> rowExprs;
  for (unsigned d = 0; d < rank; ++d)
    rowExprs.push_back(getAffineDimExpr(d, ctx));
  AffineMap pointId = AffineMap::getMultiDimIdentityMap(rank + 1, ctx);
  AffineMap perPoint = AffineMap::get(rank + 1, 0, rowExprs, ctx);
  SmallVector<utils::IteratorType> overPoints(rank + 1,
                                              utils::IteratorType::parallel);
  Value dx =
      generic(b, {rows.getGrad(), dout}, outs[0], {pointId, perPoint, pointId},
              overPoints, [](ImplicitLocOpBuilder &ib, ValueRange args) {
                return arith::MulFOp::create(ib, args[0], args[1]).getResult();
              });

  // dy and dg over the rows j: a = g, b = -out, weights dout.
  auto cols = KernelLsePointGradOp::create(b, kind, y, x, eps, g, negOut, dout,
                                           outs[1], outs[2]);
  return {dx, cols.getGrad(), cols.getSums()};
}

void mlir::mixer::populateDecomposeKernelBackwardPatterns(
    RewritePatternSet &patterns) {
  addReplacementPatterns<decomposeKernelMvBackward, decomposeKernelLseBackward>(
      patterns);
}
