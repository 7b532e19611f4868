//===- SelectiveScanToLinalg.cpp - Mamba-1 selective scan in linalg -------===//
//
// Per (batch, block of Db channels inside one group), with the state kept
// transposed as hT [N, Db] so that every step is vectorized along the
// channels (contiguous in u, delta, z and y):
//
//   At = A[d0 : d0 + Db, :]^T                                   [N, Db]
//   for each block of T tokens (T full, then single tokens for the tail):
//     DT = softplus(delta + delta_bias)   (as requested)         [T, Db]
//     DU = DT * u                                                [T, Db]
//     for each token i of the block (b_i, c_i [N] of the group):
//       hT   = exp(At * DT[i]) * hT + b_i DU[i]^T                [N, Db]
//       Y[i] = c_i^T hT                  ([1, N] x [N, Db] contraction)
//     Y = (Y + D_skip * u) * silu(z)      (as given), written to y once
//
// The [B, L, D, N] states are never formed: one [N, Db] state per block.
//
//===----------------------------------------------------------------------===//

#include "ChunkedScanLowering.h"
#include "MixerToLinalgPatterns.h"
#include "SelectiveScanLowering.h"

#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Target/TargetDescription.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::mixer;

/// x / (1 + exp(-x)) with `timesX`, else 1 / (1 + exp(-x)): silu and
/// sigmoid share the denominator.
static Value overOnePlusExpNeg(ImplicitLocOpBuilder &b, Value x, bool timesX) {
  Value one = arith::ConstantOp::create(b, b.getF32FloatAttr(1.0));
  return arith::DivFOp::create(
      b, timesX ? x : one,
      arith::AddFOp::create(
          b, one, math::ExpOp::create(b, arith::NegFOp::create(b, x))));
}

Value mlir::mixer::buildSilu(ImplicitLocOpBuilder &b, Value x) {
  return overOnePlusExpNeg(b, x, /*timesX=*/true);
}

Value mlir::mixer::buildSigmoid(ImplicitLocOpBuilder &b, Value x) {
  return overOnePlusExpNeg(b, x, /*timesX=*/false);
}

void SelectiveScanHooks::startBlock(LinalgBuilder &lb) {
  ImplicitLocOpBuilder &ib = lb.builder();
  OpFoldResult zero = ib.getIndexAttr(0);
  OpFoldResult db = ib.getIndexAttr(Db), n = ib.getIndexAttr(N);
  d0 = arith::MulIOp::create(ib, head, arith::ConstantIndexOp::create(ib, Db));
  auto channels = [&](Value x) -> Value {
    return x ? lb.slice(x, {d0}, {db}, {Db}) : Value();
  };
  At = lb.transpose(lb.slice(ops.A, {d0, zero}, {db, n}, {Db, N}));
  bias = channels(ops.deltaBias);
  dSkip = channels(ops.dSkip);
  group = arith::DivUIOp::create(ib, d0,
                                 arith::ConstantIndexOp::create(ib, perGroup));
}

/// The state [Db, N] of the channel block, carried transposed as hT [N, Db].
StateSlice SelectiveScanHooks::stateSlice(OpBuilder &b) const {
  return {{batch, d0, b.getIndexAttr(0)}, Db, N, /*transposed=*/true};
}

Value SelectiveScanHooks::rows(LinalgBuilder &lb, Value x, int64_t T,
                               Value t0) const {
  OpBuilder &b = lb.builder();
  return lb.slice(x, {batch, t0, d0},
                  {b.getIndexAttr(1), b.getIndexAttr(T), b.getIndexAttr(Db)},
                  {T, Db});
}

Value SelectiveScanHooks::groupRows(LinalgBuilder &lb, Value x, int64_t T,
                                    Value t0) const {
  OpBuilder &b = lb.builder();
  OpFoldResult one = b.getIndexAttr(1);
  return lb.slice(x, {batch, t0, group, b.getIndexAttr(0)},
                  {one, b.getIndexAttr(T), one, b.getIndexAttr(N)}, {T, N});
}

