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

/// The VJP of a forward grouped GEMM `op` (grouped_matmul, grouped_swiglu)
/// whose operands are `inputs`, `groupSizes` and `outs`: its backward op
/// `BackwardOp`, on the inputs, the group sizes and the cotangent of the
/// output, with fresh `outs` like the inputs, gives the inputs' gradients;
/// the group sizes and `outs` get none. Packed `weights`
/// (mixer.pack_weights) are an inference layout: their backward would need
/// the unpacked layout back, so the VJP asks for it.
template <typename BackwardOp>
static FailureOr<SmallVector<Value>>
groupedGemmVjp(Operation *op, ValueRange inputs, Value weights,
               Value groupSizes, OpBuilder &b, ArrayRef<Value> cotangents) {
  if (isPackedWeights(weights))
    return op->emitOpError()
           << "has no VJP with packed weights: differentiate with the "
              "[E, K, N] weights (mixer.pack_weights is for inference)";
  Location loc = op->getLoc();
  SmallVector<Value> operands = llvm::to_vector(inputs);
  operands.push_back(groupSizes);
  operands.push_back(cotangentOrZeros(b, loc, cotangents[0], op->getResult(0)));
  for (Value input : inputs)
    operands.push_back(emptyLike(b, loc, input));
  auto grad = BackwardOp::create(b, loc, inputs.getTypes(), operands);
  SmallVector<Value> grads = llvm::to_vector_of<Value>(grad->getResults());
  grads.append({Value(), Value()});
  return grads;
}

static FailureOr<SmallVector<Value>>
groupedMatmulVjp(GroupedMatmulOp mm, OpBuilder &b, ArrayRef<Value> cotangents) {
  return groupedGemmVjp<GroupedMatmulBackwardOp>(
      mm, {mm.getLhs(), mm.getRhs()}, mm.getRhs(), mm.getGroupSizes(), b,
      cotangents);
}

static FailureOr<SmallVector<Value>>
groupedSwigluVjp(GroupedSwigluOp sw, OpBuilder &b, ArrayRef<Value> cotangents) {
  return groupedGemmVjp<GroupedSwigluBackwardOp>(
      sw, {sw.getX(), sw.getWGate(), sw.getWUp()}, sw.getWGate(),
      sw.getGroupSizes(), b, cotangents);
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
