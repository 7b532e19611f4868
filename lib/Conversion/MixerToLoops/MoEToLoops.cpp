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
// products of row r with column n of w_gate[e] and w_up[e].
//
// Every result is built in its `outs` tensor, threaded through the loops as
// an iter_arg, so the bufferized code writes into the caller's buffers.
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

/// The rows of each group in turn: `row(b, loc, e, r, out)` writes row r of
/// group e; then every row past the sum of the sizes is zeroed.
static Value forEachGroupRow(
    OpBuilder &b, Location loc, Value groupSizes, Value rows, Value cols,
    Value out,
    function_ref<Value(OpBuilder &, Location, Value e, Value r, Value out)>
        row) {
  ScalarBuilder s(b, loc);
  Value experts = dimSize(b, loc, groupSizes, 0);
  SmallVector<Value> groups = buildLoopNest(
      b, loc, experts, {out, s.index(0)},
      [&](OpBuilder &b, Location loc, ValueRange ivs,
          ValueRange args) -> SmallVector<Value> {
        Value e = ivs[0];
        Value size = arith::IndexCastOp::create(
            b, loc, b.getIndexType(), load(b, loc, groupSizes, e));
        Value end = arith::AddIOp::create(b, loc, args[1], size);
        Value done = buildRange(b, loc, args[1], end, args[0],
                                [&](OpBuilder &b, Location loc, ValueRange ivs,
                                    ValueRange acc) -> SmallVector<Value> {
                                  return {row(b, loc, e, ivs[0], acc[0])};
                                })[0];
        return {done, end};
      });
  Value zero = s.constant(0.0, getElementTypeOrSelf(out.getType()));
  return buildRange(
      b, loc, groups[1], rows, groups[0],
      [&](OpBuilder &b, Location loc, ValueRange ivs,
          ValueRange acc) -> SmallVector<Value> {
        Value r = ivs[0];
        return buildLoopNest(b, loc, cols, acc[0],
                             [&](OpBuilder &b, Location loc, ValueRange ivs,
                                 ValueRange inner) -> SmallVector<Value> {
                               return {store(b, loc, zero, inner[0],
                                             {r, ivs[0]})};
                             });
      })[0];
}

/// sum_k lhs[r, k] w[e, k, n].
static Value rowTimesColumn(OpBuilder &b, Location loc, Value lhs, Value w,
                            Value e, Value r, Value n, Value depth,
                            Value zero) {
  return buildSum(b, loc, depth, zero,
                  [&](OpBuilder &b, Location loc, Value k) -> Value {
                    return ScalarBuilder(b, loc).mul(
                        load(b, loc, lhs, {r, k}), load(b, loc, w, {e, k, n}));
                  });
}

namespace {

struct GroupedMatmulToLoops : public OpRewritePattern<GroupedMatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GroupedMatmulOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value lhs = op.getLhs(), rhs = op.getRhs();
    Type elemType = getElementTypeOrSelf(lhs.getType());
    Value rows = dimSize(rewriter, loc, lhs, 0);
    Value depth = dimSize(rewriter, loc, lhs, 1);
    Value cols = dimSize(rewriter, loc, rhs, 2);
    Value zero = ScalarBuilder(rewriter, loc).constant(0.0, elemType);

    Value out = forEachGroupRow(
        rewriter, loc, op.getGroupSizes(), rows, cols, op.getOuts()[0],
        [&](OpBuilder &b, Location loc, Value e, Value r, Value out) -> Value {
          return buildLoopNest(
              b, loc, cols, out,
              [&](OpBuilder &b, Location loc, ValueRange ivs,
                  ValueRange acc) -> SmallVector<Value> {
                Value n = ivs[0];
                Value v =
                    rowTimesColumn(b, loc, lhs, rhs, e, r, n, depth, zero);
                return {store(b, loc, v, acc[0], {r, n})};
              })[0];
        });
    rewriter.replaceOp(op, out);
    return success();
  }
};

struct GroupedSwigluToLoops : public OpRewritePattern<GroupedSwigluOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GroupedSwigluOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getX(), wGate = op.getWGate(), wUp = op.getWUp();
    Type elemType = getElementTypeOrSelf(x.getType());
    Value rows = dimSize(rewriter, loc, x, 0);
    Value depth = dimSize(rewriter, loc, x, 1);
    Value cols = dimSize(rewriter, loc, wGate, 2);
    Value zero = ScalarBuilder(rewriter, loc).constant(0.0, elemType);

    Value out = forEachGroupRow(
        rewriter, loc, op.getGroupSizes(), rows, cols, op.getOuts()[0],
        [&](OpBuilder &b, Location loc, Value e, Value r, Value out) -> Value {
          return buildLoopNest(
              b, loc, cols, out,
              [&](OpBuilder &b, Location loc, ValueRange ivs,
                  ValueRange acc) -> SmallVector<Value> {
                ScalarBuilder s(b, loc);
                Value n = ivs[0];
                Value g = rowTimesColumn(b, loc, x, wGate, e, r, n, depth, zero);
                Value u = rowTimesColumn(b, loc, x, wUp, e, r, n, depth, zero);
                // silu(g) = g / (1 + exp(-g)).
                Value one = s.constant(1.0, elemType);
                Value silu = s.div(g, s.add(one, s.exp(s.neg(g))));
                return {store(b, loc, s.mul(silu, u), acc[0], {r, n})};
              })[0];
        });
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

void mlir::mixer::populateMoEToLoopsPatterns(RewritePatternSet &patterns) {
  patterns.add<GroupedMatmulToLoops, GroupedSwigluToLoops>(patterns.getContext());
}