Value SelectiveScanHooks::stepSizes(LinalgBuilder &lb, Value deltaRows) const {
  // Without bias and softplus dt is delta itself.
  if (!bias && !ops.softplus)
    return deltaRows;
  SmallVector<Value> in = {deltaRows};
  SmallVector<AffineMap> maps = {lb.dims(2, {0, 1})};
  if (bias) {
    in.push_back(bias);
    maps.push_back(lb.dims(2, {1}));
  }
  bool softplus = ops.softplus;
  Value b = bias;
  return lb.map(
      in, maps, lb.empty(lb.sizesOf(deltaRows), lb.builder().getF32Type()),
      [&](ImplicitLocOpBuilder &ib, ValueRange args) {
        Value x = args[0];
        if (b)
          x = arith::AddFOp::create(ib, x, args[1]);
        if (!softplus)
          return x;
        Value limit =
            arith::ConstantOp::create(ib, ib.getF32FloatAttr(kSoftplusLimit));
        Value big =
            arith::CmpFOp::create(ib, arith::CmpFPredicate::OGT, x, limit);
        Value soft = math::Log1pOp::create(
            ib, math::ExpOp::create(ib, arith::MinimumFOp::create(ib, x, limit)));
        return arith::SelectOp::create(ib, big, x, soft).getResult();
      });
}

Value SelectiveScanHooks::product(LinalgBuilder &lb, Value x, Value y) const {
  return lb.map({x, y}, {lb.dims(2, {0, 1}), lb.dims(2, {0, 1})},
                lb.empty(lb.sizesOf(x), lb.builder().getF32Type()),
                [](ImplicitLocOpBuilder &ib, ValueRange args) {
                  return arith::MulFOp::create(ib, args[0], args[1])
                      .getResult();
                });
}

/// exp(a dt): the decay of one state element over one token.
static Value decayOf(ImplicitLocOpBuilder &b, Value a, Value dt) {
  return math::ExpOp::create(b, arith::MulFOp::create(b, a, dt));
}

/// decay h + b du: one state element after one token.
static Value updatedState(ImplicitLocOpBuilder &b, Value decay, Value h,
                          Value du, Value bi) {
  return arith::AddFOp::create(b, arith::MulFOp::create(b, decay, h),
                               arith::MulFOp::create(b, du, bi));
}

Value SelectiveScanHooks::advance(LinalgBuilder &lb, Value hT, Value dt,
                                  Value du, Value bi) const {
  // hT[n, d] = exp(dt[d] A[d, n]) hT[n, d] + b[n] dt[d] u[d], in place.
  return lb.map({At, dt, du, bi},
                {lb.dims(2, {0, 1}), lb.dims(2, {1}), lb.dims(2, {1}),
                 lb.dims(2, {0})},
                hT, [](ImplicitLocOpBuilder &hb, ValueRange args) {
                  return updatedState(hb, decayOf(hb, args[0], args[1]),
                                      args[4], args[2], args[3]);
                });
}

Value SelectiveScanHooks::decays(LinalgBuilder &lb, Value dt,
                                 Value dest) const {
  return lb.map({At, dt}, {lb.dims(2, {0, 1}), lb.dims(2, {1})}, dest,
                [](ImplicitLocOpBuilder &hb, ValueRange args) {
                  return decayOf(hb, args[0], args[1]);
                });
}

Value SelectiveScanHooks::advanceDecayed(LinalgBuilder &lb, Value hT,
                                         Value decay, Value du,
                                         Value bi) const {
  return lb.map({decay, du, bi},
                {lb.dims(2, {0, 1}), lb.dims(2, {1}), lb.dims(2, {0})}, hT,
                [](ImplicitLocOpBuilder &hb, ValueRange args) {
                  return updatedState(hb, args[0], args[3], args[1], args[2]);
                });
}

