//===- GatedDeltaRuleBackwardToLinalg.cpp - delta rule gradients ----------===//
//
// mixer.gated_delta_rule_backward in two passes of the chunked-scan driver,
// per (batch, head), the state S [Dk, Dv] in its natural layout:
//
//   1. Unless the op has them, the chunk-boundary states: the forward's
//      hooks (GatedDeltaRuleHooks: WY chunks, then the recurrent form on
//      the tail) without output, the driver recording S before every chunk
//      of Q tokens ([B, H, L/Q + 1, Dk, Dv]).
//   2. The reverse scan carrying dS, the cotangent of the state:
//      - a full chunk through the WY form (chunkBackward): the chunk's
//        factors recomputed from its boundary state with the forward's
//        building blocks, and every gradient of the chunk as chunk-sized
//        contractions, with a back substitution for the triangular solve;
//      - a tail token through the recurrent form (backwardBlock), its state
//        recomputed from the tail's boundary state; with a = exp(g),
//        kS = S_prev^T k, r = v - a kS:
//          dS += scale q do^T;  dq = scale S do;  u = dS^T k
//          dv = beta u;  dk = beta (dS r - a S_prev u);  dbeta = u . r
//          dg = a (<dS, S_prev> - beta u . kS);  dS = a (dS - beta k u^T)
//
// O(L Dk Dv + L Q (Dk + Dv)) work like the forward's, with chunk-sized
// memory beyond the boundary states.
//
//===----------------------------------------------------------------------===//

#include "ChunkedScanLowering.h"
#include "GatedDeltaRuleLowering.h"
#include "GradientSums.h"
#include "MixerToLinalgPatterns.h"

#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Target/TargetDescription.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::mixer;

namespace {

/// The inputs of one (batch, head) of the delta rule and its state update.
struct DeltaRuleHead {
  Value q, k, v, g, beta;
  int64_t Dk, Dv;
  Value batch, head;

  /// Row [D] of a [B, L, H, D] operand at token t.
  Value row(LinalgBuilder &lb, Value x, Value t, int64_t D) const {
    OpBuilder &b = lb.builder();
    OpFoldResult one = b.getIndexAttr(1);
    return lb.slice(x, {batch, t, head, b.getIndexAttr(0)},
                    {one, one, one, b.getIndexAttr(D)}, {D});
  }
  /// exp(g_t) and beta_t.
  std::pair<Value, Value> gates(LinalgBuilder &lb, Value t) const {
    ImplicitLocOpBuilder &b = lb.builder();
    SmallVector<Value> at = {batch, t, head};
    return {math::ExpOp::create(b, tensor::ExtractOp::create(b, g, at)),
            tensor::ExtractOp::create(b, beta, at)};
  }
  /// kS[j] = sum_a k[a] S[a, j].
  Value keyRead(LinalgBuilder &lb, Value kt, Value st) const {
    AffineMap a = lb.dims(2, {0}), aj = lb.dims(2, {0, 1}),
              j = lb.dims(2, {1});
    return lb.sumInto({kt, st}, {a, aj},
                      lb.filled({lb.builder().getIndexAttr(Dv)},
                                lb.builder().getF32Type(), 0.0),
                      j, {0}, productOf);
  }
  /// The state after token t, from `st` before it (in place).
  Value advance(LinalgBuilder &lb, Value st, Value t) const {
    Value kt = row(lb, k, t, Dk);
    std::pair<Value, Value> gateAndBeta = gates(lb, t);
    Value gate = gateAndBeta.first;
    Value w = buildDeltaRuleWrite(lb, row(lb, v, t, Dv), keyRead(lb, kt, st),
                                  gate, gateAndBeta.second);
    return buildDeltaRuleUpdate(lb, st, kt, w, gate);
  }
};

/// Pass 2: the reverse scan. outs: dq, dk, dv, dg, dbeta (stepped), dinit.
class DeltaRuleBackward final : public OneStateScanHooks {
public:
  DeltaRuleBackward(GatedDeltaRuleBackwardOp op, const DeltaRuleHead &h,
                    const GatedDeltaRuleOperands &ops, int64_t lanes)
      : OneStateScanHooks(op.getDFinalState(), /*finalStateOut=*/5), h(h),
        fwd(ops, /*withOutput=*/true), lanes(lanes), dO(op.getDO()),
        saved(op.getChunkStates()), Q(ops.C), scale(ops.scale) {
    // The chunk factors are recomputed from the last chunk to the first,
    // diag(beta gam) K among them (dS0 reads it).
    fwd.chunksFromLast = true;
    fwd.keepScaledKeys = true;
  }

