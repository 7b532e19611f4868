//===- MixerToLinalg.h - mixer ops to blocked linalg ------------*- C++ -*-===//

#ifndef MIXER_CONVERSION_MIXERTOLINALG_MIXERTOLINALG_H
#define MIXER_CONVERSION_MIXERTOLINALG_MIXERTOLINALG_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace mlir::mixer {

#define GEN_PASS_DECL_CONVERTMIXERTOLINALGPASS
#include "mixer/Conversion/Passes.h.inc"

/// Adds the patterns that rewrite mixer ops into linalg + scf on tensors.
void populateMixerToLinalgPatterns(RewritePatternSet &patterns,
                                   int64_t recurrentThreshold = 8);

} // namespace mlir::mixer

#endif // MIXER_CONVERSION_MIXERTOLINALG_MIXERTOLINALG_H
