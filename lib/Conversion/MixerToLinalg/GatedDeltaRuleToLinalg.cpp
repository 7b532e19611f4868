//===- GatedDeltaRuleToLinalg.cpp - gated delta rule in linalg ------------===//
//
// The recurrent form, per (batch, head) and token, with the state S
// [Dk, Dv] in its natural layout. With a = exp(g_t), b = beta_t:
//
//   S_t = a (S - b k (k^T S)) + b k v^T = a S + k w^T,  w = b (v - a S^T k)
//   o_t = scale S_t^T q = scale (a S^T q + (k . q) w)
//
// so that each token reads the old state once for both k^T S and q^T S
// (one [2, Dk] x [Dk, Dv] contraction) and updates it once in place:
//
//   R = [k; q] S                        [2, Dv]
//   w = b (v - a R[0])                  [Dv]
//   o = scale (a R[1] + (k . q) w)      [Dv], written into o
//   S = a S + k w^T                     in place
//
// O(Dk Dv) per token, for every length (the chunked WY form would trade
// these matrix-vector steps for matrix-matrix ones on long sequences).
//
//===----------------------------------------------------------------------===//

#include "LinalgBuilder.h"
#include "MixerToLinalgPatterns.h"

#include "mixer/Dialect/Mixer/IR/MixerOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::mixer;

namespace {

/// The operands, indices and static sizes of one (batch, head).
struct GdrHead {
  Value q, k, v, g, beta;
  Value batch, head;
  int64_t Dk, Dv;
  double scale;
};

struct GatedDeltaRuleToLinalg : public OpRewritePattern<GatedDeltaRuleOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GatedDeltaRuleOp op,
                                PatternRewriter &rewriter) const override;
};

} // namespace

/// Token t: returns (o, S).
static std::pair<Value, Value> tokenStep(LinalgBuilder &lb, const GdrHead &hd,
                                         Value t, Value o, Value st) {
  ImplicitLocOpBuilder &b = lb.builder();
  Type f32 = b.getF32Type();
  OpFoldResult one = b.getIndexAttr(1), two = b.getIndexAttr(2),
               zero = b.getIndexAttr(0);
  OpFoldResult dk = b.getIndexAttr(hd.Dk), dv = b.getIndexAttr(hd.Dv);

  Value kt = lb.slice(hd.k, {hd.batch, t, hd.head, zero}, {one, one, one, dk},
                      {1, hd.Dk});
  Value qt = lb.slice(hd.q, {hd.batch, t, hd.head, zero}, {one, one, one, dk},
                      {1, hd.Dk});
  Value vt = lb.slice(hd.v, {hd.batch, t, hd.head, zero}, {one, one, one, dv},
                      {hd.Dv});
  SmallVector<Value> at = {hd.batch, t, hd.head};
  Value gate = math::ExpOp::create(b, tensor::ExtractOp::create(b, hd.g, at));
  Value beta = tensor::ExtractOp::create(b, hd.beta, at);

  // R = [k; q] S: both reads of the old state in one contraction.
  Value KQ = lb.empty({two, dk}, f32);
  KQ = lb.insert(kt, KQ, {zero, zero}, {one, dk});
  KQ = lb.insert(qt, KQ, {one, zero}, {one, dk});
  Value R = lb.contract(KQ, st, lb.filled({two, dv}, f32, 0.0), Lhs::RowMajor);
  Value kS = lb.slice(R, {zero, zero}, {one, dv}, {hd.Dv});
  Value qS = lb.slice(R, {one, zero}, {one, dv}, {hd.Dv});

  // k . q
  Value k1 = lb.slice(kt, {zero, zero}, {one, dk}, {hd.Dk});
  Value q1 = lb.slice(qt, {zero, zero}, {one, dk}, {hd.Dk});
  Value kqAcc = lb.filled({}, f32, 0.0);
  auto kqOp = linalg::GenericOp::create(
      b, kqAcc.getType(), ValueRange{k1, q1}, ValueRange{kqAcc},
      ArrayRef<AffineMap>{lb.dims(1, {0}), lb.dims(1, {0}), lb.dims(1, {})},
      ArrayRef<utils::IteratorType>{utils::IteratorType::reduction},
      [](OpBuilder &nb, Location loc, ValueRange args) {
        Value prod = arith::MulFOp::create(nb, loc, args[0], args[1]);
        linalg::YieldOp::create(
            nb, loc, arith::AddFOp::create(nb, loc, args[2], prod).getResult());
      });
  Value kq = tensor::ExtractOp::create(b, kqOp.getResult(0), ValueRange{});

  // w = beta (v - gate kS)
  Value w =
      lb.map({vt, kS}, {lb.dims(1, {0}), lb.dims(1, {0})}, lb.empty({dv}, f32),
             [&](ImplicitLocOpBuilder &ib, ValueRange args) {
               Value decayed = arith::MulFOp::create(ib, gate, args[1]);
               Value diff = arith::SubFOp::create(ib, args[0], decayed);
               return arith::MulFOp::create(ib, beta, diff).getResult();
             });
  // o = scale (gate qS + (k . q) w), written into its row of o.
  Value scale = arith::ConstantOp::create(b, b.getF32FloatAttr(hd.scale));
  Value orow =
      lb.slice(o, {hd.batch, t, hd.head, zero}, {one, one, one, dv}, {hd.Dv});
  orow = lb.map({qS, w}, {lb.dims(1, {0}), lb.dims(1, {0})}, orow,
                [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                  Value kept = arith::MulFOp::create(ib, gate, args[0]);
                  Value added = arith::MulFOp::create(ib, kq, args[1]);
                  Value sum = arith::AddFOp::create(ib, kept, added);
                  if (hd.scale == 1.0)
                    return sum;
                  return Value(arith::MulFOp::create(ib, scale, sum));
                });
  o = lb.insert(orow, o, {hd.batch, t, hd.head, zero}, {one, one, one, dv});

  // S = gate S + k w^T, in place.
  st = lb.map({k1, w}, {lb.dims(2, {0}), lb.dims(2, {1})}, st,
              [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                Value outer = arith::MulFOp::create(ib, args[0], args[1]);
                Value kept = arith::MulFOp::create(ib, gate, args[2]);
                return arith::AddFOp::create(ib, kept, outer).getResult();
              });
  return {o, st};
}

