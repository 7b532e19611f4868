//===- DecomposeScanBackward.cpp - scan backward ops to forward scans -----===//
//
// mixer.linear_attention_backward becomes a mixer.ssd_backward (below),
// which convert-mixer-to-linalg lowers as a chunked reverse scan
// (SsdBackwardToLinalg.cpp). For lowerings without a backward of their own
// (the naive pipeline's scalar loops), mixer.ssd_backward itself becomes
// forward mixer.ssd scans and elementwise linalg ops, which keep no
// per-token state. Per head h of group g (S_t the forward state, D_t the
// state cotangent, a_t = exp(log_a_t)):
//
//   D_t = a_{t+1} D_{t+1} + dy_t c_t^T,  D_{L-1} = dF + dy_{L-1} c_{L-1}^T
//
// is a scan run backwards in time with the decay shifted by one token. With
// rev(v)_t = v_{L-1-t} and la'_t = log_a_{L-t} (0 at t = 0):
//
//   dx    = rev(ssd(rev(dy), la', rev(c), rev(b), init = dF).y)
//   dinit = a_0 * (that scan's final state, D_0)
//   db^h  = D^T x: a scan of D^T (N x P), dc^h = S^T dy: a scan of S^T,
//           both with one group per head, without each token's own term
//           u_t c_t resp. u_t b_t (u_t = <x_t, dy_t>, added afterwards) and
//           the D^T scan without dF (its term L(L-1, t) dF^T x_t is a scan
//           of its own, with no inputs)
//   db, dc = the sums of db^h, dc^h over the heads of each group
//   dlog_a_k = sum_{t>=k} (<a_t S_{t-1}^T dy_t, c_t> - <a_{t+1} D_{t+1}^T x_t, b_t>)
//              + phi_0 + sum_{t<k} <L(L-1, t) dF^T x_t, b_t>
//
// (D without dF in the first sum, phi_0 = a_0 <L(L-1, 0) dF, init>). This
// is <D_k, a_k S_{k-1}> regrouped: the usual identity
// sum_{t>=k} (<dc^h_t, c_t> - <db^h_t, b_t>) + <dF, S_{L-1}> is exact too,
// but its terms are O(1) where strong decays make the result ~1e-5, and f32
// cancellation leaves a relative error of 1e-2; here every term is as small
// as the result. The cumulative sums are ssd scans with P = N = 1, unit b
// and c and no decay (the first one in reversed time). In the D^T and S^T
// scans the roles of P and N are exchanged; the memory they use is that of
// per-head copies of b and c.
//
// mixer.linear_attention_backward is ssd_backward with one group per head
// (x = v, b = k, c = q, states transposed, dy = scale * do); a window w > 0
// shifts q and do by w + 1 tokens (see the op description).
//
//===----------------------------------------------------------------------===//

#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Dialect/Mixer/Transforms/Transforms.h"
#include "mixer/Utils/LinalgBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::mixer;

namespace {

using utils::IteratorType;

/// The elementwise and reduction steps around the scans.
class BackwardBuilder {
public:
  explicit BackwardBuilder(ImplicitLocOpBuilder &b) : b(b), lb(b) {}

  Value zerosLike(Value v) {
    return lb.filled(lb.sizesOf(v), b.getF32Type(), 0.0);
  }
  Value emptyLike(Value v) { return lb.empty(lb.sizesOf(v), b.getF32Type()); }
  /// A new tensor of the sizes of `v` with dim `d` replaced by `size`.
  Value emptyWithDim(Value v, unsigned d, OpFoldResult size) {
    SmallVector<OpFoldResult> sizes = lb.sizesOf(v);
    sizes[d] = size;
    return lb.empty(sizes, b.getF32Type());
  }

