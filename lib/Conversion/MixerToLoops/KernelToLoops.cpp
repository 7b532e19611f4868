//===- KernelToLoops.cpp - kernel reductions as dense double loops --------===//
//
// The literal definitions of the kernel sums, one (i, j) pair at a time:
//
//   kernel_lse: for b, i:
//                 m = -inf, s = 0
//                 for j:  a = -c(x_i, y_j) / eps + g_j
//                         m' = max(m, a); s = s exp(m - m') + exp(a - m')
//                 out[b, i] = m + log(s)
//   kernel_mv:  for b, i:  out[b, i, :] = 0
//                 for j:  k = k(x_i, y_j);  out[b, i, :] += k v[b, j, :]
//   transport_cost: for b, i:
//                 out[b, i] = sum_j exp(u_i + v_j - c(x_i, y_j) / eps) c
//
// with r^2 = sum_d (x_id - y_jd)^2 summed directly (no norm expansion) and
// k, c the formulas of mixer/Utils/KernelMath.h. The shift of the
// log-sum-exp is 0 while every term so far is -inf, so that -inf - -inf
// never occurs. Results are written into the `outs` tensors.
//
//===----------------------------------------------------------------------===//

#include "KernelLoops.h"
#include "MixerToLoopsPatterns.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"

#include "mlir/IR/PatternMatch.h"

#include <limits>

