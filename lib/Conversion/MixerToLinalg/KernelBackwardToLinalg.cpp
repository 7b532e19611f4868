//===- KernelBackwardToLinalg.cpp - point gradients of the kernel sums ----===//
//
// mixer.kernel_mv_point_grad and mixer.kernel_lse_point_grad, in the row
// and column blocks of the forward sums (KernelBlocks.h), per batch entry
// and per block of R rows of x:
//
//   xb = the R rows of x (centred when r^2 is expanded), s = 0 [R], t = 0 [R, D]
//   for each block of Cb columns of y (full blocks, then one padded tail):
//     r2 = the squared distances of the block, as in the forward
//     kernel_mv_point_grad:
//       G = dout_blk v_blk^T                      [R, C] x [C, Cb]
//       W = G * dk/d(r^2)(r2)   (linear kernel: W = G)
//     kernel_lse_point_grad:
//       Q = w_j exp(min(-c(r2) / eps + a_i + b_j, 0)),  sums += sum_j Q
//       W = Q * f(r2)   (grad_x c = f (x - y))
//     s += sum_j W,  t += W y_blk                 [R, Cb] x [Cb, D]
//   kernel_mv_point_grad: dx = 2 (s x - t)   (linear kernel: dx = t)
//   kernel_lse_point_grad: grad = -(s x - t) / eps
//
// s x - t = sum_j W_ij (x_i - y_j) is the same about any centre, so the
// centred blocks serve as they are. Padded columns have zero rows of v
// (G = 0) or b = -inf and w = 0 (Q = 0): they add nothing. Only R x Cb
// blocks are formed, never N x M.
//
//===----------------------------------------------------------------------===//

#include "KernelBlocks.h"
#include "MixerToLinalgPatterns.h"

#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Target/TargetDescription.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::mixer;

/// acc[i] += sum_j block[i, j] for a static [R, Cb] block.
static Value addRowSums(LinalgBuilder &lb, Value block, Value acc) {
  ImplicitLocOpBuilder &b = lb.builder();
  return linalg::GenericOp::create(
             b, TypeRange{acc.getType()}, ValueRange{block}, ValueRange{acc},
             ArrayRef<AffineMap>{lb.dims(2, {0, 1}), lb.dims(2, {0})},
             ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                           utils::IteratorType::reduction},
             [](OpBuilder &nb, Location loc, ValueRange args) {
               linalg::YieldOp::create(
                   nb, loc,
                   arith::AddFOp::create(nb, loc, args[1], args[0])
                       .getResult());
             })
      .getResult(0);
}

/// scale * (s_i x_i - t_i) into `init` [R, D].
static Value pointGradient(LinalgBuilder &lb, Value s, Value xb, Value t,
                           double scale, Value scaleValue, Value init) {
  AffineMap row = lb.dims(2, {0}), id = lb.dims(2, {0, 1});
  return lb.map({s, xb, t}, {row, id, id}, init,
                [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                  Value diff = arith::SubFOp::create(
                      ib, arith::MulFOp::create(ib, args[0], args[1]), args[2]);
                  Value c = scaleValue ? scaleValue : f32Const(ib, scale);
                  return arith::MulFOp::create(ib, c, diff).getResult();
                });
}

