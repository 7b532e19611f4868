//===- KernelBackwardToLinalg.cpp - point gradients of the kernel sums ----===//
//
// mixer.kernel_mv_point_grad and mixer.kernel_lse_point_grad, in the row
// and column blocks of the forward sums (KernelBlocks.h), per batch entry
// and per block of R rows of x:
//
//   xb = the R rows of x (centred when r^2 is expanded), s = 0 [R], t = 0 [R,
//   D] for each block of Cb columns of y (full blocks, then one padded tail):
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
  return reduceBlock(
      lb, block, acc, /*reducedDim=*/1,
      [](OpBuilder &nb, Location loc, Value x, Value sum) -> Value {
        return arith::AddFOp::create(nb, loc, sum, x);
      });
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

static SmallVector<Value> lowerKernelMvPointGrad(KernelMvPointGradOp op,
                                                 ImplicitLocOpBuilder &b) {
  Type f32 = b.getF32Type();
  KernelKind kind = op.getKernel();
  Value v = op.getV(), dout = op.getDout();
  bool distance = isDistanceBased(kind);
  Value coef = kernelMvCoefficient(b, kind, op.getBandwidth());
  BlockedKernel k(b, op, kind, op.getX(), op.getY(), op.isBatched(),
                  /*centred=*/distance);
  int64_t R = k.R, Cb = k.Cb, D = k.D, C = valueColumns(v, k.batched);

  auto columnStep = [&](ColumnBlock &col, Value xb, Value xn, Value db,
                        ValueRange state) -> SmallVector<Value> {
    LinalgBuilder &clb = col.lb();
    ImplicitLocOpBuilder &cb = col.b();
    Value yb = col.yRows();
    // Padded rows of v are zero, so G (and W) vanish on padded columns.
    Value vT = clb.transpose(col.rowsOf(v, C, 0.0));
    Value G = clb.contract(
        db, vT, clb.filled({cb.getIndexAttr(R), cb.getIndexAttr(Cb)}, f32, 0.0),
        Lhs::RowMajor);
    if (!distance)
      return {state[0], clb.contract(G, yb, state[1], Lhs::RowMajor)};
    DistanceBlock dist =
        col.blk.distances(xb, clb.transpose(yb), xn, Value()).stored(clb);
    SmallVector<Value> ins = {G};
    SmallVector<AffineMap> maps = {clb.dims(2, {0, 1})};
    dist.addInputs(clb, ins, maps, /*inPlace=*/true);
    Value W = clb.map(
        ins, maps, dist.init(clb),
        [&](ImplicitLocOpBuilder &ib, ValueRange args) {
          Value r2 = dist.r2(ib, args.slice(1, args.size() - 2), args.back());
          Value slope =
              kernelSlopeOfSquaredDistance(ib, ib.getLoc(), kind, coef, r2);
          return arith::MulFOp::create(ib, args[0], slope).getResult();
        });
    return {addRowSums(clb, W, state[0]),
            clb.contract(W, yb, state[1], Lhs::RowMajor)};
  };

  auto rowStep = [&](RowBlock &row, ValueRange outs) -> SmallVector<Value> {
    LinalgBuilder &rlb = row.lb();
    ImplicitLocOpBuilder &rb = row.b();
    Value xb, xn;
    std::tie(xb, xn) = row.xRows();
    Value db = row.rowsOf(dout, C, 0.0);
    SmallVector<Value> st = {
        rlb.filled({rb.getIndexAttr(R)}, f32, 0.0),
        rlb.filled({rb.getIndexAttr(R), rb.getIndexAttr(D)}, f32, 0.0)};
    st = k.overColumns(row, st, [&](ColumnBlock &col, ValueRange state) {
      return columnStep(col, xb, xn, db, state);
    });
    Value init = row.resultInit(outs[0], {D});
    Value dx = distance
                   ? pointGradient(rlb, st[0], xb, st[1], 2.0, Value(), init)
                   : rlb.copy(st[1], init);
    return {row.write(dx, outs[0], {D})};
  };

  return k.overRows(b, op.getOuts(), rowStep);
}

