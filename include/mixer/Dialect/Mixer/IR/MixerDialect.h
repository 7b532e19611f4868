//===- MixerDialect.h - mixer dialect and attributes ------------*- C++ -*-===//

#ifndef MIXER_DIALECT_MIXER_IR_MIXERDIALECT_H
#define MIXER_DIALECT_MIXER_IR_MIXERDIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"

#include "mixer/Dialect/Mixer/IR/MixerDialect.h.inc"
#include "mixer/Dialect/Mixer/IR/MixerEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "mixer/Dialect/Mixer/IR/MixerAttrs.h.inc"

namespace mlir {
class OpAsmParser;
class OpAsmPrinter;
} // namespace mlir

namespace mlir::mixer {

/// Whether `kind` is a kernel function k(x, y), accepted by mixer.kernel_mv:
/// every kind but sqeuclidean.
bool isKernelFunction(KernelKind kind);
/// Whether `kind` names a cost c(x, y) of the log-domain ops
/// (mixer.kernel_lse, mixer.sinkhorn): sqeuclidean (c = r^2), gaussian
/// (c = r^2 / 2) and laplacian (c = r).
bool isLogDomainCost(KernelKind kind);
/// Whether the kernel or cost of `kind` depends on ||x - y|| only (every kind
/// but linear), so that it needs the squared distances rather than <x, y>.
bool isDistanceBased(KernelKind kind);

/// Custom assembly directive `custom<KernelKind>($attr)`: a #mixer.kernel<...>
/// attribute written as its bare enum keyword, as in `kernel(gaussian)`.
ParseResult parseKernelKind(OpAsmParser &parser, KernelKindAttr &kind);
void printKernelKind(OpAsmPrinter &printer, Operation *op, KernelKindAttr kind);

} // namespace mlir::mixer

#endif // MIXER_DIALECT_MIXER_IR_MIXERDIALECT_H
