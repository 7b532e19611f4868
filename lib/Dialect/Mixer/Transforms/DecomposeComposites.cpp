//===- DecomposeComposites.cpp - composite mixer ops to their parts -------===//
//
// mixer.sinkhorn becomes an scf.for over its iterations of two
// mixer.kernel_lse ops (which the pipeline then tiles and lowers) and
// elementwise linalg ops, with g starting at 0:
//
//   f = -eps * kernel_lse(x, y, g / eps + log_b)
//   g = -eps * kernel_lse(y, x, f / eps + log_a)
//
// carried as the log-sums L_f, L_g themselves (f = -eps L_f, g / eps =
// -L_g), scaled by -eps once after the loop.
//
// then the transport cost from the final potentials, in one parallel pass
// over blocks of rows of x, each a loop over blocks of columns of y of
// static linalg ops (the N x M plan is never formed):
//
//   cost = sum_i sum_j P_ij C_ij,
//   P_ij = exp((f_i + g_j - C_ij) / eps + log_a_i + log_b_j).
//
// All three costs are symmetric, so the g update is the f update with x
// and y exchanged. The `outs` tensors of the op carry f and g.
//
//===----------------------------------------------------------------------===//

#include "mixer/Utils/KernelMath.h"
#include "mixer/Utils/LinalgBuilder.h"

#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Dialect/Mixer/Transforms/Passes.h"
#include "mixer/Dialect/Mixer/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <limits>

namespace mlir::mixer {
#define GEN_PASS_DEF_MIXERDECOMPOSECOMPOSITESPASS
#include "mixer/Dialect/Mixer/Transforms/Passes.h.inc"
} // namespace mlir::mixer

using namespace mlir;
using namespace mlir::mixer;

