//===- MoEBackwardOps.cpp - verifiers and tiling of the MoE backward ops --===//
//
// mixer.grouped_matmul_backward (tiled over K), mixer.grouped_swiglu_backward
// and mixer.moe_combine_backward (not tiled: each has a result that sums over
// every dimension another result could be tiled by).
//
//===----------------------------------------------------------------------===//

#include "MoEShapes.h"
#include "TilingUtils.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"

using namespace mlir;
using namespace mlir::mixer;

//===----------------------------------------------------------------------===//
// GroupedMatmulBackwardOp
//===----------------------------------------------------------------------===//

void GroupedMatmulBackwardOp::build(OpBuilder &builder, OperationState &state,
                                    Value lhs, Value rhs, Value groupSizes,
                                    Value dout, Value dlhsInit,
                                    Value drhsInit) {
  build(builder, state, TypeRange{dlhsInit.getType(), drhsInit.getType()}, lhs,
        rhs, groupSizes, dout, ValueRange{dlhsInit, drhsInit});
}

// Loops (K, T, E, N): a tile is a block of K, the columns of lhs and dlhs
// and the rows of rhs[e] and drhs[e]. Rows are tied to groups by run-time
// sizes; dout and group_sizes are read whole by every tile.
static GroupedSignature signatureOf(GroupedMatmulBackwardOp op) {
  SmallVector<NamedOperand> inputs = groupedMatmulInputs(op);
  inputs.push_back({op.getDout(), "dout", {"T", "N"}});
  return {"K",
          {"E", "N"},
          inputs,
          namedResults(op.getOuts(),
                       {{"dlhs", {"T", "K"}}, {"drhs", {"E", "K", "N"}}})};
}

MIXER_GROUPED_OP(GroupedMatmulBackwardOp)

//===----------------------------------------------------------------------===//
// GroupedSwigluBackwardOp
//===----------------------------------------------------------------------===//

void GroupedSwigluBackwardOp::build(OpBuilder &builder, OperationState &state,
                                    Value x, Value wGate, Value wUp,
                                    Value groupSizes, Value dout,
                                    ValueRange outInits) {
  build(builder, state, outInits.getTypes(), x, wGate, wUp, groupSizes, dout,
        outInits);
}

// Not tiled: dx sums over F, which dw_gate and dw_up could be tiled by.
LogicalResult GroupedSwigluBackwardOp::verify() {
  GroupedSignature sig;
  sig.inputs = groupedSwigluInputs(*this);
  sig.inputs.push_back({getDout(), "dout", {"T", "F"}});
  sig.results = namedResults(getOuts(), {{"dx", {"T", "K"}},
                                         {"dw_gate", {"E", "K", "F"}},
                                         {"dw_up", {"E", "K", "F"}}});
  return sig.verify(*this);
}

//===----------------------------------------------------------------------===//
// MoeCombineBackwardOp
//===----------------------------------------------------------------------===//

void MoeCombineBackwardOp::build(OpBuilder &builder, OperationState &state,
                                 Value expertOut, Value permutation,
                                 Value weights, Value dout,
                                 Value dExpertOutInit, Value dWeightsInit) {
  build(builder, state,
        TypeRange{dExpertOutInit.getType(), dWeightsInit.getType()}, expertOut,
        permutation, weights, dout, ValueRange{dExpertOutInit, dWeightsInit});
}

LogicalResult MoeCombineBackwardOp::verify() {
  ShapeVerifier v(*this);
  if (failed(checkCombineInputs(v, getExpertOut(), getPermutation(),
                                getWeights())) ||
      failed(v.check(getDout(), "dout", {"T", "N"})) ||
      failed(verifyOutsAndResults(*this, getOuts(), 2)) ||
      failed(v.check(getOuts()[0], "d_expert_out", {"T*k", "N"})) ||
      failed(v.check(getOuts()[1], "d_weights", {"T", "k"})))
    return failure();
  return checkCombineSlots(v, getPermutation());
}
