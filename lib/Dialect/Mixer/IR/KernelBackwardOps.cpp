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
  return KernelSignature::ofKernel(*this, getKernel(), getOuts())
      .points(getX(), getY())
      .values(getV())
      .bandwidth(getBandwidth())
      .input(getDout(), "dout", {"N", "C"})
      .result("dx", {"N", "D"})
      .result("dy", {"M", "D"})
      .result("dv", {"M", "C"})
      .result("dbandwidth", {})
      .verify();
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

// Loops ((Bt,) N, M, C, D): a tile is a block of rows of x, dout and dx; it
// reads all of y and v and sums over M and C inside.
static KernelSignature signatureOf(KernelMvPointGradOp op) {
  return KernelSignature::ofKernel(op, op.getKernel(), op.getOuts())
      .points(op.getX(), op.getY())
      .values(op.getV())
      .input(op.getDout(), "dout", {"N", "C"})
      .bandwidth(op.getBandwidth())
      .result("dx", {"N", "D"})
      .loops({"N"}, {"M", "C", "D"});
}

MIXER_KERNEL_OP(KernelMvPointGradOp)

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
  return KernelSignature::ofCost(*this, "kernel", getKernel(), getOuts())
      .points(getX(), getY())
      .eps(getEps())
      .input(getOut(), "out", {"N"})
      .input(getDout(), "dout", {"N"})
      .input(getG(), "g", {"M"})
      .result("dx", {"N", "D"})
      .result("dy", {"M", "D"})
      .result("dg", {"M"})
      .verify();
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

// Loops ((Bt,) N, M, D): a tile is a block of rows of x, row_shift and both
// results; it reads all of y and the column operands.
static KernelSignature signatureOf(KernelLsePointGradOp op) {
  return KernelSignature::ofCost(op, "kernel", op.getKernel(), op.getOuts())
      .points(op.getX(), op.getY())
      .eps(op.getEps())
      .input(op.getRowShift(), "row_shift", {"N"})
      .input(op.getColShift(), "col_shift", {"M"})
      .input(op.getColWeight(), "col_weight", {"M"})
      .result("grad", {"N", "D"})
      .result("sums", {"N"})
      .loops({"N"}, {"M", "D"});
}

MIXER_KERNEL_OP(KernelLsePointGradOp)
