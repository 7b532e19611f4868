//===- SsdBackwardToLinalg.cpp - ssd_backward as a chunked reverse scan ---===//
//
// Two passes of the chunked-scan driver per (batch, head), states carried
// transposed ([N, P]) as in the forward (SsdLowering.h):
//
//   1. Unless the op has them, the chunk-boundary states: the forward's
//      state passing without its output, recording St before every chunk.
//   2. The reverse scan carrying dSt, the cotangent of the state. Per chunk
//      of Q tokens (the tail, L not a multiple of Q, as one chunk padded
//      with zero inputs and zero log-decays, which leave the state alone),
//      from S0 (the state before the chunk, [P, N]) and dS (after it),
//      with the forward's decays (cum, L) and scores M = (C B^T) * L, and
//      w_t = exp(cum_last - cum_t):
//
//        Y  = M X + diag(exp(cum)) C S0^T         (the forward, for reference)
//        dM = dY X^T,   dG = dM * L,   dYs = diag(exp(cum)) dY
//        dX = M^T dY + diag(w) B dS^T
//        dC = dG B + dYs S0                        (this head's share)
//        dB = dG^T C + diag(w) X dS                (this head's share)
//        dS_start = exp(cum_last) dS + dYs^T C
//        dlog_a_k = <D_k, a_k S_{k-1}>
//                 = exp(cum_last) <dS, S0> + sum_{t>=k} o_t
//                   + sum_{j<k} (r_j + e_j),
//          R = dM * M,  r_j = sum_{t>j} R[t, j] - sum_{s<j} R[j, s],
//          o_t = <(dYs S0)_t, c_t>,  e_t = <(diag(w) X dS)_t, b_t>
//
//      Every term of dlog_a carries the decay across token k (R without its
//      diagonal), so strong decays that make dlog_a small leave no
//      cancellation of larger terms; the sums over the chunk run in f64.
//      db and dc sum the shares of the heads of a group.
//
// Every contraction is a linalg matmul-shaped generic (LinalgBuilder), as
// in the forward. Memory beyond operands and results: the chunk states
// [B, H, L/Q + 1, N, P] (when recomputed) and per chunk [Q, Q] and [Q, P]
// temporaries.
//
//===----------------------------------------------------------------------===//

#include "ChunkedScanLowering.h"
#include "GradientSums.h"
#include "MixerToLinalgPatterns.h"
#include "SsdLowering.h"

#include "mixer/Target/TargetDescription.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
using namespace mlir::mixer;

namespace {

/// Pass 2: the reverse scan. outs: dx, dlog_a, db, dc (stepped), dinit.
class SsdBackwardScan final : public OneStateScanHooks {
public:
  SsdBackwardScan(SsdBackwardOp op, const SsdInputs &in, Value states,
                  int64_t lanes)
      : OneStateScanHooks(op.getDFinalState(), /*finalStateOut=*/4), in(in),
        dy(op.getDy()), states(states), lanes(lanes) {}

  StateSlice stateSlice(OpBuilder &b) const override {
    return in.stateOf(b, batch, head);
  }
  void chunkStep(LinalgBuilder &lb, unsigned, Value t0,
                 ScanCarry &carry) override {
    backwardBlock(lb, t0, Value(), carry);
  }
  void tailChunkStep(LinalgBuilder &lb, unsigned, Value t0, Value count,
                     ScanCarry &carry) override {
    backwardBlock(lb, t0, count, carry);
  }
  void tokenStep(LinalgBuilder &, unsigned, Value, ScanCarry &) override {
    llvm_unreachable("the tail runs as a padded chunk");
  }

private:
  void startHead(LinalgBuilder &lb) override {
    group = in.groupOf(lb.builder(), head);
  }
  /// St [N, P] before token row * Q.
  Value boundaryState(LinalgBuilder &lb, Value row) const {
    return boundaryStateAt(lb, states, batch, head, row, in.N, in.P);
  }
  /// The rows [t0, t0 + Q) of a [B, L, *, D] operand at `index`, or only
  /// `count` of them padded with zeros to Q; [Q] for a [B, L, H] operand.
  Value rows(LinalgBuilder &lb, Value v, Value t0, Value count,
             Value index) const;
  /// dest[t0 + i, index, ...] (+)= block[i, ...] for the Q rows of `block`,
  /// or its first `count`: adds this head's share of a group's gradient
  /// when `accumulate`.
  Value put(LinalgBuilder &lb, Value block, Value dest, Value t0, Value count,
            Value index, bool accumulate) const;
  void backwardBlock(LinalgBuilder &lb, Value t0, Value count,
                     ScanCarry &carry);

