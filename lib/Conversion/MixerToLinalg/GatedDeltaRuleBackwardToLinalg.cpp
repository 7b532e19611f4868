//===- GatedDeltaRuleBackwardToLinalg.cpp - delta rule gradients ----------===//
//
// mixer.gated_delta_rule_backward in two passes of the chunked-scan driver,
// per (batch, head), the state S [Dk, Dv] in its natural layout:
//
//   1. Unless the op has them, the chunk-boundary states: the forward's
//      recurrent form (buildDeltaRuleWrite / buildDeltaRuleUpdate) without
//      output, the driver recording S before every chunk of Q tokens
//      ([B, H, L/Q + 1, Dk, Dv]).
//   2. The reverse scan carrying dS, the cotangent of the state. Per chunk
//      (a full chunk of Q tokens, or one token of the tail, whose state is
//      recomputed from the tail's boundary state): Ss[0] = the boundary
//      state, Ss[i + 1] = the state after token i ([Q + 1, Dk, Dv]); then
//      per token, from the last (a = exp(g), kS = S_prev^T k, r = v - a kS):
//        dS += scale q do^T;  dq = scale S do;  u = dS^T k
//        dv = beta u;  dk = beta (dS r - a S_prev u);  dbeta = u . r
//        dg = a (<dS, S_prev> - beta u . kS);  dS = a (dS - beta k u^T)
//
// This is the per-token form inside each chunk, not the forward's WY form:
// O(L Dk Dv) work like the forward's, with chunk-sized memory.
//
//===----------------------------------------------------------------------===//

