//===- KernelToLinalg.cpp - kernel reductions as blocked linalg -----------===//
//
// mixer.kernel_lse and mixer.kernel_mv, per batch entry and per block of R
// rows of x (one block per tile after mixer-tile-parallel-dims):
//
//   xb = the R rows of x, packed (zero-padded when the block is ragged)
//   xn[i] = |xb_i|^2
//   for each block of Cb columns of y (full blocks, then one padded tail):
//     yT = the block of y transposed [D, Cb] (zero-padded in the tail)
//     yn[j] = |yT_j|^2
//     dot = xb yT                                  (i, j, k) contraction
//     r2 = max(xn[i] + yn[j] - 2 dot[i, j], 0)
//     kernel_lse: s = -c(r2) / eps + g[j]; online log-sum-exp per row:
//       m' = max(m, max_j s), sum = sum exp(m - m') + sum_j exp(s - m')
//     kernel_mv:  k = k(r2) (linear: k = dot); acc += k v[block]
//
// The N x M cost or kernel matrix is never formed: only R x Cb blocks. Every
// shape inside the column loop is static, so that mixer-vectorize-cpu turns
// the contractions into FMAs and the maps and row reductions into vector
// rows. The tail block pads y with zero points and g with -inf (kernel_lse)
// or v with zero rows (kernel_mv), so padded columns add nothing. Every exp
// is of a value clamped to <= 0.
//
//===----------------------------------------------------------------------===//

#include "LinalgBuilder.h"
#include "MixerToLinalgPatterns.h"

#include "mixer/Dialect/Mixer/IR/MixerOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::mixer;

/// Columns of y per block of the column loop.
static constexpr int64_t kColumnBlock = 64;
/// Row blocks: a tile of at most kMaxRowBlock rows is one block; longer (or
/// unbounded) row ranges are cut into blocks of kDefaultRowBlock rows.
static constexpr int64_t kMaxRowBlock = 128;
static constexpr int64_t kDefaultRowBlock = 64;

static constexpr double kInf = std::numeric_limits<double>::infinity();

/// exp(min(v, 0)).
static Value expOfNonPositive(ImplicitLocOpBuilder &b, Value v) {
  Value zero = arith::ConstantOp::create(b, b.getZeroAttr(v.getType()));
  return math::ExpOp::create(b, arith::MinimumFOp::create(b, v, zero));
}

static Value f32Const(ImplicitLocOpBuilder &b, double value) {
  return arith::ConstantOp::create(b, b.getF32FloatAttr(value));
}

/// The static number of rows per block for an x with `rows` rows: the
/// constant upper bound of `rows` when it is small (a tile), else
/// kDefaultRowBlock.
static int64_t rowBlockSize(Value x, int64_t rowDim) {
  int64_t n = cast<RankedTensorType>(x.getType()).getDimSize(rowDim);
  if (ShapedType::isDynamic(n)) {
    FailureOr<int64_t> ub = ValueBoundsConstraintSet::computeConstantBound(
        presburger::BoundType::UB, ValueBoundsConstraintSet::Variable(x, rowDim),
        /*stopCondition=*/nullptr, /*closedUB=*/true);
    if (failed(ub))
      return kDefaultRowBlock;
    n = *ub;
  }
  if (n > kMaxRowBlock)
    return kDefaultRowBlock;
  return std::max<int64_t>(n, 1);
}

namespace {

/// The operands shared by kernel_lse and kernel_mv and the blocks built from
/// them. `batch` is null for unbatched ops: indices then have no batch entry.
struct KernelBlocks {
  LinalgBuilder &lb;
  Value x, y;
  bool batched;
  int64_t D, R, Cb = kColumnBlock;

  ImplicitLocOpBuilder &b() { return lb.builder(); }
  OpFoldResult c(int64_t v) { return b().getIndexAttr(v); }

