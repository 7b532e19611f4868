//===- KernelShapes.h - shape checks shared by the kernel ops ---*- C++ -*-===//
//
// The forward kernel sums and their backward ops state their operands with
// the same symbols ((Bt,) N, M, D, C) and the same rules, each as a
// KernelSignature from which one routine verifies it and another states its
// loops and maps; these are defined in KernelOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_LIB_DIALECT_MIXER_IR_KERNELSHAPES_H
#define MIXER_LIB_DIALECT_MIXER_IR_KERNELSHAPES_H

#include "mixer/Dialect/Mixer/IR/MixerDialect.h"

#include "ShapeVerifier.h"
#include "TilingUtils.h"

#include "mlir/IR/Operation.h"

#include <optional>

namespace mlir::mixer {

/// Dimension symbols of an operand, with the batch symbol Bt in front when the
/// op is batched.
SmallVector<StringRef> kernelDims(bool batched, ArrayRef<StringRef> dims);

/// Decides from `x` whether the op is batched: x must be [N, D] or
/// [Bt, N, D]. Every other operand is then checked against that choice.
FailureOr<bool> batchedFromX(Operation *op, Value x);

/// The check of a log-domain cost attribute (kernel_lse, transport_cost,
/// sinkhorn and their backward ops).
LogicalResult verifyLogDomainCost(Operation *op, StringRef attrName,
                                  KernelKind kind);

/// The check of a kernel attribute of kernel_mv and its backward ops.
LogicalResult verifyKernelFunction(Operation *op, KernelKind kind);

/// What a kernel op declares once, for its verifier and for its tiling: the
/// kernel attribute and what it must name, every operand and result with
/// its dims as NamedOperands, and the loops. The dims are stated without the
/// batch dim Bt, which every operand but the 0-d scalars has in front when
/// the op is batched (when x, its first operand, is [Bt, N, D]).
class KernelSignature {
public:
  /// An op whose attribute 'kernel' must be a kernel function (kernel_mv
  /// and its backward ops); `outs` are its `outs` operands, taken in order
  /// by `result`.
  static KernelSignature ofKernel(Operation *op, KernelKind kind,
                                  ValueRange outs);
  /// An op whose attribute `attrName` must be a log-domain cost.
  static KernelSignature ofCost(Operation *op, StringRef attrName,
                                KernelKind kind, ValueRange outs);

  /// The op takes no batch dim (sinkhorn): x is [N, D].
  KernelSignature &unbatched();
  /// x [N, D] and y [M, D], the points every kernel op starts with.
  KernelSignature &points(Value x, Value y);
  /// The values v [M, C] of kernel_mv.
  KernelSignature &values(Value v);
  /// The bandwidth of kernel_mv (0-d, > 0 but for the linear kernel, which
  /// ignores it).
  KernelSignature &bandwidth(Value bandwidth);
  /// eps (0-d, > 0).
  KernelSignature &eps(Value eps);
  /// Any other input operand, in operand order; empty `dims` for a 0-d one.
  KernelSignature &input(Value value, StringRef name, ArrayRef<StringRef> dims,
                         std::optional<ValueRule> rule = std::nullopt);
  /// The next result.
  KernelSignature &result(StringRef name, ArrayRef<StringRef> dims);
  /// The loops: `tiled` (after Bt) are split by tiling, `reduction` summed.
  KernelSignature &loops(ArrayRef<StringRef> tiled,
                         ArrayRef<StringRef> reduction);

  /// Checks the attribute, every operand (binding the dimension symbols)
  /// and the results against their `outs`.
  LogicalResult verify() const;
  /// The loops and maps of the op.
  OpStructure structure() const;

private:
  KernelSignature(Operation *op, ValueRange outs) : op(op), outs(outs) {}
  bool isBatched() const;
  /// `operands` with Bt in front of the dims of every non-scalar one when
  /// `batched`.
  static SmallVector<NamedOperand> withBatch(ArrayRef<NamedOperand> operands,
                                             bool batched);

  Operation *op;
  ValueRange outs;
  StringRef attrName;
  KernelKind kind = KernelKind::linear;
  bool costAttr = false, batchable = true;
  SmallVector<NamedOperand, 8> inputs;
  SmallVector<NamedOperand, 4> results;
  SmallVector<StringRef, 2> tiledLoops, reductionLoops;
};

/// The verifier and the MixerStructuredOpInterface methods of a kernel op,
/// from a `static KernelSignature signatureOf(OpTy)` in the same file.
#define MIXER_KERNEL_OP(OpTy)                                                  \
  LogicalResult OpTy::verify() { return signatureOf(*this).verify(); }         \
  static OpStructure structureOf(OpTy op) {                                    \
    return signatureOf(op).structure();                                        \
  }                                                                            \
  MIXER_STRUCTURED_OP(OpTy)

} // namespace mlir::mixer

#endif // MIXER_LIB_DIALECT_MIXER_IR_KERNELSHAPES_H
