//===- TopkRouterToVector.cpp - the router vectorized across tokens -------===//
//
// mixer.topk_router on a CPU, W tokens at a time (W: the target's f32
// lanes). Column e of a block of W tokens is gathered into one vector, so
// that each step of the selection is one vector op for W tokens instead of
// a dependent scalar compare per token:
//
//   col[e] = logits[t0 .. t0+W, e]                       (E gathers)
//   m = max_e col[e]
//   z = sum_e exp(col[e] - m)                            (without normalize)
//   for j = 0 .. k-1: the largest col[e] after pick j-1 in the order
//     (descending logit, ascending index), with the comparisons of the
//     scalar definition (MoEToLoops.cpp) so that ties and NaNs pick alike;
//     p_j = exp(l_j - m); scatter p_j / z (or p_j) and the ids into rows
//     t0 .. t0+W of the outputs
//   with normalize: weights p_j / sum_j p_j (gathered back, rescattered)
//
// The expert loop inside a pass is unrolled (E and k static and small; the
// E column vectors live in registers or the L1); the tokens after the last
// full vector take the scalar loops. GPUs keep the scalar loops.
//
//===----------------------------------------------------------------------===//

#include "MixerToLinalgPatterns.h"
#include "mixer/Conversion/MixerToLoops/MixerToLoops.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"
#include "mixer/Target/TargetDescription.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

#include <limits>

using namespace mlir;
using namespace mlir::mixer;

namespace {
/// Bounds of the unrolled form: E vectors live at once, E * k selection
/// steps in the loop body.
constexpr int64_t kMaxExperts = 256;
constexpr int64_t kMaxSelectionSteps = 1024;

/// Builds the vector ops of one block of W tokens.
class RouterBlockBuilder {
public:
  RouterBlockBuilder(OpBuilder &b, Location loc, int64_t lanes)
      : b(b), loc(loc), f32Vec(VectorType::get({lanes}, b.getF32Type())),
        i32Vec(VectorType::get({lanes}, b.getI32Type())),
        maskVec(VectorType::get({lanes}, b.getI1Type())), lanes(lanes) {}