  void configure(ImplicitLocOpBuilder &b, Value length, Value boundaries) {
    Value cQ = arith::ConstantIndexOp::create(b, Q);
    tailRow = arith::DivUIOp::create(b, length, cQ);
    tailStart = arith::MulIOp::create(b, tailRow, cQ);
    recomputed = boundaries;
  }

  StateSlice stateSlice(OpBuilder &b) const override {
    return fwd.stateSlice(b);
  }
  void chunkStep(LinalgBuilder &lb, unsigned, Value t0,
                 ScanCarry &carry) override {
    Value row = arith::DivUIOp::create(
        lb.builder(), t0, arith::ConstantIndexOp::create(lb.builder(), Q));
    chunkBackward(lb, t0, boundaryState(lb, row), carry);
  }
  void tokenStep(LinalgBuilder &lb, unsigned, Value t,
                 ScanCarry &carry) override {
    // The state before tail token t, recomputed from the tail's start.
    ImplicitLocOpBuilder &b = lb.builder();
    SmallVector<Value> loop = lb.loop(
        tailStart, t, arith::ConstantIndexOp::create(b, 1),
        ValueRange{lb.copyToNew(boundaryState(lb, tailRow))},
        [&](LinalgBuilder &ilb, Value s, ValueRange acc) -> SmallVector<Value> {
          return {h.advance(ilb, acc[0], s)};
        });
    backwardBlock(lb, 1, t, loop[0], carry);
  }

private:
  void startHead(LinalgBuilder &) override {
    h.batch = batch;
    h.head = head;
    fwd.setHead(batch, head);
  }
  /// The state [Dk, Dv] before token row * Q.
  Value boundaryState(LinalgBuilder &lb, Value row) const {
    return boundaryStateAt(lb, saved ? saved : recomputed, batch, head, row,
                           h.Dk, h.Dv);
  }
  void backwardBlock(LinalgBuilder &lb, int64_t n, Value t0, Value sStart,
                     ScanCarry &carry);
  void chunkBackward(LinalgBuilder &lb, Value t0, Value S0, ScanCarry &carry);

  DeltaRuleHead h;
  GatedDeltaRuleHooks fwd;
  /// f32 lanes of the target's vectors.
  int64_t lanes;
  Value dO, saved, recomputed;
  int64_t Q;
  double scale;
  Value tailStart, tailRow;
};

} // namespace

