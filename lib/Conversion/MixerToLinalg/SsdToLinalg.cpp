//===- SsdToLinalg.cpp - mixer.ssd as chunked SSD in linalg ---------------===//
//
// Per (batch, head), with the state kept transposed as St [N, P] so that
// every contraction reads a row-major right-hand side:
//
//   for each full chunk of Q tokens (X [Q,P], A [Q], Bc, Cc [Q,N]):
//     cum[t]   = sum_{s<=t} A[s]                       (f64: stable segments)
//     L[t,s]   = s <= t ? exp(min(cum[t] - cum[s], 0)) : 0
//     Y        = ((Cc Bc^T) * L) X                     intra-chunk block
//              + diag(exp(cum)) Cc St                  off-diagonal output
//     St       = exp(cum[Q-1]) St
//              + (diag(exp(cum[Q-1] - cum)) Bc)^T X    chunk state passing
//   for each remaining token (all of them when L <= recurrent-threshold):
//     St = exp(a_t) St + b_t x_t^T,  y_t = St^T c_t
//
// Every exp is of a value clamped to <= 0. With a chunk_states result the
// driver records St before every chunk; when y and the final state have no
// uses, only the state passing is built.
//
//===----------------------------------------------------------------------===//

#include "ChunkedScanLowering.h"
#include "GradientSums.h"
#include "MixerToLinalgPatterns.h"
#include "SsdLowering.h"
#include "mixer/Target/TargetDescription.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::mixer;

//===----------------------------------------------------------------------===//
// Building blocks of a chunk
//===----------------------------------------------------------------------===//

SsdInputs SsdInputs::of(Value x, Value logA, Value b, Value c, Value init,
                        int64_t chunkSize) {
  return {x,           logA,        b,           c,           init,
          dimSize(x, 2), dimSize(x, 3), dimSize(b, 2), dimSize(b, 3),
          chunkSize};
}

Value SsdInputs::groupOf(ImplicitLocOpBuilder &b, Value head) const {
  return arith::DivUIOp::create(
      b, head, arith::ConstantIndexOp::create(b, headsPerGroup()));
}

StateSlice SsdInputs::stateOf(OpBuilder &b, Value batch, Value head) const {
  OpFoldResult zero = b.getIndexAttr(0);
  return {{batch, head, zero, zero}, P, N, /*transposed=*/true};
}

/// The causal decay from s to t inside a chunk from the prefix sums at t
/// and s: exp(cum[t] - cum[s]) for s <= t, else 0.
static Value causalDecay(ImplicitLocOpBuilder &ib, Value t, Value s,
                         Value cumT, Value cumS) {
  Value decay =
      LinalgBuilder(ib).decayOfSum(arith::SubFOp::create(ib, cumT, cumS));
  Value causal = arith::CmpIOp::create(ib, arith::CmpIPredicate::ule, s, t);
  Value zeroF = arith::ConstantOp::create(ib, ib.getF32FloatAttr(0.0));
  return arith::SelectOp::create(ib, causal, decay, zeroF);
}

/// A [n, n] tensor for the row blocks of mapLowerBlocks: zeros when the
/// blocks above the diagonal are skipped, else uninitialized.
static Value lowerBlocksInit(LinalgBuilder &lb, int64_t n,
                             int64_t triangularBlock) {
  ImplicitLocOpBuilder &b = lb.builder();
  OpFoldResult q = b.getIndexAttr(n);
  return LinalgBuilder::rowBlocks(n, triangularBlock)
             ? lb.filled({q, q}, b.getF32Type(), 0.0)
             : lb.empty({q, q}, b.getF32Type());
}

SsdChunkDecays SsdChunkDecays::of(LinalgBuilder &lb, Value A) {
  ImplicitLocOpBuilder &b = lb.builder();
  Type f32 = b.getF32Type();
  OpFoldResult q = lb.sizesOf(A)[0];
  SsdChunkDecays d;
  std::tie(d.cumLast, d.cum) = lb.prefixSumF64(A);
  Value cumLast = d.cumLast;
  auto factors = [&](bool toEnd) {
    return lb.map({d.cum}, {lb.dims(1, {0})}, lb.empty({q}, f32),
                  [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                    Value seg = args[0];
                    if (toEnd)
                      seg = arith::SubFOp::create(ib, cumLast, seg);
                    return LinalgBuilder(ib).decayOfSum(seg);
                  });
  };
  d.startFactors = factors(false);
  d.endFactors = factors(true);
  return d;
}