namespace {

struct KernelMvPointGradToLinalg
    : public OpRewritePattern<KernelMvPointGradOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(KernelMvPointGradOp op,
                                PatternRewriter &rewriter) const override {
    if (std::optional<std::string> blocker = getLinalgLoweringBlocker(op))
      return rewriter.notifyMatchFailure(op, *blocker);
    bool batched = op.isBatched();
    int64_t D = pointDim(op.getX(), batched);
    int64_t C =
        cast<RankedTensorType>(op.getV().getType()).getDimSize(batched ? 2 : 1);

    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    int64_t R = rowBlockSize(op.getX(), batched ? 1 : 0),
            Cb = lookupTargetDescription(op).kernelColumnBlock;
    Type f32 = b.getF32Type();
    KernelKind kind = op.getKernel();
    Value x = op.getX(), y = op.getY(), v = op.getV(), dout = op.getDout();
    bool distance = isDistanceBased(kind);

    Value coef;
    if (distance) {
      Value h = tensor::ExtractOp::create(b, op.getBandwidth(), ValueRange{});
      coef = kernelCoefficient(b, b.getLoc(), kind, h);
    }
    Value centres = distance ? pointCentres(b, kind, y, batched, D) : Value();
    BlockLoops loops(b, x, y, batched, R, Cb);

    auto columnStep = [&](LinalgBuilder &clb, Value batch, Value centre,
                          Value xb, Value xn, Value db, Value j0, Value count,
                          bool ragged, ValueRange state) -> SmallVector<Value> {
      ImplicitLocOpBuilder &cb = clb.builder();
      KernelBlocks blk{clb, x, y, batched, D, R, Cb, centre};
      Value yb = blk.yRows(batch, j0, count, ragged);
      // Padded rows of v are zero, so G (and W) vanish on padded columns.
      Value vT = clb.transpose(
          blk.packRows(v, batch, j0, count, Cb, C, ragged, 0.0));
      Value G = clb.contract(
          db, vT, clb.filled({cb.getIndexAttr(R), cb.getIndexAttr(Cb)}, f32, 0.0),
          Lhs::RowMajor);
      if (!distance)
        return {state[0], clb.contract(G, yb, state[1], Lhs::RowMajor)};
      DistanceBlock dist = blk.distances(xb, clb.transpose(yb), xn, Value());
      SmallVector<Value> ins = {G};
      SmallVector<AffineMap> maps = {clb.dims(2, {0, 1})};
      dist.addNormInputs(clb, ins, maps);
      Value W = clb.map(ins, maps, dist.values,
                        [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                          Value r2 = dist.r2(ib, args.back(),
                                             args.slice(1, args.size() - 2));
                          Value slope = kernelSlopeOfSquaredDistance(
                              ib, ib.getLoc(), kind, coef, r2);
                          return arith::MulFOp::create(ib, args[0], slope)
                              .getResult();
                        });
      return {addRowSums(clb, W, state[0]),
              clb.contract(W, yb, state[1], Lhs::RowMajor)};
    };

    auto rowStep = [&](LinalgBuilder &rlb, Value batch, Value r0, Value rows,
                       OpFoldResult rowCount, Value out) -> Value {
      ImplicitLocOpBuilder &rb = rlb.builder();
      Value centre = centreOf(rlb, centres, batch, D);
      KernelBlocks blk{rlb, x, y, batched, D, R, Cb, centre};
      Value xb = blk.xRows(batch, r0, rows, loops.raggedRows);
      Value xn = centre ? squaredNorms(rlb, xb, /*reducedDim=*/1) : Value();
      Value db = blk.packRows(dout, batch, r0, rows, R, C, loops.raggedRows,
                              0.0);
      SmallVector<Value> st = {
          rlb.filled({rb.getIndexAttr(R)}, f32, 0.0),
          rlb.filled({rb.getIndexAttr(R), rb.getIndexAttr(D)}, f32, 0.0)};
      st = loops.overColumns(rb, st,
                             [&](LinalgBuilder &clb, Value j0, Value count,
                                 bool ragged, ValueRange state) {
                               return columnStep(clb, batch, centre, xb, xn, db,
                                                 j0, count, ragged, state);
                             });
      Value init = loops.raggedRows
                       ? rlb.empty({rb.getIndexAttr(R), rb.getIndexAttr(D)}, f32)
                       : blk.outRows(out, batch, r0, {D});
      Value dx = distance
                     ? pointGradient(rlb, st[0], xb, st[1], 2.0, Value(), init)
                     : rlb.copy(st[1], init);
      if (!loops.raggedRows)
        return blk.insertRows(dx, out, batch, r0, {D});
      return blk.writeRaggedRows(dx, out, batch, r0, rowCount, {D});
    };

    rewriter.replaceOp(op, loops.overRows(b, op.getOuts()[0], rowStep));
    return success();
  }
};

