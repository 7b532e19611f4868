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

/// The channels of one block: the largest power of two up to 64 that divides
/// the channels of a group, so that a block reads one group. (The tiling of
/// mixer-tile-parallel-dims picks its tiles the same way, so a tile is one
/// block.)
static int64_t channelBlock(int64_t channelsPerGroup) {
  for (int64_t block : {64, 32, 16, 8, 4, 2})
    if (channelsPerGroup % block == 0)
      return block;
  return 1;
}

namespace {

/// The operands (absent optional ones null), indices and static sizes of one
/// (batch, channel block).
struct ScanBlock {
  Value u, delta, b, c, z; // the op's [B, L, ...] operands
  Value At;                // [N, Db]
  Value bias, dSkip;       // [Db] slices
  Value batch, d0, group;
  int64_t Db, N;
  bool softplus;
};

struct SelectiveScanToLinalg : public OpRewritePattern<SelectiveScanOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SelectiveScanOp op,
                                PatternRewriter &rewriter) const override;
};

} // namespace

/// The tokens t0 .. t0 + T - 1 of one channel block: returns (y, hT).
static std::pair<Value, Value> tokenBlock(LinalgBuilder &lb,
                                          const ScanBlock &sb, int64_t T,
                                          Value t0, Value y, Value hT) {
  ImplicitLocOpBuilder &b = lb.builder();
  Type f32 = b.getF32Type();
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  OpFoldResult t = b.getIndexAttr(T), db = b.getIndexAttr(sb.Db),
               n = b.getIndexAttr(sb.N);
  auto rows = [&](Value x) {
    return lb.slice(x, {sb.batch, t0, sb.d0}, {one, t, db}, {T, sb.Db});
  };
  Value U = rows(sb.u);

  // dt = softplus(delta + delta_bias), dt * u.
  SmallVector<Value> dtIn = {rows(sb.delta)};
  SmallVector<AffineMap> dtMaps = {lb.dims(2, {0, 1})};
  if (sb.bias) {
    dtIn.push_back(sb.bias);
    dtMaps.push_back(lb.dims(2, {1}));
  }
  // Without bias and softplus dt is delta itself.
  Value DT =
      (!sb.bias && !sb.softplus)
          ? dtIn[0]
          : lb.map(
                dtIn, dtMaps, lb.empty({t, db}, f32),
                [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                  Value x = args[0];
                  if (sb.bias)
                    x = arith::AddFOp::create(ib, x, args[1]);
                  if (!sb.softplus)
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
  Value Bc = lb.slice(sb.b, {sb.batch, t0, sb.group, zero}, {one, t, one, n},
                      {T, sb.N});
  Value Cc = lb.slice(sb.c, {sb.batch, t0, sb.group, zero}, {one, t, one, n},
                      {T, sb.N});

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
        Value dt = ilb.slice(DT, {i, zero}, {one, db}, {sb.Db});
        Value du = ilb.slice(DU, {i, zero}, {one, db}, {sb.Db});
        Value bi = ilb.slice(Bc, {i, zero}, {one, n}, {sb.N});
        Value ci = ilb.slice(Cc, {i, zero}, {one, n}, {1, sb.N});
        // hT[n, d] = exp(dt[d] A[d, n]) hT[n, d] + b[n] dt[d] u[d], in place.
        Value h =
            ilb.map({sb.At, dt, du, bi},
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
        Value row = ilb.slice(acc[0], {i, zero}, {one, db}, {1, sb.Db});
        row = ilb.contract(ci, h, row, Lhs::RowMajor);
        Value nextY = ilb.insert(row, acc[0], {i, zero}, {one, db});
        scf::YieldOp::create(ib, ValueRange{nextY, h});
      });
  Y = tokens.getResult(0);
  hT = tokens.getResult(1);

  // y = (y + D_skip u) * silu(z), in place.
  if (sb.dSkip || sb.z) {
    SmallVector<Value> in = {U};
    SmallVector<AffineMap> maps = {lb.dims(2, {0, 1})};
    if (sb.dSkip) {
      in.push_back(sb.dSkip);
      maps.push_back(lb.dims(2, {1}));
    }
    if (sb.z) {
      in.push_back(rows(sb.z));
      maps.push_back(lb.dims(2, {0, 1}));
    }
    Y = lb.map(in, maps, Y, [&](ImplicitLocOpBuilder &ib, ValueRange args) {
      Value out = args.back();
      unsigned next = 1;
      if (sb.dSkip)
        out = arith::AddFOp::create(
            ib, out, arith::MulFOp::create(ib, args[next++], args[0]));
      if (sb.z) {
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
  y = lb.insert(Y, y, {sb.batch, t0, sb.d0}, {one, t, db});
  return {y, hT};
}

LogicalResult
SelectiveScanToLinalg::matchAndRewrite(SelectiveScanOp op,
                                       PatternRewriter &rewriter) const {
  auto uType = cast<RankedTensorType>(op.getU().getType());
  auto bType = cast<RankedTensorType>(op.getB().getType());
  int64_t D = uType.getDimSize(2), G = bType.getDimSize(2),
          N = bType.getDimSize(3);
  if (std::optional<std::string> blocker = getLinalgLoweringBlocker(op))
    return rewriter.notifyMatchFailure(op, *blocker);

  ImplicitLocOpBuilder b(op.getLoc(), rewriter);
  LinalgBuilder lb(b);
  Type f32 = b.getF32Type();
  int64_t perGroup = D / G;
  int64_t Db = channelBlock(perGroup);
  // Tokens per block: the dt and output maps of a block are vectorized over
  // [T, Db].
  const int64_t T = 16;
  OpFoldResult one = b.getIndexAttr(1), zero = b.getIndexAttr(0);
  OpFoldResult db = b.getIndexAttr(Db), n = b.getIndexAttr(N);

  Value c0 = arith::ConstantIndexOp::create(b, 0);
  Value cT = arith::ConstantIndexOp::create(b, T);
  Value batches = tensor::DimOp::create(b, op.getU(), 0);
  Value length = tensor::DimOp::create(b, op.getU(), 1);
  Value blocks = arith::ConstantIndexOp::create(b, D / Db);
  Value cDb = arith::ConstantIndexOp::create(b, Db);
  Value cPerGroup = arith::ConstantIndexOp::create(b, perGroup);
  Value fullBlocks = arith::DivUIOp::create(b, length, cT);
  Value tailStart = arith::MulIOp::create(b, fullBlocks, cT);

  auto blockBody = [&](OpBuilder &nb, Location loc, Value batch, Value blk,
                       ValueRange outs) -> SmallVector<Value> {
    ImplicitLocOpBuilder ib(loc, nb);
    LinalgBuilder hb(ib);
    Value d0 = arith::MulIOp::create(ib, blk, cDb);
    auto channels = [&](Value x) -> Value {
      return x ? hb.slice(x, {d0}, {db}, {Db}) : Value();
    };
    ScanBlock sb{
        op.getU(),
        op.getDelta(),
        op.getB(),
        op.getC(),
        op.getZ(),
        hb.transpose(hb.slice(op.getA(), {d0, zero}, {db, n}, {Db, N})),
        channels(op.getDeltaBias()),
        channels(op.getDSkip()),
        batch,
        d0,
        arith::DivUIOp::create(ib, d0, cPerGroup),
        Db,
        N,
        op.getDeltaSoftplus()};
    // hT = init^T (a fresh tensor, updated in place) or zeros.
    Value hT = op.getInit()
                   ? hb.transpose(hb.slice(op.getInit(), {batch, d0, zero},
                                           {one, db, n}, {Db, N}))
                   : hb.filled({n, db}, f32, 0.0);
    auto full =
        buildOutStateLoop(ib, c0, fullBlocks, outs[0], hT,
                          [&](LinalgBuilder &flb, Value c, Value y, Value h) {
                            Value t0 =
                                arith::MulIOp::create(flb.builder(), c, cT);
                            return tokenBlock(flb, sb, T, t0, y, h);
                          });
    auto tail = buildOutStateLoop(
        ib, tailStart, length, full.getResult(0), full.getResult(1),
        [&](LinalgBuilder &tlb, Value t, Value y, Value h) {
          return tokenBlock(tlb, sb, 1, t, y, h);
        });
    Value finalState = hb.insert(hb.transpose(tail.getResult(1)), outs[1],
                                 {batch, d0, zero}, {one, db, n});
    return {tail.getResult(0), finalState};
  };

  // The channel blocks play the role of the heads of the other scans.
  rewriter.replaceOp(
      op, buildBatchHeadLoops(b, batches, blocks, op.getOuts(), blockBody));
  return success();
}

void mlir::mixer::populateSelectiveScanToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<SelectiveScanToLinalg>(patterns.getContext());
}