Value SsdChunkDecays::fromStart(LinalgBuilder &lb, Value rows) const {
  return lb.scaleRows(rows, startFactors);
}

Value SsdChunkDecays::toEnd(LinalgBuilder &lb, Value rows) const {
  return lb.scaleRows(rows, endFactors);
}

Value SsdChunkDecays::overChunk(LinalgBuilder &lb, Value state) const {
  Value chunkDecay = lb.decayOfSum(cumLast);
  return lb.map({}, {}, state, [&](ImplicitLocOpBuilder &ib, ValueRange args) {
    return arith::MulFOp::create(ib, args[0], chunkDecay).getResult();
  });
}

Value SsdChunkDecays::decayedScores(LinalgBuilder &lb, Value G,
                                    int64_t triangularBlock) const {
  int64_t n = cast<RankedTensorType>(G.getType()).getDimSize(0);
  using In = LinalgBuilder::TriangleInput;
  return lb.mapLowerBlocks(
      {{cum, In::Row}, {cum, In::Column}, {G, In::Both}},
      lowerBlocksInit(lb, n, triangularBlock), triangularBlock,
      [&](ImplicitLocOpBuilder &ib, Value t, Value s, ValueRange args) {
        return arith::MulFOp::create(
                   ib, args[2], causalDecay(ib, t, s, args[0], args[1]))
            .getResult();
      });
}

Value mlir::mixer::ssdChunkGram(LinalgBuilder &lb, Value Cc, Value Bc,
                                int64_t triangularBlock) {
  Type f32 = lb.builder().getF32Type();
  OpFoldResult n = lb.sizesOf(Cc)[0];
  return lb.contractLowerPart(Cc, lb.transpose(Bc), lb.filled({n, n}, f32, 0.0),
                              triangularBlock);
}

//===----------------------------------------------------------------------===//
// The forward scan
//===----------------------------------------------------------------------===//

FailureOr<SsdScan> SsdScan::match(SsdOp op, PatternRewriter &) {
  const TargetDescription &target = lookupTargetDescription(op);
  int64_t chunk = target.scanChunk(op.getChunkSize(),
                                   static_cast<bool>(op.getChunkStates()));
  SsdInputs in = SsdInputs::of(op.getX(), op.getLogA(), op.getB(), op.getC(),
                               op.getInit(), chunk);
  // The backward's residual alone: no output where nothing reads it.
  bool withOutput = !op.getChunkStates() || isRead(op.getY()) ||
                    isRead(op.getFinalState());
  SsdScan scan(in, withOutput);
  if (op.getChunkStates())
    scan.chunkStatesOut = op.getOuts()[2];
  scan.triangularBlock = target.triangularBlockRows();
  // A tile's heads of one group run inside the chunk loop (as many as the
  // target's block: their states stay in cache).
  scan.headsInner =
      !op.getChunkStates() && in.G == 1 && headsStepTogether(target, in.H);
  return scan;
}

void SsdScan::configure(ImplicitLocOpBuilder &b, ChunkedScanSpec &spec) {
  spec.heads = arith::ConstantIndexOp::create(b, in.H);
  spec.chunkSize = in.Q;
  spec.headsInner = headsInner;
  if (!chunkStatesOut)
    return;
  // Row j is the state before token j * Q whatever the length: no
  // recurrent-only short sequences.
  spec.recurrentThreshold = std::nullopt;
  spec.boundaryStates = {RankedTensorType::get({in.N, in.P}, b.getF32Type())};
  spec.boundaryDests = {chunkStatesOut};
}

std::pair<Value, Value> SsdScan::chunkInputs(LinalgBuilder &lb,
                                             Value t0) const {
  return {tokensOf(lb, in.b, t0, in.Q, {in.Q, in.N}, group),
          tokensOf(lb, in.c, t0, in.Q, {in.Q, in.N}, group)};
}

