//===- MoEToLoops.cpp - the MoE ops as their scalar definitions ------------===//
//
// The literal definitions, one scalar at a time. The grouped GEMMs:
//
//   off = 0
//   for e in [0, E):
//     for r in [off, off + size_e):
//       for n: out[r, n] = sum_k lhs[r, k] rhs[e, k, n]
//     off += size_e
//   for r in [off, T): for n: out[r, n] = 0
//
// grouped_swiglu the same with out[r, n] = silu(g) * u, g and u the two dot
// products of row r with column n of w_gate[e] and w_up[e]. Packed weights
// (mixer.pack_weights) hold rhs[e, k, n] at [e, n floordiv W, k, n mod W].
//
// Routing, per token t: the softmax over E, then k picks of the largest
// remaining logit (equal logits: the lower index first), the weights the
// picked probabilities (over their sum with `normalize`). Dispatch: count
// the slots of each expert, place slot a = t*k + j at the next free row of
// its expert (a stable counting sort), gather the rows of x. Combine:
// out[t, :] += weights[t, j] expert_out[r, :] for each row r of slot t*k + j.
//
// Every result is built in its `outs` tensor, threaded through the loops as
// an iter_arg, so the bufferized code writes into the caller's buffers.
//
//===----------------------------------------------------------------------===//

#include "LoopBuilder.h"
#include "MixerToLoopsPatterns.h"
#include "mixer/Conversion/MixerToLoops/MixerToLoops.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

#include <limits>

using namespace mlir;
using namespace mlir::mixer;
using namespace mlir::mixer::loops;

/// An scf.for over [lb, ub) with step 1 carrying `iterArgs`.
static SmallVector<Value> buildRange(OpBuilder &b, Location loc, Value lb,
                                     Value ub, ValueRange iterArgs,
                                     LoopNestBody body) {
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, lb, ub, one, iterArgs,
      [&](OpBuilder &nb, Location nloc, Value iv, ValueRange args) {
        scf::YieldOp::create(nb, nloc, body(nb, nloc, iv, args));
      });
  return SmallVector<Value>(loop.getResults());
}

/// out[r, n] = value(b, loc, r, n) for every row r in [begin, end) and every
/// column n < cols.
static Value
storeRows(OpBuilder &b, Location loc, Value begin, Value end, Value cols,
          Value out,
          function_ref<Value(OpBuilder &, Location, Value r, Value n)> value) {
  return buildRange(
      b, loc, begin, end, out,
      [&](OpBuilder &b, Location loc, ValueRange ivs,
          ValueRange acc) -> SmallVector<Value> {
        Value r = ivs[0];
        return buildLoopNest(
            b, loc, cols, acc[0],
            [&](OpBuilder &b, Location loc, ValueRange ivs,
                ValueRange inner) -> SmallVector<Value> {
              Value n = ivs[0];
              return {store(b, loc, value(b, loc, r, n), inner[0], {r, n})};
            });
      })[0];
}

/// The rows of each group in turn: out[r, n] = element(b, loc, e, r, n) for
/// row r of group e and every column n; then every row past the sum of the
/// sizes is zeroed.
static Value forEachGroupElement(
    OpBuilder &b, Location loc, Value groupSizes, Value rows, Value cols,
    Value out,
    function_ref<Value(OpBuilder &, Location, Value e, Value r, Value n)>
        element) {
  ScalarBuilder s(b, loc);
  Value experts = dimSize(b, loc, groupSizes, 0);
  SmallVector<Value> groups = buildLoopNest(
      b, loc, experts, {out, s.index(0)},
      [&](OpBuilder &b, Location loc, ValueRange ivs,
          ValueRange args) -> SmallVector<Value> {
        Value e = ivs[0];
        Value size = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                                load(b, loc, groupSizes, e));
        // A negative size counts as 0; no group reaches past the last row.
        size = arith::MinSIOp::create(
            b, loc, arith::MaxSIOp::create(b, loc, size, s.index(0)),
            arith::SubIOp::create(b, loc, rows, args[1]));
        Value end = arith::AddIOp::create(b, loc, args[1], size);
        Value done =
            storeRows(b, loc, args[1], end, cols, args[0],
                      [&](OpBuilder &b, Location loc, Value r, Value n) {
                        return element(b, loc, e, r, n);
                      });
        return {done, end};
      });
  Value zero = s.constant(0.0, getElementTypeOrSelf(out.getType()));
  return storeRows(b, loc, groups[1], rows, cols, groups[0],
                   [&](OpBuilder &, Location, Value, Value) { return zero; });
}

