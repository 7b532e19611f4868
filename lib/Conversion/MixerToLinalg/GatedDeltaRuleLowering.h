//===- GatedDeltaRuleLowering.h - the delta rule's state update -*- C++ -*-===//
//
// The recurrent form of the gated delta rule, S_t = a S + k w^T with
// w = beta (v - a S^T k), as two steps that the forward's token step and the
// backward's state recomputation share.
//
//===----------------------------------------------------------------------===//

#ifndef MIXER_LIB_CONVERSION_MIXERTOLINALG_GATEDDELTARULELOWERING_H
#define MIXER_LIB_CONVERSION_MIXERTOLINALG_GATEDDELTARULELOWERING_H

#include "mixer/Utils/LinalgBuilder.h"

namespace mlir::mixer {

/// w = beta (v - gate kS) for one token's v and kS = S^T k [Dv] and the f32
/// scalars gate = exp(g) and beta.
Value buildDeltaRuleWrite(LinalgBuilder &lb, Value vt, Value kS, Value gate,
                          Value beta);

/// S = gate S + k w^T in place, for S [Dk, Dv], k [Dk] and w [Dv].
Value buildDeltaRuleUpdate(LinalgBuilder &lb, Value st, Value k, Value w,
                           Value gate);

} // namespace mlir::mixer

#endif // MIXER_LIB_CONVERSION_MIXERTOLINALG_GATEDDELTARULELOWERING_H
