//===- MixerMoEBackwardOps.td - backward ops -*- tablegen -*-===//
//
// One backward op per differentiable moe op: the op's inputs, the
// cotangents of its results and the residuals its forward saved in; the
// cotangent of every array input out.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_DIALECT_MIXER_IR_MIXERMOEBACKWARDOPS_TD
#define MIXER_DIALECT_MIXER_IR_MIXERMOEBACKWARDOPS_TD

#endif // MIXER_DIALECT_MIXER_IR_MIXERMOEBACKWARDOPS_TD
