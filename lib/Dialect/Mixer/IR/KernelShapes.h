//===- KernelShapes.h - shape checks shared by the kernel ops ---*- C++ -*-===//
//
// The forward kernel sums and their backward ops state their operands with
// the same symbols ((Bt,) N, M, D, C) and the same rules; these helpers are
// defined in KernelOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_LIB_DIALECT_MIXER_IR_KERNELSHAPES_H
#define MIXER_LIB_DIALECT_MIXER_IR_KERNELSHAPES_H

#include "mixer/Dialect/Mixer/IR/MixerDialect.h"

#include "mlir/IR/Operation.h"

namespace mlir::mixer {
class ShapeVerifier;

/// Dimension symbols of an operand, with the batch symbol Bt in front when the
/// op is batched.
SmallVector<StringRef> kernelDims(bool batched,
                                  std::initializer_list<StringRef> dims);

/// Decides from `x` whether the op is batched: x must be [N, D] or
/// [Bt, N, D]. Every other operand is then checked against that choice.
FailureOr<bool> batchedFromX(Operation *op, Value x);

/// The check of a log-domain cost attribute (kernel_lse, transport_cost,
/// sinkhorn and their backward ops).
LogicalResult verifyLogDomainCost(Operation *op, StringRef attrName,
                                  KernelKind kind);

/// The check of a kernel attribute of kernel_mv and its backward ops.
LogicalResult verifyKernelFunction(Operation *op, KernelKind kind);

/// The operands kernel_mv and its backward ops share: x, y, v and the
/// bandwidth (> 0 but for the linear kernel, which ignores it).
LogicalResult verifyKernelMvOperands(ShapeVerifier &v, bool batched,
                                     KernelKind kind, Value x, Value y,
                                     Value values, Value bandwidth);

} // namespace mlir::mixer

#endif // MIXER_LIB_DIALECT_MIXER_IR_KERNELSHAPES_H
