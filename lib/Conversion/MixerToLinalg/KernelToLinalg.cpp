//===- KernelToLinalg.cpp - kernel reductions as blocked linalg -----------===//
//
// mixer.kernel_lse, mixer.kernel_mv and mixer.transport_cost, per batch
// entry and per block of R rows of x (one block per tile after
// mixer-tile-parallel-dims):
//
//   xb = the R rows of x, packed (zero-padded when the block is ragged)
//   for each block of Cb columns of y (full blocks, then one padded tail):
//     r2 = sum_d (x_id - y_jd)^2   for D <= 8 (and laplacian, matern32), else
//     r2 = max(|x_i|^2 + |y_j|^2 - 2 <x_i, y_j>, 0)    from one contraction,
//          x and y centred on the mean of y first
//     kernel_lse: the block transposed, s^T[j, i] = -c(r2) / eps + g[j]
//       (y_blk x_blk^T with x_blk^T packed once), and its block max in the
//       same pass, then the online log-sum-exp per row, reducing over the
//       block's outer dim j:
//       m' = max(m, max_j s), sum = sum exp(m - m') + sum_j exp(s - m')
//     kernel_mv: K[i, j] = k(r2) (linear: the dot itself) from x_blk y_blk^T,
//       acc += K v[block]
//     transport_cost: the block transposed as for kernel_lse,
//       acc[i] += sum_j exp(u_i + v_j - c(r2) / eps) c(r2)
//
// The expansion is what makes large D fast (a blocked contraction), but it
// rounds by about 1e-7 |x|^2: centring keeps that to the spread of the
// points, and the direct sum keeps small distances (and zero ones) exact
// where the contraction would not pay for itself.
//
// The N x M cost or kernel matrix is never formed: only R x Cb blocks. Every
// shape inside the column loop is static, so that mixer-vectorize-cpu turns
// the contractions into FMAs and the maps and row reductions into vector
// rows. The tail block pads y with zero points and g or log_v with -inf
// (kernel_lse, transport_cost) or v with zero rows (kernel_mv), so padded
// columns add nothing. The exps of kernel_lse and kernel_mv are of values
// clamped to <= 0; those of transport_cost are entries of the plan.
//
//===----------------------------------------------------------------------===//

#include "KernelBlocks.h"
#include "MixerToLinalgPatterns.h"
#include "mixer/Utils/KernelMath.h"
#include "mixer/Utils/LinalgBuilder.h"

#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Target/TargetDescription.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

#include <limits>

using namespace mlir;
using namespace mlir::mixer;

//===----------------------------------------------------------------------===//
// kernel_lse
//===----------------------------------------------------------------------===//

