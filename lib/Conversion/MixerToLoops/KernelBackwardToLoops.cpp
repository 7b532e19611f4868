//===- KernelBackwardToLoops.cpp - point gradients as dense loops ---------===//
//
// The literal definitions of the point-gradient sums that the kernel
// backward ops (and sinkhorn_backward) decompose into, one (p, q) pair at a
// time, so that the naive pipeline differentiates what the optimized one
// does:
//
//   kernel_lse_point_grad: for b, p:  grad[b, p, :] = 0, s = 0
//     for q:  P = w_q exp(min(-c(x_p, y_q) / eps + a_p + b_q, 0));  s += P
//             grad[b, p, :] -= (1 / eps) P f(r^2) (x_p - y_q)
//     sums[b, p] = s
//   kernel_mv_point_grad:  for b, i:  dx[b, i, :] = 0
//     for j:  w = <dout_i, v_j>
//             dx[b, i, :] += 2 w k'(r^2) (x_i - y_j)     (distance kernels)
//             dx[b, i, :] += w y_j                       (linear)
//
// with f the cost's gradient factor and k' = dk/d(r^2) of
// mixer/Utils/KernelMath.h and r^2 summed directly.
//
//===----------------------------------------------------------------------===//

#include "KernelLoops.h"
#include "MixerToLoopsPatterns.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::mixer::loops {

/// grad[b, p, :] += scale * (x[b, p, :] - y[b, q, :]) (or scale * y[b, q, :]
/// when `onlyY`); returns the updated grad.
static Value addPointTerm(OpBuilder &b, Location loc, bool batched, Value bi,
                          Value grad, Value p, Value x, Value y, Value q,
                          Value dims, Value scale, bool onlyY) {
  return buildLoopNest(
      b, loc, dims, grad,
      [&](OpBuilder &b, Location loc, ValueRange dv,
          ValueRange acc) -> SmallVector<Value> {
        ScalarBuilder s(b, loc);
        SmallVector<Value> gradAt = at(batched, bi, {p, dv[0]});
        Value yq = load(b, loc, y, at(batched, bi, {q, dv[0]}));
        Value dir =
            onlyY ? yq
                  : s.sub(load(b, loc, x, at(batched, bi, {p, dv[0]})), yq);
        Value updated = s.add(load(b, loc, acc[0], gradAt), s.mul(scale, dir));
        return {store(b, loc, updated, acc[0], gradAt)};
      })[0];
}

/// grad[b, p, :] = 0; returns the updated grad.
static Value zeroRow(OpBuilder &b, Location loc, bool batched, Value bi,
                     Value grad, Value p, Value dims, Value zero) {
  return buildLoopNest(
      b, loc, dims, grad,
      [&](OpBuilder &b, Location loc, ValueRange dv,
          ValueRange acc) -> SmallVector<Value> {
        return {store(b, loc, zero, acc[0], at(batched, bi, {p, dv[0]}))};
      })[0];
}