namespace {

/// A parallel 1-D linalg.generic over `init` (identity maps everywhere) with
/// `body` mapping the input scalars and the init scalar (last) to the result.
Value map1d(ImplicitLocOpBuilder &b, ValueRange inputs, Value init,
            function_ref<Value(ImplicitLocOpBuilder &, ValueRange)> body) {
  AffineMap id = b.getDimIdentityMap();
  SmallVector<AffineMap> maps(inputs.size() + 1, id);
  return linalg::GenericOp::create(
             b, init.getType(), inputs, ValueRange{init}, maps,
             ArrayRef<utils::IteratorType>{utils::IteratorType::parallel},
             [&](OpBuilder &nb, Location loc, ValueRange args) {
               ImplicitLocOpBuilder ib(loc, nb);
               linalg::YieldOp::create(ib, body(ib, args));
             })
      .getResult(0);
}

/// c(x_i, y_j) of `kind` as a scalar, from the rows i of x and j of y.
Value pointCost(ImplicitLocOpBuilder &b, KernelKind kind, Value x, Value i,
                Value y, Value j, Value dims) {
  Value zero = arith::ConstantOp::create(b, b.getF32FloatAttr(0.0));
  Value c0 = arith::ConstantIndexOp::create(b, 0);
  Value c1 = arith::ConstantIndexOp::create(b, 1);
  Value r2 =
      scf::ForOp::create(
          b, c0, dims, c1, ValueRange{zero},
          [&](OpBuilder &nb, Location loc, Value d, ValueRange acc) {
            ImplicitLocOpBuilder ib(loc, nb);
            Value sq = squaredDifference(
                ib, loc, tensor::ExtractOp::create(ib, x, ValueRange{i, d}),
                tensor::ExtractOp::create(ib, y, ValueRange{j, d}));
            scf::YieldOp::create(
                ib, ValueRange{arith::AddFOp::create(ib, acc[0], sq)});
          })
          .getResult(0);
  return costOfSquaredDistance(b, b.getLoc(), kind, r2);
}

/// Rows and columns per block of the transport-cost pass.
constexpr int64_t kCostBlock = 64;

/// rowCosts[i] = sum_j exp(fa_i + gb_j - C_ij / eps) C_ij for x [N, D] with
/// a static D, fa = f / eps + log_a [N], gb = g / eps + log_b [M]: an
/// scf.forall over blocks of kCostBlock rows, each an scf.for over blocks of
/// kCostBlock columns (the last padded with zero points and gb = -inf) of
/// static linalg ops that mixer-vectorize-cpu turns into vector code. Each
/// block is formed transposed, [columns, rows], so that the sum over the
/// columns runs over its outer dim.
Value blockedRowCosts(ImplicitLocOpBuilder &b, KernelKind kind, Value x,
                      Value y, Value fa, Value gb, Value invEps, int64_t D) {
  LinalgBuilder lb(b);
  Type f32 = b.getF32Type();
  const int64_t R = kCostBlock, Cb = kCostBlock;
  const double inf = std::numeric_limits<double>::infinity();
  OpFoldResult c0 = b.getIndexAttr(0), cD = b.getIndexAttr(D),
               cR = b.getIndexAttr(R), cCb = b.getIndexAttr(Cb);
  Value n = tensor::DimOp::create(b, x, 0);
  Value m = tensor::DimOp::create(b, y, 0);
  Value rIdx = arith::ConstantIndexOp::create(b, R);
  Value cbIdx = arith::ConstantIndexOp::create(b, Cb);
  Value blocks = arith::CeilDivUIOp::create(b, n, rIdx);
  Value fullEnd =
      arith::MulIOp::create(b, arith::DivUIOp::create(b, m, cbIdx), cbIdx);
  Value rowCosts = lb.empty({OpFoldResult(n)}, f32);

  // rows [r0, r0 + count) of a [*] or [*, D] operand, padded to `size`.
  auto padded = [&](LinalgBuilder &l, Value src, Value r0, Value count,
                    int64_t size, bool withD, double pad) {
    SmallVector<OpFoldResult> offsets = {r0}, sizes = {count},
                              dstSizes = {b.getIndexAttr(size)};
    SmallVector<int64_t> shape = {ShapedType::kDynamic};
    if (withD) {
      offsets.push_back(c0);
      sizes.push_back(cD);
      dstSizes.push_back(cD);
      shape.push_back(D);
    }
    Value dst = l.filled(dstSizes, f32, pad);
    SmallVector<OpFoldResult> zeros(offsets.size(), c0);
    return l.insert(l.slice(src, offsets, sizes, shape), dst, zeros, sizes);
  };

  auto forall = scf::ForallOp::create(
      b, ArrayRef<OpFoldResult>{blocks}, ValueRange{rowCosts}, std::nullopt,
      [&](OpBuilder &nb, Location loc, ValueRange args) {
        ImplicitLocOpBuilder ib(loc, nb);
        LinalgBuilder rl(ib);
        Value r0 = arith::MulIOp::create(ib, args[0], rIdx);
        Value rows =
            arith::MinUIOp::create(ib, rIdx, arith::SubIOp::create(ib, n, r0));
        Value xT = rl.transpose(padded(rl, x, r0, rows, R, true, 0.0));
        Value xn = squaredNorms(rl, xT, 0);
        // Padded rows get fa = -inf: their terms vanish.
        Value fab = padded(rl, fa, r0, rows, R, false, -inf);
        auto step = [&](ImplicitLocOpBuilder &cb, Value j0, Value count,
                        bool ragged, Value acc) -> Value {
          LinalgBuilder cl(cb);
          Value yb = ragged ? padded(cl, y, j0, count, Cb, true, 0.0)
                            : cl.slice(y, {j0, c0}, {cCb, cD}, {Cb, D});
          Value gbb = ragged ? padded(cl, gb, j0, count, Cb, false, -inf)
                             : cl.slice(gb, {j0}, {cCb}, {Cb});
          Value yn = squaredNorms(cl, yb, 1);
          Value dotT = cl.contract(yb, xT, cl.filled({cCb, cR}, f32, 0.0),
                                   Lhs::RowMajor);
          // acc[i] += sum_j exp(fa_i + gb_j - C_ji / eps) C_ji.
          return linalg::GenericOp::create(
                     cb, acc.getType(), ValueRange{dotT, yn, xn, gbb, fab},
                     ValueRange{acc},
                     ArrayRef<AffineMap>{cl.dims(2, {0, 1}), cl.dims(2, {0}),
                                         cl.dims(2, {1}), cl.dims(2, {0}),
                                         cl.dims(2, {1}), cl.dims(2, {1})},
                     ArrayRef<utils::IteratorType>{
                         utils::IteratorType::reduction,
                         utils::IteratorType::parallel},
                     [&](OpBuilder &gb2, Location gl, ValueRange a) {
                       ImplicitLocOpBuilder g(gl, gb2);
                       Value r2 =
                           squaredDistanceFromDot(g, gl, a[1], a[2], a[0]);
                       Value c = costOfSquaredDistance(g, gl, kind, r2);
                       Value arg = arith::SubFOp::create(
                           g, arith::AddFOp::create(g, a[4], a[3]),
                           arith::MulFOp::create(g, c, invEps));
                       Value term = arith::MulFOp::create(
                           g, math::ExpOp::create(g, arg), c);
                       linalg::YieldOp::create(
                           g, arith::AddFOp::create(g, a[5], term).getResult());
                     })
              .getResult(0);
        };
        Value acc = rl.filled({cR}, f32, 0.0);
        Value zeroIdx = arith::ConstantIndexOp::create(ib, 0);
        acc =
            scf::ForOp::create(
                ib, zeroIdx, fullEnd, cbIdx, ValueRange{acc},
                [&](OpBuilder &fb, Location fl, Value j0, ValueRange st) {
                  ImplicitLocOpBuilder fib(fl, fb);
                  scf::YieldOp::create(fib, step(fib, j0, cbIdx, false, st[0]));
                })
                .getResult(0);
        acc =
            scf::ForOp::create(
                ib, fullEnd, m, cbIdx, ValueRange{acc},
                [&](OpBuilder &tb, Location tl, Value j0, ValueRange st) {
                  ImplicitLocOpBuilder tib(tl, tb);
                  Value count = arith::SubIOp::create(tib, m, j0);
                  scf::YieldOp::create(tib, step(tib, j0, count, true, st[0]));
                })
                .getResult(0);
        Value valid =
            rl.slice(acc, {c0}, {OpFoldResult(rows)}, {ShapedType::kDynamic});
        auto inParallel = scf::InParallelOp::create(ib);
        OpBuilder::InsertionGuard guard(ib);
        ib.setInsertionPointToStart(inParallel.getBody());
        tensor::ParallelInsertSliceOp::create(
            ib, valid, args[1], ArrayRef<OpFoldResult>{r0},
            ArrayRef<OpFoldResult>{rows},
            ArrayRef<OpFoldResult>{ib.getIndexAttr(1)});
      });
  return forall.getResult(0);
}

struct DecomposeSinkhorn : public OpRewritePattern<SinkhornOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SinkhornOp op,
                                PatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    Type f32 = b.getF32Type();
    KernelKind kind = op.getCost();
    Value x = op.getX(), y = op.getY(), logA = op.getLogA(),
          logB = op.getLogB(), epsT = op.getEps();
    Value fOut = op.getOuts()[0], gOut = op.getOuts()[1],
          costOut = op.getOuts()[2];

