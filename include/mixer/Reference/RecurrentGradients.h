//===- RecurrentGradients.h - fp64 gradients of the recurrent scans -*- C++ -*-===//
//
// The vector-Jacobian products of selective_scan and gated_delta_rule,
// computed from their recurrences token by token in double: a forward pass
// that keeps every per-token state (the reference may: its shapes are small),
// then the reverse recurrence of the state cotangent. The oracle of the
// backward ops' tests.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_REFERENCE_RECURRENTGRADIENTS_H
#define MIXER_REFERENCE_RECURRENTGRADIENTS_H

#include "mixer/Reference/Reference.h"

namespace mixer::ref {

/// The gradients of mixer.selective_scan's array inputs. Those of absent
/// optional operands are empty tensors. dA, dDSkip and dDeltaBias are summed
/// over the batch.
struct SelectiveScanGrads {
  Tensor u, delta, A, b, c, dSkip, z, deltaBias, init;
};

/// The gradients of selectiveScan(u, delta, A, b, c, opts) for the output
/// cotangent `dy` [B,L,D] and final-state cotangent `dFinal` [B,D,N]; a null
/// cotangent is zero.
SelectiveScanGrads selectiveScanVjp(const Tensor &u, const Tensor &delta,
                                    const Tensor &A, const Tensor &b,
                                    const Tensor &c,
                                    const SelectiveScanOptions &opts,
                                    const Tensor *dy, const Tensor *dFinal);

/// The gradients of mixer.gated_delta_rule's array inputs (init: empty when
/// absent).
struct GatedDeltaRuleGrads {
  Tensor q, k, v, g, beta, init;
};

/// The gradients of gatedDeltaRule(q, k, v, g, beta, init, scale) for the
/// output cotangent `dO` [B,L,H,Dv] and final-state cotangent `dFinal`
/// [B,H,Dk,Dv]; a null cotangent is zero.
GatedDeltaRuleGrads gatedDeltaRuleVjp(const Tensor &q, const Tensor &k,
                                      const Tensor &v, const Tensor &g,
                                      const Tensor &beta, const Tensor *init,
                                      double scale, const Tensor *dO,
                                      const Tensor *dFinal);

} // namespace mixer::ref

#endif // MIXER_REFERENCE_RECURRENTGRADIENTS_H
