//===- KernelBackwardOps.cpp - verifiers and tiling of the kernel backward ops
//===//
//
// mixer.kernel_mv_backward and mixer.kernel_lse_backward (composites) and the
// point-gradient sums they decompose into, which are tiled over their rows.
// The operands are stated with the symbols of the forward ops.
//
//===----------------------------------------------------------------------===//

#include "KernelShapes.h"
#include "ShapeVerifier.h"
#include "TilingUtils.h"
#include "mixer/Dialect/Mixer/IR/MixerOps.h"

using namespace mlir;
using namespace mlir::mixer;

//===----------------------------------------------------------------------===//
// KernelMvBackwardOp
//===----------------------------------------------------------------------===//

void KernelMvBackwardOp::build(OpBuilder &builder, OperationState &state,
                               KernelKind kernel, Value x, Value y, Value v,
                               Value bandwidth, Value dout,
                               ValueRange outInits) {
  build(builder, state, outInits.getTypes(),
        KernelKindAttr::get(builder.getContext(), kernel), x, y, v, bandwidth,
        dout, outInits);
}

LogicalResult KernelMvBackwardOp::verify() {
  KernelKind kind = getKernel();
  if (failed(verifyKernelFunction(*this, kind)))
    return failure();
  FailureOr<bool> batched = batchedFromX(*this, getX());
  if (failed(batched))
    return failure();
  ShapeVerifier v(*this);
  auto dims = [&](std::initializer_list<StringRef> d) {
    return kernelDims(*batched, d);
  };
  if (failed(verifyKernelMvOperands(v, *batched, kind, getX(), getY(), getV(),
                                    getBandwidth())) ||
      failed(v.check(getDout(), "dout", dims({"N", "C"}))) ||
      failed(verifyOutsAndResults(*this, getOuts(), 4)) ||
      failed(v.check(getOuts()[0], "dx", dims({"N", "D"}))) ||
      failed(v.check(getOuts()[1], "dy", dims({"M", "D"}))) ||
      failed(v.check(getOuts()[2], "dv", dims({"M", "C"}))) ||
      failed(v.checkScalar(getOuts()[3], "dbandwidth")))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// KernelMvPointGradOp
//===----------------------------------------------------------------------===//

void KernelMvPointGradOp::build(OpBuilder &builder, OperationState &state,
                                KernelKind kernel, Value x, Value y, Value v,
                                Value dout, Value bandwidth, Value outInit) {
  build(builder, state, outInit.getType(),
        KernelKindAttr::get(builder.getContext(), kernel), x, y, v, dout,
        bandwidth, ValueRange{outInit});
}

LogicalResult KernelMvPointGradOp::verify() {
  KernelKind kind = getKernel();
  if (failed(verifyKernelFunction(*this, kind)))
    return failure();
  FailureOr<bool> batched = batchedFromX(*this, getX());
  if (failed(batched))
    return failure();
  ShapeVerifier v(*this);
  auto dims = [&](std::initializer_list<StringRef> d) {
    return kernelDims(*batched, d);
  };
  if (failed(verifyKernelMvOperands(v, *batched, kind, getX(), getY(), getV(),
                                    getBandwidth())) ||
      failed(v.check(getDout(), "dout", dims({"N", "C"}))) ||
      failed(verifyOutsAndResults(*this, getOuts(), 1)) ||
      failed(v.check(getOuts()[0], "dx", dims({"N", "D"}))))
    return failure();
  return success();
}

// Loops ((Bt,) N, M, C, D): a tile is a block of rows of x, dout and dx; it
// reads all of y and v and sums over M and C inside.
static OpStructure structureOf(KernelMvPointGradOp op) {
  bool batched = op.isBatched();
  OpStructure s(op.getContext());
  s.tiled(kernelDims(batched, {"N"})).reduction({"M", "C", "D"});
  return s.operand(op.getX(), kernelDims(batched, {"N", "D"}))
      .operand(op.getY(), kernelDims(batched, {"M", "D"}))
      .operand(op.getV(), kernelDims(batched, {"M", "C"}))
      .operand(op.getDout(), kernelDims(batched, {"N", "C"}))
      .operand(op.getBandwidth(), {})
      .operand(op.getOuts()[0], kernelDims(batched, {"N", "D"}));
}

MIXER_STRUCTURED_OP(KernelMvPointGradOp)

//===----------------------------------------------------------------------===//
// KernelLseBackwardOp
//===----------------------------------------------------------------------===//

void KernelLseBackwardOp::build(OpBuilder &builder, OperationState &state,
                                KernelKind kernel, Value x, Value y, Value eps,
                                Value out, Value dout, Value g,
                                ValueRange outInits) {
  build(builder, state, outInits.getTypes(),
        KernelKindAttr::get(builder.getContext(), kernel), x, y, eps, out, dout,
        g, outInits);
}

LogicalResult KernelLseBackwardOp::verify() {
  if (failed(verifyLogDomainCost(*this, "kernel", getKernel())))
    return failure();
  FailureOr<bool> batched = batchedFromX(*this, getX());
  if (failed(batched))
    return failure();
  ShapeVerifier v(*this);
  auto dims = [&](std::initializer_list<StringRef> d) {
    return kernelDims(*batched, d);
  };
  if (failed(v.check(getX(), "x", dims({"N", "D"}))) ||
      failed(v.check(getY(), "y", dims({"M", "D"}))) ||
      failed(v.checkScalar(getEps(), "eps")) ||
      failed(v.check(getOut(), "out", dims({"N"}))) ||
      failed(v.check(getDout(), "dout", dims({"N"}))))
    return failure();
  v.require(getEps(), "eps", ValueRule::Positive);
  if (getG() && failed(v.check(getG(), "g", dims({"M"}))))
    return failure();
  if (failed(verifyOutsAndResults(*this, getOuts(), 3)) ||
      failed(v.check(getOuts()[0], "dx", dims({"N", "D"}))) ||
      failed(v.check(getOuts()[1], "dy", dims({"M", "D"}))) ||
      failed(v.check(getOuts()[2], "dg", dims({"M"}))))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// KernelLsePointGradOp
//===----------------------------------------------------------------------===//

void KernelLsePointGradOp::build(OpBuilder &builder, OperationState &state,
                                 KernelKind kernel, Value x, Value y, Value eps,
                                 Value rowShift, Value colShift,
                                 Value colWeight, Value gradInit,
                                 Value sumsInit) {
  build(builder, state, TypeRange{gradInit.getType(), sumsInit.getType()},
        KernelKindAttr::get(builder.getContext(), kernel), x, y, eps, rowShift,
        colShift, colWeight, ValueRange{gradInit, sumsInit});
}

LogicalResult KernelLsePointGradOp::verify() {
  if (failed(verifyLogDomainCost(*this, "kernel", getKernel())))
    return failure();
  FailureOr<bool> batched = batchedFromX(*this, getX());
  if (failed(batched))
    return failure();
  ShapeVerifier v(*this);
  auto dims = [&](std::initializer_list<StringRef> d) {
    return kernelDims(*batched, d);
  };
  if (failed(v.check(getX(), "x", dims({"N", "D"}))) ||
      failed(v.check(getY(), "y", dims({"M", "D"}))) ||
      failed(v.checkScalar(getEps(), "eps")) ||
      failed(v.check(getRowShift(), "row_shift", dims({"N"}))) ||
      failed(v.check(getColShift(), "col_shift", dims({"M"}))) ||
      failed(v.check(getColWeight(), "col_weight", dims({"M"}))))
    return failure();
  v.require(getEps(), "eps", ValueRule::Positive);
  if (failed(verifyOutsAndResults(*this, getOuts(), 2)) ||
      failed(v.check(getOuts()[0], "grad", dims({"N", "D"}))) ||
      failed(v.check(getOuts()[1], "sums", dims({"N"}))))
    return failure();
  return success();
}

// Loops ((Bt,) N, M, D): a tile is a block of rows of x, row_shift and both
// results; it reads all of y and the column operands.
static OpStructure structureOf(KernelLsePointGradOp op) {
  bool batched = op.isBatched();
  OpStructure s(op.getContext());
  s.tiled(kernelDims(batched, {"N"})).reduction({"M", "D"});
  return s.operand(op.getX(), kernelDims(batched, {"N", "D"}))
      .operand(op.getY(), kernelDims(batched, {"M", "D"}))
      .operand(op.getEps(), {})
      .operand(op.getRowShift(), kernelDims(batched, {"N"}))
      .operand(op.getColShift(), kernelDims(batched, {"M"}))
      .operand(op.getColWeight(), kernelDims(batched, {"M"}))
      .operand(op.getOuts()[0], kernelDims(batched, {"N", "D"}))
      .operand(op.getOuts()[1], kernelDims(batched, {"N"}));
}

MIXER_STRUCTURED_OP(KernelLsePointGradOp)