void DeltaRuleBackward::backwardBlock(LinalgBuilder &lb, int64_t n, Value t0,
                                      Value sStart, ScanCarry &carry) {
  ImplicitLocOpBuilder &b = lb.builder();
  Type f32 = b.getF32Type();
  int64_t Dk = h.Dk, Dv = h.Dv;
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  OpFoldResult dk = b.getIndexAttr(Dk), dv = b.getIndexAttr(Dv);
  Value c0 = arith::ConstantIndexOp::create(b, 0);
  Value c1 = arith::ConstantIndexOp::create(b, 1);
  Value cN = arith::ConstantIndexOp::create(b, n);

  // The chunk's states: Ss[0] before the chunk, Ss[i + 1] after token i.
  Value Ss = lb.insert(sStart, lb.empty({b.getIndexAttr(n + 1), dk, dv}, f32),
                       {zero, zero, zero}, {one, dk, dv});
  SmallVector<Value> states = lb.loop(
      c0, cN, c1, ValueRange{lb.copyToNew(sStart), Ss},
      [&](LinalgBuilder &ilb, Value i, ValueRange acc) -> SmallVector<Value> {
        ImplicitLocOpBuilder &ib = ilb.builder();
        Value st = h.advance(ilb, acc[0], arith::AddIOp::create(ib, t0, i));
        Value next = arith::AddIOp::create(ib, i, c1);
        return {st, ilb.insert(st, acc[1], {next, zero, zero}, {one, dk, dv})};
      });
  Ss = states[1];

  // The reverse recurrence, token by token, writing each token's gradients.
  SmallVector<Value> init(carry.outs.begin(), carry.outs.begin() + 5);
  init.push_back(carry.states[0]);
  SmallVector<Value> reverse = lb.loop(
      c0, cN, c1, init,
      [&](LinalgBuilder &ilb, Value j, ValueRange acc) -> SmallVector<Value> {
        ImplicitLocOpBuilder &ib = ilb.builder();
        Value i = arith::SubIOp::create(
            ib, arith::ConstantIndexOp::create(ib, n - 1), j);
        Value t = arith::AddIOp::create(ib, t0, i);
        Value next = arith::AddIOp::create(ib, i, c1);
        Value prev = ilb.slice(Ss, {i, zero, zero}, {one, dk, dv}, {Dk, Dv});
        Value cur = ilb.slice(Ss, {next, zero, zero}, {one, dk, dv}, {Dk, Dv});
        Value kt = h.row(ilb, h.k, t, Dk), vt = h.row(ilb, h.v, t, Dv);
        std::pair<Value, Value> gateAndBeta = h.gates(ilb, t);
        Value gate = gateAndBeta.first, beta = gateAndBeta.second;
        Value dS = acc[5];
        AffineMap a = ilb.dims(2, {0}), jj = ilb.dims(2, {1}),
                  aj = ilb.dims(2, {0, 1}), none = ilb.dims(2, {});
        Value scaleF = arith::ConstantOp::create(ib, ib.getF32FloatAttr(scale));

        // o = scale S^T q: dq = scale S do, dS += scale q do^T.
        Value dq = ilb.filled({dk}, f32, 0.0);
        if (dO) {
          Value qt = h.row(ilb, h.q, t, Dk), dot = h.row(ilb, dO, t, Dv);
          dq = ilb.sumInto({cur, dot}, {aj, jj}, dq, a, {1},
                           [&](ImplicitLocOpBuilder &hb, ValueRange args) {
                             return arith::MulFOp::create(hb, scaleF,
                                                          productOf(hb, args))
                                 .getResult();
                           });
          dS = ilb.map({qt, dot}, {a, jj}, dS,
                       [&](ImplicitLocOpBuilder &hb, ValueRange args) {
                         Value outer = arith::MulFOp::create(
                             hb, scaleF, arith::MulFOp::create(hb, args[0],
                                                               args[1]));
                         return arith::AddFOp::create(hb, args[2], outer)
                             .getResult();
                       });
        }
        // u = dS^T k, kS = S_prev^T k, r = v - a kS.
        Value u = h.keyRead(ilb, kt, dS);
        Value kS = h.keyRead(ilb, kt, prev);
        Value r = ilb.map({vt, kS}, {ilb.dims(1, {0}), ilb.dims(1, {0})},
                          ilb.empty({dv}, f32),
                          [&](ImplicitLocOpBuilder &hb, ValueRange args) {
                            return arith::SubFOp::create(
                                       hb, args[0],
                                       arith::MulFOp::create(hb, gate, args[1]))
                                .getResult();
                          });
        Value dV = ilb.map({u}, {ilb.dims(1, {0})}, ilb.empty({dv}, f32),
                            [&](ImplicitLocOpBuilder &hb, ValueRange args) {
                              return arith::MulFOp::create(hb, beta, args[0])
                                  .getResult();
                            });
        // dk = beta (dS r - a S_prev u).
        Value dkRow = ilb.sumInto(
            {dS, r, prev, u}, {aj, jj, aj, jj}, ilb.filled({dk}, f32, 0.0), a,
            {1}, [&](ImplicitLocOpBuilder &hb, ValueRange args) {
              Value direct = arith::MulFOp::create(hb, args[0], args[1]);
              Value erased = arith::MulFOp::create(
                  hb, gate, arith::MulFOp::create(hb, args[2], args[3]));
              return arith::MulFOp::create(
                         hb, beta, arith::SubFOp::create(hb, direct, erased))
                  .getResult();
            });
        // dbeta = u . r; dg = a (<dS, S_prev> - beta u . kS).
        AffineMap j1 = ilb.dims(1, {0}), scalar1 = ilb.dims(1, {});
        Value dBeta = ilb.sumInto({u, r}, {j1, j1}, ilb.filled({}, f32, 0.0),
                                  scalar1, {0}, productOf);
        Value uKS = ilb.sumInto({u, kS}, {j1, j1}, ilb.filled({}, f32, 0.0),
                                scalar1, {0}, productOf);
        Value inner =
            ilb.sumInto({dS, prev}, {aj, aj}, ilb.filled({}, f32, 0.0), none,
                        {0, 1}, productOf);
        Value dBetaS = tensor::ExtractOp::create(ib, dBeta, ValueRange{});
        Value dG = arith::MulFOp::create(
            ib, gate,
            arith::SubFOp::create(
                ib, tensor::ExtractOp::create(ib, inner, ValueRange{}),
                arith::MulFOp::create(
                    ib, beta,
                    tensor::ExtractOp::create(ib, uKS, ValueRange{}))));
        // dS_prev = a (dS - beta k u^T), in place.
        Value dSPrev = ilb.map(
            {kt, u}, {a, jj}, dS,
            [&](ImplicitLocOpBuilder &hb, ValueRange args) {
              Value erased = arith::MulFOp::create(
                  hb, beta, arith::MulFOp::create(hb, args[0], args[1]));
              return arith::MulFOp::create(
                         hb, gate, arith::SubFOp::create(hb, args[2], erased))
                  .getResult();
            });

        SmallVector<OpFoldResult> at = {h.batch, t, h.head, zero};
        auto put = [&](Value rowValue, Value dest, OpFoldResult width) {
          return ilb.insert(rowValue, dest, at, {one, one, one, width});
        };
        SmallVector<Value> at3 = {h.batch, t, h.head};
        return {put(dq, acc[0], dk),
                put(dkRow, acc[1], dk),
                put(dV, acc[2], dv),
                tensor::InsertOp::create(ib, dG, acc[3], at3),
                tensor::InsertOp::create(ib, dBetaS, acc[4], at3),
                dSPrev};
      });
  for (unsigned o = 0; o < 5; ++o)
    carry.outs[o] = reverse[o];
  carry.states[0] = reverse[5];
}

