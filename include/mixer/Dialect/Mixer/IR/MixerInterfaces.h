//===- MixerInterfaces.h - the interfaces of mixer ops ----------*- C++ -*-===//

#ifndef MIXER_DIALECT_MIXER_IR_MIXERINTERFACES_H
#define MIXER_DIALECT_MIXER_IR_MIXERINTERFACES_H

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/OpDefinition.h"

namespace mlir::mixer {
struct TargetDescription;
} // namespace mlir::mixer

#include "mixer/Dialect/Mixer/IR/MixerInterfaces.h.inc"

namespace mlir {
class MLIRContext;
namespace mixer {
/// Attaches the TilingInterface model, written once over the indexing maps
/// of MixerStructuredOpInterface, to every structured mixer op.
void attachTilingInterfaceModels(MLIRContext &context);
/// Attaches the DifferentiableOpInterface model of every differentiable
/// mixer op (one function per op family: ScanVjp.cpp, KernelVjp.cpp,
/// MoEVjp.cpp).
void attachScanVjpModels(MLIRContext &context);
void attachKernelVjpModels(MLIRContext &context);
void attachMoEVjpModels(MLIRContext &context);
} // namespace mixer
} // namespace mlir

#endif // MIXER_DIALECT_MIXER_IR_MIXERINTERFACES_H