namespace mlir::mixer::loops {

static SmallVector<Value> kernelLseLoops(KernelLseOp op,
                                         PatternRewriter &rewriter) {
  Location loc = op.getLoc();
  bool batched = op.isBatched();
  Value x = op.getX(), y = op.getY(), g = op.getG();
  Type f32 = rewriter.getF32Type();
  KernelKind kind = op.getKernel();

  ScalarBuilder s(rewriter, loc);
  Value eps = load(rewriter, loc, op.getEps(), ValueRange{});
  Value coef = negCostCoefficient(rewriter, loc, kind, eps);
  Value zero = s.constant(0.0, f32);
  Value negInf = s.constant(-std::numeric_limits<double>::infinity(), f32);
  PointLoopSizes sizes(rewriter, loc, batched, x, y);

  return sizes.storeEachRow(
      rewriter, loc, batched, op.getOuts()[0],
      [&](OpBuilder &b, Location loc, Value bi, Value i) -> Value {
        // for j: carries the running max and sum.
        SmallVector<Value> lse = sizes.overPointsOfY(
            b, loc, batched, bi, x, i, y, {negInf, zero}, zero,
            [&](OpBuilder &b, Location loc, Value j, Value r2,
                ValueRange acc) -> SmallVector<Value> {
              ScalarBuilder s(b, loc);
              Value a = negScaledCost(b, loc, kind, coef, r2);
              if (g)
                a = s.add(a, load(b, loc, g, at(batched, bi, {j})));
              Value m = s.max(acc[0], a);
              Value shift = logSumExpShift(b, loc, m);
              Value sum = s.add(s.mul(acc[1], s.exp(s.sub(acc[0], shift))),
                                s.exp(s.sub(a, shift)));
              return {m, sum};
            });
        ScalarBuilder s(b, loc);
        return s.add(lse[0], s.log(lse[1]));
      });
}

static SmallVector<Value> kernelMvLoops(KernelMvOp op,
                                        PatternRewriter &rewriter) {
  Location loc = op.getLoc();
  bool batched = op.isBatched();
  unsigned rowDim = batched ? 1 : 0;
  Value x = op.getX(), y = op.getY(), v = op.getV();
  Type f32 = rewriter.getF32Type();
  KernelKind kind = op.getKernel();

  ScalarBuilder s(rewriter, loc);
  Value coef;
  if (isDistanceBased(kind))
    coef =
        kernelCoefficient(rewriter, loc, kind,
                          load(rewriter, loc, op.getBandwidth(), ValueRange{}));
  Value zero = s.constant(0.0, f32);
  PointLoopSizes sizes(rewriter, loc, batched, x, y);
  Value M = sizes.M, dims = sizes.dims;
  Value channels = dimSize(rewriter, loc, v, rowDim + 1);

  // k(x_i, y_j).
  auto kernel = [&](OpBuilder &b, Location loc, Value bi, Value i,
                    Value j) -> Value {
    if (kind == KernelKind::linear)
      return buildSum(b, loc, dims, zero,
                      [&](OpBuilder &b, Location loc, Value d) {
                        ScalarBuilder s(b, loc);
                        return s.mul(load(b, loc, x, at(batched, bi, {i, d})),
                                     load(b, loc, y, at(batched, bi, {j, d})));
                      });
    Value r2 = squaredDistance(b, loc, batched, bi, x, i, y, j, dims, zero);
    return kernelOfSquaredDistance(b, loc, kind, coef, r2);
  };

  SmallVector<Value> results = sizes.overRows(
      rewriter, loc, batched, op.getOuts()[0],
      [&](OpBuilder &b, Location loc, Value bi, Value i,
          ValueRange outer) -> SmallVector<Value> {
        // out[b, i, :] = 0.
        Value out = buildLoopNest(
            b, loc, channels, outer[0],
            [&](OpBuilder &b, Location loc, ValueRange cv,
                ValueRange acc) -> SmallVector<Value> {
              return {store(b, loc, zero, acc[0], at(batched, bi, {i, cv[0]}))};
            })[0];
        // for j: out[b, i, :] += k(x_i, y_j) v[b, j, :].
        return buildLoopNest(
            b, loc, M, out,
            [&](OpBuilder &b, Location loc, ValueRange jv,
                ValueRange acc) -> SmallVector<Value> {
              Value j = jv[0];
              Value k = kernel(b, loc, bi, i, j);
              return buildLoopNest(
                  b, loc, channels, acc[0],
                  [&](OpBuilder &b, Location loc, ValueRange cv,
                      ValueRange acc) -> SmallVector<Value> {
                    ScalarBuilder s(b, loc);
                    SmallVector<Value> outAt = at(batched, bi, {i, cv[0]});
                    Value term =
                        s.mul(k, load(b, loc, v, at(batched, bi, {j, cv[0]})));
                    return {store(b, loc,
                                  s.add(load(b, loc, acc[0], outAt), term),
                                  acc[0], outAt)};
                  });
            });
      });
  return results;
}

static SmallVector<Value> transportCostLoops(TransportCostOp op,
                                             PatternRewriter &rewriter) {
  Location loc = op.getLoc();
  bool batched = op.isBatched();
  Value x = op.getX(), y = op.getY(), logU = op.getLogU(), logV = op.getLogV();
  KernelKind kind = op.getCost();

  ScalarBuilder s(rewriter, loc);
  Value eps = load(rewriter, loc, op.getEps(), ValueRange{});
  Value zero = s.constant(0.0, rewriter.getF32Type());
  PointLoopSizes sizes(rewriter, loc, batched, x, y);
  Value M = sizes.M, dims = sizes.dims;

  return sizes.storeEachRow(
      rewriter, loc, batched, op.getOuts()[0],
      [&](OpBuilder &b, Location loc, Value bi, Value i) -> Value {
        Value ui = load(b, loc, logU, at(batched, bi, {i}));
        // sum_j exp(u_i + v_j - C_ij / eps) C_ij.
        return buildSum(
            b, loc, M, zero, [&](OpBuilder &b, Location loc, Value j) {
              ScalarBuilder s(b, loc);
              Value r2 =
                  squaredDistance(b, loc, batched, bi, x, i, y, j, dims, zero);
              Value c = costOfSquaredDistance(b, loc, kind, r2);
              Value vj = load(b, loc, logV, at(batched, bi, {j}));
              Value plan = s.exp(s.sub(s.add(ui, vj), s.div(c, eps)));
              return s.mul(plan, c);
            });
      });
}

} // namespace mlir::mixer::loops

void mlir::mixer::populateKernelToLoopsPatterns(RewritePatternSet &patterns) {
  patterns.add<loops::LoopsPattern<KernelLseOp, loops::kernelLseLoops>,
               loops::LoopsPattern<KernelMvOp, loops::kernelMvLoops>,
               loops::LoopsPattern<TransportCostOp, loops::transportCostLoops>>(
      patterns.getContext());
}
