//===- LinearAttentionToLinalg.cpp - chunked linear attention in linalg ---===//
//
// Per (batch, head), with the state S [Dk, Dv] in its natural layout (every
// contraction then reads a row-major right-hand side).
//
// The window is a shift. With d = 0 for w == 0 and d = w + 1 for w > 0,
//   o_{s+d} = scale * S_s^T q_{s+d}
// for every key position s, so the windowed scan is the w == 0 scan over the
// keys with the queries (and outputs) read d tokens later; the first
// min(d, L) outputs read the initial state. In four phases:
//
//   prefix   t < min(d, L):   o_t = scale * init^T q_t (0 without init)
//   chunks   full chunks of Q keys s0.. whose outputs s0+d.. are in range
//            (Qc, Kc [Q,Dk], Vc [Q,Dv], cum = prefix sums of log_decay):
//              M[t,s] = s <= t ? scale * exp(min(cum[t] - cum[s], 0)) : 0
//              O      = ((Qc Kc^T) * M) Vc                 intra-chunk block
//                     + (scale * diag(exp(min(cum, 0))) Qc) S
//              S      = exp(min(cum[Q-1], 0)) S
//                     + (diag(exp(min(cum[Q-1] - cum, 0))) Kc)^T Vc
//   tokens   the remaining keys with an output: S = exp(a_s) S + k_s v_s^T,
//            o_{s+d} = scale * S^T q_{s+d}
//   state    the last d keys (no output left to write): state-only chunks,
//            then state-only tokens.
//
// Without log_decay every decay is 1 and no exp is emitted. Sequences of at
// most recurrent-threshold tokens use the token steps only.
//
//===----------------------------------------------------------------------===//

#include "mixer/Utils/LinalgBuilder.h"
#include "mixer/Utils/ScanLoops.h"
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
struct LaHead {
  Value q, k, v, logDecay; // logDecay: null when absent
  Value batch, head;
  int64_t Dk, Dv;
  /// Tokens between a key and the query that first sees it (0 or w + 1).
  int64_t shift;
  double scale;
};

struct LinearAttentionToLinalg : public OpRewritePattern<LinearAttentionOp> {
  LinearAttentionToLinalg(MLIRContext *ctx, int64_t recurrentThreshold)
      : OpRewritePattern(ctx), recurrentThreshold(recurrentThreshold) {}

  LogicalResult matchAndRewrite(LinearAttentionOp op,
                                PatternRewriter &rewriter) const override;

private:
  int64_t recurrentThreshold;
};

} // namespace

/// Index arithmetic at the builder's location.
static Value addIndex(ImplicitLocOpBuilder &b, Value x, int64_t c) {
  if (c == 0)
    return x;
  return arith::AddIOp::create(b, x, arith::ConstantIndexOp::create(b, c));
}

