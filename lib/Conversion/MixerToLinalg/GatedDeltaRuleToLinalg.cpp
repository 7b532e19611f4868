//===- GatedDeltaRuleToLinalg.cpp - gated delta rule in linalg ------------===//
//
// Per (batch, head), with the state S [Dk, Dv] in its natural layout.
//
// Full chunks of C tokens use the WY (UT) form (chunkStep): the effective
// values U' of the chunk solve a unit lower-triangular system (forward
// substitution, one static [1, C] x [C, Dv] contraction per row), and the
// outputs and the next state are chunk-level contractions, as in chunked
// linear attention. The tail, and sequences of at most recurrent-threshold
// tokens, use the recurrent form (tokenStep). With a = exp(g_t),
// b = beta_t:
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
//===----------------------------------------------------------------------===//

#include "ChunkedScanLowering.h"
#include "GatedDeltaRuleLowering.h"
#include "MixerToLinalgPatterns.h"
#include "mixer/Utils/ChunkedScan.h"
#include "mixer/Utils/LinalgBuilder.h"

#include "mixer/Dialect/Mixer/IR/MixerOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::mixer;

Value mlir::mixer::buildDeltaRuleWrite(LinalgBuilder &lb, Value vt, Value kS,
                                       Value gate, Value beta) {
  // w = beta (v - gate kS)
  return lb.map({vt, kS}, {lb.dims(1, {0}), lb.dims(1, {0})},
                lb.empty(lb.sizesOf(vt), lb.builder().getF32Type()),
                [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                  Value decayed = arith::MulFOp::create(ib, gate, args[1]);
                  Value diff = arith::SubFOp::create(ib, args[0], decayed);
                  return arith::MulFOp::create(ib, beta, diff).getResult();
                });
}

Value mlir::mixer::buildDeltaRuleUpdate(LinalgBuilder &lb, Value st, Value k,
                                        Value w, Value gate) {
  // S = gate S + k w^T, in place.
  return lb.map({k, w}, {lb.dims(2, {0}), lb.dims(2, {1})}, st,
                [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                  Value outer = arith::MulFOp::create(ib, args[0], args[1]);
                  Value kept = arith::MulFOp::create(ib, gate, args[2]);
                  return arith::AddFOp::create(ib, kept, outer).getResult();
                });
}

namespace {

/// The math of mixer.gated_delta_rule for the chunked-scan driver.
class GatedDeltaRuleScan final : public ChunkedScanHooks {
public:
  using Op = GatedDeltaRuleOp;
  static FailureOr<GatedDeltaRuleScan> match(GatedDeltaRuleOp op,
                                             PatternRewriter &rewriter);
  void configure(ImplicitLocOpBuilder &b, ChunkedScanSpec &spec);

  void init(LinalgBuilder &lb, ScanCarry &carry) override;
  void chunkStep(LinalgBuilder &lb, unsigned, Value t0,
                 ScanCarry &carry) override;
  void tokenStep(LinalgBuilder &lb, unsigned, Value t,
                 ScanCarry &carry) override;
  void finalize(LinalgBuilder &lb, ArrayRef<Value> states,
                MutableArrayRef<Value> outs) override;

private:
  GatedDeltaRuleScan(GatedDeltaRuleOp op, int64_t H, int64_t Dk, int64_t Dv)
      : op(op), q(op.getQ()), k(op.getK()), v(op.getV()), g(op.getG()),
        betaIn(op.getBeta()), H(H), Dk(Dk), Dv(Dv), C(op.getChunkSize()),
        scaleFactor(static_cast<double>(op.getScale().convertToFloat())) {}

  StateSlice stateSlice(OpBuilder &b) const;

  GatedDeltaRuleOp op;
  Value q, k, v, g, betaIn; // the op's inputs
  int64_t H, Dk, Dv, C;
  double scaleFactor;
};

} // namespace

FailureOr<GatedDeltaRuleScan>
GatedDeltaRuleScan::match(GatedDeltaRuleOp op, PatternRewriter &rewriter) {
  int64_t H = dimSize(op.getQ(), 2), Dk = dimSize(op.getQ(), 3);
  int64_t Dv = dimSize(op.getV(), 3);
  return GatedDeltaRuleScan(op, H, Dk, Dv);
}

void GatedDeltaRuleScan::configure(ImplicitLocOpBuilder &b,
                                   ChunkedScanSpec &spec) {
  spec.heads = arith::ConstantIndexOp::create(b, H);
  spec.chunkSize = C;
}

