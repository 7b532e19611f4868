//===- GatedDeltaRuleToLoops.cpp - gated delta rule as its recurrence -----===//
//
// The literal definition, one scalar at a time. Column j of the state
// evolves independently of the others ((I - beta k k^T) acts on each column
// alone), so the loop over j sits outside the time loop:
//
//   for b, h, j:
//     S[b,h,:,j] = init[b,h,:,j] or 0
//     for t in [0, L):
//       a = exp(g[b,t,h]), beta = beta[b,t,h]
//       kS = sum_i k[b,t,h,i] S[b,h,i,j]
//       for i: S[b,h,i,j] = a (S[b,h,i,j] - beta k[b,t,h,i] kS)
//                           + beta k[b,t,h,i] v[b,t,h,j]
//       o[b,t,h,j] = scale * sum_i S[b,h,i,j] q[b,t,h,i]
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

static SmallVector<Value> gatedDeltaRuleLoops(GatedDeltaRuleOp op,
                                              PatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value q = op.getQ(), k = op.getK(), v = op.getV(), g = op.getG(),
        betaIn = op.getBeta();
  Type elemType = getElementTypeOrSelf(q.getType());

  ScalarBuilder s(rewriter, loc);
  Value keyDim = dimSize(rewriter, loc, q, 3);
  Value zero = s.constant(0.0, elemType);
  Value scale = s.constant(op.getScale().convertToFloat(), elemType);

  // Per (b, h, j): the column S[:, j] from init[b, h, :, j] or 0; per token
  // the delta-rule update below.
  SmallVector<Value> results = buildScalarScan(
      rewriter, loc,
      {dimSize(rewriter, loc, q, 0), dimSize(rewriter, loc, q, 2),
       dimSize(rewriter, loc, v, 3)},
      dimSize(rewriter, loc, q, 1), op.getOuts()[0], op.getOuts()[1], keyDim,
      op.getInit(), zero,
      [](ValueRange bhj, Value i) -> SmallVector<Value> {
        return {bhj[0], bhj[1], i, bhj[2]};
      },
      [&](OpBuilder &b, Location loc, ValueRange bhj, Value t,
          ValueRange args) -> SmallVector<Value> {
        Value bi = bhj[0], h = bhj[1], j = bhj[2];
        ScalarBuilder s(b, loc);
        Value gate = s.exp(load(b, loc, g, {bi, t, h}));
        Value beta = load(b, loc, betaIn, {bi, t, h});
        Value vj = load(b, loc, v, {bi, t, h, j});
        Value kS =
            buildSum(b, loc, keyDim, zero,
                     [&](OpBuilder &b, Location loc, Value i) -> Value {
                       ScalarBuilder s(b, loc);
                       return s.mul(load(b, loc, k, {bi, t, h, i}),
                                    load(b, loc, args[1], {bi, h, i, j}));
                     });
        Value state = buildLoopNest(
            b, loc, keyDim, args[1],
            [&](OpBuilder &b, Location loc, ValueRange ivs,
                ValueRange inner) -> SmallVector<Value> {
              ScalarBuilder s(b, loc);
              SmallVector<Value> at = {bi, h, ivs[0], j};
              Value ki = load(b, loc, k, {bi, t, h, ivs[0]});
              Value bk = s.mul(beta, ki);
              Value prev = load(b, loc, inner[0], at);
              Value next =
                  s.add(s.mul(gate, s.sub(prev, s.mul(bk, kS))), s.mul(bk, vj));
              return {store(b, loc, next, inner[0], at)};
            })[0];
        Value sum = buildSum(b, loc, keyDim, zero,
                             [&](OpBuilder &b, Location loc, Value i) -> Value {
                               ScalarBuilder s(b, loc);
                               return s.mul(load(b, loc, state, {bi, h, i, j}),
                                            load(b, loc, q, {bi, t, h, i}));
                             });
        Value o = store(b, loc, s.mul(scale, sum), args[0], {bi, t, h, j});
        return {o, state};
      });
  return results;
}

} // namespace mlir::mixer::loops

void mlir::mixer::populateGatedDeltaRuleToLoopsPatterns(
    RewritePatternSet &patterns) {
  patterns
      .add<loops::LoopsPattern<GatedDeltaRuleOp, loops::gatedDeltaRuleLoops>>(
          patterns.getContext());
}