  SsdInputs in;
  Value dy, states;
  /// f32 lanes of the target's vectors: the sums over a row take partial
  /// sums a vector at a time (sumOverLastDim).
  int64_t lanes;
  Value group; // of the current head
};

} // namespace

Value SsdBackwardScan::rows(LinalgBuilder &lb, Value v, Value t0, Value count,
                            Value index) const {
  ImplicitLocOpBuilder &b = lb.builder();
  auto type = cast<RankedTensorType>(v.getType());
  bool perToken = type.getRank() == 3; // [B, L, H]
  int64_t D = perToken ? 0 : type.getDimSize(3);
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  OpFoldResult n = count ? OpFoldResult(count) : b.getIndexAttr(in.Q);
  int64_t rowsShape = count ? ShapedType::kDynamic : in.Q;
  SmallVector<OpFoldResult> offsets = {batch, t0, index};
  SmallVector<OpFoldResult> sizes = {one, n, one};
  SmallVector<int64_t> shape = {rowsShape}, full = {in.Q};
  if (!perToken) {
    offsets.push_back(zero);
    sizes.push_back(b.getIndexAttr(D));
    shape.push_back(D);
    full.push_back(D);
  }
  Value slice = lb.slice(v, offsets, sizes, shape);
  auto fullType = RankedTensorType::get(full, type.getElementType());
  if (count) {
    Value zeroF = arith::ConstantOp::create(b, b.getF32FloatAttr(0.0));
    return tensor::createPadHighOp(fullType, slice, zeroF, /*nofold=*/false,
                                   b.getLoc(), b);
  }
  // Packed: the contractions read its rows, strided in the operand.
  return perToken ? slice : lb.copyToNew(slice);
}

Value SsdBackwardScan::put(LinalgBuilder &lb, Value block, Value dest, Value t0,
                           Value count, Value index, bool accumulate) const {
  ImplicitLocOpBuilder &b = lb.builder();
  auto type = cast<RankedTensorType>(block.getType());
  bool perToken = type.getRank() == 1;
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  OpFoldResult n = count ? OpFoldResult(count) : b.getIndexAttr(in.Q);
  SmallVector<int64_t> shape = {count ? ShapedType::kDynamic : in.Q};
  SmallVector<OpFoldResult> offsets = {batch, t0, index};
  SmallVector<OpFoldResult> sizes = {one, n, one};
  SmallVector<OpFoldResult> blockOffsets = {zero}, blockSizes = {n};
  if (!perToken) {
    int64_t D = type.getDimSize(1);
    offsets.push_back(zero);
    sizes.push_back(b.getIndexAttr(D));
    shape.push_back(D);
    blockOffsets.push_back(zero);
    blockSizes.push_back(b.getIndexAttr(D));
  }
  if (count)
    block = lb.slice(block, blockOffsets, blockSizes, shape);
  if (accumulate) {
    AffineMap id = lb.dims(shape.size(), perToken ? ArrayRef<unsigned>{0}
                                                  : ArrayRef<unsigned>{0, 1});
    block =
        lb.map({block}, {id}, lb.slice(dest, offsets, sizes, shape),
               [](ImplicitLocOpBuilder &ib, ValueRange args) {
                 return arith::AddFOp::create(ib, args[1], args[0]).getResult();
               });
  }
  return lb.insert(block, dest, offsets, sizes);
}

