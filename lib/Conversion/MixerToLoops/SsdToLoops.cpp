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

namespace mlir::mixer::loops {

static SmallVector<Value> ssdLoops(SsdOp op, PatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value x = op.getX(), logA = op.getLogA(), bIn = op.getB(), cIn = op.getC();
  ScalarBuilder s(rewriter, loc);
  Value heads = dimSize(rewriter, loc, x, 2);
  Value stateDim = dimSize(rewriter, loc, bIn, 3);
  Value headsPerGroup = s.divIndex(heads, dimSize(rewriter, loc, bIn, 2));
  Value zero = s.constant(0.0, getElementTypeOrSelf(x.getType()));

  // Per (b, h, p) and the head's group g: the row S[p, :] from
  // init[b, h, p, :] or 0; per token S[p, n] = decay S[p, n] + x[p] b[n],
  // y[p] = sum_n S[p, n] c[n].
  SmallVector<Value> results = buildScalarScan(
      rewriter, loc,
      {dimSize(rewriter, loc, x, 0), heads, dimSize(rewriter, loc, x, 3)},
      dimSize(rewriter, loc, x, 1), op.getOuts()[0], op.getOuts()[1], stateDim,
      op.getInit(), zero,
      [](ValueRange bhp, Value n) -> SmallVector<Value> {
        return {bhp[0], bhp[1], bhp[2], n};
      },
      [&](OpBuilder &b, Location loc, ValueRange bhp, Value t,
          ValueRange args) -> SmallVector<Value> {
        ScalarBuilder s(b, loc);
        Value bi = bhp[0], h = bhp[1], p = bhp[2], g = bhp[3];
        Value decay = s.exp(load(b, loc, logA, {bi, t, h}));
        Value xv = load(b, loc, x, {bi, t, h, p});
        // for n: carries (state, acc).
        SmallVector<Value> updated =
            buildLoopNest(b, loc, stateDim, {args[1], zero},
                          [&](OpBuilder &b, Location loc, ValueRange ivs,
                              ValueRange inner) -> SmallVector<Value> {
                            ScalarBuilder s(b, loc);
                            Value n = ivs[0];
                            SmallVector<Value> at = {bi, h, p, n};
                            Value prev = load(b, loc, inner[0], at);
                            Value bv = load(b, loc, bIn, {bi, t, g, n});
                            Value cv = load(b, loc, cIn, {bi, t, g, n});
                            Value next =
                                s.add(s.mul(decay, prev), s.mul(xv, bv));
                            return {store(b, loc, next, inner[0], at),
                                    s.add(inner[1], s.mul(next, cv))};
                          });
        Value y = store(b, loc, updated[1], args[0], {bi, t, h, p});
        return {y, updated[0]};
      },
      [&](OpBuilder &b, Location loc, ValueRange bhp) -> SmallVector<Value> {
        return {ScalarBuilder(b, loc).divIndex(bhp[1], headsPerGroup)};
      });
  return results;
}

} // namespace mlir::mixer::loops

void mlir::mixer::populateSsdToLoopsPatterns(RewritePatternSet &patterns) {
  patterns.add<loops::LoopsPattern<SsdOp, loops::ssdLoops>>(
      patterns.getContext());
}