void GatedDeltaRuleScan::init(LinalgBuilder &lb, ScanCarry &carry) {
  carry.states.push_back(
      initialState(lb, op.getInit(), stateSlice(lb.builder())));
}

void GatedDeltaRuleScan::finalize(LinalgBuilder &lb, ArrayRef<Value> states,
                                  MutableArrayRef<Value> outs) {
  outs[1] = insertFinalState(lb, states[0], outs[1], stateSlice(lb.builder()));
}

/// The state S [Dk, Dv] of the head, in its natural layout.
StateSlice GatedDeltaRuleScan::stateSlice(OpBuilder &b) const {
  OpFoldResult zero = b.getIndexAttr(0);
  return {{batch, head, zero, zero}, Dk, Dv};
}

/// Token t.
void GatedDeltaRuleScan::tokenStep(LinalgBuilder &lb, unsigned, Value t,
                                   ScanCarry &carry) {
  Value o = carry.outs[0], st = carry.states[0];
  ImplicitLocOpBuilder &b = lb.builder();
  Type f32 = b.getF32Type();
  OpFoldResult one = b.getIndexAttr(1), two = b.getIndexAttr(2),
               zero = b.getIndexAttr(0);
  OpFoldResult dk = b.getIndexAttr(Dk), dv = b.getIndexAttr(Dv);

  Value kt = lb.slice(k, {batch, t, head, zero}, {one, one, one, dk}, {1, Dk});
  Value qt = lb.slice(q, {batch, t, head, zero}, {one, one, one, dk}, {1, Dk});
  Value vt = lb.slice(v, {batch, t, head, zero}, {one, one, one, dv}, {Dv});
  SmallVector<Value> at = {batch, t, head};
  Value gate = math::ExpOp::create(b, tensor::ExtractOp::create(b, g, at));
  Value beta = tensor::ExtractOp::create(b, betaIn, at);

  // R = [k; q] S: both reads of the old state in one contraction.
  Value KQ = lb.empty({two, dk}, f32);
  KQ = lb.insert(kt, KQ, {zero, zero}, {one, dk});
  KQ = lb.insert(qt, KQ, {one, zero}, {one, dk});
  Value R = lb.contract(KQ, st, lb.filled({two, dv}, f32, 0.0), Lhs::RowMajor);
  Value kS = lb.slice(R, {zero, zero}, {one, dv}, {Dv});
  Value qS = lb.slice(R, {one, zero}, {one, dv}, {Dv});

  // k . q
  Value k1 = lb.slice(kt, {zero, zero}, {one, dk}, {Dk});
  Value q1 = lb.slice(qt, {zero, zero}, {one, dk}, {Dk});
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

  Value w = buildDeltaRuleWrite(lb, vt, kS, gate, beta);
  // o = scale (gate qS + (k . q) w), written into its row of o.
  Value scale = arith::ConstantOp::create(b, b.getF32FloatAttr(scaleFactor));
  Value orow = lb.slice(o, {batch, t, head, zero}, {one, one, one, dv}, {Dv});
  orow = lb.map({qS, w}, {lb.dims(1, {0}), lb.dims(1, {0})}, orow,
                [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                  Value kept = arith::MulFOp::create(ib, gate, args[0]);
                  Value added = arith::MulFOp::create(ib, kq, args[1]);
                  Value sum = arith::AddFOp::create(ib, kept, added);
                  if (scaleFactor == 1.0)
                    return sum;
                  return Value(arith::MulFOp::create(ib, scale, sum));
                });
  o = lb.insert(orow, o, {batch, t, head, zero}, {one, one, one, dv});

  st = buildDeltaRuleUpdate(lb, st, k1, w, gate);
  carry.outs[0] = o;
  carry.states[0] = st;
}

/// x[i, j] for i, j of a [C, C] generic's iteration space.
static Value rowCol(ImplicitLocOpBuilder &b, unsigned dim) {
  return linalg::IndexOp::create(b, dim);
}

