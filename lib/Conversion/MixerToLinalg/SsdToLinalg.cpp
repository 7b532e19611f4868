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
// Every exp is of a value clamped to <= 0.
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

/// Static sizes and the values shared by the chunk and token steps of one
/// (batch, head).
struct SsdHead {
  Value x, logA, b, c;       // the op's inputs
  Value batch, head, group;  // indices
  int64_t P, N;
};

struct SsdToLinalg : public OpRewritePattern<SsdOp> {
  SsdToLinalg(MLIRContext *ctx, int64_t recurrentThreshold)
      : OpRewritePattern(ctx), recurrentThreshold(recurrentThreshold) {}

  LogicalResult matchAndRewrite(SsdOp op,
                                PatternRewriter &rewriter) const override;

private:
  /// One full chunk of Q tokens starting at t0: returns (y, St).
  std::pair<Value, Value> chunkStep(LinalgBuilder &lb, const SsdHead &hd,
                                    int64_t Q, Value t0, Value y,
                                    Value st) const;
  /// One token t: returns (y, St).
  std::pair<Value, Value> tokenStep(LinalgBuilder &lb, const SsdHead &hd,
                                    Value t, Value y, Value st) const;

  int64_t recurrentThreshold;
};

} // namespace

std::pair<Value, Value> SsdToLinalg::chunkStep(LinalgBuilder &lb,
                                               const SsdHead &hd, int64_t Q,
                                               Value t0, Value y,
                                               Value st) const {
  ImplicitLocOpBuilder &b = lb.builder();
  Type f32 = b.getF32Type();
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  OpFoldResult q = b.getIndexAttr(Q), p = b.getIndexAttr(hd.P),
               n = b.getIndexAttr(hd.N);

  // Packed into a local buffer: three contractions read it, and its rows
  // are strided across the (usually uncached) time-major input.
  Value X = lb.copyToNew(lb.slice(hd.x, {hd.batch, t0, hd.head, zero},
                                  {one, q, one, p}, {Q, hd.P}));
  Value A = lb.slice(hd.logA, {hd.batch, t0, hd.head}, {one, q, one}, {Q});
  Value Bc = lb.slice(hd.b, {hd.batch, t0, hd.group, zero}, {one, q, one, n},
                      {Q, hd.N});
  Value Cc = lb.slice(hd.c, {hd.batch, t0, hd.group, zero}, {one, q, one, n},
                      {Q, hd.N});

  // Inclusive prefix sums of the log decays, in f64 so that differences of
  // two sums (segment sums) keep f32 accuracy however long the chunk.
  Value cumLast, cum;
  std::tie(cumLast, cum) = lb.prefixSumF64(A);

  // Decay from s to t inside the chunk, zero above the diagonal.
  Value L = lb.map(
      {cum, cum}, {lb.dims(2, {0}), lb.dims(2, {1})}, lb.empty({q, q}, f32),
      [&](ImplicitLocOpBuilder &ib, ValueRange args) {
        Value seg = arith::TruncFOp::create(
            ib, f32, arith::SubFOp::create(ib, args[0], args[1]));
        Value decay = LinalgBuilder(ib).expOfNonPositive(seg);
        Value t = linalg::IndexOp::create(ib, 0), s = linalg::IndexOp::create(ib, 1);
        Value causal =
            arith::CmpIOp::create(ib, arith::CmpIPredicate::ule, s, t);
        Value zeroF = arith::ConstantOp::create(ib, ib.getF32FloatAttr(0.0));
        return arith::SelectOp::create(ib, causal, decay, zeroF).getResult();
      });

  // Intra-chunk block: ((Cc Bc^T) * L) X.
  Value G = lb.contract(Cc, lb.transpose(Bc), lb.filled({q, q}, f32, 0.0),
                        Lhs::RowMajor);
  Value M = lb.map({G, L}, {lb.dims(2, {0, 1}), lb.dims(2, {0, 1})},
                   lb.empty({q, q}, f32),
                   [](ImplicitLocOpBuilder &ib, ValueRange args) {
                     return arith::MulFOp::create(ib, args[0], args[1])
                         .getResult();
                   });
  // The output block accumulates in a local (cache-resident) buffer and is
  // written to y once: y is strided and usually far larger than the caches.
  Value Y = lb.contract(M, X, lb.filled({q, p}, f32, 0.0), Lhs::RowMajor);

  // Off-diagonal output: the state entering the chunk, decayed to each t.
  Value Cs = lb.map({Cc, cum}, {lb.dims(2, {0, 1}), lb.dims(2, {0})},
                    lb.empty({q, n}, f32),
                    [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                      Value d = LinalgBuilder(ib).expOfNonPositive(
                          arith::TruncFOp::create(ib, f32, args[1]));
                      return arith::MulFOp::create(ib, args[0], d).getResult();
                    });
  Y = lb.contract(Cs, st, Y, Lhs::RowMajor);

  // State passing: decay the state over the chunk and add each token's
  // contribution decayed to the chunk end.
  Value Bw = lb.map({Bc, cum}, {lb.dims(2, {0, 1}), lb.dims(2, {0})},
                    lb.empty({q, n}, f32),
                    [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                      Value seg = arith::TruncFOp::create(
                          ib, f32, arith::SubFOp::create(ib, cumLast, args[1]));
                      return arith::MulFOp::create(ib, args[0],
                                                   LinalgBuilder(ib).expOfNonPositive(seg))
                          .getResult();
                    });
  Value chunkDecay =
      lb.expOfNonPositive(arith::TruncFOp::create(b, f32, cumLast));
  // Updated in place (the state is a loop-carried buffer).
  Value decayed = lb.map({}, {}, st,
                         [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                           return arith::MulFOp::create(ib, args[0], chunkDecay)
                               .getResult();
                         });
  Value newSt = lb.contract(Bw, X, decayed, Lhs::Transposed);

  Value newY = lb.insert(Y, y, {hd.batch, t0, hd.head, zero}, {one, q, one, p});
  return {newY, newSt};
}

