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
// With a chunk_states result (window 0) the driver records S before every
// chunk, and the chunked form runs whatever the length; when o and the
// final state have no uses, only the state passing is built.
//
// Without log_decay every decay is 1 and no exp is emitted. Sequences of at
// most recurrent-threshold tokens use the token steps only.
//
//===----------------------------------------------------------------------===//

#include "ChunkedScanLowering.h"
#include "MixerToLinalgPatterns.h"
#include "mixer/Utils/ChunkedScan.h"
#include "mixer/Utils/LinalgBuilder.h"

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

/// The math of mixer.linear_attention for the chunked-scan driver. Segment
/// 0 holds the keys with an output, segment 1 (when shift > 0) the last
/// keys, which only the state sees.
class LinearAttentionScan final : public OneStateScanHooks {
public:
  using Op = LinearAttentionOp;
  static FailureOr<LinearAttentionScan> match(LinearAttentionOp op,
                                              PatternRewriter &rewriter);
  void configure(ImplicitLocOpBuilder &b, ChunkedScanSpec &spec);

  void init(LinalgBuilder &lb, ScanCarry &carry) override;
  void chunkStep(LinalgBuilder &lb, unsigned segment, Value s0,
                 ScanCarry &carry) override;
  void tokenStep(LinalgBuilder &lb, unsigned segment, Value s,
                 ScanCarry &carry) override;
  StateSlice stateSlice(OpBuilder &b) const override;

private:
  LinearAttentionScan(LinearAttentionOp op, int64_t H, int64_t Dk, int64_t Dv)
      : OneStateScanHooks(op.getInit(), /*finalStateOut=*/1), op(op),
        qIn(op.getQ()), k(op.getK()), v(op.getV()), logDecay(op.getLogDecay()),
        H(H), Dk(Dk), Dv(Dv), Q(op.getChunkSize()),
        shift(op.getWindow() == 0 ? 0 : op.getWindow() + 1),
        scaleFactor(static_cast<double>(op.getScale().convertToFloat())),
        triangularBlock(lookupTargetDescription(op).triangularBlockRows()) {}

  /// o_t = scale * S^T q_t, written into row t of `o`.
  Value readOut(LinalgBuilder &lb, Value t, Value o, Value st);

  LinearAttentionOp op;
  Value qIn, k, v, logDecay; // the op's inputs; logDecay null when absent
  int64_t H, Dk, Dv, Q;
  /// Tokens between a key and the query that first sees it (0 or w + 1).
  int64_t shift;
  double scaleFactor;
  /// Rows per block of the causal products (0: whole).
  int64_t triangularBlock;
  /// The outputs [0, prefixEnd) read the initial state.
  Value prefixEnd;
  /// The op's chunk_states `outs`, when it returns them.
  Value chunkStatesOut;
  /// False when only the chunk states are read: the steps pass the state.
  bool outputWanted = true;
  /// The tile's heads run inside the chunk loop (ChunkedScanSpec::headsInner).
  bool headsInner = false;
};

} // namespace

/// Index arithmetic at the builder's location.
static Value addIndex(ImplicitLocOpBuilder &b, Value x, int64_t c) {
  if (c == 0)
    return x;
  return arith::AddIOp::create(b, x, arith::ConstantIndexOp::create(b, c));
}