/// The panel and the column within it of column n of packed weights
/// [E, P, K, W] (mixer.pack_weights): n floordiv W and n mod W.
static std::pair<Value, Value> panelColumn(OpBuilder &b, Location loc,
                                           Value packed, Value n) {
  Value width = dimSize(b, loc, packed, 3);
  return {arith::DivUIOp::create(b, loc, n, width),
          arith::RemUIOp::create(b, loc, n, width)};
}

/// w[e, k, n] of grouped weights [E, K, N] or packed [E, P, K, W].
static Value weightAt(OpBuilder &b, Location loc, Value w, Value e, Value k,
                      Value n) {
  if (cast<RankedTensorType>(w.getType()).getRank() != 4)
    return load(b, loc, w, {e, k, n});
  auto [panel, column] = panelColumn(b, loc, w, n);
  return load(b, loc, w, {e, panel, k, column});
}

/// sum_k lhs[r, k] w[e, k, n].
static Value rowTimesColumn(OpBuilder &b, Location loc, Value lhs, Value w,
                            Value e, Value r, Value n, Value depth,
                            Value zero) {
  return buildSum(
      b, loc, depth, zero, [&](OpBuilder &b, Location loc, Value k) -> Value {
        return ScalarBuilder(b, loc).mul(load(b, loc, lhs, {r, k}),
                                         weightAt(b, loc, w, e, k, n));
      });
}

/// out[r, n] = element(e, r, n, depth, zero) for every row r of group e and
/// column n of a grouped op with rows `x` [T, K] and weights [E, K, N]:
/// `depth` is K and `zero` a zero of the element type (for rowTimesColumn).
static Value groupedElements(PatternRewriter &rewriter, Location loc, Value x,
                             Value weights, Value groupSizes, Value out,
                             function_ref<Value(OpBuilder &, Location, Value,
                                                Value, Value, Value, Value)>
                                 element) {
  Type elemType = getElementTypeOrSelf(x.getType());
  Value rows = dimSize(rewriter, loc, x, 0);
  Value depth = dimSize(rewriter, loc, x, 1);
  Value cols = dimSize(rewriter, loc, out, 1);
  Value zero = ScalarBuilder(rewriter, loc).constant(0.0, elemType);
  return forEachGroupElement(
      rewriter, loc, groupSizes, rows, cols, out,
      [&](OpBuilder &b, Location loc, Value e, Value r, Value n) {
        return element(b, loc, e, r, n, depth, zero);
      });
}

static SmallVector<Value> groupedMatmulLoops(GroupedMatmulOp op,
                                             PatternRewriter &rewriter) {
  Value lhs = op.getLhs(), rhs = op.getRhs();
  return {groupedElements(
      rewriter, op.getLoc(), lhs, rhs, op.getGroupSizes(), op.getOuts()[0],
      [&](OpBuilder &b, Location loc, Value e, Value r, Value n, Value depth,
          Value zero) {
        return rowTimesColumn(b, loc, lhs, rhs, e, r, n, depth, zero);
      })};
}

static SmallVector<Value> groupedSwigluLoops(GroupedSwigluOp op,
                                             PatternRewriter &rewriter) {
  Value x = op.getX(), wGate = op.getWGate(), wUp = op.getWUp();
  return {groupedElements(
      rewriter, op.getLoc(), x, wGate, op.getGroupSizes(), op.getOuts()[0],
      [&](OpBuilder &b, Location loc, Value e, Value r, Value n, Value depth,
          Value zero) {
        ScalarBuilder s(b, loc);
        Value g = rowTimesColumn(b, loc, x, wGate, e, r, n, depth, zero);
        Value u = rowTimesColumn(b, loc, x, wUp, e, r, n, depth, zero);
        // silu(g) = g / (1 + exp(-g)).
        Value one = s.constant(1.0, getElementTypeOrSelf(x.getType()));
        Value silu = s.div(g, s.add(one, s.exp(s.neg(g))));
        return s.mul(silu, u);
      })};
}