  /// dest[i0, l, i2, ...] = scale * v[i0, source(l), i2, ..., 0...] where
  /// 0 <= source(l) < L (the length of dim 1 of `v`), else 0; v may have
  /// more (unit) trailing dims than dest. Flips and shifts in time.
  Value gatherTime(Value v, Value dest,
                   function_ref<Value(ImplicitLocOpBuilder &, Value, Value)>
                       source,
                   double scale = 1.0) {
    Value len = tensor::DimOp::create(b, v, 1);
    unsigned rank = cast<ShapedType>(dest.getType()).getRank();
    unsigned srcRank = cast<ShapedType>(v.getType()).getRank();
    SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
    SmallVector<IteratorType> iters(rank, IteratorType::parallel);
    return linalg::GenericOp::create(
               b, dest.getType(), ValueRange{}, ValueRange{dest}, maps, iters,
               [&](OpBuilder &nb, Location loc, ValueRange) {
                 ImplicitLocOpBuilder ib(loc, nb);
                 SmallVector<Value> idx;
                 for (unsigned i = 0; i < rank; ++i)
                   idx.push_back(linalg::IndexOp::create(ib, i));
                 Value zeroIdx = arith::ConstantIndexOp::create(ib, 0);
                 Value src = source(ib, idx[1], len);
                 Value inRange = arith::AndIOp::create(
                     ib,
                     arith::CmpIOp::create(ib, arith::CmpIPredicate::sge, src,
                                           zeroIdx),
                     arith::CmpIOp::create(ib, arith::CmpIPredicate::slt, src,
                                           len));
                 idx[1] = arith::SelectOp::create(ib, inRange, src, zeroIdx);
                 idx.append(srcRank - rank, zeroIdx);
                 Value val = tensor::ExtractOp::create(ib, v, idx);
                 if (scale != 1.0)
                   val = arith::MulFOp::create(
                       ib, val,
                       arith::ConstantOp::create(ib, ib.getF32FloatAttr(scale)));
                 Value zero =
                     arith::ConstantOp::create(ib, ib.getF32FloatAttr(0.0));
                 linalg::YieldOp::create(
                     ib, ValueRange{arith::SelectOp::create(ib, inRange, val,
                                                            zero)});
               })
        .getResult(0);
  }

  /// v with time reversed, into `dest` (null: a new tensor like v).
  Value flip(Value v, Value dest = {}) {
    return gatherTime(v, dest ? dest : emptyLike(v),
                      [](ImplicitLocOpBuilder &ib, Value l, Value len) {
                        Value last = arith::SubIOp::create(
                            ib, len, arith::ConstantIndexOp::create(ib, 1));
                        return arith::SubIOp::create(ib, last, l).getResult();
                      });
  }

  /// v shifted `by` tokens towards the start (by > 0) or the end (by < 0),
  /// zero where it runs out, times `scale`.
  Value shift(Value v, int64_t by, double scale = 1.0) {
    return gatherTime(
        v, emptyLike(v),
        [&](ImplicitLocOpBuilder &ib, Value l, Value) {
          return arith::AddIOp::create(ib, l,
                                       arith::ConstantIndexOp::create(ib, by))
              .getResult();
        },
        scale);
  }

  /// out[b, t, h, n] = exp(logA[b, t, h]) * grouped[b, t-1, g(h), n] (0 at
  /// t = 0), [B, L, H, N]: the previous token's b (or c) decayed into the
  /// current token, per head.
  Value previousTokenPerHead(Value grouped, Value logA, int64_t heads,
                             int64_t perGroup) {
    Value dest = emptyWithDim(grouped, 2, b.getIndexAttr(heads));
    MLIRContext *ctx = b.getContext();
    AffineExpr d0, d1, d2, d3;
    bindDims(ctx, d0, d1, d2, d3);
    return lb.map(
        {logA}, {AffineMap::get(4, 0, {d0, d1, d2}, ctx)}, dest,
        [&](ImplicitLocOpBuilder &ib, ValueRange args) {
          Value zeroIdx = arith::ConstantIndexOp::create(ib, 0);
          Value oneIdx = arith::ConstantIndexOp::create(ib, 1);
          Value t = linalg::IndexOp::create(ib, 1);
          Value first = arith::CmpIOp::create(ib, arith::CmpIPredicate::eq, t,
                                              zeroIdx);
          Value prev = arith::SelectOp::create(
              ib, first, zeroIdx, arith::SubIOp::create(ib, t, oneIdx));
          Value group = arith::DivUIOp::create(
              ib, linalg::IndexOp::create(ib, 2),
              arith::ConstantIndexOp::create(ib, perGroup));
          Value val = tensor::ExtractOp::create(
              ib, grouped,
              ValueRange{linalg::IndexOp::create(ib, 0), prev, group,
                         linalg::IndexOp::create(ib, 3)});
          Value decayed = arith::MulFOp::create(
              ib, math::ExpOp::create(ib, args[0]), val);
          Value zero = arith::ConstantOp::create(ib, ib.getF32FloatAttr(0.0));
          return arith::SelectOp::create(ib, first, zero, decayed).getResult();
        });
  }

