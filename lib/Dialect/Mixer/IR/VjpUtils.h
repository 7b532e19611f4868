//===- VjpUtils.h - small builders shared by the VJP models -----*- C++ -*-===//

#ifndef MIXER_LIB_DIALECT_MIXER_IR_VJPUTILS_H
#define MIXER_LIB_DIALECT_MIXER_IR_VJPUTILS_H

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

} // namespace mlir::mixer

#endif // MIXER_LIB_DIALECT_MIXER_IR_VJPUTILS_H