/// packed = 0, then packed[e, n floordiv W, k, n mod W] = weights[e, k, n].
static SmallVector<Value> packWeightsLoops(PackWeightsOp op,
                                           PatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value weights = op.getWeights(), packed = op.getOuts()[0];
  Value zero = ScalarBuilder(rewriter, loc)
                   .constant(0.0, getElementTypeOrSelf(weights.getType()));
  packed = fill(rewriter, loc, zero, packed);
  return buildLoopNest(rewriter, loc, dimSizes(rewriter, loc, weights), packed,
                       [&](OpBuilder &b, Location loc, ValueRange ivs,
                           ValueRange acc) -> SmallVector<Value> {
                         Value e = ivs[0], k = ivs[1], n = ivs[2];
                         auto [panel, column] = panelColumn(b, loc, acc[0], n);
                         return {store(b, loc, load(b, loc, weights, {e, k, n}),
                                       acc[0], {e, panel, k, column})};
                       });
}

/// The index value of an integer scalar (ids, permutation entries, sizes).
static Value toIndex(OpBuilder &b, Location loc, Value v) {
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
}

SmallVector<Value> mlir::mixer::buildTopkRouterLoops(OpBuilder &builder,
                                                    Location loc, Value logits,
                                                    Value weightsOut,
                                                    Value idsOut, int64_t k,
                                                    bool normalize) {
  Type f32 = getElementTypeOrSelf(logits.getType());
  Type i32 = getElementTypeOrSelf(idsOut.getType());
  Value tokens = dimSize(builder, loc, logits, 0);
  Value experts = dimSize(builder, loc, logits, 1);

  return buildLoopNest(
      builder, loc, tokens, ValueRange{weightsOut, idsOut},
      [&](OpBuilder &b, Location loc, ValueRange ivs,
          ValueRange outs) -> SmallVector<Value> {
        ScalarBuilder s(b, loc);
        Value t = ivs[0];
        auto logit = [&](OpBuilder &b, Location loc, Value e) {
          return load(b, loc, logits, {t, e});
        };
        // Softmax over E, shifted by the max logit: p_e = exp(l_e - m) / z.
        Value max = buildLoopNest(
            b, loc, experts,
            s.constant(-std::numeric_limits<double>::infinity(), f32),
            [&](OpBuilder &b, Location loc, ValueRange ivs,
                ValueRange acc) -> SmallVector<Value> {
              return {ScalarBuilder(b, loc).max(acc[0], logit(b, loc, ivs[0]))};
            })[0];
        Value z = buildSum(b, loc, experts, s.constant(0.0, f32),
                           [&](OpBuilder &b, Location loc, Value e) {
                             ScalarBuilder s(b, loc);
                             return s.exp(s.sub(logit(b, loc, e), max));
                           });

        // Pick j = 0 .. k-1 in turn: the largest logit (softmax is
        // monotone, and logits compare exactly) among the experts after
        // the previous pick in the order (descending logit, ascending
        // index). Carries (weights, ids, previous logit, previous index,
        // sum of the picked probabilities).
        Value inf = s.constant(std::numeric_limits<double>::infinity(), f32);
        Value none = s.index(-1);
        Value zero = s.constant(0.0, f32);
        SmallVector<Value> picked = buildLoopNest(
            b, loc, s.index(k), {outs[0], outs[1], inf, none, zero},
            [&](OpBuilder &b, Location loc, ValueRange ivs,
                ValueRange acc) -> SmallVector<Value> {
              ScalarBuilder s(b, loc);
              Value j = ivs[0], prevL = acc[2], prevE = acc[3];
              SmallVector<Value> best = buildLoopNest(
                  b, loc, experts, {s.constant(0.0, f32), s.index(-1)},
                  [&](OpBuilder &b, Location loc, ValueRange ivs,
                      ValueRange cur) -> SmallVector<Value> {
                    Value e = ivs[0], l = logit(b, loc, e);
                    auto cmpf = [&](arith::CmpFPredicate p, Value x, Value y) {
                      return arith::CmpFOp::create(b, loc, p, x, y);
                    };
                    auto cmpi = [&](arith::CmpIPredicate p, Value x, Value y) {
                      return arith::CmpIOp::create(b, loc, p, x, y);
                    };
                    Value after = arith::OrIOp::create(
                        b, loc, cmpf(arith::CmpFPredicate::OLT, l, prevL),
                        arith::AndIOp::create(
                            b, loc, cmpf(arith::CmpFPredicate::OEQ, l, prevL),
                            cmpi(arith::CmpIPredicate::sgt, e, prevE)));
                    // Strictly larger: an equal logit keeps the lower index.
                    Value better = arith::OrIOp::create(
                        b, loc,
                        cmpi(arith::CmpIPredicate::slt, cur[1],
                             ScalarBuilder(b, loc).index(0)),
                        cmpf(arith::CmpFPredicate::OGT, l, cur[0]));
                    Value take = arith::AndIOp::create(b, loc, after, better);
                    return {arith::SelectOp::create(b, loc, take, l, cur[0]),
                            arith::SelectOp::create(b, loc, take, e, cur[1])};
                  });
              Value p = s.div(s.exp(s.sub(best[0], max)), z);
              Value id = arith::IndexCastOp::create(b, loc, i32, best[1]);
              return {store(b, loc, p, acc[0], {t, j}),
                      store(b, loc, id, acc[1], {t, j}), best[0], best[1],
                      s.add(acc[4], p)};
            });
        Value weights = picked[0];
        if (normalize)
          weights =
              buildLoopNest(b, loc, s.index(k), weights,
                            [&](OpBuilder &b, Location loc, ValueRange ivs,
                                ValueRange acc) -> SmallVector<Value> {
                              ScalarBuilder s(b, loc);
                              Value w = load(b, loc, acc[0], {t, ivs[0]});
                              return {store(b, loc, s.div(w, picked[4]), acc[0],
                                            {t, ivs[0]})};
                            })[0];
        return {weights, picked[1]};
      });
}

