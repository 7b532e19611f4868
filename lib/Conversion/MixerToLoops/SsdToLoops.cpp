//===- SsdToLoops.cpp - mixer.ssd as its token-by-token recurrence --------===//
//
// The literal definition of the SSD scan, one scalar at a time:
//
//   for b, h, p:
//     S[b,h,p,:] = init[b,h,p,:] or 0
//     for t in [0, L):
//       for n:
//         S[b,h,p,n] = exp(log_a[b,t,h]) S[b,h,p,n] + x[b,t,h,p] b[b,t,g,n]
//       y[b,t,h,p] = sum_n S[b,h,p,n] c[b,t,g,n]          (g = h / (H / G))
//
// Row p of the state evolves independently of the other rows, so the loop
// over p sits outside the time loop. The state lives in the final_state
// `outs` tensor itself (threaded through every loop as an iter_arg), so the
// bufferized code writes straight into the caller's buffers.
//
//===----------------------------------------------------------------------===//

#include "LoopBuilder.h"
#include "MixerToLoopsPatterns.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::mixer;
using namespace mlir::mixer::loops;

namespace {
struct SsdToLoops : public OpRewritePattern<SsdOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SsdOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getX(), logA = op.getLogA(), bIn = op.getB(),
          cIn = op.getC(), init = op.getInit();
    Value yOut = op.getOuts()[0], stateOut = op.getOuts()[1];
    Type elemType = getElementTypeOrSelf(x.getType());
    if (!isa<FloatType>(elemType))
      return rewriter.notifyMatchFailure(op, "expected a float element type");

    ScalarBuilder s(rewriter, loc);
    Value batch = dimSize(rewriter, loc, x, 0);
    Value length = dimSize(rewriter, loc, x, 1);
    Value heads = dimSize(rewriter, loc, x, 2);
    Value rows = dimSize(rewriter, loc, x, 3);
    Value groups = dimSize(rewriter, loc, bIn, 2);
    Value stateDim = dimSize(rewriter, loc, bIn, 3);
    Value headsPerGroup = s.divIndex(heads, groups);
    Value zero = s.constant(0.0, elemType);

    SmallVector<Value> results = buildLoopNest(
        rewriter, loc, {batch, heads, rows}, {yOut, stateOut},
        [&](OpBuilder &b, Location loc, ValueRange ivs,
            ValueRange outer) -> SmallVector<Value> {
          ScalarBuilder s(b, loc);
          Value bi = ivs[0], h = ivs[1], p = ivs[2];
          Value g = s.divIndex(h, headsPerGroup);

          // S_{-1}[p, :] = init[b, h, p, :] or 0.
          Value state0 = initState(b, loc, stateDim, outer[1], init, zero,
                                   [&](Value n) -> SmallVector<Value> {
                                     return {bi, h, p, n};
                                   });

          // for t in [0, L): carries (y, state).
          return buildLoopNest(
              b, loc, length, {outer[0], state0},
              [&](OpBuilder &b, Location loc, ValueRange ivs,
                  ValueRange args) -> SmallVector<Value> {
                ScalarBuilder s(b, loc);
                Value t = ivs[0];
                Value decay = s.exp(load(b, loc, logA, {bi, t, h}));
                Value xv = load(b, loc, x, {bi, t, h, p});

                // for n: S[p, n] = decay S[p, n] + x[p] b[n];
                //        acc += S[p, n] c[n]. Carries (state, acc).
                SmallVector<Value> updated = buildLoopNest(
                    b, loc, stateDim, {args[1], zero},
                    [&](OpBuilder &b, Location loc, ValueRange ivs,
                        ValueRange inner) -> SmallVector<Value> {
                      ScalarBuilder s(b, loc);
                      Value n = ivs[0];
                      SmallVector<Value> at = {bi, h, p, n};
                      Value prev = load(b, loc, inner[0], at);
                      Value bv = load(b, loc, bIn, {bi, t, g, n});
                      Value cv = load(b, loc, cIn, {bi, t, g, n});
                      Value next = s.add(s.mul(decay, prev), s.mul(xv, bv));
                      return {store(b, loc, next, inner[0], at),
                              s.add(inner[1], s.mul(next, cv))};
                    });
                Value y = store(b, loc, updated[1], args[0], {bi, t, h, p});
                return {y, updated[0]};
              });
        });
    rewriter.replaceOp(op, results);
    return success();
  }
};
} // namespace

void mlir::mixer::populateSsdToLoopsPatterns(RewritePatternSet &patterns) {
  patterns.add<SsdToLoops>(patterns.getContext());
}