#include "ChunkedScanLowering.h"
#include "GatedDeltaRuleLowering.h"
#include "GradientSums.h"
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
    return sumInto(lb, {kt, st}, {a, aj},
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

/// Pass 1: the states only, for the boundary rows.
class DeltaRuleStates final : public ChunkedScanHooks {
public:
  DeltaRuleStates(const DeltaRuleHead &h, Value initState, int64_t Q)
      : h(h), initState(initState), Q(Q) {}

  void init(LinalgBuilder &lb, ScanCarry &carry) override {
    h.batch = batch;
    h.head = head;
    OpFoldResult zero = lb.builder().getIndexAttr(0);
    carry.states.push_back(
        initialState(lb, initState, {{batch, head, zero, zero}, h.Dk, h.Dv}));
  }
  void chunkStep(LinalgBuilder &lb, unsigned, Value t0,
                 ScanCarry &carry) override {
    ImplicitLocOpBuilder &b = lb.builder();
    auto loop = scf::ForOp::create(
        b, t0, arith::AddIOp::create(b, t0, arith::ConstantIndexOp::create(b, Q)),
        arith::ConstantIndexOp::create(b, 1), ValueRange{carry.states[0]},
        [&](OpBuilder &nb, Location loc, Value t, ValueRange acc) {
          ImplicitLocOpBuilder ib(loc, nb);
          LinalgBuilder ilb(ib);
          scf::YieldOp::create(ib, ValueRange{h.advance(ilb, acc[0], t)});
        });
    carry.states[0] = loop.getResult(0);
  }
  void tokenStep(LinalgBuilder &lb, unsigned, Value t,
                 ScanCarry &carry) override {
    carry.states[0] = h.advance(lb, carry.states[0], t);
  }
  void finalize(LinalgBuilder &, ArrayRef<Value>,
                MutableArrayRef<Value>) override {}

private:
  DeltaRuleHead h;
  Value initState;
  int64_t Q;
};

/// Pass 2: the reverse scan. outs: dq, dk, dv, dg, dbeta (stepped), dinit.
class DeltaRuleBackward final : public ChunkedScanHooks {
public:
  DeltaRuleBackward(GatedDeltaRuleBackwardOp op, const DeltaRuleHead &h,
                    int64_t Q)
      : h(h), dO(op.getDO()), dFinal(op.getDFinalState()),
        saved(op.getChunkStates()), hasInit(static_cast<bool>(op.getInit())),
        Q(Q), scale(static_cast<double>(op.getScale().convertToFloat())) {}

  void configure(ImplicitLocOpBuilder &b, Value length, Value boundaries) {
    Value cQ = arith::ConstantIndexOp::create(b, Q);
    tailRow = arith::DivUIOp::create(b, length, cQ);
    tailStart = arith::MulIOp::create(b, tailRow, cQ);
    recomputed = boundaries;
  }

  void init(LinalgBuilder &lb, ScanCarry &carry) override {
    h.batch = batch;
    h.head = head;
    carry.states.push_back(initialState(lb, dFinal, stateSlice(lb)));
  }
  void chunkStep(LinalgBuilder &lb, unsigned, Value t0,
                 ScanCarry &carry) override {
    Value row = arith::DivUIOp::create(
        lb.builder(), t0, arith::ConstantIndexOp::create(lb.builder(), Q));
    backwardBlock(lb, Q, t0, boundaryState(lb, row), carry);
  }
  void tokenStep(LinalgBuilder &lb, unsigned, Value t,
                 ScanCarry &carry) override {
    // The state before tail token t, recomputed from the tail's start.
    ImplicitLocOpBuilder &b = lb.builder();
    auto loop = scf::ForOp::create(
        b, tailStart, t, arith::ConstantIndexOp::create(b, 1),
        ValueRange{lb.copyToNew(boundaryState(lb, tailRow))},
        [&](OpBuilder &nb, Location loc, Value s, ValueRange acc) {
          ImplicitLocOpBuilder ib(loc, nb);
          LinalgBuilder ilb(ib);
          scf::YieldOp::create(ib, ValueRange{h.advance(ilb, acc[0], s)});
        });
    backwardBlock(lb, 1, t, loop.getResult(0), carry);
  }
  void finalize(LinalgBuilder &lb, ArrayRef<Value> states,
                MutableArrayRef<Value> outs) override {
    if (hasInit)
      outs[5] = insertFinalState(lb, states[0], outs[5], stateSlice(lb));
  }

private:
  StateSlice stateSlice(LinalgBuilder &lb) const {
    OpFoldResult zero = lb.builder().getIndexAttr(0);
    return {{batch, head, zero, zero}, h.Dk, h.Dv};
  }
  /// The state [Dk, Dv] before token row * Q.
  Value boundaryState(LinalgBuilder &lb, Value row) const {
    OpBuilder &b = lb.builder();
    OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
    return lb.slice(saved ? saved : recomputed, {batch, head, row, zero, zero},
                    {one, one, one, b.getIndexAttr(h.Dk), b.getIndexAttr(h.Dv)},
                    {h.Dk, h.Dv});
  }
  void backwardBlock(LinalgBuilder &lb, int64_t n, Value t0, Value sStart,
                     ScanCarry &carry);

  DeltaRuleHead h;
  Value dO, dFinal, saved, recomputed;
  bool hasInit;
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
  auto states = scf::ForOp::create(
      b, c0, cN, c1, ValueRange{lb.copyToNew(sStart), Ss},
      [&](OpBuilder &nb, Location loc, Value i, ValueRange acc) {
        ImplicitLocOpBuilder ib(loc, nb);
        LinalgBuilder ilb(ib);
        Value st = h.advance(ilb, acc[0], arith::AddIOp::create(ib, t0, i));
        Value next = arith::AddIOp::create(ib, i, c1);
        scf::YieldOp::create(
            ib, ValueRange{st, ilb.insert(st, acc[1], {next, zero, zero},
                                          {one, dk, dv})});
      });
  Ss = states.getResult(1);

  // The reverse recurrence, token by token, writing each token's gradients.
  SmallVector<Value> init(carry.outs.begin(), carry.outs.begin() + 5);
  init.push_back(carry.states[0]);
  auto reverse = scf::ForOp::create(
      b, c0, cN, c1, init,
      [&](OpBuilder &nb, Location loc, Value j, ValueRange acc) {
        ImplicitLocOpBuilder ib(loc, nb);
        LinalgBuilder ilb(ib);
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
          dq = sumInto(ilb, {cur, dot}, {aj, jj}, dq, a, {1},
                       [&](ImplicitLocOpBuilder &hb, ValueRange args) {
                         return arith::MulFOp::create(
                                    hb, scaleF, productOf(hb, args))
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
        Value dkRow = sumInto(
            ilb, {dS, r, prev, u}, {aj, jj, aj, jj}, ilb.filled({dk}, f32, 0.0),
            a, {1}, [&](ImplicitLocOpBuilder &hb, ValueRange args) {
              Value direct = arith::MulFOp::create(hb, args[0], args[1]);
              Value erased = arith::MulFOp::create(
                  hb, gate, arith::MulFOp::create(hb, args[2], args[3]));
              return arith::MulFOp::create(
                         hb, beta, arith::SubFOp::create(hb, direct, erased))
                  .getResult();
            });
        // dbeta = u . r; dg = a (<dS, S_prev> - beta u . kS).
        AffineMap j1 = ilb.dims(1, {0}), scalar1 = ilb.dims(1, {});
        Value dBeta = sumInto(ilb, {u, r}, {j1, j1}, ilb.filled({}, f32, 0.0),
                              scalar1, {0}, productOf);
        Value uKS = sumInto(ilb, {u, kS}, {j1, j1}, ilb.filled({}, f32, 0.0),
                            scalar1, {0}, productOf);
        Value inner = sumInto(ilb, {dS, prev}, {aj, aj},
                              ilb.filled({}, f32, 0.0), none, {0, 1},
                              productOf);
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
        scf::YieldOp::create(
            ib, ValueRange{put(dq, acc[0], dk), put(dkRow, acc[1], dk),
                           put(dV, acc[2], dv),
                           tensor::InsertOp::create(ib, dG, acc[3], at3),
                           tensor::InsertOp::create(ib, dBetaS, acc[4], at3),
                           dSPrev});
      });
  for (unsigned o = 0; o < 5; ++o)
    carry.outs[o] = reverse.getResult(o);
  carry.states[0] = reverse.getResult(5);
}

namespace {
struct GatedDeltaRuleBackwardLowering
    : public OpRewritePattern<GatedDeltaRuleBackwardOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GatedDeltaRuleBackwardOp op,
                                PatternRewriter &rewriter) const override {
    if (std::optional<std::string> blocker = getLinalgLoweringBlocker(op))
      return rewriter.notifyMatchFailure(op, *blocker);
    int64_t H = dimSize(op.getQ(), 2), Dk = dimSize(op.getQ(), 3);
    int64_t Dv = dimSize(op.getV(), 3), Q = op.getChunkSize();
    DeltaRuleHead head{op.getQ(), op.getK(), op.getV(), op.getG(),
                       op.getBeta(), Dk, Dv, Value(), Value()};
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    ChunkedScanSpec spec;
    spec.batches = tensor::DimOp::create(b, op.getQ(), 0);
    spec.length = tensor::DimOp::create(b, op.getQ(), 1);
    spec.heads = arith::ConstantIndexOp::create(b, H);
    spec.chunkSize = Q;
    spec.recurrentThreshold = std::nullopt;
    Value boundaries;
    if (!op.getChunkStates()) {
      DeltaRuleStates forward(head, op.getInit(), Q);
      ChunkedScanSpec fwdSpec = spec;
      fwdSpec.steppedOuts = 0;
      fwdSpec.boundaryStates = {
          RankedTensorType::get({Dk, Dv}, b.getF32Type())};
      boundaries = buildChunkedScan(b, fwdSpec, ValueRange{}, forward)[0];
    }
    DeltaRuleBackward backward(op, head, Q);
    backward.configure(b, spec.length, boundaries);
    spec.reverse = true;
    spec.steppedOuts = 5;
    rewriter.replaceOp(op, buildChunkedScan(b, spec, op.getOuts(), backward));
    return success();
  }
};
} // namespace

void mlir::mixer::populateGatedDeltaRuleBackwardToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<GatedDeltaRuleBackwardLowering>(patterns.getContext());
}