/// Solves (I + A) X = X in place, for A strictly lower triangular [C, C],
/// by forward substitution: row i becomes x_i - A[i, :] X, where only the
/// rows j < i (already solved) meet nonzeros of A. Each row is a static
/// [1, C] x [C, D] contraction.
static Value forwardSubstitute(LinalgBuilder &lb, Value A, Value X, int64_t C,
                               int64_t D) {
  ImplicitLocOpBuilder &b = lb.builder();
  Type f32 = b.getF32Type();
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  OpFoldResult c = b.getIndexAttr(C), d = b.getIndexAttr(D);
  // -A, so that the contraction accumulates x_i - A[i, :] X.
  Value negA = lb.map({A}, {lb.dims(2, {0, 1})}, lb.empty({c, c}, f32),
                      [](ImplicitLocOpBuilder &ib, ValueRange args) {
                        return arith::NegFOp::create(ib, args[0]).getResult();
                      });
  Value c0 = arith::ConstantIndexOp::create(b, 0);
  Value c1 = arith::ConstantIndexOp::create(b, 1);
  Value cC = arith::ConstantIndexOp::create(b, C);
  auto rows = scf::ForOp::create(
      b, c0, cC, c1, ValueRange{X},
      [&](OpBuilder &nb, Location loc, Value i, ValueRange acc) {
        ImplicitLocOpBuilder ib(loc, nb);
        LinalgBuilder ilb(ib);
        Value a = ilb.slice(negA, {i, zero}, {one, c}, {1, C});
        Value row =
            ilb.copyToNew(ilb.slice(acc[0], {i, zero}, {one, d}, {1, D}));
        row = ilb.contract(a, acc[0], row, Lhs::RowMajor);
        scf::YieldOp::create(ib, ilb.insert(row, acc[0], {i, zero}, {one, d}));
      });
  return rows.getResult(0);
}

