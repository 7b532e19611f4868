//===- MoEToLinalg.cpp - the MoE ops as row slabs in linalg ---------------===//
//
// The grouped GEMMs walk the experts in order with a running row offset (the
// prefix sum of the run-time group sizes) and cover the rows of each group
// with static-height slabs, so that every contraction has static shapes and
// vectorizes to FMAs:
//
//   off = 0
//   for e in [0, E):
//     W = rhs[e]                                    [K, N]
//     rows off .. off + size_e - 1 in slabs of 16 rows, then the remainder
//     (< 16) in at most one slab each of 8, 4, 2 and 1 rows:
//       out[slab] = lhs[slab] W                     [rows, K] x [K, N]
//     off += size_e
//   out[off .. T-1] = 0                             rows past the sum
//
// grouped_swiglu does the same with two contractions per slab (gate, up)
// into local slab buffers, then writes silu(gate) * up into its rows of the
// output: no [T, F] intermediate is materialized.
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

using namespace mlir;
using namespace mlir::mixer;

/// Rows of a full slab. The remainder of a group is covered by one slab each
/// of the powers of two below it, so every slab has a static height.
static constexpr int64_t kSlabRows = 16;

/// One slab of `rows` rows starting at row `r0`: returns the updated output.
using SlabStep = function_ref<Value(LinalgBuilder &lb, int64_t rows, Value r0,
                                    Value out)>;

/// Runs `step` over `count` consecutive slabs of `rows` rows from `begin`.
static Value slabLoop(ImplicitLocOpBuilder &b, int64_t rows, Value begin,
                      Value count, Value out, SlabStep step) {
  Value c0 = arith::ConstantIndexOp::create(b, 0);
  Value c1 = arith::ConstantIndexOp::create(b, 1);
  Value height = arith::ConstantIndexOp::create(b, rows);
  auto loop = scf::ForOp::create(
      b, c0, count, c1, ValueRange{out},
      [&](OpBuilder &nb, Location loc, Value i, ValueRange acc) {
        ImplicitLocOpBuilder ib(loc, nb);
        LinalgBuilder lb(ib);
        Value r0 = arith::AddIOp::create(
            ib, begin, arith::MulIOp::create(ib, i, height));
        scf::YieldOp::create(ib, step(lb, rows, r0, acc[0]));
      });
  return loop.getResult(0);
}

/// Covers rows [begin, begin + count) with static slabs: count / kSlabRows
/// full slabs, then one slab of each power of two set in the remainder.
static Value forEachSlab(ImplicitLocOpBuilder &b, Value begin, Value count,
                         Value out, SlabStep step) {
  Value full = arith::ConstantIndexOp::create(b, kSlabRows);
  Value slabs = arith::DivUIOp::create(b, count, full);
  out = slabLoop(b, kSlabRows, begin, slabs, out, step);
  Value done = arith::MulIOp::create(b, slabs, full);
  Value pos = arith::AddIOp::create(b, begin, done);
  Value rest = arith::SubIOp::create(b, count, done);
  for (int64_t rows = kSlabRows / 2; rows >= 1; rows /= 2) {
    // The bit `rows` of the remainder: 0 or 1 slab of that height.
    Value bit = arith::AndIOp::create(
        b, rest, arith::ConstantIndexOp::create(b, rows));
    Value once = arith::DivUIOp::create(
        b, bit, arith::ConstantIndexOp::create(b, rows));
    out = slabLoop(b, rows, pos, once, out, step);
    pos = arith::AddIOp::create(b, pos, bit);
  }
  return out;
}

/// The static size of `ofr`, or dynamic.
static int64_t staticSize(OpFoldResult ofr) {
  return getConstantIntValue(ofr).value_or(ShapedType::kDynamic);
}

/// group_sizes[e] as an index.
static Value groupSize(ImplicitLocOpBuilder &b, Value groupSizes, Value e) {
  Value size = tensor::ExtractOp::create(b, groupSizes, e);
  return arith::IndexCastOp::create(b, b.getIndexType(), size);
}

/// Walks the groups in order: `group(lb, e, offset, size, out)` computes the
/// rows of group e; then the rows past the sum are zeroed. Returns the
/// output.
static Value
forEachGroup(ImplicitLocOpBuilder &b, Value groupSizes, Value rowsTotal,
             OpFoldResult cols, Value out,
             function_ref<Value(LinalgBuilder &, Value e, Value offset,
                                Value size, Value out)>
                 group) {
  Value c0 = arith::ConstantIndexOp::create(b, 0);
  Value c1 = arith::ConstantIndexOp::create(b, 1);
  Value experts = tensor::DimOp::create(b, groupSizes, 0);
  auto groups = scf::ForOp::create(
      b, c0, experts, c1, ValueRange{out, c0},
      [&](OpBuilder &nb, Location loc, Value e, ValueRange acc) {
        ImplicitLocOpBuilder ib(loc, nb);
        LinalgBuilder lb(ib);
        Value size = groupSize(ib, groupSizes, e);
        Value next = group(lb, e, acc[1], size, acc[0]);
        scf::YieldOp::create(
            ib, ValueRange{next, arith::AddIOp::create(ib, acc[1], size)});
      });
  Value sum = groups.getResult(1);
  Value past = arith::SubIOp::create(b, rowsTotal, sum);
  return forEachSlab(
      b, sum, past, groups.getResult(0),
      [&](LinalgBuilder &lb, int64_t rows, Value r0, Value out) -> Value {
        ImplicitLocOpBuilder &ib = lb.builder();
        OpFoldResult zero = ib.getIndexAttr(0), h = ib.getIndexAttr(rows);
        Value tile = lb.slice(out, {r0, zero}, {h, cols},
                              {rows, staticSize(cols)});
        return lb.insert(lb.fill(tile, 0.0), out, {r0, zero}, {h, cols});
      });
}

