//===- MixerKernelBackwardOps.td - backward ops -*- tablegen -*-===//
//
// One backward op per differentiable kernel op: the op's inputs, the
// cotangents of its results and the residuals its forward saved in; the
// cotangent of every array input out.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_DIALECT_MIXER_IR_MIXERKERNELBACKWARDOPS_TD
#define MIXER_DIALECT_MIXER_IR_MIXERKERNELBACKWARDOPS_TD

#endif // MIXER_DIALECT_MIXER_IR_MIXERKERNELBACKWARDOPS_TD
