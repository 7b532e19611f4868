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
#include "mixer/Utils/ChunkedScan.h"
#include "mixer/Utils/LinalgBuilder.h"

#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Target/TargetDescription.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::mixer;

namespace {

/// The math of mixer.selective_scan for the chunked-scan driver: the
/// "heads" are the channel blocks, the "chunks" blocks of T tokens, and
/// every sequence is scanned in chunks (no recurrent threshold).
class SelectiveScan final : public ChunkedScanHooks {
public:
  using Op = SelectiveScanOp;
  static FailureOr<SelectiveScan> match(SelectiveScanOp op,
                                        PatternRewriter &rewriter);
  void configure(ImplicitLocOpBuilder &b, ChunkedScanSpec &spec);

  /// Tokens per chunk (the target's scan time block): the dt and output
  /// maps are vectorized over [T, Db].
  int64_t T;

  void init(LinalgBuilder &lb, ScanCarry &carry) override;
  void chunkStep(LinalgBuilder &lb, unsigned, Value t0,
                 ScanCarry &carry) override {
    tokenBlock(lb, T, t0, carry);
  }
  void tokenStep(LinalgBuilder &lb, unsigned, Value t,
                 ScanCarry &carry) override {
    tokenBlock(lb, 1, t, carry);
  }
  void finalize(LinalgBuilder &lb, ArrayRef<Value> states,
                MutableArrayRef<Value> outs) override;

private:
  SelectiveScan(SelectiveScanOp op, int64_t D, int64_t G, int64_t N,
                const TargetDescription &target)
      : T(target.scanTimeBlock), op(op), u(op.getU()), delta(op.getDelta()),
        bIn(op.getB()), cIn(op.getC()), z(op.getZ()), D(D), N(N),
        perGroup(D / G), Db(target.selectiveScanChannelBlock(perGroup)),
        softplus(op.getDeltaSoftplus()) {}

  StateSlice stateSlice(OpBuilder &b) const;
  /// The tokens t0 .. t0 + T - 1 of the channel block.
  void tokenBlock(LinalgBuilder &lb, int64_t T, Value t0, ScanCarry &carry);

  SelectiveScanOp op;
  Value u, delta, bIn, cIn, z; // the op's [B, L, ...] operands (z optional)
  int64_t D, N, perGroup, Db;
  bool softplus;
  // Of the current channel block (`head`):
  Value At;          // [N, Db]
  Value bias, dSkip; // [Db] slices, null when absent
  Value d0, group;
};

} // namespace

FailureOr<SelectiveScan> SelectiveScan::match(SelectiveScanOp op,
                                              PatternRewriter &rewriter) {
  int64_t D = dimSize(op.getU(), 2);
  int64_t G = dimSize(op.getB(), 2), N = dimSize(op.getB(), 3);
  return SelectiveScan(op, D, G, N, lookupTargetDescription(op));
}

void SelectiveScan::configure(ImplicitLocOpBuilder &b, ChunkedScanSpec &spec) {
  spec.heads = arith::ConstantIndexOp::create(b, D / Db);
  spec.chunkSize = T;
  spec.recurrentThreshold = std::nullopt;
}

void SelectiveScan::init(LinalgBuilder &lb, ScanCarry &carry) {
  ImplicitLocOpBuilder &ib = lb.builder();
  OpFoldResult zero = ib.getIndexAttr(0);
  OpFoldResult db = ib.getIndexAttr(Db), n = ib.getIndexAttr(N);
  d0 = arith::MulIOp::create(ib, head, arith::ConstantIndexOp::create(ib, Db));
  auto channels = [&](Value x) -> Value {
    return x ? lb.slice(x, {d0}, {db}, {Db}) : Value();
  };
  At = lb.transpose(lb.slice(op.getA(), {d0, zero}, {db, n}, {Db, N}));
  bias = channels(op.getDeltaBias());
  dSkip = channels(op.getDSkip());
  group = arith::DivUIOp::create(ib, d0,
                                 arith::ConstantIndexOp::create(ib, perGroup));
  carry.states.push_back(initialState(lb, op.getInit(), stateSlice(ib)));
}

void SelectiveScan::finalize(LinalgBuilder &lb, ArrayRef<Value> states,
                             MutableArrayRef<Value> outs) {
  outs[1] = insertFinalState(lb, states[0], outs[1], stateSlice(lb.builder()));
}

/// The state [Db, N] of the channel block, carried transposed as hT [N, Db].
StateSlice SelectiveScan::stateSlice(OpBuilder &b) const {
  return {{batch, d0, b.getIndexAttr(0)}, Db, N, /*transposed=*/true};
}