  /// acc[out] += lhs[in] * rhs[in] over the reduction dims of `iters`,
  /// `maps` giving in, in and out.
  Value sumOfProducts(Value lhs, Value rhs, Value acc, ArrayRef<AffineMap> maps,
                      ArrayRef<IteratorType> iters) {
    return linalg::GenericOp::create(
               b, acc.getType(), ValueRange{lhs, rhs}, ValueRange{acc}, maps,
               iters,
               [](OpBuilder &nb, Location loc, ValueRange a) {
                 ImplicitLocOpBuilder ib(loc, nb);
                 Value prod = arith::MulFOp::create(ib, a[0], a[1]);
                 linalg::YieldOp::create(
                     ib, ValueRange{arith::AddFOp::create(ib, a[2], prod)});
               })
        .getResult(0);
  }

  /// u[b, l, h] = <x[b, l, h, :], dy[b, l, h, :]>.
  Value tokenDot(Value x, Value dy) {
    SmallVector<OpFoldResult> sizes = lb.sizesOf(x);
    sizes.pop_back();
    Value acc = lb.filled(sizes, b.getF32Type(), 0.0);
    MLIRContext *ctx = b.getContext();
    AffineExpr d0, d1, d2, d3;
    bindDims(ctx, d0, d1, d2, d3);
    AffineMap in = b.getMultiDimIdentityMap(4);
    SmallVector<AffineMap> maps = {in, in,
                                   AffineMap::get(4, 0, {d0, d1, d2}, ctx)};
    SmallVector<IteratorType> iters(3, IteratorType::parallel);
    iters.push_back(IteratorType::reduction);
    return sumOfProducts(x, dy, acc, maps, iters);
  }

  /// dest[b, l, h, n] = strict[b, l, h, n] + u[b, l, h] * grouped[b, l, g, n]:
  /// a token's own term added to the scan of the earlier tokens.
  Value addOwnToken(Value strict, Value u, Value grouped, int64_t perGroup,
                    Value dest) {
    MLIRContext *ctx = b.getContext();
    AffineExpr d0, d1, d2, d3;
    bindDims(ctx, d0, d1, d2, d3);
    return lb.map({strict, u, grouped},
                  {b.getMultiDimIdentityMap(4),
                   AffineMap::get(4, 0, {d0, d1, d2}, ctx),
                   AffineMap::get(4, 0, {d0, d1, d2.floorDiv(perGroup), d3},
                                  ctx)},
                  dest ? dest : emptyLike(strict),
                  [](ImplicitLocOpBuilder &ib, ValueRange a) {
                    return arith::AddFOp::create(
                               ib, a[0], arith::MulFOp::create(ib, a[1], a[2]))
                        .getResult();
                  });
  }