/// The gradients of one full chunk of Q tokens at t0 entering with state S0,
/// through the forward's WY form (GatedDeltaRuleHooks::chunkStep), from dO
/// and dS1 (the cotangent of the state after the chunk). The chunk's factors
/// are recomputed from S0 (chunkFactors); with M = scores, Qs =
/// scaledQueries, Kw = keysToEnd and gam_C = exp(cum_last):
///   O = Qs S0 + M U',  S1 = gam_C S0 + Kw^T U'
///   dU' = M^T dO + Kw dS1;  dM = dO U'^T;  dQs = dO S0^T;  dKw = U' dS1^T
///   (I + A) U' = R:  (I + A^T) dR = dU' (back substitution), dA = -dR U'^T
///   R = diag(beta) V - Kb S0:  dV = diag(beta) dR, dKb = -dR S0^T
///   dS0 = Qs^T dO + gam_C dS1 - Kb^T dR
/// then through A = diag(beta) KKD, M, Qs, Kw and Kb = diag(beta gam) K to
/// dq, dk, dbeta and the cotangent of the prefix sums cum, whose suffix sums
/// are dg. Every product is a chunk-sized contraction.
void DeltaRuleBackward::chunkBackward(LinalgBuilder &lb, Value t0, Value S0,
                                      ScanCarry &carry) {
  ImplicitLocOpBuilder &b = lb.builder();
  Type f32 = b.getF32Type();
  int64_t C = Q, Dk = h.Dk, Dv = h.Dv;
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  OpFoldResult c = b.getIndexAttr(C), dk = b.getIndexAttr(Dk),
               dv = b.getIndexAttr(Dv);
  Value dS1 = carry.states[0];
  DeltaRuleChunk f = fwd.chunkFactors(lb, t0, S0, /*shareDecays=*/true);
  Value M = fwd.scores(lb, f), Qs = fwd.scaledQueries(lb, f),
        Kw = fwd.keysToEnd(lb, f);
  Value DO = dO ? lb.slice(dO, {h.batch, t0, h.head, zero}, {one, c, one, dv},
                           {C, Dv})
                : lb.filled({c, dv}, f32, 0.0);
  auto zeros = [&](OpFoldResult rows, OpFoldResult cols) {
    return lb.filled({rows, cols}, f32, 0.0);
  };
  AffineMap tj = lb.dims(2, {0, 1}), jt = lb.dims(2, {1, 0}),
            t = lb.dims(2, {0}), none = lb.dims(2, {});
  auto minus = [](ImplicitLocOpBuilder &ib, ValueRange args) {
    return arith::NegFOp::create(ib, args[0]).getResult();
  };

  // Through the output and the state after the chunk.
  Value Ut = lb.transpose(f.U), S0t = lb.transpose(S0),
        dS1t = lb.transpose(dS1);
  Value dU = lb.contract(M, DO, zeros(c, dv), Lhs::Transposed);
  dU = lb.contract(Kw, dS1, dU, Lhs::RowMajor);
  Value dM = lb.contract(DO, Ut, zeros(c, c), Lhs::RowMajor);
  Value dQs = lb.contract(DO, S0t, zeros(c, dk), Lhs::RowMajor);
  Value dKw = lb.contract(f.U, dS1t, zeros(c, dk), Lhs::RowMajor);
  Value gamC = math::ExpOp::create(b, arith::TruncFOp::create(b, f32, f.cumLast));
  Value dS0 = lb.map({dS1}, {tj}, lb.empty({dk, dv}, f32),
                     [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                       return arith::MulFOp::create(ib, gamC, args[0])
                           .getResult();
                     });
  dS0 = lb.contract(Qs, DO, dS0, Lhs::Transposed);

  // Through the triangular solve and its right-hand side; nR = -dR.
  Value dR = substitute(lb, lb.transpose(f.A), dU, C, Dv, fwd.ops.triangularBlock,
                        /*lastRowFirst=*/true);
  Value nR = lb.map({dR}, {tj}, lb.empty({c, dv}, f32), minus);
  Value dA = lb.contract(nR, Ut, zeros(c, c), Lhs::RowMajor);
  Value dKb = lb.contract(nR, S0t, zeros(c, dk), Lhs::RowMajor);
  dS0 = lb.contract(f.Kb, nR, dS0, Lhs::Transposed);
  Value dV = lb.map({f.beta, dR}, {t, tj}, lb.empty({c, dv}, f32),
                    [](ImplicitLocOpBuilder &ib, ValueRange args) {
                      return productOf(ib, args.take_front(2));
                    });

  // Row sums over the keys' or values' dim: rowDot(x, y)[t] = x_t . y_t.
  auto rowDot = [&](Value x, Value y) {
    return sumOfProductsOverLastDim(lb, x, y, lb.filled({c}, f32, 0.0),
                                    lanes);
  };
  // dbg = d(beta gam) = k . dKb; dbeta = v . dR + gam dbg + sum_j dA KKD
  // (A = diag(beta) KKD, KKD = (K K^T) * decay strictly lower).
  Value dbg = rowDot(f.K, dKb);
  Value gam = fwd.gammas(lb, f.cum, 1.0);
  Value dBeta = rowDot(f.V, dR);
  Value KKD = fwd.decayMask(lb, f, f.KK, /*strict=*/true, Value());
  dBeta = sumOfProductsOverLastDim(lb, dA, KKD, dBeta, lanes);
  dBeta = lb.map({gam, dbg}, {lb.dims(1, {0}), lb.dims(1, {0})}, dBeta,
                 [](ImplicitLocOpBuilder &ib, ValueRange args) {
                   return arith::AddFOp::create(
                              ib, args[2],
                              productOf(ib, args.take_front(2)))
                       .getResult();
                 });

  // The cotangent of cum: through the masks of A and M (row t gains
  // W[t, :], column j loses W[:, j], W = dA * A + dM * M), Qs, Kb and Kw;
  // cum_last gains what each Kw row loses and gam_C <S0, dS1>.
  Value W = lb.map({dA, f.A, dM, M}, {tj, tj, tj, tj}, lb.empty({c, c}, f32),
                   [](ImplicitLocOpBuilder &ib, ValueRange args) {
                     return arith::AddFOp::create(
                                ib, productOf(ib, args.take_front(2)),
                                productOf(ib, args.slice(2, 2)))
                         .getResult();
                   });
  Value dCum = lb.sumInto(
      {W, W}, {tj, jt}, rowDot(Qs, dQs), t, {1},
      [](ImplicitLocOpBuilder &ib, ValueRange args) {
        return arith::SubFOp::create(ib, args[0], args[1]).getResult();
      });
  Value toEnd = rowDot(Kw, dKw);
  dCum = lb.map({f.betaGam, dbg, toEnd},
                {lb.dims(1, {0}), lb.dims(1, {0}), lb.dims(1, {0})}, dCum,
                [](ImplicitLocOpBuilder &ib, ValueRange args) {
                  Value x = arith::AddFOp::create(
                      ib, args[3], productOf(ib, args.take_front(2)));
                  return arith::SubFOp::create(ib, x, args[2]).getResult();
                });
  AffineMap scalar1 = lb.dims(1, {});
  Value dLast = lb.sumInto(
      {toEnd}, {lb.dims(1, {0})}, lb.filled({}, f32, 0.0), scalar1, {0},
      [](ImplicitLocOpBuilder &, ValueRange args) { return args[0]; });
  dLast = lb.sumInto(
      {S0, dS1}, {tj, tj}, dLast, none, {0, 1},
      [&](ImplicitLocOpBuilder &ib, ValueRange args) {
        return arith::MulFOp::create(ib, gamC, productOf(ib, args)).getResult();
      });
  // dg[s] = sum_{t >= s} dCum[t] + dLast (cum_last is cum[C - 1]).
  Value dLastS = tensor::ExtractOp::create(b, dLast, ValueRange{});
  Value dG = lb.sumInto(
      {dCum}, {lb.dims(2, {1})},
      lb.map({}, {}, lb.empty({c}, f32),
             [&](ImplicitLocOpBuilder &, ValueRange) { return dLastS; }),
      t, {1}, [](ImplicitLocOpBuilder &ib, ValueRange args) {
        Value s = linalg::IndexOp::create(ib, 0),
              tt = linalg::IndexOp::create(ib, 1);
        Value keep =
            arith::CmpIOp::create(ib, arith::CmpIPredicate::uge, tt, s);
        Value zeroF = arith::ConstantOp::create(ib, ib.getF32FloatAttr(0.0));
        return arith::SelectOp::create(ib, keep, args[0], zeroF).getResult();
      });

  // dk = diag(beta gam) dKb + diag(gam_C / gam) dKw + dKK K + dKK^T K
  //      + dQK^T Q, with dKK = dA * beta_t decay (strict) and
  //      dQK = dM * scale decay (j <= t); dq = dQK K + diag(scale gam) dQs.
  Value scaleF = arith::ConstantOp::create(b, b.getF32FloatAttr(scale));
  Value dKK = fwd.decayMask(lb, f, dA, /*strict=*/true, f.beta);
  Value dQK = fwd.decayMask(lb, f, dM, /*strict=*/false, Value());
  dQK = lb.map({}, {}, dQK, [&](ImplicitLocOpBuilder &ib, ValueRange args) {
    return arith::MulFOp::create(ib, args[0], scaleF).getResult();
  });
  Value toEndDecay = fwd.decaysToEnd(lb, f.cum, f.cumLast);
  Value dK = lb.map({f.betaGam, dKb, toEndDecay, dKw}, {t, tj, t, tj},
                    lb.empty({c, dk}, f32),
                    [](ImplicitLocOpBuilder &ib, ValueRange args) {
                      return arith::AddFOp::create(
                                 ib, productOf(ib, args.take_front(2)),
                                 productOf(ib, args.slice(2, 2)))
                          .getResult();
                    });
  dK = lb.contract(dKK, f.K, dK, Lhs::RowMajor);
  dK = lb.contract(dKK, f.K, dK, Lhs::Transposed);
  dK = lb.contract(dQK, f.Q, dK, Lhs::Transposed);
  Value gamS = fwd.gammas(lb, f.cum, scale);
  Value dQ = lb.map({gamS, dQs}, {t, tj}, lb.empty({c, dk}, f32),
                    [](ImplicitLocOpBuilder &ib, ValueRange args) {
                      return productOf(ib, args.take_front(2));
                    });
  dQ = lb.contract(dQK, f.K, dQ, Lhs::RowMajor);

  SmallVector<OpFoldResult> rows = {h.batch, t0, h.head, zero};
  auto put = [&](unsigned o, Value value, OpFoldResult width) {
    carry.outs[o] =
        lb.insert(value, carry.outs[o], rows, {one, c, one, width});
  };
  put(0, dQ, dk);
  put(1, dK, dk);
  put(2, dV, dv);
  for (auto [o, value] : {std::pair{3u, dG}, std::pair{4u, dBeta}})
    carry.outs[o] = lb.insert(value, carry.outs[o], {h.batch, t0, h.head},
                              {one, c, one});
  // Into the carried state's buffer (its last read is above).
  carry.states[0] = lb.copy(dS0, dS1);
}