void SelectiveScanHooks::tokenBlock(LinalgBuilder &lb, int64_t T, Value t0,
                                    ScanCarry &carry) {
  Value hT = carry.states[0];
  ImplicitLocOpBuilder &b = lb.builder();
  Type f32 = b.getF32Type();
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  OpFoldResult t = b.getIndexAttr(T), db = b.getIndexAttr(Db),
               n = b.getIndexAttr(N);
  // The passes that first read the block's rows of delta and u (and z) also
  // fetch the next block's: a channel block's rows lie D floats apart, a
  // stride that the hardware prefetchers do not follow across pages.
  Value U = rows(lb, ops.u, T, t0);
  Value deltaRows = rows(lb, ops.delta, T, t0);
  Value DT = stepSizes(lb, deltaRows);
  if (DT != deltaRows)
    LinalgBuilder::prefetchingRowsAhead(DT, T);
  Value DU = LinalgBuilder::prefetchingRowsAhead(product(lb, DT, U), T);
  Value Bc = groupRows(lb, ops.b, T, t0);
  Value Cc = withOutput ? groupRows(lb, ops.c, T, t0) : Value();

  // The output block accumulates locally and is written to y once.
  SmallVector<Value> carried;
  if (withOutput)
    carried.push_back(lb.filled({t, db}, f32, 0.0));
  carried.push_back(hT);
  Value c0 = arith::ConstantIndexOp::create(b, 0);
  Value c1 = arith::ConstantIndexOp::create(b, 1);
  Value cT = arith::ConstantIndexOp::create(b, T);
  SmallVector<Value> tokens = lb.loop(
      c0, cT, c1, carried,
      [&](LinalgBuilder &ilb, Value i, ValueRange acc) -> SmallVector<Value> {
        Value dt = ilb.slice(DT, {i, zero}, {one, db}, {Db});
        Value du = ilb.slice(DU, {i, zero}, {one, db}, {Db});
        Value bi = ilb.slice(Bc, {i, zero}, {one, n}, {N});
        if (!withOutput) {
          return {advance(ilb, acc[0], dt, du, bi)};
        }
        Value ci = ilb.slice(Cc, {i, zero}, {one, n}, {1, N});
        Value h = advance(ilb, acc[1], dt, du, bi);
        // Y[i, :] = c_i^T hT.
        Value row = ilb.slice(acc[0], {i, zero}, {one, db}, {1, Db});
        row = ilb.contract(ci, h, row, Lhs::RowMajor);
        Value nextY = ilb.insert(row, acc[0], {i, zero}, {one, db});
        return {nextY, h};
      });
  carry.states[0] = tokens.back();
  if (!withOutput)
    return;
  Value Y = tokens[0];

  // y = (y + D_skip u) * silu(z), in place.
  if (dSkip || ops.z) {
    SmallVector<Value> in = {U};
    SmallVector<AffineMap> maps = {lb.dims(2, {0, 1})};
    if (dSkip) {
      in.push_back(dSkip);
      maps.push_back(lb.dims(2, {1}));
    }
    bool gated = static_cast<bool>(ops.z);
    if (gated) {
      in.push_back(rows(lb, ops.z, T, t0));
      maps.push_back(lb.dims(2, {0, 1}));
    }
    Value skip = dSkip;
    Y = lb.map(in, maps, Y, [&](ImplicitLocOpBuilder &ib, ValueRange args) {
      Value out = args.back();
      unsigned next = 1;
      if (skip)
        out = arith::AddFOp::create(
            ib, out, arith::MulFOp::create(ib, args[next++], args[0]));
      if (gated)
        out = arith::MulFOp::create(ib, out, buildSilu(ib, args[next]));
      return out;
    });
    if (gated)
      LinalgBuilder::prefetchingRowsAhead(Y, T);
  }
  carry.outs[0] = lb.insert(Y, carry.outs[0], {batch, t0, d0}, {one, t, db});
}

namespace {

/// mixer.selective_scan through the driver: every sequence is scanned in
/// chunks of the target's time block (no recurrent threshold).
class SelectiveScan final : public SelectiveScanHooks {
public:
  using Op = SelectiveScanOp;
  static FailureOr<SelectiveScan> match(SelectiveScanOp op, PatternRewriter &);
  void configure(ImplicitLocOpBuilder &b, ChunkedScanSpec &spec) {
    spec.heads = arith::ConstantIndexOp::create(b, numBlocks());
    spec.chunkSize = T;
    spec.recurrentThreshold = std::nullopt;
  }

private:
  using SelectiveScanHooks::SelectiveScanHooks;
};

} // namespace

FailureOr<SelectiveScan> SelectiveScan::match(SelectiveScanOp op,
                                              PatternRewriter &) {
  int64_t D = dimSize(op.getU(), 2);
  int64_t G = dimSize(op.getB(), 2), N = dimSize(op.getB(), 3);
  const TargetDescription &target = lookupTargetDescription(op);
  SelectiveScanOperands ops{op.getU(),     op.getDelta(), op.getA(),
                            op.getB(),     op.getC(),     op.getDSkip(),
                            op.getZ(),     op.getDeltaBias(), op.getInit(),
                            op.getDeltaSoftplus()};
  return SelectiveScan(ops, D, G, N, target.scanTimeBlock,
                       target.selectiveScanChannelBlock(D / G),
                       /*withOutput=*/true);
}

void mlir::mixer::populateSelectiveScanToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ChunkedScanLowering<SelectiveScan>>(patterns.getContext(),
                                                   std::nullopt);
}
