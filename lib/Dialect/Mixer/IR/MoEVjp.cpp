//===- MoEVjp.cpp - vector-Jacobian products of the moe ops ---------------===//
//
// DifferentiableOpInterface of grouped_matmul, grouped_swiglu and moe_combine:
// each builds the op's backward op, with fresh tensors as its `outs`. A null
// cotangent (a zero one) becomes a tensor of zeros. Group sizes and
// permutations are integers: they get no cotangent.
//
//===----------------------------------------------------------------------===//

#include "MoEShapes.h"
#include "VjpUtils.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"

using namespace mlir;
using namespace mlir::mixer;

/// Packed weights (mixer.pack_weights) are an inference layout: their
/// backward would need the unpacked layout back, so the VJP asks for it.
static LogicalResult rejectPackedWeights(Operation *op, Value weights) {
  if (!isPackedWeights(weights))
    return success();
  return op->emitOpError()
         << "has no VJP with packed weights: differentiate with the "
            "[E, K, N] weights (mixer.pack_weights is for inference)";
}

static FailureOr<SmallVector<Value>>
groupedMatmulVjp(GroupedMatmulOp mm, OpBuilder &b, ArrayRef<Value> cotangents) {
  if (failed(rejectPackedWeights(mm, mm.getRhs())))
    return failure();
  Location loc = mm.getLoc();
  Value dout = cotangentOrZeros(b, loc, cotangents[0], mm.getOut());
  auto grad = GroupedMatmulBackwardOp::create(
      b, loc, mm.getLhs(), mm.getRhs(), mm.getGroupSizes(), dout,
      emptyLike(b, loc, mm.getLhs()), emptyLike(b, loc, mm.getRhs()));
  // Operands: lhs, rhs, group_sizes, outs.
  return SmallVector<Value>{grad.getDlhs(), grad.getDrhs(), Value(), Value()};
}

static FailureOr<SmallVector<Value>>
groupedSwigluVjp(GroupedSwigluOp sw, OpBuilder &b, ArrayRef<Value> cotangents) {
  if (failed(rejectPackedWeights(sw, sw.getWGate())))
    return failure();
  Location loc = sw.getLoc();
  Value dout = cotangentOrZeros(b, loc, cotangents[0], sw.getOut());
  SmallVector<Value> inits = {emptyLike(b, loc, sw.getX()),
                              emptyLike(b, loc, sw.getWGate()),
                              emptyLike(b, loc, sw.getWUp())};
  auto grad = GroupedSwigluBackwardOp::create(b, loc, sw.getX(), sw.getWGate(),
                                              sw.getWUp(), sw.getGroupSizes(),
                                              dout, inits);
  // Operands: x, w_gate, w_up, group_sizes, outs.
  return SmallVector<Value>{grad.getDx(), grad.getDwGate(), grad.getDwUp(),
                            Value(), Value()};
}

static FailureOr<SmallVector<Value>>
moeCombineVjp(MoeCombineOp combine, OpBuilder &b, ArrayRef<Value> cotangents) {
  Location loc = combine.getLoc();
  Value dout = cotangentOrZeros(b, loc, cotangents[0], combine.getOut());
  auto grad = MoeCombineBackwardOp::create(
      b, loc, combine.getExpertOut(), combine.getPermutation(),
      combine.getWeights(), dout, emptyLike(b, loc, combine.getExpertOut()),
      emptyLike(b, loc, combine.getWeights()));
  // Operands: expert_out, permutation, weights, outs.
  return SmallVector<Value>{grad.getDExpertOut(), Value(), grad.getDWeights(),
                            Value()};
}

void mlir::mixer::attachMoEVjpModels(MLIRContext &context) {
  GroupedMatmulOp::attachInterface<VjpModel<GroupedMatmulOp, groupedMatmulVjp>>(
      context);
  GroupedSwigluOp::attachInterface<VjpModel<GroupedSwigluOp, groupedSwigluVjp>>(
      context);
  MoeCombineOp::attachInterface<VjpModel<MoeCombineOp, moeCombineVjp>>(context);
}
