//===- MixerOps.h - mixer ops -----------------------------------*- C++ -*-===//

#ifndef MIXER_DIALECT_MIXER_IR_MIXEROPS_H
#define MIXER_DIALECT_MIXER_IR_MIXEROPS_H

#include "mixer/Dialect/Mixer/IR/MixerDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"

namespace mlir::mixer {
struct TargetDescription;
} // namespace mlir::mixer

#include "mixer/Dialect/Mixer/IR/MixerInterfaces.h.inc"

#define GET_OP_CLASSES
#include "mixer/Dialect/Mixer/IR/MixerOps.h.inc"

#endif // MIXER_DIALECT_MIXER_IR_MIXEROPS_H