void SsdBackwardScan::backwardBlock(LinalgBuilder &lb, Value t0, Value count,
                                    ScanCarry &carry) {
  ImplicitLocOpBuilder &b = lb.builder();
  Type f32 = b.getF32Type(), f64 = b.getF64Type();
  int64_t P = in.P, N = in.N;
  OpFoldResult q = b.getIndexAttr(in.Q), p = b.getIndexAttr(P);
  Value dSt = carry.states[0];
  // The state before the chunk: row t0 / Q of the chunk states.
  Value s0t = boundaryState(
      lb,
      arith::DivUIOp::create(b, t0, arith::ConstantIndexOp::create(b, in.Q)));

  Value X = rows(lb, in.x, t0, count, head);
  Value A = rows(lb, in.logA, t0, count, head);
  Value Bc = rows(lb, in.b, t0, count, group);
  Value Cc = rows(lb, in.c, t0, count, group);
  Value dY = dy ? rows(lb, dy, t0, count, head) : lb.filled({q, p}, f32, 0.0);

  // The forward's decays and scores of the chunk, M = (Cc Bc^T) * L.
  SsdChunkDecays decays = SsdChunkDecays::of(lb, A);
  Value M = decays.decayedScores(lb, ssdChunkGram(lb, Cc, Bc));
  Value S0 = lb.transpose(s0t); // [P, N]
  Value dS = lb.transpose(dSt); // [P, N]

  // dM = dY X^T; dG = dM * L; R = dM * M.
  Value dM = lb.contract(dY, lb.transpose(X), lb.filled({q, q}, f32, 0.0),
                         Lhs::RowMajor);
  AffineMap id2 = lb.dims(2, {0, 1});
  Value dG = decays.decayedScores(lb, dM);
  // R without its diagonal (and zero above it, as M): every term of r.
  Value R = lb.map({dM, M}, {id2, id2}, lb.empty({q, q}, f32),
                   [](ImplicitLocOpBuilder &ib, ValueRange args) {
                     Value t = linalg::IndexOp::create(ib, 0),
                           s = linalg::IndexOp::create(ib, 1);
                     Value below = arith::CmpIOp::create(
                         ib, arith::CmpIPredicate::ugt, t, s);
                     Value zeroF = arith::ConstantOp::create(
                         ib, ib.getF32FloatAttr(0.0));
                     return arith::SelectOp::create(
                                ib, below,
                                arith::MulFOp::create(ib, args[0], args[1]),
                                zeroF)
                         .getResult();
                   });

  // dX = M^T dY + diag(w) B dS^T.
  Value dX = lb.contract(M, dY, lb.filled({q, p}, f32, 0.0), Lhs::Transposed);
  dX = lb.contract(decays.toEnd(lb, Bc), dSt, dX, Lhs::RowMajor);

  // dC: the state entering the chunk (dYs S0), then the intra-chunk part.
  Value dYs = decays.fromStart(lb, dY);
  Value dC = lb.contract(dYs, S0, lb.filled({q, b.getIndexAttr(N)}, f32, 0.0),
                         Lhs::RowMajor);
  Value o = sumOfProductsOverLastDim(lb, dC, Cc, lb.filled({q}, f32, 0.0),
                                     lanes);
  dC = lb.contract(dG, Bc, dC, Lhs::RowMajor);

  // dB: the state leaving the chunk (diag(w) X dS), then the intra-chunk
  // part.
  Value dB =
      lb.contract(decays.toEnd(lb, X), dS,
                  lb.filled({q, b.getIndexAttr(N)}, f32, 0.0), Lhs::RowMajor);
  Value e = sumOfProductsOverLastDim(lb, dB, Bc, lb.filled({q}, f32, 0.0),
                                     lanes);
  dB = lb.contract(dG, Cc, dB, Lhs::Transposed);

  // r_j = sum_{t>j} R[t, j] - sum_{s<j} R[j, s]: the column sums (rows
  // added a vector at a time) less the row sums; then v = r + e - o.
  Value below = sumOf(lb, R, id2, lb.filled({q}, f32, 0.0), lb.dims(2, {1}),
                      {0});
  Value left = sumOverLastDim(lb, R, lb.filled({q}, f32, 0.0), lanes);
  AffineMap j1 = lb.dims(1, {0});
  Value v = lb.map({below, left, e, o}, {j1, j1, j1, j1}, lb.empty({q}, f32),
                   [](ImplicitLocOpBuilder &ib, ValueRange args) {
                     Value r = arith::SubFOp::create(ib, args[0], args[1]);
                     return arith::SubFOp::create(
                                ib, arith::AddFOp::create(ib, r, args[2]),
                                args[3])
                         .getResult();
                   });

  // dlog_a_k = exp(cum_last) <dS, S0> + sum_t o_t + sum_{j<k} v_j, in f64.
  auto flat = [&](Value state) {
    return tensor::CollapseShapeOp::create(
        b, RankedTensorType::get({N * P}, f32), state,
        SmallVector<ReassociationIndices>{{0, 1}});
  };
  Value stateDot = sumOfProductsOverLastDim(
      lb, flat(dSt), flat(s0t), lb.filled({}, f32, 0.0), lanes);
  Value chunkDecay = lb.decayOfSum(decays.cumLast);
  Value leaving = arith::MulFOp::create(
      b, chunkDecay, tensor::ExtractOp::create(b, stateDot, ValueRange{}));
  Value base = arith::AddFOp::create(b, arith::ExtFOp::create(b, f64, leaving),
                                     lb.prefixSumF64(o).first);
  Value vSums = lb.prefixSumF64(v).second;
  Value dLogA =
      lb.map({vSums, v}, {j1, j1}, lb.empty({q}, f32),
             [&](ImplicitLocOpBuilder &ib, ValueRange args) {
               // The inclusive sum less v_k: the sum over j < k.
               Value before = arith::SubFOp::create(
                   ib, args[0], arith::ExtFOp::create(ib, f64, args[1]));
               Value sum = arith::AddFOp::create(ib, base, before);
               return arith::TruncFOp::create(ib, f32, sum).getResult();
             });

  // dS_start = exp(cum_last) dS + dYs^T C (in place).
  carry.states[0] =
      lb.contract(Cc, dYs, decays.overChunk(lb, dSt), Lhs::Transposed);

  bool shared = in.headsPerGroup() > 1;
  carry.outs[0] = put(lb, dX, carry.outs[0], t0, count, head, false);
  carry.outs[1] = put(lb, dLogA, carry.outs[1], t0, count, head, false);
  carry.outs[2] = put(lb, dB, carry.outs[2], t0, count, group, shared);
  carry.outs[3] = put(lb, dC, carry.outs[3], t0, count, group, shared);
}