namespace {

struct GroupedMatmulToLinalg : public OpRewritePattern<GroupedMatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GroupedMatmulOp op,
                                PatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    LinalgBuilder lb(b);
    Type f32 = b.getF32Type();
    SmallVector<OpFoldResult> rhsSizes = lb.sizesOf(op.getRhs());
    OpFoldResult K = rhsSizes[1], N = rhsSizes[2];
    OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
    Value lhs = op.getLhs(), rhs = op.getRhs();
    Value rowsTotal = tensor::DimOp::create(b, lhs, 0);

    Value out = forEachGroup(
        b, op.getGroupSizes(), rowsTotal, N, op.getOuts()[0],
        [&](LinalgBuilder &gb, Value e, Value offset, Value size,
            Value out) -> Value {
          Value w = gb.slice(rhs, {e, zero, zero}, {one, K, N},
                             {staticSize(K), staticSize(N)});
          return forEachSlab(
              gb.builder(), offset, size, out,
              [&](LinalgBuilder &sb, int64_t rows, Value r0,
                  Value out) -> Value {
                OpFoldResult h = sb.builder().getIndexAttr(rows);
                Value a = sb.slice(lhs, {r0, zero}, {h, K},
                                   {rows, staticSize(K)});
                // Accumulated in a local slab buffer, written to out once.
                Value acc = sb.contract(a, w, sb.filled({h, N}, f32, 0.0),
                                        Lhs::RowMajor);
                return sb.insert(acc, out, {r0, zero}, {h, N});
              });
        });
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// silu(g) * u with silu(g) = g * sigmoid(g), the sigmoid from
/// exp(-|g|) so that the exp never overflows.
static Value siluTimes(ImplicitLocOpBuilder &b, Value g, Value u) {
  Type f32 = g.getType();
  Value zero = arith::ConstantOp::create(b, b.getZeroAttr(f32));
  Value oneF = arith::ConstantOp::create(b, b.getFloatAttr(f32, 1.0));
  Value negAbs = arith::NegFOp::create(b, math::AbsFOp::create(b, g));
  Value e = math::ExpOp::create(b, negAbs);
  Value positive =
      arith::CmpFOp::create(b, arith::CmpFPredicate::OGE, g, zero);
  Value num = arith::SelectOp::create(b, positive, oneF, e);
  Value sigmoid =
      arith::DivFOp::create(b, num, arith::AddFOp::create(b, oneF, e));
  return arith::MulFOp::create(b, arith::MulFOp::create(b, g, sigmoid), u);
}

struct GroupedSwigluToLinalg : public OpRewritePattern<GroupedSwigluOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GroupedSwigluOp op,
                                PatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    LinalgBuilder lb(b);
    Type f32 = b.getF32Type();
    SmallVector<OpFoldResult> wSizes = lb.sizesOf(op.getWGate());
    OpFoldResult K = wSizes[1], F = wSizes[2];
    OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
    Value x = op.getX();
    Value rowsTotal = tensor::DimOp::create(b, x, 0);

    Value out = forEachGroup(
        b, op.getGroupSizes(), rowsTotal, F, op.getOuts()[0],
        [&](LinalgBuilder &gb, Value e, Value offset, Value size,
            Value out) -> Value {
          SmallVector<int64_t> wShape = {staticSize(K), staticSize(F)};
          Value wGate =
              gb.slice(op.getWGate(), {e, zero, zero}, {one, K, F}, wShape);
          Value wUp =
              gb.slice(op.getWUp(), {e, zero, zero}, {one, K, F}, wShape);
          return forEachSlab(
              gb.builder(), offset, size, out,
              [&](LinalgBuilder &sb, int64_t rows, Value r0,
                  Value out) -> Value {
                ImplicitLocOpBuilder &ib = sb.builder();
                OpFoldResult h = ib.getIndexAttr(rows);
                Value a =
                    sb.slice(x, {r0, zero}, {h, K}, {rows, staticSize(K)});
                Value gate = sb.contract(a, wGate, sb.filled({h, F}, f32, 0.0),
                                         Lhs::RowMajor);
                Value up = sb.contract(a, wUp, sb.filled({h, F}, f32, 0.0),
                                       Lhs::RowMajor);
                // silu(gate) * up straight into the slab's rows of out.
                Value dest =
                    sb.slice(out, {r0, zero}, {h, F}, {rows, staticSize(F)});
                AffineMap id = sb.dims(2, {0, 1});
                Value h2 = sb.map(
                    {gate, up}, {id, id}, dest,
                    [](ImplicitLocOpBuilder &mb, ValueRange args) {
                      return siluTimes(mb, args[0], args[1]);
                    });
                return sb.insert(h2, out, {r0, zero}, {h, F});
              });
        });
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

void mlir::mixer::populateMoEToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<GroupedMatmulToLinalg, GroupedSwigluToLinalg>(
      patterns.getContext());
}