/// A full chunk of Q keys starting at s0. In segment 0, also writes the
/// outputs s0 + shift .. s0 + shift + Q - 1 into `o`.
void LinearAttentionScan::chunkStep(LinalgBuilder &lb, unsigned segment,
                                    Value s0, ScanCarry &carry) {
  bool withOutput = segment == 0 && outputWanted;
  Value o = carry.outs[0], st = carry.states[0];
  ImplicitLocOpBuilder &b = lb.builder();
  Type f32 = b.getF32Type();
  OpFoldResult q = b.getIndexAttr(Q), dk = b.getIndexAttr(Dk),
               dv = b.getIndexAttr(Dv);

  Value Kc = tokensOf(lb, k, s0, Q, {Q, Dk});
  // Packed when two contractions read it (its rows are strided across the
  // time-major input).
  Value Vc = withOutput ? copyChunkTokens(lb, v, s0, Q, {Q, Dv})
                        : tokensOf(lb, v, s0, Q, {Q, Dv});

  Value cum, cumLast;
  if (logDecay) {
    Value A = tokensOf(lb, logDecay, s0, Q, {Q});
    std::tie(cumLast, cum) = lb.prefixSumF64(A);
  }
  // The per-row decays (one exp per token, not per element): to the chunk
  // end, and (with the scale folded in) from the chunk start.
  auto rowDecays = [&](bool fromStart, double factor) {
    return lb.map(
        {cum}, {lb.dims(1, {0})}, lb.empty({q}, f32),
        [&](ImplicitLocOpBuilder &ib, ValueRange args) {
          Value seg =
              fromStart ? args[0] : arith::SubFOp::create(ib, cumLast, args[0]);
          return LinalgBuilder(ib).decayOfSum(seg, factor);
        });
  };

  if (withOutput) {
    Value t0 = addIndex(b, s0, shift);
    // Read in place where the inter-chunk product scales them: that pass
    // writes the chunk's buffer (and fetches the next chunk's rows);
    // otherwise packed, as two contractions read them.
    bool scaledQueries = cum || scaleFactor != 1.0;
    Value Qc = scaledQueries ? tokensOf(lb, qIn, t0, Q, {Q, Dk})
                             : copyChunkTokens(lb, qIn, t0, Q, {Q, Dk});
    // Scores, then the causal decay mask (and the scale) applied in place.
    Value Sc = lb.contractLowerPart(Qc, lb.transpose(Kc),
                                    lb.filled({q, q}, f32, 0.0),
                                    triangularBlock);
    // In the same row blocks: the scores above them are zeros already.
    Value M;
    if (cum) {
      M = lb.decayLowerBlocks(cum, Sc, triangularBlock, scaleFactor);
    } else {
      M = lb.mapLowerBlocks(
          {}, Sc, triangularBlock,
          [&](ImplicitLocOpBuilder &ib, Value t, Value s, ValueRange args) {
            Value score = args.back();
            if (scaleFactor != 1.0)
              score = arith::MulFOp::create(
                  ib, score,
                  arith::ConstantOp::create(ib,
                                            ib.getF32FloatAttr(scaleFactor)));
            Value causal =
                arith::CmpIOp::create(ib, arith::CmpIPredicate::ule, s, t);
            Value zeroF =
                arith::ConstantOp::create(ib, ib.getF32FloatAttr(0.0));
            return arith::SelectOp::create(ib, causal, score, zeroF)
                .getResult();
          });
    }
    // The output block accumulates locally and is written once.
    Value O = lb.contractLowerLhs(M, Vc, lb.filled({q, dv}, f32, 0.0),
                                  triangularBlock);

    // Inter-chunk: the state entering the chunk, decayed to each query.
    Value Qs = Qc;
    if (cum) {
      Qs = lb.scaleRows(Qc, rowDecays(/*fromStart=*/true, scaleFactor));
    } else if (scaledQueries) {
      Qs =
          lb.map({Qc}, {lb.dims(2, {0, 1})}, lb.empty({q, dk}, f32),
                 [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                   Value scale = arith::ConstantOp::create(
                       ib, ib.getF32FloatAttr(scaleFactor));
                   return arith::MulFOp::create(ib, args[0], scale).getResult();
                 });
    }
    if (scaledQueries)
      LinalgBuilder::prefetchingRowsAhead(Qs, nextChunkRows(Q));
    O = lb.contract(Qs, st, O, Lhs::RowMajor);
    o = writeChunkTokens(lb, O, o, t0, Q);
  }

  // State passing: decay the state over the chunk, add each key decayed to
  // the chunk end.
  Value Kw = Kc;
  if (cum) {
    Kw = lb.scaleRows(Kc, rowDecays(/*fromStart=*/false, 1.0));
    // Its loop reads the chunk's rows of k: the next chunk's come in
    // meanwhile.
    LinalgBuilder::prefetchingRowsAhead(Kw, nextChunkRows(Q));
    Value chunkDecay = lb.decayOfSum(cumLast);
    st = lb.map({}, {}, st, [&](ImplicitLocOpBuilder &ib, ValueRange args) {
      return arith::MulFOp::create(ib, args[0], chunkDecay).getResult();
    });
  }
  st = lb.contract(Kw, Vc, st, Lhs::Transposed);
  carry.outs[0] = o;
  carry.states[0] = st;
}

Value LinearAttentionScan::readOut(LinalgBuilder &lb, Value t, Value o,
                                   Value st) {
  ImplicitLocOpBuilder &b = lb.builder();
  OpFoldResult one = b.getIndexAttr(1), dk = b.getIndexAttr(Dk);
  Value qt = tokensOf(lb, qIn, t, 1, {1, Dk});
  if (scaleFactor != 1.0) {
    Value scale = arith::ConstantOp::create(b, b.getF32FloatAttr(scaleFactor));
    qt = lb.map({qt}, {lb.dims(2, {0, 1})}, lb.empty({one, dk}, b.getF32Type()),
                [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                  return arith::MulFOp::create(ib, args[0], scale).getResult();
                });
  }
  // A [1, Dk] x [Dk, Dv] contraction: FMAs over rows of S.
  Value acc = lb.fill(tokensOf(lb, o, t, 1, {1, Dv}), 0.0);
  Value ot = lb.contract(qt, st, acc, Lhs::RowMajor);
  return insertTokens(lb, ot, o, t, 1);
}