static SmallVector<Value> lowerKernelLse(KernelLseOp op,
                                         ImplicitLocOpBuilder &b) {
  Type f32 = b.getF32Type();
  KernelKind kind = op.getKernel();
  Value g = op.getG();

  // s = -c(r^2) / eps + g = coef * (r^2 or r) + g.
  Value eps = tensor::ExtractOp::create(b, op.getEps(), ValueRange{});
  Value coef = negCostCoefficient(b, b.getLoc(), kind, eps);
  BlockedKernel k(b, op, kind, op.getX(), op.getY(), op.isBatched());
  int64_t R = k.R, Cb = k.Cb;

  // One block of columns: updates the running max m and sum of every row.
  // The block is formed transposed, s^T [Cb, R] = y_blk x_blk^T, so that
  // the reductions over the columns j run over its outer dim: vectors of
  // R rows accumulated across j, not horizontal reductions.
  auto columnStep = [&](ColumnBlock &col, Value xT, Value xn,
                        ValueRange state) -> SmallVector<Value> {
    LinalgBuilder &clb = col.lb();
    ImplicitLocOpBuilder &cb = col.b();
    Value m = state[0], sum = state[1], count = col.count;
    // Padded columns are zero points with g = -inf: their terms vanish.
    Value yb = col.yRows();
    Value gb;
    if (g)
      gb = col.entriesOf(g, -kInf);
    else if (col.ragged)
      gb =
          clb.map({}, {}, clb.empty({cb.getIndexAttr(Cb)}, f32),
                  [&](ImplicitLocOpBuilder &ib, ValueRange) {
                    Value j = linalg::IndexOp::create(ib, 0);
                    Value valid = arith::CmpIOp::create(
                        ib, arith::CmpIPredicate::ult, j, count);
                    return arith::SelectOp::create(ib, valid, f32Const(ib, 0.0),
                                                   f32Const(ib, -kInf))
                        .getResult();
                  });
    // s^T[j, i] over the block [Cb, R]: in place of the dot products when
    // r^2 is expanded, else with r^2 summed in the same map.
    DistanceBlock dist = col.blk.distances(yb, xT, Value(), xn);
    SmallVector<Value> ins;
    SmallVector<AffineMap> maps;
    dist.addInputs(clb, ins, maps, /*inPlace=*/true);
    unsigned distInputs = ins.size();
    if (gb) {
      ins.push_back(gb);
      maps.push_back(clb.dims(2, {0}));
    }
    // s^T and the block maximum of each row, in one pass. The max stays
    // x > acc ? x : acc, which mixer-vectorize-cpu leaves to LLVM's loop
    // vectorizer: as arith.maxnumf, a combiner the linalg vectorizer takes,
    // this pass measured 3-7% slower.
    SmallVector<utils::IteratorType> overColumns = {
        utils::IteratorType::reduction, utils::IteratorType::parallel};
    maps.append({clb.dims(2, {0, 1}), clb.dims(2, {1})});
    Value sInit = dist.init(clb);
    Value maxInit = clb.filled({cb.getIndexAttr(R)}, f32, -kInf);
    auto scaled = linalg::GenericOp::create(
        cb, TypeRange{sInit.getType(), maxInit.getType()}, ins,
        ValueRange{sInit, maxInit}, maps, overColumns,
        [&](OpBuilder &nb, Location loc, ValueRange args) {
          ImplicitLocOpBuilder ib(loc, nb);
          Value sOut = args[ins.size()], maxOut = args[ins.size() + 1];
          Value r2 = dist.r2(ib, args.take_front(distInputs), sOut);
          Value v = negScaledCost(ib, loc, kind, coef, r2);
          if (gb)
            v = arith::AddFOp::create(ib, v, args[distInputs]);
          linalg::YieldOp::create(
              ib, ValueRange{v, logSumExpMax(ib, loc, v, maxOut)});
        });
    Value s = scaled.getResult(0), blockMax = scaled.getResult(1);
    // Rescale the running sum to the new maximum, then raise the maximum
    // (both in place).
    sum = clb.map(
        {m, blockMax}, {clb.dims(1, {0}), clb.dims(1, {0})}, sum,
        [&](ImplicitLocOpBuilder &ib, ValueRange args) {
          Value mNew = logSumExpMax(ib, ib.getLoc(), args[1], args[0]);
          Value shift = logSumExpShift(ib, ib.getLoc(), mNew);
          Value scale = expOfNonPositive(
              ib, ib.getLoc(), arith::SubFOp::create(ib, args[0], shift));
          return arith::MulFOp::create(ib, args[2], scale).getResult();
        });
    m = clb.map(
        {blockMax}, {clb.dims(1, {0})}, m,
        [&](ImplicitLocOpBuilder &ib, ValueRange args) {
          return logSumExpMax(ib, ib.getLoc(), args[0], args[1]);
        });
    // sum[i] += sum_j exp(s^T[j, i] - m[i]).
    sum = linalg::GenericOp::create(
              cb, TypeRange{sum.getType()}, ValueRange{s, m}, ValueRange{sum},
              ArrayRef<AffineMap>{clb.dims(2, {0, 1}), clb.dims(2, {1}),
                                  clb.dims(2, {1})},
              overColumns,
              [&](OpBuilder &nb, Location loc, ValueRange args) {
                ImplicitLocOpBuilder ib(loc, nb);
                Value e = expOfNonPositive(
                    ib, loc,
                    arith::SubFOp::create(ib, args[0],
                                          logSumExpShift(ib, loc, args[1])));
                linalg::YieldOp::create(
                    ib, arith::AddFOp::create(ib, args[2], e).getResult());
              })
              .getResult(0);
    return {m, sum};
  };

  // One block of rows: returns `out` with the block's results inserted.
  auto rowStep = [&](RowBlock &row, ValueRange outs) -> SmallVector<Value> {
    LinalgBuilder &rlb = row.lb();
    ImplicitLocOpBuilder &rb = row.b();
    Value out = outs[0];
    // x_blk^T [D, R]: the right-hand side of every block's distances.
    Value xT, xn;
    std::tie(xT, xn) = row.xRowsTransposed();
    Value m = rlb.filled({rb.getIndexAttr(R)}, f32, -kInf);
    Value sum = rlb.filled({rb.getIndexAttr(R)}, f32, 0.0);
    SmallVector<Value> state =
        k.overColumns(row, {m, sum}, [&](ColumnBlock &col, ValueRange acc) {
          return columnStep(col, xT, xn, acc);
        });
    // out = m + log(sum): -inf for an empty or all -inf row. Computed
    // straight into the rows of `out`, so that a loop-carried `out` (as in
    // sinkhorn) stays in place whatever canonicalization folds later (a
    // vectorized copy into a whole tensor folds to its source).
    auto lseOf = [](ImplicitLocOpBuilder &ib, ValueRange args) {
      return arith::AddFOp::create(ib, args[0],
                                   math::LogOp::create(ib, args[1]))
          .getResult();
    };
    if (!row.ragged) {
      Value res = rlb.map(state, {rlb.dims(1, {0}), rlb.dims(1, {0})},
                          row.resultInit(out, {}), lseOf);
      return {row.write(res, out, {})};
    }
    SmallVector<Value> valid;
    for (Value v : state)
      valid.push_back(rlb.slice(v, {rb.getIndexAttr(0)}, {row.rowCount},
                                {ShapedType::kDynamic}));
    auto [offsets, sizes] = row.blk.rowsOf(row.batch, row.r0, row.rowCount, {});
    Value res =
        rlb.map(valid, {rlb.dims(1, {0}), rlb.dims(1, {0})},
                rlb.slice(out, offsets, sizes, {ShapedType::kDynamic}), lseOf);
    return {rlb.insert(res, out, offsets, sizes)};
  };

  return k.overRows(b, op.getOuts(), rowStep);
}

