//===- KernelVjp.cpp - vector-Jacobian products of the kernel ops ---------===//
//
// DifferentiableOpInterface of kernel_mv, kernel_lse and sinkhorn: each
// builds the op's backward op, with fresh tensors as its `outs`. A null
// cotangent (a zero one) becomes a tensor of zeros.
//
//===----------------------------------------------------------------------===//

#include "VjpUtils.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"

using namespace mlir;
using namespace mlir::mixer;

static FailureOr<SmallVector<Value>> kernelMvVjp(KernelMvOp mv, OpBuilder &b,
                                                 ArrayRef<Value> cotangents) {
  Location loc = mv.getLoc();
  Value dout = cotangentOrZeros(b, loc, cotangents[0], mv.getOut());
  SmallVector<Value> inits = {
      emptyLike(b, loc, mv.getX()), emptyLike(b, loc, mv.getY()),
      emptyLike(b, loc, mv.getV()), emptyLike(b, loc, mv.getBandwidth())};
  auto grad =
      KernelMvBackwardOp::create(b, loc, mv.getKernel(), mv.getX(), mv.getY(),
                                 mv.getV(), mv.getBandwidth(), dout, inits);
  // Operands: x, y, v, bandwidth, outs.
  return SmallVector<Value>{grad.getDx(), grad.getDy(), grad.getDv(),
                            grad.getDbandwidth(), Value()};
}

static FailureOr<SmallVector<Value>> kernelLseVjp(KernelLseOp lse, OpBuilder &b,
                                                  ArrayRef<Value> cotangents) {
  Location loc = lse.getLoc();
  Value dout = cotangentOrZeros(b, loc, cotangents[0], lse.getOut());
  // dg has the shape of g, [(Bt,) M], whether or not g is given.
  SmallVector<OpFoldResult> colSizes =
      tensor::getMixedSizes(b, loc, lse.getY());
  colSizes.pop_back();
  Value dgInit = tensor::EmptyOp::create(b, loc, colSizes, b.getF32Type());
  SmallVector<Value> inits = {emptyLike(b, loc, lse.getX()),
                              emptyLike(b, loc, lse.getY()), dgInit};
  // The forward result is the residual: the log-normalizer of every row.
  auto grad = KernelLseBackwardOp::create(
      b, loc, lse.getKernel(), lse.getX(), lse.getY(), lse.getEps(),
      lse.getOut(), dout, lse.getG(), inits);
  // Operands: x, y, eps (no gradient), g (when present), outs.
  SmallVector<Value> result = {grad.getDx(), grad.getDy(), Value()};
  if (lse.getG())
    result.push_back(grad.getDg());
  result.push_back(Value());
  return result;
}

/// The cotangent of transport_cost is applied to the entropic OT value
/// <a, f> + <b, g> (the envelope theorem; see mixer.sinkhorn_backward);
/// those of f and g, when present, go to the backward op, which requires
/// them to be zero when the code runs.
static FailureOr<SmallVector<Value>>
sinkhornVjp(SinkhornOp sinkhorn, OpBuilder &b, ArrayRef<Value> cotangents) {
  Location loc = sinkhorn.getLoc();
  Value dCost =
      cotangentOrZeros(b, loc, cotangents[2], sinkhorn.getTransportCost());
  SmallVector<Value> inits = {emptyLike(b, loc, sinkhorn.getX()),
                              emptyLike(b, loc, sinkhorn.getY()),
                              emptyLike(b, loc, sinkhorn.getLogA()),
                              emptyLike(b, loc, sinkhorn.getLogB())};
  auto grad = SinkhornBackwardOp::create(
      b, loc, sinkhorn.getCost(), sinkhorn.getX(), sinkhorn.getY(),
      sinkhorn.getLogA(), sinkhorn.getLogB(), sinkhorn.getEps(),
      sinkhorn.getF(), sinkhorn.getG(), dCost, cotangents[0], cotangents[1],
      inits);
  // Operands: x, y, log_a, log_b, eps (a hyperparameter), outs.
  return SmallVector<Value>{grad.getDx(),    grad.getDy(), grad.getDlogA(),
                            grad.getDlogB(), Value(),      Value(),
                            Value(),         Value()};
}

void mlir::mixer::attachKernelVjpModels(MLIRContext &context) {
  KernelMvOp::attachInterface<VjpModel<KernelMvOp, kernelMvVjp>>(context);
  KernelLseOp::attachInterface<VjpModel<KernelLseOp, kernelLseVjp>>(context);
  SinkhornOp::attachInterface<VjpModel<SinkhornOp, sinkhornVjp>>(context);
}