LogicalResult
GatedDeltaRuleToLinalg::matchAndRewrite(GatedDeltaRuleOp op,
                                        PatternRewriter &rewriter) const {
  auto qType = cast<RankedTensorType>(op.getQ().getType());
  auto vType = cast<RankedTensorType>(op.getV().getType());
  int64_t H = qType.getDimSize(2), Dk = qType.getDimSize(3),
          Dv = vType.getDimSize(3);
  if (ShapedType::isDynamic(H) || ShapedType::isDynamic(Dk) ||
      ShapedType::isDynamic(Dv))
    return rewriter.notifyMatchFailure(op, "needs static H, Dk and Dv");

  ImplicitLocOpBuilder b(op.getLoc(), rewriter);
  LinalgBuilder lb(b);
  Type f32 = b.getF32Type();
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  OpFoldResult dk = b.getIndexAttr(Dk), dv = b.getIndexAttr(Dv);

  Value c0 = arith::ConstantIndexOp::create(b, 0);
  Value c1 = arith::ConstantIndexOp::create(b, 1);
  Value batches = tensor::DimOp::create(b, op.getQ(), 0);
  Value length = tensor::DimOp::create(b, op.getQ(), 1);
  Value heads = arith::ConstantIndexOp::create(b, H);

  auto headBody = [&](OpBuilder &nb, Location loc, Value batch, Value head,
                      ValueRange outs) -> SmallVector<Value> {
    ImplicitLocOpBuilder ib(loc, nb);
    LinalgBuilder hb(ib);
    GdrHead hd{
        op.getQ(),    op.getK(),
        op.getV(),    op.getG(),
        op.getBeta(), batch,
        head,         Dk,
        Dv,           static_cast<double>(op.getScale().convertToFloat())};
    // The state is updated in place: a fresh copy of init, or zeros.
    Value st =
        op.getInit()
            ? hb.copyToNew(hb.slice(op.getInit(), {batch, head, zero, zero},
                                    {one, one, dk, dv}, {Dk, Dv}))
            : hb.filled({dk, dv}, f32, 0.0);
    auto tokens = scf::ForOp::create(
        ib, c0, length, c1, ValueRange{outs[0], st},
        [&](OpBuilder &tb, Location tl, Value t, ValueRange acc) {
          ImplicitLocOpBuilder tib(tl, tb);
          LinalgBuilder tlb(tib);
          auto [o, s] = tokenStep(tlb, hd, t, acc[0], acc[1]);
          scf::YieldOp::create(tib, ValueRange{o, s});
        });
    Value finalState = hb.insert(tokens.getResult(1), outs[1],
                                 {batch, head, zero, zero}, {one, one, dk, dv});
    return {tokens.getResult(0), finalState};
  };

  auto batchLoop = scf::ForOp::create(
      b, c0, batches, c1, op.getOuts(),
      [&](OpBuilder &bb, Location bl, Value batch, ValueRange outsB) {
        auto hLoop = scf::ForOp::create(
            bb, bl, c0, heads, c1, outsB,
            [&](OpBuilder &hb, Location hl, Value head, ValueRange outsH) {
              scf::YieldOp::create(hb, hl,
                                   headBody(hb, hl, batch, head, outsH));
            });
        scf::YieldOp::create(bb, bl, hLoop.getResults());
      });
  rewriter.replaceOp(op, batchLoop.getResults());
  return success();
}

void mlir::mixer::populateGatedDeltaRuleToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<GatedDeltaRuleToLinalg>(patterns.getContext());
}
