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

LogicalResult GroupedMatmulBackwardOp::verify() {
  ShapeVerifier v(*this);
  if (failed(v.check(getLhs(), "lhs", {"T", "K"})) ||
      failed(v.check(getRhs(), "rhs", {"E", "K", "N"})) ||
      failed(v.checkInts(getGroupSizes(), "group_sizes", {"E"})) ||
      failed(v.check(getDout(), "dout", {"T", "N"})) ||
      failed(verifyOutsAndResults(*this, getOuts(), 2)) ||
      failed(v.check(getOuts()[0], "dlhs", {"T", "K"})) ||
      failed(v.check(getOuts()[1], "drhs", {"E", "K", "N"})))
    return failure();
  v.require(getGroupSizes(), "group_sizes", ValueRule::CountsWithin, "T");
  return success();
}

// Loops (K, T, E, N): a tile is a block of K, the columns of lhs and dlhs
// and the rows of rhs[e] and drhs[e]. Rows are tied to groups by run-time
// sizes; dout and group_sizes are read whole by every tile.
static OpStructure structureOf(GroupedMatmulBackwardOp op) {
  OpStructure s(op.getContext());
  s.tiled({"K"}).whole({"T"}).reduction({"E", "N"});
  return s.operand(op.getLhs(), {"T", "K"})
      .operand(op.getRhs(), {"E", "K", "N"})
      .operand(op.getGroupSizes(), {"E"})
      .operand(op.getDout(), {"T", "N"})
      .operand(op.getOuts()[0], {"T", "K"})
      .operand(op.getOuts()[1], {"E", "K", "N"});
}

MIXER_STRUCTURED_OP(GroupedMatmulBackwardOp)

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

LogicalResult GroupedSwigluBackwardOp::verify() {
  ShapeVerifier v(*this);
  if (failed(v.check(getX(), "x", {"T", "K"})) ||
      failed(v.check(getWGate(), "w_gate", {"E", "K", "F"})) ||
      failed(v.check(getWUp(), "w_up", {"E", "K", "F"})) ||
      failed(v.checkInts(getGroupSizes(), "group_sizes", {"E"})) ||
      failed(v.check(getDout(), "dout", {"T", "F"})) ||
      failed(verifyOutsAndResults(*this, getOuts(), 3)) ||
      failed(v.check(getOuts()[0], "dx", {"T", "K"})) ||
      failed(v.check(getOuts()[1], "dw_gate", {"E", "K", "F"})) ||
      failed(v.check(getOuts()[2], "dw_up", {"E", "K", "F"})))
    return failure();
  v.require(getGroupSizes(), "group_sizes", ValueRule::CountsWithin, "T");
  return success();
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
  // The weights fix T and k first, so the T*k rows are checked against them.
  if (failed(v.check(getWeights(), "weights", {"T", "k"})))
    return failure();
  (void)bindSlots(v); // Nothing else has bound "T*k" yet.
  if (failed(v.check(getExpertOut(), "expert_out", {"T*k", "N"})) ||
      failed(
          checkIntsOfWidth(v, getPermutation(), "permutation", {"T*k"}, 32)) ||
      failed(v.check(getDout(), "dout", {"T", "N"})) ||
      failed(verifyOutsAndResults(*this, getOuts(), 2)) ||
      failed(v.check(getOuts()[0], "d_expert_out", {"T*k", "N"})) ||
      failed(v.check(getOuts()[1], "d_weights", {"T", "k"})))
    return failure();
  if (failed(bindSlots(v)) ||
      failed(checkSlotRows(v, "'expert_out' and 'permutation'", "weights")))
    return failure();
  v.require(getPermutation(), "permutation", ValueRule::IndexBelow, "T*k");
  return checkSlots(v);
}