    Value eps = tensor::ExtractOp::create(b, epsT, ValueRange{});
    Value negEps = arith::NegFOp::create(b, eps);
    Value zero = arith::ConstantOp::create(b, b.getF32FloatAttr(0.0));
    Value c0 = arith::ConstantIndexOp::create(b, 0);
    Value c1 = arith::ConstantIndexOp::create(b, 1);

    // The loop carries the log-sums L (f = -eps L_f, g = -eps L_g), each
    // written in place by its kernel_lse into the `outs` tensor of f or g:
    // the weights of the next half step are then w = -L + log_w (= p / eps
    // + log_w) and no elementwise update of the loop-carried state is left
    // for canonicalization to move out of place.
    auto weights = [&](ImplicitLocOpBuilder &ib, Value lse, Value logW) {
      Value empty = tensor::EmptyOp::create(
          ib, tensor::getMixedSizes(ib, ib.getLoc(), lse), f32);
      return map1d(
          ib, {lse, logW}, empty,
          [&](ImplicitLocOpBuilder &mb, ValueRange args) {
            return arith::SubFOp::create(mb, args[1], args[0]).getResult();
          });
    };
    auto potential = [&](ImplicitLocOpBuilder &ib, Value lse) {
      return map1d(ib, {}, lse, [&](ImplicitLocOpBuilder &mb, ValueRange args) {
        return arith::MulFOp::create(mb, negEps, args[0]).getResult();
      });
    };

    // g = 0 at the start: L_g = 0.
    Value lg0 = linalg::FillOp::create(b, zero, gOut).getResult(0);
    Value iterations = arith::ConstantIndexOp::create(b, op.getIterations());
    auto loop = scf::ForOp::create(
        b, c0, iterations, c1, ValueRange{fOut, lg0},
        [&](OpBuilder &nb, Location loc, Value, ValueRange lfg) {
          ImplicitLocOpBuilder ib(loc, nb);
          Value lf = KernelLseOp::create(ib, kind, x, y, epsT,
                                         weights(ib, lfg[1], logB), lfg[0])
                         .getResult();
          Value lg = KernelLseOp::create(ib, kind, y, x, epsT,
                                         weights(ib, lf, logA), lfg[1])
                         .getResult();
          scf::YieldOp::create(ib, ValueRange{lf, lg});
        });
    Value f = potential(b, loop.getResult(0));
    Value g = potential(b, loop.getResult(1));

