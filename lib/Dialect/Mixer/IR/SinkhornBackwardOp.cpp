//===- SinkhornBackwardOp.cpp - verifier of mixer.sinkhorn_backward -------===//
//
// The operands are stated with the symbols of mixer.sinkhorn (N, M, D); the
// potentials' cotangents, when given, must be zero when the code runs.
//
//===----------------------------------------------------------------------===//

#include "KernelShapes.h"
#include "ShapeVerifier.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"

using namespace mlir;
using namespace mlir::mixer;

void SinkhornBackwardOp::build(OpBuilder &builder, OperationState &state,
                               KernelKind cost, Value x, Value y, Value logA,
                               Value logB, Value eps, Value f, Value g,
                               Value dCost, Value df, Value dg,
                               ValueRange outInits) {
  build(builder, state, outInits.getTypes(),
        KernelKindAttr::get(builder.getContext(), cost), x, y, logA, logB, eps,
        f, g, dCost, df, dg, outInits);
}

LogicalResult SinkhornBackwardOp::verify() {
  if (failed(verifyLogDomainCost(*this, "cost", getCost())))
    return failure();
  ShapeVerifier v(*this);
  if (failed(v.check(getX(), "x", {"N", "D"})) ||
      failed(v.check(getY(), "y", {"M", "D"})) ||
      failed(v.check(getLogA(), "log_a", {"N"})) ||
      failed(v.check(getLogB(), "log_b", {"M"})) ||
      failed(v.checkScalar(getEps(), "eps")) ||
      failed(v.check(getF(), "f", {"N"})) ||
      failed(v.check(getG(), "g", {"M"})) ||
      failed(v.checkScalar(getDCost(), "d_cost")))
    return failure();
  v.require(getEps(), "eps", ValueRule::Positive);
  if (Value df = getDf()) {
    if (failed(v.check(df, "df", {"N"})))
      return failure();
    v.require(df, "df", ValueRule::Zero);
  }
  if (Value dg = getDg()) {
    if (failed(v.check(dg, "dg", {"M"})))
      return failure();
    v.require(dg, "dg", ValueRule::Zero);
  }
  if (failed(verifyOutsAndResults(*this, getOuts(), 4)) ||
      failed(v.check(getOuts()[0], "dx", {"N", "D"})) ||
      failed(v.check(getOuts()[1], "dy", {"M", "D"})) ||
      failed(v.check(getOuts()[2], "dlog_a", {"N"})) ||
      failed(v.check(getOuts()[3], "dlog_b", {"M"})))
    return failure();
  return success();
}