/// A full chunk of Q keys starting at s0. With `withOutput`, also writes the
/// outputs s0 + shift .. s0 + shift + Q - 1 into `o`. Returns (o, S).
static std::pair<Value, Value> chunkStep(LinalgBuilder &lb, const LaHead &hd,
                                         int64_t Q, Value s0, bool withOutput,
                                         Value o, Value st) {
  ImplicitLocOpBuilder &b = lb.builder();
  Type f32 = b.getF32Type();
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  OpFoldResult q = b.getIndexAttr(Q), dk = b.getIndexAttr(hd.Dk),
               dv = b.getIndexAttr(hd.Dv);

  Value Kc = lb.slice(hd.k, {hd.batch, s0, hd.head, zero}, {one, q, one, dk},
                      {Q, hd.Dk});
  // Packed when two contractions read it (its rows are strided across the
  // time-major input).
  Value Vc = lb.slice(hd.v, {hd.batch, s0, hd.head, zero}, {one, q, one, dv},
                      {Q, hd.Dv});
  if (withOutput)
    Vc = lb.copyToNew(Vc);

  Value cum, cumLast;
  if (hd.logDecay) {
    Value A =
        lb.slice(hd.logDecay, {hd.batch, s0, hd.head}, {one, q, one}, {Q});
    std::tie(cumLast, cum) = lb.prefixSumF64(A);
  }
  // The per-row decays (one exp per token, not per element): to the chunk
  // end, and (with the scale folded in) from the chunk start.
  auto rowDecays = [&](bool fromStart, double factor) {
    return lb.map(
        {cum}, {lb.dims(1, {0})}, lb.empty({q}, f32),
        [&](ImplicitLocOpBuilder &ib, ValueRange args) {
          LinalgBuilder ilb(ib);
          Value seg =
              fromStart ? args[0] : arith::SubFOp::create(ib, cumLast, args[0]);
          Value d = ilb.expOfNonPositive(arith::TruncFOp::create(ib, f32, seg));
          if (factor == 1.0)
            return d;
          return Value(arith::MulFOp::create(
              ib, d,
              arith::ConstantOp::create(ib, ib.getF32FloatAttr(factor))));
        });
  };

  if (withOutput) {
    Value t0 = addIndex(b, s0, hd.shift);
    Value Qc = lb.copyToNew(lb.slice(hd.q, {hd.batch, t0, hd.head, zero},
                                     {one, q, one, dk}, {Q, hd.Dk}));
    // Scores, then the causal decay mask (and the scale) applied in place.
    Value Sc = lb.contract(Qc, lb.transpose(Kc), lb.filled({q, q}, f32, 0.0),
                           Lhs::RowMajor);
    SmallVector<Value> maskIn;
    SmallVector<AffineMap> maskMaps;
    if (cum) {
      maskIn = {cum, cum};
      maskMaps = {lb.dims(2, {0}), lb.dims(2, {1})};
    }
    Value M = lb.map(
        maskIn, maskMaps, Sc, [&](ImplicitLocOpBuilder &ib, ValueRange args) {
          LinalgBuilder ilb(ib);
          Value score = args.back();
          if (cum) {
            Value seg = arith::TruncFOp::create(
                ib, f32, arith::SubFOp::create(ib, args[0], args[1]));
            score = arith::MulFOp::create(ib, score, ilb.expOfNonPositive(seg));
          }
          if (hd.scale != 1.0)
            score = arith::MulFOp::create(
                ib, score,
                arith::ConstantOp::create(ib, ib.getF32FloatAttr(hd.scale)));
          Value t = linalg::IndexOp::create(ib, 0),
                s = linalg::IndexOp::create(ib, 1);
          Value causal =
              arith::CmpIOp::create(ib, arith::CmpIPredicate::ule, s, t);
          Value zeroF = arith::ConstantOp::create(ib, ib.getF32FloatAttr(0.0));
          return arith::SelectOp::create(ib, causal, score, zeroF).getResult();
        });
    // The output block accumulates locally and is written once.
    Value O = lb.contract(M, Vc, lb.filled({q, dv}, f32, 0.0), Lhs::RowMajor);

    // Inter-chunk: the state entering the chunk, decayed to each query.
    Value Qs = Qc;
    if (cum || hd.scale != 1.0) {
      SmallVector<Value> in;
      SmallVector<AffineMap> maps;
      if (cum) {
        in = {rowDecays(/*fromStart=*/true, hd.scale)};
        maps = {lb.dims(2, {0})};
      }
      Qs = lb.map(in, maps, Qc, [&](ImplicitLocOpBuilder &ib, ValueRange args) {
        Value factor = cum ? args[0]
                           : Value(arith::ConstantOp::create(
                                 ib, ib.getF32FloatAttr(hd.scale)));
        return Value(arith::MulFOp::create(ib, args.back(), factor));
      });
    }
    O = lb.contract(Qs, st, O, Lhs::RowMajor);
    o = lb.insert(O, o, {hd.batch, t0, hd.head, zero}, {one, q, one, dv});
  }

  // State passing: decay the state over the chunk, add each key decayed to
  // the chunk end.
  Value Kw = Kc;
  if (cum) {
    Kw =
        lb.map({Kc, rowDecays(/*fromStart=*/false, 1.0)},
               {lb.dims(2, {0, 1}), lb.dims(2, {0})}, lb.empty({q, dk}, f32),
               [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                 return arith::MulFOp::create(ib, args[0], args[1]).getResult();
               });
    Value chunkDecay =
        lb.expOfNonPositive(arith::TruncFOp::create(b, f32, cumLast));
    st = lb.map({}, {}, st, [&](ImplicitLocOpBuilder &ib, ValueRange args) {
      return arith::MulFOp::create(ib, args[0], chunkDecay).getResult();
    });
  }
  st = lb.contract(Kw, Vc, st, Lhs::Transposed);
  return {o, st};
}