void SsdScan::chunkShared(LinalgBuilder &lb, unsigned, Value t0) {
  std::tie(sharedBc, sharedCc) = chunkInputs(lb, t0);
  sharedGram = withOutput
                   ? ssdChunkGram(lb, sharedCc, sharedBc, triangularBlock)
                   : Value();
}

void SsdScan::chunkStep(LinalgBuilder &lb, unsigned, Value t0,
                        ScanCarry &carry) {
  Value st = carry.states[0];
  ImplicitLocOpBuilder &b = lb.builder();
  Type f32 = b.getF32Type();
  int64_t Q = in.Q, P = in.P;

  // Packed into a local buffer: three contractions read it, and its rows
  // are strided across the (usually uncached) time-major input.
  Value X = copyChunkTokens(lb, in.x, t0, Q, {Q, P});
  Value A = tokensOf(lb, in.logA, t0, Q, {Q});
  auto [Bc, Cc] = headsInner ? std::pair(sharedBc, sharedCc)
                             : chunkInputs(lb, t0);
  // The decays of the scores are applied where they are evaluated.
  SsdChunkDecays decays = SsdChunkDecays::of(lb, A);

  Value Y;
  if (withOutput) {
    // Intra-chunk block: ((Cc Bc^T) * L) X. The output block accumulates
    // in a local (cache-resident) buffer and is written to y once: y is
    // strided and usually far larger than the caches.
    Value M = decays.decayedScores(
        lb, headsInner ? sharedGram : ssdChunkGram(lb, Cc, Bc, triangularBlock),
        triangularBlock);
    Y = lb.contractLowerLhs(
        M, X, lb.filled({b.getIndexAttr(Q), b.getIndexAttr(P)}, f32, 0.0),
        triangularBlock);
    // Off-diagonal output: the state entering the chunk, decayed to each t.
    Y = lb.contract(decays.fromStart(lb, Cc), st, Y, Lhs::RowMajor);
  }

  // State passing: decay the state over the chunk (in place: it is a
  // loop-carried buffer) and add each token's contribution decayed to the
  // chunk end.
  carry.states[0] = lb.contract(decays.toEnd(lb, Bc), X,
                                decays.overChunk(lb, st), Lhs::Transposed);
  if (Y)
    carry.outs[0] = writeChunkTokens(lb, Y, carry.outs[0], t0, Q);
}

void SsdScan::tokenStep(LinalgBuilder &lb, unsigned, Value t,
                        ScanCarry &carry) {
  ImplicitLocOpBuilder &b = lb.builder();
  Value xt = tokensOf(lb, in.x, t, 1, {in.P});
  Value bt = tokensOf(lb, in.b, t, 1, {in.N}, group);
  Value ct = tokensOf(lb, in.c, t, 1, {1, in.N}, group);
  // St = exp(a_t) St + b_t x_t^T, in place.
  Value decay = lb.expOfNonPositive(
      tensor::ExtractOp::create(b, in.logA, ValueRange{batch, t, head}));
  Value newSt =
      lb.map({bt, xt}, {lb.dims(2, {0}), lb.dims(2, {1})}, carry.states[0],
             [&](ImplicitLocOpBuilder &ib, ValueRange args) {
               Value outer = arith::MulFOp::create(ib, args[0], args[1]);
               Value kept = arith::MulFOp::create(ib, args[2], decay);
               return arith::AddFOp::create(ib, kept, outer).getResult();
             });
  carry.states[0] = newSt;
  if (!withOutput)
    return;
  Value y = carry.outs[0];

  // y_t = c_t St, a [1, N] x [N, P] contraction: FMAs over the rows of the
  // state, a whole row of y per step (a reduction over n for each p would
  // read St a column at a time, in scalars). Summed in a row of its own and
  // then written: the function only writes y (mixer-stream-stores).
  Value acc =
      lb.filled({b.getIndexAttr(1), b.getIndexAttr(in.P)}, b.getF32Type(), 0.0);
  Value yt = lb.contract(ct, newSt, acc, Lhs::RowMajor);
  carry.outs[0] = insertTokens(lb, yt, y, t, 1);
}

void mlir::mixer::populateSsdToLinalgPatterns(RewritePatternSet &patterns,
                                              int64_t recurrentThreshold) {
  patterns.add<ChunkedScanLowering<SsdScan>>(patterns.getContext(),
                                             recurrentThreshold);
}
