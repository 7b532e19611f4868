//===- MixerToLoops.h - mixer ops to scalar loops ---------------*- C++ -*-===//

#ifndef MIXER_CONVERSION_MIXERTOLOOPS_MIXERTOLOOPS_H
#define MIXER_CONVERSION_MIXERTOLOOPS_MIXERTOLOOPS_H

#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace mlir::mixer {

#define GEN_PASS_DECL_CONVERTMIXERTOLOOPSPASS
#include "mixer/Conversion/Passes.h.inc"

/// Adds the patterns that rewrite mixer ops into scalar scf.for loop nests.
void populateMixerToLoopsPatterns(RewritePatternSet &patterns);

/// mixer.topk_router as its per-token scalar loops. convert-mixer-to-linalg
/// uses them too: routing reads T x E logits once and E is small.
void populateTopkRouterToLoopsPatterns(RewritePatternSet &patterns);

/// The router's scalar loops over the rows of `logits` [T, E], written into
/// `weightsOut` [T, k] and `idsOut` [T, k]; returns the updated two. The
/// vectorized router uses them for the tokens after its last full vector.
SmallVector<Value> buildTopkRouterLoops(OpBuilder &b, Location loc,
                                        Value logits, Value weightsOut,
                                        Value idsOut, int64_t k,
                                        bool normalize);

} // namespace mlir::mixer

#endif // MIXER_CONVERSION_MIXERTOLOOPS_MIXERTOLOOPS_H