//===----------------------------------------------------------------------===//
// kernel_mv
//===----------------------------------------------------------------------===//

static SmallVector<Value> lowerKernelMv(KernelMvOp op,
                                        ImplicitLocOpBuilder &b) {
  Type f32 = b.getF32Type();
  KernelKind kind = op.getKernel();
  Value v = op.getV();
  bool distance = isDistanceBased(kind);
  Value coef = kernelMvCoefficient(b, kind, op.getBandwidth());
  BlockedKernel k(b, op, kind, op.getX(), op.getY(), op.isBatched(),
                  /*centred=*/distance);
  int64_t R = k.R, Cb = k.Cb, C = valueColumns(v, k.batched);

  // One block of columns: acc += K v[block], K the R x Cb kernel block.
  auto columnStep = [&](ColumnBlock &col, Value xb, Value xn,
                        ValueRange state) -> SmallVector<Value> {
    LinalgBuilder &clb = col.lb();
    ImplicitLocOpBuilder &cb = col.b();
    KernelBlocks &blk = col.blk;
    Value yT = blk.centredIfExpanded(
        blk.packColumnsT(col.batch, col.j0, col.count, col.ragged),
        /*pointDim=*/0);
    // Padded rows of v are zero: the (finite) kernel values of the padded
    // columns add nothing.
    Value vb;
    if (col.ragged) {
      vb = col.rowsOf(v, C, 0.0);
    } else {
      vb = clb.slice(
          v, blk.withBatch(col.batch, {col.j0, cb.getIndexAttr(0)}, false),
          blk.withBatch(col.batch, {cb.getIndexAttr(Cb), cb.getIndexAttr(C)},
                        true),
          {Cb, C});
    }
    Value K;
    if (distance) {
      DistanceBlock dist = blk.distances(xb, yT, xn, Value()).stored(clb);
      SmallVector<Value> ins;
      SmallVector<AffineMap> maps;
      dist.addInputs(clb, ins, maps, /*inPlace=*/true);
      K = clb.map(ins, maps, dist.init(clb),
                  [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                    Value r2 = dist.r2(ib, args.drop_back(), args.back());
                    return kernelOfSquaredDistance(ib, ib.getLoc(), kind, coef,
                                                   r2);
                  });
    } else {
      K = clb.contract(
          xb, yT,
          clb.filled({cb.getIndexAttr(R), cb.getIndexAttr(Cb)}, f32, 0.0),
          Lhs::RowMajor);
    }
    return {clb.contract(K, vb, state[0], Lhs::RowMajor)};
  };

  auto rowStep = [&](RowBlock &row, ValueRange outs) -> SmallVector<Value> {
    Value xb, xn;
    std::tie(xb, xn) = row.xRows();
    // The output block accumulates in place in `out` when the block is
    // whole, else in a local buffer whose valid rows are copied out once.
    Value acc = k.overColumns(row, {row.zeros(outs[0], {C})},
                              [&](ColumnBlock &col, ValueRange state) {
                                return columnStep(col, xb, xn, state);
                              })[0];
    return {row.write(acc, outs[0], {C})};
  };

  return k.overRows(b, op.getOuts(), rowStep);
}