  /// Offsets/sizes with the batch entry in front when batched.
  SmallVector<OpFoldResult> withBatch(Value batch,
                                      ArrayRef<OpFoldResult> rest,
                                      bool isSize) {
    SmallVector<OpFoldResult> result;
    if (batched)
      result.push_back(isSize ? c(1) : OpFoldResult(batch));
    result.append(rest.begin(), rest.end());
    return result;
  }

  /// Rows [r0, r0 + rows) of a [(Bt,) *, width] operand as a static
  /// [count, width] block; the rows past `rows` are `pad` when `ragged`.
  Value packRows(Value src, Value batch, Value r0, Value rows, int64_t count,
                 int64_t width, bool ragged, double pad) {
    if (!ragged)
      return lb.copyToNew(lb.slice(src, withBatch(batch, {r0, c(0)}, false),
                                   withBatch(batch, {c(count), c(width)}, true),
                                   {count, width}));
    Value dst = lb.filled({c(count), c(width)}, b().getF32Type(), pad);
    Value part = lb.slice(src, withBatch(batch, {r0, c(0)}, false),
                          withBatch(batch, {rows, c(width)}, true),
                          {ShapedType::kDynamic, width});
    return lb.insert(part, dst, {c(0), c(0)}, {rows, c(width)});
  }

  /// Entries [j0, j0 + count) of a [(Bt,) M] operand as a static [Cb]
  /// block, `pad` past `count` when `ragged`.
  Value packVector(Value src, Value batch, Value j0, Value count, bool ragged,
                   double pad) {
    if (!ragged)
      return lb.slice(src, withBatch(batch, {j0}, false),
                      withBatch(batch, {c(Cb)}, true), {Cb});
    Value dst = lb.filled({c(Cb)}, b().getF32Type(), pad);
    Value part = lb.slice(src, withBatch(batch, {j0}, false),
                          withBatch(batch, {count}, true),
                          {ShapedType::kDynamic});
    return lb.insert(part, dst, {c(0)}, {count});
  }

  /// Columns [j0, j0 + count) of y^T as a static [D, Cb] block (zero points
  /// past `count` when `ragged`).
  Value packColumnsT(Value batch, Value j0, Value count, bool ragged) {
    if (!ragged)
      return lb.transpose(lb.slice(y, withBatch(batch, {j0, c(0)}, false),
                                   withBatch(batch, {c(Cb), c(D)}, true),
                                   {Cb, D}));
    Value dst = lb.filled({c(D), c(Cb)}, b().getF32Type(), 0.0);
    Value part = lb.transpose(lb.slice(y, withBatch(batch, {j0, c(0)}, false),
                                       withBatch(batch, {count, c(D)}, true),
                                       {ShapedType::kDynamic, D}));
    return lb.insert(part, dst, {c(0), c(0)}, {c(D), count});
  }

  /// sum over `reduced` (0 or 1) of the squares of a 2-D block.
  Value squaredNorms(Value block, unsigned reduced) {
    auto type = cast<RankedTensorType>(block.getType());
    int64_t kept = type.getDimSize(1 - reduced);
    Value acc = lb.filled({c(kept)}, b().getF32Type(), 0.0);
    SmallVector<utils::IteratorType> iterators(2,
                                               utils::IteratorType::parallel);
    iterators[reduced] = utils::IteratorType::reduction;
    auto op = linalg::GenericOp::create(
        b(), acc.getType(), ValueRange{block}, ValueRange{acc},
        ArrayRef<AffineMap>{lb.dims(2, {0, 1}), lb.dims(2, {1 - reduced})},
        iterators, [](OpBuilder &nb, Location loc, ValueRange args) {
          Value sq = arith::MulFOp::create(nb, loc, args[0], args[0]);
          linalg::YieldOp::create(
              nb, loc, arith::AddFOp::create(nb, loc, args[1], sq).getResult());
        });
    return op.getResult(0);
  }

