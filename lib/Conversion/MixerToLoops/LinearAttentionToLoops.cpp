//===- LinearAttentionToLoops.cpp - linear attention as its recurrence ----===//
//
// The literal definition, one scalar at a time. Column j of the state
// evolves independently of the others, so the loop over j sits outside the
// time loop:
//
//   for b, h, j:
//     S[b,h,:,j] = init[b,h,:,j] or 0
//     lag        = S[b,h,:,j]                         (only for w > 0)
//     for t in [0, L):
//       a = exp(log_decay[b,t,h])                    (no log_decay: a = 1)
//       for i: S[b,h,i,j] = a S[b,h,i,j] + k[b,t,h,i] v[b,t,h,j]
//       w == 0: o[b,t,h,j] = scale * sum_i S[b,h,i,j] q[b,t,h,i]
//       w > 0:  if t >= w + 1: lag takes token t - w - 1 the same way
//               o[b,t,h,j] = scale * sum_i lag[i] q[b,t,h,i]
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

static SmallVector<Value> linearAttentionLoops(LinearAttentionOp op,
                                               PatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value q = op.getQ(), k = op.getK(), v = op.getV(),
        logDecay = op.getLogDecay(), init = op.getInit();
  Type elemType = getElementTypeOrSelf(q.getType());
  int64_t window = op.getWindow();

  ScalarBuilder s(rewriter, loc);
  Value keyDim = dimSize(rewriter, loc, q, 3);
  Value zero = s.constant(0.0, elemType);
  Value scale = s.constant(op.getScale().convertToFloat(), elemType);

  // S[i] = decay(t) S[i] + k[t, i] v[t, j] over the column `col` of a
  // state tensor addressed by `at(i)`.
  auto update = [&](OpBuilder &b, Location loc, Value state, Value bi, Value h,
                    Value j, Value t,
                    function_ref<SmallVector<Value>(Value)> at) -> Value {
    ScalarBuilder s(b, loc);
    // Without log_decay the state is kept as is.
    Value decay =
        logDecay ? s.exp(load(b, loc, logDecay, {bi, t, h})) : Value();
    Value vj = load(b, loc, v, {bi, t, h, j});
    return buildLoopNest(b, loc, keyDim, state,
                         [&](OpBuilder &b, Location loc, ValueRange ivs,
                             ValueRange args) -> SmallVector<Value> {
                           ScalarBuilder s(b, loc);
                           SmallVector<Value> idx = at(ivs[0]);
                           Value prev = load(b, loc, args[0], idx);
                           Value ki = load(b, loc, k, {bi, t, h, ivs[0]});
                           Value kept = decay ? s.mul(decay, prev) : prev;
                           Value next = s.add(kept, s.mul(ki, vj));
                           return {store(b, loc, next, args[0], idx)};
                         })[0];
  };
  // sum_i state[at(i)] q[t, i].
  auto readOut = [&](OpBuilder &b, Location loc, Value state, Value bi, Value h,
                     Value t,
                     function_ref<SmallVector<Value>(Value)> at) -> Value {
    return buildSum(b, loc, keyDim, zero,
                    [&](OpBuilder &b, Location loc, Value i) -> Value {
                      ScalarBuilder s(b, loc);
                      return s.mul(load(b, loc, state, at(i)),
                                   load(b, loc, q, {bi, t, h, i}));
                    });
  };

  auto inState = [](ValueRange bhj, Value i) -> SmallVector<Value> {
    return {bhj[0], bhj[1], i, bhj[2]};
  };
  auto inLag = [](Value i) -> SmallVector<Value> { return {i}; };

  // Per (b, h, j): the column S[:, j] from init[b, h, :, j] or 0; with a
  // window w, `lag` holds the column of S_{t-w-1}, starting the same.
  SmallVector<Value> results = buildScalarScan(
      rewriter, loc,
      {dimSize(rewriter, loc, q, 0), dimSize(rewriter, loc, q, 2),
       dimSize(rewriter, loc, v, 3)},
      dimSize(rewriter, loc, q, 1), op.getOuts()[0], op.getOuts()[1], keyDim,
      init, zero, inState,
      [&](OpBuilder &b, Location loc, ValueRange bhj, Value t,
          ValueRange args) -> SmallVector<Value> {
        ScalarBuilder s(b, loc);
        Value bi = bhj[0], h = bhj[1], j = bhj[2];
        auto at = [&](Value i) { return inState(bhj, i); };
        Value state = update(b, loc, args[1], bi, h, j, t, at);
        if (window == 0) {
          Value sum = readOut(b, loc, state, bi, h, t, at);
          return {store(b, loc, s.mul(scale, sum), args[0], {bi, t, h, j}),
                  state};
        }
        // lag = S_{t-w-1} once token t - w - 1 exists.
        Value lagged = s.index(window + 1);
        Value seen =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, t, lagged);
        auto ifOp = scf::IfOp::create(
            b, loc, seen,
            [&](OpBuilder &b, Location loc) {
              Value tl = arith::SubIOp::create(b, loc, t, lagged);
              scf::YieldOp::create(
                  b, loc, update(b, loc, args[2], bi, h, j, tl, inLag));
            },
            [&](OpBuilder &b, Location loc) {
              scf::YieldOp::create(b, loc, args[2]);
            });
        Value lag = ifOp.getResult(0);
        Value sum = readOut(b, loc, lag, bi, h, t, inLag);
        return {store(b, loc, s.mul(scale, sum), args[0], {bi, t, h, j}), state,
                lag};
      },
      /*derived=*/nullptr,
      [&](OpBuilder &b, Location loc, ValueRange bhj) -> SmallVector<Value> {
        if (window == 0)
          return {};
        Value lag = tensor::EmptyOp::create(
            b, loc, ArrayRef<OpFoldResult>{keyDim}, elemType);
        return {buildLoopNest(b, loc, keyDim, lag,
                              [&](OpBuilder &b, Location loc, ValueRange ivs,
                                  ValueRange args) -> SmallVector<Value> {
                                Value i = ivs[0];
                                Value val =
                                    init ? load(b, loc, init, inState(bhj, i))
                                         : zero;
                                return {store(b, loc, val, args[0], inLag(i))};
                              })[0]};
      });
  return results;
}

} // namespace mlir::mixer::loops

void mlir::mixer::populateLinearAttentionToLoopsPatterns(
    RewritePatternSet &patterns) {
  patterns
      .add<loops::LoopsPattern<LinearAttentionOp, loops::linearAttentionLoops>>(
          patterns.getContext());
}