static SmallVector<Value> lowerKernelLsePointGrad(KernelLsePointGradOp op,
                                                  ImplicitLocOpBuilder &b) {
  Type f32 = b.getF32Type();
  KernelKind kind = op.getKernel();
  Value rowShift = op.getRowShift(), colShift = op.getColShift(),
        colWeight = op.getColWeight();
  Value eps = tensor::ExtractOp::create(b, op.getEps(), ValueRange{});
  Value coef = negCostCoefficient(b, b.getLoc(), kind, eps);
  Value negInvEps = arith::DivFOp::create(b, f32Const(b, -1.0), eps);
  BlockedKernel k(b, op, kind, op.getX(), op.getY(), op.isBatched());
  int64_t R = k.R, D = k.D;

  auto columnStep = [&](ColumnBlock &col, Value xb, Value xn, Value ab,
                        ValueRange state) -> SmallVector<Value> {
    LinalgBuilder &clb = col.lb();
    Value yb = col.yRows();
    // Padded columns: b = -inf and w = 0, so Q vanishes there.
    Value bb = col.entriesOf(colShift, -kInf);
    Value wb = col.entriesOf(colWeight, 0.0);
    DistanceBlock dist =
        col.blk.distances(xb, clb.transpose(yb), xn, Value()).stored(clb);
    SmallVector<Value> ins = {ab, bb, wb};
    SmallVector<AffineMap> maps = {clb.dims(2, {0}), clb.dims(2, {1}),
                                   clb.dims(2, {1})};
    dist.addInputs(clb, ins, maps, /*inPlace=*/false);
    // Q = w_j exp(min(-c / eps + a_i + b_j, 0)).
    Value Q =
        clb.map(ins, maps, clb.empty(clb.sizesOf(dist.values), f32),
                [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                  Value r2 = dist.r2(ib, args.slice(3, args.size() - 4));
                  Value s = arith::AddFOp::create(
                      ib, negScaledCost(ib, ib.getLoc(), kind, coef, r2),
                      arith::AddFOp::create(ib, args[0], args[1]));
                  return arith::MulFOp::create(
                             ib, args[2], expOfNonPositive(ib, ib.getLoc(), s))
                      .getResult();
                });
    // W = Q f(r2), computed in place of the distance block.
    SmallVector<Value> wIns = {Q};
    SmallVector<AffineMap> wMaps = {clb.dims(2, {0, 1})};
    dist.addInputs(clb, wIns, wMaps, /*inPlace=*/true);
    Value W =
        clb.map(wIns, wMaps, dist.init(clb),
                [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                  Value r2 =
                      dist.r2(ib, args.slice(1, args.size() - 2), args.back());
                  Value f = costGradientFactor(ib, ib.getLoc(), kind, r2);
                  return arith::MulFOp::create(ib, args[0], f).getResult();
                });
    return {addRowSums(clb, W, state[0]),
            clb.contract(W, yb, state[1], Lhs::RowMajor),
            addRowSums(clb, Q, state[2])};
  };

  auto rowStep = [&](RowBlock &row, ValueRange outs) -> SmallVector<Value> {
    LinalgBuilder &rlb = row.lb();
    ImplicitLocOpBuilder &rb = row.b();
    Value xb, xn;
    std::tie(xb, xn) = row.xRows();
    // Padded rows: a = -inf, so Q vanishes there.
    Value ab = row.entriesOf(rowShift, -kInf);
    OpFoldResult cR = rb.getIndexAttr(R), cD = rb.getIndexAttr(D);
    SmallVector<Value> st = {rlb.filled({cR}, f32, 0.0),
                             rlb.filled({cR, cD}, f32, 0.0),
                             rlb.filled({cR}, f32, 0.0)};
    st = k.overColumns(row, st, [&](ColumnBlock &col, ValueRange state) {
      return columnStep(col, xb, xn, ab, state);
    });
    Value gradOut = outs[0], sumsOut = outs[1];
    Value grad = pointGradient(rlb, st[0], xb, st[1], 0.0, negInvEps,
                               row.resultInit(gradOut, {D}));
    // The sums are copied into the rows of `sums` when the block is whole;
    // a ragged block's valid rows are copied out by `write`.
    Value sums =
        row.ragged ? st[2] : rlb.copy(st[2], row.resultInit(sumsOut, {}));
    return {row.write(grad, gradOut, {D}), row.write(sums, sumsOut, {})};
  };

  return k.overRows(b, op.getOuts(), rowStep);
}

void mlir::mixer::populateKernelBackwardToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns
      .add<BlockedKernelPattern<KernelMvPointGradOp, lowerKernelMvPointGrad>,
           BlockedKernelPattern<KernelLsePointGradOp, lowerKernelLsePointGrad>>(
          patterns.getContext());
}