    // Per-row transport costs: blocked linalg when D is static, else one
    // row of x per parallel iteration of scalar loops.
    Value rowCostValues;
    int64_t staticD = cast<RankedTensorType>(x.getType()).getDimSize(1);
    if (!ShapedType::isDynamic(staticD)) {
      Value invEps = arith::DivFOp::create(
          b, arith::ConstantOp::create(b, b.getF32FloatAttr(1.0)), eps);
      auto scaled = [&](Value p, Value logW) {
        Value empty = tensor::EmptyOp::create(
            b, tensor::getMixedSizes(b, b.getLoc(), p), f32);
        return map1d(b, {p, logW}, empty,
                     [&](ImplicitLocOpBuilder &mb, ValueRange args) {
                       return arith::AddFOp::create(
                                  mb,
                                  arith::MulFOp::create(mb, args[0], invEps),
                                  args[1])
                           .getResult();
                     });
      };
      rowCostValues = blockedRowCosts(b, kind, x, y, scaled(f, logA),
                                      scaled(g, logB), invEps, staticD);
    } else {
      // Per-row transport costs, one row of x per parallel iteration.
      Value n = tensor::DimOp::create(b, x, 0);
      Value m = tensor::DimOp::create(b, y, 0);
      Value dims = tensor::DimOp::create(b, x, 1);
      Value rowCosts = tensor::EmptyOp::create(
          b, tensor::getMixedSizes(b, b.getLoc(), logA), f32);
      auto rows = scf::ForallOp::create(
          b, ArrayRef<OpFoldResult>{n}, ValueRange{rowCosts},
          /*mapping=*/std::nullopt,
          [&](OpBuilder &nb, Location loc, ValueRange args) {
            ImplicitLocOpBuilder ib(loc, nb);
            Value i = args[0];
            Value fi = tensor::ExtractOp::create(ib, f, ValueRange{i});
            Value lai = tensor::ExtractOp::create(ib, logA, ValueRange{i});
            Value sum =
                scf::ForOp::create(
                    ib, c0, m, c1, ValueRange{zero},
                    [&](OpBuilder &jb, Location jl, Value j, ValueRange acc) {
                      ImplicitLocOpBuilder jib(jl, jb);
                      Value cij = pointCost(jib, kind, x, i, y, j, dims);
                      Value gj =
                          tensor::ExtractOp::create(jib, g, ValueRange{j});
                      Value lbj =
                          tensor::ExtractOp::create(jib, logB, ValueRange{j});
                      Value arg = arith::AddFOp::create(
                          jib,
                          arith::DivFOp::create(
                              jib,
                              arith::SubFOp::create(
                                  jib, arith::AddFOp::create(jib, fi, gj), cij),
                              eps),
                          arith::AddFOp::create(jib, lai, lbj));
                      Value pij = math::ExpOp::create(jib, arg);
                      scf::YieldOp::create(
                          jib, ValueRange{arith::AddFOp::create(
                                   jib, acc[0],
                                   arith::MulFOp::create(jib, pij, cij))});
                    })
                    .getResult(0);
            Value one = tensor::FromElementsOp::create(
                ib, RankedTensorType::get({1}, f32), ValueRange{sum});
            auto inParallel = scf::InParallelOp::create(ib);
            OpBuilder::InsertionGuard guard(ib);
            ib.setInsertionPointToStart(inParallel.getBody());
            tensor::ParallelInsertSliceOp::create(
                ib, one, args[1], ArrayRef<OpFoldResult>{i},
                ArrayRef<OpFoldResult>{ib.getIndexAttr(1)},
                ArrayRef<OpFoldResult>{ib.getIndexAttr(1)});
          });
      rowCostValues = rows.getResult(0);
    }

    // cost = sum_i rowCosts[i].
    Value costInit = linalg::FillOp::create(b, zero, costOut).getResult(0);
    MLIRContext *ctx = b.getContext();
    Value cost =
        linalg::GenericOp::create(
            b, costInit.getType(), ValueRange{rowCostValues},
            ValueRange{costInit},
            ArrayRef<AffineMap>{AffineMap::getMultiDimIdentityMap(1, ctx),
                                AffineMap::get(1, 0, {}, ctx)},
            ArrayRef<utils::IteratorType>{utils::IteratorType::reduction},
            [](OpBuilder &nb, Location loc, ValueRange args) {
              linalg::YieldOp::create(
                  nb, loc,
                  arith::AddFOp::create(nb, loc, args[1], args[0]).getResult());
            })
            .getResult(0);
    rewriter.replaceOp(op, ValueRange{f, g, cost});
    return success();
  }
};

} // namespace

void mlir::mixer::populateDecomposeCompositesPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DecomposeSinkhorn>(patterns.getContext());
}

namespace {
struct MixerDecomposeCompositesPass
    : public mixer::impl::MixerDecomposeCompositesPassBase<
          MixerDecomposeCompositesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateDecomposeCompositesPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