/// One key s: S = exp(a_s) S + k_s v_s^T, then in segment 0 the output
/// s + shift.
void LinearAttentionScan::tokenStep(LinalgBuilder &lb, unsigned segment,
                                    Value s, ScanCarry &carry) {
  bool withOutput = segment == 0 && outputWanted;
  Value o = carry.outs[0], st = carry.states[0];
  ImplicitLocOpBuilder &b = lb.builder();
  Value ks = tokensOf(lb, k, s, 1, {Dk});
  Value vs = tokensOf(lb, v, s, 1, {Dv});
  Value decay;
  if (logDecay)
    decay = lb.expOfNonPositive(
        tensor::ExtractOp::create(b, logDecay, ValueRange{batch, s, head}));
  st = lb.map({ks, vs}, {lb.dims(2, {0}), lb.dims(2, {1})}, st,
              [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                Value outer = arith::MulFOp::create(ib, args[0], args[1]);
                Value kept = args[2];
                if (decay)
                  kept = arith::MulFOp::create(ib, kept, decay);
                return arith::AddFOp::create(ib, kept, outer).getResult();
              });
  if (withOutput)
    o = readOut(lb, addIndex(b, s, shift), o, st);
  carry.outs[0] = o;
  carry.states[0] = st;
}

void LinearAttentionScan::init(LinalgBuilder &lb, ScanCarry &carry) {
  ImplicitLocOpBuilder &ib = lb.builder();
  OneStateScanHooks::init(lb, carry);
  Value st = carry.states[0];
  if (shift == 0)
    return;
  // Outputs before the first key leaves the window.
  Value c0 = arith::ConstantIndexOp::create(ib, 0);
  Value c1 = arith::ConstantIndexOp::create(ib, 1);
  SmallVector<Value> prefix = lb.loop(
      c0, prefixEnd, c1, ValueRange{carry.outs[0]},
      [&](LinalgBuilder &plb, Value t, ValueRange acc) -> SmallVector<Value> {
        Value next;
        if (op.getInit()) {
          next = readOut(plb, t, acc[0], st);
        } else {
          Value row = plb.fill(tokensOf(plb, acc[0], t, 1, {Dv}), 0.0);
          next = insertTokens(plb, row, acc[0], t, 1);
        }
        return {next};
      });
  carry.outs[0] = prefix[0];
}

/// The state S [Dk, Dv] of the head, in its natural layout.
StateSlice LinearAttentionScan::stateSlice(OpBuilder &b) const {
  OpFoldResult zero = b.getIndexAttr(0);
  return {{batch, head, zero, zero}, Dk, Dv};
}

FailureOr<LinearAttentionScan>
LinearAttentionScan::match(LinearAttentionOp op, PatternRewriter &rewriter) {
  int64_t H = dimSize(op.getQ(), 2), Dk = dimSize(op.getQ(), 3),
          Dv = dimSize(op.getV(), 3);
  LinearAttentionScan scan(op, H, Dk, Dv);
  if (op.getChunkStates()) {
    scan.chunkStatesOut = op.getOuts()[2];
    // The backward's residual alone: no output where nothing reads it.
    scan.outputWanted = isRead(op.getO()) || isRead(op.getFinalState());
  }
  const TargetDescription &target = lookupTargetDescription(op);
  scan.Q = target.scanChunk(scan.Q, static_cast<bool>(op.getChunkStates()));
  // A tile's heads (the target's block) take each chunk in turn: a token's
  // rows of those heads are adjacent, so each chunk reads them together.
  scan.headsInner =
      !op.getChunkStates() && scan.shift == 0 && headsStepTogether(target, H);
  return scan;
}

void LinearAttentionScan::configure(ImplicitLocOpBuilder &b,
                                    ChunkedScanSpec &spec) {
  spec.heads = arith::ConstantIndexOp::create(b, H);
  spec.chunkSize = Q;
  spec.headsInner = headsInner;
  // Keys with an output: [0, outKeys), outKeys = max(L - shift, 0). The
  // first L - outKeys outputs read the initial state.
  Value c0 = arith::ConstantIndexOp::create(b, 0);
  Value cShift = arith::ConstantIndexOp::create(b, shift);
  Value length = spec.length;
  Value outKeys = arith::SelectOp::create(
      b, arith::CmpIOp::create(b, arith::CmpIPredicate::ugt, length, cShift),
      arith::SubIOp::create(b, length, cShift), c0);
  spec.segments.push_back({c0, outKeys});
  if (chunkStatesOut) {
    // Window 0 (the verifier's rule): one segment, whose row j is the state
    // before key j * Q whatever the length.
    spec.recurrentThreshold = std::nullopt;
    spec.boundaryStates = {RankedTensorType::get({Dk, Dv}, b.getF32Type())};
    spec.boundaryDests = {chunkStatesOut};
  }
  if (shift > 0) {
    spec.segments.push_back({outKeys, length});
    prefixEnd = arith::SubIOp::create(b, length, outKeys);
  }
}

void mlir::mixer::populateLinearAttentionToLinalgPatterns(
    RewritePatternSet &patterns, int64_t recurrentThreshold) {
  patterns.add<ChunkedScanLowering<LinearAttentionScan>>(patterns.getContext(),
                                                         recurrentThreshold);
}