static SmallVector<Value> topkRouterLoops(TopkRouterOp op,
                                          PatternRewriter &rewriter) {
  return buildTopkRouterLoops(rewriter, op.getLoc(), op.getLogits(),
                              op.getOuts()[0], op.getOuts()[1], op.getK(),
                              op.getNormalize());
}

static SmallVector<Value> moeDispatchLoops(MoeDispatchOp op,
                                           PatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value x = op.getX(), ids = op.getExpertIds();
  Value sorted = op.getOuts()[0], sizes = op.getOuts()[1],
        perm = op.getOuts()[2];
  Type i64 = getElementTypeOrSelf(sizes.getType());
  Type i32 = getElementTypeOrSelf(perm.getType());
  ScalarBuilder s(rewriter, loc);
  Value k = dimSize(rewriter, loc, ids, 1);
  Value slots = dimSize(rewriter, loc, perm, 0);
  Value width = dimSize(rewriter, loc, x, 1);
  Value experts = s.index(static_cast<int64_t>(op.getNumExperts()));
  Value zero64 = arith::ConstantIntOp::create(rewriter, loc, i64, 0);
  Value one64 = arith::ConstantIntOp::create(rewriter, loc, i64, 1);

  // The expert of slot a = t * k + j.
  auto expertOf = [&](OpBuilder &b, Location loc, Value a) {
    ScalarBuilder s(b, loc);
    Value t = s.divIndex(a, k);
    Value j = arith::RemUIOp::create(b, loc, a, k);
    return toIndex(b, loc, load(b, loc, ids, {t, j}));
  };

  // group_sizes[e] = the number of slots of expert e.
  sizes = fill(rewriter, loc, zero64, sizes);
  sizes = buildLoopNest(rewriter, loc, slots, sizes,
                        [&](OpBuilder &b, Location loc, ValueRange ivs,
                            ValueRange acc) -> SmallVector<Value> {
                          Value e = expertOf(b, loc, ivs[0]);
                          Value n = load(b, loc, acc[0], e);
                          return {store(b, loc,
                                        arith::AddIOp::create(b, loc, n, one64),
                                        acc[0], e)};
                        })[0];

  // next[e]: the first row of group e (exclusive prefix sum), then the
  // next free row as slots are placed in order: a stable counting sort.
  int64_t numExperts = op.getNumExperts();
  Value next = tensor::EmptyOp::create(rewriter, loc,
                                       ArrayRef<int64_t>{numExperts}, i64);
  next = buildLoopNest(rewriter, loc, experts, {next, zero64},
                       [&](OpBuilder &b, Location loc, ValueRange ivs,
                           ValueRange acc) -> SmallVector<Value> {
                         Value e = ivs[0];
                         Value n = load(b, loc, sizes, e);
                         return {store(b, loc, acc[1], acc[0], e),
                                 arith::AddIOp::create(b, loc, acc[1], n)};
                       })[0];
  perm = buildLoopNest(
      rewriter, loc, slots, {perm, next},
      [&](OpBuilder &b, Location loc, ValueRange ivs,
          ValueRange acc) -> SmallVector<Value> {
        Value a = ivs[0];
        Value e = expertOf(b, loc, a);
        Value row = load(b, loc, acc[1], e);
        Value slot = arith::IndexCastOp::create(b, loc, i32, a);
        return {store(b, loc, slot, acc[0], toIndex(b, loc, row)),
                store(b, loc, arith::AddIOp::create(b, loc, row, one64), acc[1],
                      e)};
      })[0];

  // sorted[r, :] = x[permutation[r] / k, :].
  sorted = buildLoopNest(
      rewriter, loc, {slots, width}, sorted,
      [&](OpBuilder &b, Location loc, ValueRange ivs,
          ValueRange acc) -> SmallVector<Value> {
        Value t = ScalarBuilder(b, loc).divIndex(
            toIndex(b, loc, load(b, loc, perm, ivs[0])), k);
        return {store(b, loc, load(b, loc, x, {t, ivs[1]}), acc[0], ivs)};
      })[0];
  return {sorted, sizes, perm};
}