static SmallVector<Value>
lowerGatedDeltaRuleBackward(GatedDeltaRuleBackwardOp op,
                            ImplicitLocOpBuilder &b) {
  int64_t H = dimSize(op.getQ(), 2), Dk = dimSize(op.getQ(), 3);
  int64_t Dv = dimSize(op.getV(), 3), Q = op.getChunkSize();
  GatedDeltaRuleOperands ops{
      op.getQ(),
      op.getK(),
      op.getV(),
      op.getG(),
      op.getBeta(),
      op.getInit(),
      H,
      Dk,
      Dv,
      Q,
      static_cast<double>(op.getScale().convertToFloat())};
  ops.triangularBlock = lookupTargetDescription(op).triangularBlockRows();
  DeltaRuleHead head{op.getQ(), op.getK(), op.getV(), op.getG(), op.getBeta(),
                     Dk,        Dv,        Value(),   Value()};
  ChunkedScanSpec spec = backwardScanSpec(b, op.getQ(), H, Q);
  Value boundaries;
  if (!op.getChunkStates()) {
    // The forward's WY chunks, without output.
    GatedDeltaRuleHooks forward(ops, /*withOutput=*/false);
    boundaries = forwardBoundaryStates(b, spec, forward, {Dk, Dv});
  }
  DeltaRuleBackward backward(op, head, ops,
                             lookupTargetDescription(op).vectorWidth);
  backward.configure(b, spec.length, boundaries);
  spec.reverse = true;
  spec.steppedOuts = 5;
  return buildChunkedScan(b, spec, op.getOuts(), backward);
}

void mlir::mixer::populateGatedDeltaRuleBackwardToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add(replaceUnlessBlocked<lowerGatedDeltaRuleBackward>);
}