struct KernelLsePointGradToLinalg
    : public OpRewritePattern<KernelLsePointGradOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(KernelLsePointGradOp op,
                                PatternRewriter &rewriter) const override {
    if (std::optional<std::string> blocker = getLinalgLoweringBlocker(op))
      return rewriter.notifyMatchFailure(op, *blocker);
    bool batched = op.isBatched();
    int64_t D = pointDim(op.getX(), batched);

    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    int64_t R = rowBlockSize(op.getX(), batched ? 1 : 0),
            Cb = lookupTargetDescription(op).kernelColumnBlock;
    Type f32 = b.getF32Type();
    KernelKind kind = op.getKernel();
    Value x = op.getX(), y = op.getY(), rowShift = op.getRowShift(),
          colShift = op.getColShift(), colWeight = op.getColWeight();
    Value eps = tensor::ExtractOp::create(b, op.getEps(), ValueRange{});
    Value coef = negCostCoefficient(b, b.getLoc(), kind, eps);
    Value negInvEps = arith::DivFOp::create(b, f32Const(b, -1.0), eps);
    Value centres = pointCentres(b, kind, y, batched, D);
    BlockLoops loops(b, x, y, batched, R, Cb);

    auto columnStep = [&](LinalgBuilder &clb, Value batch, Value centre,
                          Value xb, Value xn, Value ab, Value j0, Value count,
                          bool ragged, ValueRange state) -> SmallVector<Value> {
      KernelBlocks blk{clb, x, y, batched, D, R, Cb, centre};
      Value yb = blk.yRows(batch, j0, count, ragged);
      // Padded columns: b = -inf and w = 0, so Q vanishes there.
      Value bb = blk.packVector(colShift, batch, j0, count, Cb, ragged, -kInf);
      Value wb = blk.packVector(colWeight, batch, j0, count, Cb, ragged, 0.0);
      DistanceBlock dist = blk.distances(xb, clb.transpose(yb), xn, Value());
      unsigned norms = dist.numNormInputs();
      SmallVector<Value> ins = {ab, bb, wb, dist.values};
      SmallVector<AffineMap> maps = {clb.dims(2, {0}), clb.dims(2, {1}),
                                     clb.dims(2, {1}), clb.dims(2, {0, 1})};
      dist.addNormInputs(clb, ins, maps);
      // Q = w_j exp(min(-c / eps + a_i + b_j, 0)).
      Value Q = clb.map(
          ins, maps, clb.empty(clb.sizesOf(dist.values), f32),
          [&](ImplicitLocOpBuilder &ib, ValueRange args) {
            Value r2 = dist.r2(ib, args[3], args.slice(4, norms));
            Value s = arith::AddFOp::create(
                ib, negScaledCost(ib, ib.getLoc(), kind, coef, r2),
                arith::AddFOp::create(ib, args[0], args[1]));
            return arith::MulFOp::create(ib, args[2],
                                         expOfNonPositive(ib, ib.getLoc(), s))
                .getResult();
          });
      // W = Q f(r2), computed in place of the distance block.
      SmallVector<Value> wIns = {Q};
      SmallVector<AffineMap> wMaps = {clb.dims(2, {0, 1})};
      dist.addNormInputs(clb, wIns, wMaps);
      Value W = clb.map(wIns, wMaps, dist.values,
                        [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                          Value r2 = dist.r2(ib, args.back(),
                                             args.slice(1, norms));
                          Value f = costGradientFactor(ib, ib.getLoc(), kind, r2);
                          return arith::MulFOp::create(ib, args[0], f)
                              .getResult();
                        });
      return {addRowSums(clb, W, state[0]),
              clb.contract(W, yb, state[1], Lhs::RowMajor),
              addRowSums(clb, Q, state[2])};
    };

    auto rowStep = [&](LinalgBuilder &rlb, Value batch, Value r0, Value rows,
                       OpFoldResult rowCount,
                       ValueRange outs) -> SmallVector<Value> {
      ImplicitLocOpBuilder &rb = rlb.builder();
      Value centre = centreOf(rlb, centres, batch, D);
      KernelBlocks blk{rlb, x, y, batched, D, R, Cb, centre};
      Value xb = blk.xRows(batch, r0, rows, loops.raggedRows);
      Value xn = centre ? squaredNorms(rlb, xb, /*reducedDim=*/1) : Value();
      // Padded rows: a = -inf, so Q vanishes there.
      Value ab = blk.packVector(rowShift, batch, r0, rows, R, loops.raggedRows,
                                -kInf);
      OpFoldResult cR = rb.getIndexAttr(R), cD = rb.getIndexAttr(D);
      SmallVector<Value> st = {rlb.filled({cR}, f32, 0.0),
                               rlb.filled({cR, cD}, f32, 0.0),
                               rlb.filled({cR}, f32, 0.0)};
      st = loops.overColumns(rb, st,
                             [&](LinalgBuilder &clb, Value j0, Value count,
                                 bool ragged, ValueRange state) {
                               return columnStep(clb, batch, centre, xb, xn, ab,
                                                 j0, count, ragged, state);
                             });
      Value gradOut = outs[0], sumsOut = outs[1];
      if (!loops.raggedRows) {
        Value grad =
            pointGradient(rlb, st[0], xb, st[1], 0.0, negInvEps,
                          blk.outRows(gradOut, batch, r0, {D}));
        Value sums = rlb.copy(st[2], blk.outRows(sumsOut, batch, r0, {}));
        return {blk.insertRows(grad, gradOut, batch, r0, {D}),
                blk.insertRows(sums, sumsOut, batch, r0, {})};
      }
      Value grad = pointGradient(rlb, st[0], xb, st[1], 0.0, negInvEps,
                                 rlb.empty({cR, cD}, f32));
      return {blk.writeRaggedRows(grad, gradOut, batch, r0, rowCount, {D}),
              blk.writeRaggedRows(st[2], sumsOut, batch, r0, rowCount, {})};
    };

    rewriter.replaceOp(op, loops.overRows(b, op.getOuts(), rowStep));
    return success();
  }
};

} // namespace

void mlir::mixer::populateKernelBackwardToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<KernelMvPointGradToLinalg, KernelLsePointGradToLinalg>(
      patterns.getContext());
}
