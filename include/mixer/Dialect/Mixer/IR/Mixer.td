//===- Mixer.td - mixer dialect umbrella -------------------*- tablegen -*-===//
//
// The one file that TableGen reads: the dialect, its attributes and its ops.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_DIALECT_MIXER_IR_MIXER_TD
#define MIXER_DIALECT_MIXER_IR_MIXER_TD

include "mixer/Dialect/Mixer/IR/MixerBase.td"
include "mixer/Dialect/Mixer/IR/MixerAttrs.td"
include "mixer/Dialect/Mixer/IR/MixerOps.td"

#endif // MIXER_DIALECT_MIXER_IR_MIXER_TD
