//===- MixerKernelOps.td ------------------------------------*- tablegen -*-===//

#ifndef MIXER_DIALECT_MIXER_IR_MIXERKERNELOPS_TD
#define MIXER_DIALECT_MIXER_IR_MIXERKERNELOPS_TD

#endif // MIXER_DIALECT_MIXER_IR_MIXERKERNELOPS_TD