std::pair<Value, Value> SsdToLinalg::tokenStep(LinalgBuilder &lb,
                                               const SsdHead &hd, Value t,
                                               Value y, Value st) const {
  ImplicitLocOpBuilder &b = lb.builder();
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  OpFoldResult p = b.getIndexAttr(hd.P), n = b.getIndexAttr(hd.N);

  Value xt = lb.slice(hd.x, {hd.batch, t, hd.head, zero}, {one, one, one, p},
                      {hd.P});
  Value bt = lb.slice(hd.b, {hd.batch, t, hd.group, zero}, {one, one, one, n},
                      {hd.N});
  Value ct = lb.slice(hd.c, {hd.batch, t, hd.group, zero}, {one, one, one, n},
                      {hd.N});
  Value decay = lb.expOfNonPositive(tensor::ExtractOp::create(
      b, hd.logA, ValueRange{hd.batch, t, hd.head}));

  // St = exp(a_t) St + b_t x_t^T, in place.
  Value newSt = lb.map(
      {bt, xt}, {lb.dims(2, {0}), lb.dims(2, {1})}, st,
      [&](ImplicitLocOpBuilder &ib, ValueRange args) {
        Value outer = arith::MulFOp::create(ib, args[0], args[1]);
        Value kept = arith::MulFOp::create(ib, args[2], decay);
        return arith::AddFOp::create(ib, kept, outer).getResult();
      });

  // y_t[p] = sum_n c_t[n] St[n, p]
  Value acc = lb.fill(
      lb.slice(y, {hd.batch, t, hd.head, zero}, {one, one, one, p}, {hd.P}),
      0.0);
  auto yt = linalg::GenericOp::create(
      b, acc.getType(), ValueRange{ct, newSt}, ValueRange{acc},
      ArrayRef<AffineMap>{lb.dims(2, {1}), lb.dims(2, {1, 0}), lb.dims(2, {0})},
      ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                    utils::IteratorType::reduction},
      [](OpBuilder &nb, Location loc, ValueRange args) {
        Value prod = arith::MulFOp::create(nb, loc, args[0], args[1]);
        linalg::YieldOp::create(nb, loc,
                                arith::AddFOp::create(nb, loc, args[2], prod)
                                    .getResult());
      });
  Value newY = lb.insert(yt.getResult(0), y, {hd.batch, t, hd.head, zero},
                         {one, one, one, p});
  return {newY, newSt};
}