//===----------------------------------------------------------------------===//
// transport_cost
//===----------------------------------------------------------------------===//

static SmallVector<Value> lowerTransportCost(TransportCostOp op,
                                             ImplicitLocOpBuilder &b) {
  KernelKind kind = op.getCost();
  Value logU = op.getLogU(), logV = op.getLogV();
  Value eps = tensor::ExtractOp::create(b, op.getEps(), ValueRange{});
  Value invEps = arith::DivFOp::create(b, f32Const(b, 1.0), eps);
  BlockedKernel k(b, op, kind, op.getX(), op.getY(), op.isBatched());

  // One block of columns: acc[i] += sum_j exp(u_i + v_j - C_ij / eps) C_ij.
  // As in kernel_lse the block is formed transposed, [Cb, R], so that the
  // sum over the columns j runs over its outer dim.
  auto columnStep = [&](ColumnBlock &col, Value xT, Value xn, Value ub,
                        ValueRange state) -> SmallVector<Value> {
    LinalgBuilder &clb = col.lb();
    ImplicitLocOpBuilder &cb = col.b();
    // Padded columns are zero points with log_v = -inf: their terms vanish.
    Value yb = col.yRows();
    Value vb = col.entriesOf(logV, -kInf);
    DistanceBlock dist = col.blk.distances(yb, xT, Value(), xn).stored(clb);
    SmallVector<Value> ins;
    SmallVector<AffineMap> maps;
    dist.addInputs(clb, ins, maps, /*inPlace=*/false);
    unsigned distInputs = ins.size();
    ins.append({vb, ub});
    maps.append({clb.dims(2, {0}), clb.dims(2, {1})});
    Value acc = state[0];
    maps.push_back(clb.dims(2, {1}));
    return {
        linalg::GenericOp::create(
            cb, acc.getType(), ins, ValueRange{acc}, maps,
            ArrayRef<utils::IteratorType>{utils::IteratorType::reduction,
                                          utils::IteratorType::parallel},
            [&](OpBuilder &nb, Location loc, ValueRange a) {
              ImplicitLocOpBuilder ib(loc, nb);
              Value r2 = dist.r2(ib, a.take_front(distInputs));
              Value vj = a[distInputs], ui = a[distInputs + 1];
              Value c = costOfSquaredDistance(ib, loc, kind, r2);
              Value arg =
                  arith::SubFOp::create(ib, arith::AddFOp::create(ib, ui, vj),
                                        arith::MulFOp::create(ib, c, invEps));
              Value term =
                  arith::MulFOp::create(ib, math::ExpOp::create(ib, arg), c);
              linalg::YieldOp::create(
                  ib, arith::AddFOp::create(ib, a.back(), term).getResult());
            })
            .getResult(0)};
  };

  auto rowStep = [&](RowBlock &row, ValueRange outs) -> SmallVector<Value> {
    Value xT, xn;
    std::tie(xT, xn) = row.xRowsTransposed();
    // Padded rows get log_u = -inf: their terms vanish.
    Value ub = row.entriesOf(logU, -kInf);
    // Accumulated in place in `out` when the block is whole, else in a
    // local block whose valid rows are copied out once.
    Value acc = k.overColumns(row, {row.zeros(outs[0], {})},
                              [&](ColumnBlock &col, ValueRange state) {
                                return columnStep(col, xT, xn, ub, state);
                              })[0];
    return {row.write(acc, outs[0], {})};
  };

  return k.overRows(b, op.getOuts(), rowStep);
}

void mlir::mixer::populateKernelToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<BlockedKernelPattern<KernelLseOp, lowerKernelLse>,
               BlockedKernelPattern<KernelMvOp, lowerKernelMv>,
               BlockedKernelPattern<TransportCostOp, lowerTransportCost>>(
      patterns.getContext());
}