  /// dest[b, l, g, n] = sum over the heads h of group g of perHead[b, l, h, n].
  Value sumGroups(Value perHead, Value dest, int64_t perGroup) {
    Value acc = lb.fill(dest, 0.0);
    // [B, L, H, N] -> [B, L, G, H / G, N], then a reduction over dim 3.
    SmallVector<OpFoldResult> sizes = lb.sizesOf(perHead);
    int64_t groups = cast<ShapedType>(dest.getType()).getDimSize(2);
    SmallVector<OpFoldResult> expanded = {sizes[0], sizes[1],
                                          b.getIndexAttr(groups),
                                          b.getIndexAttr(perGroup), sizes[3]};
    auto type = cast<RankedTensorType>(perHead.getType());
    SmallVector<int64_t> shape = {type.getDimSize(0), type.getDimSize(1),
                                  groups, perGroup, type.getDimSize(3)};
    Value split = tensor::ExpandShapeOp::create(
        b, RankedTensorType::get(shape, type.getElementType()), perHead,
        SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}, {4}}, expanded);
    MLIRContext *ctx = b.getContext();
    AffineExpr d0, d1, d2, d3, d4;
    bindDims(ctx, d0, d1, d2, d3, d4);
    SmallVector<AffineMap> maps = {
        AffineMap::get(5, 0, {d0, d1, d2, d4, d3}, ctx),
        AffineMap::get(5, 0, {d0, d1, d2, d3}, ctx)};
    SmallVector<IteratorType> iters(4, IteratorType::parallel);
    iters.push_back(IteratorType::reduction);
    return linalg::GenericOp::create(
               b, acc.getType(), ValueRange{split}, ValueRange{acc}, maps,
               iters,
               [](OpBuilder &nb, Location loc, ValueRange args) {
                 linalg::YieldOp::create(
                     nb, loc,
                     ValueRange{arith::AddFOp::create(nb, loc, args[1], args[0])
                                    .getResult()});
               })
        .getResult(0);
  }

  /// [B, H, P, N] -> [B, H, N, P], into `dest` (null: a new tensor).
  Value transposeState(Value s, Value dest = {}) {
    SmallVector<OpFoldResult> sizes = lb.sizesOf(s);
    std::swap(sizes[2], sizes[3]);
    if (!dest)
      dest = lb.empty(sizes, b.getF32Type());
    return linalg::TransposeOp::create(b, s, dest,
                                       ArrayRef<int64_t>{0, 1, 3, 2})
        .getResult()[0];
  }

  /// e[b, l, h, 0] = <dc[b, l, h, :], c[b, l, g, :]> -
  ///                 <db[b, l, h, :], bg[b, l, g, :]>, g the group of h;
  /// without the second pair when `db` is null.
  Value decayTerms(Value dc, Value c, Value db, Value bg, int64_t perGroup) {
    SmallVector<OpFoldResult> sizes = lb.sizesOf(dc);
    sizes[3] = b.getIndexAttr(1);
    Value acc = lb.filled(sizes, b.getF32Type(), 0.0);
    MLIRContext *ctx = b.getContext();
    AffineExpr d0, d1, d2, d3, d4;
    bindDims(ctx, d0, d1, d2, d3, d4);
    AffineMap perHead = AffineMap::get(5, 0, {d0, d1, d2, d4}, ctx);
    AffineMap group =
        AffineMap::get(5, 0, {d0, d1, d2.floorDiv(perGroup), d4}, ctx);
    SmallVector<Value> inputs = {dc, c};
    SmallVector<AffineMap> maps = {perHead, group};
    if (db) {
      inputs.append({db, bg});
      maps.append({perHead, group});
    }
    maps.push_back(AffineMap::get(5, 0, {d0, d1, d2, d3}, ctx));
    SmallVector<IteratorType> iters(4, IteratorType::parallel);
    iters.push_back(IteratorType::reduction);
    return linalg::GenericOp::create(
               b, acc.getType(), inputs, ValueRange{acc}, maps, iters,
               [&](OpBuilder &nb, Location loc, ValueRange a) {
                 ImplicitLocOpBuilder ib(loc, nb);
                 Value term = arith::MulFOp::create(ib, a[0], a[1]);
                 if (db)
                   term = arith::SubFOp::create(
                       ib, term, arith::MulFOp::create(ib, a[2], a[3]));
                 linalg::YieldOp::create(
                     ib, ValueRange{arith::AddFOp::create(ib, a.back(), term)});
               })
        .getResult(0);
  }

  /// scale * v, elementwise, into a new tensor (v itself when scale is 1):
  /// a plain map, where a shift by 0 would gather.
  Value scaled(Value v, double scale) {
    if (scale == 1.0)
      return v;
    AffineMap id =
        b.getMultiDimIdentityMap(cast<ShapedType>(v.getType()).getRank());
    return lb.map({v}, {id}, emptyLike(v),
                  [&](ImplicitLocOpBuilder &ib, ValueRange a) {
                    Value factor = arith::ConstantOp::create(
                        ib, ib.getF32FloatAttr(scale));
                    return arith::MulFOp::create(ib, a[0], factor).getResult();
                  });
  }

  /// lhs + rhs, elementwise, into a new tensor.
  Value add(Value lhs, Value rhs) {
    AffineMap id = b.getMultiDimIdentityMap(
        cast<ShapedType>(lhs.getType()).getRank());
    return lb.map({lhs, rhs}, {id, id}, emptyLike(lhs),
                  [](ImplicitLocOpBuilder &ib, ValueRange a) {
                    return arith::AddFOp::create(ib, a[0], a[1]).getResult();
                  });
  }

  /// v[b, l, h] + w[b, l, h, 0], in place in v.
  Value addTrailingUnit(Value v, Value w) {
    MLIRContext *ctx = b.getContext();
    AffineExpr d0, d1, d2;
    bindDims(ctx, d0, d1, d2);
    AffineMap in =
        AffineMap::get(3, 0, {d0, d1, d2, getAffineConstantExpr(0, ctx)}, ctx);
    return lb.map({w}, {in}, v, [](ImplicitLocOpBuilder &ib, ValueRange a) {
      return arith::AddFOp::create(ib, a[1], a[0]).getResult();
    });
  }

  /// [B, H, 1, 1]: <dF[b, h], S[b, h]> over the state.
  Value stateDot(Value dF, Value s) {
    SmallVector<OpFoldResult> sizes = lb.sizesOf(dF);
    sizes[2] = sizes[3] = b.getIndexAttr(1);
    Value acc = lb.filled(sizes, b.getF32Type(), 0.0);
    MLIRContext *ctx = b.getContext();
    AffineExpr d0, d1, d2, d3, d4, d5;
    bindDims(ctx, d0, d1, d2, d3, d4, d5);
    AffineMap in = AffineMap::get(6, 0, {d0, d1, d4, d5}, ctx);
    SmallVector<AffineMap> maps = {in, in,
                                   AffineMap::get(6, 0, {d0, d1, d2, d3}, ctx)};
    SmallVector<IteratorType> iters(4, IteratorType::parallel);
    iters.append(2, IteratorType::reduction);
    return sumOfProducts(dF, s, acc, maps, iters);
  }

  /// dest[b, h, p, n] = exp(log_a[b, 0, h]) * d0[b, h, p, n].
  Value decayFirst(Value logA, Value d0, Value dest) {
    SmallVector<OpFoldResult> sizes = lb.sizesOf(logA);
    sizes[1] = b.getIndexAttr(1);
    SmallVector<OpFoldResult> zeros(3, b.getIndexAttr(0));
    auto type = cast<RankedTensorType>(logA.getType());
    Value first = lb.slice(logA, zeros, sizes,
                           {type.getDimSize(0), type.getDimSize(2)});
    MLIRContext *ctx = b.getContext();
    AffineExpr e0, e1, e2, e3;
    bindDims(ctx, e0, e1, e2, e3);
    return lb.map({first, d0},
                  {AffineMap::get(4, 0, {e0, e1}, ctx),
                   b.getMultiDimIdentityMap(4)},
                  dest, [](ImplicitLocOpBuilder &ib, ValueRange a) {
                    return arith::MulFOp::create(
                               ib, math::ExpOp::create(ib, a[0]), a[1])
                        .getResult();
                  });
  }

  ImplicitLocOpBuilder &b;
  LinalgBuilder lb;
};

