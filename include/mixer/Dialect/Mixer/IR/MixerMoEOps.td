//===- MixerMoEOps.td ------------------------------------*- tablegen -*-===//

#ifndef MIXER_DIALECT_MIXER_IR_MIXERMOEOPS_TD
#define MIXER_DIALECT_MIXER_IR_MIXERMOEOPS_TD

#endif // MIXER_DIALECT_MIXER_IR_MIXERMOEOPS_TD
