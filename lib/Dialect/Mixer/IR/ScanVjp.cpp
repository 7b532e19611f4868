//===- ScanVjp.cpp - vector-Jacobian products of the scan ops -------------===//
//
// DifferentiableOpInterface of ssd, selective_scan, linear_attention and
// gated_delta_rule: each builds the op's backward op.
//
//===----------------------------------------------------------------------===//

#include "mixer/Dialect/Mixer/IR/MixerOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::mixer;

//===----------------------------------------------------------------------===//
// ssd and linear_attention
//===----------------------------------------------------------------------===//

/// A new tensor of the shape of `like`: the `outs` of a gradient.
static Value emptyLike(OpBuilder &builder, Location loc, Value like) {
  return tensor::EmptyOp::create(
      builder, loc, tensor::getMixedSizes(builder, loc, like),
      cast<ShapedType>(like.getType()).getElementType());
}

/// The backward op's `outs`: one new tensor like each differentiable input.
static SmallVector<Value> gradientOuts(OpBuilder &builder, Location loc,
                                       ArrayRef<Value> inputs) {
  SmallVector<Value> outs;
  for (Value input : inputs)
    if (input)
      outs.push_back(emptyLike(builder, loc, input));
  return outs;
}

/// One value per operand of `op`: the gradients of the present inputs in
/// order, then null for each `outs` operand.
static SmallVector<Value> perOperand(ValueRange grads, unsigned numOuts) {
  SmallVector<Value> result(grads.begin(), grads.end());
  result.append(numOuts, Value());
  return result;
}

namespace {
struct SsdVjpModel
    : public DifferentiableOpInterface::ExternalModel<SsdVjpModel, SsdOp> {
  FailureOr<SmallVector<Value>> buildVjp(Operation *operation,
                                         OpBuilder &builder,
                                         ArrayRef<Value> cotangents) const {
    auto op = cast<SsdOp>(operation);
    Location loc = op.getLoc();
    SmallVector<Value> outs = gradientOuts(
        builder, loc,
        {op.getX(), op.getLogA(), op.getB(), op.getC(), op.getInit()});
    auto backward = SsdBackwardOp::create(
        builder, loc, op.getX(), op.getLogA(), op.getB(), op.getC(),
        op.getInit(), op.getFinalState(), cotangents[0], cotangents[1], outs,
        op.getChunkSize());
    return perOperand(backward.getGrads(), op.getOuts().size());
  }
};

struct LinearAttentionVjpModel
    : public DifferentiableOpInterface::ExternalModel<LinearAttentionVjpModel,
                                                      LinearAttentionOp> {
  FailureOr<SmallVector<Value>> buildVjp(Operation *operation,
                                         OpBuilder &builder,
                                         ArrayRef<Value> cotangents) const {
    auto op = cast<LinearAttentionOp>(operation);
    Location loc = op.getLoc();
    SmallVector<Value> outs =
        gradientOuts(builder, loc,
                     {op.getQ(), op.getK(), op.getV(), op.getLogDecay(),
                      op.getInit()});
    auto backward = LinearAttentionBackwardOp::create(
        builder, loc, op.getQ(), op.getK(), op.getV(), op.getLogDecay(),
        op.getInit(), op.getFinalState(), cotangents[0], cotangents[1], outs,
        op.getChunkSize(), op.getWindow(), op.getScale().convertToFloat());
    return perOperand(backward.getGrads(), op.getOuts().size());
  }
};
} // namespace

static void attachSsdAndLinearAttentionVjpModels(MLIRContext &context) {
  SsdOp::attachInterface<SsdVjpModel>(context);
  LinearAttentionOp::attachInterface<LinearAttentionVjpModel>(context);
}

void mlir::mixer::attachScanVjpModels(MLIRContext &context) {
  attachSsdAndLinearAttentionVjpModels(context);
}