/// A forward ssd writing y into `yOut` (null: a new tensor) and its final
/// state into a new tensor; returns (y, final state).
std::pair<Value, Value> forwardSsd(BackwardBuilder &bb, Value x, Value logA,
                                   Value b, Value c, Value init, int64_t chunk,
                                   Value yOut = {}) {
  ImplicitLocOpBuilder &ib = bb.b;
  // The state is [B, H, P, N]: P from x, N from b.
  SmallVector<OpFoldResult> xs = bb.lb.sizesOf(x), bs = bb.lb.sizesOf(b);
  Value stateOut =
      bb.lb.empty({xs[0], xs[2], xs[3], bs[3]}, ib.getF32Type());
  auto op = SsdOp::create(ib, x, logA, b, c, init,
                          yOut ? yOut : bb.emptyLike(x), stateOut, chunk);
  return {op.getY(), op.getFinalState()};
}

struct DecomposeSsdBackward : public OpRewritePattern<SsdBackwardOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SsdBackwardOp op,
                                PatternRewriter &rewriter) const override {
    int64_t H = cast<ShapedType>(op.getX().getType()).getDimSize(2);
    int64_t G = cast<ShapedType>(op.getB().getType()).getDimSize(2);
    if (ShapedType::isDynamic(H) || ShapedType::isDynamic(G) || G == 0)
      return rewriter.notifyMatchFailure(op, "heads and groups must be static");
    int64_t perGroup = H / G, chunk = op.getChunkSize();
    ImplicitLocOpBuilder ib(op.getLoc(), rewriter);
    BackwardBuilder bb(ib);
    Value x = op.getX(), logA = op.getLogA(), b = op.getB(), c = op.getC();
    Value init = op.getInit(), dF = op.getDFinalState();
    ValueRange outs = op.getOuts();
    Value dy = op.getDy() ? op.getDy() : bb.zerosLike(x);

    // Reversed time, decay shifted by one token: la'_t = log_a_{L-t}.
    Value revLogA = bb.gatherTime(
        logA, bb.emptyLike(logA),
        [](ImplicitLocOpBuilder &b, Value l, Value len) {
          return arith::SubIOp::create(b, len, l).getResult();
        });
    Value revDy = bb.flip(dy), revB = bb.flip(b), revC = bb.flip(c),
          revX = bb.flip(x);

    // dx and dinit: the state cotangent D scanned backwards.
    auto [revDx, d0] = forwardSsd(bb, revDy, revLogA, revC, revB, dF, chunk);
    Value dx = bb.flip(revDx, outs[0]);
    SmallVector<Value> grads = {dx};

    // db^h and dc^h per head: the scans of D^T and S^T (N x P: the roles of
    // x and b exchanged, one group per head). Each scan leaves out the
    // token's own term, u_t c_t resp. u_t b_t with u_t = <x_t, dy_t>: the
    // decay terms below need D and S without it, and adding it in the
    // scans would cancel in <dc^h, c> - <db^h, b> (in f32, to ~1e-7 of
    // terms that strong decays make ~1e-5). a_{t+1} D_{t+1} and a_t S_{t-1}
    // are scans of the previous token's inputs, decayed into the token:
    // in reversed time x'_t = a'_t rev(c)_{t-1}, b'_t = rev(dy)_{t-1}.
    // The D^T scan leaves out dF, whose term L(L-1, t) dF^T x_t has a scan
    // of its own below: with it, the decay terms of the last token would
    // be O(1) and cancel against <dF, S_{L-1}> in every dlog_a_k.
    auto [revDbStrict, unusedDb] = forwardSsd(
        bb, bb.previousTokenPerHead(revC, revLogA, H, perGroup), revLogA,
        bb.shift(revDy, -1), revX, Value(), chunk);
    Value initT = init ? bb.transposeState(init) : Value();
    auto [dcStrict, unusedDc] = forwardSsd(
        bb, bb.previousTokenPerHead(b, logA, H, perGroup), logA,
        bb.shift(x, -1), dy, initT, chunk);

    // dlog_a_k = sum_{t>=k} (<a_t S_{t-1}^T dy_t, c_t>
    //                        - <a_{t+1} D_{t+1}^T x_t, b_t>)    (dF left out)
    //          + phi_k,  phi_k = <L(L-1, k) dF, a_k S_{k-1}>
    //                          = phi_0 + sum_{t<k} w_t,  w_t = <db^F_t, b_t>,
    // db^F_t = L(L-1, t) dF^T x_t, phi_0 = a_0 <L(L-1, 0) dF, init>: a
    // reverse and a forward cumulative sum (scans with one-element states)
    // of terms that no cancellation spoils.
    Value revTerms =
        bb.decayTerms(bb.flip(dcStrict), revC, revDbStrict, revB, perGroup);
    Value ones = bb.lb.filled({bb.lb.sizesOf(b)[0], bb.lb.sizesOf(b)[1],
                               ib.getIndexAttr(1), ib.getIndexAttr(1)},
                              ib.getF32Type(), 1.0);
    Value zeroLogA = bb.zerosLike(logA);
    auto [revDlogA, unusedSum] =
        forwardSsd(bb, revTerms, zeroLogA, ones, ones, Value(), chunk);
    Value dlogA = bb.flip(revDlogA, outs[1]);
    Value revDbAll = revDbStrict;
    if (dF) {
      // db^F in reversed time: the D^T scan of dF alone (no inputs).
      Value noInputs = bb.zerosLike(revDbStrict);
      auto [revDbF, dF0T] = forwardSsd(bb, noInputs, revLogA,
                                       bb.zerosLike(revX), revX,
                                       bb.transposeState(dF), chunk);
      Value w = bb.flip(
          bb.decayTerms(revDbF, revB, Value(), Value(), perGroup));
      Value phi0;
      if (init) {
        Value dot = bb.stateDot(dF0T, initT);
        phi0 = bb.decayFirst(logA, dot, bb.emptyLike(dot));
      }
      auto [phi, unusedPhi] = forwardSsd(bb, bb.shift(w, -1), zeroLogA, ones,
                                         ones, phi0, chunk);
      dlogA = bb.addTrailingUnit(dlogA, phi);
      revDbAll = bb.add(revDbStrict, revDbF);
    }
    grads.push_back(dlogA);

    // The tokens' own terms, then the sums over the heads of each group.
    Value u = bb.tokenDot(x, dy);
    Value dbHeads = bb.addOwnToken(bb.flip(revDbAll), u, c, perGroup,
                                   perGroup == 1 ? outs[2] : Value());
    Value dcHeads = bb.addOwnToken(dcStrict, u, b, perGroup,
                                   perGroup == 1 ? outs[3] : Value());
    grads.push_back(perGroup == 1 ? dbHeads
                                  : bb.sumGroups(dbHeads, outs[2], perGroup));
    grads.push_back(perGroup == 1 ? dcHeads
                                  : bb.sumGroups(dcHeads, outs[3], perGroup));
    if (init)
      grads.push_back(bb.decayFirst(logA, d0, outs[4]));
    rewriter.replaceOp(op, grads);
    return success();
  }
};