static SmallVector<Value> kernelLsePointGradLoops(KernelLsePointGradOp op,
                                                  PatternRewriter &rewriter) {
  Location loc = op.getLoc();
  bool batched = op.isBatched();
  Value x = op.getX(), y = op.getY();
  KernelKind kind = op.getKernel();
  ScalarBuilder s(rewriter, loc);
  Value eps = load(rewriter, loc, op.getEps(), ValueRange{});
  Value coef = negCostCoefficient(rewriter, loc, kind, eps);
  Type f32 = rewriter.getF32Type();
  Value zero = s.constant(0.0, f32);
  Value negInvEps = s.neg(s.div(s.constant(1.0, f32), eps));
  PointLoopSizes sizes(rewriter, loc, batched, x, y);
  Value dims = sizes.dims;

  SmallVector<Value> results = sizes.overRows(
      rewriter, loc, batched, op.getOuts(),
      [&](OpBuilder &b, Location loc, Value bi, Value p,
          ValueRange outer) -> SmallVector<Value> {
        Value ap = load(b, loc, op.getRowShift(), at(batched, bi, {p}));
        Value grad = zeroRow(b, loc, batched, bi, outer[0], p, dims, zero);
        SmallVector<Value> done = sizes.overPointsOfY(
            b, loc, batched, bi, x, p, y, {grad, zero}, zero,
            [&](OpBuilder &b, Location loc, Value q, Value r2,
                ValueRange acc) -> SmallVector<Value> {
              ScalarBuilder s(b, loc);
              Value bq = load(b, loc, op.getColShift(), at(batched, bi, {q}));
              Value wq = load(b, loc, op.getColWeight(), at(batched, bi, {q}));
              Value exponent =
                  s.add(s.add(negScaledCost(b, loc, kind, coef, r2), ap), bq);
              Value plan = s.mul(wq, expOfNonPositive(b, loc, exponent));
              Value scale = s.mul(s.mul(negInvEps, plan),
                                  costGradientFactor(b, loc, kind, r2));
              Value g = addPointTerm(b, loc, batched, bi, acc[0], p, x, y, q,
                                     dims, scale, /*onlyY=*/false);
              return {g, s.add(acc[1], plan)};
            });
        Value sums = store(b, loc, done[1], outer[1], at(batched, bi, {p}));
        return {done[0], sums};
      });
  return results;
}

static SmallVector<Value> kernelMvPointGradLoops(KernelMvPointGradOp op,
                                                 PatternRewriter &rewriter) {
  Location loc = op.getLoc();
  bool batched = op.isBatched();
  unsigned rowDim = batched ? 1 : 0;
  Value x = op.getX(), y = op.getY(), v = op.getV(), dout = op.getDout();
  KernelKind kind = op.getKernel();
  bool linear = kind == KernelKind::linear;
  ScalarBuilder s(rewriter, loc);
  Type f32 = rewriter.getF32Type();
  Value zero = s.constant(0.0, f32), two = s.constant(2.0, f32);
  Value coef;
  if (!linear)
    coef =
        kernelCoefficient(rewriter, loc, kind,
                          load(rewriter, loc, op.getBandwidth(), ValueRange{}));
  PointLoopSizes sizes(rewriter, loc, batched, x, y);
  Value dims = sizes.dims;
  Value channels = dimSize(rewriter, loc, v, rowDim + 1);

  SmallVector<Value> results = sizes.overRows(
      rewriter, loc, batched, op.getOuts()[0],
      [&](OpBuilder &b, Location loc, Value bi, Value i,
          ValueRange outer) -> SmallVector<Value> {
        Value dx = zeroRow(b, loc, batched, bi, outer[0], i, dims, zero);
        return buildLoopNest(
            b, loc, sizes.M, dx,
            [&](OpBuilder &b, Location loc, ValueRange jv,
                ValueRange acc) -> SmallVector<Value> {
              ScalarBuilder s(b, loc);
              Value j = jv[0];
              // w = <dout_i, v_j>.
              Value w = buildSum(
                  b, loc, channels, zero,
                  [&](OpBuilder &b, Location loc, Value c) {
                    ScalarBuilder s(b, loc);
                    return s.mul(load(b, loc, dout, at(batched, bi, {i, c})),
                                 load(b, loc, v, at(batched, bi, {j, c})));
                  });
              Value scale = w;
              if (!linear) {
                Value r2 = squaredDistance(b, loc, batched, bi, x, i, y, j,
                                           dims, zero);
                Value slope =
                    kernelSlopeOfSquaredDistance(b, loc, kind, coef, r2);
                scale = s.mul(s.mul(two, w), slope);
              }
              return {addPointTerm(b, loc, batched, bi, acc[0], i, x, y, j,
                                   dims, scale, /*onlyY=*/linear)};
            });
      });
  return results;
}

} // namespace mlir::mixer::loops

void mlir::mixer::populateKernelBackwardToLoopsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<
      loops::LoopsPattern<KernelLsePointGradOp, loops::kernelLsePointGradLoops>,
      loops::LoopsPattern<KernelMvPointGradOp, loops::kernelMvPointGradLoops>>(
      patterns.getContext());
}