  Value f32(double v) {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(f32Vec, b.getF32FloatAttr(v)));
  }
  Value i32(int64_t v) {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(i32Vec, b.getI32IntegerAttr(v)));
  }
  /// [0, stride, 2*stride, ...]: lane l's offset in a row-major [W, stride]
  /// block.
  Value laneOffsets(int64_t stride) {
    SmallVector<int32_t> offsets;
    for (int64_t l = 0; l < lanes; ++l)
      offsets.push_back(static_cast<int32_t>(l * stride));
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(i32Vec, ArrayRef<int32_t>(offsets)));
  }
  Value allLanes() {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(maskVec, b.getBoolAttr(true)));
  }
  Value cmpf(arith::CmpFPredicate p, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  Value cmpi(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value andI(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value orI(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value expOf(Value x, Value shift) {
    return math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, x, shift));
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }

  OpBuilder &b;
  Location loc;
  VectorType f32Vec, i32Vec, maskVec;
  int64_t lanes;
};

struct TopkRouterToVector : public OpRewritePattern<TopkRouterOp> {
  /// Preferred to the scalar loops wherever it applies.
  explicit TopkRouterToVector(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(TopkRouterOp op,
                                PatternRewriter &rewriter) const override {
    TargetDescription target = lookupTargetDescription(op);
    if (target.isGpu())
      return rewriter.notifyMatchFailure(op, "GPUs route one token a thread");
    auto logitsType = cast<RankedTensorType>(op.getLogits().getType());
    int64_t experts = logitsType.getDimSize(1);
    int64_t k = op.getK();
    int64_t lanes = target.vectorWidth;
    if (ShapedType::isDynamic(experts) || experts > kMaxExperts ||
        experts * k > kMaxSelectionSteps || lanes < 2 ||
        !logitsType.getElementType().isF32() ||
        !getElementTypeOrSelf(op.getOuts()[1].getType()).isInteger(32))
      return rewriter.notifyMatchFailure(
          op, "needs static E, E * k within the unrolled bound, f32 logits "
              "and i32 ids");

    Location loc = op.getLoc();
    Value logits = op.getLogits();
    Value weightsOut = op.getOuts()[0], idsOut = op.getOuts()[1];
    Value tokens = tensor::DimOp::create(rewriter, loc, logits, 0);
    Value laneCount = arith::ConstantIndexOp::create(rewriter, loc, lanes);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value fullTokens = arith::SubIOp::create(
        rewriter, loc, tokens,
        arith::RemUIOp::create(rewriter, loc, tokens, laneCount));

    // Flat views: a gather or scatter offsets the innermost dimension only.
    SmallVector<ReassociationIndices> flat = {{0, 1}};
    Value flatLogits =
        tensor::CollapseShapeOp::create(rewriter, loc, logits, flat);
    Value flatWeights =
        tensor::CollapseShapeOp::create(rewriter, loc, weightsOut, flat);
    Value flatIds = tensor::CollapseShapeOp::create(rewriter, loc, idsOut, flat);

    auto blocks = scf::ForOp::create(
        rewriter, loc, zero, fullTokens, laneCount,
        ValueRange{flatWeights, flatIds},
        [&](OpBuilder &b, Location loc, Value t0, ValueRange outs) {
          SmallVector<Value> written =
              buildBlock(b, loc, flatLogits, outs[0], outs[1], t0, experts, k,
                         lanes, op.getNormalize());
          scf::YieldOp::create(b, loc, written);
        });

    // Back to [T, k], then the remaining tokens through the scalar loops.
    auto unflatten = [&](Value flatOut, Value like) {
      auto type = cast<RankedTensorType>(like.getType());
      SmallVector<OpFoldResult> shape = {
          tensor::getMixedSize(rewriter, loc, like, 0),
          rewriter.getIndexAttr(k)};
      return tensor::ExpandShapeOp::create(rewriter, loc, type, flatOut, flat,
                                           shape)
          .getResult();
    };
    Value weights = unflatten(blocks.getResult(0), weightsOut);
    Value ids = unflatten(blocks.getResult(1), idsOut);
    if (!logitsType.isDynamicDim(0) && logitsType.getDimSize(0) % lanes == 0) {
      rewriter.replaceOp(op, {weights, ids});
      return success();
    }
    // Rows fullTokens .. T of a [T, width] tensor.
    Value rest = arith::SubIOp::create(rewriter, loc, tokens, fullTokens);
    SmallVector<OpFoldResult> offsets = {fullTokens, rewriter.getIndexAttr(0)};
    SmallVector<OpFoldResult> strides(2, rewriter.getIndexAttr(1));
    auto tailSizes = [&](int64_t width) {
      return SmallVector<OpFoldResult>{rest, rewriter.getIndexAttr(width)};
    };
    auto rows = [&](Value t, int64_t width) {
      return tensor::ExtractSliceOp::create(rewriter, loc, t, offsets,
                                            tailSizes(width), strides)
          .getResult();
    };
    SmallVector<Value> tail = buildTopkRouterLoops(
        rewriter, loc, rows(logits, experts), rows(weights, k), rows(ids, k),
        k, op.getNormalize());
    auto insertRows = [&](Value part, Value into) {
      return tensor::InsertSliceOp::create(rewriter, loc, part, into, offsets,
                                           tailSizes(k), strides)
          .getResult();
    };
    rewriter.replaceOp(op, {insertRows(tail[0], weights),
                            insertRows(tail[1], ids)});
    return success();
  }

private:
  /// Tokens t0 .. t0 + lanes: returns the flat weights and ids with their
  /// rows written.
  static SmallVector<Value> buildBlock(OpBuilder &b, Location loc,
                                       Value flatLogits, Value flatWeights,
                                       Value flatIds, Value t0,
                                       int64_t experts, int64_t k,
                                       int64_t lanes, bool normalize) {
    RouterBlockBuilder v(b, loc, lanes);
    Value all = v.allLanes();
    auto offsetOf = [&](Value row, int64_t width, int64_t column) {
      Value start = arith::MulIOp::create(
          b, loc, row, arith::ConstantIndexOp::create(b, loc, width));
      return arith::AddIOp::create(
                 b, loc, start, arith::ConstantIndexOp::create(b, loc, column))
          .getResult();
    };

    Value rowStarts = v.laneOffsets(experts);
    Value zeros = v.f32(0.0);
    SmallVector<Value> columns;
    for (int64_t e = 0; e < experts; ++e)
      columns.push_back(vector::GatherOp::create(
          b, loc, v.f32Vec, flatLogits,
          ValueRange{offsetOf(t0, experts, e)}, rowStarts, all, zeros));

    // The max, as a tree (maximumf gives the same value in any order).
    SmallVector<Value> level = columns;
    while (level.size() > 1) {
      SmallVector<Value> next;
      for (size_t i = 0; i + 1 < level.size(); i += 2)
        next.push_back(arith::MaximumFOp::create(b, loc, level[i], level[i + 1]));
      if (level.size() % 2)
        next.push_back(level.back());
      level = std::move(next);
    }
    Value max = level[0];

    // Without `normalize` the weights are over z, the softmax denominator.
    Value z = zeros;
    if (!normalize)
      for (Value l : columns)
        z = v.add(z, v.expOf(l, max));

    // k passes over the experts (a loop: the passes are alike), each
    // unrolled over the experts, one vector op per comparison. Carries the
    // previous pick, the sum of the picked probabilities and the outputs.
    Value slotStarts = v.laneOffsets(k);
    Value passes = arith::ConstantIndexOp::create(b, loc, k);
    Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
    Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
    Value none = v.i32(-1), noId = v.i32(0);
    auto slotOffset = [&](OpBuilder &b, Value j) {
      Value start = arith::MulIOp::create(
          b, loc, t0, arith::ConstantIndexOp::create(b, loc, k));
      return arith::AddIOp::create(b, loc, start, j).getResult();
    };
    auto picks = scf::ForOp::create(
        b, loc, c0, passes, c1,
        ValueRange{v.f32(std::numeric_limits<double>::infinity()), none,
                   zeros, flatWeights, flatIds},
        [&](OpBuilder &b, Location loc, Value j, ValueRange acc) {
          Value prevLogit = acc[0], prevId = acc[1];
          Value bestLogit = zeros, bestId = none;
          for (int64_t e = 0; e < experts; ++e) {
            Value l = columns[e], id = v.i32(e);
            Value after = v.orI(
                v.cmpf(arith::CmpFPredicate::OLT, l, prevLogit),
                v.andI(v.cmpf(arith::CmpFPredicate::OEQ, l, prevLogit),
                       v.cmpi(arith::CmpIPredicate::sgt, id, prevId)));
            // Strictly larger: an equal logit keeps the lower index.
            Value better =
                v.orI(v.cmpi(arith::CmpIPredicate::slt, bestId, noId),
                      v.cmpf(arith::CmpFPredicate::OGT, l, bestLogit));
            Value take = v.andI(after, better);
            bestLogit = v.select(take, l, bestLogit);
            bestId = v.select(take, id, bestId);
          }
          Value p = v.expOf(bestLogit, max);
          // With `normalize`: p now, divided by the sum of the k after.
          Value weight = normalize ? p : v.div(p, z);
          Value offset = slotOffset(b, j);
          Value weights = vector::ScatterOp::create(
              b, loc, acc[3].getType(), acc[3], ValueRange{offset},
              slotStarts, all, weight).getResult();
          Value ids = vector::ScatterOp::create(b, loc, acc[4].getType(),
                                                acc[4], ValueRange{offset},
                                                slotStarts, all, bestId)
                          .getResult();
          scf::YieldOp::create(
              b, loc,
              ValueRange{bestLogit, bestId, v.add(acc[2], p), weights, ids});
        });
    flatWeights = picks.getResult(3);
    flatIds = picks.getResult(4);
    if (normalize) {
      Value sum = picks.getResult(2);
      flatWeights =
          scf::ForOp::create(
              b, loc, c0, passes, c1, ValueRange{flatWeights},
              [&](OpBuilder &b, Location loc, Value j, ValueRange acc) {
                Value offset = slotOffset(b, j);
                Value p = vector::GatherOp::create(b, loc, v.f32Vec, acc[0],
                                                   ValueRange{offset},
                                                   slotStarts, all, zeros);
                scf::YieldOp::create(
                    b, loc,
                    vector::ScatterOp::create(b, loc, acc[0].getType(),
                                              acc[0], ValueRange{offset},
                                              slotStarts, all, v.div(p, sum))
                        .getResult());
              })
              .getResult(0);
    }
    return {flatWeights, flatIds};
  }
};
} // namespace

void mlir::mixer::populateTopkRouterToVectorPatterns(
    RewritePatternSet &patterns) {
  patterns.add<TopkRouterToVector>(patterns.getContext());
}