struct DecomposeLinearAttentionBackward
    : public OpRewritePattern<LinearAttentionBackwardOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LinearAttentionBackwardOp op,
                                PatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder ib(op.getLoc(), rewriter);
    BackwardBuilder bb(ib);
    Value q = op.getQ(), k = op.getK(), v = op.getV();
    Value logDecay = op.getLogDecay(), init = op.getInit();
    Value dout = op.getDout(), dF = op.getDFinalState();
    ValueRange outs = op.getOuts();
    double scale = op.getScale().convertToFloat();
    int64_t window = op.getWindow();
    // o_t reads the state `lag` tokens back: q_t acts at token t - lag.
    int64_t lag = window > 0 ? window + 1 : 0;

    Value shiftedQ = lag ? bb.shift(q, lag) : q;
    Value dy;
    if (dout)
      dy = lag ? bb.shift(dout, lag, scale) : bb.scaled(dout, scale);
    Value la = logDecay;
    if (!la) {
      // [B, L, H]: the zero log-decay of an undecayed scan.
      SmallVector<OpFoldResult> sizes = bb.lb.sizesOf(q);
      sizes.pop_back();
      la = bb.lb.filled(sizes, ib.getF32Type(), 0.0);
    }
    unsigned next = 3;
    Value dldOut = logDecay ? outs[next++] : bb.emptyLike(la);
    Value initT = init ? bb.transposeState(init) : Value();
    SmallVector<Value> ssdOuts = {outs[2], dldOut, outs[1],
                                  lag ? bb.emptyLike(q) : outs[0]};
    if (init)
      ssdOuts.push_back(bb.emptyLike(initT));
    // The forward's chunk states ([B, H, C, Dk, Dv]) are those of the ssd
    // form ([B, H, C, N, P], N = Dk, P = Dv).
    auto ssd = SsdBackwardOp::create(
        ib, v, la, k, shiftedQ, initT, op.getChunkStates(), dy,
        dF ? bb.transposeState(dF) : Value(), ssdOuts, op.getChunkSize());
    ValueRange g = ssd.getGrads();

    // dq: the scan's dc moved back to the query tokens; the first `lag`
    // queries read the init: dq_t = scale * init do_t.
    Value dq = g[3];
    if (lag) {
      dq = bb.gatherTime(g[3], outs[0],
                         [&](ImplicitLocOpBuilder &b, Value l, Value) {
                           return arith::SubIOp::create(
                                      b, l, arith::ConstantIndexOp::create(b, lag))
                               .getResult();
                         });
    }
    Value dinit = init ? bb.transposeState(g[4], outs[next]) : Value();
    if (lag && init && dout) {
      OpFoldResult early = earlyTokens(ib, q, lag);
      SmallVector<OpFoldResult> offsets(4, ib.getIndexAttr(0));
      SmallVector<OpFoldResult> qSizes = bb.lb.sizesOf(q);
      SmallVector<OpFoldResult> oSizes = bb.lb.sizesOf(dout);
      qSizes[1] = oSizes[1] = early;
      Value qEarly = tensor::ExtractSliceOp::create(
          ib, q, offsets, qSizes, SmallVector<OpFoldResult>(4, ib.getIndexAttr(1)));
      Value oEarly = tensor::ExtractSliceOp::create(
          ib, dout, offsets, oSizes,
          SmallVector<OpFoldResult>(4, ib.getIndexAttr(1)));
      dq = tensor::InsertSliceOp::create(
          ib, earlyQueryGrad(bb, init, oEarly, qSizes, scale), dq, offsets,
          qSizes, SmallVector<OpFoldResult>(4, ib.getIndexAttr(1)));
      dinit = earlyInitGrad(bb, qEarly, oEarly, dinit, scale);
    }
    SmallVector<Value> grads = {dq, g[2], g[0]};
    if (logDecay)
      grads.push_back(g[1]);
    if (init)
      grads.push_back(dinit);
    rewriter.replaceOp(op, grads);
    return success();
  }

  /// min(lag, L): the tokens whose queries read the init.
  static OpFoldResult earlyTokens(ImplicitLocOpBuilder &ib, Value q,
                                  int64_t lag) {
    int64_t L = cast<ShapedType>(q.getType()).getDimSize(1);
    if (!ShapedType::isDynamic(L))
      return ib.getIndexAttr(std::min(L, lag));
    return arith::MinSIOp::create(ib, tensor::DimOp::create(ib, q, 1),
                                  arith::ConstantIndexOp::create(ib, lag))
        .getResult();
  }

  /// [B, n, H, Dk]: scale * init[b, h] do_t for the first n tokens.
  static Value earlyQueryGrad(BackwardBuilder &bb, Value init, Value oEarly,
                              ArrayRef<OpFoldResult> sizes, double scale) {
    ImplicitLocOpBuilder &ib = bb.b;
    Value acc = bb.lb.filled(sizes, ib.getF32Type(), 0.0);
    AffineExpr b, l, h, i, j;
    bindDims(ib.getContext(), b, l, h, i, j);
    return scaledProductSum(ib, init, oEarly, acc,
                            {{b, h, i, j}, {b, l, h, j}, {b, l, h, i}}, scale);
  }

  /// dinit + scale * sum over the first n tokens of q_t do_t^T.
  static Value earlyInitGrad(BackwardBuilder &bb, Value qEarly, Value oEarly,
                             Value dinit, double scale) {
    ImplicitLocOpBuilder &ib = bb.b;
    AffineExpr b, h, i, j, l;
    bindDims(ib.getContext(), b, h, i, j, l);
    return scaledProductSum(ib, qEarly, oEarly, dinit,
                            {{b, l, h, i}, {b, l, h, j}, {b, h, i, j}}, scale);
  }

  /// acc += scale * in0 * in1 over five loops, the last one summed;
  /// `indexing` holds the loops that index in0, in1 and acc.
  static Value scaledProductSum(ImplicitLocOpBuilder &ib, Value in0, Value in1,
                                Value acc,
                                ArrayRef<ArrayRef<AffineExpr>> indexing,
                                double scale) {
    SmallVector<AffineMap> maps =
        AffineMap::inferFromExprList(indexing, ib.getContext());
    SmallVector<IteratorType> iters(4, IteratorType::parallel);
    iters.push_back(IteratorType::reduction);
    return linalg::GenericOp::create(
               ib, acc.getType(), ValueRange{in0, in1}, ValueRange{acc}, maps,
               iters,
               [&](OpBuilder &nb, Location loc, ValueRange a) {
                 ImplicitLocOpBuilder b(loc, nb);
                 Value prod = arith::MulFOp::create(
                     b, arith::MulFOp::create(b, a[0], a[1]),
                     arith::ConstantOp::create(b, b.getF32FloatAttr(scale)));
                 linalg::YieldOp::create(
                     b, ValueRange{arith::AddFOp::create(b, a[2], prod)});
               })
        .getResult(0);
  }
};

