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

#include "ChunkedScanLowering.h"
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

namespace {

/// The math of mixer.ssd for the chunked-scan driver.
class SsdScan final : public ChunkedScanHooks {
public:
  using Op = SsdOp;
  static FailureOr<SsdScan> match(SsdOp op, PatternRewriter &rewriter);
  void configure(ImplicitLocOpBuilder &b, ChunkedScanSpec &spec);

  void init(LinalgBuilder &lb, ScanCarry &carry) override;
  void chunkStep(LinalgBuilder &lb, unsigned, Value t0,
                 ScanCarry &carry) override;
  void tokenStep(LinalgBuilder &lb, unsigned, Value t,
                 ScanCarry &carry) override;
  void finalize(LinalgBuilder &lb, ArrayRef<Value> states,
                MutableArrayRef<Value> outs) override;

private:
  SsdScan(SsdOp op, int64_t H, int64_t P, int64_t G, int64_t N)
      : op(op), x(op.getX()), logA(op.getLogA()), bIn(op.getB()),
        cIn(op.getC()), H(H), P(P), N(N), headsPerGroup(H / G),
        Q(op.getChunkSize()) {}

  SsdOp op;
  Value x, logA, bIn, cIn; // the op's inputs
  int64_t H, P, N, headsPerGroup, Q;
  StateSlice stateSlice(OpBuilder &b) const;

  Value group; // of the current head
};

} // namespace

FailureOr<SsdScan> SsdScan::match(SsdOp op, PatternRewriter &rewriter) {
  int64_t H = dimSize(op.getX(), 2), P = dimSize(op.getX(), 3);
  int64_t G = dimSize(op.getB(), 2), N = dimSize(op.getB(), 3);
  return SsdScan(op, H, P, G, N);
}

void SsdScan::configure(ImplicitLocOpBuilder &b, ChunkedScanSpec &spec) {
  spec.heads = arith::ConstantIndexOp::create(b, H);
  spec.chunkSize = Q;
}

void SsdScan::init(LinalgBuilder &lb, ScanCarry &carry) {
  ImplicitLocOpBuilder &ib = lb.builder();
  group = arith::DivUIOp::create(
      ib, head, arith::ConstantIndexOp::create(ib, headsPerGroup));
  carry.states.push_back(initialState(lb, op.getInit(), stateSlice(ib)));
}

void SsdScan::finalize(LinalgBuilder &lb, ArrayRef<Value> states,
                       MutableArrayRef<Value> outs) {
  outs[1] = insertFinalState(lb, states[0], outs[1], stateSlice(lb.builder()));
}

/// The state of the head, [P, N], carried transposed as St [N, P].
StateSlice SsdScan::stateSlice(OpBuilder &b) const {
  OpFoldResult zero = b.getIndexAttr(0);
  return {{batch, head, zero, zero}, P, N, /*transposed=*/true};
}