/// o_t = scale * S^T q_t, written into row t of `o`.
static Value readOut(LinalgBuilder &lb, const LaHead &hd, Value t, Value o,
                     Value st) {
  ImplicitLocOpBuilder &b = lb.builder();
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  OpFoldResult dk = b.getIndexAttr(hd.Dk), dv = b.getIndexAttr(hd.Dv);
  Value qt = lb.slice(hd.q, {hd.batch, t, hd.head, zero}, {one, one, one, dk},
                      {1, hd.Dk});
  if (hd.scale != 1.0) {
    Value scale = arith::ConstantOp::create(b, b.getF32FloatAttr(hd.scale));
    qt = lb.map({qt}, {lb.dims(2, {0, 1})}, lb.empty({one, dk}, b.getF32Type()),
                [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                  return arith::MulFOp::create(ib, args[0], scale).getResult();
                });
  }
  // A [1, Dk] x [Dk, Dv] contraction: FMAs over rows of S.
  Value acc = lb.fill(lb.slice(o, {hd.batch, t, hd.head, zero},
                               {one, one, one, dv}, {1, hd.Dv}),
                      0.0);
  Value ot = lb.contract(qt, st, acc, Lhs::RowMajor);
  return lb.insert(ot, o, {hd.batch, t, hd.head, zero}, {one, one, one, dv});
}

/// One key s: S = exp(a_s) S + k_s v_s^T, then with `withOutput` the output
/// s + shift. Returns (o, S).
static std::pair<Value, Value> tokenStep(LinalgBuilder &lb, const LaHead &hd,
                                         Value s, bool withOutput, Value o,
                                         Value st) {
  ImplicitLocOpBuilder &b = lb.builder();
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  OpFoldResult dk = b.getIndexAttr(hd.Dk), dv = b.getIndexAttr(hd.Dv);
  Value ks = lb.slice(hd.k, {hd.batch, s, hd.head, zero}, {one, one, one, dk},
                      {hd.Dk});
  Value vs = lb.slice(hd.v, {hd.batch, s, hd.head, zero}, {one, one, one, dv},
                      {hd.Dv});
  Value decay;
  if (hd.logDecay)
    decay = lb.expOfNonPositive(tensor::ExtractOp::create(
        b, hd.logDecay, ValueRange{hd.batch, s, hd.head}));
  st = lb.map({ks, vs}, {lb.dims(2, {0}), lb.dims(2, {1})}, st,
              [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                Value outer = arith::MulFOp::create(ib, args[0], args[1]);
                Value kept = args[2];
                if (decay)
                  kept = arith::MulFOp::create(ib, kept, decay);
                return arith::AddFOp::create(ib, kept, outer).getResult();
              });
  if (withOutput)
    o = readOut(lb, hd, addIndex(b, s, hd.shift), o, st);
  return {o, st};
}