/// The forward form without its chunk_states result.
Operation *withoutChunkStates(PatternRewriter &rewriter, SsdOp op) {
  ValueRange outs = op.getOuts();
  return SsdOp::create(rewriter, op.getLoc(), op.getX(), op.getLogA(),
                       op.getB(), op.getC(), op.getInit(), outs[0], outs[1],
                       op.getChunkSize());
}
Operation *withoutChunkStates(PatternRewriter &rewriter,
                              LinearAttentionOp op) {
  ValueRange outs = op.getOuts();
  return LinearAttentionOp::create(
      rewriter, op.getLoc(), op.getQ(), op.getK(), op.getV(), op.getLogDecay(),
      op.getInit(), outs[0], outs[1], op.getChunkSize(), op.getWindow(),
      op.getScale().convertToFloat());
}

/// A forward scan whose chunk_states result nothing reads (the backward
/// that read them became forward scans, which recompute what they need)
/// loses it: the scalar loops of the naive pipeline do not record them.
template <typename OpTy>
struct DropUnreadChunkStates : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Value states = op.getChunkStates();
    if (!states || !states.use_empty())
      return rewriter.notifyMatchFailure(op, "no unread chunk_states");
    Operation *plain = withoutChunkStates(rewriter, op);
    rewriter.replaceAllUsesWith(op->getResult(0), plain->getResult(0));
    rewriter.replaceAllUsesWith(op->getResult(1), plain->getResult(1));
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::mixer::populateDecomposeScanBackwardPatterns(
    RewritePatternSet &patterns, bool ssdBackwardToScans) {
  patterns.add<DecomposeLinearAttentionBackward,
               DropUnreadChunkStates<SsdOp>,
               DropUnreadChunkStates<LinearAttentionOp>>(
      patterns.getContext());
  if (ssdBackwardToScans)
    patterns.add<DecomposeSsdBackward>(patterns.getContext());
}
