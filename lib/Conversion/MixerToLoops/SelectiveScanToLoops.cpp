//===- SelectiveScanToLoops.cpp - selective scan as its recurrence --------===//
//
// The literal definition of the Mamba-1 scan, one scalar at a time:
//
//   for b, d:                                          (g = d / (D / G))
//     h[b,d,:] = init[b,d,:] or 0
//     for t in [0, L):
//       dt = delta[b,t,d] + delta_bias[d]               (bias absent: 0)
//       dt = softplus(dt)                               (with delta_softplus)
//       for n:
//         h[b,d,n] = exp(dt A[d,n]) h[b,d,n] + dt u[b,t,d] b[b,t,g,n]
//       y = sum_n h[b,d,n] c[b,t,g,n] + D_skip[d] u[b,t,d]
//       y[b,t,d] = y * silu(z[b,t,d])                   (z absent: y)
//
// The state lives in the final_state `outs` tensor itself.
//
//===----------------------------------------------------------------------===//

#include "LoopBuilder.h"
#include "MixerToLoopsPatterns.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir::mixer::loops {

static SmallVector<Value> selectiveScanLoops(SelectiveScanOp op,
                                             PatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value u = op.getU(), delta = op.getDelta(), A = op.getA(), bIn = op.getB(),
        cIn = op.getC(), dSkip = op.getDSkip(), z = op.getZ(),
        bias = op.getDeltaBias();
  Type elemType = getElementTypeOrSelf(u.getType());
  bool softplus = op.getDeltaSoftplus();

  ScalarBuilder s(rewriter, loc);
  Value channels = dimSize(rewriter, loc, u, 2);
  Value stateDim = dimSize(rewriter, loc, A, 1);
  Value perGroup = s.divIndex(channels, dimSize(rewriter, loc, bIn, 2));
  Value zero = s.constant(0.0, elemType);

  // Per (b, d) and the channel's group g: h[d, :] from init[b, d, :] or 0;
  // per token the update below.
  SmallVector<Value> results = buildScalarScan(
      rewriter, loc, {dimSize(rewriter, loc, u, 0), channels},
      dimSize(rewriter, loc, u, 1), op.getOuts()[0], op.getOuts()[1], stateDim,
      op.getInit(), zero,
      [](ValueRange bd, Value n) -> SmallVector<Value> {
        return {bd[0], bd[1], n};
      },
      [&](OpBuilder &b, Location loc, ValueRange bd, Value t,
          ValueRange args) -> SmallVector<Value> {
        ScalarBuilder s(b, loc);
        Value bi = bd[0], d = bd[1], g = bd[2];
        Value uv = load(b, loc, u, {bi, t, d});
        Value dt = load(b, loc, delta, {bi, t, d});
        if (bias)
          dt = s.add(dt, load(b, loc, bias, {d}));
        if (softplus) {
          // log1p(exp(dt)), and dt itself for dt > 20.
          Value big = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                            dt, s.constant(20.0, elemType));
          Value soft = math::Log1pOp::create(b, loc, s.exp(dt));
          dt = arith::SelectOp::create(b, loc, big, dt, soft);
        }
        Value du = s.mul(dt, uv);

        // for n: h[n] = exp(dt A[d, n]) h[n] + dt u b[n];
        //        acc += h[n] c[n]. Carries (state, acc).
        SmallVector<Value> updated = buildLoopNest(
            b, loc, stateDim, {args[1], zero},
            [&](OpBuilder &b, Location loc, ValueRange ivs,
                ValueRange inner) -> SmallVector<Value> {
              ScalarBuilder s(b, loc);
              Value n = ivs[0];
              SmallVector<Value> at = {bi, d, n};
              Value prev = load(b, loc, inner[0], at);
              Value decay = s.exp(s.mul(dt, load(b, loc, A, {d, n})));
              Value bv = load(b, loc, bIn, {bi, t, g, n});
              Value cv = load(b, loc, cIn, {bi, t, g, n});
              Value next = s.add(s.mul(decay, prev), s.mul(du, bv));
              return {store(b, loc, next, inner[0], at),
                      s.add(inner[1], s.mul(next, cv))};
            });
        Value y = updated[1];
        if (dSkip)
          y = s.add(y, s.mul(load(b, loc, dSkip, {d}), uv));
        if (z) {
          // silu(z) = z / (1 + exp(-z)).
          Value zv = load(b, loc, z, {bi, t, d});
          Value silu =
              s.div(zv, s.add(s.constant(1.0, elemType), s.exp(s.neg(zv))));
          y = s.mul(y, silu);
        }
        return {store(b, loc, y, args[0], {bi, t, d}), updated[0]};
      },
      [&](OpBuilder &b, Location loc, ValueRange bd) -> SmallVector<Value> {
        return {ScalarBuilder(b, loc).divIndex(bd[1], perGroup)};
      });
  return results;
}

} // namespace mlir::mixer::loops

void mlir::mixer::populateSelectiveScanToLoopsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<loops::LoopsPattern<SelectiveScanOp, loops::selectiveScanLoops>>(
      patterns.getContext());
}
