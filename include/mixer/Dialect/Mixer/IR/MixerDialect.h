//===- MixerDialect.h - mixer dialect and attributes ------------*- C++ -*-===//

#ifndef MIXER_DIALECT_MIXER_IR_MIXERDIALECT_H
#define MIXER_DIALECT_MIXER_IR_MIXERDIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"

#include "mixer/Dialect/Mixer/IR/MixerDialect.h.inc"
#include "mixer/Dialect/Mixer/IR/MixerEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "mixer/Dialect/Mixer/IR/MixerAttrs.h.inc"

#endif // MIXER_DIALECT_MIXER_IR_MIXERDIALECT_H