LogicalResult SsdToLinalg::matchAndRewrite(SsdOp op,
                                           PatternRewriter &rewriter) const {
  auto xType = cast<RankedTensorType>(op.getX().getType());
  auto bType = cast<RankedTensorType>(op.getB().getType());
  int64_t H = xType.getDimSize(2), P = xType.getDimSize(3);
  int64_t G = bType.getDimSize(2), N = bType.getDimSize(3);
  if (std::optional<std::string> blocker = getLinalgLoweringBlocker(op))
    return rewriter.notifyMatchFailure(op, *blocker);

  ImplicitLocOpBuilder b(op.getLoc(), rewriter);
  LinalgBuilder lb(b);
  Type f32 = b.getF32Type();
  int64_t Q = op.getChunkSize();
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  OpFoldResult p = b.getIndexAttr(P), n = b.getIndexAttr(N);

  Value c0 = arith::ConstantIndexOp::create(b, 0);
  Value batches = tensor::DimOp::create(b, op.getX(), 0);
  Value length = tensor::DimOp::create(b, op.getX(), 1);
  Value heads = arith::ConstantIndexOp::create(b, H);
  Value headsPerGroup = arith::ConstantIndexOp::create(b, H / G);

  // Full chunks use the chunked form; the tail, and whole sequences of at
  // most recurrentThreshold tokens, the recurrence.
  Value chunked = arith::CmpIOp::create(
      b, arith::CmpIPredicate::ugt, length,
      arith::ConstantIndexOp::create(b, recurrentThreshold));
  Value fullChunks = arith::SelectOp::create(
      b, chunked,
      arith::DivUIOp::create(b, length, arith::ConstantIndexOp::create(b, Q)),
      c0);
  Value tailStart =
      arith::MulIOp::create(b, fullChunks, arith::ConstantIndexOp::create(b, Q));

  auto headLoop = [&](OpBuilder &nb, Location loc, Value batch, Value head,
                      ValueRange outs) -> SmallVector<Value> {
    ImplicitLocOpBuilder ib(loc, nb);
    LinalgBuilder hb(ib);
    SsdHead hd{op.getX(), op.getLogA(), op.getB(), op.getC(), batch, head,
               arith::DivUIOp::create(ib, head, headsPerGroup), P, N};
    Value st = op.getInit()
                   ? hb.transpose(hb.slice(op.getInit(),
                                           {batch, head, zero, zero},
                                           {one, one, p, n}, {P, N}))
                   : hb.filled({n, p}, f32, 0.0);
    auto chunks = buildOutStateLoop(
        ib, c0, fullChunks, outs[0], st,
        [&](LinalgBuilder &clb, Value c, Value y, Value s) {
          ImplicitLocOpBuilder &cib = clb.builder();
          Value t0 = arith::MulIOp::create(
              cib, c, arith::ConstantIndexOp::create(cib, Q));
          return chunkStep(clb, hd, Q, t0, y, s);
        });
    auto tokens = buildOutStateLoop(
        ib, tailStart, length, chunks.getResult(0), chunks.getResult(1),
        [&](LinalgBuilder &tlb, Value t, Value y, Value s) {
          return tokenStep(tlb, hd, t, y, s);
        });
    Value finalState = hb.insert(hb.transpose(tokens.getResult(1)), outs[1],
                                 {batch, head, zero, zero}, {one, one, p, n});
    return {tokens.getResult(0), finalState};
  };

  rewriter.replaceOp(
      op, buildBatchHeadLoops(b, batches, heads, op.getOuts(), headLoop));
  return success();
}

void mlir::mixer::populateSsdToLinalgPatterns(RewritePatternSet &patterns,
                                              int64_t recurrentThreshold) {
  patterns.add<SsdToLinalg>(patterns.getContext(), recurrentThreshold);
}