static SmallVector<Value> moeCombineLoops(MoeCombineOp op,
                                          PatternRewriter &rewriter) {
  Location loc = op.getLoc();
  Value expertOut = op.getExpertOut(), perm = op.getPermutation(),
        weights = op.getWeights();
  Type f32 = getElementTypeOrSelf(expertOut.getType());
  Value k = dimSize(rewriter, loc, weights, 1);
  Value slots = dimSize(rewriter, loc, expertOut, 0);
  Value cols = dimSize(rewriter, loc, expertOut, 1);

  // out[t, :] = sum over the rows r of token t of w[t, j] expert_out[r, :].
  Value out =
      fill(rewriter, loc, ScalarBuilder(rewriter, loc).constant(0.0, f32),
           op.getOuts()[0]);
  out = buildLoopNest(rewriter, loc, slots, out,
                      [&](OpBuilder &b, Location loc, ValueRange ivs,
                          ValueRange acc) -> SmallVector<Value> {
                        ScalarBuilder s(b, loc);
                        Value r = ivs[0];
                        Value a = toIndex(b, loc, load(b, loc, perm, r));
                        Value t = s.divIndex(a, k);
                        Value j = arith::RemUIOp::create(b, loc, a, k);
                        Value w = load(b, loc, weights, {t, j});
                        return buildLoopNest(
                            b, loc, cols, acc[0],
                            [&](OpBuilder &b, Location loc, ValueRange ivs,
                                ValueRange inner) -> SmallVector<Value> {
                              ScalarBuilder s(b, loc);
                              Value n = ivs[0];
                              Value sum = s.add(
                                  load(b, loc, inner[0], {t, n}),
                                  s.mul(w, load(b, loc, expertOut, {r, n})));
                              return {store(b, loc, sum, inner[0], {t, n})};
                            });
                      })[0];
  return {out};
}

void mlir::mixer::populateMoEToLoopsPatterns(RewritePatternSet &patterns) {
  patterns.add<LoopsPattern<GroupedMatmulOp, groupedMatmulLoops>,
               LoopsPattern<GroupedSwigluOp, groupedSwigluLoops>,
               LoopsPattern<PackWeightsOp, packWeightsLoops>,
               LoopsPattern<MoeDispatchOp, moeDispatchLoops>,
               LoopsPattern<MoeCombineOp, moeCombineLoops>>(
      patterns.getContext());
  populateTopkRouterToLoopsPatterns(patterns);
}

void mlir::mixer::populateTopkRouterToLoopsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<LoopsPattern<TopkRouterOp, topkRouterLoops>>(
      patterns.getContext());
}