  /// dot[i, j] = <xb_i, yT_j> as a fresh [R, Cb] block.
  Value dots(Value xb, Value yT) {
    return lb.contract(xb, yT, lb.filled({c(R), c(Cb)}, b().getF32Type(), 0.0),
                       Lhs::RowMajor);
  }
};

/// r^2 = max(|x|^2 + |y|^2 - 2 <x, y>, 0).
static Value squaredDistance(ImplicitLocOpBuilder &b, Value xn, Value yn,
                             Value dot) {
  Value twoDot = arith::AddFOp::create(b, dot, dot);
  Value r2 = arith::SubFOp::create(b, arith::AddFOp::create(b, xn, yn), twoDot);
  return arith::MaximumFOp::create(b, r2, f32Const(b, 0.0));
}

/// m == -inf ? 0 : m: the shift of a row whose terms are all -inf so far, so
/// that no -inf - -inf is formed.
static Value lseShift(ImplicitLocOpBuilder &b, Value m) {
  Value isNegInf = arith::CmpFOp::create(b, arith::CmpFPredicate::OEQ, m,
                                         f32Const(b, -kInf));
  return arith::SelectOp::create(b, isNegInf, f32Const(b, 0.0), m);
}

//===----------------------------------------------------------------------===//
// kernel_lse
//===----------------------------------------------------------------------===//

struct KernelLseToLinalg : public OpRewritePattern<KernelLseOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(KernelLseOp op,
                                PatternRewriter &rewriter) const override {
    bool batched = op.isBatched();
    unsigned rowDim = batched ? 1 : 0;
    auto xType = cast<RankedTensorType>(op.getX().getType());
    int64_t D = xType.getDimSize(rowDim + 1);
    if (ShapedType::isDynamic(D))
      return rewriter.notifyMatchFailure(op, "needs a static D");

    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    LinalgBuilder lb(b);
    KernelBlocks kb{lb, op.getX(), op.getY(), batched, D,
                    rowBlockSize(op.getX(), rowDim)};
    int64_t R = kb.R, Cb = kb.Cb;
    Type f32 = b.getF32Type();
    KernelKind kind = op.getKernel();
    Value g = op.getG();

    // s = coef * (r^2 or r) + g: coef = -1/eps, or -1/(2 eps) for gaussian.
    Value eps = tensor::ExtractOp::create(b, op.getEps(), ValueRange{});
    Value coef = arith::DivFOp::create(
        b, f32Const(b, kind == KernelKind::gaussian ? -0.5 : -1.0), eps);

    Value c0 = arith::ConstantIndexOp::create(b, 0);
    Value c1 = arith::ConstantIndexOp::create(b, 1);
    Value cR = arith::ConstantIndexOp::create(b, R);
    Value cCb = arith::ConstantIndexOp::create(b, Cb);
    int64_t staticN = xType.getDimSize(rowDim);
    int64_t staticM =
        cast<RankedTensorType>(op.getY().getType()).getDimSize(rowDim);
    Value N = tensor::DimOp::create(b, op.getX(), rowDim);
    Value M = tensor::DimOp::create(b, op.getY(), rowDim);
    bool raggedRows = ShapedType::isDynamic(staticN) || staticN % R != 0;
    bool hasTail = ShapedType::isDynamic(staticM) || staticM % Cb != 0;
    Value fullEnd = arith::MulIOp::create(
        b, arith::DivUIOp::create(b, M, cCb), cCb);

    // One block of columns: updates the running max m and sum of every row.
    auto columnStep = [&](LinalgBuilder &clb, Value batch, Value xb, Value xn,
                          Value j0, Value count, bool ragged, Value m,
                          Value sum) -> std::pair<Value, Value> {
      ImplicitLocOpBuilder &cb = clb.builder();
      KernelBlocks blk{clb, kb.x, kb.y, batched, D, R};
      Value yT = blk.packColumnsT(batch, j0, count, ragged);
      Value yn = blk.squaredNorms(yT, /*reduced=*/0);
      // Padded columns get g = -inf: their terms vanish.
      Value gb;
      if (g)
        gb = blk.packVector(g, batch, j0, count, ragged, -kInf);
      else if (ragged)
        gb = clb.map({}, {}, clb.empty({cb.getIndexAttr(Cb)}, f32),
                     [&](ImplicitLocOpBuilder &ib, ValueRange) {
                       Value j = linalg::IndexOp::create(ib, 0);
                       Value valid = arith::CmpIOp::create(
                           ib, arith::CmpIPredicate::ult, j, count);
                       return arith::SelectOp::create(ib, valid,
                                                      f32Const(ib, 0.0),
                                                      f32Const(ib, -kInf))
                           .getResult();
                     });
      // s[i, j], computed in place of the dot block.
      SmallVector<Value> ins = {xn, yn};
      SmallVector<AffineMap> maps = {clb.dims(2, {0}), clb.dims(2, {1})};
      if (gb) {
        ins.push_back(gb);
        maps.push_back(clb.dims(2, {1}));
      }
      Value s = clb.map(
          ins, maps, blk.dots(xb, yT),
          [&](ImplicitLocOpBuilder &ib, ValueRange args) {
            Value r2 = squaredDistance(ib, args[0], args[1], args.back());
            Value c = kind == KernelKind::laplacian
                          ? math::SqrtOp::create(ib, r2).getResult()
                          : r2;
            Value v = arith::MulFOp::create(ib, coef, c);
            return gb ? arith::AddFOp::create(ib, v, args[2]).getResult() : v;
          });
      // Block maximum of each row.
      Value blockMax =
          linalg::GenericOp::create(
              cb, TypeRange{RankedTensorType::get({R}, f32)}, ValueRange{s},
              ValueRange{clb.filled({cb.getIndexAttr(R)}, f32, -kInf)},
              ArrayRef<AffineMap>{clb.dims(2, {0, 1}), clb.dims(2, {0})},
              ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                            utils::IteratorType::reduction},
              [](OpBuilder &nb, Location loc, ValueRange args) {
                linalg::YieldOp::create(
                    nb, loc,
                    arith::MaximumFOp::create(nb, loc, args[0], args[1])
                        .getResult());
              })
              .getResult(0);
      // Rescale the running sum to the new maximum, then raise the maximum
      // (both in place).
      sum = clb.map({m, blockMax}, {clb.dims(1, {0}), clb.dims(1, {0})}, sum,
                    [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                      Value mNew =
                          arith::MaximumFOp::create(ib, args[0], args[1]);
                      Value shift = lseShift(ib, mNew);
                      Value scale = expOfNonPositive(
                          ib, arith::SubFOp::create(ib, args[0], shift));
                      return arith::MulFOp::create(ib, args[2], scale)
                          .getResult();
                    });
      m = clb.map({blockMax}, {clb.dims(1, {0})}, m,
                  [&](ImplicitLocOpBuilder &ib, ValueRange args) {
                    return arith::MaximumFOp::create(ib, args[1], args[0])
                        .getResult();
                  });
      // sum[i] += sum_j exp(s[i, j] - m[i]).
      sum = linalg::GenericOp::create(
                cb, TypeRange{sum.getType()}, ValueRange{s, m}, ValueRange{sum},
                ArrayRef<AffineMap>{clb.dims(2, {0, 1}), clb.dims(2, {0}),
                                    clb.dims(2, {0})},
                ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                              utils::IteratorType::reduction},
                [&](OpBuilder &nb, Location loc, ValueRange args) {
                  ImplicitLocOpBuilder ib(loc, nb);
                  Value e = expOfNonPositive(
                      ib, arith::SubFOp::create(ib, args[0],
                                                lseShift(ib, args[1])));
                  linalg::YieldOp::create(
                      ib, arith::AddFOp::create(ib, args[2], e).getResult());
                })
                .getResult(0);
      return {m, sum};
    };

    // One block of rows: returns `out` with the block's results inserted.
    auto rowStep = [&](LinalgBuilder &rlb, Value batch, Value r0,
                       Value out) -> Value {
      ImplicitLocOpBuilder &rb = rlb.builder();
      KernelBlocks blk{rlb, kb.x, kb.y, batched, D, R};
      Value rows = raggedRows
                       ? arith::MinUIOp::create(
                             rb, cR, arith::SubIOp::create(rb, N, r0))
                             .getResult()
                       : cR;
      OpFoldResult rowCount =
          raggedRows ? OpFoldResult(rows) : rb.getIndexAttr(R);
      Value xb = blk.packRows(kb.x, batch, r0, rows, R, D, raggedRows, 0.0);
      Value xn = blk.squaredNorms(xb, /*reduced=*/1);
      Value m = rlb.filled({rb.getIndexAttr(R)}, f32, -kInf);
      Value sum = rlb.filled({rb.getIndexAttr(R)}, f32, 0.0);
      auto full = scf::ForOp::create(
          rb, c0, fullEnd, cCb, ValueRange{m, sum},
          [&](OpBuilder &nb, Location loc, Value j0, ValueRange acc) {
            ImplicitLocOpBuilder ib(loc, nb);
            LinalgBuilder ilb(ib);
            auto [m2, s2] = columnStep(ilb, batch, xb, xn, j0, cCb,
                                       /*ragged=*/false, acc[0], acc[1]);
            scf::YieldOp::create(ib, ValueRange{m2, s2});
          });
      ValueRange state = full.getResults();
      if (hasTail) {
        // At most one iteration: the last M % Cb columns, padded.
        auto tail = scf::ForOp::create(
            rb, fullEnd, M, cCb, state,
            [&](OpBuilder &nb, Location loc, Value j0, ValueRange acc) {
              ImplicitLocOpBuilder ib(loc, nb);
              LinalgBuilder ilb(ib);
              Value count = arith::SubIOp::create(ib, M, j0);
              auto [m2, s2] = columnStep(ilb, batch, xb, xn, j0, count,
                                         /*ragged=*/true, acc[0], acc[1]);
              scf::YieldOp::create(ib, ValueRange{m2, s2});
            });
        state = tail.getResults();
      }
      // out = m + log(sum): -inf for an empty or all -inf row.
      Value res = rlb.map({state[0]}, {rlb.dims(1, {0})}, state[1],
                          [](ImplicitLocOpBuilder &ib, ValueRange args) {
                            return arith::AddFOp::create(
                                       ib, args[0],
                                       math::LogOp::create(ib, args[1]))
                                .getResult();
                          });
      if (raggedRows)
        res = rlb.slice(res, {rb.getIndexAttr(0)}, {rows},
                        {ShapedType::kDynamic});
      return rlb.insert(res, out, blk.withBatch(batch, {r0}, false),
                        blk.withBatch(batch, {rowCount}, true));
    };

    auto rowLoop = [&](OpBuilder &nb, Location loc, Value batch,
                       Value out) -> Value {
      return scf::ForOp::create(
                 nb, loc, c0, N, cR, ValueRange{out},
                 [&](OpBuilder &rb, Location rl, Value r0, ValueRange acc) {
                   ImplicitLocOpBuilder ib(rl, rb);
                   LinalgBuilder ilb(ib);
                   scf::YieldOp::create(ib, rowStep(ilb, batch, r0, acc[0]));
                 })
          .getResult(0);
    };

    Value result;
    if (batched) {
      Value batches = tensor::DimOp::create(b, op.getX(), 0);
      result = scf::ForOp::create(
                   b, c0, batches, c1, op.getOuts(),
                   [&](OpBuilder &nb, Location loc, Value batch,
                       ValueRange acc) {
                     scf::YieldOp::create(nb, loc,
                                          rowLoop(nb, loc, batch, acc[0]));
                   })
                   .getResult(0);
    } else {
      result = rowLoop(b, b.getLoc(), Value(), op.getOuts()[0]);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::mixer::populateKernelToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<KernelLseToLinalg>(patterns.getContext());
}