static SmallVector<Value> lowerSsdBackward(SsdBackwardOp op,
                                           ImplicitLocOpBuilder &b) {
  SsdInputs in = SsdInputs::of(op.getX(), op.getLogA(), op.getB(), op.getC(),
                               op.getInit(), op.getChunkSize());
  LinalgBuilder lb(b);
  ChunkedScanSpec spec = backwardScanSpec(b, op.getX(), in.H, in.Q);

  Value states = op.getChunkStates();
  if (!states) {
    SsdScan forward(in, /*withOutput=*/false);
    states = forwardBoundaryStates(b, spec, forward, {in.N, in.P});
  }

  // The heads of a group add their shares of db and dc.
  SmallVector<Value> outs(op.getOuts());
  if (in.headsPerGroup() > 1) {
    outs[2] = lb.fill(outs[2], 0.0);
    outs[3] = lb.fill(outs[3], 0.0);
  }
  SsdBackwardScan backward(op, in, states,
                           lookupTargetDescription(op).vectorWidth);
  spec.reverse = true;
  spec.paddedTail = true;
  spec.steppedOuts = 4;
  return buildChunkedScan(b, spec, outs, backward);
}

void mlir::mixer::populateSsdBackwardToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add(replaceUnlessBlocked<lowerSsdBackward>);
}