/// One full chunk of C tokens starting at t0 in the WY (UT) form. With
/// gam_t = exp(cum_t) (cum: prefix sums of g in the chunk) and S0 the state
/// entering the chunk, the effective values u_t (S_t = a_t S_{t-1} +
/// k_t u_t^T) solve
///   (I + A) U' = diag(beta) V - diag(beta gam) K S0,
///   A[t, j] = beta_t (k_t . k_j) gam_t / gam_j  for j < t,
/// and then
///   O = scale (diag(gam) Q S0 + ((Q K^T) * Gam) U'),  Gam[t, j] = gam_t /
///   gam_j for j <= t, 0 above,
///   S = gam_last S0 + (diag(gam_last / gam) K)^T U'.
void GatedDeltaRuleScan::chunkStep(LinalgBuilder &lb, unsigned, Value t0,
                                   ScanCarry &carry) {
  Value o = carry.outs[0], st = carry.states[0];
  ImplicitLocOpBuilder &b = lb.builder();
  Type f32 = b.getF32Type();
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  OpFoldResult c = b.getIndexAttr(C), dk = b.getIndexAttr(Dk),
               dv = b.getIndexAttr(Dv);
  Value Kc = lb.copyToNew(
      lb.slice(k, {batch, t0, head, zero}, {one, c, one, dk}, {C, Dk}));
  Value Qc = lb.copyToNew(
      lb.slice(q, {batch, t0, head, zero}, {one, c, one, dk}, {C, Dk}));
  Value Vc = lb.slice(v, {batch, t0, head, zero}, {one, c, one, dv}, {C, Dv});
  Value beta = lb.slice(betaIn, {batch, t0, head}, {one, c, one}, {C});
  Value cumLast, cum;
  std::tie(cumLast, cum) =
      lb.prefixSumF64(lb.slice(g, {batch, t0, head}, {one, c, one}, {C}));

  // Decays relative to two tokens of the chunk: exp(cum[t] - cum[j]),
  // masked to j < t (strict) or j <= t.
  auto decayMask = [&](Value scores, bool strict, Value rowFactor) {
    SmallVector<Value> in = {cum, cum};
    SmallVector<AffineMap> maps = {lb.dims(2, {0}), lb.dims(2, {1})};
    if (rowFactor) {
      in.push_back(rowFactor);
      maps.push_back(lb.dims(2, {0}));
    }
    return lb.map(
        in, maps, scores, [&](ImplicitLocOpBuilder &ib, ValueRange args) {
          Value seg = arith::TruncFOp::create(
              ib, f32, arith::SubFOp::create(ib, args[0], args[1]));
          Value x = arith::MulFOp::create(ib, args.back(),
                                          math::ExpOp::create(ib, seg));
          if (rowFactor)
            x = arith::MulFOp::create(ib, x, args[2]);
          Value t = rowCol(ib, 0), j = rowCol(ib, 1);
          Value keep = arith::CmpIOp::create(ib,
                                             strict ? arith::CmpIPredicate::ult
                                                    : arith::CmpIPredicate::ule,
                                             j, t);
          Value zeroF = arith::ConstantOp::create(ib, ib.getF32FloatAttr(0.0));
          return arith::SelectOp::create(ib, keep, x, zeroF).getResult();
        });
  };
  Value Kt = lb.transpose(Kc);

  // A = beta_t (K K^T) * decay, strictly lower.
  Value A =
      decayMask(lb.contract(Kc, Kt, lb.filled({c, c}, f32, 0.0), Lhs::RowMajor),
                /*strict=*/true, beta);

  // Right-hand side: diag(beta) V - diag(beta gam) K S0.
  Value betaGam = lb.map(
      {beta, cum}, {lb.dims(1, {0}), lb.dims(1, {0})}, lb.empty({c}, f32),
      [&](ImplicitLocOpBuilder &ib, ValueRange args) {
        Value gam =
            math::ExpOp::create(ib, arith::TruncFOp::create(ib, f32, args[1]));
        return arith::MulFOp::create(ib, args[0], gam).getResult();
      });
  Value Kb = lb.map(
      {Kc, betaGam}, {lb.dims(2, {0, 1}), lb.dims(2, {0})},
      lb.empty({c, dk}, f32), [](ImplicitLocOpBuilder &ib, ValueRange args) {
        return arith::MulFOp::create(ib, args[0], args[1]).getResult();
      });
  Value KS = lb.contract(Kb, st, lb.filled({c, dv}, f32, 0.0), Lhs::RowMajor);
  Value rhs =
      lb.map({Vc, beta}, {lb.dims(2, {0, 1}), lb.dims(2, {0})}, KS,
             [](ImplicitLocOpBuilder &ib, ValueRange args) {
               Value bv = arith::MulFOp::create(ib, args[0], args[1]);
               return arith::SubFOp::create(ib, bv, args[2]).getResult();
             });
  Value U = forwardSubstitute(lb, A, rhs, C, Dv);

  // Outputs: diag(gam) Q S0 + ((Q K^T) * Gam) U', times scale.
  Value rowScale = lb.map(
      {cum}, {lb.dims(1, {0})}, lb.empty({c}, f32),
      [&](ImplicitLocOpBuilder &ib, ValueRange args) {
        Value gam =
            math::ExpOp::create(ib, arith::TruncFOp::create(ib, f32, args[0]));
        return arith::MulFOp::create(ib, gam,
                                     arith::ConstantOp::create(
                                         ib, ib.getF32FloatAttr(scaleFactor)))
            .getResult();
      });
  Value scale = arith::ConstantOp::create(b, b.getF32FloatAttr(scaleFactor));
  Value M =
      decayMask(lb.contract(Qc, Kt, lb.filled({c, c}, f32, 0.0), Lhs::RowMajor),
                /*strict=*/false, Value());
  M = lb.map({}, {}, M, [&](ImplicitLocOpBuilder &ib, ValueRange args) {
    return arith::MulFOp::create(ib, args[0], scale).getResult();
  });
  Value Qs =
      lb.map({rowScale}, {lb.dims(2, {0})}, Qc,
             [](ImplicitLocOpBuilder &ib, ValueRange args) {
               return arith::MulFOp::create(ib, args[1], args[0]).getResult();
             });
  Value O = lb.contract(Qs, st, lb.filled({c, dv}, f32, 0.0), Lhs::RowMajor);
  O = lb.contract(M, U, O, Lhs::RowMajor);
  o = lb.insert(O, o, {batch, t0, head, zero}, {one, c, one, dv});

  // State: gam_last S0 + (diag(gam_last / gam) K)^T U'.
  Value Kw = lb.map({cum}, {lb.dims(2, {0})}, Kc,
                    [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                      Value seg = arith::TruncFOp::create(
                          ib, f32, arith::SubFOp::create(ib, cumLast, args[0]));
                      return arith::MulFOp::create(ib, args[1],
                                                   math::ExpOp::create(ib, seg))
                          .getResult();
                    });
  Value chunkDecay =
      math::ExpOp::create(b, arith::TruncFOp::create(b, f32, cumLast));
  st = lb.map({}, {}, st, [&](ImplicitLocOpBuilder &ib, ValueRange args) {
    return arith::MulFOp::create(ib, args[0], chunkDecay).getResult();
  });
  st = lb.contract(Kw, U, st, Lhs::Transposed);
  carry.outs[0] = o;
  carry.states[0] = st;
}

void mlir::mixer::populateGatedDeltaRuleToLinalgPatterns(
    RewritePatternSet &patterns, int64_t recurrentThreshold) {
  patterns.add<ChunkedScanLowering<GatedDeltaRuleScan>>(patterns.getContext(),
                                                        recurrentThreshold);
}
