//===- VjpUtils.h - small builders shared by the VJP models -----*- C++ -*-===//

#ifndef MIXER_LIB_DIALECT_MIXER_IR_VJPUTILS_H
#define MIXER_LIB_DIALECT_MIXER_IR_VJPUTILS_H

#include "mixer/Dialect/Mixer/IR/MixerInterfaces.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::mixer {

/// A fresh tensor of the shape and type of `like` (its contents unset): the
/// `outs` of a backward op.
inline Value emptyLike(OpBuilder &b, Location loc, Value like) {
  auto type = cast<RankedTensorType>(like.getType());
  return tensor::EmptyOp::create(b, loc, tensor::getMixedSizes(b, loc, like),
                                 type.getElementType());
}

/// `cotangent`, or zeros of the type of `result` when it is null (a zero
/// cotangent).
inline Value cotangentOrZeros(OpBuilder &b, Location loc, Value cotangent,
                              Value result) {
  if (cotangent)
    return cotangent;
  Type elt = cast<RankedTensorType>(result.getType()).getElementType();
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elt));
  return tensor::SplatOp::create(b, loc, zero,
                                 tensor::getMixedSizes(b, loc, result));
}

/// The DifferentiableOpInterface model of `OpTy` whose product is built by
/// `vjp(op, builder, cotangents)`.
template <typename OpTy, FailureOr<SmallVector<Value>> (*vjp)(OpTy, OpBuilder &,
                                                              ArrayRef<Value>)>
struct VjpModel
    : public DifferentiableOpInterface::ExternalModel<VjpModel<OpTy, vjp>,
                                                      OpTy> {
  FailureOr<SmallVector<Value>> buildVjp(Operation *op, OpBuilder &b,
                                         ArrayRef<Value> cotangents) const {
    return vjp(cast<OpTy>(op), b, cotangents);
  }
};

} // namespace mlir::mixer

#endif // MIXER_LIB_DIALECT_MIXER_IR_VJPUTILS_H