void SsdScan::chunkStep(LinalgBuilder &lb, unsigned, Value t0,
                        ScanCarry &carry) {
  Value y = carry.outs[0], st = carry.states[0];
  ImplicitLocOpBuilder &b = lb.builder();
  Type f32 = b.getF32Type();
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  OpFoldResult q = b.getIndexAttr(Q), p = b.getIndexAttr(P),
               n = b.getIndexAttr(N);

  // Packed into a local buffer: three contractions read it, and its rows
  // are strided across the (usually uncached) time-major input.
  Value X = lb.copyToNew(
      lb.slice(x, {batch, t0, head, zero}, {one, q, one, p}, {Q, P}));
  Value A = lb.slice(logA, {batch, t0, head}, {one, q, one}, {Q});
  Value Bc = lb.slice(bIn, {batch, t0, group, zero}, {one, q, one, n}, {Q, N});
  Value Cc = lb.slice(cIn, {batch, t0, group, zero}, {one, q, one, n}, {Q, N});

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
        Value t = linalg::IndexOp::create(ib, 0),
              s = linalg::IndexOp::create(ib, 1);
        Value causal =
            arith::CmpIOp::create(ib, arith::CmpIPredicate::ule, s, t);
        Value zeroF = arith::ConstantOp::create(ib, ib.getF32FloatAttr(0.0));
        return arith::SelectOp::create(ib, causal, decay, zeroF).getResult();
      });

  // Intra-chunk block: ((Cc Bc^T) * L) X.
  Value G = lb.contract(Cc, lb.transpose(Bc), lb.filled({q, q}, f32, 0.0),
                        Lhs::RowMajor);
  Value M = lb.map(
      {G, L}, {lb.dims(2, {0, 1}), lb.dims(2, {0, 1})}, lb.empty({q, q}, f32),
      [](ImplicitLocOpBuilder &ib, ValueRange args) {
        return arith::MulFOp::create(ib, args[0], args[1]).getResult();
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
  Value Bw = lb.map(
      {Bc, cum}, {lb.dims(2, {0, 1}), lb.dims(2, {0})}, lb.empty({q, n}, f32),
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
  Value decayed =
      lb.map({}, {}, st, [&](ImplicitLocOpBuilder &ib, ValueRange args) {
        return arith::MulFOp::create(ib, args[0], chunkDecay).getResult();
      });
  Value newSt = lb.contract(Bw, X, decayed, Lhs::Transposed);

  carry.outs[0] = lb.insert(Y, y, {batch, t0, head, zero}, {one, q, one, p});
  carry.states[0] = newSt;
}

void SsdScan::tokenStep(LinalgBuilder &lb, unsigned, Value t,
                        ScanCarry &carry) {
  Value y = carry.outs[0], st = carry.states[0];
  ImplicitLocOpBuilder &b = lb.builder();
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  OpFoldResult p = b.getIndexAttr(P), n = b.getIndexAttr(N);

  Value xt = lb.slice(x, {batch, t, head, zero}, {one, one, one, p}, {P});
  Value bt = lb.slice(bIn, {batch, t, group, zero}, {one, one, one, n}, {N});
  Value ct = lb.slice(cIn, {batch, t, group, zero}, {one, one, one, n}, {N});
  Value decay = lb.expOfNonPositive(
      tensor::ExtractOp::create(b, logA, ValueRange{batch, t, head}));

  // St = exp(a_t) St + b_t x_t^T, in place.
  Value newSt =
      lb.map({bt, xt}, {lb.dims(2, {0}), lb.dims(2, {1})}, st,
             [&](ImplicitLocOpBuilder &ib, ValueRange args) {
               Value outer = arith::MulFOp::create(ib, args[0], args[1]);
               Value kept = arith::MulFOp::create(ib, args[2], decay);
               return arith::AddFOp::create(ib, kept, outer).getResult();
             });

  // y_t[p] = sum_n c_t[n] St[n, p]
  Value acc = lb.fill(
      lb.slice(y, {batch, t, head, zero}, {one, one, one, p}, {P}), 0.0);
  auto yt = linalg::GenericOp::create(
      b, acc.getType(), ValueRange{ct, newSt}, ValueRange{acc},
      ArrayRef<AffineMap>{lb.dims(2, {1}), lb.dims(2, {1, 0}), lb.dims(2, {0})},
      ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                    utils::IteratorType::reduction},
      [](OpBuilder &nb, Location loc, ValueRange args) {
        Value prod = arith::MulFOp::create(nb, loc, args[0], args[1]);
        linalg::YieldOp::create(
            nb, loc, arith::AddFOp::create(nb, loc, args[2], prod).getResult());
      });
  carry.outs[0] =
      lb.insert(yt.getResult(0), y, {batch, t, head, zero}, {one, one, one, p});
  carry.states[0] = newSt;
}

void mlir::mixer::populateSsdToLinalgPatterns(RewritePatternSet &patterns,
                                              int64_t recurrentThreshold) {
  patterns.add<ChunkedScanLowering<SsdScan>>(patterns.getContext(),
                                             recurrentThreshold);
}