void SelectiveScan::tokenBlock(LinalgBuilder &lb, int64_t T, Value t0,
                               ScanCarry &carry) {
  Value y = carry.outs[0], hT = carry.states[0];
  ImplicitLocOpBuilder &b = lb.builder();
  Type f32 = b.getF32Type();
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  OpFoldResult t = b.getIndexAttr(T), db = b.getIndexAttr(Db),
               n = b.getIndexAttr(N);
  auto rows = [&](Value x) {
    return lb.slice(x, {batch, t0, d0}, {one, t, db}, {T, Db});
  };
  Value U = rows(u);

  // dt = softplus(delta + delta_bias), dt * u.
  SmallVector<Value> dtIn = {rows(delta)};
  SmallVector<AffineMap> dtMaps = {lb.dims(2, {0, 1})};
  if (bias) {
    dtIn.push_back(bias);
    dtMaps.push_back(lb.dims(2, {1}));
  }
  // Without bias and softplus dt is delta itself.
  Value DT =
      (!bias && !softplus)
          ? dtIn[0]
          : lb.map(
                dtIn, dtMaps, lb.empty({t, db}, f32),
                [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                  Value x = args[0];
                  if (bias)
                    x = arith::AddFOp::create(ib, x, args[1]);
                  if (!softplus)
                    return x;
                  // log1p(exp(x)), and x itself above 20 (where exp would
                  // overflow the sum's precision anyway).
                  Value limit =
                      arith::ConstantOp::create(ib, ib.getF32FloatAttr(20.0));
                  Value big = arith::CmpFOp::create(
                      ib, arith::CmpFPredicate::OGT, x, limit);
                  Value soft = math::Log1pOp::create(
                      ib, math::ExpOp::create(
                              ib, arith::MinimumFOp::create(ib, x, limit)));
                  return arith::SelectOp::create(ib, big, x, soft).getResult();
                });
  Value DU = lb.map(
      {DT, U}, {lb.dims(2, {0, 1}), lb.dims(2, {0, 1})}, lb.empty({t, db}, f32),
      [](ImplicitLocOpBuilder &ib, ValueRange args) {
        return arith::MulFOp::create(ib, args[0], args[1]).getResult();
      });
  Value Bc = lb.slice(bIn, {batch, t0, group, zero}, {one, t, one, n}, {T, N});
  Value Cc = lb.slice(cIn, {batch, t0, group, zero}, {one, t, one, n}, {T, N});

  // The output block accumulates locally and is written to y once.
  Value Y = lb.filled({t, db}, f32, 0.0);
  Value c0 = arith::ConstantIndexOp::create(b, 0);
  Value c1 = arith::ConstantIndexOp::create(b, 1);
  Value cT = arith::ConstantIndexOp::create(b, T);
  auto tokens = scf::ForOp::create(
      b, c0, cT, c1, ValueRange{Y, hT},
      [&](OpBuilder &nb, Location loc, Value i, ValueRange acc) {
        ImplicitLocOpBuilder ib(loc, nb);
        LinalgBuilder ilb(ib);
        Value dt = ilb.slice(DT, {i, zero}, {one, db}, {Db});
        Value du = ilb.slice(DU, {i, zero}, {one, db}, {Db});
        Value bi = ilb.slice(Bc, {i, zero}, {one, n}, {N});
        Value ci = ilb.slice(Cc, {i, zero}, {one, n}, {1, N});
        // hT[n, d] = exp(dt[d] A[d, n]) hT[n, d] + b[n] dt[d] u[d], in place.
        Value h =
            ilb.map({At, dt, du, bi},
                    {ilb.dims(2, {0, 1}), ilb.dims(2, {1}), ilb.dims(2, {1}),
                     ilb.dims(2, {0})},
                    acc[1], [](ImplicitLocOpBuilder &hb, ValueRange args) {
                      Value decay = math::ExpOp::create(
                          hb, arith::MulFOp::create(hb, args[0], args[1]));
                      Value kept = arith::MulFOp::create(hb, decay, args[4]);
                      Value in = arith::MulFOp::create(hb, args[2], args[3]);
                      return arith::AddFOp::create(hb, kept, in).getResult();
                    });
        // Y[i, :] = c_i^T hT.
        Value row = ilb.slice(acc[0], {i, zero}, {one, db}, {1, Db});
        row = ilb.contract(ci, h, row, Lhs::RowMajor);
        Value nextY = ilb.insert(row, acc[0], {i, zero}, {one, db});
        scf::YieldOp::create(ib, ValueRange{nextY, h});
      });
  Y = tokens.getResult(0);
  hT = tokens.getResult(1);

  // y = (y + D_skip u) * silu(z), in place.
  if (dSkip || z) {
    SmallVector<Value> in = {U};
    SmallVector<AffineMap> maps = {lb.dims(2, {0, 1})};
    if (dSkip) {
      in.push_back(dSkip);
      maps.push_back(lb.dims(2, {1}));
    }
    if (z) {
      in.push_back(rows(z));
      maps.push_back(lb.dims(2, {0, 1}));
    }
    Y = lb.map(in, maps, Y, [&](ImplicitLocOpBuilder &ib, ValueRange args) {
      Value out = args.back();
      unsigned next = 1;
      if (dSkip)
        out = arith::AddFOp::create(
            ib, out, arith::MulFOp::create(ib, args[next++], args[0]));
      if (z) {
        Value z = args[next];
        Value oneF = arith::ConstantOp::create(ib, ib.getF32FloatAttr(1.0));
        Value sig = arith::DivFOp::create(
            ib, z,
            arith::AddFOp::create(
                ib, oneF,
                math::ExpOp::create(ib, arith::NegFOp::create(ib, z))));
        out = arith::MulFOp::create(ib, out, sig);
      }
      return out;
    });
  }
  carry.outs[0] = lb.insert(Y, y, {batch, t0, d0}, {one, t, db});
  carry.states[0] = hT;
}

void mlir::mixer::populateSelectiveScanToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ChunkedScanLowering<SelectiveScan>>(patterns.getContext(),
                                                   std::nullopt);
}