LogicalResult
LinearAttentionToLinalg::matchAndRewrite(LinearAttentionOp op,
                                         PatternRewriter &rewriter) const {
  auto qType = cast<RankedTensorType>(op.getQ().getType());
  auto vType = cast<RankedTensorType>(op.getV().getType());
  int64_t H = qType.getDimSize(2), Dk = qType.getDimSize(3),
          Dv = vType.getDimSize(3);
  if (std::optional<std::string> blocker = getLinalgLoweringBlocker(op))
    return rewriter.notifyMatchFailure(op, *blocker);

  ImplicitLocOpBuilder b(op.getLoc(), rewriter);
  LinalgBuilder lb(b);
  Type f32 = b.getF32Type();
  int64_t Q = op.getChunkSize();
  int64_t window = op.getWindow();
  int64_t shift = window == 0 ? 0 : window + 1;
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  OpFoldResult dk = b.getIndexAttr(Dk), dv = b.getIndexAttr(Dv);

  Value c0 = arith::ConstantIndexOp::create(b, 0);
  Value c1 = arith::ConstantIndexOp::create(b, 1);
  Value cQ = arith::ConstantIndexOp::create(b, Q);
  Value batches = tensor::DimOp::create(b, op.getQ(), 0);
  Value length = tensor::DimOp::create(b, op.getQ(), 1);
  Value heads = arith::ConstantIndexOp::create(b, H);
  Value cShift = arith::ConstantIndexOp::create(b, shift);

  // Keys with an output: [0, outKeys), outKeys = max(L - shift, 0). The
  // first L - outKeys outputs read the initial state.
  Value outKeys = arith::SelectOp::create(
      b, arith::CmpIOp::create(b, arith::CmpIPredicate::ugt, length, cShift),
      arith::SubIOp::create(b, length, cShift), c0);
  Value chunked = arith::CmpIOp::create(
      b, arith::CmpIPredicate::ugt, length,
      arith::ConstantIndexOp::create(b, recurrentThreshold));
  auto fullChunksOf = [&](Value count) -> Value {
    return arith::SelectOp::create(b, chunked,
                                   arith::DivUIOp::create(b, count, cQ), c0);
  };
  Value outChunks = fullChunksOf(outKeys);
  Value outTokensStart = arith::MulIOp::create(b, outChunks, cQ);
  Value stateChunks = fullChunksOf(arith::SubIOp::create(b, length, outKeys));
  Value stateTokensStart = arith::AddIOp::create(
      b, outKeys, arith::MulIOp::create(b, stateChunks, cQ));
  Value prefixEnd = arith::SubIOp::create(b, length, outKeys);

  auto headBody = [&](OpBuilder &nb, Location loc, Value batch, Value head,
                      ValueRange outs) -> SmallVector<Value> {
    ImplicitLocOpBuilder ib(loc, nb);
    LinalgBuilder hb(ib);
    LaHead hd{op.getQ(), op.getK(),
              op.getV(), op.getLogDecay(),
              batch,     head,
              Dk,        Dv,
              shift,     static_cast<double>(op.getScale().convertToFloat())};
    // The state is updated in place: a fresh copy of init, or zeros.
    Value st =
        op.getInit()
            ? hb.copyToNew(hb.slice(op.getInit(), {batch, head, zero, zero},
                                    {one, one, dk, dv}, {Dk, Dv}))
            : hb.filled({dk, dv}, f32, 0.0);
    Value o = outs[0];
    if (shift > 0) {
      // Outputs before the first key leaves the window.
      Value st0 = st;
      auto prefix = scf::ForOp::create(
          ib, c0, prefixEnd, c1, ValueRange{o},
          [&](OpBuilder &pb, Location pl, Value t, ValueRange acc) {
            ImplicitLocOpBuilder pib(pl, pb);
            LinalgBuilder plb(pib);
            Value next;
            if (op.getInit()) {
              next = readOut(plb, hd, t, acc[0], st0);
            } else {
              Value row = plb.fill(plb.slice(acc[0], {batch, t, head, zero},
                                             {one, one, one, dv}, {Dv}),
                                   0.0);
              next = plb.insert(row, acc[0], {batch, t, head, zero},
                                {one, one, one, dv});
            }
            scf::YieldOp::create(pib, next);
          });
      o = prefix.getResult(0);
    }
    auto chunks = buildOutStateLoop(
        ib, c0, outChunks, o, st,
        [&](LinalgBuilder &clb, Value c, Value o, Value st) {
          Value s0 = arith::MulIOp::create(clb.builder(), c, cQ);
          return chunkStep(clb, hd, Q, s0, /*withOutput=*/true, o, st);
        });
    auto tokens = buildOutStateLoop(
        ib, outTokensStart, outKeys, chunks.getResult(0), chunks.getResult(1),
        [&](LinalgBuilder &tlb, Value s, Value o, Value st) {
          return tokenStep(tlb, hd, s, /*withOutput=*/true, o, st);
        });
    o = tokens.getResult(0);
    st = tokens.getResult(1);
    if (shift > 0) {
      // The last keys: only the state sees them.
      auto stateOnly = buildOutStateLoop(
          ib, c0, stateChunks, o, st,
          [&](LinalgBuilder &clb, Value c, Value o, Value st) {
            ImplicitLocOpBuilder &cb = clb.builder();
            Value s0 = arith::AddIOp::create(cb, outKeys,
                                             arith::MulIOp::create(cb, c, cQ));
            return chunkStep(clb, hd, Q, s0, /*withOutput=*/false, o, st);
          });
      auto stateTokens = buildOutStateLoop(
          ib, stateTokensStart, length, stateOnly.getResult(0),
          stateOnly.getResult(1),
          [&](LinalgBuilder &tlb, Value s, Value o, Value st) {
            return tokenStep(tlb, hd, s, /*withOutput=*/false, o, st);
          });
      o = stateTokens.getResult(0);
      st = stateTokens.getResult(1);
    }
    Value finalState =
        hb.insert(st, outs[1], {batch, head, zero, zero}, {one, one, dk, dv});
    return {o, finalState};
  };

  rewriter.replaceOp(
      op, buildBatchHeadLoops(b, batches, heads, op.getOuts(), headBody));
  return success();
}

void mlir::mixer::populateLinearAttentionToLinalgPatterns(
    RewritePatternSet &patterns, int64_t recurrentThreshold) {
  patterns.add<LinearAttentionToLinalg>(patterns.getContext(),
                                        recurrentThreshold);
}
